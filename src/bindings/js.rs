//! The wasm-bindgen binding (Node and browsers). A JS value is read in place through
//! `JsInput`, one field at a time, by the same rules every host runs. Results leave as one JSON
//! string (`wire::to_text`), which the package's `api.mjs` turns into objects with
//! `JSON.parse` (own data properties, `__proto__` included) and puts `undefined` back.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api;
use crate::error::ContractError;
use crate::input::{HostFault, HostResult, HostValue, KeysError, Kind, StringField};
use crate::value::Value;
use crate::wire::{outcome_value, to_text, verdict_text};

#[wasm_bindgen(module = "/src/bindings/js_host.js")]
extern "C" {
    #[wasm_bindgen(js_name = kindOf)]
    fn kind_of(v: &JsValue) -> u32;
    #[wasm_bindgen(js_name = readOwn, catch)]
    fn read_own(o: &JsValue, key: &JsValue) -> Result<u32, JsValue>;
    #[wasm_bindgen(js_name = readOwnString, catch)]
    fn read_own_string(o: &JsValue, key: &JsValue) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = takeLastKind)]
    fn take_last_kind() -> u32;
    #[wasm_bindgen(js_name = readIndex, catch)]
    fn read_index(a: &JsValue, i: u32) -> Result<u32, JsValue>;
    #[wasm_bindgen(js_name = takeLast)]
    fn take_last() -> JsValue;
    #[wasm_bindgen(js_name = lengthOf, catch)]
    fn length_of(a: &JsValue) -> Result<u32, JsValue>;
    #[wasm_bindgen(js_name = ownKeys, catch)]
    fn own_keys(o: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = notJsonName)]
    fn not_json_name(v: &JsValue) -> String;
    #[wasm_bindgen(js_name = wtf8)]
    fn wtf8(s: &JsValue) -> Uint8Array;
    #[wasm_bindgen(js_name = describeThrown)]
    fn describe_thrown(e: &JsValue) -> String;
}

const MISSING: u32 = 9;

fn kind(code: u32) -> Kind {
    match code {
        0 => Kind::Undefined,
        1 => Kind::Null,
        2 => Kind::Bool,
        3 => Kind::Number,
        4 => Kind::String,
        5 => Kind::IllFormedString,
        6 => Kind::Array,
        7 => Kind::Object,
        _ => Kind::NotJson,
    }
}

fn fault(e: JsValue) -> HostFault {
    HostFault::Threw(describe_thrown(&e))
}

thread_local! {
    /// JS strings for the field names rules ask for, made once: creating a JS string from
    /// Rust text is a crossing plus a decode.
    static KEYS: std::cell::RefCell<Vec<(&'static str, JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

const RULE_KEYS: [&str; 35] = [
    "type",
    "schemaVersion",
    "content",
    "summary",
    "callId",
    "tool",
    "input",
    "requestId",
    "capability",
    "resource",
    "reason",
    "name",
    "description",
    "inputSchema",
    "permissions",
    "permission",
    "outputSchema",
    "version",
    "strict",
    "maxBytes",
    "maxDepth",
    "ok",
    "kind",
    "calls",
    "answer",
    "arguments",
    "maxCalls",
    "maxStringBytes",
    "maxArrayLength",
    "maxObjectMembers",
    "sequence",
    "itemId",
    "text",
    "maxArgumentsBytes",
    "maxResponseBytes",
];

fn js_key(key: &str) -> JsValue {
    let Some(known) = RULE_KEYS.iter().find(|k| **k == key) else {
        return JsValue::from_str(key);
    };
    KEYS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, v)) = cache.iter().find(|(k, _)| *k == *known) {
            return v.clone();
        }
        let v = JsValue::from_str(known);
        cache.push((known, v.clone()));
        v
    })
}

struct JsInput {
    value: JsValue,
    kind: Kind,
}

impl JsInput {
    fn new(value: JsValue) -> JsInput {
        let kind = kind(kind_of(&value));
        JsInput { value, kind }
    }

    fn taken(code: u32) -> JsInput {
        JsInput { value: take_last(), kind: kind(code) }
    }
}

impl HostValue for JsInput {
    fn kind(&self) -> Kind {
        self.kind
    }

    fn boolean(&self) -> bool {
        self.value.as_bool().unwrap_or(false)
    }

    fn number(&self) -> f64 {
        self.value.as_f64().unwrap_or(f64::NAN)
    }

    fn string(&self) -> String {
        self.value.as_string().unwrap_or_default()
    }

    fn get(&self, key: &str) -> HostResult<Option<JsInput>> {
        match read_own(&self.value, &js_key(key)).map_err(fault)? {
            MISSING => Ok(None),
            code => Ok(Some(JsInput::taken(code))),
        }
    }

    fn get_string(&self, key: &str) -> HostResult<StringField<JsInput>> {
        match read_own_string(&self.value, &js_key(key)).map_err(fault)? {
            Some(s) => Ok(StringField::String(s)),
            None => match take_last_kind() {
                MISSING => Ok(StringField::Missing),
                code => Ok(StringField::Other(JsInput::taken(code))),
            },
        }
    }

    fn keys(&self) -> Result<Vec<String>, KeysError> {
        let keys = own_keys(&self.value).map_err(|e| KeysError::Fault(fault(e)))?;
        if keys.is_null() {
            return Err(KeysError::IllFormedKey);
        }
        let keys: Array = keys.unchecked_into();
        Ok(keys.iter().map(|k| k.as_string().unwrap_or_default()).collect())
    }

    fn len(&self) -> HostResult<usize> {
        length_of(&self.value).map(|n| n as usize).map_err(fault)
    }

    fn index(&self, i: usize) -> HostResult<JsInput> {
        let code = read_index(&self.value, i as u32).map_err(fault)?;
        Ok(JsInput::taken(code))
    }

    fn not_json_name(&self) -> String {
        not_json_name(&self.value)
    }
}

/// JSON text from the caller: a string (with lone surrogates sent as WTF-8, so the core can
/// point at them instead of seeing U+FFFD) or a `Uint8Array`.
fn text_bytes(text: &JsValue) -> Result<Vec<u8>, ContractError> {
    match kind(kind_of(text)) {
        Kind::String => Ok(text.as_string().unwrap_or_default().into_bytes()),
        Kind::IllFormedString => Ok(wtf8(text).to_vec()),
        _ => match text.dyn_ref::<Uint8Array>() {
            Some(bytes) => Ok(bytes.to_vec()),
            None => Err(api::not_text(&JsInput::new(text.clone()))),
        },
    }
}

fn reply(result: Result<Value, ContractError>) -> String {
    to_text(&outcome_value(result))
}

fn batch(result: Result<Vec<Result<crate::AgentAction, ContractError>>, ContractError>) -> String {
    reply(
        result.map(|items| Value::Array(items.into_iter().map(|r| outcome_value(r.map(|a| a.into_value()))).collect())),
    )
}

#[wasm_bindgen(js_name = parseAgentAction)]
pub fn parse_agent_action(value: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::parse_agent_action(&JsInput::new(value), Some(&options)).map(|a| a.into_value()))
}

#[wasm_bindgen(js_name = parseAgentActionJson)]
pub fn parse_agent_action_json(text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(text_bytes(&text).and_then(|t| api::parse_agent_action_json(&t, Some(&options))).map(|a| a.into_value()))
}

#[wasm_bindgen(js_name = previewAction)]
pub fn preview_action(value: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(Ok(api::preview_action(&JsInput::new(value), Some(&options))))
}

#[wasm_bindgen(js_name = defineTool)]
pub fn define_tool(def: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::define_tool(&JsInput::new(def), Some(&options)).map(|t| t.into_value()))
}

#[wasm_bindgen(js_name = defineToolJson)]
pub fn define_tool_json(text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(text_bytes(&text).and_then(|t| api::define_tool_json(&t, Some(&options))).map(|t| t.into_value()))
}

#[wasm_bindgen(js_name = parseAgentActions)]
pub fn parse_agent_actions(list: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    batch(api::parse_agent_actions(&JsInput::new(list), Some(&options)))
}

#[wasm_bindgen(js_name = parseAgentActionsJsonl)]
pub fn parse_agent_actions_jsonl(text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    batch(text_bytes(&text).and_then(|t| api::parse_agent_actions_jsonl(&t, Some(&options))))
}

/// A verdict-only reply (`wire::verdict_text`): on success api.mjs parses the text it holds.
#[wasm_bindgen(js_name = parseJson)]
pub fn parse_json(text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    verdict_text(text_bytes(&text).and_then(|t| api::check_json(&t, Some(&options))))
}

#[wasm_bindgen(js_name = parseDecision)]
pub fn parse_decision(value: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::parse_decision(&JsInput::new(value), Some(&options)).map(|d| d.into_value()))
}

#[wasm_bindgen(js_name = parseDecisionJson)]
pub fn parse_decision_json(text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(text_bytes(&text).and_then(|t| api::parse_decision_json(&t, Some(&options))).map(|d| d.into_value()))
}

#[wasm_bindgen(js_name = validateToolInput)]
pub fn validate_tool_input(tool: JsValue, input: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::validate_tool_input(&JsInput::new(tool), &JsInput::new(input), Some(&options)))
}

/// A verdict-only reply (`wire::verdict_text`): the valid input is the caller's text unchanged,
/// which api.mjs parses itself.
#[wasm_bindgen(js_name = validateToolInputJson)]
pub fn validate_tool_input_json(tool: JsValue, text: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    verdict_text(
        text_bytes(&text)
            .and_then(|t| api::validate_tool_input_json(&JsInput::new(tool), &t, Some(&options)))
            .map(drop),
    )
}

/// Host randomness for the schema engine's hash keys; the package calls it once at load with
/// `crypto.getRandomValues` (see `entropy`).
#[wasm_bindgen]
pub fn seed(bytes: &[u8]) -> bool {
    api::seed(bytes)
}

/// Runs one group of the official JSON Schema Test Suite (JSON text); for the conformance tests.
#[wasm_bindgen(js_name = schemaSuiteCheck)]
pub fn schema_suite_check(text: JsValue) -> String {
    reply(text_bytes(&text).and_then(|t| api::schema_suite_check(&t)))
}

#[wasm_bindgen(js_name = createRegistry)]
pub fn create_registry(tools: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::create_registry(&JsInput::new(tools), Some(&options)))
}

#[wasm_bindgen]
pub fn catalog(registry: JsValue) -> String {
    reply(api::catalog(&JsInput::new(registry)))
}

#[wasm_bindgen(js_name = definePolicy)]
pub fn define_policy(policy: JsValue) -> String {
    reply(api::define_policy(&JsInput::new(policy)))
}

#[wasm_bindgen(js_name = checkToolCall)]
pub fn check_tool_call(registry: JsValue, action: JsValue, policy: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::check_tool_call(&JsInput::new(registry), &JsInput::new(action), &JsInput::new(policy), Some(&options)))
}

#[wasm_bindgen(js_name = toOpenAITools)]
pub fn to_openai_tools(registry: JsValue) -> String {
    reply(api::project(&JsInput::new(registry), api::Provider::OpenAi))
}

#[wasm_bindgen(js_name = toOpenAIResponsesTools)]
pub fn to_openai_responses_tools(registry: JsValue) -> String {
    reply(api::project(&JsInput::new(registry), api::Provider::OpenAiResponses))
}

#[wasm_bindgen(js_name = toAnthropicTools)]
pub fn to_anthropic_tools(registry: JsValue) -> String {
    reply(api::project(&JsInput::new(registry), api::Provider::Anthropic))
}

#[wasm_bindgen(js_name = toMcpTools)]
pub fn to_mcp_tools(registry: JsValue) -> String {
    reply(api::project(&JsInput::new(registry), api::Provider::Mcp))
}

#[wasm_bindgen(js_name = normalizeToolResult)]
pub fn normalize_tool_result(tool: JsValue, value: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    reply(api::normalize_tool_result(&JsInput::new(tool), &JsInput::new(value), Some(&options)))
}

#[wasm_bindgen(js_name = compareContracts)]
pub fn compare_contracts(old: JsValue, new: JsValue) -> String {
    reply(api::compare_contracts(&JsInput::new(old), &JsInput::new(new)))
}

#[wasm_bindgen(js_name = diffCatalogs)]
pub fn diff_catalogs(old: JsValue, new: JsValue) -> String {
    reply(api::diff_catalogs(&JsInput::new(old), &JsInput::new(new)))
}

#[wasm_bindgen(js_name = strictSchemaIssues)]
pub fn strict_schema_issues(schema: JsValue) -> String {
    reply(api::strict_schema_issues(&JsInput::new(schema)))
}

#[wasm_bindgen(js_name = jsonSchemaForTarget)]
pub fn json_schema_for_target(schema: JsValue, target: JsValue) -> String {
    reply(api::json_schema_for_target(&JsInput::new(schema), &JsInput::new(target)))
}

/// The stream assembler (`createAssembler` in the package): its state lives in this wasm
/// instance, one Rust value per JS object. wasm-bindgen gives it `free()`; the package also
/// frees it when the JS object is garbage-collected (see `pkg/api.mjs`). Every method returns a
/// reply string like the functions above.
#[wasm_bindgen]
pub struct StreamAssembler {
    inner: Result<crate::stream::Assembler, ContractError>,
}

#[wasm_bindgen]
impl StreamAssembler {
    /// Invalid options do not throw here: every method then returns the options error.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> StreamAssembler {
        StreamAssembler { inner: crate::stream::Assembler::from_options(Some(&JsInput::new(options))) }
    }

    pub fn push(&mut self, event: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(a) => a.push_value(&JsInput::new(event)).map(|()| Value::Null),
            Err(e) => Err(e.clone()),
        })
    }

    pub fn preview(&self) -> String {
        reply(self.inner.as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    pub fn finish(&self) -> String {
        reply(self.inner.as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

/// A provider stream being assembled (`createProviderAssembler` in the package): the provider's
/// adapter in front of an assembler, fed provider events (`push`) or raw SSE (`pushSse`).
#[wasm_bindgen]
pub struct ProviderAssembler {
    inner: Result<crate::stream::provider_stream::ProviderStream, ContractError>,
}

#[wasm_bindgen]
impl ProviderAssembler {
    /// An unknown provider or invalid options do not throw here: every method returns the error.
    #[wasm_bindgen(constructor)]
    pub fn new(provider: JsValue, options: JsValue) -> ProviderAssembler {
        let options = JsInput::new(options);
        ProviderAssembler {
            inner: crate::stream::provider_stream::ProviderStream::from_host(&JsInput::new(provider), Some(&options)),
        }
    }

    pub fn push(&mut self, event: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(a) => a.push_host(&JsInput::new(event)).map(|()| Value::Null),
            Err(e) => Err(e.clone()),
        })
    }

    #[wasm_bindgen(js_name = pushSse)]
    pub fn push_sse(&mut self, chunk: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(a) => match sse_bytes(&chunk) {
                Some(bytes) => a.push_sse(&bytes).map(|()| Value::Null),
                None => a.push_sse_host(&JsInput::new(chunk)).map(|()| Value::Null),
            },
            Err(e) => Err(e.clone()),
        })
    }

    pub fn preview(&self) -> String {
        reply(self.inner.as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    pub fn finish(&self) -> String {
        reply(self.inner.as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

/// SSE text from the caller: a string (lone surrogates as WTF-8, which the SSE decoder then
/// replaces, as Python's binding sends them) or a `Uint8Array`.
fn sse_bytes(chunk: &JsValue) -> Option<Vec<u8>> {
    match kind(kind_of(chunk)) {
        Kind::String => Some(chunk.as_string().unwrap_or_default().into_bytes()),
        Kind::IllFormedString => Some(wtf8(chunk).to_vec()),
        _ => chunk.dyn_ref::<Uint8Array>().map(|b| b.to_vec()),
    }
}

/// A whole provider stream: SSE text (a string or `Uint8Array`) or a list of events.
#[wasm_bindgen(js_name = assembleProviderStream)]
pub fn assemble_provider_stream(provider: JsValue, input: JsValue, options: JsValue) -> String {
    let options = JsInput::new(options);
    let bytes = sse_bytes(&input);
    reply(crate::stream::provider_stream::assemble(
        &JsInput::new(provider),
        &JsInput::new(input),
        bytes.as_deref(),
        Some(&options),
    ))
}

/// Bytes of this instance's linear memory: tests show that dropped assemblers are freed.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return (core::arch::wasm32::memory_size(0) * 65536) as f64;
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}
