//! Adapter: OpenAI Chat Completions streaming chunks -> normalized stream events -> the
//! assembler's normalized response.
//!
//! Rules:
//! - input is raw SSE (`data:` payloads; `data: [DONE]` ends the stream, anything after it is
//!   `STREAM_EVENT_INVALID`) or the payloads already split (one JSON text each);
//! - a payload that is not strict JSON keeps its `parse` code, moved to the `transport` layer;
//!   a payload that is not an object, or whose fields have the wrong shape, is
//!   `STREAM_EVENT_INVALID`; chunks with no `choices` (usage chunks) carry no events;
//! - only choice `index` 0 is assembled (a stream asked with `n > 1` is `STREAM_EVENT_INVALID`);
//! - `choices[0].delta.tool_calls[]` is keyed by its `index` (any integer: some gateways start
//!   at 1): the first fragment for an index must carry `id` and `function.name` and starts the
//!   item (`itemId` = `callId` = the provider's call `id`; Chat Completions has no separate
//!   item id); later fragments append `function.arguments`; a repeated `function.name` must be
//!   the same (`TOOL_NAME_CHANGED`), a different `id` for a started index is
//!   `STREAM_EVENT_INVALID`;
//! - `finish_reason` ends every open call (start order) then finishes the response:
//!   `stop` -> stop, `tool_calls` / `function_call` -> tool_calls, `length` -> length,
//!   `content_filter` -> content_filter, anything else -> unknown (never executable);
//! - an empty `arguments` text is not `{}`: this format does not say so, so it stays
//!   `JSON_INVALID` (the assembler's rule);
//! - the response keeps the provider's chunk `id` as `responseId` (the first non-empty one).

use std::collections::BTreeMap;

use crate::error::Result;
use crate::input::options::Options;
use crate::value::Value;

use super::provider::{get, int_field, invalid, opt_str, Adapter, Common};
use super::Event;

pub struct OpenAiChat {
    common: Common,
    /// tool-call index -> itemId (the provider's call id), and the items still open in start order.
    by_index: BTreeMap<i64, String>,
    open: Vec<String>,
    done: bool,
}

impl OpenAiChat {
    pub fn new(options: Options) -> OpenAiChat {
        OpenAiChat { common: Common::new(options), by_index: BTreeMap::new(), open: Vec::new(), done: false }
    }

    /// One chunk already parsed.
    fn chunk(&mut self, chunk: &Value) -> Result<()> {
        if self.done {
            return Err(invalid("", "a chunk after data: [DONE]"));
        }
        if !matches!(chunk, Value::Object(_)) {
            return Err(invalid("", format!("a chunk must be a JSON object, got {}", chunk.kind_name())));
        }
        // An empty id is no id: an Azure gateway sends a first chunk with `"id": ""` (prompt
        // filter results) before the real one.
        if let Some(id) = opt_str(chunk, "id", "/id")?.filter(|id| !id.is_empty()) {
            if self.common.response_id.is_none() {
                self.common.response_id = Some(id.to_owned());
            }
        }
        let choices = match get(chunk, "choices") {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Array(c)) => c,
            Some(_) => return Err(invalid("/choices", "choices must be an array")),
        };
        for (ci, choice) in choices.iter().enumerate() {
            let path = format!("/choices/{ci}");
            if int_field(choice, "index", &format!("{path}/index"))? != 0 {
                return Err(invalid(&format!("{path}/index"), "only choice 0 can be assembled (n > 1)"));
            }
            if let Some(delta) = get(choice, "delta").filter(|d| !matches!(d, Value::Null)) {
                match get(delta, "tool_calls") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(calls)) => {
                        for (ti, call) in calls.iter().enumerate() {
                            self.tool_call(call, &format!("{path}/delta/tool_calls/{ti}"))?;
                        }
                    }
                    Some(_) => return Err(invalid(&format!("{path}/delta/tool_calls"), "tool_calls must be an array")),
                }
            }
            if let Some(reason) = opt_str(choice, "finish_reason", &format!("{path}/finish_reason"))? {
                let reason = match reason {
                    "stop" => "stop",
                    "tool_calls" | "function_call" => "tool_calls",
                    "length" => "length",
                    "content_filter" => "content_filter",
                    _ => "unknown",
                };
                for item_id in std::mem::take(&mut self.open) {
                    self.common.emit(|sequence| Event::End { sequence, item_id })?;
                }
                self.common.emit(|sequence| Event::Finish { sequence, reason })?;
            }
        }
        Ok(())
    }

    fn tool_call(&mut self, call: &Value, path: &str) -> Result<()> {
        if !matches!(call, Value::Object(_)) {
            return Err(invalid(path, "a tool call fragment must be an object"));
        }
        let index = int_field(call, "index", &format!("{path}/index"))?;
        let id = opt_str(call, "id", &format!("{path}/id"))?;
        let function = get(call, "function").filter(|f| !matches!(f, Value::Null));
        let (name, arguments) = match function {
            None => (None, None),
            Some(f @ Value::Object(_)) => (
                opt_str(f, "name", &format!("{path}/function/name"))?,
                opt_str(f, "arguments", &format!("{path}/function/arguments"))?,
            ),
            Some(_) => return Err(invalid(&format!("{path}/function"), "function must be an object")),
        };
        let item_id = match self.by_index.get(&index) {
            Some(item_id) => {
                if let Some(id) = id {
                    if id != item_id {
                        return Err(invalid(
                            &format!("{path}/id"),
                            format!("tool call {index} started as {item_id:?} and now has id {id:?}"),
                        ));
                    }
                }
                let item_id = item_id.clone();
                if let Some(name) = name {
                    let (item, name) = (item_id.clone(), name.to_owned());
                    self.common.emit(|sequence| Event::Delta {
                        sequence,
                        item_id: item,
                        text: String::new(),
                        name: Some(name),
                    })?;
                }
                item_id
            }
            None => {
                let (Some(id), Some(name)) = (id, name) else {
                    return Err(invalid(path, format!("the first fragment of tool call {index} has no id or no name")));
                };
                let (item_id, name) = (id.to_owned(), name.to_owned());
                let (item, call_id) = (item_id.clone(), item_id.clone());
                self.common.emit(|sequence| Event::Start { sequence, item_id: item, call_id, name })?;
                self.by_index.insert(index, item_id.clone());
                self.open.push(item_id.clone());
                item_id
            }
        };
        if let Some(text) = arguments.filter(|t| !t.is_empty()) {
            let text = text.to_owned();
            self.common.emit(|sequence| Event::Delta { sequence, item_id, text, name: None })?;
        }
        Ok(())
    }
}

impl Adapter for OpenAiChat {
    fn common(&mut self) -> &mut Common {
        &mut self.common
    }

    fn common_ref(&self) -> &Common {
        &self.common
    }

    fn event(&mut self, event: &Value) -> Result<()> {
        self.chunk(event)
    }

    fn payload(&mut self, data: &str) -> Result<()> {
        if self.done {
            return Err(invalid("", "a payload after data: [DONE]"));
        }
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk = self.common.parse_payload(data)?;
        self.chunk(&chunk)
    }
}
