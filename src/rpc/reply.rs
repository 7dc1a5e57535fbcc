//! The replies a server builds for a well-formed request, refusing to answer what must not be
//! answered: each builder classifies the request it is given and returns `None` unless it is
//! a request (a notification never gets a reply; an invalid message gets the reply its
//! classification carries, not one of these; a response is never answered).

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::{HostValue, Kind as HostKind, StringField};
use crate::value::Value;

use super::message::{classify_host, error_reply, Kind, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use super::options::RpcOptions;

/// Longest error message an `internalError` reply carries (bytes, cut at a character).
pub const MAX_INTERNAL_MESSAGE_BYTES: usize = 1024;

/// The id to answer, when `request` is a request (`Ok(None)` for anything else).
fn request_id<V: HostValue>(request: &V) -> Result<Option<Value>> {
    let c = classify_host(request, &RpcOptions::default())?;
    Ok(match c.kind {
        Kind::Request => Some(c.id.unwrap_or(Value::Null)),
        _ => None,
    })
}

/// `methodNotFound(request)`: `-32601 Method not found`.
pub fn method_not_found<V: HostValue>(request: &V) -> Result<Option<Value>> {
    Ok(request_id(request)?.map(|id| error_reply(Some(&id), METHOD_NOT_FOUND, "Method not found", None)))
}

/// `internalError(request, error)`: `-32603` with the error's message only (a string, or an
/// error's own `message` string; never a stack, at most `MAX_INTERNAL_MESSAGE_BYTES`), else
/// `Internal error`.
pub fn internal_error<V: HostValue>(request: &V, error: &V) -> Result<Option<Value>> {
    let Some(id) = request_id(request)? else { return Ok(None) };
    let message = match error.kind() {
        HostKind::String => error.string(),
        HostKind::Object | HostKind::NotJson => match error.get_string("message") {
            Ok(StringField::String(s)) => s,
            _ => String::new(),
        },
        _ => String::new(),
    };
    let mut message = message.trim().to_owned();
    if message.len() > MAX_INTERNAL_MESSAGE_BYTES {
        let mut end = MAX_INTERNAL_MESSAGE_BYTES;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    if message.is_empty() {
        message = "Internal error".to_owned();
    }
    Ok(Some(error_reply(Some(&id), INTERNAL_ERROR, &message, None)))
}

/// `invalidParams(request, contractError)`: `-32602 Invalid params` with `data: {code, path}`
/// taken from the `ContractError` (its `code` and `path` strings).
pub fn invalid_params<V: HostValue>(request: &V, contract_error: &V) -> Result<Option<Value>> {
    let field = |key: &str| match contract_error.get_string(key) {
        Ok(StringField::String(s)) => Ok(s),
        _ => Err(ContractError::new(
            Code::FieldType,
            format!("/{key}"),
            format!("expected a ContractError (with string code and path), its {key} is not a string"),
        )
        .in_layer(Layer::Contract)),
    };
    if !matches!(contract_error.kind(), HostKind::Object | HostKind::NotJson) {
        return Err(ContractError::new(Code::FieldType, "", "expected a ContractError (with string code and path)")
            .in_layer(Layer::Contract));
    }
    let (code, path) = (field("code")?, field("path")?);
    let Some(id) = request_id(request)? else { return Ok(None) };
    let data = Value::Object(vec![("code".to_owned(), Value::String(code)), ("path".to_owned(), Value::String(path))]);
    Ok(Some(error_reply(Some(&id), INVALID_PARAMS, "Invalid params", Some(data))))
}
