//! The incremental assembler: one normalized event at a time, one normalized response at the end.
//!
//! Rules (seed 002 §6):
//! - `sequence` strictly increases over the whole response (`NON_MONOTONIC_SEQUENCE`);
//! - `start` opens an item; a second `start` for the same `itemId` is `DUPLICATE_STREAM_ITEM`,
//!   a `callId` used by another item `DUPLICATE_CALL_ID` (stream layer);
//! - `delta` / `end` need an open item (`UNKNOWN_STREAM_ITEM`); anything for an item after its
//!   `end` is `DELTA_AFTER_END`; a delta naming another tool is `TOOL_NAME_CHANGED`;
//! - the arguments text is appended to one buffer per item (`ARGUMENTS_TOO_LARGE` over
//!   `maxArgumentsBytes`; ids, names and all argument texts of the response together over
//!   `maxResponseBytes`) and parsed once, at `end`, by the strict parser: a parse error keeps
//!   its `parse`-layer code and position (relative to the arguments text); a value that is not
//!   a JSON object is `FIELD_TYPE` in the `schema` layer, as for decisions. An empty text is not
//!   JSON (`JSON_INVALID`): only a provider adapter may decide its format means `{}`;
//! - `finish` with `stop` / `tool_calls` completes the response; every item must have ended
//!   (`INCOMPLETE_TOOL_CALL`). Any other reason, or `cancel`, is `INCOMPLETE_RESPONSE`, whatever
//!   the buffers hold; so is `finish()` without a `finish` event. Events after `finish` are
//!   `EVENT_AFTER_FINISH`.
//! - The first error is final: every later `push` and `finish()` returns it again, so no call
//!   can come out of a stream that went wrong once.
//!
//! Work and memory are linear in the bytes received: deltas are appended, arguments parsed once.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::is_blank;
use crate::input::limits::Limits;
use crate::input::options::{OptionSet, Options};
use crate::input::HostValue;
use crate::json::{self, Mode};
use crate::value::Value;

use super::{read_event, Event};

struct Item {
    item_id: String,
    call_id: String,
    name: String,
    text: String,
    /// `Some` once the item has ended (its arguments parsed).
    arguments: Option<Value>,
}

pub struct Assembler {
    options: Options,
    items: Vec<Item>,
    /// itemId -> index in `items`, and the callIds in use: ordered maps, so many items stay
    /// O(log n) per event with no hashing to flood.
    by_item: BTreeMap<String, usize>,
    call_ids: BTreeSet<String>,
    last_sequence: Option<u64>,
    response_bytes: usize,
    finish_reason: Option<&'static str>,
    failed: Option<ContractError>,
}

impl Assembler {
    pub fn new(options: Options) -> Assembler {
        Assembler {
            options,
            items: Vec::new(),
            by_item: BTreeMap::new(),
            call_ids: BTreeSet::new(),
            last_sequence: None,
            response_bytes: 0,
            finish_reason: None,
            failed: None,
        }
    }

    /// Options from a host value (`maxArgumentsBytes`, `maxResponseBytes`, `maxDepth`,
    /// `maxStringBytes`, `maxArrayLength`, `maxObjectMembers`).
    pub fn from_options<V: HostValue>(options: Option<&V>) -> Result<Assembler> {
        Ok(Assembler::new(Options::read_for(options, OptionSet::Stream)?))
    }

    /// Reads one event from a host value and applies it.
    pub fn push_value<V: HostValue>(&mut self, event: &V) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = read_event(event).and_then(|e| self.apply(e));
        self.remember(result)
    }

    /// Ends the stream with an error found outside the assembler (a host value that could not
    /// be read at all): every later call returns it.
    pub fn fail(&mut self, error: ContractError) -> ContractError {
        self.failed.get_or_insert(error).clone()
    }

    pub fn push(&mut self, event: Event) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.apply(event);
        self.remember(result)
    }

    fn remember(&mut self, result: Result<()>) -> Result<()> {
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn error(code: Code, path: &str, message: impl Into<String>) -> ContractError {
        ContractError::new(code, path, message).in_layer(Layer::Stream)
    }

    fn item(&mut self, item_id: &str) -> Result<&mut Item> {
        let index = self.by_item.get(item_id).copied();
        index
            .map(|i| &mut self.items[i])
            .ok_or_else(|| Self::error(Code::UnknownStreamItem, "/itemId", format!("no item {item_id:?} was started")))
    }

    fn charge(&mut self, bytes: usize) -> Result<()> {
        self.response_bytes += bytes;
        if self.response_bytes > self.options.max_response_bytes {
            return Err(Self::error(
                Code::ArgumentsTooLarge,
                "",
                format!("the response is over maxResponseBytes ({})", self.options.max_response_bytes),
            ));
        }
        Ok(())
    }

    fn apply(&mut self, event: Event) -> Result<()> {
        if self.finish_reason.is_some() {
            return Err(Self::error(Code::EventAfterFinish, "", "an event after the response finished"));
        }
        if let Some(sequence) = event.sequence() {
            if let Some(last) = self.last_sequence {
                if sequence <= last {
                    return Err(Self::error(
                        Code::NonMonotonicSequence,
                        "/sequence",
                        format!("sequence {sequence} does not follow {last}"),
                    ));
                }
            }
            self.last_sequence = Some(sequence);
        }
        match event {
            Event::Start { item_id, call_id, name, .. } => {
                // Events read from a host were checked by the field reader already; adapters
                // build theirs from provider payloads, which may hold "" (one rule for both).
                for (key, text) in [("itemId", &item_id), ("callId", &call_id), ("name", &name)] {
                    if is_blank(text) {
                        return Err(Self::error(
                            Code::FieldEmpty,
                            &format!("/{key}"),
                            format!("{key} must not be empty or blank"),
                        ));
                    }
                }
                if self.by_item.contains_key(&item_id) {
                    return Err(Self::error(
                        Code::DuplicateStreamItem,
                        "/itemId",
                        format!("item {item_id:?} started twice"),
                    ));
                }
                if self.call_ids.contains(&call_id) {
                    return Err(Self::error(
                        Code::DuplicateCallId,
                        "/callId",
                        format!("callId {call_id:?} is already used by another item"),
                    ));
                }
                self.charge(item_id.len() + call_id.len() + name.len())?;
                self.by_item.insert(item_id.clone(), self.items.len());
                self.call_ids.insert(call_id.clone());
                self.items.push(Item { item_id, call_id, name, text: String::new(), arguments: None });
                Ok(())
            }
            Event::Delta { item_id, text, name, .. } => {
                let max = self.options.max_arguments_bytes;
                let item = self.item(&item_id)?;
                if item.arguments.is_some() {
                    return Err(Self::error(Code::DeltaAfterEnd, "/itemId", format!("item {item_id:?} already ended")));
                }
                if let Some(name) = name {
                    if name != item.name {
                        return Err(Self::error(
                            Code::ToolNameChanged,
                            "/name",
                            format!("item {item_id:?} started as {:?} and now names {name:?}", item.name),
                        ));
                    }
                }
                if item.text.len() + text.len() > max {
                    return Err(Self::error(
                        Code::ArgumentsTooLarge,
                        "/text",
                        format!("the arguments of item {item_id:?} are over maxArgumentsBytes ({max})"),
                    ));
                }
                item.text.push_str(&text);
                self.charge(text.len())
            }
            Event::End { item_id, .. } => {
                let limits = Limits { max_bytes: self.options.max_arguments_bytes, ..self.options.limits };
                let item = self.item(&item_id)?;
                if item.arguments.is_some() {
                    return Err(Self::error(Code::DeltaAfterEnd, "/itemId", format!("item {item_id:?} already ended")));
                }
                let arguments = json::parse(item.text.as_bytes(), Mode::Strict, &limits)?;
                if !matches!(arguments, Value::Object(_)) {
                    return Err(ContractError::new(
                        Code::FieldType,
                        "",
                        format!("the arguments of item {item_id:?} must be a JSON object"),
                    )
                    .in_layer(Layer::Schema));
                }
                item.arguments = Some(arguments);
                Ok(())
            }
            Event::Finish { reason, .. } => {
                if reason != "stop" && reason != "tool_calls" {
                    return Err(Self::error(
                        Code::IncompleteResponse,
                        "/reason",
                        format!("the response finished with {reason:?}: no call may be executed"),
                    ));
                }
                if let Some(open) = self.items.iter().find(|i| i.arguments.is_none()) {
                    return Err(Self::error(
                        Code::IncompleteToolCall,
                        "",
                        format!("item {:?} (call {:?}) never ended", open.item_id, open.call_id),
                    ));
                }
                self.finish_reason = Some(reason);
                Ok(())
            }
            Event::Cancel { .. } => {
                Err(Self::error(Code::IncompleteResponse, "", "the response was cancelled: no call may be executed"))
            }
        }
    }

    /// The normalized response `{finishReason, calls: [{callId, name, arguments}]}`, calls in
    /// start order; or the error that ended the stream. Repeatable.
    pub fn finish(&self) -> Result<Value> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Some(reason) = self.finish_reason else {
            return Err(Self::error(Code::IncompleteResponse, "", "the stream has no finish event"));
        };
        let calls = self
            .items
            .iter()
            .map(|i| {
                Value::Object(vec![
                    ("callId".to_owned(), Value::String(i.call_id.clone())),
                    ("name".to_owned(), Value::String(i.name.clone())),
                    ("arguments".to_owned(), i.arguments.clone().unwrap_or(Value::Null)),
                ])
            })
            .collect();
        Ok(Value::Object(vec![
            ("finishReason".to_owned(), Value::String(reason.to_owned())),
            ("calls".to_owned(), Value::Array(calls)),
        ]))
    }

    /// The arguments text an item has received so far, `None` for an item never started: an
    /// adapter whose provider repeats the final text compares it with what was streamed.
    pub(crate) fn arguments_text(&self, item_id: &str) -> Option<&str> {
        self.by_item.get(item_id).and_then(|&i| self.items.get(i)).map(|i| i.text.as_str())
    }

    /// What has arrived so far, for display only: `{executable: false, finishReason, calls:
    /// [{callId, name, argumentsText, complete}]}`. `complete` means the item ended (its
    /// arguments are valid JSON); nothing here may be executed — only `finish()` says that.
    pub fn preview(&self) -> Value {
        let calls = self
            .items
            .iter()
            .map(|i| {
                Value::Object(vec![
                    ("callId".to_owned(), Value::String(i.call_id.clone())),
                    ("name".to_owned(), Value::String(i.name.clone())),
                    ("argumentsText".to_owned(), Value::String(i.text.clone())),
                    ("complete".to_owned(), Value::Bool(i.arguments.is_some())),
                ])
            })
            .collect();
        Value::Object(vec![
            ("executable".to_owned(), Value::Bool(false)),
            ("finishReason".to_owned(), self.finish_reason.map_or(Value::Null, |r| Value::String(r.to_owned()))),
            ("calls".to_owned(), Value::Array(calls)),
        ])
    }
}

/// A whole event list at once (fixtures, replay): the first error with the index of the event
/// that caused it (`events.len()` for `finish()`), or the response.
pub fn assemble<V: HostValue>(events: &[V], options: Option<&V>) -> std::result::Result<Value, (usize, ContractError)> {
    let mut a = Assembler::from_options(options).map_err(|e| (0, e))?;
    for (i, event) in events.iter().enumerate() {
        a.push_value(event).map_err(|e| (i, e))?;
    }
    a.finish().map_err(|e| (events.len(), e))
}
