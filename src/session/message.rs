//! Agent messages (seed 004 §核心消息类型): the closed union of `user`, `assistant` and
//! `toolResult` messages and their content blocks (`text`, and `toolCall` in assistant messages
//! only). The result is the message with its known fields, in the seed's order; unknown fields
//! are dropped, or `FIELD_UNKNOWN` with `{strict: true}`. Under `dialect: "pi"` the extra roles,
//! blocks and fields of `session::pi` are read too.

use crate::error::{Code, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path};
use crate::json::{self, Mode};
use crate::session::field::{number, object, string, timestamp, Ctx, Dialect};
use crate::session::pi;
use crate::value::{pointer_child, pointer_index, Value};

pub const ROLES: [&str; 3] = ["user", "assistant", "toolResult"];
pub const STOP_REASONS: [&str; 4] = ["stop", "toolUse", "error", "aborted"];
const USER_FIELDS: [&str; 3] = ["role", "content", "timestamp"];
const ASSISTANT_FIELDS: [&str; 6] = ["role", "content", "stopReason", "usage", "timestamp", "errorMessage"];
const TOOL_RESULT_FIELDS: [&str; 7] = ["role", "toolCallId", "toolName", "content", "details", "isError", "timestamp"];
const USAGE_FIELDS: [&str; 3] = ["input", "output", "totalTokens"];

/// `parseAgentMessage(value, options?)`. Options: `strict`, the limits, `dialect`.
pub fn parse_agent_message<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    read_message(&mut c, value, "", 1)
}

/// `parseAgentMessageJson(text, options?)`: strict JSON text, then the same rules.
pub fn parse_agent_message_json(text: &[u8], options: &Options) -> Result<Value> {
    let document = json::parse(text, Mode::Strict, &options.limits)?;
    parse_agent_message(&&document, options)
}

pub fn dialect(options: &Options) -> Dialect {
    if options.pi_dialect {
        Dialect::Pi
    } else {
        Dialect::Seed
    }
}

/// One message at `path`, at nesting `level` (1 for a message on its own).
pub fn read_message<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize) -> Result<Value> {
    c.object(value, path, "a message", level)?;
    let role = c.text(value, path, "role")?;
    let mut out = vec![("role", string(role.clone()))];
    match role.as_str() {
        "user" => {
            c.closed(value, path, &USER_FIELDS, "a user message")?;
            out.push(("content", content(c, value, path, level, Holder::User)?));
            out.push(("timestamp", timestamp(c, value, path)?));
        }
        "assistant" => {
            let known: &[&str] = if c.pi() { &pi::ASSISTANT_FIELDS } else { &ASSISTANT_FIELDS };
            c.closed(value, path, known, "an assistant message")?;
            let blocks = content(c, value, path, level, Holder::Assistant)?;
            out.push(("content", blocks));
            if c.pi() {
                for key in ["api", "provider", "model"] {
                    if let Some(s) = c.optional_string(value, path, key)? {
                        out.push((key, string(s)));
                    }
                }
            }
            let stop = c.string(value, path, "stopReason")?;
            if !STOP_REASONS.contains(&stop.as_str()) {
                return Err(c.error(
                    Code::FieldValueInvalid,
                    &pointer_child(path, "stopReason"),
                    format!("stopReason must be one of \"stop\", \"toolUse\", \"error\", \"aborted\", got {stop:?}"),
                ));
            }
            out.push(("stopReason", string(stop)));
            out.push(("usage", usage(c, value, path, level)?));
            out.push(("timestamp", timestamp(c, value, path)?));
            if let Some(e) = c.optional_payload(value, path, "errorMessage")? {
                out.push(("errorMessage", e));
            }
        }
        "toolResult" => {
            c.closed(value, path, &TOOL_RESULT_FIELDS, "a toolResult message")?;
            out.push(("toolCallId", string(c.text(value, path, "toolCallId")?)));
            out.push(("toolName", string(c.text(value, path, "toolName")?)));
            out.push(("content", content(c, value, path, level, Holder::ToolResult)?));
            if let Some(d) = c.optional(value, path, "details")? {
                out.push(("details", c.json_of(&d, &Path::Key(&Path::Root(path), "details"), level)?));
            }
            out.push(("isError", Value::Bool(c.boolean(value, path, "isError")?)));
            out.push(("timestamp", timestamp(c, value, path)?));
        }
        "bashExecution" if c.pi() => return pi::bash_execution(c, value, path, out),
        other => {
            let expected = if c.pi() {
                "\"user\", \"assistant\", \"toolResult\" or \"bashExecution\""
            } else {
                "\"user\", \"assistant\" or \"toolResult\""
            };
            return Err(c.error(
                Code::MessageRoleUnknown,
                &pointer_child(path, "role"),
                format!("unknown message role {other:?}; expected {expected}"),
            ));
        }
    }
    Ok(object(out))
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    User,
    Assistant,
    ToolResult,
}

/// `content`: an array of blocks (a string is `FIELD_TYPE`: the seed's named mistake).
pub fn content<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize, holder: Holder) -> Result<Value> {
    let list = c.required(value, path, "content")?;
    let list_path = pointer_child(path, "content");
    if list.kind() != Kind::Array {
        let expected = if list.kind() == Kind::String {
            "content must be an array of content blocks, not a string"
        } else {
            "content must be an array of content blocks"
        };
        return Err(c.type_error(&list, &list_path, expected));
    }
    c.enter(&list_path, level + 1)?;
    let len = list.len().map_err(|f| f.at(&list_path))?;
    c.r.limits.check_array(len, &list_path)?;
    c.r.budget.check_room(len)?;
    let mut blocks = Vec::with_capacity(len.min(1024));
    let mut call_ids: Vec<String> = Vec::new();
    for i in 0..len {
        let item_path = pointer_index(&list_path, i);
        let item = list.index(i).map_err(|f| f.at(&item_path))?;
        blocks.push(block(c, &item, &item_path, level + 2, holder, &mut call_ids)?);
    }
    Ok(Value::Array(blocks))
}

fn block<V: HostValue>(
    c: &mut Ctx<'_>,
    item: &V,
    path: &str,
    level: usize,
    holder: Holder,
    call_ids: &mut Vec<String>,
) -> Result<Value> {
    c.object(item, path, "a content block", level)?;
    let kind = c.text(item, path, "type")?;
    match kind.as_str() {
        "text" => {
            c.closed(item, path, &["type", "text"], "a text block")?;
            let text = c.payload(item, path, "text")?;
            Ok(object(vec![("type", string(kind)), ("text", text)]))
        }
        "toolCall" if holder == Holder::Assistant => {
            let known: &[&str] = if c.pi() {
                &["type", "id", "name", "arguments", "partialJson"]
            } else {
                &["type", "id", "name", "arguments"]
            };
            c.closed(item, path, known, "a toolCall block")?;
            let id = c.text(item, path, "id")?;
            if call_ids.contains(&id) {
                return Err(c.error(
                    Code::DuplicateCallId,
                    &pointer_child(path, "id"),
                    format!("toolCall id {id:?} is used by an earlier block of this message"),
                ));
            }
            let name = c.text(item, path, "name")?;
            let args = c.required(item, path, "arguments")?;
            if args.kind() != Kind::Object {
                return Err(c.type_error(&args, &pointer_child(path, "arguments"), "arguments must be a JSON object"));
            }
            let arguments = c.json_of(&args, &Path::Key(&Path::Root(path), "arguments"), level)?;
            call_ids.push(id.clone());
            let mut out =
                vec![("type", string(kind)), ("id", string(id)), ("name", string(name)), ("arguments", arguments)];
            if c.pi() {
                if let Some(p) = c.optional_payload(item, path, "partialJson")? {
                    out.push(("partialJson", p));
                }
            }
            Ok(object(out))
        }
        "toolCall" => Err(c.error(
            Code::ContentTypeUnknown,
            &pointer_child(path, "type"),
            "a toolCall block belongs to an assistant message only",
        )),
        "thinking" if holder == Holder::Assistant && c.pi() => pi::thinking(c, item, path, kind),
        other => {
            let expected = match (holder, c.pi()) {
                (Holder::Assistant, false) => "\"text\" or \"toolCall\"",
                (Holder::Assistant, true) => "\"text\", \"toolCall\" or \"thinking\"",
                _ => "\"text\"",
            };
            Err(c.error(
                Code::ContentTypeUnknown,
                &pointer_child(path, "type"),
                format!("unknown content block type {other:?}; expected {expected}"),
            ))
        }
    }
}

fn usage<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize) -> Result<Value> {
    let u = c.required(value, path, "usage")?;
    let u_path = pointer_child(path, "usage");
    c.object(&u, &u_path, "usage", level + 1)?;
    if c.pi() {
        return pi::usage(c, &u, &u_path, level + 1);
    }
    c.closed(&u, &u_path, &USAGE_FIELDS, "usage")?;
    let mut out = Vec::with_capacity(3);
    for key in USAGE_FIELDS {
        out.push((key, number(c.count(&u, &u_path, key)?)));
    }
    Ok(object(out))
}

/// The `toolCall` blocks of a checked assistant message: `(id, name)` in order.
pub fn tool_calls(message: &Value) -> Vec<(&str, &str)> {
    let mut calls = Vec::new();
    if let Some(Value::Array(blocks)) = message.get("content") {
        for b in blocks {
            if let (Some(Value::String(t)), Some(Value::String(id)), Some(Value::String(name))) =
                (b.get("type"), b.get("id"), b.get("name"))
            {
                if t == "toolCall" {
                    calls.push((id.as_str(), name.as_str()));
                }
            }
        }
    }
    calls
}
