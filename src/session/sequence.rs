//! `checkEventSequence(events, options?)`: the order of one agent run's events, as a UI that
//! draws a timeline from them relies on. Each event is first read by `session::event` (its
//! own errors keep their codes, with the event's index in the path: `/3/message/role`); then
//! the order, where the first offending event is `EVENT_SEQUENCE_INVALID` at its index (`/3`),
//! or at `""` when the sequence ends too early (empty, or without `agent_end`). The check
//! throws the first problem (a stream of events is consumed in order; nothing after a broken
//! order can be drawn reliably) and returns the checked events.
//!
//! The rules:
//! - `agent_start` first and only there; `agent_end` last, with no turn, message or tool
//!   execution open; every message `agent_end.messages` holds ended (`message_end`) in the run.
//! - `turn_start` opens turn 1, then 2, 3...; one turn open at a time; `turn_end` closes the open
//!   turn with its number, with no message or tool execution open; its `message` is the turn's
//!   last ended assistant message and each of its `toolResults` a tool-result message ended in
//!   the turn.
//! - Message and tool execution events only inside a turn; `compaction` only between turns.
//! - `message_start` opens a message (one at a time); `message_update` only for an open
//!   assistant message; `message_end` closes it: the same message, that is the same `role` and
//!   `timestamp` (content grows while it streams, so it is not compared).
//! - `tool_execution_start` answers a `toolCall` block (same `id` and `name`) of an assistant
//!   message ended earlier in the run, at most once; `tool_execution_end` closes the open
//!   execution with its `toolCallId` and the same `toolName`.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Code, ContractError, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::HostValue;
use crate::session::event::{read_event, read_list};
use crate::session::field::Ctx;
use crate::session::message::{dialect, tool_calls};
use crate::value::{pointer_index, Value};

/// `checkEventSequence(events, options?)`. Options: `strict` and the limits.
pub fn check_event_sequence<V: HostValue>(events: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    read_sequence(&mut c, events, "", 1)
}

/// The events at `path` (an array at nesting `level`), read and checked in order.
pub fn read_sequence<V: HostValue>(c: &mut Ctx<'_>, events: &V, path: &str, level: usize) -> Result<Value> {
    let list = read_list(c, events, path, level, "an array of agent events", |c, item, item_path, level| {
        read_event(c, item, item_path, level)
    })?;
    let Value::Array(items) = &list else { unreachable!("read_list returns an array") };
    check_order(items, path)?;
    Ok(list)
}

fn invalid(path: String, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::EventSequenceInvalid, path, message)
}

fn text<'v>(event: &'v Value, key: &str) -> &'v str {
    match event.get(key) {
        Some(Value::String(s)) => s,
        _ => "",
    }
}

fn num(event: &Value, key: &str) -> f64 {
    match event.get(key) {
        Some(Value::Number(n)) => n.value,
        _ => 0.0,
    }
}

fn role(message: &Value) -> &str {
    text(message, "role")
}

/// The order of checked events (`path` is the array's pointer).
pub fn check_order(events: &[Value], path: &str) -> Result<()> {
    let at = |i: usize| pointer_index(path, i);
    if events.is_empty() {
        return Err(invalid(path.to_owned(), "an event sequence starts with agent_start; this one is empty"));
    }
    let mut turn: u64 = 0;
    let mut turn_open = false;
    let mut open_message: Option<&Value> = None;
    // Ended in the run (for agent_end) and in the open turn (for turn_end).
    let mut ended: Vec<&Value> = Vec::new();
    let mut turn_ended: Vec<&Value> = Vec::new();
    // toolCall id -> name, from assistant messages ended in the run; ids already executed.
    let mut calls: BTreeMap<String, String> = BTreeMap::new();
    let mut executed: BTreeSet<String> = BTreeSet::new();
    // Open executions: toolCallId -> toolName.
    let mut running: BTreeMap<String, String> = BTreeMap::new();
    let mut finished = false;
    for (i, event) in events.iter().enumerate() {
        let kind = text(event, "type");
        if finished {
            return Err(invalid(at(i), format!("a {kind} event after agent_end (agent_end is the last event)")));
        }
        if i == 0 && kind != "agent_start" {
            return Err(invalid(at(i), format!("an event sequence starts with agent_start, not {kind}")));
        }
        let in_turn = |what: &str| -> Result<()> {
            if turn_open {
                Ok(())
            } else {
                Err(invalid(at(i), format!("{what} outside a turn (after turn_start, before turn_end)")))
            }
        };
        match kind {
            "agent_start" => {
                if i != 0 {
                    return Err(invalid(at(i), "agent_start is the first event, and only there"));
                }
            }
            "agent_end" => {
                if turn_open {
                    return Err(invalid(at(i), format!("agent_end while turn {turn} is open")));
                }
                if let Some(Value::Array(list)) = event.get("messages") {
                    for (j, m) in list.iter().enumerate() {
                        if !ended.iter().any(|e| *e == m) {
                            return Err(invalid(
                                pointer_index(&format!("{}/messages", at(i)), j),
                                "agent_end holds a message that no message_end of the run carried",
                            ));
                        }
                    }
                }
                finished = true;
            }
            "turn_start" => {
                if turn_open {
                    return Err(invalid(at(i), format!("turn_start while turn {turn} is open")));
                }
                let n = num(event, "turn");
                if n != (turn + 1) as f64 {
                    return Err(invalid(
                        at(i),
                        format!("turns are numbered from 1 in order: expected turn {}, got {n}", turn + 1),
                    ));
                }
                turn += 1;
                turn_open = true;
                turn_ended.clear();
            }
            "turn_end" => {
                in_turn("turn_end")?;
                let n = num(event, "turn");
                if n != turn as f64 {
                    return Err(invalid(at(i), format!("turn_end closes the open turn {turn}, got turn {n}")));
                }
                if open_message.is_some() {
                    return Err(invalid(at(i), "turn_end while a message is open (no message_end yet)"));
                }
                if let Some(id) = running.keys().next() {
                    return Err(invalid(at(i), format!("turn_end while tool execution {id:?} is open")));
                }
                let last = turn_ended.iter().rev().find(|m| role(m) == "assistant");
                match (last, event.get("message")) {
                    (Some(last), Some(m)) if *last == m => {}
                    (None, _) => return Err(invalid(at(i), "turn_end, but no assistant message ended in this turn")),
                    _ => {
                        return Err(invalid(
                            at(i),
                            "turn_end's message is not the last assistant message ended in the turn",
                        ))
                    }
                }
                if let Some(Value::Array(list)) = event.get("toolResults") {
                    for (j, m) in list.iter().enumerate() {
                        if !turn_ended.iter().any(|e| *e == m) {
                            return Err(invalid(
                                pointer_index(&format!("{}/toolResults", at(i)), j),
                                "turn_end holds a tool result that no message_end of the turn carried",
                            ));
                        }
                    }
                }
                turn_open = false;
            }
            "message_start" => {
                in_turn("message_start")?;
                if open_message.is_some() {
                    return Err(invalid(at(i), "message_start while another message is open"));
                }
                open_message = event.get("message");
            }
            "message_update" => {
                in_turn("message_update")?;
                match open_message {
                    None => return Err(invalid(at(i), "message_update without an open message (no message_start)")),
                    Some(m) if role(m) != "assistant" => {
                        return Err(invalid(
                            at(i),
                            format!("message_update for a {} message (only assistant messages stream)", role(m)),
                        ))
                    }
                    Some(_) => {}
                }
            }
            "message_end" => {
                in_turn("message_end")?;
                let Some(start) = open_message.take() else {
                    return Err(invalid(at(i), "message_end without an open message (no message_start)"));
                };
                let Some(end) = event.get("message") else { unreachable!("a checked message_end has a message") };
                if role(start) != role(end) || start.get("timestamp") != end.get("timestamp") {
                    return Err(invalid(
                        at(i),
                        "message_end ends another message than the open one (its role or timestamp differs)",
                    ));
                }
                for (id, name) in tool_calls(end) {
                    calls.insert(id.to_owned(), name.to_owned());
                }
                ended.push(end);
                turn_ended.push(end);
            }
            "tool_execution_start" => {
                in_turn("tool_execution_start")?;
                let (id, name) = (text(event, "toolCallId"), text(event, "toolName"));
                match calls.get(id) {
                    None => {
                        return Err(invalid(
                            at(i),
                            format!(
                            "tool_execution_start for {id:?}, which no toolCall of an ended assistant message holds"
                        ),
                        ))
                    }
                    Some(called) if called != name => {
                        return Err(invalid(
                            at(i),
                            format!("tool_execution_start names {name:?}, the call {id:?} names {called:?}"),
                        ))
                    }
                    Some(_) => {}
                }
                if !executed.insert(id.to_owned()) {
                    return Err(invalid(at(i), format!("tool call {id:?} is already executed in this run")));
                }
                running.insert(id.to_owned(), name.to_owned());
            }
            "tool_execution_end" => {
                in_turn("tool_execution_end")?;
                let (id, name) = (text(event, "toolCallId"), text(event, "toolName"));
                match running.get(id) {
                    None => {
                        return Err(invalid(
                            at(i),
                            format!("tool_execution_end for {id:?}, which has no open tool_execution_start"),
                        ))
                    }
                    Some(started) if started != name => {
                        return Err(invalid(
                            at(i),
                            format!("tool_execution_end names {name:?}, its start names {started:?}"),
                        ))
                    }
                    Some(_) => {}
                }
                running.remove(id);
            }
            _ => {
                // "compaction"
                if turn_open {
                    return Err(invalid(
                        at(i),
                        format!("compaction while turn {turn} is open (it happens between turns)"),
                    ));
                }
            }
        }
    }
    if !finished {
        return Err(invalid(path.to_owned(), "the event sequence ends without agent_end"));
    }
    Ok(())
}
