//! The one error type of the project.
//!
//! Every rule reports through `ContractError`: a closed `Layer`, a stable `Code`, a JSON Pointer
//! `path` to the offending place, a human message and whether asking the producer again may help.
//! Text inputs additionally carry the byte offset, line and column where parsing stopped.
//! Hosts translate this struct field by field; they never invent codes of their own.

use std::fmt;

/// Where in the pipeline a verdict was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The bytes are not one strict JSON value (or a host value is not representable as JSON).
    Parse,
    /// A well-formed value that is not a valid agent action.
    Protocol,
    /// A tool definition that breaks the tool contract.
    Contract,
    /// The connection to the provider failed (reserved for the provider adapters).
    Transport,
    /// A provider event stream that does not assemble into an executable response (the stream
    /// assembler, `stream::assembler`).
    Stream,
    /// A well-formed value that does not have the shape it must: a decision (seed 002 §8.2), a
    /// tool input against its tool's `inputSchema`.
    Schema,
    /// A well-formed tool call the application refuses (unknown tool, policy: `checkToolCall`).
    Domain,
    // ACP prompt admission and lifecycle:
    /// A client's ACP `session/prompt` request the agent refuses at its boundary, or a prompt
    /// lifecycle call out of order (`acp`). Never retryable: the client or the host program
    /// must change what it sends.
    Admission,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Parse => "parse",
            Layer::Protocol => "protocol",
            Layer::Contract => "contract",
            Layer::Transport => "transport",
            Layer::Stream => "stream",
            Layer::Schema => "schema",
            Layer::Domain => "domain",
            Layer::Admission => "admission",
        }
    }
}

macro_rules! codes {
    ($($name:ident => $text:literal, $layer:ident, $retryable:literal;)*) => {
        /// Stable error codes. `docs/errors.md` lists each with its meaning; the strings never change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Code { $($name),* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$name),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => $text),* }
            }

            /// The layer a code is reported in, unless the rule says otherwise: the `FIELD_*`
            /// codes are shared by actions (protocol) and tool definitions (contract).
            pub fn default_layer(self) -> Layer {
                match self { $(Code::$name => Layer::$layer),* }
            }

            /// Whether asking the producer (usually the model) again may succeed, for errors in
            /// model output. Contract errors are never retryable: a developer must fix the tool.
            pub fn retryable_default(self) -> bool {
                match self { $(Code::$name => $retryable),* }
            }
        }
    };
}

codes! {
    JsonInvalid => "JSON_INVALID", Parse, true;
    JsonTrailingContent => "JSON_TRAILING_CONTENT", Parse, true;
    JsonDuplicateKey => "JSON_DUPLICATE_KEY", Parse, true;
    StringLoneSurrogate => "STRING_LONE_SURROGATE", Parse, true;
    ValueNotJson => "VALUE_NOT_JSON", Parse, false;
    ValueCycle => "VALUE_CYCLE", Parse, false;
    InputTooLarge => "INPUT_TOO_LARGE", Parse, false;
    InputTooDeep => "INPUT_TOO_DEEP", Parse, false;
    ActionNotObject => "ACTION_NOT_OBJECT", Protocol, true;
    ActionTypeUnknown => "ACTION_TYPE_UNKNOWN", Protocol, true;
    ActionInputMissing => "ACTION_INPUT_MISSING", Protocol, true;
    ActionFieldUnknown => "ACTION_FIELD_UNKNOWN", Protocol, true;
    ActionVersionUnsupported => "ACTION_VERSION_UNSUPPORTED", Protocol, false;
    FieldMissing => "FIELD_MISSING", Protocol, true;
    FieldUndefined => "FIELD_UNDEFINED", Protocol, true;
    FieldType => "FIELD_TYPE", Protocol, true;
    FieldEmpty => "FIELD_EMPTY", Protocol, true;
    ToolNotObject => "TOOL_NOT_OBJECT", Contract, false;
    ToolNameInvalid => "TOOL_NAME_INVALID", Contract, false;
    ToolDescriptionEmpty => "TOOL_DESCRIPTION_EMPTY", Contract, false;
    ToolSchemaNotObject => "TOOL_SCHEMA_NOT_OBJECT", Contract, false;
    ToolPermissionUnknown => "TOOL_PERMISSION_UNKNOWN", Contract, false;
    ToolPermissionDuplicate => "TOOL_PERMISSION_DUPLICATE", Contract, false;
    ToolPermissionConflict => "TOOL_PERMISSION_CONFLICT", Contract, false;
    ToolVersionInvalid => "TOOL_VERSION_INVALID", Contract, false;
    ToolFieldUnknown => "TOOL_FIELD_UNKNOWN", Contract, false;
    OptionInvalid => "OPTION_INVALID", Contract, false;
    DecisionNotObject => "DECISION_NOT_OBJECT", Schema, true;
    DecisionKindUnknown => "DECISION_KIND_UNKNOWN", Schema, true;
    DecisionFieldUnknown => "DECISION_FIELD_UNKNOWN", Schema, true;
    DecisionTooManyCalls => "DECISION_TOO_MANY_CALLS", Schema, true;
    DuplicateCallId => "DUPLICATE_CALL_ID", Schema, true;
    AmbiguousDecision => "AMBIGUOUS_DECISION", Schema, true;
    ToolSchemaInvalid => "TOOL_SCHEMA_INVALID", Contract, false;
    ToolSchemaUnsupported => "TOOL_SCHEMA_UNSUPPORTED", Contract, false;
    ToolSchemaRootNotObject => "TOOL_SCHEMA_ROOT_NOT_OBJECT", Contract, false;
    SchemaTargetUnsupported => "SCHEMA_TARGET_UNSUPPORTED", Contract, false;
    SchemaMismatch => "SCHEMA_MISMATCH", Schema, true;
    ToolDuplicate => "TOOL_DUPLICATE", Contract, false;
    RegistryInvalid => "REGISTRY_INVALID", Contract, false;
    PolicyInvalid => "POLICY_INVALID", Contract, false;
    ActionNotToolCall => "ACTION_NOT_TOOL_CALL", Protocol, true;
    UnknownTool => "UNKNOWN_TOOL", Domain, true;
    PolicyDenied => "POLICY_DENIED", Domain, false;
    ApprovalRequired => "APPROVAL_REQUIRED", Domain, false;
    NonMonotonicSequence => "NON_MONOTONIC_SEQUENCE", Stream, true;
    UnknownStreamItem => "UNKNOWN_STREAM_ITEM", Stream, true;
    DuplicateStreamItem => "DUPLICATE_STREAM_ITEM", Stream, true;
    DeltaAfterEnd => "DELTA_AFTER_END", Stream, true;
    ToolNameChanged => "TOOL_NAME_CHANGED", Stream, true;
    ArgumentsTooLarge => "ARGUMENTS_TOO_LARGE", Stream, true;
    IncompleteToolCall => "INCOMPLETE_TOOL_CALL", Stream, true;
    IncompleteResponse => "INCOMPLETE_RESPONSE", Stream, true;
    EventAfterFinish => "EVENT_AFTER_FINISH", Stream, true;
    StreamEventInvalid => "STREAM_EVENT_INVALID", Stream, true;
    CallTypeUnsupported => "CALL_TYPE_UNSUPPORTED", Stream, false;
    ProviderUnknown => "PROVIDER_UNKNOWN", Contract, false;
    // Messages and sessions (seed 004)
    FieldUnknown => "FIELD_UNKNOWN", Protocol, true;
    FieldValueInvalid => "FIELD_VALUE_INVALID", Protocol, true;
    MessageRoleUnknown => "MESSAGE_ROLE_UNKNOWN", Protocol, true;
    ContentTypeUnknown => "CONTENT_TYPE_UNKNOWN", Protocol, true;
    EntryTypeUnknown => "ENTRY_TYPE_UNKNOWN", Protocol, false;
    SessionLineBlank => "SESSION_LINE_BLANK", Protocol, false;
    SessionHeaderMissing => "SESSION_HEADER_MISSING", Protocol, false;
    SessionHeaderMisplaced => "SESSION_HEADER_MISPLACED", Protocol, false;
    SessionVersionUnsupported => "SESSION_VERSION_UNSUPPORTED", Protocol, false;
    EntryIdDuplicate => "ENTRY_ID_DUPLICATE", Protocol, false;
    EntryParentMissing => "ENTRY_PARENT_MISSING", Protocol, false;
    CompactionTargetInvalid => "COMPACTION_TARGET_INVALID", Protocol, false;
    ToolResultUnmatched => "TOOL_RESULT_UNMATCHED", Protocol, false;
    ToolResultDuplicate => "TOOL_RESULT_DUPLICATE", Protocol, false;
    ToolResultNameMismatch => "TOOL_RESULT_NAME_MISMATCH", Protocol, false;
    SessionEntryUnknown => "SESSION_ENTRY_UNKNOWN", Protocol, false;
    // ACP prompt admission and lifecycle:
    // CONTENT_TYPE_UNKNOWN (above, with messages) is also admission's: its default layer is
    // protocol, admission sets its own.
    CapabilityNotAdvertised => "CAPABILITY_NOT_ADVERTISED", Admission, false;
    MediaTypeNotAllowed => "MEDIA_TYPE_NOT_ALLOWED", Admission, false;
    Base64NotCanonical => "BASE64_NOT_CANONICAL", Admission, false;
    MediaTypeMismatch => "MEDIA_TYPE_MISMATCH", Admission, false;
    PromptEmpty => "PROMPT_EMPTY", Admission, false;
    PromptInFlight => "PROMPT_IN_FLIGHT", Admission, false;
    PromptCancelled => "PROMPT_CANCELLED", Admission, false;
    PromptStateInvalid => "PROMPT_STATE_INVALID", Admission, false;
    PromptNotQuiescent => "PROMPT_NOT_QUIESCENT", Admission, false;
    // JSON-RPC over NDJSON (`rpc`): the codes of invalid messages, frames and
    // conversation problems (docs/errors.md gives the JSON-RPC code each maps to).
    RpcParseError => "RPC_PARSE_ERROR", Protocol, false;
    RpcInvalidRequest => "RPC_INVALID_REQUEST", Protocol, false;
    RpcInvalidResponse => "RPC_INVALID_RESPONSE", Protocol, false;
    RpcMessageTooLarge => "RPC_MESSAGE_TOO_LARGE", Transport, false;
    RpcBlankLine => "RPC_BLANK_LINE", Transport, false;
    RpcIdInFlight => "RPC_ID_IN_FLIGHT", Protocol, false;
    RpcUnknownId => "RPC_UNKNOWN_ID", Protocol, false;
    RpcAlreadyAnswered => "RPC_ALREADY_ANSWERED", Protocol, false;
    RpcReplyToNotification => "RPC_REPLY_TO_NOTIFICATION", Protocol, false;
    RpcTooManyInFlight => "RPC_TOO_MANY_IN_FLIGHT", Protocol, false;
    // Shared schema documents
    ToolResourceInvalid => "TOOL_RESOURCE_INVALID", Contract, false;
    ToolResourceUnbundlable => "TOOL_RESOURCE_UNBUNDLABLE", Contract, false;
    // Agent events and the session response
    EventTypeUnknown => "EVENT_TYPE_UNKNOWN", Protocol, true;
    EventSequenceInvalid => "EVENT_SEQUENCE_INVALID", Protocol, false;
    EventMessageUnknown => "EVENT_MESSAGE_UNKNOWN", Protocol, false;
    // Compiled tools
    ToolHandleFreed => "TOOL_HANDLE_FREED", Contract, false;
    // A stateful object (an assembler, a decoder, a session...) used after it was freed
    ObjectFreed => "OBJECT_FREED", Contract, false;
    // A stateful object used from a thread other than its own (Python: a wasm store is
    // single-threaded)
    ObjectOtherThread => "OBJECT_OTHER_THREAD", Contract, false;
    // A stateful object's method called while another of its methods runs (JS: from a getter of
    // the value that method reads)
    ObjectInUse => "OBJECT_IN_USE", Contract, false;
    // Dataset rows (`dataset::chat_row`): problems of training data, never the model's to retry
    RowFieldInvalid => "ROW_FIELD_INVALID", Protocol, false;
    RowFieldUnknown => "ROW_FIELD_UNKNOWN", Protocol, false;
    RowRoleUnknown => "ROW_ROLE_UNKNOWN", Protocol, false;
    RowContentInvalid => "ROW_CONTENT_INVALID", Protocol, false;
    RowWeightInvalid => "ROW_WEIGHT_INVALID", Protocol, false;
    RowLegacyFunctions => "ROW_LEGACY_FUNCTIONS", Protocol, false;
    RowToolNameInvalid => "ROW_TOOL_NAME_INVALID", Protocol, false;
    RowToolDuplicate => "ROW_TOOL_DUPLICATE", Protocol, false;
    RowToolSchemaInvalid => "ROW_TOOL_SCHEMA_INVALID", Protocol, false;
    RowToolUnknown => "ROW_TOOL_UNKNOWN", Protocol, false;
    RowArgumentsInvalid => "ROW_ARGUMENTS_INVALID", Protocol, false;
    RowArgumentsMismatch => "ROW_ARGUMENTS_MISMATCH", Protocol, false;
    RowCallIdDuplicate => "ROW_CALL_ID_DUPLICATE", Protocol, false;
    RowToolResultUnmatched => "ROW_TOOL_RESULT_UNMATCHED", Protocol, false;
    RowCallUnanswered => "ROW_CALL_UNANSWERED", Protocol, false;
    RowParallelCalls => "ROW_PARALLEL_CALLS", Protocol, false;
    RowLineBlank => "ROW_LINE_BLANK", Protocol, false;
}

/// Where a text input stopped being acceptable: byte offset (0-based), line and column (1-based,
/// column counted in bytes, like serde_json).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// Computes line and column for `offset` in `bytes`. Only called on the error path.
    pub fn locate(bytes: &[u8], offset: usize) -> Position {
        let offset = offset.min(bytes.len());
        let before = &bytes[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Position { offset, line, column: offset - line_start + 1 }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError {
    pub layer: Layer,
    pub code: Code,
    /// JSON Pointer (RFC 6901) to the offending value; `""` is the root.
    pub path: String,
    pub message: String,
    /// Set for errors found in text input.
    pub position: Option<Position>,
    /// `SCHEMA_MISMATCH`: every failure of the input against the schema (never empty then).
    pub issues: Vec<Issue>,
    /// `UNKNOWN_TOOL`: the registered names closest to the unknown one (at most 20).
    pub available_tools: Option<Vec<String>>,
    /// `APPROVAL_REQUIRED`: the `request_approval` action a host may put to a human.
    pub proposal: Option<Approval>,
    /// `SCHEMA_MISMATCH`: `issues` holds the first `maxIssues` only (or, when listing every
    /// failure would cost more than the engine may spend, one issue for the whole input).
    pub truncated: bool,
}

/// A `request_approval` proposal (the protocol's action of that type): a proposal, never an
/// authorisation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approval {
    pub request_id: String,
    pub capability: String,
    pub resource: String,
    pub reason: String,
}

/// One failure of a tool input against its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// JSON Pointer into the input (for `required`, the missing property's pointer).
    pub path: String,
    /// The JSON Schema keyword that failed (`type`, `required`, `additionalProperties`...).
    pub keyword: String,
    pub message: String,
}

impl ContractError {
    pub fn new(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        ContractError {
            layer: code.default_layer(),
            code,
            path: path.into(),
            message: message.into(),
            position: None,
            issues: Vec::new(),
            available_tools: None,
            proposal: None,
            truncated: false,
        }
    }

    pub fn in_layer(mut self, layer: Layer) -> Self {
        self.layer = layer;
        self
    }

    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    pub fn with_issues(mut self, issues: Vec<Issue>) -> Self {
        self.issues = issues;
        self
    }

    pub fn retryable(&self) -> bool {
        self.layer != Layer::Contract && self.layer != Layer::Admission && self.code.retryable_default()
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(p) = self.position {
            write!(f, " at line {} column {} (byte {})", p.line, p.column, p.offset)?;
        }
        Ok(())
    }
}

impl std::error::Error for ContractError {}

pub type Result<T> = std::result::Result<T, ContractError>;
