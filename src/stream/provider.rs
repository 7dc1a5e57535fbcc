//! What every provider adapter shares: the assembler it feeds, the SSE parser in front of it,
//! the event sequence it numbers, the provider's response id, and the rule that the first error
//! ends the stream. An adapter only says what one provider event means (`Adapter::event`).
//! Also the readers adapters share for payload fields. What hosts hold is in `provider_stream`.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::limits::Limits;
use crate::input::options::Options;
use crate::json::{self, Mode};
use crate::stream::assembler::Assembler;
use crate::stream::sse::SseParser;
use crate::stream::Event;
use crate::value::{push_pointer, write_json, Value};

pub struct Common {
    pub assembler: Assembler,
    /// Limits for parsing one payload: the per-value limits, bounded by the response budget.
    pub limits: Limits,
    sse: SseParser,
    sequence: u64,
    /// The provider's id of the response, when a payload gave it.
    pub response_id: Option<String>,
    failed: Option<ContractError>,
}

impl Common {
    pub fn new(options: Options) -> Common {
        let limits = Limits { max_bytes: options.max_response_bytes, ..options.limits };
        Common {
            assembler: Assembler::new(options),
            limits,
            sse: SseParser::new(options.max_response_bytes),
            sequence: 0,
            response_id: None,
            failed: None,
        }
    }

    /// Feeds the assembler one event, numbered in arrival order.
    pub fn emit(&mut self, make: impl FnOnce(u64) -> Event) -> Result<()> {
        let event = make(self.sequence);
        self.sequence += 1;
        self.assembler.push(event)
    }

    /// A payload as JSON; bytes the provider got wrong are a `transport` error.
    pub fn parse_payload(&self, data: &str) -> Result<Value> {
        json::parse(data.as_bytes(), Mode::Strict, &self.limits).map_err(|e| e.in_layer(Layer::Transport))
    }

    fn check(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn remember(&mut self, result: Result<()>) -> Result<()> {
        if let Err(e) = &result {
            self.failed = Some(self.assembler.fail(e.clone()));
        }
        result
    }

    fn with_response_id(&self, mut value: Value) -> Value {
        if let Value::Object(members) = &mut value {
            let id = self.response_id.clone().map_or(Value::Null, Value::String);
            members.insert(0, ("responseId".to_owned(), id));
        }
        value
    }
}

pub trait Adapter {
    fn common(&mut self) -> &mut Common;
    fn common_ref(&self) -> &Common;
    /// What one provider event (one payload, already parsed) means to this provider.
    fn event(&mut self, event: &Value) -> Result<()>;

    /// What one SSE `data` payload means: by default the event it holds as JSON.
    fn payload(&mut self, data: &str) -> Result<()> {
        let event = self.common_ref().parse_payload(data)?;
        self.event(&event)
    }

    /// Raw SSE bytes, in any chunking.
    fn push_sse(&mut self, chunk: &[u8]) -> Result<()> {
        self.common_ref().check()?;
        let (events, overflow) = self.common().sse.push(chunk);
        for event in events {
            self.push_payload(&event.data)?;
        }
        match overflow {
            None => Ok(()),
            // The verdict the payload would get once parsed, before it is held whole.
            Some(_) => {
                let max = self.common_ref().limits.max_bytes;
                let error = ContractError::new(
                    Code::InputTooLarge,
                    "",
                    format!("an SSE event's data is over maxResponseBytes ({max} bytes)"),
                )
                .in_layer(Layer::Transport);
                self.common().remember(Err(error))
            }
        }
    }

    /// One `data` payload; the first error is final.
    fn push_payload(&mut self, data: &str) -> Result<()> {
        self.common_ref().check()?;
        let result = self.payload(data);
        self.common().remember(result)
    }

    /// One provider event already parsed; the first error is final.
    fn push_event(&mut self, event: &Value) -> Result<()> {
        self.common_ref().check()?;
        let result = self.event(event);
        self.common().remember(result)
    }

    /// Ends the stream with an error found before the adapter saw the event (a host value
    /// that is not JSON): every later call returns it.
    fn fail(&mut self, error: ContractError) -> ContractError {
        let common = self.common();
        if let Some(e) = &common.failed {
            return e.clone();
        }
        let e = common.assembler.fail(error);
        common.failed = Some(e.clone());
        e
    }

    /// The assembler's preview (never executable) with the provider's response id.
    fn preview(&self) -> Value {
        let common = self.common_ref();
        common.with_response_id(common.assembler.preview())
    }

    /// The normalized response `{responseId, finishReason, calls}` or the stream's first error.
    /// An SSE event left unterminated at the end is dropped (WHATWG).
    fn finish(&self) -> Result<Value> {
        let common = self.common_ref();
        common.check()?;
        Ok(common.with_response_id(common.assembler.finish()?))
    }
}

/// A whole raw SSE text through `adapter`.
pub fn assemble_sse<A: Adapter + ?Sized>(adapter: &mut A, text: &[u8]) -> Result<Value> {
    adapter.push_sse(text)?;
    adapter.finish()
}

/// Payloads already split (one JSON text each) through `adapter`.
pub fn assemble_payloads<A: Adapter + ?Sized, S: AsRef<str>>(adapter: &mut A, payloads: &[S]) -> Result<Value> {
    for p in payloads {
        adapter.push_payload(p.as_ref())?;
    }
    adapter.finish()
}

// Reading provider payloads: every field an adapter reads has a fixed JSON type, and anything
// else is STREAM_EVENT_INVALID at the field's pointer.

pub(crate) fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::StreamEventInvalid, path, message).in_layer(Layer::Stream)
}

pub(crate) fn get<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// A field that may be absent or null; otherwise must be a string.
pub(crate) fn opt_str<'a>(value: &'a Value, key: &str, path: &str) -> Result<Option<&'a str>> {
    match get(value, key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(invalid(path, format!("{key} must be a string, got {}", other.kind_name()))),
    }
}

pub(crate) fn req_str<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a str> {
    opt_str(value, key, path)?.ok_or_else(|| invalid(path, format!("missing {key}")))
}

/// An integer field (a JSON number with no fraction, within ±2^53).
pub(crate) fn int_field(value: &Value, key: &str, path: &str) -> Result<i64> {
    match get(value, key) {
        Some(Value::Number(n)) if n.value.fract() == 0.0 && n.value.abs() <= 9_007_199_254_740_991.0 => {
            Ok(n.value as i64)
        }
        _ => Err(invalid(path, format!("{key} must be an integer"))),
    }
}

/// `value`, an object given whole by a provider (Gemini `args`, Anthropic `input`), as JSON
/// text. Host values JSON cannot hold (`undefined`, non-finite numbers, lone surrogates...) are
/// `STREAM_EVENT_INVALID` at their pointer rather than written as `null`.
pub(crate) fn object_text(value: &Value, path: &str) -> Result<String> {
    if !matches!(value, Value::Object(_)) {
        return Err(invalid(path, format!("must be an object, got {}", value.kind_name())));
    }
    only_json(value, path)?;
    let mut text = String::new();
    write_json(&mut text, value);
    Ok(text)
}

/// Recursion is bounded by the limits the value was read under (payload parse or host copy).
fn only_json(value: &Value, path: &str) -> Result<()> {
    match value {
        Value::Null | Value::Bool(_) | Value::String(_) => Ok(()),
        Value::Number(n) if n.value.is_finite() => Ok(()),
        Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, item)| only_json(item, &format!("{path}/{i}")))
        }
        Value::Object(members) => members.iter().try_for_each(|(k, v)| {
            let mut p = path.to_owned();
            push_pointer(&mut p, k);
            only_json(v, &p)
        }),
        other => Err(invalid(path, format!("{} is not JSON", other.kind_name()))),
    }
}
