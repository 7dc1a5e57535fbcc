//! The wasm-bindgen binding (Node and browsers). A JS value is read in place through
//! `JsInput`, one field at a time, by the same rules every host runs. Results leave as one JSON
//! string (`wire::to_text`), which the package's `api.mjs` turns into objects with
//! `JSON.parse` (own data properties, `__proto__` included) and puts `undefined` back.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api;
use crate::api::options_of;
use crate::error::ContractError;
use crate::input::limits::MAX_BYTES_CEILING;
use crate::input::options::{OptionSet, Options};
use crate::input::{HostFault, HostResult, HostValue, KeysError, Kind, StringField};
use crate::value::Value;
use crate::wire::{outcome_value, to_text, verdict_text};

// The global allocator: memory taken from V8 in larger steps during a burst of growth.
#[cfg(target_arch = "wasm32")]
mod grow;
// Compiled tools and registries: the wasm-bindgen classes.
#[cfg(feature = "schema")]
mod handles;
// Strings into the core through one reused buffer, cheaper per string than wasm-bindgen's
// allocate / copy / write-back / free.
mod scratch;
// Verdict replies: the exports that answer with a verdict on success, since the host already
// holds the accepted value and a copy of it back would only cost time.
mod verdict;

#[wasm_bindgen(module = "/src/bindings/js_host.js")]
extern "C" {
    #[wasm_bindgen(js_name = readRoot)]
    fn read_root(v: &JsValue, cap: f64, mirror: bool) -> u32;
    #[wasm_bindgen(js_name = readOwn)]
    fn read_own(node: &JsValue, key: &JsValue, cap: f64) -> u32;
    #[wasm_bindgen(js_name = takeLastKind)]
    fn take_last_kind() -> u32;
    #[wasm_bindgen(js_name = readIndex)]
    fn read_index(node: &JsValue, i: u32, cap: f64) -> u32;
    #[wasm_bindgen(js_name = takeLast)]
    fn take_last() -> JsValue;
    #[wasm_bindgen(js_name = lengthOf)]
    fn length_of(node: &JsValue) -> f64;
    #[wasm_bindgen(js_name = ownKeys)]
    fn own_keys(node: &JsValue, key_cap: f64) -> JsValue;
    #[wasm_bindgen(js_name = takeThrown)]
    fn take_thrown() -> JsValue;
    #[wasm_bindgen(js_name = notJsonName)]
    fn not_json_name(v: &JsValue) -> String;
    #[wasm_bindgen(js_name = snapshotOptions)]
    fn snapshot_options(v: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = textKind)]
    fn text_kind(t: &JsValue) -> u32;
    #[wasm_bindgen(js_name = takeText)]
    fn take_text() -> JsValue;
    #[wasm_bindgen(js_name = textLength)]
    fn text_length(t: &JsValue) -> f64;
    #[wasm_bindgen(js_name = utf8Length)]
    fn utf8_length(s: &JsValue) -> f64;
    #[wasm_bindgen(js_name = pieceEnd)]
    fn piece_end(s: &JsValue, to: f64) -> f64;
    #[wasm_bindgen(js_name = slice)]
    fn slice(t: &JsValue, from: f64, to: f64) -> JsValue;
    #[wasm_bindgen(js_name = wtf8)]
    fn wtf8(s: &JsValue) -> Uint8Array;
    #[wasm_bindgen(js_name = describeThrown)]
    fn describe_thrown(e: &JsValue) -> String;
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(s: &JsValue, out: &mut [u8]) -> f64;
}

/// Strings of at least this many UTF-16 units cross by `TextEncoder.encodeInto` straight into
/// a buffer of their exact UTF-8 length: wasm-bindgen's own passing copies ASCII one unit at a
/// time in a JS loop (a 6.7 MB base64 payload: ~25 ms, against ~5 ms).
const LONG_STRING: usize = 1 << 16;

/// A well-formed JS string as Rust text.
fn long_string(s: &JsValue) -> String {
    if let Some(short) = scratch::short_string(s) {
        return short;
    }
    let units = text_length(s) as usize;
    if units < LONG_STRING {
        return s.as_string().unwrap_or_default();
    }
    let mut buf = vec![0u8; utf8_length(s) as usize];
    let written = encode_into(s, &mut buf) as usize;
    buf.truncate(written);
    String::from_utf8(buf).unwrap_or_default()
}

const MISSING: u32 = 9;
const CYCLE: u32 = 10;
/// A reader's answer when the caller's code threw (a getter, a Proxy trap): `take_thrown()`.
const THREW: u32 = 11;

/// What a reader that answered THREW caught.
fn thrown() -> HostFault {
    fault(take_thrown())
}

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
    /// JS strings for the field names rules ask for, made once (creating a JS string from Rust
    /// text is a crossing plus a decode), all at once and never changed: a read lends one
    /// without a clone (an externref table slot taken and freed per read), even to a call the
    /// caller's getter makes meanwhile.
    static KEYS: Vec<JsValue> = RULE_KEYS.iter().map(|k| JsValue::from_str(k)).collect();
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

/// `f` given the JS string of `key`.
fn with_js_key<R>(key: &str, f: impl FnOnce(&JsValue) -> R) -> R {
    let Some(i) = RULE_KEYS.iter().position(|k| *k == key) else {
        return f(&scratch::recent_key(key));
    };
    KEYS.with(|keys| f(&keys[i]))
}

/// Strings up to this many UTF-16 units always cross whole, whatever the limits: every name a
/// rule compares a string with (types, providers, option names) is far shorter.
const CAP_FLOOR: usize = 4096;

/// The most UTF-16 units of one string (or key) that cross into wasm for a call with these
/// options: a string longer than every limit a rule may check it against fails that check
/// whatever its length, so only its beginning crosses (see `capped` in js_host.js). Strings of
/// values are checked against `maxStringBytes` and charged to `maxBytes`; stream events also
/// against the arguments and response budgets.
fn string_cap(options: &Options, set: OptionSet) -> f64 {
    let l = &options.limits;
    let stream = if set == OptionSet::Stream { options.max_arguments_bytes.max(options.max_response_bytes) } else { 0 };
    l.max_bytes.max(l.max_string_bytes).max(stream).max(CAP_FLOOR) as f64
}

/// A call's options, copied if plain (so that the core's read and the binding's read agree),
/// with the string cap they imply. Options the core will refuse give the cap of the
/// ceilings, which no string under any limit reaches; the core then reports them.
struct CallOptions {
    input: JsInput,
    cap: Caps,
}

/// UTF-16 units that cross whole: of a string value, and of an object key (keys are only ever
/// checked against `maxStringBytes`, or compared with names).
#[derive(Clone, Copy)]
struct Caps {
    string: f64,
    key: f64,
}

impl Caps {
    const FLOOR: Caps = Caps { string: CAP_FLOOR as f64, key: CAP_FLOOR as f64 };
    const CEILING: Caps = Caps { string: MAX_BYTES_CEILING as f64, key: MAX_BYTES_CEILING as f64 };

    fn of(options: &Options, set: OptionSet) -> Caps {
        Caps { string: string_cap(options, set), key: options.limits.max_string_bytes.max(CAP_FLOOR) as f64 }
    }
}

impl CallOptions {
    fn read(options: &JsValue, set: OptionSet) -> CallOptions {
        let input = JsInput::root(snapshot_options(options), Caps::FLOOR);
        let cap = match Options::read_for(Some(&input), set) {
            Ok(o) => Caps::of(&o, set),
            Err(_) => Caps::CEILING,
        };
        CallOptions { input, cap }
    }

    fn value(&self, value: JsValue) -> JsInput {
        JsInput::root(value, self.cap)
    }

    fn mirrored(&self, value: JsValue) -> JsInput {
        JsInput::mirrored(value, self.cap)
    }
}

/// A JS value as the rules read it. A container is held as its node (`{v, up}`, see
/// js_host.js), so that a read can tell a cycle; anything else is the value itself (a string
/// longer than `cap` units: its beginning).
struct JsInput {
    value: JsValue,
    kind: Kind,
    cap: Caps,
}

impl JsInput {
    fn root(value: JsValue, cap: Caps) -> JsInput {
        let code = read_root(&value, cap.string, false);
        JsInput::taken(code, cap)
    }

    /// A root whose containers keep a mirror of what the core reads (verdict replies: see
    /// `found` in js_host.js).
    fn mirrored(value: JsValue, cap: Caps) -> JsInput {
        let code = read_root(&value, cap.string, true);
        JsInput::taken(code, cap)
    }

    fn taken(code: u32, cap: Caps) -> JsInput {
        JsInput { value: take_last(), kind: kind(code), cap }
    }

    fn child(&self, code: u32) -> HostResult<JsInput> {
        if code == CYCLE {
            take_last();
            return Err(HostFault::Cycle);
        }
        Ok(JsInput::taken(code, self.cap))
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
        long_string(&self.value)
    }

    fn get(&self, key: &str) -> HostResult<Option<JsInput>> {
        match with_js_key(key, |k| read_own(&self.value, k, self.cap.string)) {
            THREW => Err(thrown()),
            MISSING => Ok(None),
            code => self.child(code).map(Some),
        }
    }

    fn get_string(&self, key: &str) -> HostResult<StringField<JsInput>> {
        match with_js_key(key, |k| scratch::read_own_string(&self.value, k, self.cap.string)).map_err(|()| thrown())? {
            scratch::Read::String(s) => Ok(StringField::String(s)),
            scratch::Read::Whole => Ok(StringField::String(long_string(&take_last()))),
            scratch::Read::Other => match take_last_kind() {
                MISSING => Ok(StringField::Missing),
                code => self.child(code).map(StringField::Other),
            },
        }
    }

    fn keys(&self) -> Result<Vec<String>, KeysError> {
        let keys = own_keys(&self.value, self.cap.key);
        if keys.is_undefined() {
            return Err(KeysError::Fault(thrown()));
        }
        if keys.is_null() {
            return Err(KeysError::IllFormedKey);
        }
        let keys: Array = keys.unchecked_into();
        Ok(keys.iter().map(|k| long_string(&k)).collect())
    }

    fn len(&self) -> HostResult<usize> {
        match length_of(&self.value) {
            n if n < 0.0 => Err(thrown()),
            n => Ok(n as usize),
        }
    }

    fn index(&self, i: usize) -> HostResult<JsInput> {
        match read_index(&self.value, i as u32, self.cap.string) {
            THREW => Err(thrown()),
            code => self.child(code),
        }
    }

    fn not_json_name(&self) -> String {
        not_json_name(&self.value)
    }
}

/// A text argument (JSON text, SSE): a string, or the bytes of a genuine `Uint8Array` (a fresh
/// plain view; see `textKind` in js_host.js).
enum Text {
    Str { s: JsValue, well_formed: bool },
    Bytes(Uint8Array),
    Other(JsValue),
}

impl Text {
    fn of(arg: &JsValue) -> Text {
        match text_kind(arg) {
            0 => Text::Str { s: take_text(), well_formed: true },
            1 => Text::Str { s: take_text(), well_formed: false },
            2 => Text::Bytes(take_text().unchecked_into()),
            _ => Text::Other(arg.clone()),
        }
    }

    /// UTF-16 units or bytes.
    fn len(&self) -> usize {
        match self {
            Text::Str { s, .. } => text_length(s) as usize,
            Text::Bytes(b) => b.length() as usize,
            Text::Other(_) => 0,
        }
    }

    /// Units (or bytes) `[from, to)` as UTF-8 (WTF-8 for lone surrogates, so the core can point
    /// at them instead of seeing U+FFFD).
    fn bytes(&self, from: usize, to: usize) -> Vec<u8> {
        match self {
            Text::Str { s, well_formed } => {
                let piece = if from == 0 && to >= self.len() { s.clone() } else { slice(s, from as f64, to as f64) };
                if *well_formed {
                    long_string(&piece).into_bytes()
                } else {
                    wtf8(&piece).to_vec()
                }
            }
            Text::Bytes(b) => b.subarray(from as u32, to as u32).to_vec(),
            Text::Other(_) => Vec::new(),
        }
    }

    /// Where a piece starting at `from` of at most `units` ends, without cutting a surrogate pair.
    fn piece_end(&self, from: usize, units: usize) -> usize {
        let to = from.saturating_add(units).min(self.len());
        match self {
            Text::Str { s, .. } if to < self.len() => (piece_end(s, to as f64) as usize).max(from + 1),
            _ => to,
        }
    }

    /// Exact UTF-8 length (lone surrogates count 3 bytes, as in WTF-8).
    fn utf8_len(&self) -> usize {
        match self {
            Text::Str { s, .. } => utf8_length(s) as usize,
            other => other.len(),
        }
    }
}

/// JSON text for a core function whose options allow `max_bytes`. Text whose length alone
/// proves it over the limit (UTF-8 has at least one byte per UTF-16 unit) does not cross
/// whole: its first `max_bytes + 1` bytes do, the core reaches its verdict on them (reading
/// everything it reads before the text, in its order), and when that verdict is the text's
/// size its error is built again by the core with the text's real length.
fn with_text<T>(
    arg: &JsValue,
    max_bytes: usize,
    run: impl FnOnce(&[u8]) -> Result<T, ContractError>,
) -> Result<T, ContractError> {
    let text = Text::of(arg);
    if let Text::Other(v) = &text {
        return Err(api::not_text(&JsInput::root(v.clone(), Caps::FLOOR)));
    }
    if text.len() <= max_bytes {
        return run(&text.bytes(0, text.len()));
    }
    let mut start = text.bytes(0, text.piece_end(0, max_bytes + 2));
    start.truncate(max_bytes + 1);
    match run(&start) {
        Err(e) if e.code == crate::error::Code::InputTooLarge && e.position.is_some() => {
            Err(crate::json::text_too_large(&start, text.utf8_len(), max_bytes))
        }
        other => other,
    }
}

/// The `maxBytes` a text call's options give (the ceiling when the core will refuse them).
fn max_bytes(options: &CallOptions, set: OptionSet) -> usize {
    Options::read_for(Some(&options.input), set).map_or(MAX_BYTES_CEILING, |o| o.limits.max_bytes)
}

fn reply(result: Result<Value, ContractError>) -> String {
    to_text(&outcome_value(result))
}

#[cfg(feature = "testing")]
fn batch(result: Result<Vec<Result<crate::AgentAction, ContractError>>, ContractError>) -> String {
    crate::wire::batch_reply(result, crate::AgentAction::into_value)
}

// The full-reply twins of the verdict exports (js/verdict.rs): the core writes the whole result.
// The package calls only the verdict ones; the property tests compare both paths through the
// test build (feature `testing`), so a shipped build has none of these.
#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseAgentAction)]
pub fn parse_agent_action(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentAction"));
    reply(api::parse_agent_action(&o.value(value), Some(&o.input)).map(|a| a.into_value()))
}

#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseAgentActionJson)]
pub fn parse_agent_action_json(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentActionJson"));
    reply(with_text(&text, max_bytes(&o, options_of!("parseAgentActionJson")), |t| {
        api::parse_agent_action_json(t, Some(&o.input)).map(|a| a.into_value())
    }))
}

#[wasm_bindgen(js_name = previewAction)]
pub fn preview_action(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("previewAction"));
    reply(Ok(api::preview_action(&o.value(value), Some(&o.input))))
}

/// A definition as plain data, without the handle (`ToolHandle`) the package makes: tests/wasm.rs
/// reads definitions through it.
#[cfg(all(feature = "schema", feature = "testing"))]
#[wasm_bindgen(js_name = defineTool)]
pub fn define_tool(def: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("defineTool"));
    reply(api::define_tool(&o.value(def), Some(&o.input)).map(|t| t.into_value()))
}

#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseAgentActions)]
pub fn parse_agent_actions(list: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentActions"));
    batch(api::parse_agent_actions(&o.value(list), Some(&o.input)))
}

/// JSON Lines text crosses whole: `maxBytes` bounds each line, not the text.
#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseAgentActionsJsonl)]
pub fn parse_agent_actions_jsonl(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentActionsJsonl"));
    let text = Text::of(&text);
    batch(match &text {
        Text::Other(v) => Err(api::not_text(&JsInput::root(v.clone(), Caps::FLOOR))),
        _ => api::parse_agent_actions_jsonl(&text.bytes(0, text.len()), Some(&o.input)),
    })
}

/// A verdict-only reply (`wire::verdict_text`): on success api.mjs parses the text it holds.
#[wasm_bindgen(js_name = parseJson)]
pub fn parse_json(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseJson"));
    verdict_text(
        with_text(&text, max_bytes(&o, options_of!("parseJson")), |t| {
            api::check_json(t, Some(&o.input)).map(|()| Value::Null)
        })
        .map(drop),
    )
}

#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseDecision)]
pub fn parse_decision(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseDecision"));
    reply(api::parse_decision(&o.value(value), Some(&o.input)).map(|d| d.into_value()))
}

#[cfg(feature = "testing")]
#[wasm_bindgen(js_name = parseDecisionJson)]
pub fn parse_decision_json(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseDecisionJson"));
    reply(with_text(&text, max_bytes(&o, options_of!("parseDecisionJson")), |t| {
        api::parse_decision_json(t, Some(&o.input)).map(|d| d.into_value())
    }))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = validateToolInput)]
pub fn validate_tool_input(tool: JsValue, input: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("validateToolInput"));
    reply(api::validate_tool_input(&o.value(tool), &o.value(input), Some(&o.input)))
}

/// A verdict-only reply (`wire::verdict_text`): the valid input is the caller's text unchanged,
/// which api.mjs parses itself.
#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = validateToolInputJson)]
pub fn validate_tool_input_json(tool: JsValue, text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("validateToolInputJson"));
    let tool = o.value(tool);
    verdict_text(
        with_text(&text, max_bytes(&o, options_of!("validateToolInputJson")), |t| {
            api::check_tool_input_json(&tool, t, Some(&o.input)).map(|()| Value::Null)
        })
        .map(drop),
    )
}

/// Host randomness for the schema engine's hash keys; the package calls it once at load with
/// `crypto.getRandomValues` (see `entropy`).
#[wasm_bindgen]
pub fn seed(bytes: &[u8]) -> bool {
    api::seed(bytes)
}

/// Registries, policies and the projections take no options: the data the program gave back
/// is read with the ceilings' string cap.
fn program_data(value: JsValue) -> JsInput {
    JsInput::root(value, Caps::CEILING)
}

/// A caller's value an operation without options reads under the default limits.
#[cfg(feature = "schema")]
fn caller_value(value: JsValue) -> JsInput {
    JsInput::root(value, Caps::of(&Options::default(), OptionSet::Json))
}

#[cfg(feature = "schema")]
#[wasm_bindgen]
pub fn catalog(registry: JsValue) -> String {
    reply(api::catalog(&program_data(registry)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = definePolicy)]
pub fn define_policy(policy: JsValue) -> String {
    reply(api::define_policy(&program_data(policy)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = checkToolCall)]
pub fn check_tool_call(registry: JsValue, action: JsValue, policy: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkToolCall"));
    let (registry, policy) = (program_data(registry), program_data(policy));
    reply(api::check_tool_call(&registry, &o.value(action), &policy, Some(&o.input)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toOpenAITools)]
pub fn to_openai_tools(registry: JsValue) -> String {
    reply(api::project(&program_data(registry), api::Provider::OpenAi))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toOpenAIResponsesTools)]
pub fn to_openai_responses_tools(registry: JsValue) -> String {
    reply(api::project(&program_data(registry), api::Provider::OpenAiResponses))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toAnthropicTools)]
pub fn to_anthropic_tools(registry: JsValue) -> String {
    reply(api::project(&program_data(registry), api::Provider::Anthropic))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toMcpTools)]
pub fn to_mcp_tools(registry: JsValue) -> String {
    reply(api::project(&program_data(registry), api::Provider::Mcp))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = normalizeToolResult)]
pub fn normalize_tool_result(tool: JsValue, value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("normalizeToolResult"));
    reply(api::normalize_tool_result(&o.value(tool), &o.value(value), Some(&o.input)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = compareContracts)]
pub fn compare_contracts(old: JsValue, new: JsValue) -> String {
    reply(api::compare_contracts(&program_data(old), &program_data(new)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = diffCatalogs)]
pub fn diff_catalogs(old: JsValue, new: JsValue) -> String {
    reply(api::diff_catalogs(&program_data(old), &program_data(new)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = mcpToolDefinitions)]
pub fn mcp_tool_definitions(answer: JsValue) -> String {
    reply(api::mcp_tool_definitions(&caller_value(answer)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = checkMcpToolResult)]
pub fn check_mcp_tool_result(tool: JsValue, result: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkMcpToolResult"));
    reply(api::check_mcp_tool_result(&o.value(tool), &o.value(result), Some(&o.input)))
}

/// The MCP module's words for a validator (`HOST_SUPPORT`).
#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = mcpValidatorWording)]
pub fn mcp_validator_wording(options: JsValue) -> String {
    reply(api::mcp_validator_wording(&caller_value(options)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = mcpFailureLine)]
pub fn mcp_failure_line(error: JsValue) -> String {
    reply(api::mcp_failure_line(&program_data(error)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = strictSchemaIssues)]
pub fn strict_schema_issues(schema: JsValue) -> String {
    reply(api::strict_schema_issues(&program_data(schema)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = jsonSchemaForTarget)]
pub fn json_schema_for_target(schema: JsValue, target: JsValue) -> String {
    reply(api::json_schema_for_target(&program_data(schema), &program_data(target)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = standardJsonSchema)]
pub fn standard_json_schema(schema: JsValue, target: JsValue) -> String {
    reply(api::standard_json_schema(&program_data(schema), &program_data(target)))
}

/// The stream assembler (`createAssembler` in the package): its state lives in this wasm
/// instance, one Rust value per JS object. wasm-bindgen gives it `free()`; the package also
/// frees it when the JS object is garbage-collected (see `pkg/api.mjs`). Every method returns a
/// reply string like the functions above.
#[wasm_bindgen]
pub struct StreamAssembler {
    inner: Result<crate::stream::Assembler, ContractError>,
    cap: Caps,
}

#[wasm_bindgen]
impl StreamAssembler {
    /// Invalid options do not throw here: every method then returns the options error.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> StreamAssembler {
        let o = CallOptions::read(&options, options_of!("createAssembler"));
        StreamAssembler { inner: crate::stream::Assembler::from_options(Some(&o.input)), cap: o.cap }
    }

    pub fn push(&mut self, event: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(a) => a.push_value(&JsInput::root(event, self.cap)).map(|()| Value::Null),
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
    cap: Caps,
    held: HeldLead,
}

#[wasm_bindgen]
impl ProviderAssembler {
    /// An unknown provider or invalid options do not throw here: every method returns the error.
    #[wasm_bindgen(constructor)]
    pub fn new(provider: JsValue, options: JsValue) -> ProviderAssembler {
        let o = CallOptions::read(&options, options_of!("createProviderAssembler"));
        ProviderAssembler {
            inner: crate::stream::provider_stream::ProviderStream::from_host(&o.value(provider), Some(&o.input)),
            cap: o.cap,
            held: HeldLead::default(),
        }
    }

    pub fn push(&mut self, event: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(a) => a.push_host(&JsInput::root(event, self.cap)).map(|()| Value::Null),
            Err(e) => Err(e.clone()),
        })
    }

    /// Raw SSE: a string chunk ending in the lead half of a surrogate pair keeps that half for
    /// the next chunk (`HeldLead`), so the pair reaches the SSE decoder whole.
    #[wasm_bindgen(js_name = pushSse)]
    pub fn push_sse(&mut self, chunk: JsValue) -> String {
        let cap = self.cap;
        let held = &mut self.held;
        reply(match &mut self.inner {
            Ok(a) => {
                if let Text::Other(v) = Text::of(&chunk) {
                    a.push_sse_host(&JsInput::root(v, cap)).map(|()| Value::Null)
                } else if let Err(e) = a.push_sse(&[]) {
                    // A failed stream answers its error to every chunk, even one with no text.
                    Err(e)
                } else {
                    let mut result = Ok(());
                    let sink = |bytes: &[u8]| {
                        if result.is_ok() {
                            result = a.push_sse(bytes);
                        }
                    };
                    push_text(&chunk, "", held, sink).and(result).map(|()| Value::Null)
                }
            }
            Err(e) => Err(e.clone()),
        })
    }

    pub fn preview(&self) -> String {
        reply(self.inner.as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    /// A lead half still held goes in alone first (the SSE decoder replaces it).
    pub fn finish(&mut self) -> String {
        let held = &mut self.held;
        reply(self.inner.as_mut().map_err(|e| e.clone()).and_then(|a| {
            let mut result = Ok(());
            held.flush(&mut |bytes: &[u8]| result = a.push_sse(bytes));
            result.and_then(|()| a.finish())
        }))
    }
}

/// Most UTF-16 units (or bytes) of SSE text that cross into wasm at once: the SSE parser takes
/// text in any chunking, so a large chunk crosses in pieces and wasm memory does not grow with
/// the chunk.
const SSE_PIECE: usize = 1 << 20;

/// SSE text from the caller, a string (lone surrogates as WTF-8, which the SSE decoder then
/// replaces, as Python's binding sends them) or a `Uint8Array`, pushed piece by piece; anything
/// else ends the stream with the core's verdict.
fn push_sse_text(
    stream: &mut crate::stream::provider_stream::ProviderStream,
    chunk: &JsValue,
    cap: Caps,
) -> Result<(), ContractError> {
    let text = Text::of(chunk);
    if let Text::Other(v) = &text {
        return stream.push_sse_host(&JsInput::root(v.clone(), cap));
    }
    let mut from = 0;
    loop {
        let to = text.piece_end(from, SSE_PIECE);
        stream.push_sse(&text.bytes(from, to))?;
        if to >= text.len() {
            return Ok(());
        }
        from = to;
    }
}

/// A whole provider stream: SSE text (a string or `Uint8Array`) or a list of events.
#[wasm_bindgen(js_name = assembleProviderStream)]
pub fn assemble_provider_stream(provider: JsValue, input: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("assembleProviderStream"));
    let provider = o.value(provider);
    reply(match Text::of(&input) {
        Text::Other(_) => crate::stream::provider_stream::assemble(&provider, &o.value(input), None, Some(&o.input)),
        // Text: the core's `assemble` for SSE bytes (`push_sse` then `finish`), fed in pieces.
        _ => crate::stream::provider_stream::ProviderStream::from_host(&provider, Some(&o.input)).and_then(|mut s| {
            push_sse_text(&mut s, &input, o.cap)?;
            s.finish()
        }),
    })
}

/// Bytes of this instance's linear memory: api.mjs renews an instance past its memory bound and
/// reports it (`memoryReport`).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return (core::arch::wasm32::memory_size(0) * 65536) as f64;
    #[cfg(not(target_arch = "wasm32"))]
    0.0
}

/// After a call: this instance's memory in bytes, negated when the memory policy
/// (`api::describe::MEMORY`) says to replace the instance before the next call. One crossing,
/// as `memoryBytes` was, so the check costs a call nothing more.
#[wasm_bindgen(js_name = memoryAfterCall)]
pub fn memory_after_call() -> f64 {
    let bytes = memory_bytes();
    if api::describe::MEMORY.renew_due(bytes as usize) {
        -bytes
    } else {
        bytes
    }
}

/// Before a batch of `items` items (a host's count of the list's length or the text's
/// characters, which may be infinite when it could not read one): whether to start it in a
/// fresh instance (`MemoryPolicy::needs_room`).
#[wasm_bindgen(js_name = needsRoom)]
pub fn needs_room(items: f64) -> bool {
    let items = if items.is_finite() && items >= 0.0 { items as usize } else { usize::MAX };
    api::describe::MEMORY.needs_room(memory_bytes() as usize, items)
}

// Messages and sessions (seed 004). Session texts cross whole: `maxBytes` bounds each line.

/// A session text's bytes (a string or bytes), or the not-text error.
fn session_text(text: &JsValue) -> Result<Vec<u8>, ContractError> {
    let text = Text::of(text);
    match &text {
        Text::Other(v) => Err(api::not_text(&JsInput::root(v.clone(), Caps::FLOOR))),
        _ => Ok(text.bytes(0, text.len())),
    }
}

#[wasm_bindgen(js_name = parseAgentMessage)]
pub fn parse_agent_message(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentMessage"));
    reply(api::parse_agent_message(&o.value(value), Some(&o.input)))
}

#[wasm_bindgen(js_name = parseAgentMessageJson)]
pub fn parse_agent_message_json(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentMessageJson"));
    reply(with_text(&text, max_bytes(&o, options_of!("parseAgentMessageJson")), |t| {
        api::parse_agent_message_json(t, Some(&o.input))
    }))
}

#[wasm_bindgen(js_name = parseToolResult)]
pub fn parse_tool_result(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseToolResult"));
    reply(api::parse_tool_result(&o.value(value), Some(&o.input)))
}

#[wasm_bindgen(js_name = parseSessionEntry)]
pub fn parse_session_entry(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseSessionEntry"));
    reply(api::parse_session_entry(&o.value(value), Some(&o.input)))
}

#[wasm_bindgen(js_name = checkSession)]
pub fn check_session(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkSession"));
    reply(session_text(&text).and_then(|t| api::check_session(&t, Some(&o.input))))
}

#[wasm_bindgen(js_name = readSession)]
pub fn read_session(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("readSession"));
    reply(session_text(&text).and_then(|t| api::read_session(&t, Some(&o.input))))
}

#[wasm_bindgen(js_name = querySession)]
pub fn query_session(text: JsValue, query: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("querySession"));
    let query = program_data(query);
    reply(session_text(&text).and_then(|t| api::query_session(&t, &query, Some(&o.input))))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = fromSeedTool)]
pub fn from_seed_tool(def: JsValue, extra: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("fromSeedTool"));
    reply(api::from_seed_tool(&o.value(def), &program_data(extra), Some(&o.input)))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toSeedTool)]
pub fn to_seed_tool(tool: JsValue) -> String {
    reply(api::to_seed_tool(&program_data(tool)))
}

/// The incremental session reader (`createSessionChecker` in the package): chunks of a session
/// text in (strings or `Uint8Array`, crossing in pieces), the problems of completed lines out,
/// the report at `finish()`. Invalid options do not throw here: every method returns that error.
#[wasm_bindgen]
pub struct SessionChecker {
    inner: Result<crate::session::check::SessionReader, ContractError>,
    held: HeldLead,
}

#[wasm_bindgen]
impl SessionChecker {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> SessionChecker {
        let o = CallOptions::read(&options, options_of!("createSessionChecker"));
        SessionChecker { inner: api::create_session_reader(Some(&o.input)), held: HeldLead::default() }
    }

    /// The problems of the lines this chunk completed; a string chunk ending in the lead half of
    /// a surrogate pair keeps it for the next chunk (`HeldLead`).
    pub fn push(&mut self, chunk: JsValue) -> String {
        let held = &mut self.held;
        reply(match &mut self.inner {
            Ok(reader) => {
                let mut found = Vec::new();
                push_text(&chunk, "", held, |bytes| {
                    if let Value::Array(items) = reader.push(bytes) {
                        found.extend(items);
                    }
                })
                .map(|()| Value::Array(found))
            }
            Err(e) => Err(e.clone()),
        })
    }

    /// The report; a lead half still held goes in alone first.
    pub fn finish(&mut self) -> String {
        let held = &mut self.held;
        reply(match &mut self.inner {
            Ok(reader) => {
                held.flush(&mut |bytes: &[u8]| {
                    reader.push(bytes);
                });
                Ok(reader.finish())
            }
            Err(e) => Err(e.clone()),
        })
    }
}

// ACP prompt admission and lifecycle:

/// An admission's reply and its decoded payloads (`admitPrompt` in the package): the reply
/// (`wire::admission_reply`) lists the pointer of each payload's plan entry; `payload(i)` hands
/// the i-th payload out once, as a `Uint8Array`.
#[wasm_bindgen]
pub struct Admission {
    reply: String,
    payloads: Vec<Vec<u8>>,
}

#[wasm_bindgen]
impl Admission {
    pub fn reply(&self) -> String {
        self.reply.clone()
    }

    pub fn payload(&mut self, i: usize) -> Vec<u8> {
        self.payloads.get_mut(i).map(std::mem::take).unwrap_or_default()
    }
}

/// `admitPrompt(request, capabilities, options)`: strings of the request cross up to the
/// longest any of the call's limits admits (`AdmissionOptions::string_cap`).
#[wasm_bindgen(js_name = admitPrompt)]
pub fn admit_prompt(request: JsValue, capabilities: JsValue, options: JsValue) -> Admission {
    let options = JsInput::root(snapshot_options(&options), Caps::FLOOR);
    let cap = crate::acp::admission::AdmissionOptions::read(Some(&options))
        .map_or(MAX_BYTES_CEILING, |o| o.string_cap()) as f64;
    let caps = Caps { string: cap, key: CAP_FLOOR as f64 };
    let result = api::admit_prompt(&JsInput::root(request, caps), &program_data(capabilities), Some(&options));
    let (reply, payloads) = crate::wire::admission_reply(result, false);
    Admission { reply, payloads }
}

/// `isCanonicalBase64(text)`: a well-formed string's UTF-8; anything else is not base64 text.
#[wasm_bindgen(js_name = isCanonicalBase64)]
pub fn is_canonical_base64(text: JsValue) -> bool {
    match Text::of(&text) {
        t @ Text::Str { well_formed: true, .. } => api::is_canonical_base64(&t.bytes(0, t.len())),
        _ => false,
    }
}

/// Bytes `sniffMediaType` looks at: every signature is shorter.
const SNIFF_BYTES: usize = 64;

/// `sniffMediaType(bytes)`: a `Uint8Array`'s first bytes (no signature is longer).
#[wasm_bindgen(js_name = sniffMediaType)]
pub fn sniff_media_type(bytes: JsValue) -> String {
    reply(match Text::of(&bytes) {
        t @ Text::Bytes(_) => Ok(api::sniff_media_type(&t.bytes(0, t.len().min(SNIFF_BYTES)))),
        _ => Err(api::not_bytes(&JsInput::root(bytes, Caps::FLOOR))),
    })
}

#[wasm_bindgen(js_name = advertisePromptCapabilities)]
pub fn advertise_prompt_capabilities(facts: JsValue) -> String {
    reply(api::advertise_prompt_capabilities(&program_data(facts)))
}

/// One session's prompt lifecycle (`createPromptLifecycle` in the package): its state lives in
/// this wasm instance; every call replies like the functions above.
#[wasm_bindgen]
pub struct PromptLifecycle {
    inner: crate::acp::lifecycle::PromptLifecycle,
}

impl Default for PromptLifecycle {
    fn default() -> Self {
        PromptLifecycle::new()
    }
}

#[wasm_bindgen]
impl PromptLifecycle {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PromptLifecycle {
        PromptLifecycle { inner: api::create_prompt_lifecycle() }
    }

    /// `name` is the JS method (`admitted`, ..., `settle`); `arg` is `settle`'s reason.
    pub fn call(&mut self, name: &str, arg: JsValue) -> String {
        reply(api::lifecycle_call(&mut self.inner, name, Some(&JsInput::root(arg, Caps::FLOOR))))
    }
}

// JSON-RPC 2.0 over NDJSON: messages, reply builders, the NDJSON decoder,
// stdout purity and sessions. Options are the core's (`rpc::options`); values cross with the
// ceilings' string cap (a message's strings may fill the whole message).

fn rpc_options(options: &JsValue) -> JsInput {
    JsInput::root(snapshot_options(options), Caps::FLOOR)
}

fn rpc_value(value: JsValue) -> JsInput {
    JsInput::root(value, Caps::CEILING)
}

#[wasm_bindgen(js_name = classifyJsonRpc)]
pub fn classify_json_rpc(value: JsValue, options: JsValue) -> String {
    let o = rpc_options(&options);
    reply(api::classify_json_rpc(&rpc_value(value), Some(&o)).map(crate::wire::batch_reply_linked))
}

/// Text over `maxBytes` does not cross whole: its first `maxBytes + 1` bytes locate the size
/// verdict, built with the text's real length (as `with_text` does).
#[wasm_bindgen(js_name = classifyJsonRpcJson)]
pub fn classify_json_rpc_json(text: JsValue, options: JsValue) -> String {
    let o = rpc_options(&options);
    reply(
        (|| {
            // What is not text is refused before the options are read, as by every text call.
            let text = Text::of(&text);
            if let Text::Other(v) = &text {
                return Err(api::not_text(&JsInput::root(v.clone(), Caps::FLOOR)));
            }
            let options = api::rpc_options(Some(&o), crate::rpc::options::RpcOptionSet::Classify)?;
            let max = options.max_bytes;
            if text.len() > max {
                let len = text.utf8_len();
                let mut start = text.bytes(0, text.piece_end(0, max + 2));
                start.truncate(max + 1);
                let e = crate::json::text_too_large(&start, len, max);
                return Ok(crate::rpc::Classification::from_parse_error(&e).into_value());
            }
            Ok(crate::rpc::classify_json(&text.bytes(0, text.len()), &options).into_value())
        })()
        .map(crate::wire::batch_reply_linked),
    )
}

#[wasm_bindgen(js_name = methodNotFound)]
pub fn method_not_found(request: JsValue) -> String {
    reply(api::method_not_found(&rpc_value(request)))
}

#[wasm_bindgen(js_name = internalError)]
pub fn internal_error(request: JsValue, error: JsValue) -> String {
    reply(api::internal_error(&rpc_value(request), &rpc_value(error)))
}

#[wasm_bindgen(js_name = invalidParams)]
pub fn invalid_params(request: JsValue, contract_error: JsValue) -> String {
    reply(api::invalid_params(&rpc_value(request), &rpc_value(contract_error)))
}

/// A lone lead surrogate (WTF-8 `ED A0..AF xx`) ending a string chunk, held back so that the
/// pair it starts with the next string chunk's trail reaches the core as one character (as the
/// core joins a character cut at a bytes-chunk end). Bytes chunks and the stream's end send it
/// alone (it is then not UTF-8, and its line a parse error).
#[derive(Default)]
struct HeldLead(Option<[u8; 3]>);

impl HeldLead {
    fn flush(&mut self, sink: &mut impl FnMut(&[u8])) {
        if let Some(lead) = self.0.take() {
            sink(&lead);
        }
    }

    fn cp(b: &[u8]) -> u32 {
        (u32::from(b[0] & 0x0F) << 12) | (u32::from(b[1] & 0x3F) << 6) | u32::from(b[2] & 0x3F)
    }

    fn string_piece(&mut self, mut bytes: &[u8], last: bool, sink: &mut impl FnMut(&[u8])) {
        if let Some(lead) = self.0.take() {
            if bytes.len() >= 3 && bytes[0] == 0xED && (0xB0..=0xBF).contains(&bytes[1]) {
                let c = 0x10000 + ((HeldLead::cp(&lead) - 0xD800) << 10) + (HeldLead::cp(&bytes[..3]) - 0xDC00);
                let mut buf = [0u8; 4];
                sink(char::from_u32(c).unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes());
                bytes = &bytes[3..];
            } else {
                sink(&lead);
            }
        }
        let n = bytes.len();
        if last && n >= 3 && bytes[n - 3] == 0xED && (0xA0..=0xAF).contains(&bytes[n - 2]) {
            self.0 = Some([bytes[n - 3], bytes[n - 2], bytes[n - 1]]);
            bytes = &bytes[..n - 3];
        }
        if !bytes.is_empty() {
            sink(bytes);
        }
    }
}

/// Text (a string or a `Uint8Array`) pushed into `sink` piece by piece, so wasm memory does not
/// grow with the chunk; anything else is the core's "not text" verdict at `path`.
fn push_text(
    chunk: &JsValue,
    path: &str,
    held: &mut HeldLead,
    mut sink: impl FnMut(&[u8]),
) -> Result<(), ContractError> {
    let text = Text::of(chunk);
    if let Text::Other(v) = &text {
        let mut e = api::not_text(&JsInput::root(v.clone(), Caps::FLOOR));
        e.path = path.to_owned();
        return Err(e);
    }
    let is_string = matches!(text, Text::Str { .. });
    // Bytes cannot complete a held lead surrogate, so it goes on alone; an empty chunk brings
    // nothing, and the pair may still come whole with the next string.
    if !is_string && text.len() > 0 {
        held.flush(&mut sink);
    }
    let mut from = 0;
    while from < text.len() {
        let to = text.piece_end(from, SSE_PIECE);
        let bytes = text.bytes(from, to);
        if is_string {
            held.string_piece(&bytes, to >= text.len(), &mut sink);
        } else {
            sink(&bytes);
        }
        from = to;
    }
    Ok(())
}

/// The NDJSON decoder (`createNdjsonDecoder` in the package): its state lives in this wasm
/// instance. Invalid options do not throw here: every method then returns the options error.
#[wasm_bindgen]
pub struct NdjsonDecoder {
    inner: Result<crate::rpc::Decoder, ContractError>,
    held: HeldLead,
}

#[wasm_bindgen]
impl NdjsonDecoder {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> NdjsonDecoder {
        NdjsonDecoder {
            inner: api::create_ndjson_decoder(Some(&rpc_options(&options))).map(crate::rpc::Decoder::lazy),
            held: HeldLead::default(),
        }
    }

    /// The frames this chunk completed, written frame by frame (`wire::FrameWriter`: a chunk
    /// of a million short lines is a million frames, repeats written as rows).
    pub fn push(&mut self, chunk: JsValue) -> String {
        let d = match &mut self.inner {
            Ok(d) => d,
            Err(e) => return reply(Err(e.clone())),
        };
        let mut batch = crate::wire::FrameWriter::new();
        let result = push_text(&chunk, "", &mut self.held, |bytes| d.push_lines(bytes, &mut |line| batch.line(line)));
        batch.finish(result)
    }

    /// The final line's frame, if the stream did not end with LF.
    pub fn end(&mut self) -> String {
        let d = match &mut self.inner {
            Ok(d) => d,
            Err(e) => return reply(Err(e.clone())),
        };
        let mut batch = crate::wire::FrameWriter::new();
        let mut write = |line: crate::rpc::ndjson::Line| batch.line(line);
        self.held.flush(&mut |bytes: &[u8]| d.push_lines(bytes, &mut write));
        d.end_line().into_iter().for_each(&mut write);
        batch.finish(Ok(()))
    }

    /// Bytes of the current line held (never over `maxLineBytes`).
    pub fn buffered(&self) -> f64 {
        self.inner.as_ref().map_or(0.0, |d| d.buffered() as f64)
    }
}

/// `checkStdoutPurity(text | chunks, options)`: a string or `Uint8Array`, or an array of them.
#[wasm_bindgen(js_name = checkStdoutPurity)]
pub fn check_stdout_purity(input: JsValue, options: JsValue) -> String {
    let o = rpc_options(&options);
    reply(api::create_purity_check(Some(&o)).and_then(|mut p| {
        let mut held = HeldLead::default();
        // A list is read like any caller's value (a throwing getter is a verdict, not a throw);
        // its strings cross whole.
        let list = JsInput::root(input.clone(), Caps { string: f64::MAX, key: CAP_FLOOR as f64 });
        if list.kind() == Kind::Array {
            for i in 0..list.len().map_err(|f| f.at(""))? {
                let path = format!("/{i}");
                let chunk = list.index(i).map_err(|f| f.at(&path))?;
                push_text(&chunk.value, &path, &mut held, |bytes| p.push(bytes))?;
            }
        } else {
            push_text(&input, "", &mut held, |bytes| p.push(bytes))?;
        }
        held.flush(&mut |bytes: &[u8]| p.push(bytes));
        Ok(p.finish())
    }))
}

/// One connection followed both ways (`createRpcSession` in the package).
#[wasm_bindgen]
pub struct RpcSession {
    inner: Result<crate::rpc::Session, ContractError>,
}

#[wasm_bindgen]
impl RpcSession {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> RpcSession {
        RpcSession { inner: api::create_rpc_session(Some(&rpc_options(&options))) }
    }

    pub fn incoming(&mut self, message: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(s) => api::rpc_session_observe(s, &rpc_value(message), true).map(crate::wire::batch_reply_linked),
            Err(e) => Err(e.clone()),
        })
    }

    pub fn outgoing(&mut self, message: JsValue) -> String {
        reply(match &mut self.inner {
            Ok(s) => api::rpc_session_observe(s, &rpc_value(message), false).map(crate::wire::batch_reply_linked),
            Err(e) => Err(e.clone()),
        })
    }

    /// The options error, or null: the package throws it at creation.
    pub fn check(&self) -> String {
        reply(self.inner.as_ref().map(|_| Value::Null).map_err(|e| e.clone()))
    }
}

#[wasm_bindgen]
impl NdjsonDecoder {
    /// The options error, or null: the package throws it at creation.
    pub fn check(&self) -> String {
        reply(self.inner.as_ref().map(|_| Value::Null).map_err(|e| e.clone()))
    }
}

// Gemini projection
#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = toGeminiTools)]
pub fn to_gemini_tools(registry: JsValue) -> String {
    reply(api::project(&program_data(registry), api::Provider::Gemini))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = geminiSchemaIssues)]
pub fn gemini_schema_issues(schema: JsValue) -> String {
    reply(api::gemini_schema_issues(&program_data(schema)))
}

// Agent events and the session response

#[wasm_bindgen(js_name = parseAgentEvent)]
pub fn parse_agent_event(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("parseAgentEvent"));
    reply(api::parse_agent_event(&o.value(value), Some(&o.input)))
}

#[wasm_bindgen(js_name = checkEventSequence)]
pub fn check_event_sequence(events: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkEventSequence"));
    reply(api::check_event_sequence(&o.value(events), Some(&o.input)))
}

#[wasm_bindgen(js_name = checkSessionResponse)]
pub fn check_session_response(value: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkSessionResponse"));
    reply(api::check_session_response(&o.value(value), Some(&o.input)))
}

// The protocol as JSON Schema

#[wasm_bindgen(js_name = protocolSchemas)]
pub fn protocol_schemas() -> String {
    reply(Ok(api::protocol_schemas()))
}

/// The limits, the memory policy and the operation table, for the package's own use.
#[wasm_bindgen]
pub fn describe() -> String {
    reply(Ok(api::describe::describe()))
}

// Dataset rows. A row given as a string or bytes is its JSON text, crossing whole (a row is
// one line of a dataset); any other value is read in place.

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = checkChatRow)]
pub fn check_chat_row(row: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkChatRow"));
    let text = Text::of(&row);
    reply(match &text {
        Text::Other(v) => api::check_chat_row(&o.value(v.clone()), Some(&o.input)),
        _ => api::check_chat_row_json(&text.bytes(0, text.len()), Some(&o.input)),
    })
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = checkChatRows)]
pub fn check_chat_rows(rows: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkChatRows"));
    api::check_chat_rows_reply(&o.value(rows), Some(&o.input))
}

#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = checkChatRowsJsonl)]
pub fn check_chat_rows_jsonl(text: JsValue, options: JsValue) -> String {
    let o = CallOptions::read(&options, options_of!("checkChatRowsJsonl"));
    match session_text(&text) {
        Ok(t) => api::check_chat_rows_jsonl_reply(&t, Some(&o.input)),
        Err(e) => reply(Err(e)),
    }
}
