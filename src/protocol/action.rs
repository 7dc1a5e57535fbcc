//! The agent action protocol: a closed union of what a model may propose.
//!
//! `message{content}` adds to the conversation, `tool_call{callId, tool, input}` proposes a side
//! effect, `finish{summary}` proposes the end, `request_approval{requestId, capability,
//! resource, reason}` asks a human for a capability (a proposal, never an authorisation).
//! Anything else is an error: no defaults, no guessing, no fallback to `message`.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{kind_name, Field, Reader, Source};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Undefined};
use crate::json::{self, Mode};
use crate::value::{pointer_child, take_member, Value};

/// The protocol version this parser speaks. An action without `schemaVersion` is version 1.
pub const SCHEMA_VERSION: f64 = 1.0;

#[derive(Clone, Debug, PartialEq)]
pub enum AgentAction {
    Message {
        content: String,
    },
    /// `input` is `Value::Undefined` when the caller gave an own `input` holding undefined.
    ToolCall {
        call_id: String,
        tool: String,
        input: Value,
    },
    Finish {
        summary: String,
    },
    RequestApproval {
        request_id: String,
        capability: String,
        resource: String,
        reason: String,
    },
}

impl AgentAction {
    pub fn type_name(&self) -> &'static str {
        match self {
            AgentAction::Message { .. } => "message",
            AgentAction::ToolCall { .. } => "tool_call",
            AgentAction::Finish { .. } => "finish",
            AgentAction::RequestApproval { .. } => "request_approval",
        }
    }

    /// The result object every host returns, `type` first, then the fields in protocol order.
    pub fn into_value(self) -> Value {
        let type_name = Value::String(self.type_name().to_owned());
        let mut entries = Vec::with_capacity(5);
        entries.push(("type".to_owned(), type_name));
        let mut push = |key: &str, value: Value| entries.push((key.to_owned(), value));
        match self {
            AgentAction::Message { content } => push("content", Value::String(content)),
            AgentAction::ToolCall { call_id, tool, input } => {
                push("callId", Value::String(call_id));
                push("tool", Value::String(tool));
                push("input", input);
            }
            AgentAction::Finish { summary } => push("summary", Value::String(summary)),
            AgentAction::RequestApproval { request_id, capability, resource, reason } => {
                push("requestId", Value::String(request_id));
                push("capability", Value::String(capability));
                push("resource", Value::String(resource));
                push("reason", Value::String(reason));
            }
        }
        Value::Object(entries)
    }
}

pub(crate) const ACTION_TYPES: [&str; 4] = ["message", "tool_call", "finish", "request_approval"];

pub(crate) fn fields_of(action_type: &str) -> &'static [&'static str] {
    match action_type {
        "message" => &["content"],
        "tool_call" => &["callId", "tool", "input"],
        "finish" => &["summary"],
        _ => &["requestId", "capability", "resource", "reason"],
    }
}

/// Parses a host value (a JS object read in place, a Python value, a `Value`).
pub fn parse_agent_action<V: HostValue>(value: &V, options: &Options) -> Result<AgentAction> {
    parse_with(value, options, Source::Host)
}

/// Parses strict JSON text (`Mode::Strict`): exactly one value, nothing after it.
pub fn parse_agent_action_json(text: &[u8], options: &Options) -> Result<AgentAction> {
    let mut document = json::parse(text, Mode::Strict, &options.limits)?;
    let mut action = parse_with(&&document, options, Source::StrictText)?;
    if let AgentAction::ToolCall { input, .. } = &mut action {
        *input = take_member(&mut document, "input");
    }
    Ok(action)
}

/// `parse_agent_action_json`'s verdict (`protocol::verdict`), from the text's top level alone:
/// the rules read only the kind of `input`, whose value a host takes from the text it holds.
pub fn agent_action_json_verdict(text: &[u8], options: &Options) -> Result<u32> {
    let document = json::parse_levels(text, &options.limits, 1)?;
    parse_with(&&document, options, Source::StrictText).map(|a| crate::protocol::verdict::action_verdict(&a))
}

fn parse_with<V: HostValue>(value: &V, options: &Options, source: Source) -> Result<AgentAction> {
    let mut r = Reader::new(Layer::Protocol, &options.limits, source);
    match value.kind() {
        Kind::Object => {}
        other => {
            return Err(r.error(
                Code::ActionNotObject,
                "",
                format!("an action must be a plain object, got {}", kind_name(value, other)),
            ))
        }
    }
    if options.limits.max_depth < 1 {
        return Err(r.error(Code::InputTooDeep, "", "nesting is deeper than the limit"));
    }
    r.budget.charge(1)?;

    check_version(&mut r, value)?;

    let action_type = r.required_text(value, "type", Code::FieldEmpty)?;
    if !ACTION_TYPES.contains(&action_type.as_str()) {
        return Err(r.error(
            Code::ActionTypeUnknown,
            "/type",
            format!(
                "unknown action type {action_type:?}; expected one of message, tool_call, finish, request_approval"
            ),
        ));
    }

    if options.strict {
        let allowed = fields_of(&action_type);
        for key in r.keys(value, "")? {
            if key != "type" && key != "schemaVersion" && !allowed.contains(&key.as_str()) {
                return Err(r.error(
                    Code::ActionFieldUnknown,
                    &pointer_child("", &key),
                    format!(
                        "unknown field {} in a {action_type} action (strict mode)",
                        crate::value::quoted_name(&key)
                    ),
                ));
            }
        }
    }

    let action = match action_type.as_str() {
        "message" => AgentAction::Message { content: r.required_text(value, "content", Code::FieldEmpty)? },
        "finish" => AgentAction::Finish { summary: r.required_text(value, "summary", Code::FieldEmpty)? },
        "tool_call" => {
            let call_id = r.required_text(value, "callId", Code::FieldEmpty)?;
            let tool = r.required_text(value, "tool", Code::FieldEmpty)?;
            let input = match r.field(value, "input")? {
                Field::Missing => {
                    return Err(r.error(
                        Code::ActionInputMissing,
                        "/input",
                        "a tool_call must have an input field (null, {} or undefined for no arguments)",
                    ))
                }
                Field::Undefined => Value::Undefined,
                Field::Present(v) => r.copy(&v, "/input", Undefined::Keep)?,
            };
            AgentAction::ToolCall { call_id, tool, input }
        }
        _ => AgentAction::RequestApproval {
            request_id: r.required_text(value, "requestId", Code::FieldEmpty)?,
            capability: r.required_text(value, "capability", Code::FieldEmpty)?,
            resource: r.required_text(value, "resource", Code::FieldEmpty)?,
            reason: r.required_text(value, "reason", Code::FieldEmpty)?,
        },
    };
    Ok(action)
}

fn check_version<V: HostValue>(r: &mut Reader<'_>, value: &V) -> Result<()> {
    match r.field(value, "schemaVersion")? {
        Field::Missing => Ok(()),
        Field::Undefined => Err(r.undefined("/schemaVersion", "schemaVersion")),
        Field::Present(v) if v.kind() == Kind::Number && v.number() == SCHEMA_VERSION => r.budget.charge(1),
        Field::Present(v) => {
            let shown = match v.kind() {
                Kind::Number => format!("{}", v.number()),
                Kind::String => format!("{:?}", v.string()),
                other => kind_name(&v, other),
            };
            Err(unsupported_version(&shown))
        }
    }
}

fn unsupported_version(shown: &str) -> ContractError {
    ContractError::new(
        Code::ActionVersionUnsupported,
        "/schemaVersion",
        format!("schemaVersion {shown} is not supported; this parser speaks version 1"),
    )
}
