//! The operation table: every public operation and stateful object of the library, listed once.
//!
//! A row says what a host needs to expose an operation: its name, the kinds of its arguments,
//! which options it reads, the kind of its reply, whether hosts also give a `safe` form, and
//! whether it needs the `schema` feature (the protocol entry lacks those). The JS name is the
//! row's name; Python's is its snake_case (`python_name`), the component's its kebab-case
//! (`wit_name`). Host conveniences built over rows (the Standard Schema object, the SSE
//! helpers, loading the wasm) are rows too, of kind `Reply::Host`, so that every public name
//! of every host is accounted for here. The npm entries' name lists are generated from it
//! (`scripts/package-js.mjs`); `tests/operation_table.rs` holds each hand-written list
//! (`pkg/index.d.ts`, Python's `__all__`, the WIT world) against it in both directions.
//!
//! Adding an operation: its rule in its core module, its function in `api`, its row here, its
//! types in each host, its fixtures. `docs/architecture.md`, "Adding an operation", has the
//! whole recipe.

/// What one argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A host value, read by the rules through `input::HostValue`.
    Value,
    /// JSON text: a string, or bytes the core checks as UTF-8.
    Text,
    /// Bytes that are not text (`sniffMediaType`).
    Bytes,
    /// A defined tool: the value `defineTool` returned (the host may hold its compiled form).
    Tool,
    /// A created registry: the value `createRegistry` returned (the same).
    Registry,
    /// A name from a closed set the core checks (a provider, a target draft).
    Name,
}

/// Which options an operation reads (the core reads and checks them; `input::options`,
/// `rpc::options`, `stream`, `acp::admission`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// Takes no options.
    None,
    /// `strict` and the limits (actions, tool calls, seed tools).
    Rules,
    /// `Rules` and the catalog options `names` and `formats` (defining tools and registries).
    Tool,
    /// `Rules` and `names` (reading a defined tool again to validate an input).
    ToolRead,
    /// The limits (`parseJson`, `normalizeToolResult`).
    Json,
    /// The limits and `maxCalls`.
    Decision,
    /// `maxArgumentsBytes`, `maxResponseBytes` and the limits.
    Stream,
    /// `strict`, the limits, `maxIssues` and `dialect`.
    Session,
    /// The JSON-RPC classification options.
    RpcClassify,
    /// The NDJSON decoder's options (`maxLineBytes`, `onMalformed`, ...).
    RpcDecoder,
    /// The connection's options.
    RpcSession,
    /// ACP prompt admission's options (MIME allowlist, payload limits).
    Admission,
}

/// What a call answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A value, or a `ContractError`.
    Value,
    /// On success only a verdict (an index into the result shapes), the host building the
    /// result from what it already holds (`protocol::verdict`); else the error.
    Verdict,
    /// On success nothing: the core accepted the caller's text as one JSON value and the host
    /// parses its own text; else the error.
    TextVerdict,
    /// One outcome per item; the call itself fails only when the list does.
    Batch,
    /// A report of every problem in the input; fails only on options.
    Report,
    /// `true` or `false`, never an error.
    Bool,
    /// A stateful object (a row of `OBJECTS`).
    Object(&'static str),
    /// A host convenience over the rows it names; the host writes it, the core decides nothing
    /// new in it.
    Host(&'static [&'static str]),
}

/// One public operation.
#[derive(Clone, Copy, Debug)]
pub struct Operation {
    /// The JS name (camelCase).
    pub name: &'static str,
    pub args: &'static [Arg],
    pub options: OptionKind,
    pub reply: Reply,
    /// Hosts also give `safe<Name>`, answering `{ok: true, value} | {ok: false, error}`.
    pub safe: bool,
    /// Needs the `schema` feature (tool contracts and the schema engine).
    pub schema: bool,
    /// Which hosts have it; hosts that lack it are named in `hosts`'s doc.
    pub hosts: Hosts,
    /// The row taking the same input as JSON text, whose success reply is shorter (a verdict).
    /// A host that writes a value as text may send text that is strict JSON to this row
    /// instead, with the same options: when the text row accepts it, its result is this row's
    /// (a value without markers is exactly its JSON). Its errors may differ (they speak of
    /// text), so on an error the host asks this row.
    pub text_twin: Option<&'static str>,
}

/// The hosts a row is public in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    All,
    /// JS only: loading the wasm, Web Streams, the Standard Schema object, the memory report.
    Js,
    /// Python only: its iterator helpers and `checkSessions`.
    Python,
}

/// One stateful object: the operation that makes it and its methods (JS names).
#[derive(Clone, Copy, Debug)]
pub struct Object {
    pub name: &'static str,
    pub methods: &'static [&'static str],
}

const fn op(name: &'static str, args: &'static [Arg], options: OptionKind, reply: Reply) -> Operation {
    Operation { name, args, options, reply, safe: false, schema: false, hosts: Hosts::All, text_twin: None }
}

impl Operation {
    const fn safe(mut self) -> Self {
        self.safe = true;
        self
    }
    const fn schema(mut self) -> Self {
        self.schema = true;
        self
    }
    const fn only(mut self, hosts: Hosts) -> Self {
        self.hosts = hosts;
        self
    }
    const fn text_twin(mut self, name: &'static str) -> Self {
        self.text_twin = Some(name);
        self
    }

    /// The name in Python: snake_case, with `OpenAI` as one word.
    pub fn python_name(&self) -> String {
        snake_case(self.name)
    }

    /// The name in the component's world: kebab-case of the Python name.
    pub fn wit_name(&self) -> String {
        snake_case(self.name).replace('_', "-")
    }

    /// Whether its function in the component's world is a verdict function, answering a success
    /// with the verdict alone (`result<u32, string>`): a verdict on the caller's text, which
    /// the host parses itself.
    pub fn wit_verdict(&self) -> bool {
        matches!(self.reply, Reply::Verdict | Reply::TextVerdict) && self.args.iter().any(|a| matches!(a, Arg::Text))
    }
}

/// `toOpenAIResponsesTools` → `to_openai_responses_tools`.
pub fn snake_case(name: &str) -> String {
    let name = name.replace("OpenAI", "Openai");
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

use crate::input::options::OptionSet;
use Arg::{Bytes, Name, Registry, Text, Tool, Value};
use OptionKind as O;

/// Every public operation.
pub const OPERATIONS: &[Operation] = &[
    // What a model produces: actions, decisions, strict JSON.
    op("parseAgentAction", &[Value], O::Rules, Reply::Verdict).safe().text_twin("parseAgentActionJson"),
    op("parseAgentActionJson", &[Text], O::Rules, Reply::Verdict).safe(),
    op("parseAgentActions", &[Value], O::Rules, Reply::Batch),
    op("parseAgentActionsJsonl", &[Text], O::Rules, Reply::Batch),
    op("previewAction", &[Value], O::Rules, Reply::Value),
    op("parseJson", &[Text], O::Json, Reply::TextVerdict).safe(),
    op("parseDecision", &[Value], O::Decision, Reply::Verdict).safe().text_twin("parseDecisionJson"),
    op("parseDecisionJson", &[Text], O::Decision, Reply::Verdict).safe(),
    // Tool contracts and the tool-call pipeline.
    op("defineTool", &[Value], O::Tool, Reply::Value).safe().schema(),
    op("defineToolJson", &[Text], O::Tool, Reply::Value).safe().schema(),
    op("validateToolInput", &[Tool, Value], O::ToolRead, Reply::Value)
        .safe()
        .schema()
        .text_twin("validateToolInputJson"),
    op("validateToolInputJson", &[Tool, Text], O::ToolRead, Reply::TextVerdict).safe().schema(),
    op("validateToolInputs", &[Tool, Value], O::ToolRead, Reply::Batch).schema(),
    op("createRegistry", &[Value], O::Tool, Reply::Value).safe().schema(),
    op("catalog", &[Registry], O::None, Reply::Value).schema(),
    op("definePolicy", &[Value], O::None, Reply::Value).safe().schema(),
    op("checkToolCall", &[Registry, Value, Value], O::Rules, Reply::Value).safe().schema(),
    op("toOpenAITools", &[Registry], O::None, Reply::Value).schema(),
    op("toOpenAIResponsesTools", &[Registry], O::None, Reply::Value).schema(),
    op("toAnthropicTools", &[Registry], O::None, Reply::Value).schema(),
    op("toMcpTools", &[Registry], O::None, Reply::Value).schema(),
    op("toGeminiTools", &[Registry], O::None, Reply::Value).schema(),
    op("normalizeToolResult", &[Tool, Value], O::Json, Reply::Value).schema(),
    op("strictSchemaIssues", &[Value], O::None, Reply::Value).schema(),
    op("geminiSchemaIssues", &[Value], O::None, Reply::Value).schema(),
    op("jsonSchemaForTarget", &[Value, Name], O::None, Reply::Value).schema(),
    op("standardJsonSchema", &[Value, Name], O::None, Reply::Value).schema(),
    op("compareContracts", &[Tool, Tool], O::None, Reply::Value).schema(),
    op("diffCatalogs", &[Registry, Registry], O::None, Reply::Value).schema(),
    // MCP's tool messages (the host modules `mcp` compose these with the rows above).
    op("mcpToolDefinitions", &[Value], O::None, Reply::Value).schema(),
    op("checkMcpToolResult", &[Tool, Value], O::Json, Reply::Value).schema(),
    op("toStandardSchema", &[Tool], O::None, Reply::Host(&["validateToolInput", "standardJsonSchema"]))
        .schema()
        .only(Hosts::Js),
    // Provider streams.
    op("createAssembler", &[], O::Stream, Reply::Object("Assembler")),
    op("createProviderAssembler", &[Name], O::Stream, Reply::Object("ProviderAssembler")),
    op("assembleProviderStream", &[Name, Value], O::Stream, Reply::Value).safe(),
    op("providerResponseStream", &[Name], O::Stream, Reply::Host(&["createProviderAssembler"])).only(Hosts::Js),
    op("assembleSseLines", &[Name, Value], O::Stream, Reply::Host(&["createProviderAssembler"])).only(Hosts::Python),
    op("assembleSseLinesAsync", &[Name, Value], O::Stream, Reply::Host(&["createProviderAssembler"]))
        .only(Hosts::Python),
    // Messages and sessions.
    op("parseAgentMessage", &[Value], O::Session, Reply::Value).safe(),
    op("parseAgentMessageJson", &[Text], O::Session, Reply::Value).safe(),
    op("parseToolResult", &[Value], O::Session, Reply::Value).safe(),
    op("parseSessionEntry", &[Value], O::Session, Reply::Value).safe(),
    op("checkSession", &[Text], O::Session, Reply::Report),
    op("readSession", &[Text], O::Session, Reply::Object("Session")).safe(),
    op("querySession", &[Value, Text], O::Session, Reply::Value),
    op("createSessionChecker", &[], O::Session, Reply::Object("SessionChecker")),
    op("fromSeedTool", &[Value, Value], O::Rules, Reply::Value).schema(),
    op("toSeedTool", &[Tool], O::None, Reply::Value).schema(),
    op("parseAgentEvent", &[Value], O::Session, Reply::Value).safe(),
    op("checkEventSequence", &[Value], O::Session, Reply::Value).safe(),
    op("checkSessionResponse", &[Value], O::Session, Reply::Value).safe(),
    op("protocolSchemas", &[], O::None, Reply::Value),
    op("checkSessions", &[Value], O::Session, Reply::Host(&["checkSession"])).only(Hosts::Python),
    // Dataset rows: the OpenAI chat fine-tuning format.
    op("checkChatRow", &[Value], O::Rules, Reply::Report).schema(),
    op("checkChatRows", &[Value], O::Rules, Reply::Batch).schema(),
    op("checkChatRowsJsonl", &[Text], O::Rules, Reply::Batch).schema(),
    // The ACP edge.
    op("admitPrompt", &[Value, Value], O::Admission, Reply::Value).safe(),
    op("isCanonicalBase64", &[Value], O::None, Reply::Bool),
    op("sniffMediaType", &[Bytes], O::None, Reply::Value),
    op("advertisePromptCapabilities", &[Value], O::None, Reply::Value),
    op("createPromptLifecycle", &[], O::None, Reply::Object("PromptLifecycle")),
    // JSON-RPC 2.0 over NDJSON.
    op("classifyJsonRpc", &[Value], O::RpcClassify, Reply::Value),
    op("classifyJsonRpcJson", &[Text], O::RpcClassify, Reply::Value),
    op("methodNotFound", &[Value], O::None, Reply::Value),
    op("internalError", &[Value, Value], O::None, Reply::Value),
    op("invalidParams", &[Value, Value], O::None, Reply::Value),
    op("createNdjsonDecoder", &[], O::RpcDecoder, Reply::Object("NdjsonDecoder")),
    op("ndjsonFrames", &[Value], O::RpcDecoder, Reply::Host(&["createNdjsonDecoder"])),
    op("ndjsonFramesAsync", &[Value], O::RpcDecoder, Reply::Host(&["createNdjsonDecoder"])),
    op("checkStdoutPurity", &[Text], O::RpcDecoder, Reply::Report),
    op("createRpcSession", &[], O::RpcSession, Reply::Object("RpcSession")),
    // Loading and the memory bound (JS: the wasm is loaded by the entry point).
    op("init", &[Value], O::None, Reply::Host(&[])).only(Hosts::Js),
    op("initSync", &[Value], O::None, Reply::Host(&[])).only(Hosts::Js),
    op("memoryReport", &[], O::None, Reply::Host(&[])).only(Hosts::Js),
];

/// Every stateful object and its methods (JS names; Python's are their snake_case). Each has
/// `free()` in JS, and `close()` / a context manager / a finaliser in Python.
pub const OBJECTS: &[Object] = &[
    Object { name: "Assembler", methods: &["push", "preview", "finish"] },
    Object { name: "ProviderAssembler", methods: &["push", "pushSse", "preview", "finish"] },
    Object { name: "SessionChecker", methods: &["push", "finish"] },
    Object { name: "Session", methods: &["leaves", "branch", "children", "context"] },
    Object {
        name: "PromptLifecycle",
        methods: &["admitted", "written", "enqueue", "cancel", "agentIdle", "outputDelivered", "settle", "abandon"],
    },
    Object { name: "NdjsonDecoder", methods: &["push", "end", "bufferedBytes"] },
    Object { name: "RpcSession", methods: &["incoming", "outgoing"] },
];

/// Exports the hosts' own code calls and users never see: the entropy seed, the verdict
/// shapes, the errors for arguments that are not text or bytes, the table itself, the
/// instance's memory size (the memory policy of a host that cannot read the memory itself), and
/// the words of the MCP modules' validators.
pub const HOST_SUPPORT: &[&str] = &[
    "seed",
    "verdictShapes",
    "notText",
    "notBytes",
    "describe",
    "memoryBytes",
    "mcpValidatorWording",
    "mcpFailureLine",
];

/// The option set row `name` reads its options with (`input::options`). The core's functions
/// read a row's options through this (`api::options_of!`), so the table cannot say one thing and
/// the core do another. Evaluated at compile time: a name that is no row, or a row whose options
/// another reader reads (JSON-RPC, admission), does not compile.
pub const fn options_of(name: &str) -> OptionSet {
    let mut i = 0;
    while i < OPERATIONS.len() {
        let op = &OPERATIONS[i];
        if same(op.name, name) {
            return match op.options {
                OptionKind::Rules => OptionSet::Rules,
                OptionKind::Tool => OptionSet::Tool,
                OptionKind::ToolRead => OptionSet::ToolRead,
                OptionKind::Json => OptionSet::Json,
                OptionKind::Decision => OptionSet::Decision,
                OptionKind::Stream => OptionSet::Stream,
                OptionKind::Session => OptionSet::Session,
                _ => panic!("this row's options are not read by input::options"),
            };
        }
        i += 1;
    }
    panic!("no row of this name")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The row of a public name, if any (`safe<Name>` gives its operation's row).
pub fn find(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|o| o.name == name).or_else(|| {
        let rest = name.strip_prefix("safe")?;
        let mut chars = rest.chars();
        let first = chars.next()?.to_ascii_lowercase();
        let base: String = std::iter::once(first).chain(chars).collect();
        OPERATIONS.iter().find(|o| o.safe && o.name == base)
    })
}

/// An object a host holds for a row's work, which users do not call directly, and the rows
/// whose component form is that object's constructor.
#[derive(Clone, Copy, Debug)]
pub struct HostObject {
    pub name: &'static str,
    pub makes: &'static [&'static str],
}

/// A defined tool's compiled schema (a `Tool` in Python; in JS the frozen definition's handle),
/// a created registry, and the incremental stdout check behind `checkStdoutPurity`.
pub const HOST_OBJECTS: &[HostObject] = &[
    HostObject { name: "CompiledTool", makes: &["defineTool", "defineToolJson"] },
    HostObject { name: "CompiledRegistry", makes: &["createRegistry"] },
    HostObject { name: "StdoutPurity", makes: &["checkStdoutPurity"] },
];

/// A module of its own a host writes over rows, for one protocol's messages (JS: the package
/// subpath `agent-contract/<name>`; Python: `agent_contract.<name>`). Its functions are not
/// rows: they decide nothing, reading a caller's value only through a row's copy and calling
/// only the rows listed (`tests/operation_table.rs` holds both modules to this).
#[derive(Clone, Copy, Debug)]
pub struct HostModule {
    pub name: &'static str,
    /// Its public functions and values (JS names; Python's are their snake_case).
    pub functions: &'static [&'static str],
    /// The rows it calls (or their safe forms).
    pub rows: &'static [&'static str],
}

/// The MCP module: the TypeScript SDK's `jsonSchemaValidator`, and registries, tools/call
/// params and results checked for MCP messages.
pub const HOST_MODULES: &[HostModule] = &[HostModule {
    name: "mcp",
    functions: &["createMcpValidator", "jsonSchemaValidator", "fromMcpTools", "checkMcpToolCall", "checkMcpToolResult"],
    rows: &[
        "defineTool",
        "validateToolInput",
        "createRegistry",
        "definePolicy",
        "checkToolCall",
        "mcpToolDefinitions",
        "checkMcpToolResult",
    ],
}];
