//! The WebAssembly component binding (Python through wasmtime, or any component host): one
//! export per operation of the table, strings in, one JSON string out. See
//! `wit/agent-contract.wit` for the text formats.
//!
//! wit-bindgen asks for one method per export; each is one line naming the core's function,
//! the arguments read by the adapters below, one per argument kind (host text of a value, the
//! caller's text, options) and per reply kind (a value, a verdict, a batch).

use std::borrow::Cow;

use crate::api;
use crate::error::ContractError;
use crate::input::limits::Limits;
use crate::json::{self, Mode};
use crate::value::Value;
use crate::wire::{outcome_value, to_text, BatchWriter};

// The shipped world, or the test build's (the shipped one plus interface `testing`).
#[cfg(not(feature = "testing"))]
wit_bindgen::generate!({ world: "agent-contract", path: "wit" });
#[cfg(feature = "testing")]
wit_bindgen::generate!({ world: "agent-contract-testing", path: "wit" });

struct Core;

/// Options as the core reads them: `None` for the defaults.
type Opts<'a> = Option<&'a &'a Value>;

/// Host text for a value; host text is never size-limited here (see `json::Mode::Host`).
fn host_value(text: &str) -> Result<Value, ContractError> {
    json::parse(text.as_bytes(), Mode::Host, &Limits::default())
}

/// Host text of provider events (one, or a list): parsed with the ceilings, because each event
/// is then judged by the stream's own budget, as a JS value read in place is.
fn host_events(text: &str) -> Result<Value, ContractError> {
    json::parse(text.as_bytes(), Mode::Host, &Limits::ceilings())
}

fn host_options(text: &str) -> Result<Option<Value>, ContractError> {
    if text.is_empty() {
        return Ok(None);
    }
    host_value(text).map(Some)
}

/// Several arguments of host text, read in order (the first unreadable one is the error).
fn host_values<const N: usize>(texts: [&str; N]) -> Result<[Value; N], ContractError> {
    let mut values = texts.map(|_| Value::Null);
    for (value, text) in values.iter_mut().zip(texts) {
        *value = host_value(text)?;
    }
    Ok(values)
}

/// The bytes `carried` text holds, one per code point U+0000..=U+00FF (Latin-1): a host doing
/// the canonical ABI in Python lowers a `list<u8>` one element at a time, a string in one copy,
/// so text that is not valid Unicode crosses in linear time. A code point above U+00FF is no
/// carried byte (the Python binding never sends one); it becomes 0xFF, which is never valid
/// UTF-8, so the core rejects the text rather than reading something else.
fn carried_bytes(carried: &str) -> Vec<u8> {
    if carried.is_ascii() {
        return carried.as_bytes().to_vec();
    }
    carried.chars().map(|c| u8::try_from(c).unwrap_or(0xFF)).collect()
}

/// A `text` argument (each interface has its own copy of the variant) as the caller's bytes.
trait CallerText {
    fn bytes(&self) -> Cow<'_, [u8]>;
}

macro_rules! caller_text {
    ($($t:path),*) => {$(
        impl CallerText for $t {
            fn bytes(&self) -> Cow<'_, [u8]> {
                match self {
                    Self::Str(s) => Cow::Borrowed(s.as_bytes()),
                    Self::Carried(c) => Cow::Owned(carried_bytes(c)),
                }
            }
        }
    )*};
}

caller_text!(Text, wit_assembly::Text, wit_rpc::Text, wit_tools::Text);
#[cfg(feature = "testing")]
caller_text!(exports::agent_contract::core::testing::Text);

fn reply(result: Result<Value, ContractError>) -> String {
    to_text(&outcome_value(result))
}

/// A value operation: the value and the options read from host text, then the core.
fn on_value(value: &str, options: &str, run: impl FnOnce(&&Value, Opts) -> Result<Value, ContractError>) -> String {
    reply((|| {
        let (v, o) = (host_value(value)?, host_options(options)?);
        run(&&v, o.as_ref().as_ref())
    })())
}

/// A text operation: the options read from host text, then the core on the caller's bytes.
fn on_text(
    text: &impl CallerText,
    options: &str,
    run: impl FnOnce(&[u8], Opts) -> Result<Value, ContractError>,
) -> String {
    reply(host_options(options).and_then(|o| run(&text.bytes(), o.as_ref().as_ref())))
}

/// The same for a verdict reply: on success the verdict (an index into `verdict-shapes`, or 0
/// when the value would be the caller's own text), the binding building the result from its own
/// parse of the text; else the error's reply. A success writes no reply text, so a host that
/// runs the post-return itself has nothing to free.
fn on_text_verdict(
    text: &impl CallerText,
    options: &str,
    run: impl FnOnce(&[u8], Opts) -> Result<u32, ContractError>,
) -> Result<u32, String> {
    host_options(options).and_then(|o| run(&text.bytes(), o.as_ref().as_ref())).map_err(|e| reply(Err(e)))
}

/// Operations of configuration alone (no options): each argument host text, then the core.
fn on_config<const N: usize>(texts: [&str; N], run: impl FnOnce([Value; N]) -> Result<Value, ContractError>) -> String {
    reply(host_values(texts).and_then(run))
}

fn batch(result: Result<Vec<Result<crate::AgentAction, ContractError>>, ContractError>) -> String {
    crate::wire::batch_reply(result, crate::AgentAction::into_value)
}

impl Guest for Core {
    // What a model produces.
    fn parse_agent_action(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_agent_action(v, o).map(|a| a.into_value()))
    }

    fn parse_agent_action_json(text: Text, options: String) -> Result<u32, String> {
        on_text_verdict(&text, &options, |t, o| api::parse_agent_action_json_verdict(t, o))
    }

    fn parse_agent_actions(values: String, options: String) -> String {
        batch((|| {
            let (v, o) = (host_value(&values)?, host_options(&options)?);
            api::parse_agent_actions(&&v, o.as_ref().as_ref())
        })())
    }

    fn parse_agent_actions_jsonl(text: Text, options: String) -> String {
        let mut batch = BatchWriter::new();
        let result = host_options(&options)
            .and_then(|o| api::each_jsonl_verdict(&text.bytes(), o.as_ref().as_ref(), &mut |item| batch.verdict(item)));
        batch.finish(result)
    }

    fn preview_action(value: String, options: String) -> String {
        // A preview never fails: an unreadable value or options become the `{ok: false}` summary.
        reply(Ok(match (host_value(&value), host_options(&options)) {
            (Ok(v), Ok(o)) => api::preview_action(&&v, o.as_ref().as_ref()),
            (Err(e), _) | (_, Err(e)) => crate::protocol::preview::preview_action_error(&e),
        }))
    }

    fn parse_json(text: Text, options: String) -> Result<u32, String> {
        on_text_verdict(&text, &options, |t, o| api::check_json(t, o).map(|()| 0))
    }

    fn parse_decision(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_decision(v, o).map(|d| d.into_value()))
    }

    fn parse_decision_json(text: Text, options: String) -> Result<u32, String> {
        on_text_verdict(&text, &options, |t, o| api::parse_decision_json_verdict(t, o))
    }

    fn verdict_shapes() -> String {
        to_text(&api::verdict_shapes())
    }

    // Tool contracts.
    fn validate_tool_input(tool: String, input: String, options: String) -> String {
        reply((|| {
            let ([t, i], o) = (host_values([&tool, &input])?, host_options(&options)?);
            api::validate_tool_input(&&t, &&i, o.as_ref().as_ref())
        })())
    }

    fn validate_tool_input_json(tool: String, text: Text, options: String) -> Result<u32, String> {
        match host_value(&tool) {
            Ok(t) => on_text_verdict(&text, &options, |b, o| api::check_tool_input_json(&&t, b, o).map(|()| 0)),
            Err(e) => Err(reply(Err(e))),
        }
    }

    fn catalog(registry: String) -> String {
        on_config([&registry], |[r]| api::catalog(&&r))
    }

    fn define_policy(policy: String) -> String {
        on_config([&policy], |[p]| api::define_policy(&&p))
    }

    fn check_tool_call(registry: String, action: String, policy: String, options: String) -> String {
        reply((|| {
            let ([r, a, p], o) = (host_values([&registry, &action, &policy])?, host_options(&options)?);
            api::check_tool_call(&&r, &&a, &&p, o.as_ref().as_ref())
        })())
    }

    fn to_openai_tools(registry: String) -> String {
        on_config([&registry], |[r]| api::project(&&r, api::Provider::OpenAi))
    }

    fn to_openai_responses_tools(registry: String) -> String {
        on_config([&registry], |[r]| api::project(&&r, api::Provider::OpenAiResponses))
    }

    fn to_anthropic_tools(registry: String) -> String {
        on_config([&registry], |[r]| api::project(&&r, api::Provider::Anthropic))
    }

    fn to_mcp_tools(registry: String) -> String {
        on_config([&registry], |[r]| api::project(&&r, api::Provider::Mcp))
    }

    fn to_gemini_tools(registry: String) -> String {
        on_config([&registry], |[r]| api::project(&&r, api::Provider::Gemini))
    }

    fn normalize_tool_result(tool: String, value: String, options: String) -> String {
        reply((|| {
            let ([t, v], o) = (host_values([&tool, &value])?, host_options(&options)?);
            api::normalize_tool_result(&&t, &&v, o.as_ref().as_ref())
        })())
    }

    fn mcp_tool_definitions(answer: String) -> String {
        on_config([&answer], |[a]| api::mcp_tool_definitions(&&a))
    }

    fn check_mcp_tool_result(tool: String, result: String, options: String) -> String {
        reply((|| {
            let ([t, r], o) = (host_values([&tool, &result])?, host_options(&options)?);
            api::check_mcp_tool_result(&&t, &&r, o.as_ref().as_ref())
        })())
    }

    fn strict_schema_issues(schema: String) -> String {
        on_config([&schema], |[s]| api::strict_schema_issues(&&s))
    }

    fn gemini_schema_issues(schema: String) -> String {
        on_config([&schema], |[s]| api::gemini_schema_issues(&&s))
    }

    fn json_schema_for_target(schema: String, target: String) -> String {
        on_config([&schema, &target], |[s, t]| api::json_schema_for_target(&&s, &&t))
    }

    fn standard_json_schema(schema: String, target: String) -> String {
        on_config([&schema, &target], |[s, t]| api::standard_json_schema(&&s, &&t))
    }

    fn compare_contracts(old: String, new: String) -> String {
        on_config([&old, &new], |[a, b]| api::compare_contracts(&&a, &&b))
    }

    fn diff_catalogs(old: String, new: String) -> String {
        on_config([&old, &new], |[a, b]| api::diff_catalogs(&&a, &&b))
    }

    // Provider streams.
    fn assemble_provider_stream(provider: String, input: String, options: String) -> String {
        reply((|| {
            let (p, i, o) = (host_value(&provider)?, host_events(&input)?, host_options(&options)?);
            crate::stream::provider_stream::assemble(&&p, &&i, None, o.as_ref().as_ref())
        })())
    }

    // Messages and sessions.
    fn parse_agent_message(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_agent_message(v, o))
    }

    fn parse_agent_message_json(text: Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::parse_agent_message_json(t, o))
    }

    fn parse_tool_result(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_tool_result(v, o))
    }

    fn parse_session_entry(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_session_entry(v, o))
    }

    fn check_session(text: Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::check_session(t, o))
    }

    fn read_session(text: Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::read_session(t, o))
    }

    fn query_session(query: String, text: Text, options: String) -> String {
        match host_value(&query) {
            Ok(q) => on_text(&text, &options, |t, o| api::query_session(t, &&q, o)),
            Err(e) => reply(Err(e)),
        }
    }

    fn from_seed_tool(def: String, extra: String, options: String) -> String {
        reply((|| {
            let ([d, e], o) = (host_values([&def, &extra])?, host_options(&options)?);
            api::from_seed_tool(&&d, &&e, o.as_ref().as_ref())
        })())
    }

    fn to_seed_tool(tool: String) -> String {
        on_config([&tool], |[t]| api::to_seed_tool(&&t))
    }

    fn parse_agent_event(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::parse_agent_event(v, o))
    }

    fn check_event_sequence(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::check_event_sequence(v, o))
    }

    fn check_session_response(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::check_session_response(v, o))
    }

    fn protocol_schemas() -> String {
        reply(Ok(api::protocol_schemas()))
    }

    // Dataset rows.
    fn check_chat_row(row: ValueOrText, options: String) -> String {
        match row {
            ValueOrText::Value(v) => on_value(&v, &options, |v, o| api::check_chat_row(v, o)),
            ValueOrText::Str(t) => on_text(&Text::Str(t), &options, |t, o| api::check_chat_row_json(t, o)),
            ValueOrText::Carried(t) => on_text(&Text::Carried(t), &options, |t, o| api::check_chat_row_json(t, o)),
        }
    }

    // Reports written out one by one (`api::check_chat_rows_reply`).
    fn check_chat_rows(values: String, options: String) -> String {
        match host_value(&values).and_then(|v| Ok((v, host_options(&options)?))) {
            Ok((v, o)) => api::check_chat_rows_reply(&&v, o.as_ref().as_ref()),
            Err(e) => reply(Err(e)),
        }
    }

    fn check_chat_rows_jsonl(text: Text, options: String) -> String {
        match host_options(&options) {
            Ok(o) => api::check_chat_rows_jsonl_reply(&text.bytes(), o.as_ref().as_ref()),
            Err(e) => reply(Err(e)),
        }
    }

    // The ACP edge.
    fn admit_prompt(request: String, capabilities: String, options: String) -> String {
        let result = (|| {
            let ([r, c], o) = (host_values([&request, &capabilities])?, host_options(&options)?);
            api::admit_prompt(&&r, &&c, o.as_ref().as_ref())
        })();
        crate::wire::admission_reply(result, true).0
    }

    fn is_canonical_base64(value: ValueOrText) -> bool {
        match value {
            ValueOrText::Value(v) => host_value(&v).is_ok_and(|v| crate::acp::admission::is_canonical_base64(&&v)),
            ValueOrText::Str(t) => api::is_canonical_base64(t.as_bytes()),
            ValueOrText::Carried(t) => api::is_canonical_base64(&carried_bytes(&t)),
        }
    }

    fn sniff_media_type(bytes: String) -> String {
        reply(Ok(api::sniff_media_type(&carried_bytes(&bytes))))
    }

    fn advertise_prompt_capabilities(facts: String) -> String {
        on_config([&facts], |[f]| api::advertise_prompt_capabilities(&&f))
    }

    // What the hosts' own code calls.
    fn seed(bytes: Vec<u8>) -> bool {
        api::seed(&bytes)
    }

    fn not_text(value: String) -> String {
        on_config([&value], |[v]| Err(api::not_text(&&v)))
    }

    fn not_bytes(value: String) -> String {
        on_config([&value], |[v]| Err(api::not_bytes(&&v)))
    }

    fn describe() -> String {
        reply(Ok(api::describe::describe()))
    }

    fn mcp_validator_wording(options: String) -> String {
        on_config([&options], |[o]| api::mcp_validator_wording(&&o))
    }

    fn mcp_failure_line(error: String) -> String {
        on_config([&error], |[e]| api::mcp_failure_line(&&e))
    }
}

#[cfg(feature = "testing")]
impl exports::agent_contract::core::testing::Guest for Core {
    fn parse_agent_action_json_full(text: exports::agent_contract::core::testing::Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::parse_agent_action_json(t, o).map(|a| a.into_value()))
    }

    fn parse_agent_actions_jsonl_full(text: exports::agent_contract::core::testing::Text, options: String) -> String {
        batch(host_options(&options).and_then(|o| api::parse_agent_actions_jsonl(&text.bytes(), o.as_ref().as_ref())))
    }

    fn parse_decision_json_full(text: exports::agent_contract::core::testing::Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::parse_decision_json(t, o).map(|d| d.into_value()))
    }

    fn echo(text: String) -> String {
        text
    }
}

use exports::agent_contract::core::assembly as wit_assembly;
use exports::agent_contract::core::rpc as wit_rpc;
use exports::agent_contract::core::tools as wit_tools;

/// One assembler per resource; wit-bindgen drops it when the host drops the resource.
struct ComponentAssembler {
    inner: std::cell::RefCell<Result<crate::stream::Assembler, ContractError>>,
}

impl wit_assembly::Guest for Core {
    type Assembler = ComponentAssembler;
    type ProviderAssembler = ComponentProviderAssembler;
    type SessionChecker = ComponentSessionChecker;
}

/// One provider stream per resource.
struct ComponentProviderAssembler {
    inner: std::cell::RefCell<Result<crate::stream::provider_stream::ProviderStream, ContractError>>,
}

impl ComponentProviderAssembler {
    fn with(
        &self,
        f: impl FnOnce(&mut crate::stream::provider_stream::ProviderStream) -> Result<(), ContractError>,
    ) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(a) => f(a).map(|()| Value::Null),
            Err(e) => Err(e.clone()),
        })
    }
}

impl wit_assembly::GuestProviderAssembler for ComponentProviderAssembler {
    fn new(provider: String, options: String) -> Self {
        let inner = (|| {
            let (p, o) = (host_value(&provider)?, host_options(&options)?);
            crate::stream::provider_stream::ProviderStream::from_host(&&p, o.as_ref().as_ref())
        })();
        ComponentProviderAssembler { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, event: String) -> String {
        self.with(|a| match host_events(&event) {
            Ok(e) => a.push_host(&&e),
            Err(e) => Err(a.fail(e)),
        })
    }

    fn push_sse(&self, chunk: wit_assembly::Text) -> String {
        self.with(|a| a.push_sse(&chunk.bytes()))
    }

    fn push_sse_value(&self, chunk: String) -> String {
        self.with(|a| match host_value(&chunk) {
            Ok(c) => a.push_sse_host(&&c),
            Err(e) => Err(a.fail(e)),
        })
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(self.inner.borrow().as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

impl wit_assembly::GuestAssembler for ComponentAssembler {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| crate::stream::Assembler::from_options(o.as_ref().as_ref()));
        ComponentAssembler { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, event: String) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(a) => match host_value(&event) {
                Ok(e) => a.push_value(&&e).map(|()| Value::Null),
                Err(e) => Err(a.fail(e)),
            },
            Err(e) => Err(e.clone()),
        })
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|a| a.preview()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(self.inner.borrow().as_ref().map_err(|e| e.clone()).and_then(|a| a.finish()))
    }
}

/// The incremental session reader, one per resource.
struct ComponentSessionChecker {
    inner: std::cell::RefCell<Result<crate::session::check::SessionReader, ContractError>>,
}

impl wit_assembly::GuestSessionChecker for ComponentSessionChecker {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_session_reader(o.as_ref().as_ref()));
        ComponentSessionChecker { inner: std::cell::RefCell::new(inner) }
    }

    fn push(&self, chunk: wit_assembly::Text) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(r) => Ok(r.push(&chunk.bytes())),
            Err(e) => Err(e.clone()),
        })
    }

    fn preview(&self) -> String {
        reply(self.inner.borrow().as_ref().map(|r| r.problems_so_far()).map_err(|e| e.clone()))
    }

    fn finish(&self) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(r) => Ok(r.finish()),
            Err(e) => Err(e.clone()),
        })
    }
}

/// One session's prompt lifecycle per resource.
struct ComponentPromptLifecycle {
    inner: std::cell::RefCell<crate::acp::lifecycle::PromptLifecycle>,
}

impl exports::agent_contract::core::acp::Guest for Core {
    type PromptLifecycle = ComponentPromptLifecycle;
}

impl exports::agent_contract::core::acp::GuestPromptLifecycle for ComponentPromptLifecycle {
    fn new() -> Self {
        ComponentPromptLifecycle { inner: std::cell::RefCell::new(api::create_prompt_lifecycle()) }
    }

    fn call(&self, name: String, arg: String) -> String {
        reply((|| {
            let arg = host_options(&arg)?;
            api::lifecycle_call(&mut self.inner.borrow_mut(), &name, arg.as_ref().as_ref())
        })())
    }
}

// JSON-RPC over NDJSON: the `rpc` interface.

impl wit_rpc::Guest for Core {
    type NdjsonDecoder = ComponentNdjsonDecoder;
    type StdoutPurity = ComponentStdoutPurity;
    type RpcSession = ComponentRpcSession;

    fn classify_json_rpc(value: String, options: String) -> String {
        on_value(&value, &options, |v, o| api::classify_json_rpc(v, o).map(crate::wire::batch_reply_linked))
    }

    fn classify_json_rpc_json(text: wit_rpc::Text, options: String) -> String {
        on_text(&text, &options, |t, o| api::classify_json_rpc_json(t, o).map(crate::wire::batch_reply_linked))
    }

    fn method_not_found(request: String) -> String {
        on_config([&request], |[r]| api::method_not_found(&&r))
    }

    fn internal_error(request: String, error: String) -> String {
        on_config([&request, &error], |[r, e]| api::internal_error(&&r, &&e))
    }

    fn invalid_params(request: String, contract_error: String) -> String {
        on_config([&request, &contract_error], |[r, e]| api::invalid_params(&&r, &&e))
    }
}

fn check_of<T>(inner: &Result<T, ContractError>) -> String {
    reply(inner.as_ref().map(|_| Value::Null).map_err(|e| e.clone()))
}

struct ComponentNdjsonDecoder {
    inner: std::cell::RefCell<Result<crate::rpc::Decoder, ContractError>>,
}

impl ComponentNdjsonDecoder {
    /// The frames `f` hands over, written frame by frame (`wire::FrameWriter`: a chunk of a
    /// million short lines is a million frames, repeats written as rows).
    fn with(&self, f: impl FnOnce(&mut crate::rpc::Decoder, &mut dyn FnMut(crate::rpc::ndjson::Line))) -> String {
        match &mut *self.inner.borrow_mut() {
            Ok(d) => {
                let mut batch = crate::wire::FrameWriter::new();
                f(d, &mut |line| batch.line(line));
                batch.finish(Ok(()))
            }
            Err(e) => reply(Err(e.clone())),
        }
    }
}

impl wit_rpc::GuestNdjsonDecoder for ComponentNdjsonDecoder {
    fn new(options: String) -> Self {
        let inner = host_options(&options)
            .and_then(|o| api::create_ndjson_decoder(o.as_ref().as_ref()))
            .map(crate::rpc::Decoder::lazy);
        ComponentNdjsonDecoder { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn push(&self, chunk: wit_rpc::Text) -> String {
        self.with(|d, sink| d.push_lines(&chunk.bytes(), sink))
    }

    fn end(&self) -> String {
        self.with(|d, sink| d.end_line().into_iter().for_each(sink))
    }

    fn buffered(&self) -> u64 {
        self.inner.borrow().as_ref().map_or(0, |d| d.buffered() as u64)
    }
}

struct ComponentStdoutPurity {
    inner: std::cell::RefCell<Result<crate::rpc::purity::Purity, ContractError>>,
}

impl ComponentStdoutPurity {
    fn with(&self, f: impl FnOnce(&mut crate::rpc::purity::Purity) -> Value) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(p) => Ok(f(p)),
            Err(e) => Err(e.clone()),
        })
    }
}

impl wit_rpc::GuestStdoutPurity for ComponentStdoutPurity {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_purity_check(o.as_ref().as_ref()));
        ComponentStdoutPurity { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn push(&self, chunk: wit_rpc::Text) -> String {
        self.with(|p| {
            p.push(&chunk.bytes());
            Value::Null
        })
    }

    fn finish(&self) -> String {
        self.with(|p| p.finish())
    }
}

struct ComponentRpcSession {
    inner: std::cell::RefCell<Result<crate::rpc::Session, ContractError>>,
}

impl ComponentRpcSession {
    fn observe(&self, message: &str, incoming: bool) -> String {
        reply(match &mut *self.inner.borrow_mut() {
            Ok(s) => host_value(message)
                .and_then(|m| api::rpc_session_observe(s, &&m, incoming))
                .map(crate::wire::batch_reply_linked),
            Err(e) => Err(e.clone()),
        })
    }
}

impl wit_rpc::GuestRpcSession for ComponentRpcSession {
    fn new(options: String) -> Self {
        let inner = host_options(&options).and_then(|o| api::create_rpc_session(o.as_ref().as_ref()));
        ComponentRpcSession { inner: std::cell::RefCell::new(inner) }
    }

    fn check(&self) -> String {
        check_of(&self.inner.borrow())
    }

    fn incoming(&self, message: String) -> String {
        self.observe(&message, true)
    }

    fn outgoing(&self, message: String) -> String {
        self.observe(&message, false)
    }
}

export!(Core);

// Compiled tools: the `tools` interface and its `compiled-tool` resource.

/// One compiled tool per resource (`tools::handle`); creation errors are `reply`'s.
struct ComponentCompiledTool {
    inner: Result<crate::tools::handle::ToolHandle, ContractError>,
}

impl ComponentCompiledTool {
    fn with<T>(
        &self,
        run: impl FnOnce(&crate::tools::handle::ToolHandle) -> Result<T, ContractError>,
    ) -> Result<T, ContractError> {
        match &self.inner {
            Ok(h) => run(h),
            Err(e) => Err(e.clone()),
        }
    }
}

impl wit_tools::Guest for Core {
    type CompiledTool = ComponentCompiledTool;
    type CompiledRegistry = ComponentCompiledRegistry;

    fn validate_tool_inputs(tool: String, inputs: String, options: String) -> String {
        let mut batch = crate::wire::BatchWriter::new();
        let result = (|| {
            let (t, i, o) = (host_value(&tool)?, host_value(&inputs)?, host_options(&options)?);
            api::validate_tool_inputs_each(&&t, &&i, o.as_ref().as_ref(), &mut |item| batch.outcome(item))
        })();
        batch.finish(result)
    }
}

impl wit_tools::GuestCompiledTool for ComponentCompiledTool {
    fn new(definition: String, options: String) -> Self {
        let inner = (|| {
            let (d, o) = (host_value(&definition)?, host_options(&options)?);
            api::compile_tool(&&d, o.as_ref().as_ref())
        })();
        ComponentCompiledTool { inner }
    }

    fn from_json(text: wit_tools::Text, options: String) -> wit_tools::CompiledTool {
        let inner = host_options(&options).and_then(|o| api::compile_tool_json(&text.bytes(), o.as_ref().as_ref()));
        wit_tools::CompiledTool::new(ComponentCompiledTool { inner })
    }

    fn reply(&self) -> String {
        reply(self.with(|h| h.take_definition()))
    }

    fn release(&self) {
        if let Ok(h) = &self.inner {
            h.release();
        }
    }

    fn validate(&self, input: String, options: String) -> String {
        on_value(&input, &options, |i, o| self.with(|h| api::handle_validate_input(h, i, o)))
    }

    fn validate_json(&self, text: wit_tools::Text, options: String) -> Result<u32, String> {
        on_text_verdict(&text, &options, |t, o| self.with(|h| api::handle_check_input_json(h, t, o)).map(|()| 0))
    }

    fn validate_many(&self, inputs: String, options: String) -> String {
        let mut batch = crate::wire::BatchWriter::new();
        let result = (|| {
            let (i, o) = (host_value(&inputs)?, host_options(&options)?);
            self.with(|h| {
                api::handle_validate_inputs_each(h, &&i, o.as_ref().as_ref(), &mut |item| batch.outcome(item))
            })
        })();
        batch.finish(result)
    }

    fn validate_many_json(&self, text: wit_tools::Text, options: String) -> String {
        let mut batch = crate::wire::BatchWriter::new();
        let result = host_options(&options).and_then(|o| {
            self.with(|h| {
                api::handle_validate_inputs_json_each(h, &text.bytes(), o.as_ref().as_ref(), &mut |item| {
                    batch.verdict(item.map(|_| 0))
                })
            })
        });
        batch.finish(result)
    }
}

/// One compiled registry per resource (`tools::handle::RegistryHandle`).
struct ComponentCompiledRegistry {
    inner: Result<crate::tools::handle::RegistryHandle, ContractError>,
}

impl wit_tools::GuestCompiledRegistry for ComponentCompiledRegistry {
    fn new(tools: String, options: String) -> Self {
        let inner = (|| {
            let (t, o) = (host_value(&tools)?, host_options(&options)?);
            api::compile_registry(&&t, o.as_ref().as_ref())
        })();
        ComponentCompiledRegistry { inner }
    }

    fn reply(&self) -> String {
        match &self.inner {
            Ok(h) => crate::wire::written_reply(|out| h.write_value(out)),
            Err(e) => reply(Err(e.clone())),
        }
    }

    fn check_tool_call(&self, action: String, policy: String, options: String) -> String {
        reply((|| {
            let registry = self.inner.as_ref().map_err(|e| e.clone())?;
            let (a, p, o) = (host_value(&action)?, host_value(&policy)?, host_options(&options)?);
            api::registry_check_tool_call(registry, &&a, &&p, o.as_ref().as_ref())
        })())
    }

    fn project(&self, kind: u32) -> String {
        let provider = match kind {
            1 => Some(api::Provider::OpenAi),
            2 => Some(api::Provider::OpenAiResponses),
            3 => Some(api::Provider::Anthropic),
            4 => Some(api::Provider::Mcp),
            5 => Some(api::Provider::Gemini),
            _ => None,
        };
        reply(self.inner.as_ref().map_err(|e| e.clone()).and_then(|h| api::registry_project(h, provider)))
    }
}
