//! `normalizeToolResult(tool, value)`: what an executor returned, as the one result shape the
//! loop hands back to the model: `{ok: true, data}` or `{ok: false, code, message, retryable}`.
//!
//! A success's `data` must be JSON and satisfy the tool's `outputSchema` when it has one. A
//! failure's `code` is `^[A-Z][A-Z0-9_]*$`, its `message` a string (made safe: see
//! `safe_message`), `retryable` a boolean. Anything else never throws: it becomes a failed
//! result with a stable code, `retryable: false`, and a message naming only what was wrong:
//! - `TOOL_EXCEPTION`: an exception object was passed in (a class whose name ends in `Error`
//!   or `Exception`); only its class name is reported, never its message or stack;
//! - `TOOL_RESULT_INVALID`: not one of the two shapes (or not JSON, with the pointer);
//! - `TOOL_OUTPUT_INVALID`: `data` does not satisfy `outputSchema` (the issues' pointers and
//!   keywords in the message).
//! Only the tool (the program's configuration) can make the call itself fail.

use crate::input::options::Options;
use crate::input::{HostValue, Undefined};
use crate::value::Value;

pub const TOOL_EXCEPTION: &str = "TOOL_EXCEPTION";
pub const TOOL_RESULT_INVALID: &str = "TOOL_RESULT_INVALID";
pub const TOOL_OUTPUT_INVALID: &str = "TOOL_OUTPUT_INVALID";
/// Longest message kept (in characters).
pub const MESSAGE_MAX_CHARS: usize = 500;

fn failed(code: &str, message: String, retryable: bool) -> Value {
    Value::Object(vec![
        ("ok".to_owned(), Value::Bool(false)),
        ("code".to_owned(), Value::String(code.to_owned())),
        ("message".to_owned(), Value::String(message)),
        ("retryable".to_owned(), Value::Bool(retryable)),
    ])
}

fn is_code(c: &str) -> bool {
    let b = c.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && b[0].is_ascii_uppercase()
        && b.iter().all(|x| x.is_ascii_uppercase() || x.is_ascii_digit() || *x == b'_')
}

pub fn normalize_tool_result<V: HostValue>(tool: &V, value: &V, options: &Options) -> crate::error::Result<Value> {
    let tool = crate::tools::contract::define_tool(
        tool,
        &Options { strict: options.strict, limits: crate::Limits::ceilings(), ..Options::default() },
    )?;
    if let crate::input::Kind::NotJson = value.kind() {
        let name = value.not_json_name();
        if name.ends_with("Error") || name.ends_with("Exception") {
            return Ok(failed(TOOL_EXCEPTION, format!("the tool raised {}", safe_name(&name)), false));
        }
    }
    let copied = match crate::tools::registry::read_value(value, &options.limits, Undefined::Reject) {
        Ok(v) => v,
        Err(e) => {
            return Ok(failed(
                TOOL_RESULT_INVALID,
                format!("the result is not a JSON value at {:?}: {}", e.path, e.code.as_str()),
                false,
            ))
        }
    };
    let Value::Object(entries) = &copied else {
        return Ok(failed(
            TOOL_RESULT_INVALID,
            format!("the result must be an object, got {}", copied.kind_name()),
            false,
        ));
    };
    let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
    match copied.get("ok") {
        Some(Value::Bool(true)) => {
            if let Some(k) = keys.iter().find(|k| !["ok", "data"].contains(k)) {
                return Ok(failed(
                    TOOL_RESULT_INVALID,
                    format!("unknown field {} in a successful result", crate::value::quoted_name(k)),
                    false,
                ));
            }
            let Some(data) = copied.get("data") else {
                return Ok(failed(TOOL_RESULT_INVALID, "a successful result must have data".into(), false));
            };
            if let Some(schema) = &tool.output_schema {
                let compiled =
                    crate::tools::schema::compile_for(schema, "/outputSchema", &tool.resources, tool.assert_formats)?;
                if let Err(e) = crate::tools::schema::validate(&compiled, data, 5) {
                    let detail: Vec<String> =
                        e.issues.iter().take(5).map(|i| format!("{} at {:?}", i.keyword, i.path)).collect();
                    let detail = if detail.is_empty() { e.code.as_str().to_owned() } else { detail.join(", ") };
                    return Ok(failed(
                        TOOL_OUTPUT_INVALID,
                        format!("the data does not match the tool's outputSchema: {detail}"),
                        false,
                    ));
                }
            }
            Ok(Value::Object(vec![("ok".to_owned(), Value::Bool(true)), ("data".to_owned(), data.clone())]))
        }
        Some(Value::Bool(false)) => {
            if let Some(k) = keys.iter().find(|k| !["ok", "code", "message", "retryable"].contains(k)) {
                return Ok(failed(
                    TOOL_RESULT_INVALID,
                    format!("unknown field {} in a failed result", crate::value::quoted_name(k)),
                    false,
                ));
            }
            let code = match copied.get("code") {
                Some(Value::String(c)) if is_code(c) => c.clone(),
                _ => {
                    return Ok(failed(
                        TOOL_RESULT_INVALID,
                        "a failed result's code must match ^[A-Z][A-Z0-9_]*$ (at most 64)".into(),
                        false,
                    ))
                }
            };
            let Some(Value::String(message)) = copied.get("message") else {
                return Ok(failed(TOOL_RESULT_INVALID, "a failed result must have a message string".into(), false));
            };
            let Some(Value::Bool(retryable)) = copied.get("retryable") else {
                return Ok(failed(
                    TOOL_RESULT_INVALID,
                    "a failed result must have retryable (a boolean)".into(),
                    false,
                ));
            };
            Ok(failed(&code, safe_message(message), *retryable))
        }
        _ => Ok(failed(TOOL_RESULT_INVALID, "a result must have ok: true or ok: false".into(), false)),
    }
}

fn safe_name(name: &str) -> String {
    let n: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').take(64).collect();
    if n.is_empty() {
        "an exception".into()
    } else {
        n
    }
}

/// A message safe to show a model: the first line only (a stack trace starts on the next),
/// absolute paths (`/…`, `C:\…`, `file://…`, `~/…`) replaced by `<path>`, at most 500 characters.
pub fn safe_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let mut out = String::new();
    for (i, word) in first.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let trimmed = word.trim_start_matches(['(', '"', '\'', '[', '<', '`']);
        let b = trimmed.as_bytes();
        let absolute = trimmed.starts_with('/')
            || trimmed.starts_with("~/")
            || trimmed.starts_with("file://")
            || trimmed.starts_with("\\\\")
            || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/'));
        if absolute {
            out.push_str(&word[..word.len() - trimmed.len()]);
            out.push_str("<path>");
        } else {
            out.push_str(word);
        }
    }
    let out = out.trim().to_owned();
    let out: String = out.chars().take(MESSAGE_MAX_CHARS).collect();
    if out.is_empty() {
        "the tool failed".to_owned()
    } else {
        out
    }
}
