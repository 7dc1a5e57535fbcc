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

use crate::error::Result;
use crate::options::Options;
use crate::value::Value;

use super::provider::{get, int_field, invalid, opt_str, req_str, Adapter, Common};
use super::Event;

fn index_of(value: &Value) -> Result<i64> {
    int_field(value, "index", "/index")
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
    common: Common,
    blocks: BTreeMap<i64, Block>,
    stopped: bool,
}

impl Anthropic {
    pub fn new(options: Options) -> Anthropic {
        Anthropic { common: Common::new(options), blocks: BTreeMap::new(), stopped: false }
    }

    fn read(&mut self, event: &Value) -> Result<()> {
        if !matches!(event, Value::Object(_)) {
            return Err(invalid("", format!("an event must be a JSON object, got {}", event.kind_name())));
        }
        if self.stopped {
            return Err(invalid("", "an event after message_stop"));
        }
        let kind = req_str(event, "type", "/type")?;
        match kind {
            "message_start" => {
                if self.common.response_id.is_some() {
                    return Err(invalid("/type", "a second message_start"));
                }
                let message = get(event, "message").ok_or_else(|| invalid("/message", "missing message"))?;
                self.common.response_id = Some(req_str(message, "id", "/message/id")?.to_owned());
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
                    self.common.emit(|sequence| Event::Start { sequence, item_id: item, call_id, name })?;
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
                self.common.emit(|sequence| Event::Delta { sequence, item_id, text, name: None })?;
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
                    self.common.emit(|sequence| Event::Delta {
                        sequence,
                        item_id: item,
                        text: "{}".to_owned(),
                        name: None,
                    })?;
                }
                self.common.emit(|sequence| Event::End { sequence, item_id })?;
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
                    self.common.emit(|sequence| Event::Finish { sequence, reason })?;
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                self.common.emit(|sequence| Event::Finish { sequence, reason: "error" })?;
            }
            _ => {} // ping, and event types added later
        }
        Ok(())
    }
}

impl Adapter for Anthropic {
    fn common(&mut self) -> &mut Common {
        &mut self.common
    }

    fn common_ref(&self) -> &Common {
        &self.common
    }

    fn event(&mut self, event: &Value) -> Result<()> {
        self.read(event)
    }
}
