//! What one JSON-RPC 2.0 message is, and what a conforming server must send back.
//!
//! `classify` reads a parsed message (`classify_json` its text, strict JSON: duplicate names,
//! invalid UTF-8 and lone surrogates are parse errors) and gives its `Kind`, its `id` and
//! `method` when it has them, and `reply`: the error object the specification demands for a
//! message it cannot serve (`-32700` for text that is not JSON, `-32600` for an invalid
//! request), `None` when the envelope forces nothing (a request is answered by the server's
//! method, a notification and a response never). An invalid message also carries the stable
//! `code` (`RPC_*`), the JSON Pointer of the offending member and a reason.
//!
//! Rules (JSON-RPC 2.0 §4–§6): `jsonrpc` exactly `"2.0"`; `method` a string (names starting
//! with `rpc.` are reserved for extensions such as OpenRPC's `rpc.discover`, which a server
//! answers like any method); `params` absent, an array or an object; `id` a string, a number or
//! null (null only with `allowNullId`; the MCP profile allows strings and integers only); a
//! response has exactly one of `result` and `error`, an `error` an object with an integer
//! `code` and a string `message`; a batch is a non-empty array (MCP: no batches), each element
//! classified and answered on its own. A message that has `method` is on the request side;
//! one with `result` or `error` and no `method` on the response side; anything else is an
//! invalid request. Members the specification does not name are allowed.

use crate::error::{Code, ContractError};
use crate::input::limits::Limits;
use crate::json::{self, Mode};
use crate::value::{Number, Value};

use super::options::{Profile, RpcOptions};

/// JSON-RPC 2.0 error codes the core replies with.
pub const PARSE_ERROR: i32 = -32700;
pub const INVALID_REQUEST: i32 = -32600;
pub const METHOD_NOT_FOUND: i32 = -32601;
pub const INVALID_PARAMS: i32 = -32602;
pub const INTERNAL_ERROR: i32 = -32603;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Request,
    Notification,
    Response,
    ErrorResponse,
    InvalidRequest,
    InvalidResponse,
    ParseError,
    Batch,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Request => "request",
            Kind::Notification => "notification",
            Kind::Response => "response",
            Kind::ErrorResponse => "error_response",
            Kind::InvalidRequest => "invalid_request",
            Kind::InvalidResponse => "invalid_response",
            Kind::ParseError => "parse_error",
            Kind::Batch => "batch",
        }
    }

    /// A message a peer may send (not `invalid_*` nor `parse_error`).
    pub fn is_valid(self) -> bool {
        !matches!(self, Kind::InvalidRequest | Kind::InvalidResponse | Kind::ParseError)
    }
}

/// Why a message is invalid: a stable code, the pointer of the offending member, a reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub code: Code,
    pub path: String,
    pub reason: String,
}

/// The reply an envelope demands, made a value only when the classification is written
/// (`Classification::reply_value`). A batch's reply lists its elements' replies, and a
/// megabyte of short batch lines is 500,000 elements: built up front, each element's reply was
/// built twice and mostly dropped unread (a lazy decoder writes repeated frames as rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `-32600 Invalid Request`, echoing the classification's id (`null` when it has none).
    InvalidRequest,
    /// `-32700 Parse error` with `id: null`.
    ParseError,
    /// A batch's: the replies of its elements that have one, in order.
    Batch,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    pub kind: Kind,
    /// The message's id when it has one of a valid type (also on an invalid message whose id
    /// could be read: its `-32600` reply carries it).
    pub id: Option<Value>,
    pub method: Option<String>,
    /// The reply the envelope demands (`None`: nothing, or the server's own answer), as a value
    /// by `reply_value`.
    pub reply: Option<Reply>,
    /// Set exactly for `invalid_request`, `invalid_response` and `parse_error`.
    pub problem: Option<Problem>,
    /// A batch: each element's classification, in order.
    pub items: Option<Vec<Classification>>,
}

impl Classification {
    /// Equal and written as the same text (`Value::identical` for the ids, the elements' too):
    /// `==` holds for ids `1` and `1.0`, which the frames must keep apart.
    pub fn identical(&self, other: &Classification) -> bool {
        // `==` first: it tells most classifications apart, and past it the shapes match.
        self == other
            && match (&self.id, &other.id) {
                (Some(a), Some(b)) => a.identical(b),
                _ => true,
            }
            && match (&self.items, &other.items) {
                (Some(a), Some(b)) => a.iter().zip(b).all(|(x, y)| x.identical(y)),
                _ => true,
            }
    }

    fn invalid(kind: Kind, id: Option<Value>, method: Option<String>, problem: Problem) -> Classification {
        let reply = match kind {
            Kind::InvalidResponse => None,
            Kind::ParseError => Some(Reply::ParseError),
            _ => Some(Reply::InvalidRequest),
        };
        Classification { kind, id, method, reply, problem: Some(problem), items: None }
    }

    /// A message that is not JSON (or over the limits): `-32700`, or `-32600` when the text is
    /// too large or too deep to be read (it may be a request, but no id can be read from it).
    pub fn from_parse_error(e: &ContractError) -> Classification {
        if matches!(e.code, Code::InputTooLarge | Code::InputTooDeep) {
            return Classification::invalid(
                Kind::InvalidRequest,
                None,
                None,
                Problem { code: Code::RpcMessageTooLarge, path: e.path.clone(), reason: e.to_string() },
            );
        }
        Classification::invalid(
            Kind::ParseError,
            None,
            None,
            Problem { code: Code::RpcParseError, path: String::new(), reason: e.to_string() },
        )
    }

    /// The reply the envelope demands, as sent (`None`: nothing, or the server's own answer).
    pub fn reply_value(&self) -> Option<Value> {
        Some(match self.reply? {
            Reply::InvalidRequest => error_reply(self.id.as_ref(), INVALID_REQUEST, "Invalid Request", None),
            Reply::ParseError => error_reply(None, PARSE_ERROR, "Parse error", None),
            Reply::Batch => Value::Array(self.items.iter().flatten().filter_map(Classification::reply_value).collect()),
        })
    }

    /// As the hosts receive it: `{kind, id?, method?, reply, code?, path?, reason?, items?}`.
    pub fn into_value(self) -> Value {
        let reply = self.reply_value();
        let mut out = Vec::with_capacity(6);
        out.push(("kind".to_owned(), Value::String(self.kind.as_str().to_owned())));
        if let Some(id) = self.id {
            out.push(("id".to_owned(), id));
        }
        if let Some(method) = self.method {
            out.push(("method".to_owned(), Value::String(method)));
        }
        out.push(("reply".to_owned(), reply.unwrap_or(Value::Null)));
        if let Some(p) = self.problem {
            out.push(("code".to_owned(), Value::String(p.code.as_str().to_owned())));
            out.push(("path".to_owned(), Value::String(p.path)));
            out.push(("reason".to_owned(), Value::String(p.reason)));
        }
        if let Some(items) = self.items {
            out.push(("items".to_owned(), Value::Array(items.into_iter().map(Classification::into_value).collect())));
        }
        Value::Object(out)
    }
}

pub fn int(n: i64) -> Value {
    Value::Number(Number::from_f64(n as f64))
}

/// `{jsonrpc: "2.0", id, error: {code, message, data?}}` (`id: null` when `None`).
pub fn error_reply(id: Option<&Value>, code: i32, message: &str, data: Option<Value>) -> Value {
    let mut error =
        vec![("code".to_owned(), int(code.into())), ("message".to_owned(), Value::String(message.to_owned()))];
    if let Some(data) = data {
        error.push(("data".to_owned(), data));
    }
    Value::Object(vec![
        ("jsonrpc".to_owned(), Value::String("2.0".to_owned())),
        ("id".to_owned(), id.cloned().unwrap_or(Value::Null)),
        ("error".to_owned(), Value::Object(error)),
    ])
}

/// Classifies JSON text (strict JSON under the options' limits).
pub fn classify_json(text: &[u8], options: &RpcOptions) -> Classification {
    classify_json_with(text, options, &options.limits())
}

pub fn classify_json_with(text: &[u8], options: &RpcOptions, limits: &Limits) -> Classification {
    match json::parse(text, Mode::Strict, limits) {
        Ok(value) => classify(&value, options),
        Err(e) => Classification::from_parse_error(&e),
    }
}

/// Classifies one parsed message (or batch).
pub fn classify(value: &Value, options: &RpcOptions) -> Classification {
    match value {
        Value::Array(items) => classify_batch(items, options),
        other => classify_one(other, options, ""),
    }
}

fn classify_batch(items: &[Value], options: &RpcOptions) -> Classification {
    let problem =
        |reason: &str| Problem { code: Code::RpcInvalidRequest, path: String::new(), reason: reason.to_owned() };
    if options.profile == Profile::Mcp {
        return Classification::invalid(
            Kind::InvalidRequest,
            None,
            None,
            problem("MCP 2025-06-18 has no batches: a message must be one object"),
        );
    }
    if items.is_empty() {
        return Classification::invalid(Kind::InvalidRequest, None, None, problem("a batch must not be empty"));
    }
    if items.len() > options.max_batch_length {
        return Classification::invalid(
            Kind::InvalidRequest,
            None,
            None,
            Problem {
                code: Code::RpcMessageTooLarge,
                path: String::new(),
                reason: format!(
                    "a batch of {} messages is over maxBatchLength ({})",
                    items.len(),
                    options.max_batch_length
                ),
            },
        );
    }
    let items: Vec<Classification> =
        items.iter().enumerate().map(|(i, item)| classify_one(item, options, &format!("/{i}"))).collect();
    let answered = items.iter().any(|c| c.reply.is_some());
    Classification {
        kind: Kind::Batch,
        id: None,
        method: None,
        reply: answered.then_some(Reply::Batch),
        problem: None,
        items: Some(items),
    }
}

/// Whether `id` has a type an id may have under the options (null judged separately).
fn id_type_ok(id: &Value, options: &RpcOptions) -> Result<(), &'static str> {
    match id {
        Value::String(_) => Ok(()),
        Value::Number(n) if options.profile == Profile::Mcp && n.value.fract() != 0.0 => {
            Err("the MCP profile allows integer ids only")
        }
        Value::Number(_) => Ok(()),
        Value::Null => Ok(()),
        _ => Err("an id must be a string, a number or null"),
    }
}

fn classify_one(value: &Value, options: &RpcOptions, at: &str) -> Classification {
    let Value::Object(members) = value else {
        let reason = match value {
            Value::Array(_) => "a batch element must be an object (batches do not nest)".to_owned(),
            other => format!("a message must be an object, got {}", other.kind_name()),
        };
        return Classification::invalid(
            Kind::InvalidRequest,
            None,
            None,
            Problem { code: Code::RpcInvalidRequest, path: at.to_owned(), reason },
        );
    };
    let get = |k: &str| members.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let method = get("method");
    let (result, error) = (get("result"), get("error"));
    let response_side = method.is_none() && (result.is_some() || error.is_some());
    let raw_id = get("id");
    // The id as it may be echoed: of a valid type (null included only where allowed).
    let id = raw_id.filter(|id| id_type_ok(id, options).is_ok() && (**id != Value::Null || options.null_id_allowed()));
    let method_name = match method {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let (kind_bad, code_bad) = if response_side {
        (Kind::InvalidResponse, Code::RpcInvalidResponse)
    } else {
        (Kind::InvalidRequest, Code::RpcInvalidRequest)
    };
    let fail = |member: &str, reason: String| {
        let path = if member.is_empty() { at.to_owned() } else { format!("{at}/{member}") };
        Err(Problem { code: code_bad, path, reason })
    };
    let check = || -> Result<Kind, Problem> {
        match get("jsonrpc") {
            Some(Value::String(v)) if v == "2.0" => {}
            Some(_) => return fail("jsonrpc", "jsonrpc must be exactly \"2.0\"".to_owned()),
            None => return fail("jsonrpc", "the jsonrpc member (\"2.0\") is missing".to_owned()),
        }
        if let Some(id) = raw_id {
            if let Err(reason) = id_type_ok(id, options) {
                return fail("id", reason.to_owned());
            }
        }
        if response_side {
            let Some(id) = raw_id else { return fail("id", "a response must have an id".to_owned()) };
            if result.is_some() && error.is_some() {
                return fail("", "a response has either result or error, not both".to_owned());
            }
            if let Some(error) = error {
                let Value::Object(_) = error else { return fail("error", "error must be an object".to_owned()) };
                match error.get("code") {
                    Some(Value::Number(n)) if n.value.fract() == 0.0 => {}
                    Some(_) => return fail("error/code", "error.code must be an integer".to_owned()),
                    None => return fail("error/code", "error.code is missing".to_owned()),
                }
                match error.get("message") {
                    Some(Value::String(_)) => {}
                    Some(_) => return fail("error/message", "error.message must be a string".to_owned()),
                    None => return fail("error/message", "error.message is missing".to_owned()),
                }
                // A null id answers a request whose id could not be read (JSON-RPC §5).
                return Ok(Kind::ErrorResponse);
            }
            if *id == Value::Null && !options.null_id_allowed() {
                return fail("id", null_id_reason(options));
            }
            return Ok(Kind::Response);
        }
        let Some(method) = method else { return fail("method", "the method member is missing".to_owned()) };
        // Any string: `rpc.` names (JSON-RPC 2.0 §4) are reserved *for* rpc-internal methods and
        // extensions (OpenRPC's `rpc.discover`), so a well-formed call of one is a request like
        // any other, which the application answers (`methodNotFound` when it has no such method).
        let Value::String(_) = method else { return fail("method", "method must be a string".to_owned()) };
        match get("params") {
            None | Some(Value::Array(_)) | Some(Value::Object(_)) => {}
            Some(_) => return fail("params", "params must be an array or an object when present".to_owned()),
        }
        if result.is_some() || error.is_some() {
            let member = if result.is_some() { "result" } else { "error" };
            return fail(member, format!("a request must not have {member}"));
        }
        match raw_id {
            None => Ok(Kind::Notification),
            Some(Value::Null) if !options.null_id_allowed() => fail("id", null_id_reason(options)),
            Some(_) => Ok(Kind::Request),
        }
    };
    match check() {
        Ok(kind) => {
            Classification { kind, id: id.cloned(), method: method_name, reply: None, problem: None, items: None }
        }
        Err(problem) => Classification::invalid(kind_bad, id.cloned(), method_name, problem),
    }
}

fn null_id_reason(options: &RpcOptions) -> String {
    if options.profile == Profile::Mcp {
        "the MCP profile does not allow a null id".to_owned()
    } else {
        "a null id is not allowed (allowNullId: false)".to_owned()
    }
}

/// Reads a host value as a message (a deep copy under the options' limits), then classifies
/// it. A value with no JSON form is the caller's error, not the peer's: it is returned as one.
pub fn classify_host<V: crate::input::HostValue>(
    value: &V,
    options: &RpcOptions,
) -> crate::error::Result<Classification> {
    let limits = options.limits();
    let mut budget = crate::input::Budget::new(&limits);
    let copied =
        crate::input::Copier { limits: &limits, budget: &mut budget, undefined: crate::input::Undefined::Reject }
            .copy(value, &crate::input::Path::Root(""), 0)?;
    Ok(classify(&copied, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_may_fill_the_whole_message_under_the_default_limits() {
        // Over the default maxStringBytes (1 MiB) of the other operations: an ACP prompt carries
        // images as base64 strings of several MB.
        let text = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"session/prompt\",\"id\":1,\"params\":[\"{}\"]}}",
            "A".repeat(5 << 20)
        );
        assert_eq!(classify_json(text.as_bytes(), &RpcOptions::default()).kind, Kind::Request);
    }
}
