//! Adapter: Anthropic Messages streaming events -> normalized stream events -> the assembler's
//! normalized response.
//!
//! Rules (the payload's own `type` decides, so raw SSE and split payloads read the same):
//! - `message_start`: `message.id` is the `responseId`; a second one is `STREAM_EVENT_INVALID`;
//! - `message_start.message.content` may already hold whole blocks, and `message.stop_reason`
//!   the finish (programmatic tool calling: each call its code makes comes as one
//!   `message_start` + `message_stop` with a `tool_use` block and `stop_reason: tool_use`, no
//!   block events): a `tool_use` block there is a whole call (`start`, its `input` as JSON,
//!   `end`) at its index, and the stop reason finishes as below;
//! - `content_block_start` with a `tool_use` block starts an item (`itemId` = `callId` = the
//!   block `id`, `name`) whatever its `caller`: `direct`, or code running in Anthropic's code
//!   execution container (programmatic tool calling), the client runs the tool and answers with
//!   a `tool_result` for that id. Other blocks (text, thinking, `server_tool_use` — run by
//!   Anthropic, never by the client, whatever its caller — and their results) are tracked only
//!   so their deltas are accepted and ignored; a start for an index already started is
//!   `STREAM_EVENT_INVALID`;
//! - `content_block_delta` with `input_json_delta` appends `partial_json` to a tool block;
//!   other delta types are ignored; a delta for an index never started is `STREAM_EVENT_INVALID`;
//! - `content_block_stop` ends a tool block. A tool block that streamed no input keeps the
//!   `input` it started with: `{}` for a tool with no parameters (this format says so: the
//!   block starts with `input: {}` and streams one empty `partial_json`, and the non-streamed
//!   message gives `input: {}`), the whole input for a call made from code (its block starts
//!   with the input and streams none). A block that started with a non-empty input and also
//!   streams input is `STREAM_EVENT_INVALID` (which one holds is not specified);
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
use crate::input::options::Options;
use crate::value::Value;

use super::provider::object_text;
use super::provider::{get, int_field, invalid, opt_str, req_str, Adapter, Common};
use super::Event;

fn index_of(value: &Value) -> Result<i64> {
    int_field(value, "index", "/index")
}

enum Block {
    /// A tool_use block: its itemId, the `input` it started with (JSON text), whether any
    /// non-empty input was streamed, whether it stopped.
    Tool {
        item_id: String,
        start_input: String,
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
                match get(message, "content") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(blocks)) => {
                        for (i, block) in blocks.iter().enumerate() {
                            self.whole_block(i, block, &format!("/message/content/{i}"))?;
                        }
                    }
                    Some(_) => return Err(invalid("/message/content", "content must be an array")),
                }
                if let Some(reason) = opt_str(message, "stop_reason", "/message/stop_reason")? {
                    self.finish(reason)?;
                }
            }
            "content_block_start" => {
                let index = index_of(event)?;
                if self.blocks.contains_key(&index) {
                    return Err(invalid("/index", format!("content block {index} started twice")));
                }
                let block =
                    get(event, "content_block").ok_or_else(|| invalid("/content_block", "missing content_block"))?;
                if req_str(block, "type", "/content_block/type")? == "tool_use" {
                    let item_id = self.start_tool(block, "/content_block")?;
                    let start_input = input_text(block, "/content_block")?;
                    self.blocks.insert(index, Block::Tool { item_id, start_input, has_input: false, stopped: false });
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
                    Some(Block::Tool { item_id, start_input, has_input, .. }) => {
                        if delta_type != "input_json_delta" {
                            return Ok(());
                        }
                        let text = req_str(delta, "partial_json", "/delta/partial_json")?;
                        if text.is_empty() {
                            return Ok(());
                        }
                        if start_input != "{}" {
                            return Err(invalid(
                                "/delta/partial_json",
                                format!("tool_use block {index} started with its input and also streams input"),
                            ));
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
                let (item_id, start_input) = match self.blocks.get_mut(&index) {
                    None => return Err(invalid("/index", format!("content block {index} stopped, never started"))),
                    Some(Block::Other) => return Ok(()),
                    Some(Block::Tool { item_id, start_input, has_input, stopped }) => {
                        // A second stop reaches the assembler as DELTA_AFTER_END.
                        let first = !*stopped;
                        *stopped = true;
                        (item_id.clone(), (first && !*has_input).then(|| start_input.clone()))
                    }
                };
                if let Some(text) = start_input {
                    let item = item_id.clone();
                    self.common.emit(|sequence| Event::Delta { sequence, item_id: item, text, name: None })?;
                }
                self.common.emit(|sequence| Event::End { sequence, item_id })?;
            }
            "message_delta" => {
                let delta = get(event, "delta").ok_or_else(|| invalid("/delta", "missing delta"))?;
                if let Some(reason) = opt_str(delta, "stop_reason", "/delta/stop_reason")? {
                    self.finish(reason)?;
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

impl Anthropic {
    /// Starts the item of a `tool_use` block at `path`; its itemId.
    fn start_tool(&mut self, block: &Value, path: &str) -> Result<String> {
        let item_id = req_str(block, "id", &format!("{path}/id"))?.to_owned();
        let name = req_str(block, "name", &format!("{path}/name"))?.to_owned();
        let (item, call_id) = (item_id.clone(), item_id.clone());
        self.common.emit(|sequence| Event::Start { sequence, item_id: item, call_id, name })?;
        Ok(item_id)
    }

    /// A block already whole in `message_start.message.content`, at content index `index`.
    fn whole_block(&mut self, index: usize, block: &Value, path: &str) -> Result<()> {
        let index = index as i64;
        if req_str(block, "type", &format!("{path}/type"))? != "tool_use" {
            self.blocks.insert(index, Block::Other);
            return Ok(());
        }
        let item_id = self.start_tool(block, path)?;
        let text = input_text(block, path)?;
        let item = item_id.clone();
        self.common.emit(|sequence| Event::Delta { sequence, item_id: item, text, name: None })?;
        let item = item_id.clone();
        self.common.emit(|sequence| Event::End { sequence, item_id: item })?;
        self.blocks
            .insert(index, Block::Tool { item_id, start_input: "{}".to_owned(), has_input: true, stopped: true });
        Ok(())
    }

    fn finish(&mut self, reason: &str) -> Result<()> {
        let reason = match reason {
            "end_turn" | "stop_sequence" => "stop",
            "tool_use" => "tool_calls",
            "max_tokens" | "model_context_window_exceeded" => "length",
            "refusal" => "content_filter",
            _ => "unknown",
        };
        self.common.emit(|sequence| Event::Finish { sequence, reason })
    }
}

/// A tool_use block's `input` as JSON text (absent or null: `{}`).
fn input_text(block: &Value, path: &str) -> Result<String> {
    match get(block, "input") {
        None | Some(Value::Null) => Ok("{}".to_owned()),
        Some(input) => object_text(input, &format!("{path}/input")),
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
