//! The tool-call shapes `checkToolCall` takes: an agent action, a decision or
//! assembled stream call, and the call objects of the providers and MCP, each recognised by its
//! own discriminating fields (never by guessing from the rest) and read into one request
//! `{callId, name, input}` with the pointers of its name and input in the caller's object:
//!
//! | shape | recognised by | callId | name | input |
//! |---|---|---|---|---|
//! | agent action | `type: "tool_call"` (other action types: `ACTION_NOT_TOOL_CALL`) | `callId` | `tool` | `input` |
//! | decision / assembled call | no `type`, a `callId` field | `callId` | `name` | `arguments` (object) |
//! | OpenAI Chat `tool_calls[]` item | `type: "function"` | `id` | `function.name` | `function.arguments` (JSON text of an object) |
//! | OpenAI Responses `function_call` item | `type: "function_call"` | `call_id` | `name` | `arguments` (JSON text of an object) |
//! | Anthropic `tool_use` block | `type: "tool_use"` | `id` | `name` | `input` (object) |
//! | Gemini `functionCall` | no `type`, an `args` field | `id` | `name` | `args` (object) |
//! | MCP `tools/call` request | `method: "tools/call"` | the JSON-RPC `id` | `params.name` | `params.arguments` (object, absent: `{}`) |
//!
//! An object with none of these (no `type`, `callId`, `args` or `method`) is read as an action,
//! so its errors are the action rules' (`FIELD_MISSING` at `/type`). MCP's `tools/call` params
//! and Gemini calls without `id` carry no call id: `FIELD_MISSING` at `/id`, whose message says
//! what to pass instead. Provider objects are read, not closed: their other fields (`index`,
//! `status`, `cache_control`...) are ignored, and `strict` applies to actions only.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{is_blank, kind_name, Field, Reader, Source};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Undefined};
use crate::json::{self, Mode};
use crate::protocol::action::{self, AgentAction};
use crate::value::{pointer_child, Value};

/// One tool call, whatever shape it came in.
pub struct CallRequest {
    pub call_id: String,
    pub name: String,
    pub input: Value,
    /// Pointer of the tool name in the caller's object (`UNKNOWN_TOOL`, policy errors).
    pub name_path: &'static str,
    /// Pointer of the input in the caller's object (`SCHEMA_MISMATCH`).
    pub input_path: &'static str,
}

pub fn read_call<V: HostValue>(call: &V, options: &Options) -> Result<CallRequest> {
    let mut r = Reader::new(Layer::Protocol, &options.limits, Source::Host);
    if call.kind() != Kind::Object {
        return action_request(call, options);
    }
    let call_type = match call.get_string("type").map_err(|f| f.at("/type"))? {
        crate::input::StringField::String(t) => Some(t),
        _ => None,
    };
    let has = |key: &str| -> Result<bool> { Ok(call.get(key).map_err(|f| f.at(&pointer_child("", key)))?.is_some()) };
    match call_type.as_deref() {
        Some("function") => {
            let call_id = r.required_text(call, "id", Code::FieldEmpty)?;
            let function = object_field(&mut r, call, "function", "")?;
            let name = nested(r.required_text(&function, "name", Code::FieldEmpty), "/function")?;
            let input = arguments_text(&mut r, &function, "/function/arguments", options)?;
            Ok(CallRequest { call_id, name, input, name_path: "/function/name", input_path: "/function/arguments" })
        }
        Some("function_call") => {
            let call_id = r.required_text(call, "call_id", Code::FieldEmpty)?;
            let name = r.required_text(call, "name", Code::FieldEmpty)?;
            let input = arguments_text(&mut r, call, "/arguments", options)?;
            Ok(CallRequest { call_id, name, input, name_path: "/name", input_path: "/arguments" })
        }
        Some("tool_use") => {
            let call_id = r.required_text(call, "id", Code::FieldEmpty)?;
            let name = r.required_text(call, "name", Code::FieldEmpty)?;
            let input = object_value(&mut r, call, "input", "")?;
            Ok(CallRequest { call_id, name, input, name_path: "/name", input_path: "/input" })
        }
        Some(_) => action_request(call, options),
        None if has("type")? => action_request(call, options),
        None if has("callId")? => {
            let call_id = r.required_text(call, "callId", Code::FieldEmpty)?;
            let name = r.required_text(call, "name", Code::FieldEmpty)?;
            let input = object_value(&mut r, call, "arguments", "")?;
            Ok(CallRequest { call_id, name, input, name_path: "/name", input_path: "/arguments" })
        }
        None if has("args")? => {
            if !has("id")? {
                return Err(r.error(
                    Code::FieldMissing,
                    "/id",
                    "this Gemini functionCall has no id: give the call an id (the stream assembler derives one from the call's place)",
                ));
            }
            let call_id = r.required_text(call, "id", Code::FieldEmpty)?;
            let name = r.required_text(call, "name", Code::FieldEmpty)?;
            let input = object_value(&mut r, call, "args", "")?;
            Ok(CallRequest { call_id, name, input, name_path: "/name", input_path: "/args" })
        }
        None if has("method")? => mcp_request(&mut r, call),
        None if has("name")? && !has("id")? => Err(r.error(
            Code::FieldMissing,
            "/id",
            "an MCP tools/call params object carries no call id: pass the whole tools/call request (its JSON-RPC id is the call id)",
        )),
        None => action_request(call, options),
    }
}

/// The agent action shape: the action rules, then `tool_call` only.
fn action_request<V: HostValue>(call: &V, options: &Options) -> Result<CallRequest> {
    let action = action::parse_agent_action(call, options)?;
    let AgentAction::ToolCall { call_id, tool, input } = action else {
        return Err(ContractError::new(
            Code::ActionNotToolCall,
            "/type",
            format!("expected a tool_call action, got {}", action.type_name()),
        ));
    };
    // An input of null or undefined means "no arguments".
    let input = match input {
        Value::Undefined | Value::Null => Value::Object(Vec::new()),
        other => other,
    };
    Ok(CallRequest { call_id, name: tool, input, name_path: "/tool", input_path: "/input" })
}

/// `{jsonrpc, id, method: "tools/call", params: {name, arguments?}}`.
fn mcp_request<V: HostValue>(r: &mut Reader<'_>, call: &V) -> Result<CallRequest> {
    let method = r.required_text(call, "method", Code::FieldEmpty)?;
    if method != "tools/call" {
        return Err(r.error(
            Code::FieldType,
            "/method",
            format!("an MCP request to check as a tool call must be tools/call, got {method:?}"),
        ));
    }
    let call_id = match r.field(call, "id")? {
        Field::Missing => {
            return Err(r.error(
                Code::FieldMissing,
                "/id",
                "a tools/call request without id is a notification, not a call",
            ))
        }
        Field::Undefined => return Err(r.undefined("/id", "id")),
        Field::Present(v) => match v.kind() {
            Kind::String if !is_blank(&v.string()) => v.string(),
            Kind::Number if v.number().fract() == 0.0 && v.number().is_finite() => format!("{}", v.number()),
            Kind::String => return Err(r.error(Code::FieldEmpty, "/id", "id must not be empty or blank")),
            other => {
                return Err(r.error(
                    Code::FieldType,
                    "/id",
                    format!("id must be a string or an integer, got {}", kind_name(&v, other)),
                ))
            }
        },
    };
    let params = object_field(r, call, "params", "")?;
    let name = nested(r.required_text(&params, "name", Code::FieldEmpty), "/params")?;
    let input = match params.get("arguments").map_err(|f| f.at("/params/arguments"))? {
        None => Value::Object(Vec::new()),
        Some(_) => object_value(r, &params, "arguments", "/params")?,
    };
    Ok(CallRequest { call_id, name, input, name_path: "/params/name", input_path: "/params/arguments" })
}

/// Errors of a nested object's reader carry pointers from that object: put its own in front.
fn nested<T>(result: Result<T>, prefix: &str) -> Result<T> {
    result.map_err(|mut e| {
        e.path = format!("{prefix}{}", e.path);
        e
    })
}

/// A field that must hold an object (`FIELD_MISSING`, `FIELD_UNDEFINED`, `FIELD_TYPE`).
fn object_field<V: HostValue>(r: &mut Reader<'_>, object: &V, key: &str, prefix: &str) -> Result<V> {
    let path = format!("{prefix}{}", pointer_child("", key));
    match nested(r.field(object, key), prefix)? {
        Field::Missing => Err(r.error(Code::FieldMissing, &path, format!("missing required field {key}"))),
        Field::Undefined => Err(r.undefined(&path, key)),
        Field::Present(v) if v.kind() == Kind::Object => Ok(v),
        Field::Present(v) => {
            let kind = v.kind();
            Err(r.error(Code::FieldType, &path, format!("{key} must be an object, got {}", kind_name(&v, kind))))
        }
    }
}

/// An object field copied as pure JSON (a tool input).
fn object_value<V: HostValue>(r: &mut Reader<'_>, object: &V, key: &str, prefix: &str) -> Result<Value> {
    let v = object_field(r, object, key, prefix)?;
    let path = format!("{prefix}{}", pointer_child("", key));
    r.copy_at(&v, &path, Undefined::Reject, 1 + prefix.matches('/').count())
}

/// `arguments` as OpenAI sends them: the JSON text of an object, parsed by the strict parser
/// under the call's limits. A parse error keeps its code and position (in the arguments text)
/// with its pointer under the field.
fn arguments_text<V: HostValue>(r: &mut Reader<'_>, object: &V, path: &str, options: &Options) -> Result<Value> {
    let (prefix, key) = path.rsplit_once('/').unwrap_or(("", path));
    let text = match nested(r.optional_string(object, key), prefix)? {
        Some(text) => text,
        None => return Err(r.error(Code::FieldMissing, path, format!("missing required field {key}"))),
    };
    let value = json::parse(text.as_bytes(), Mode::Strict, &options.limits).map_err(|mut e| {
        e.path = format!("{path}{}", e.path);
        e
    })?;
    if !matches!(value, Value::Object(_)) {
        return Err(r.error(Code::FieldType, path, format!("{key} must be the JSON text of an object")));
    }
    Ok(value)
}
