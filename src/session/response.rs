//! `checkSessionResponse(value, options?)`: the seed's `SessionResponse`
//! `{sessionId, messages, events, tools, entries}` (seed 004), with the seed's rule that events
//! are a projection of the messages ("事件里有的信息消息里没有" is the named mistake: the page
//! shows what the next model request cannot see).
//!
//! - `sessionId` non-blank; `messages` agent messages; `tools` seed `ToolDefinition`s
//!   `{name, description, parameters}` (`name` non-blank and unique, `TOOL_DUPLICATE`;
//!   `parameters` a JSON object); `entries` session entries, each by `parseSessionEntry`'s rules
//!   (the tree rules between entries are `checkSession`'s, on the file); `events` empty (no run)
//!   or one run's sequence by `checkEventSequence`'s rules.
//! - Every message a `message_end` event carries is in `messages` (`EVENT_MESSAGE_UNKNOWN` at
//!   the event's `/message`; `turn_end` and `agent_end` only repeat ended messages, which the
//!   sequence rules check). Updates and the assistant's `message_start` carry partial messages
//!   and are not compared.
//! - Every tool result in `messages` answers a `toolCall` of an earlier assistant message there,
//!   with the same tool name, at most once (`TOOL_RESULT_UNMATCHED`, `TOOL_RESULT_NAME_MISMATCH`,
//!   `TOOL_RESULT_DUPLICATE` at `/messages/<i>/toolCallId` or `/toolName`).
//!
//! The first problem is thrown; the result is the response with its known fields.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path};
use crate::session::entry::read_entry;
use crate::session::event::read_list;
use crate::session::field::{object, string, Ctx};
use crate::session::message::{dialect, read_message, tool_calls};
use crate::session::sequence::read_sequence;
use crate::value::{pointer_child, pointer_index, Value};

const FIELDS: [&str; 5] = ["sessionId", "messages", "events", "tools", "entries"];
const TOOL_FIELDS: [&str; 3] = ["name", "description", "parameters"];

pub fn check_session_response<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    c.object(value, "", "a session response", 1)?;
    c.closed(value, "", &FIELDS, "a session response")?;
    let session_id = c.text(value, "", "sessionId")?;
    let list = c.required(value, "", "messages")?;
    let messages = read_list(&mut c, &list, "/messages", 2, "an array of messages", |c, item, path, level| {
        read_message(c, item, path, level)
    })?;
    let list = c.required(value, "", "events")?;
    let events = if list.kind() == Kind::Array && list.len().map_err(|f| f.at("/events"))? == 0 {
        c.enter("/events", 2)?;
        Value::Array(Vec::new())
    } else {
        read_sequence(&mut c, &list, "/events", 2)?
    };
    let list = c.required(value, "", "tools")?;
    let tools = read_list(&mut c, &list, "/tools", 2, "an array of tool definitions", tool)?;
    let list = c.required(value, "", "entries")?;
    let entries = read_list(&mut c, &list, "/entries", 2, "an array of session entries", |c, item, path, _| {
        read_entry(c, item).map(|e| e.value).map_err(|mut e| {
            e.path = format!("{path}{}", e.path);
            e
        })
    })?;
    unique_tools(&tools)?;
    answers(&messages)?;
    projected(&events, &messages)?;
    Ok(object(vec![
        ("sessionId", string(session_id)),
        ("messages", messages),
        ("events", events),
        ("tools", tools),
        ("entries", entries),
    ]))
}

/// A seed `ToolDefinition`: `{name, description, parameters}`.
fn tool<V: HostValue>(c: &mut Ctx<'_>, item: &V, path: &str, level: usize) -> Result<Value> {
    c.object(item, path, "a tool definition", level)?;
    c.closed(item, path, &TOOL_FIELDS, "a tool definition")?;
    let name = c.text(item, path, "name")?;
    let description = c.payload(item, path, "description")?;
    let p = c.required(item, path, "parameters")?;
    if p.kind() != Kind::Object {
        return Err(c.type_error(
            &p,
            &pointer_child(path, "parameters"),
            "parameters must be a JSON object (a JSON Schema)",
        ));
    }
    let parameters = c.json_of(&p, &Path::Key(&Path::Root(path), "parameters"), level)?;
    Ok(object(vec![("name", string(name)), ("description", description), ("parameters", parameters)]))
}

fn items(list: &Value) -> &[Value] {
    match list {
        Value::Array(items) => items,
        _ => &[],
    }
}

fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    match v.get(key) {
        Some(Value::String(s)) => s,
        _ => "",
    }
}

fn unique_tools(tools: &Value) -> Result<()> {
    let mut seen = BTreeSet::new();
    for (i, t) in items(tools).iter().enumerate() {
        let name = text(t, "name");
        if !seen.insert(name) {
            return Err(ContractError::new(
                Code::ToolDuplicate,
                format!("/tools/{i}/name"),
                format!("tool {name:?} is defined twice in the response's tools"),
            )
            .in_layer(Layer::Protocol));
        }
    }
    Ok(())
}

/// Every tool result answers an earlier call there, by id, with its name, at most once.
fn answers(messages: &Value) -> Result<()> {
    let mut calls: BTreeMap<&str, &str> = BTreeMap::new();
    let mut answered: BTreeSet<&str> = BTreeSet::new();
    for (i, m) in items(messages).iter().enumerate() {
        let at = |key: &str| pointer_child(&pointer_index("/messages", i), key);
        match text(m, "role") {
            "assistant" => calls.extend(tool_calls(m)),
            "toolResult" => {
                let (id, name) = (text(m, "toolCallId"), text(m, "toolName"));
                let Some(called) = calls.get(id) else {
                    return Err(ContractError::new(
                        Code::ToolResultUnmatched,
                        at("toolCallId"),
                        format!("tool result {id:?} answers no toolCall of an earlier assistant message"),
                    ));
                };
                if *called != name {
                    return Err(ContractError::new(
                        Code::ToolResultNameMismatch,
                        at("toolName"),
                        format!("tool result {id:?} names {name:?}, the call names {called:?}"),
                    ));
                }
                if !answered.insert(id) {
                    return Err(ContractError::new(
                        Code::ToolResultDuplicate,
                        at("toolCallId"),
                        format!("tool call {id:?} already has a result in messages"),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every message a `message_end` event carries is in `messages`.
fn projected(events: &Value, messages: &Value) -> Result<()> {
    let messages = items(messages);
    for (i, e) in items(events).iter().enumerate() {
        if text(e, "type") != "message_end" {
            continue;
        }
        if let Some(m) = e.get("message") {
            if !messages.contains(m) {
                return Err(ContractError::new(
                    Code::EventMessageUnknown,
                    format!("/events/{i}/message"),
                    "the event carries a message the response's messages do not hold (the next model request would not see it)",
                ));
            }
        }
    }
    Ok(())
}
