//! Agent events (seed 004 §AgentEvent): the closed union of the ten event kinds a UI draws its
//! timeline from, on `type`:
//! `agent_start`, `agent_end {messages}`, `turn_start {turn}`,
//! `turn_end {turn, message, toolResults}`, `message_start {message}`,
//! `message_update {message, delta}`, `message_end {message}`,
//! `tool_execution_start {toolCallId, toolName, args}`,
//! `tool_execution_end {toolCallId, toolName, result, isError}` and
//! `compaction {summary, tokensBefore, firstKeptEntryId}`.
//! Messages are read by `session::message` (so `message_update` and `turn_end` carry an
//! assistant message, `turn_end.toolResults` tool-result messages: another role is
//! `FIELD_VALUE_INVALID` at its `role`), a tool result by `session::tool_result`. `turn` is an
//! integer from 1; ids and tool names are non-blank; `delta` and `summary` any string. The
//! result is the event with its known fields in the seed's order (unknown fields dropped, or
//! `FIELD_UNKNOWN` with `{strict: true}`). The order of events is `session::sequence`'s.

use crate::error::{Code, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path};
use crate::session::field::{number, object, string, Ctx};
use crate::session::message::{dialect, read_message};
use crate::session::tool_result::read_tool_result;
use crate::value::{pointer_child, pointer_index, Value};

pub const EVENT_TYPES: [&str; 10] = [
    "agent_start",
    "agent_end",
    "turn_start",
    "turn_end",
    "message_start",
    "message_update",
    "message_end",
    "tool_execution_start",
    "tool_execution_end",
    "compaction",
];

/// `parseAgentEvent(value, options?)`. Options: `strict` and the limits.
pub fn parse_agent_event<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    read_event(&mut c, value, "", 1)
}

/// One event at `path`, at nesting `level` (1 for an event on its own).
pub fn read_event<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize) -> Result<Value> {
    c.object(value, path, "an agent event", level)?;
    let kind = c.text(value, path, "type")?;
    let Some(&kind) = EVENT_TYPES.iter().find(|k| **k == kind) else {
        return Err(c.error(
            Code::EventTypeUnknown,
            &pointer_child(path, "type"),
            format!(
                "unknown agent event type {kind:?}; expected one of {}",
                EVENT_TYPES.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ")
            ),
        ));
    };
    let mut out = vec![("type", string(kind))];
    let what = format!("a {kind} event");
    match kind {
        "agent_start" => c.closed(value, path, &["type"], &what)?,
        "agent_end" => {
            c.closed(value, path, &["type", "messages"], &what)?;
            out.push(("messages", messages(c, value, path, "messages", level, None)?));
        }
        "turn_start" => {
            c.closed(value, path, &["type", "turn"], &what)?;
            out.push(("turn", turn(c, value, path)?));
        }
        "turn_end" => {
            c.closed(value, path, &["type", "turn", "message", "toolResults"], &what)?;
            out.push(("turn", turn(c, value, path)?));
            out.push(("message", message(c, value, path, level, Some("assistant"))?));
            out.push(("toolResults", messages(c, value, path, "toolResults", level, Some("toolResult"))?));
        }
        "message_start" | "message_end" => {
            c.closed(value, path, &["type", "message"], &what)?;
            out.push(("message", message(c, value, path, level, None)?));
        }
        "message_update" => {
            c.closed(value, path, &["type", "message", "delta"], &what)?;
            out.push(("message", message(c, value, path, level, Some("assistant"))?));
            out.push(("delta", c.payload(value, path, "delta")?));
        }
        "tool_execution_start" => {
            c.closed(value, path, &["type", "toolCallId", "toolName", "args"], &what)?;
            out.push(("toolCallId", string(c.text(value, path, "toolCallId")?)));
            out.push(("toolName", string(c.text(value, path, "toolName")?)));
            let args = c.required(value, path, "args")?;
            let args_path = pointer_child(path, "args");
            if args.kind() != Kind::Object {
                return Err(c.type_error(&args, &args_path, "args must be a JSON object"));
            }
            out.push(("args", c.json_of(&args, &Path::Key(&Path::Root(path), "args"), level)?));
        }
        "tool_execution_end" => {
            c.closed(value, path, &["type", "toolCallId", "toolName", "result", "isError"], &what)?;
            out.push(("toolCallId", string(c.text(value, path, "toolCallId")?)));
            out.push(("toolName", string(c.text(value, path, "toolName")?)));
            let result = c.required(value, path, "result")?;
            out.push(("result", read_tool_result(c, &result, &pointer_child(path, "result"), level + 1)?));
            out.push(("isError", Value::Bool(c.boolean(value, path, "isError")?)));
        }
        _ => {
            // "compaction"
            c.closed(value, path, &["type", "summary", "tokensBefore", "firstKeptEntryId"], &what)?;
            out.push(("summary", c.payload(value, path, "summary")?));
            out.push(("tokensBefore", number(c.count(value, path, "tokensBefore")?)));
            out.push(("firstKeptEntryId", string(c.text(value, path, "firstKeptEntryId")?)));
        }
    }
    Ok(object(out))
}

/// `turn`: an integer from 1.
fn turn<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str) -> Result<Value> {
    let n = c.count(value, path, "turn")?;
    if n < 1.0 {
        return Err(c.error(
            Code::FieldValueInvalid,
            &pointer_child(path, "turn"),
            "turn must be an integer from 1, got 0",
        ));
    }
    Ok(number(n))
}

/// The message in `message`, of the given role when `role` is set.
fn message<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize, role: Option<&str>) -> Result<Value> {
    let m = c.required(value, path, "message")?;
    let m_path = pointer_child(path, "message");
    let out = read_message(c, &m, &m_path, level + 1)?;
    must_have_role(c, &out, &m_path, role)?;
    Ok(out)
}

fn must_have_role(c: &Ctx<'_>, message: &Value, path: &str, role: Option<&str>) -> Result<()> {
    if let Some(role) = role {
        let got = match message.get("role") {
            Some(Value::String(s)) => s.as_str(),
            _ => "",
        };
        if got != role {
            return Err(c.error(
                Code::FieldValueInvalid,
                &pointer_child(path, "role"),
                format!("this event carries a {role} message, got a {got} message"),
            ));
        }
    }
    Ok(())
}

/// An array of messages in `key` (each of `role` when set).
fn messages<V: HostValue>(
    c: &mut Ctx<'_>,
    value: &V,
    path: &str,
    key: &str,
    level: usize,
    role: Option<&str>,
) -> Result<Value> {
    let list = c.required(value, path, key)?;
    let list_path = pointer_child(path, key);
    read_list(c, &list, &list_path, level + 1, "an array of messages", |c, item, item_path, level| {
        let m = read_message(c, item, item_path, level)?;
        must_have_role(c, &m, item_path, role)?;
        Ok(m)
    })
}

/// An array at `path` (the array itself at nesting `level`), each item read by `read`.
pub fn read_list<V: HostValue>(
    c: &mut Ctx<'_>,
    list: &V,
    path: &str,
    level: usize,
    expected: &str,
    mut read: impl FnMut(&mut Ctx<'_>, &V, &str, usize) -> Result<Value>,
) -> Result<Value> {
    if list.kind() != Kind::Array {
        return Err(c.type_error(list, path, &format!("{} must be {expected}", name_of(path))));
    }
    c.enter(path, level)?;
    let len = list.len().map_err(|f| f.at(path))?;
    c.r.limits.check_array(len, path)?;
    c.r.budget.check_room(len)?;
    let mut items = Vec::with_capacity(len.min(1024));
    for i in 0..len {
        let item_path = pointer_index(path, i);
        let item = list.index(i).map_err(|f| f.at(&item_path))?;
        items.push(read(c, &item, &item_path, level + 1)?);
    }
    Ok(Value::Array(items))
}

fn name_of(path: &str) -> &str {
    match path.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() => last,
        _ => "the value",
    }
}
