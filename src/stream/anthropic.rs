//! Adapter: Anthropic Messages streaming events -> normalized stream events -> the assembler's
//! normalized response (issue 4 §4).
//!
//! Rules (the payload's own `type` decides, so raw SSE and split payloads read the same):
//! - `message_start`: `message.id` is the `responseId`; a second one is `STREAM_EVENT_INVALID`;
//! - `content_block_start` with a `tool_use` block starts an item (`itemId` = `callId` = the
//!   block `id`, `name`); other blocks (text, thinking, `server_tool_use` — run by the server,
//!   never by the client — and their results) are tracked only so their deltas are accepted
//!   and ignored; a start for an index already started is `STREAM_EVENT_INVALID`;
//! - `content_block_delta` with `input_json_delta` appends `partial_json` to a tool block;
//!   other delta types are ignored; a delta for an index never started is `STREAM_EVENT_INVALID`;
//! - `content_block_stop` ends a tool block. Empty arguments: a tool_use block whose streamed
//!   input is empty (a tool with no parameters streams one empty `partial_json`) is `{}` —
//!   this format says so: the block starts with `input: {}`, and the non-streamed message
//!   gives `input: {}` for the same call;
//! - `message_delta.delta.stop_reason`: `end_turn` / `stop_sequence` -> stop, `tool_use` ->
//!   tool_calls, `max_tokens` / `model_context_window_exceeded` -> length, `refusal` ->
//!   content_filter, anything else (`pause_turn`, ...) -> unknown; a tool block still open
//!   then is `INCOMPLETE_TOOL_CALL` (normal stop) or the reason's `INCOMPLETE_RESPONSE`;
//! - `error` events finish with `error` (`INCOMPLETE_RESPONSE`); `ping` and unknown event
//!   types are ignored (Anthropic's versioning policy says new event types may appear);
//! - `message_stop` ends the input: anything after it is `STREAM_EVENT_INVALID`.
//!
//! Payload JSON errors are reported in the `transport` layer, as for OpenAI Chat.

use std::collections::BTreeMap;

use crate::error::{Code, ContractError, Layer, Result};
use crate::json::{self, Mode};
use crate::limits::Limits;
use crate::options::Options;
use crate::value::Value;

use super::sse::SseParser;
use super::{Assembler, Event};

fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::StreamEventInvalid, path, message).in_layer(Layer::Stream)
}

fn get<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn opt_str<'a>(value: &'a Value, key: &str, path: &str) -> Result<Option<&'a str>> {
    match get(value, key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(invalid(path, format!("{key} must be a string, got {}", other.kind_name()))),
    }
}

fn req_str<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a str> {
    opt_str(value, key, path)?.ok_or_else(|| invalid(path, format!("missing {key}")))
}

fn index_of(value: &Value) -> Result<i64> {
    match get(value, "index") {
        Some(Value::Number(n)) if n.value.fract() == 0.0 && n.value.abs() <= 9_007_199_254_740_991.0 => {
            Ok(n.value as i64)
        }
        _ => Err(invalid("/index", "index must be an integer")),
    }
}

enum Block {
    /// A tool_use block: its itemId, whether any non-empty input arrived, whether it stopped.
    Tool {
        item_id: String,
        has_input: bool,
        stopped: bool,
    },
    Other,
}

pub struct Anthropic {
    assembler: Assembler,
    limits: Limits,
    sse: SseParser,
    sequence: u64,
    response_id: Option<String>,
    blocks: BTreeMap<i64, Block>,
    stopped: bool,
    failed: Option<ContractError>,
}

impl Anthropic {
    pub fn new(options: Options) -> Anthropic {
        let limits = Limits { max_bytes: options.max_response_bytes, ..options.limits };
        Anthropic {
            assembler: Assembler::new(options),
            limits,
            sse: SseParser::new(),
            sequence: 0,
            response_id: None,
            blocks: BTreeMap::new(),
            stopped: false,
            failed: None,
        }
    }

    fn emit(&mut self, make: impl FnOnce(u64) -> Event) -> Result<()> {
        let event = make(self.sequence);
        self.sequence += 1;
        self.assembler.push(event)
    }

    pub fn push_sse(&mut self, chunk: &[u8]) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        for event in self.sse.push(chunk) {
            self.push_payload(&event.data)?;
        }
        Ok(())
    }

    pub fn push_payload(&mut self, data: &str) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = json::parse(data.as_bytes(), Mode::Strict, &self.limits)
            .map_err(|e| e.in_layer(Layer::Transport))
            .and_then(|v| self.event(&v));
        if let Err(e) = &result {
            self.failed = Some(self.assembler.fail(e.clone()));
        }
        result
    }

    fn event(&mut self, event: &Value) -> Result<()> {
        if !matches!(event, Value::Object(_)) {
            return Err(invalid("", format!("an event must be a JSON object, got {}", event.kind_name())));
        }
        if self.stopped {
            return Err(invalid("", "an event after message_stop"));
        }
        let kind = req_str(event, "type", "/type")?;
        match kind {
            "message_start" => {
                if self.response_id.is_some() {
                    return Err(invalid("/type", "a second message_start"));
                }
                let message = get(event, "message").ok_or_else(|| invalid("/message", "missing message"))?;
                self.response_id = Some(req_str(message, "id", "/message/id")?.to_owned());
            }
            "content_block_start" => {
                let index = index_of(event)?;
                if self.blocks.contains_key(&index) {
                    return Err(invalid("/index", format!("content block {index} started twice")));
                }
                let block =
                    get(event, "content_block").ok_or_else(|| invalid("/content_block", "missing content_block"))?;
                if req_str(block, "type", "/content_block/type")? == "tool_use" {
                    let item_id = req_str(block, "id", "/content_block/id")?.to_owned();
                    let name = req_str(block, "name", "/content_block/name")?.to_owned();
                    let (item, call_id) = (item_id.clone(), item_id.clone());
                    self.emit(|sequence| Event::Start { sequence, item_id: item, call_id, name })?;
                    self.blocks.insert(index, Block::Tool { item_id, has_input: false, stopped: false });
                } else {
                    self.blocks.insert(index, Block::Other);
                }
            }
            "content_block_delta" => {
                let index = index_of(event)?;
                let delta = get(event, "delta").ok_or_else(|| invalid("/delta", "missing delta"))?;
                let delta_type = req_str(delta, "type", "/delta/type")?;
                let text = match self.blocks.get_mut(&index) {
                    None => return Err(invalid("/index", format!("a delta for content block {index}, never started"))),
                    Some(Block::Other) => return Ok(()),
                    Some(Block::Tool { item_id, has_input, .. }) => {
                        if delta_type != "input_json_delta" {
                            return Ok(());
                        }
                        let text = req_str(delta, "partial_json", "/delta/partial_json")?;
                        if text.is_empty() {
                            return Ok(());
                        }
                        *has_input = true;
                        (item_id.clone(), text.to_owned())
                    }
                };
                let (item_id, text) = text;
                self.emit(|sequence| Event::Delta { sequence, item_id, text, name: None })?;
            }
            "content_block_stop" => {
                let index = index_of(event)?;
                let (item_id, empty) = match self.blocks.get_mut(&index) {
                    None => return Err(invalid("/index", format!("content block {index} stopped, never started"))),
                    Some(Block::Other) => return Ok(()),
                    Some(Block::Tool { item_id, has_input, stopped }) => {
                        // A second stop reaches the assembler as DELTA_AFTER_END.
                        let first = !*stopped;
                        *stopped = true;
                        (item_id.clone(), first && !*has_input)
                    }
                };
                if empty {
                    let item = item_id.clone();
                    self.emit(|sequence| Event::Delta { sequence, item_id: item, text: "{}".to_owned(), name: None })?;
                }
                self.emit(|sequence| Event::End { sequence, item_id })?;
            }
            "message_delta" => {
                let delta = get(event, "delta").ok_or_else(|| invalid("/delta", "missing delta"))?;
                if let Some(reason) = opt_str(delta, "stop_reason", "/delta/stop_reason")? {
                    let reason = match reason {
                        "end_turn" | "stop_sequence" => "stop",
                        "tool_use" => "tool_calls",
                        "max_tokens" | "model_context_window_exceeded" => "length",
                        "refusal" => "content_filter",
                        _ => "unknown",
                    };
                    self.emit(|sequence| Event::Finish { sequence, reason })?;
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                self.emit(|sequence| Event::Finish { sequence, reason: "error" })?;
            }
            _ => {} // ping, and event types added later
        }
        Ok(())
    }

    /// `{responseId, finishReason, calls}` or the stream's first error.
    pub fn finish(&self) -> Result<Value> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Value::Object(mut members) = self.assembler.finish()? else { unreachable!() };
        let id = self.response_id.clone().map_or(Value::Null, Value::String);
        members.insert(0, ("responseId".to_owned(), id));
        Ok(Value::Object(members))
    }
}

pub fn assemble_sse(text: &[u8], options: Options) -> Result<Value> {
    let mut a = Anthropic::new(options);
    a.push_sse(text)?;
    a.finish()
}

pub fn assemble_payloads<S: AsRef<str>>(payloads: &[S], options: Options) -> Result<Value> {
    let mut a = Anthropic::new(options);
    for p in payloads {
        a.push_payload(p.as_ref())?;
    }
    a.finish()
}
