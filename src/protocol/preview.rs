//! A log-safe summary of an action.
//!
//! Keeps what a trace needs to link events (type, callId, tool, requestId, capability, field
//! names) and a redacted copy of the tool input: every value under a sensitive-looking key, at
//! any depth and in any case, is replaced, and long strings are cut. Free text (content,
//! summary, reason, resource) is left out. It never fails: bad input gives the error code.

use crate::error::{ContractError, Result};
use crate::input::options::Options;
use crate::input::HostValue;
use crate::protocol::action::{parse_agent_action, AgentAction};
use crate::value::Value;

/// Key fragments that mark a secret, matched against the key lowercased with `-`, `_`, `.` and
/// spaces removed.
pub const SENSITIVE_KEY_PARTS: [&str; 11] = [
    "token",
    "password",
    "passwd",
    "secret",
    "authorization",
    "apikey",
    "cookie",
    "credential",
    "privatekey",
    "accesskey",
    "sessionid",
];
pub const REDACTED: &str = "[REDACTED]";
pub const PREVIEW_STRING_MAX_CHARS: usize = 64;

pub fn is_sensitive_key(key: &str) -> bool {
    let folded: String =
        key.chars().filter(|c| !matches!(c, '-' | '_' | '.' | ' ')).flat_map(char::to_lowercase).collect();
    SENSITIVE_KEY_PARTS.iter().any(|part| folded.contains(part))
}

/// `{ok: true, type, callId?, tool?, requestId?, capability?, fields, input?}` or
/// `{ok: false, code, path}`.
pub fn preview_action<V: HostValue>(value: &V, options: &Options) -> Value {
    match preview(value, options) {
        Ok(v) => v,
        Err(e) => preview_action_error(&e),
    }
}

pub fn preview_action_error(e: &ContractError) -> Value {
    Value::Object(vec![
        ("ok".into(), Value::Bool(false)),
        ("code".into(), Value::String(e.code.as_str().into())),
        ("path".into(), Value::String(e.path.clone())),
    ])
}

fn preview<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let action = parse_agent_action(value, options)?;
    let fields = value.keys().map_err(|e| e.at(""))?;
    let s = |v: &str| Value::String(v.to_owned());
    let mut out = vec![("ok".to_owned(), Value::Bool(true)), ("type".to_owned(), s(action.type_name()))];
    let mut input = None;
    match &action {
        AgentAction::ToolCall { call_id, tool, input: i } => {
            out.push(("callId".into(), s(call_id)));
            out.push(("tool".into(), s(tool)));
            input = Some(redact(i));
        }
        AgentAction::RequestApproval { request_id, capability, .. } => {
            out.push(("requestId".into(), s(request_id)));
            out.push(("capability".into(), s(capability)));
        }
        AgentAction::Message { .. } | AgentAction::Finish { .. } => {}
    }
    out.push(("fields".into(), Value::Array(fields.into_iter().map(Value::String).collect())));
    if let Some(input) = input {
        out.push(("input".into(), input));
    }
    Ok(Value::Object(out))
}

fn redact(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(shorten(s)),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::Object(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| {
                    let v = if is_sensitive_key(k) { Value::String(REDACTED.into()) } else { redact(v) };
                    (shorten(k), v)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

fn shorten(s: &str) -> String {
    let count = s.chars().count();
    if count <= PREVIEW_STRING_MAX_CHARS {
        return s.to_owned();
    }
    let head: String = s.chars().take(PREVIEW_STRING_MAX_CHARS).collect();
    format!("{head}…({count} chars)")
}
