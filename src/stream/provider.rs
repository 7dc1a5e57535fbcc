//! What every provider adapter shares: the assembler it feeds, the SSE parser in front of it,
//! the event sequence it numbers, the provider's response id, and the rule that the first error
//! ends the stream. An adapter only says what one `data` payload means (`Adapter::payload`).

use crate::error::{ContractError, Layer, Result};
use crate::json::{self, Mode};
use crate::limits::Limits;
use crate::options::Options;
use crate::stream::assembler::Assembler;
use crate::stream::sse::SseParser;
use crate::stream::Event;
use crate::value::Value;

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
            sse: SseParser::new(),
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
}

pub trait Adapter {
    fn common(&mut self) -> &mut Common;
    fn common_ref(&self) -> &Common;
    /// What one `data` payload means to this provider.
    fn payload(&mut self, data: &str) -> Result<()>;

    /// Raw SSE bytes, in any chunking.
    fn push_sse(&mut self, chunk: &[u8]) -> Result<()> {
        if let Some(e) = &self.common_ref().failed {
            return Err(e.clone());
        }
        for event in self.common().sse.push(chunk) {
            self.push_payload(&event.data)?;
        }
        Ok(())
    }

    /// One `data` payload; the first error is final.
    fn push_payload(&mut self, data: &str) -> Result<()> {
        if let Some(e) = &self.common_ref().failed {
            return Err(e.clone());
        }
        let result = self.payload(data);
        if let Err(e) = &result {
            let common = self.common();
            common.failed = Some(common.assembler.fail(e.clone()));
        }
        result
    }

    /// The normalized response `{responseId, finishReason, calls}` or the stream's first error.
    /// An SSE event left unterminated at the end is dropped (WHATWG).
    fn finish(&self) -> Result<Value> {
        let common = self.common_ref();
        if let Some(e) = &common.failed {
            return Err(e.clone());
        }
        let mut response = common.assembler.finish()?;
        if let Value::Object(members) = &mut response {
            let id = common.response_id.clone().map_or(Value::Null, Value::String);
            members.insert(0, ("responseId".to_owned(), id));
        }
        Ok(response)
    }
}

/// A whole raw SSE text through `adapter`.
pub fn assemble_sse<A: Adapter>(mut adapter: A, text: &[u8]) -> Result<Value> {
    adapter.push_sse(text)?;
    adapter.finish()
}

/// Payloads already split (one JSON text each) through `adapter`.
pub fn assemble_payloads<A: Adapter, S: AsRef<str>>(mut adapter: A, payloads: &[S]) -> Result<Value> {
    for p in payloads {
        adapter.push_payload(p.as_ref())?;
    }
    adapter.finish()
}
