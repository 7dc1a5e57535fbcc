//! Adapter: OpenAI Responses streaming events -> normalized stream events -> the assembler's
//! normalized response.
//!
//! Rules (the payload's own `type` decides, so raw SSE and split payloads read the same):
//! - one stream is one response: `response.created` comes first (only an `error` event may come
//!   before it) and its `response.id` is the `responseId`; a second `response.created` is
//!   `STREAM_EVENT_INVALID`, as is any event after `response.completed` / `.incomplete` /
//!   `.failed` or after `data: [DONE]` (accepted, not required). Later events' response ids
//!   are not compared: a proxy in the recordings rotates every id on every event;
//! - `sequence_number`, when present, is an integer that strictly increases within the response
//!   (gaps allowed; a repeat or a decrease is `NON_MONOTONIC_SEQUENCE`); it restarts with each
//!   response, so it is never compared across responses. It may be absent: gateways and
//!   hand-written streams omit it, and our own numbering feeds the assembler anyway;
//! - only `function_call` output items are client calls: `output_item.added` starts the item
//!   (`itemId` = the item `id`, `fc_…`; `callId` = its `call_id`, `call_…`; `name`), deltas
//!   are keyed by `item_id`, `output_item.done` ends it. The two ids differ on purpose: the
//!   client answers with `call_id`, the stream routes by `id`;
//! - the final text is checked, never trusted blindly: `function_call_arguments.done.arguments`
//!   and the done item's `arguments` must equal the concatenated deltas (a lost or altered
//!   fragment is `STREAM_EVENT_INVALID`); when no delta came at all, the final text is the
//!   arguments. Its `name` is optional (some recordings omit it); when present, and the done
//!   item's `name` / `call_id`, must be the item's own (`TOOL_NAME_CHANGED`,
//!   `STREAM_EVENT_INVALID`). A delta after `function_call_arguments.done` is
//!   `STREAM_EVENT_INVALID`. A done item with `status: "incomplete"` is not ended;
//! - empty arguments are not `{}`: the item starts with `arguments: ""` (an empty buffer, not an
//!   object) and the format never says that empty means no arguments, so `""` stays
//!   `JSON_INVALID` (the assembler's rule), as for Chat Completions;
//! - server-run items (message, reasoning, web / file search, code interpreter, image
//!   generation, MCP calls and tool lists, compaction, `program`, tool search with
//!   `execution: "server"`, shell calls in a hosted container, every `…_output` item) and all
//!   their events are ignored: the client has nothing to run;
//! - client actions that are not JSON function calls (`custom_tool_call`, `local_shell_call`,
//!   local `shell_call`, `apply_patch_call`, `computer_call`, `mcp_approval_request`, tool
//!   search with client execution, and any unknown item type carrying a `call_id`) are
//!   `CALL_TYPE_UNSUPPORTED`: the normalized response has no place for them, and dropping them
//!   would tell the client the model asked for nothing;
//! - finish: `response.completed` -> `tool_calls` if the response added function calls, else
//!   `stop` (an item not done by then is `INCOMPLETE_TOOL_CALL`); `response.incomplete` ->
//!   `incomplete_details.reason` `max_output_tokens` -> length, `content_filter` ->
//!   content_filter, other -> unknown; `response.failed` and `error` -> error;
//! - other event types (text, reasoning, annotations, progress, ones added later) are ignored.
//!
//! Payload JSON errors are reported in the `transport` layer, as for the other adapters.

use std::collections::BTreeMap;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::value::Value;

use super::provider::{get, int_field, invalid, opt_str, req_str, Adapter, Common};
use super::Event;

struct Call {
    call_id: String,
    /// `response.function_call_arguments.done` arrived: no more deltas.
    arguments_done: bool,
    /// `response.output_item.done` arrived.
    done: bool,
}

enum Item {
    Function,
    Ignored,
}

pub struct OpenAiResponses {
    common: Common,
    /// Function-call items by item id (`fc_…`).
    calls: BTreeMap<String, Call>,
    created: bool,
    /// The event that ended the response, when one did.
    ended: Option<&'static str>,
    last_sequence: Option<i64>,
}

fn non_null<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    get(value, key).filter(|v| !matches!(v, Value::Null))
}

fn object<'a>(value: &'a Value, key: &str, path: &str) -> Result<&'a Value> {
    match get(value, key) {
        Some(v @ Value::Object(_)) => Ok(v),
        None | Some(Value::Null) => Err(invalid(path, format!("missing {key}"))),
        Some(other) => Err(invalid(path, format!("{key} must be an object, got {}", other.kind_name()))),
    }
}

/// What an output item asks of the client.
fn classify(item: &Value) -> Result<Item> {
    let kind = req_str(item, "type", "/item/type")?;
    let client = match kind {
        "function_call" => return Ok(Item::Function),
        "message"
        | "reasoning"
        | "web_search_call"
        | "file_search_call"
        | "code_interpreter_call"
        | "image_generation_call"
        | "mcp_call"
        | "mcp_list_tools"
        | "compaction"
        | "program" => false,
        "custom_tool_call" | "local_shell_call" | "apply_patch_call" | "computer_call" | "mcp_approval_request" => true,
        "tool_search_call" => opt_str(item, "execution", "/item/execution")? != Some("server"),
        "shell_call" => {
            let environment = non_null(item, "environment");
            let hosted = environment
                .and_then(|e| get(e, "type"))
                .is_some_and(|t| matches!(t, Value::String(t) if t == "container_auto" || t == "container_reference"));
            !hosted
        }
        // A result the server attached, never a request.
        k if k.ends_with("_output") => false,
        // An item type added later: one the client must answer carries a call_id.
        _ => non_null(item, "call_id").is_some(),
    };
    if !client {
        return Ok(Item::Ignored);
    }
    let id = opt_str(item, "id", "/item/id").ok().flatten().unwrap_or("");
    Err(ContractError::new(
        Code::CallTypeUnsupported,
        "/item/type",
        format!(
            "output item {id:?} is a {kind}: the model asked the client for an action that is not a JSON function \
             call, and only function_call items can be assembled into calls"
        ),
    )
    .in_layer(Layer::Stream))
}

impl OpenAiResponses {
    pub fn new(options: Options) -> OpenAiResponses {
        OpenAiResponses {
            common: Common::new(options),
            calls: BTreeMap::new(),
            created: false,
            ended: None,
            last_sequence: None,
        }
    }

    fn sequence(&mut self, event: &Value) -> Result<()> {
        if non_null(event, "sequence_number").is_none() {
            return Ok(());
        }
        let n = int_field(event, "sequence_number", "/sequence_number")?;
        if n < 0 {
            return Err(invalid("/sequence_number", "sequence_number must not be negative"));
        }
        if let Some(last) = self.last_sequence {
            if n <= last {
                return Err(ContractError::new(
                    Code::NonMonotonicSequence,
                    "/sequence_number",
                    format!("sequence_number {n} does not follow {last}"),
                )
                .in_layer(Layer::Stream));
            }
        }
        self.last_sequence = Some(n);
        Ok(())
    }

    fn finish(&mut self, reason: &'static str) -> Result<()> {
        self.common.emit(|sequence| Event::Finish { sequence, reason })
    }

    fn call(&self, item_id: &str, path: &str) -> Result<&Call> {
        self.calls.get(item_id).ok_or_else(|| invalid(path, format!("no function_call item {item_id:?} was added")))
    }

    /// A final arguments text the provider repeats: it must be what the deltas built, or the
    /// whole text when no delta came.
    fn reconcile(&mut self, item_id: &str, text: &str, path: &str) -> Result<()> {
        let streamed = self.common.assembler.arguments_text(item_id).unwrap_or("");
        if streamed == text {
            return Ok(());
        }
        if !streamed.is_empty() {
            return Err(invalid(
                path,
                format!("the final arguments of item {item_id:?} differ from its streamed deltas"),
            ));
        }
        let (item_id, text) = (item_id.to_owned(), text.to_owned());
        self.common.emit(|sequence| Event::Delta { sequence, item_id, text, name: None })
    }

    /// A name the provider repeats: the assembler compares it (`TOOL_NAME_CHANGED`).
    fn same_name(&mut self, item_id: &str, name: Option<&str>) -> Result<()> {
        let Some(name) = name else { return Ok(()) };
        let (item_id, name) = (item_id.to_owned(), name.to_owned());
        self.common.emit(|sequence| Event::Delta { sequence, item_id, text: String::new(), name: Some(name) })
    }

    fn added(&mut self, item: &Value) -> Result<()> {
        if let Item::Ignored = classify(item)? {
            return Ok(());
        }
        let item_id = req_str(item, "id", "/item/id")?.to_owned();
        let call_id = req_str(item, "call_id", "/item/call_id")?.to_owned();
        let name = req_str(item, "name", "/item/name")?.to_owned();
        let arguments = opt_str(item, "arguments", "/item/arguments")?.unwrap_or("").to_owned();
        let (item, call) = (item_id.clone(), call_id.clone());
        self.common.emit(|sequence| Event::Start { sequence, item_id: item, call_id: call, name })?;
        self.calls.insert(item_id.clone(), Call { call_id, arguments_done: false, done: false });
        if !arguments.is_empty() {
            self.common.emit(|sequence| Event::Delta { sequence, item_id, text: arguments, name: None })?;
        }
        Ok(())
    }

    fn delta(&mut self, event: &Value) -> Result<()> {
        let item_id = req_str(event, "item_id", "/item_id")?;
        let text = req_str(event, "delta", "/delta")?;
        if self.call(item_id, "/item_id")?.arguments_done {
            return Err(invalid(
                "/item_id",
                format!("an arguments delta for item {item_id:?} after its function_call_arguments.done"),
            ));
        }
        if text.is_empty() {
            return Ok(());
        }
        let (item_id, text) = (item_id.to_owned(), text.to_owned());
        // After output_item.done the assembler reports DELTA_AFTER_END.
        self.common.emit(|sequence| Event::Delta { sequence, item_id, text, name: None })
    }

    fn arguments_done(&mut self, event: &Value) -> Result<()> {
        let item_id = req_str(event, "item_id", "/item_id")?;
        let arguments = req_str(event, "arguments", "/arguments")?;
        let name = opt_str(event, "name", "/name")?;
        if self.call(item_id, "/item_id")?.done {
            return Err(invalid(
                "/item_id",
                format!("function_call_arguments.done for item {item_id:?} after its output_item.done"),
            ));
        }
        self.reconcile(item_id, arguments, "/arguments")?;
        self.same_name(item_id, name)?;
        if let Some(call) = self.calls.get_mut(item_id) {
            call.arguments_done = true;
        }
        Ok(())
    }

    fn item_done(&mut self, item: &Value) -> Result<()> {
        if let Item::Ignored = classify(item)? {
            return Ok(());
        }
        let item_id = req_str(item, "id", "/item/id")?;
        let call = self.call(item_id, "/item/id")?;
        if let Some(call_id) = opt_str(item, "call_id", "/item/call_id")? {
            if call_id != call.call_id {
                return Err(invalid(
                    "/item/call_id",
                    format!("item {item_id:?} was added with call_id {:?} and is done with {call_id:?}", call.call_id),
                ));
            }
        }
        self.same_name(item_id, opt_str(item, "name", "/item/name")?)?;
        if let Some(arguments) = opt_str(item, "arguments", "/item/arguments")? {
            self.reconcile(item_id, arguments, "/item/arguments")?;
        }
        // An item the provider itself calls incomplete never ends: a normal finish then
        // reports it (INCOMPLETE_TOOL_CALL).
        if opt_str(item, "status", "/item/status")? == Some("incomplete") {
            return Ok(());
        }
        if let Some(call) = self.calls.get_mut(item_id) {
            call.done = true;
        }
        let item_id = item_id.to_owned();
        // A second done reaches the assembler as DELTA_AFTER_END.
        self.common.emit(|sequence| Event::End { sequence, item_id })
    }

    fn read(&mut self, event: &Value) -> Result<()> {
        if !matches!(event, Value::Object(_)) {
            return Err(invalid("", format!("an event must be a JSON object, got {}", event.kind_name())));
        }
        let kind = req_str(event, "type", "/type")?;
        if kind == "response.created" && self.created {
            return Err(invalid("/type", "a second response.created: one stream holds one response"));
        }
        if let Some(ended) = self.ended {
            return Err(invalid("", format!("an event after {ended}")));
        }
        if !self.created && kind != "response.created" && kind != "error" {
            return Err(invalid("/type", format!("{kind} before response.created")));
        }
        self.sequence(event)?;
        match kind {
            "response.created" => {
                let response = object(event, "response", "/response")?;
                self.common.response_id = Some(req_str(response, "id", "/response/id")?.to_owned());
                self.created = true;
            }
            "response.output_item.added" => self.added(object(event, "item", "/item")?)?,
            "response.function_call_arguments.delta" => self.delta(event)?,
            "response.function_call_arguments.done" => self.arguments_done(event)?,
            "response.output_item.done" => self.item_done(object(event, "item", "/item")?)?,
            "response.completed" => {
                self.ended = Some("response.completed");
                self.finish(if self.calls.is_empty() { "stop" } else { "tool_calls" })?;
            }
            "response.incomplete" => {
                self.ended = Some("response.incomplete");
                let response = object(event, "response", "/response")?;
                let reason = match non_null(response, "incomplete_details") {
                    Some(details) => opt_str(details, "reason", "/response/incomplete_details/reason")?,
                    None => None,
                };
                self.finish(match reason {
                    Some("max_output_tokens") => "length",
                    Some("content_filter") => "content_filter",
                    _ => "unknown",
                })?;
            }
            "response.failed" => {
                self.ended = Some("response.failed");
                self.finish("error")?;
            }
            "error" => self.finish("error")?,
            _ => {} // text, reasoning, server tools' progress, event types added later
        }
        Ok(())
    }
}

impl Adapter for OpenAiResponses {
    fn common(&mut self) -> &mut Common {
        &mut self.common
    }

    fn common_ref(&self) -> &Common {
        &self.common
    }

    fn event(&mut self, event: &Value) -> Result<()> {
        self.read(event)
    }

    fn payload(&mut self, data: &str) -> Result<()> {
        if self.ended == Some("data: [DONE]") {
            return Err(invalid("", "a payload after data: [DONE]"));
        }
        if data.trim() == "[DONE]" {
            // Not sent by OpenAI for this API, but by some compatible servers: the end of input.
            self.ended = Some("data: [DONE]");
            return Ok(());
        }
        let event = self.common.parse_payload(data)?;
        self.read(&event)
    }
}
