//! The operations every host exposes, as `host value in, result value out`, and the table that
//! lists them (`table`) with what a host asks of the core (`describe`).
//!
//! Bindings call these and translate values and errors; they decide nothing. Options are read
//! here too, so an invalid option is the same error everywhere.

pub mod describe;
pub mod table;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::input::{HostValue, Kind};
use crate::json::{self, Mode};
use crate::protocol::action::{self, AgentAction};
use crate::protocol::decision::{self, Decision};
#[cfg(feature = "schema")]
use crate::tools::contract::{self, ToolDefinition};
use crate::value::Value;

/// The option set the operation table gives row `$row` (`table::options_of`, at compile time).
macro_rules! options_of {
    ($row:literal) => {
        const { crate::api::table::options_of($row) }
    };
}
// For the bindings too: the option set a binding reads a row's options with is its row's (a
// build with no binding, the native CLI's, uses it only here).
#[allow(unused_imports)]
pub(crate) use options_of;

pub fn parse_agent_action<V: HostValue>(value: &V, options: Option<&V>) -> Result<AgentAction> {
    action::parse_agent_action(value, &Options::read_for(options, options_of!("parseAgentAction"))?)
}

pub fn parse_agent_action_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<AgentAction> {
    action::parse_agent_action_json(text, &Options::read_for(options, options_of!("parseAgentActionJson"))?)
}

#[cfg(feature = "schema")]
pub fn define_tool<V: HostValue>(def: &V, options: Option<&V>) -> Result<ToolDefinition> {
    contract::define_tool(def, &Options::read_for(options, options_of!("defineTool"))?)
}

#[cfg(feature = "schema")]
pub fn define_tool_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<ToolDefinition> {
    contract::define_tool_json(text, &Options::read_for(options, options_of!("defineToolJson"))?)
}

#[cfg(feature = "schema")]
/// `validateToolInput(tool, input)`: the input (a copy) when it satisfies the tool's
/// `inputSchema`, else `SCHEMA_MISMATCH` with every issue. See `tools::schema`.
pub fn validate_tool_input<V: HostValue>(tool: &V, input: &V, options: Option<&V>) -> Result<Value> {
    crate::tools::input::validate_tool_input(
        tool,
        input,
        &Options::read_for(options, options_of!("validateToolInput"))?,
    )
}

#[cfg(feature = "schema")]
/// The same with the input as JSON text.
pub fn validate_tool_input_json<V: HostValue>(tool: &V, text: &[u8], options: Option<&V>) -> Result<Value> {
    crate::tools::input::validate_tool_input_json(
        tool,
        text,
        &Options::read_for(options, options_of!("validateToolInputJson"))?,
    )
}

#[cfg(feature = "schema")]
/// `validate_tool_input_json`'s verdict alone (the bindings' verdict replies): the same
/// outcome, without building the input's value when the schema allows.
pub fn check_tool_input_json<V: HostValue>(tool: &V, text: &[u8], options: Option<&V>) -> Result<()> {
    crate::tools::input::check_tool_input_json(
        tool,
        text,
        &Options::read_for(options, options_of!("validateToolInputJson"))?,
    )
}

#[cfg(feature = "schema")]
/// One group of a JSON Schema conformance suite as JSON text (`check_suite_json`). No binding
/// exports it: the hosts run the suite through `define_tool_json` and `validate_tool_input_json`;
/// the fuzz target `text_ops` feeds it texts.
pub fn schema_suite_check(text: &[u8]) -> Result<Value> {
    crate::tools::schema::check_suite_json(text)
}

/// Feeds host randomness to the core (see `entropy`); hosts call it once per instance.
pub fn seed(bytes: &[u8]) -> bool {
    crate::entropy::seed(bytes)
}

pub fn preview_action<V: HostValue>(value: &V, options: Option<&V>) -> Value {
    match Options::read_for(options, options_of!("previewAction")) {
        Ok(options) => crate::protocol::preview::preview_action(value, &options),
        Err(e) => crate::protocol::preview::preview_action_error(&e),
    }
}

/// One verdict per element of a list, each with its own size budget; the list itself must be
/// an array of at most `maxArrayLength` elements (the results are a list the core builds for
/// the caller: its length is bounded like any array's).
pub fn parse_agent_actions<V: HostValue>(list: &V, options: Option<&V>) -> Result<Vec<Result<AgentAction>>> {
    let mut out = Vec::new();
    each_agent_action(list, options, &mut |item| out.push(item))?;
    Ok(out)
}

/// `parseAgentActions`, each outcome handed to `sink` as it is read, none kept: a binding
/// writes its reply item by item (`wire::BatchWriter`).
pub fn each_agent_action<V: HostValue>(
    list: &V,
    options: Option<&V>,
    sink: &mut dyn FnMut(Result<AgentAction>),
) -> Result<()> {
    let options = Options::read_for(options, options_of!("parseAgentActions"))?;
    if list.kind() != Kind::Array {
        return Err(ContractError::new(
            Code::FieldType,
            "",
            format!("expected a list of actions, got {}", crate::input::fields::kind_name(list, list.kind())),
        )
        .in_layer(Layer::Protocol));
    }
    let len = list.len().map_err(|f| f.at(""))?;
    if len > options.limits.max_array_length {
        return Err(too_many_items("the list has", options.limits.max_array_length));
    }
    for i in 0..len {
        sink(match list.index(i) {
            Ok(item) => action::parse_agent_action(&item, &options),
            Err(fault) => Err(fault.at(&format!("/{i}"))),
        });
    }
    Ok(())
}

/// JSON Lines: one action per line (`\n`, optional `\r` before it); a final newline is allowed,
/// any other empty line is an error for that line. Positions are in the whole text; `maxBytes`
/// bounds each line (the fixture `batch/jsonl-size-per-line`). At most
/// `maxArrayLength` lines: each line is one result, and every result (an error for a blank
/// line) costs a few hundred bytes, so 4 MB of newlines would otherwise be a million errors.
pub fn parse_agent_actions_jsonl<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Vec<Result<AgentAction>>> {
    let mut out = Vec::new();
    each_jsonl_action(text, options, &mut |item| out.push(item))?;
    Ok(out)
}

/// `parseAgentActionsJsonl`, each line's outcome handed to `sink` as it is read, none kept.
pub fn each_jsonl_action<O: HostValue>(
    text: &[u8],
    options: Option<&O>,
    sink: &mut dyn FnMut(Result<AgentAction>),
) -> Result<()> {
    each_jsonl_line(text, options, action::parse_agent_action_json, sink)
}

/// `each_jsonl_action`'s verdicts (`protocol::verdict`), for hosts that parse the accepted lines.
pub fn each_jsonl_verdict<O: HostValue>(
    text: &[u8],
    options: Option<&O>,
    sink: &mut dyn FnMut(Result<u32>),
) -> Result<()> {
    each_jsonl_line(text, options, action::agent_action_json_verdict, sink)
}

fn each_jsonl_line<O: HostValue, T>(
    text: &[u8],
    options: Option<&O>,
    parse: fn(&[u8], &Options) -> Result<T>,
    sink: &mut dyn FnMut(Result<T>),
) -> Result<()> {
    let options = Options::read_for(options, options_of!("parseAgentActionsJsonl"))?;
    let lines = text.iter().filter(|&&b| b == b'\n').count() + usize::from(text.last().is_some_and(|&b| b != b'\n'));
    if lines > options.limits.max_array_length {
        return Err(too_many_items("the text has", options.limits.max_array_length));
    }
    let mut start = 0;
    let mut line_no = 1;
    while start < text.len() {
        let end = text[start..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| start + i);
        let mut line = &text[start..end];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        sink(parse(line, &options).map_err(|mut e| {
            if let Some(p) = e.position.as_mut() {
                p.offset += start;
                p.line = line_no;
            }
            e
        }));
        start = end + 1;
        line_no += 1;
    }
    Ok(())
}

fn too_many_items(what: &str, max: usize) -> ContractError {
    ContractError::new(
        Code::InputTooLarge,
        "",
        format!("{what} more items than the limit of {max} (maxArrayLength): each gets its own result"),
    )
}

/// Strict JSON text (RFC 8259 + I-JSON, limits, positions) to its value: the parse layer on its
/// own, for tool arguments and any other model-produced JSON. Options: the limits.
pub fn parse_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    let options = Options::read_for(options, options_of!("parseJson"))?;
    json::parse(text, Mode::Strict, &options.limits)
}

/// `parse_json`'s verdict alone (`json::check`): `Ok` exactly when `parse_json` accepts, else
/// the same error. The bindings use it: a host holds the text, and parses it itself once the
/// core accepted it (see `wire::verdict_text`), so the core neither builds the value nor
/// writes it back.
pub fn check_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<()> {
    let options = Options::read_for(options, options_of!("parseJson"))?;
    json::check(text, &options.limits)
}

/// A decision from a host value. Options: the limits and `maxCalls`.
pub fn parse_decision<V: HostValue>(value: &V, options: Option<&V>) -> Result<Decision> {
    decision::parse_decision(value, &Options::read_for(options, options_of!("parseDecision"))?)
}

pub fn parse_decision_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Decision> {
    decision::parse_decision_json(text, &Options::read_for(options, options_of!("parseDecisionJson"))?)
}

/// A stream assembler (see `stream::assembler`). Options: `maxArgumentsBytes`,
/// `maxResponseBytes` and the per-value limits.
pub fn create_assembler<V: HostValue>(options: Option<&V>) -> Result<crate::stream::Assembler> {
    crate::stream::Assembler::from_options(options)
}

/// The verdict for a text operation given something that is neither a string nor bytes.
pub fn not_text<V: HostValue>(value: &V) -> ContractError {
    ContractError::new(
        Code::JsonInvalid,
        "",
        format!("expected JSON text (a string or bytes), got {}", crate::input::fields::kind_name(value, value.kind())),
    )
}

#[cfg(feature = "schema")]
/// `createRegistry(tools)`: the registry value `{tools: [...definitions sorted by name]}`.
pub fn create_registry<V: HostValue>(tools: &V, options: Option<&V>) -> Result<Value> {
    crate::tools::registry::create_registry(tools, &Options::read_for(options, options_of!("createRegistry"))?)
        .map(crate::tools::registry::registry_value)
}

#[cfg(feature = "schema")]
/// `catalog(registry)`: the registry's definitions, sorted by name (the registry read again).
pub fn catalog<V: HostValue>(registry: &V) -> Result<Value> {
    crate::tools::registry::read_registry(registry, false).map(crate::tools::registry::catalog_value)
}

#[cfg(feature = "schema")]
/// `definePolicy(policy)`: the policy, checked and normalised.
pub fn define_policy<V: HostValue>(policy: &V) -> Result<Value> {
    crate::tools::policy::define_policy(policy).map(|p| p.into_value())
}

#[cfg(feature = "schema")]
/// `checkToolCall(registry, action, policy)`: the approved call, or the first layer's error.
/// Options: those of `parseAgentAction` (they apply to the action).
pub fn check_tool_call<V: HostValue>(registry: &V, action: &V, policy: &V, options: Option<&V>) -> Result<Value> {
    crate::tools::pipeline::check_tool_call(
        registry,
        action,
        policy,
        &Options::read_for(options, options_of!("checkToolCall"))?,
    )
}

#[cfg(feature = "schema")]
/// `toOpenAITools(registry)`, `toOpenAIResponsesTools(registry)`, `toAnthropicTools(registry)`,
/// `toMcpTools(registry)`.
pub fn project<V: HostValue>(registry: &V, provider: Provider) -> Result<Value> {
    let defs = crate::tools::registry::read_registry(registry, false)?;
    match provider {
        Provider::OpenAi => crate::tools::projection::openai(defs),
        Provider::OpenAiResponses => crate::tools::projection::openai_responses(defs),
        Provider::Anthropic => crate::tools::projection::anthropic(defs),
        Provider::Mcp => crate::tools::projection::mcp(defs),
        Provider::Gemini => crate::tools::gemini::gemini(defs),
    }
}

#[cfg(feature = "schema")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    OpenAi,
    OpenAiResponses,
    Anthropic,
    Mcp,
    /// `toGeminiTools`.
    Gemini,
}

#[cfg(feature = "schema")]
/// `normalizeToolResult(tool, value)`: always a tool result, unless the tool or the options are
/// invalid. Options: the limits (for the value).
pub fn normalize_tool_result<V: HostValue>(tool: &V, value: &V, options: Option<&V>) -> Result<Value> {
    crate::tools::result::normalize_tool_result(
        tool,
        value,
        &Options::read_for(options, options_of!("normalizeToolResult"))?,
    )
}

#[cfg(feature = "schema")]
/// `mcpToolDefinitions(answer)`: a `tools/list` answer as the definitions a registry takes.
pub fn mcp_tool_definitions<V: HostValue>(answer: &V) -> Result<Value> {
    crate::tools::mcp::tool_definitions(answer)
}

#[cfg(feature = "schema")]
/// `checkMcpToolResult(tool, result, options?)`: a `tools/call` result against its tool's
/// `outputSchema`. Options: the limits (for the result).
pub fn check_mcp_tool_result<V: HostValue>(tool: &V, result: &V, options: Option<&V>) -> Result<Value> {
    crate::tools::mcp::check_tool_result(tool, result, &Options::read_for(options, options_of!("checkMcpToolResult"))?)
}

/// The words of an MCP validator's error text for its options (`{role?}`): `{subject, schema}`.
/// The hosts' MCP modules ask for them (`HOST_SUPPORT`), so both word a check alike.
#[cfg(feature = "schema")]
pub fn mcp_validator_wording<V: HostValue>(options: &V) -> Result<Value> {
    crate::tools::mcp::validator_wording(options)
}

/// The line an MCP validator's error text ends with, for a failure a host holds.
#[cfg(feature = "schema")]
pub fn mcp_failure_line<V: HostValue>(error: &V) -> Result<Value> {
    crate::tools::mcp::failure_line_of(error)
}

#[cfg(feature = "schema")]
/// `strictSchemaIssues(schema)`: the list of `{path, keyword, message}` (empty: strict-ready).
pub fn strict_schema_issues<V: HostValue>(schema: &V) -> Result<Value> {
    schema_issues(schema, crate::tools::projection::strict_schema_issues)
}

#[cfg(feature = "schema")]
/// `geminiSchemaIssues(schema)`: why the schema could not be Gemini's `parameters` (empty: it
/// could), as `{path, keyword, message}`.
pub fn gemini_schema_issues<V: HostValue>(schema: &V) -> Result<Value> {
    schema_issues(schema, crate::tools::gemini::gemini_schema_issues)
}

#[cfg(feature = "schema")]
/// A schema read as program data (the ceilings), judged by `judge`, its issues as values.
fn schema_issues<V: HostValue>(schema: &V, judge: fn(&Value) -> Vec<crate::error::Issue>) -> Result<Value> {
    let schema =
        crate::tools::registry::read_value(schema, &crate::Limits::ceilings(), crate::input::Undefined::Reject)?;
    Ok(Value::Array(
        judge(&schema)
            .into_iter()
            .map(|i| {
                Value::Object(vec![
                    ("path".to_owned(), Value::String(i.path)),
                    ("keyword".to_owned(), Value::String(i.keyword)),
                    ("message".to_owned(), Value::String(i.message)),
                ])
            })
            .collect(),
    ))
}

#[cfg(feature = "schema")]
/// `compareContracts(old, new)`: how one tool's contract changed.
pub fn compare_contracts<V: HostValue>(old: &V, new: &V) -> Result<Value> {
    crate::tools::versions::compare_contracts(old, new)
}

#[cfg(feature = "schema")]
/// `diffCatalogs(old, new)`: how a catalog changed, tool by tool, and the permissions added.
pub fn diff_catalogs<V: HostValue>(old: &V, new: &V) -> Result<Value> {
    crate::tools::versions::diff_catalogs(old, new)
}

#[cfg(feature = "schema")]
/// `jsonSchemaForTarget(schema, target)`: the schema for a JSON Schema draft (Standard JSON
/// Schema's `target`), when every keyword means the same there (`tools::target`).
pub fn json_schema_for_target<V: HostValue>(schema: &V, target: &V) -> Result<Value> {
    let schema =
        crate::tools::registry::read_value(schema, &crate::Limits::ceilings(), crate::input::Undefined::Reject)?;
    if target.kind() != crate::input::Kind::String {
        return Err(ContractError::new(Code::FieldType, "", "the target must be a string such as \"draft-07\"")
            .in_layer(Layer::Contract));
    }
    crate::tools::target::json_schema_for_target(&schema, &target.string())
}

#[cfg(feature = "schema")]
/// `standardJsonSchema(schema, target)`: what a Standard JSON Schema converter answers (the
/// `toStandardSchema` object's `jsonSchema.input`): `jsonSchemaForTarget`'s schema, or, when a
/// keyword has no faithful form in the target, the schema in its own draft with its `$schema`.
pub fn standard_json_schema<V: HostValue>(schema: &V, target: &V) -> Result<Value> {
    let schema =
        crate::tools::registry::read_value(schema, &crate::Limits::ceilings(), crate::input::Undefined::Reject)?;
    if target.kind() != crate::input::Kind::String {
        return Err(ContractError::new(Code::FieldType, "", "the target must be a string such as \"draft-07\"")
            .in_layer(Layer::Contract));
    }
    crate::tools::target::standard_json_schema(&schema, &target.string())
}

// Messages and sessions (seed 004; `session`). Options: `strict`, `dialect`, `maxIssues` and the
// limits (for session texts, the limits of each line).

/// `parseAgentMessage(value, options?)`: the message with its known fields.
pub fn parse_agent_message<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    crate::session::message::parse_agent_message(value, &Options::read_for(options, options_of!("parseAgentMessage"))?)
}

pub fn parse_agent_message_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    crate::session::message::parse_agent_message_json(
        text,
        &Options::read_for(options, options_of!("parseAgentMessageJson"))?,
    )
}

/// `parseToolResult(value, options?)`: `{content, details?, terminate?}`.
pub fn parse_tool_result<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    crate::session::tool_result::parse_tool_result(value, &Options::read_for(options, options_of!("parseToolResult"))?)
}

/// `parseSessionEntry(value, options?)`: one entry, on its own (the rules between entries are
/// `checkSession`'s).
pub fn parse_session_entry<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    crate::session::entry::parse_session_entry(value, &Options::read_for(options, options_of!("parseSessionEntry"))?)
}

/// `checkSession(text, options?)`: the report `{ok, entries, problems, roots, leaves}`; an error
/// only for invalid options.
pub fn check_session<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    Ok(crate::session::check::check_session(text, &Options::read_for(options, options_of!("checkSession"))?))
}

/// `readSession(text, options?)`: `{header, entries, roots, leaves}`, or the first problem.
pub fn read_session<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    crate::session::check::read_session(text, &Options::read_for(options, options_of!("readSession"))?)
        .map(|s| s.into_value())
}

/// `querySession(text, query, options?)`: the session read as `readSession` does, then one tree
/// query: `{branch: id}`, `{children: id}` or `{context: leafId}`.
pub fn query_session<V: HostValue>(text: &[u8], query: &V, options: Option<&V>) -> Result<Value> {
    let options = Options::read_for(options, options_of!("querySession"))?;
    crate::session::check::read_session(text, &options)?.query(query)
}

#[cfg(feature = "schema")]
/// `fromSeedTool(def, {permissions}, options?)`: a seed `ToolDefinition` as a tool contract.
pub fn from_seed_tool<V: HostValue>(def: &V, extra: &V, options: Option<&V>) -> Result<Value> {
    crate::session::seed_tool::from_seed_tool(def, extra, &Options::read_for(options, options_of!("fromSeedTool"))?)
        .map(|t| t.into_value())
}

#[cfg(feature = "schema")]
/// `toSeedTool(tool)`: a tool contract as the seed's `{name, description, parameters}`.
pub fn to_seed_tool<V: HostValue>(tool: &V) -> Result<Value> {
    crate::session::seed_tool::to_seed_tool(tool)
}

/// `createSessionChecker(options?)`: the incremental session reader (`session::check::SessionReader`).
pub fn create_session_reader<V: HostValue>(options: Option<&V>) -> Result<crate::session::check::SessionReader> {
    Ok(crate::session::check::SessionReader::new(&Options::read_for(options, options_of!("createSessionChecker"))?))
}

// ACP prompt admission and lifecycle:

/// `admitPrompt(request, capabilities, options?)`: the admission plan (its value and the decoded
/// payloads), or the first failure (`acp::admission`).
pub fn admit_prompt<V: HostValue>(
    request: &V,
    capabilities: &V,
    options: Option<&V>,
) -> Result<crate::acp::admission::Plan> {
    crate::acp::admission::admit_prompt(request, capabilities, options)
}

/// `isCanonicalBase64(text)`: the text's bytes (a host passes a string's UTF-8); never fails.
pub fn is_canonical_base64(text: &[u8]) -> bool {
    crate::acp::base64::is_canonical(text)
}

/// `sniffMediaType(bytes)`: the media type whose WHATWG signature the bytes start with, or null.
pub fn sniff_media_type(bytes: &[u8]) -> Value {
    crate::acp::sniff::sniff(bytes).map_or(Value::Null, |t| Value::String(t.to_owned()))
}

/// `advertisePromptCapabilities(facts)`: `{image, audio, embeddedContext}`.
pub fn advertise_prompt_capabilities<V: HostValue>(facts: &V) -> Result<Value> {
    crate::acp::capabilities::advertise(facts).map(|c| c.into_value())
}

/// `createPromptLifecycle()`.
pub fn create_prompt_lifecycle() -> crate::acp::lifecycle::PromptLifecycle {
    crate::acp::lifecycle::PromptLifecycle::new()
}

/// One call on a lifecycle by its JS name (`admitted`, `written`, `enqueue`, `cancel`,
/// `agentIdle`, `outputDelivered`, `settle`, `abandon`); `arg` is `settle`'s reason (a string,
/// or absent / undefined / null for `end_turn`). The value is `null`, `cancel`'s boolean or
/// `settle`'s stop reason. The bindings' methods and the fixture runners call this.
pub fn lifecycle_call<V: HostValue>(
    lifecycle: &mut crate::acp::lifecycle::PromptLifecycle,
    call: &str,
    arg: Option<&V>,
) -> Result<Value> {
    Ok(match call {
        "admitted" => lifecycle.admitted().map(|()| Value::Null)?,
        "written" => lifecycle.written().map(|()| Value::Null)?,
        "enqueue" => lifecycle.enqueue().map(|()| Value::Null)?,
        "cancel" => Value::Bool(lifecycle.cancel()),
        "agentIdle" => lifecycle.agent_idle().map(|()| Value::Null)?,
        "outputDelivered" => lifecycle.output_delivered().map(|()| Value::Null)?,
        "abandon" => lifecycle.abandon().map(|()| Value::Null)?,
        "settle" => {
            let reason = match arg {
                None => None,
                Some(v) => match v.kind() {
                    Kind::Undefined | Kind::Null => None,
                    Kind::String => Some(v.string()),
                    _ => return Err(ContractError::new(Code::OptionInvalid, "", "the stop reason must be a string")),
                },
            };
            Value::String(lifecycle.settle(reason.as_deref())?.to_owned())
        }
        other => return Err(ContractError::new(Code::OptionInvalid, "", format!("no lifecycle call {other:?}"))),
    })
}

/// The verdict for `sniffMediaType` given something that is not bytes.
pub fn not_bytes<V: HostValue>(value: &V) -> ContractError {
    ContractError::new(
        Code::FieldType,
        "",
        format!(
            "expected bytes (JS Uint8Array, Python bytes), got {}",
            crate::input::fields::kind_name(value, value.kind())
        ),
    )
}

// JSON-RPC 2.0 over NDJSON (`rpc`).

use crate::rpc::options::{RpcOptionSet, RpcOptions};

/// `classifyJsonRpc(value, options?)`: `{kind, id?, method?, reply, code?, path?, reason?,
/// items?}` (see `rpc::message`). A value with no JSON form is the caller's error.
pub fn classify_json_rpc<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    let options = RpcOptions::read(options, RpcOptionSet::Classify)?;
    crate::rpc::message::classify_host(value, &options).map(|c| c.into_value())
}

/// `classifyJsonRpcJson(text, options?)`: the same for JSON text (never an error but for the
/// options: text that is not JSON is a `parse_error`).
pub fn classify_json_rpc_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    let options = RpcOptions::read(options, RpcOptionSet::Classify)?;
    Ok(crate::rpc::message::classify_json(text, &options).into_value())
}

/// The JSON-RPC options of an operation (`set`), read by the core.
pub fn rpc_options<V: HostValue>(options: Option<&V>, set: RpcOptionSet) -> Result<RpcOptions> {
    RpcOptions::read(options, set)
}

/// `methodNotFound(request)` / `internalError(request, error)` / `invalidParams(request,
/// contractError)`: the reply, or `null` when the request is not a request.
pub fn method_not_found<V: HostValue>(request: &V) -> Result<Value> {
    crate::rpc::reply::method_not_found(request).map(|r| r.unwrap_or(Value::Null))
}

pub fn internal_error<V: HostValue>(request: &V, error: &V) -> Result<Value> {
    crate::rpc::reply::internal_error(request, error).map(|r| r.unwrap_or(Value::Null))
}

pub fn invalid_params<V: HostValue>(request: &V, contract_error: &V) -> Result<Value> {
    crate::rpc::reply::invalid_params(request, contract_error).map(|r| r.unwrap_or(Value::Null))
}

/// `createNdjsonDecoder(options?)`.
pub fn create_ndjson_decoder<V: HostValue>(options: Option<&V>) -> Result<crate::rpc::Decoder> {
    Ok(crate::rpc::Decoder::new(RpcOptions::read(options, RpcOptionSet::Decoder)?))
}

/// Frames as values: a list of frame objects.
pub fn frames_value(frames: Vec<crate::rpc::Frame>) -> Value {
    Value::Array(frames.into_iter().map(|f| f.into_value()).collect())
}

/// `checkStdoutPurity(text | chunks, options?)`: hosts feed the chunks, then `finish()`.
pub fn create_purity_check<V: HostValue>(options: Option<&V>) -> Result<crate::rpc::purity::Purity> {
    Ok(crate::rpc::purity::Purity::new(RpcOptions::read(options, RpcOptionSet::Decoder)?))
}

/// `createRpcSession(options?)`.
pub fn create_rpc_session<V: HostValue>(options: Option<&V>) -> Result<crate::rpc::Session> {
    Ok(crate::rpc::Session::new(RpcOptions::read(options, RpcOptionSet::Session)?))
}

/// `session.incoming(message)` / `session.outgoing(message)`: the classification with
/// `problems: [{code, path, id?, message}]`. A value with no JSON form is the caller's error.
pub fn rpc_session_observe<V: HostValue>(
    session: &mut crate::rpc::Session,
    message: &V,
    incoming: bool,
) -> Result<Value> {
    let limits = session.options().limits();
    let mut budget = crate::input::Budget::new(&limits);
    let copied =
        crate::input::Copier { limits: &limits, budget: &mut budget, undefined: crate::input::Undefined::Reject }
            .copy(message, &crate::input::Path::Root(""), 0)?;
    let (c, problems) = if incoming { session.incoming(&copied) } else { session.outgoing(&copied) };
    let Value::Object(mut out) = c.into_value() else { unreachable!() };
    let problems = problems
        .into_iter()
        .map(|p| {
            let mut o = vec![
                ("code".to_owned(), Value::String(p.code.as_str().to_owned())),
                ("path".to_owned(), Value::String(p.path)),
            ];
            if let Some(id) = p.id {
                o.push(("id".to_owned(), id));
            }
            o.push(("message".to_owned(), Value::String(p.message)));
            Value::Object(o)
        })
        .collect();
    out.push(("problems".to_owned(), Value::Array(problems)));
    Ok(Value::Object(out))
}

// Agent events and the session response. Options: `strict` and the limits.

/// `parseAgentEvent(value, options?)`: the event with its known fields.
pub fn parse_agent_event<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    crate::session::event::parse_agent_event(value, &Options::read_for(options, options_of!("parseAgentEvent"))?)
}

/// `checkEventSequence(events, options?)`: the checked events, or the first problem.
pub fn check_event_sequence<V: HostValue>(events: &V, options: Option<&V>) -> Result<Value> {
    crate::session::sequence::check_event_sequence(
        events,
        &Options::read_for(options, options_of!("checkEventSequence"))?,
    )
}

/// `checkSessionResponse(value, options?)`: the checked response, or the first problem.
pub fn check_session_response<V: HostValue>(value: &V, options: Option<&V>) -> Result<Value> {
    crate::session::response::check_session_response(
        value,
        &Options::read_for(options, options_of!("checkSessionResponse"))?,
    )
}

// The protocol as JSON Schema.

/// `protocolSchemas()`: `{action, decision, message, sessionEntry, event, strict: {action, decision}}`.
pub fn protocol_schemas() -> Value {
    crate::protocol::schemas::protocol_schemas()
}

// Compiled tools: a tool defined once, its compiled schema held by a handle the
// host keeps (`tools::handle`). Options are read first, as everywhere.

#[cfg(feature = "schema")]
/// `defineTool(def, options)` as a handle.
pub fn compile_tool<V: HostValue>(def: &V, options: Option<&V>) -> Result<crate::tools::handle::ToolHandle> {
    crate::tools::handle::ToolHandle::define(def, &Options::read_for(options, options_of!("defineTool"))?)
}

#[cfg(feature = "schema")]
/// `defineToolJson(text, options)` as a handle.
pub fn compile_tool_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<crate::tools::handle::ToolHandle> {
    crate::tools::handle::ToolHandle::define_json(text, &Options::read_for(options, options_of!("defineToolJson"))?)
}

#[cfg(feature = "schema")]
/// `validateToolInput(tool, input, options)` through a handle.
pub fn handle_validate_input<V: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    input: &V,
    options: Option<&V>,
) -> Result<Value> {
    handle.validate_input(input, &Options::read_for(options, options_of!("validateToolInput"))?)
}

#[cfg(feature = "schema")]
/// `validateToolInputJson(tool, text, options)` through a handle.
pub fn handle_validate_input_json<O: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    text: &[u8],
    options: Option<&O>,
) -> Result<Value> {
    handle.validate_input_json(text, &Options::read_for(options, options_of!("validateToolInputJson"))?)
}

#[cfg(feature = "schema")]
/// `handle_validate_input_json`'s verdict alone (the bindings' verdict replies).
pub fn handle_check_input_json<O: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    text: &[u8],
    options: Option<&O>,
) -> Result<()> {
    handle.check_input_json(text, &Options::read_for(options, options_of!("validateToolInputJson"))?)
}

#[cfg(feature = "schema")]
/// `validateToolInputs(tool, inputs, options)` through a handle: one outcome per input.
pub fn handle_validate_inputs<V: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    inputs: &V,
    options: Option<&V>,
) -> Result<Vec<Result<Value>>> {
    let mut out = Vec::new();
    handle_validate_inputs_each(handle, inputs, options, &mut |item| out.push(item))?;
    Ok(out)
}

#[cfg(feature = "schema")]
/// `handle_validate_inputs`, each outcome handed to `sink` as it is made, none kept.
pub fn handle_validate_inputs_each<V: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    inputs: &V,
    options: Option<&V>,
    sink: &mut dyn FnMut(Result<Value>),
) -> Result<()> {
    handle.validate_inputs(inputs, &Options::read_for(options, options_of!("validateToolInputs"))?, sink)
}

#[cfg(feature = "schema")]
/// `handle_validate_inputs_each` with the inputs as one strict JSON text (a list): the text
/// twin of a batch a host wrote as JSON, which holds each accepted input as its own text.
pub fn handle_validate_inputs_json_each<O: HostValue>(
    handle: &crate::tools::handle::ToolHandle,
    text: &[u8],
    options: Option<&O>,
    sink: &mut dyn FnMut(Result<Value>),
) -> Result<()> {
    let options = Options::read_for(options, options_of!("validateToolInputs"))?;
    let inputs = json::parse(text, Mode::Strict, &options.limits)?;
    handle.validate_inputs(&&inputs, &options, sink)
}

#[cfg(feature = "schema")]
/// `validateToolInputs(tool, inputs, options)` for a plain-data tool.
pub fn validate_tool_inputs<V: HostValue>(tool: &V, inputs: &V, options: Option<&V>) -> Result<Vec<Result<Value>>> {
    let mut out = Vec::new();
    validate_tool_inputs_each(tool, inputs, options, &mut |item| out.push(item))?;
    Ok(out)
}

#[cfg(feature = "schema")]
/// `validate_tool_inputs`, each outcome handed to `sink` as it is made, none kept.
pub fn validate_tool_inputs_each<V: HostValue>(
    tool: &V,
    inputs: &V,
    options: Option<&V>,
    sink: &mut dyn FnMut(Result<Value>),
) -> Result<()> {
    crate::tools::handle::validate_tool_inputs(
        tool,
        inputs,
        &Options::read_for(options, options_of!("validateToolInputs"))?,
        sink,
    )
}

#[cfg(feature = "schema")]
/// `createRegistry(tools, options)` as a handle (`tools::handle::RegistryHandle`).
pub fn compile_registry<V: HostValue>(tools: &V, options: Option<&V>) -> Result<crate::tools::handle::RegistryHandle> {
    crate::tools::handle::RegistryHandle::create(tools, &Options::read_for(options, options_of!("createRegistry"))?)
}

#[cfg(feature = "schema")]
/// `checkToolCall(registry, call, policy, options)` with a compiled registry.
pub fn registry_check_tool_call<V: HostValue>(
    registry: &crate::tools::handle::RegistryHandle,
    call: &V,
    policy: &V,
    options: Option<&V>,
) -> Result<Value> {
    registry.check_tool_call(call, policy, &Options::read_for(options, options_of!("checkToolCall"))?)
}

#[cfg(feature = "schema")]
/// The projections and `catalog` of a compiled registry (`project`'s providers; `None`: the catalog).
pub fn registry_project(registry: &crate::tools::handle::RegistryHandle, provider: Option<Provider>) -> Result<Value> {
    let defs = registry.definitions();
    match provider {
        None => Ok(crate::tools::registry::catalog_value(defs)),
        Some(Provider::OpenAi) => crate::tools::projection::openai(defs),
        Some(Provider::OpenAiResponses) => crate::tools::projection::openai_responses(defs),
        Some(Provider::Anthropic) => crate::tools::projection::anthropic(defs),
        Some(Provider::Mcp) => crate::tools::projection::mcp(defs),
        Some(Provider::Gemini) => crate::tools::gemini::gemini(defs),
    }
}

// --- Verdict replies: the same operations, answering with the verdict number of
// what they accepted (`protocol::verdict`) for hosts that build the result from values they hold.

pub fn verdict_shapes() -> Value {
    crate::protocol::verdict::shapes_value()
}

pub fn parse_agent_action_verdict<V: HostValue>(value: &V, options: Option<&V>) -> Result<u32> {
    parse_agent_action(value, options).map(|a| crate::protocol::verdict::action_verdict(&a))
}

pub fn parse_agent_action_json_verdict<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<u32> {
    action::agent_action_json_verdict(text, &Options::read_for(options, options_of!("parseAgentActionJson"))?)
}

pub fn parse_decision_verdict<V: HostValue>(value: &V, options: Option<&V>) -> Result<u32> {
    parse_decision(value, options).map(|d| crate::protocol::verdict::decision_verdict(&d))
}

pub fn parse_decision_json_verdict<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<u32> {
    crate::protocol::decision::decision_json_verdict(
        text,
        &Options::read_for(options, options_of!("parseDecisionJson"))?,
    )
}

// Dataset rows (`dataset`): the OpenAI chat fine-tuning format. Options: `strict` (unknown fields
// reported), `maxIssues` (most problems in one row's report) and the limits (of each row).

#[cfg(feature = "schema")]
/// `checkChatRow(row, options?)`: one row's report `{ok, problems, stats}`. A string row is the
/// row's JSON text; any other value is the row itself. Fails only on options.
pub fn check_chat_row<V: HostValue>(row: &V, options: Option<&V>) -> Result<Value> {
    let options = Options::read_for(options, options_of!("checkChatRow"))?;
    Ok(crate::dataset::chat_row::check_host_row(row, &options, &mut Default::default()))
}

#[cfg(feature = "schema")]
/// `checkChatRow` for a row given as JSON text (a string or bytes: the hosts' text argument).
pub fn check_chat_row_json<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    let options = Options::read_for(options, options_of!("checkChatRow"))?;
    Ok(crate::dataset::chat_row::check_row_text(text, &options, &mut Default::default()))
}

#[cfg(feature = "schema")]
/// `checkChatRows(rows, options?)`: one report per row of a list, the rows' tool schemas compiled
/// once for the whole batch.
pub fn check_chat_rows<V: HostValue>(rows: &V, options: Option<&V>) -> Result<Value> {
    crate::dataset::check_chat_rows(rows, &Options::read_for(options, options_of!("checkChatRows"))?)
}

#[cfg(feature = "schema")]
/// `check_chat_rows`'s reply text, each report written out as soon as it is made (the bindings'
/// form: the reports are never all held as values).
pub fn check_chat_rows_reply<V: HostValue>(rows: &V, options: Option<&V>) -> String {
    crate::wire::array_reply(|each| {
        let options = Options::read_for(options, options_of!("checkChatRows"))?;
        crate::dataset::chat_rows_reports(rows, &options, each)
    })
}

#[cfg(feature = "schema")]
/// `check_chat_rows_jsonl`'s reply text, as `check_chat_rows_reply`.
pub fn check_chat_rows_jsonl_reply<O: HostValue>(text: &[u8], options: Option<&O>) -> String {
    crate::wire::array_reply(|each| {
        let options = Options::read_for(options, options_of!("checkChatRowsJsonl"))?;
        crate::dataset::chat_rows_jsonl_reports(text, &options, each)
    })
}

#[cfg(feature = "schema")]
/// `checkChatRowsJsonl(text, options?)`: one report per line (`{line, ok, problems, stats}`), a
/// line that is not a row reported as such; the batch never stops at a bad line.
pub fn check_chat_rows_jsonl<O: HostValue>(text: &[u8], options: Option<&O>) -> Result<Value> {
    crate::dataset::check_chat_rows_jsonl(text, &Options::read_for(options, options_of!("checkChatRowsJsonl"))?)
}
