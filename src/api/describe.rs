//! `describe()`: what a host asks the core instead of holding its own copy: the version, the
//! limits (defaults and ceilings), the memory policy a host applies to its instances, the
//! projection kinds, the operation table, and (with the schema engine) what the hosts' MCP
//! modules pass and keep. A constant a host needs lives here once.

use super::table::{Arg, Hosts, OptionKind, Reply, OBJECTS, OPERATIONS};
use crate::input::limits as l;
use crate::value::{Number, Value};

/// How a host keeps a wasm instance's memory bounded. A wasm memory never shrinks, so a host
/// replaces an instance that a call left over `renew_after_bytes` (every call then starts in
/// an instance of at most that much), and before a call that may need more room than the
/// instance has left under `bound`, it starts the call in a fresh instance. What a call may
/// need: `need_per_char` bytes per character of its arguments (the core holds the value and the
/// result it builds: 1 MB of numbers took +42 MiB), or for a batch `batch_item_bytes` per item
/// (its reply is written item by item: 65,535 failed items took 40-43 MiB), at most
/// `batch_items_max` items. docs/decisions.md, "The memory bound", has the measurements.
///
/// Reading the memory's size costs a host whose calls are cheap (Python) a crossing, so such a
/// host checks it after a call whose arguments held at least `check_from_chars` characters and
/// after every `check_every` calls: shorter arguments grow the memory by ~11 MiB at most (a
/// schema's compiled form, the worst per character outside batches, is ~0.7 KB per character),
/// and what they leave behind between checks is bounded by the caches. Room before a call is
/// checked only when what it may need is at least `room_from_bytes`.
///
/// A long chunk crosses into an NDJSON decoder in slices of at most `ndjson_slice_units` units
/// (UTF-16 units of a JS string, characters of a Python str, or bytes), since each crossing's
/// reply holds the frames of all its lines: a megabyte of blank lines is a million frames,
/// ~130 MB of reply at once; in slices of 64 Ki units, ~8 MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPolicy {
    pub renew_after_bytes: usize,
    pub bound: usize,
    pub need_per_char: usize,
    pub batch_item_bytes: usize,
    pub batch_items_max: usize,
    pub check_from_chars: usize,
    pub check_every: usize,
    pub room_from_bytes: usize,
    pub ndjson_slice_units: usize,
}

pub const MEMORY: MemoryPolicy = MemoryPolicy {
    renew_after_bytes: 32 << 20,
    bound: 64 << 20,
    need_per_char: 48,
    batch_item_bytes: 768,
    batch_items_max: 65_536,
    check_from_chars: 16 << 10,
    check_every: 64,
    room_from_bytes: 3 << 20,
    ndjson_slice_units: 1 << 16,
};

impl MemoryPolicy {
    /// Whether an instance a call left at `bytes` is replaced before the next call.
    pub fn renew_due(&self, bytes: usize) -> bool {
        bytes > self.renew_after_bytes
    }

    /// Whether a batch of `items` items (counted up to `batch_items_max`: past it the core
    /// answers at once) may take an instance now at `bytes` past `bound`: its reply is written
    /// item by item, so the batch starts in a fresh instance.
    pub fn needs_room(&self, bytes: usize, items: usize) -> bool {
        let items = items.min(self.batch_items_max);
        items > 0 && bytes.saturating_add(items * self.batch_item_bytes) > self.bound
    }
}

/// The registry projections, in the order of the component's `project(kind)`.
pub const PROJECTIONS: &[&str] = &["catalog", "openai", "openai-responses", "anthropic", "mcp", "gemini"];

fn num(n: usize) -> Value {
    Value::Number(Number::from_f64(n as f64))
}

fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn arg_name(arg: Arg) -> &'static str {
    match arg {
        Arg::Value => "value",
        Arg::Text => "text",
        Arg::Bytes => "bytes",
        Arg::Tool => "tool",
        Arg::Registry => "registry",
        Arg::Name => "name",
    }
}

fn options_name(kind: OptionKind) -> Value {
    let name = match kind {
        OptionKind::None => return Value::Null,
        OptionKind::Rules => "rules",
        OptionKind::Tool => "tool",
        OptionKind::ToolRead => "tool-read",
        OptionKind::Json => "json",
        OptionKind::Decision => "decision",
        OptionKind::Stream => "stream",
        OptionKind::Session => "session",
        OptionKind::RpcClassify => "rpc-classify",
        OptionKind::RpcDecoder => "rpc-decoder",
        OptionKind::RpcSession => "rpc-session",
        OptionKind::Admission => "admission",
    };
    text(name)
}

fn reply_name(reply: Reply) -> Value {
    match reply {
        Reply::Value => text("value"),
        Reply::Verdict => text("verdict"),
        Reply::TextVerdict => text("text-verdict"),
        Reply::Batch => text("batch"),
        Reply::Report => text("report"),
        Reply::Bool => text("bool"),
        Reply::Object(name) => object(vec![("object", text(name))]),
        Reply::Host(over) => object(vec![("host", Value::Array(over.iter().map(|s| text(s)).collect()))]),
    }
}

/// The errors a host raises when a stateful object it made is used after `free()` / `close()`,
/// or from a thread other than its own (its state lives in that thread's instance): the host
/// answers without the core, with the core's words.
fn object_error(code: crate::error::Code, message: &str) -> Value {
    object(vec![
        ("layer", text(code.default_layer().as_str())),
        ("code", text(code.as_str())),
        ("path", text("")),
        ("message", text(message)),
        ("retryable", Value::Bool(code.retryable_default())),
    ])
}

/// The description every host reads once per instance.
pub fn describe() -> Value {
    let operations = OPERATIONS
        .iter()
        .filter(|o| cfg!(feature = "schema") || !o.schema)
        .map(|o| {
            object(vec![
                ("name", text(o.name)),
                ("python", Value::String(o.python_name())),
                ("args", Value::Array(o.args.iter().map(|a| text(arg_name(*a))).collect())),
                ("options", options_name(o.options)),
                ("reply", reply_name(o.reply)),
                ("safe", Value::Bool(o.safe)),
                ("textTwin", o.text_twin.map_or(Value::Null, text)),
                ("witVerdict", Value::Bool(o.wit_verdict())),
                (
                    "hosts",
                    text(match o.hosts {
                        Hosts::All => "all",
                        Hosts::Js => "js",
                        Hosts::Python => "python",
                    }),
                ),
            ])
        })
        .collect();
    let objects = OBJECTS
        .iter()
        .map(|o| {
            object(vec![
                ("name", text(o.name)),
                ("methods", Value::Array(o.methods.iter().map(|m| text(m)).collect())),
            ])
        })
        .collect();
    #[allow(unused_mut)]
    let mut members = vec![
        ("version", text(env!("CARGO_PKG_VERSION"))),
        ("schema", Value::Bool(cfg!(feature = "schema"))),
        (
            "limits",
            object(vec![
                ("maxBytes", num(l::DEFAULT_MAX_BYTES)),
                ("maxDepth", num(l::DEFAULT_MAX_DEPTH)),
                ("maxStringBytes", num(l::DEFAULT_MAX_STRING_BYTES)),
                ("maxArrayLength", num(l::DEFAULT_MAX_ARRAY_LENGTH)),
                ("maxObjectMembers", num(l::DEFAULT_MAX_OBJECT_MEMBERS)),
                ("maxIssues", num(l::DEFAULT_MAX_ISSUES)),
                ("maxCalls", num(l::DEFAULT_MAX_CALLS)),
                ("maxArgumentsBytes", num(l::DEFAULT_MAX_ARGUMENTS_BYTES)),
                ("maxResponseBytes", num(l::DEFAULT_MAX_RESPONSE_BYTES)),
            ]),
        ),
        (
            "ceilings",
            object(vec![
                ("maxBytes", num(l::MAX_BYTES_CEILING)),
                ("maxDepth", num(l::MAX_DEPTH_CEILING)),
                ("maxIssues", num(l::MAX_ISSUES_CEILING)),
                ("maxCalls", num(l::MAX_CALLS_CEILING)),
            ]),
        ),
        (
            "memory",
            object(vec![
                ("renewAfterBytes", num(MEMORY.renew_after_bytes)),
                ("bound", num(MEMORY.bound)),
                ("needPerChar", num(MEMORY.need_per_char)),
                ("batchItemBytes", num(MEMORY.batch_item_bytes)),
                ("batchItemsMax", num(MEMORY.batch_items_max)),
                ("checkFromChars", num(MEMORY.check_from_chars)),
                ("checkEvery", num(MEMORY.check_every)),
                ("roomFromBytes", num(MEMORY.room_from_bytes)),
                ("ndjsonSliceUnits", num(MEMORY.ndjson_slice_units)),
            ]),
        ),
        ("projections", Value::Array(PROJECTIONS.iter().map(|p| text(p)).collect())),
        (
            "objectFreed",
            object_error(
                crate::error::Code::ObjectFreed,
                "this object was freed (free(), `using`, close() or `with`): make a new one",
            ),
        ),
        (
            "objectOtherThread",
            object_error(
                crate::error::Code::ObjectOtherThread,
                "this object is used from a thread other than the one that made it (its state lives in that thread's instance)",
            ),
        ),
        (
            "objectInUse",
            object_error(
                crate::error::Code::ObjectInUse,
                "this object's method was called while another of its methods runs (from a getter of the value it reads): call it after that one returns",
            ),
        ),
        ("operations", Value::Array(operations)),
        ("objects", Value::Array(objects)),
    ];
    #[cfg(feature = "schema")]
    members.push((
        "mcp",
        object(vec![
            ("toolOptions", object(crate::tools::mcp::TOOL_OPTIONS.iter().map(|(k, v)| (*k, text(v))).collect())),
            ("compiledSchemasKept", num(crate::tools::mcp::COMPILED_SCHEMAS_KEPT)),
            ("uncheckableCode", text(crate::tools::mcp::UNCHECKABLE.as_str())),
        ]),
    ));
    object(members)
}

#[cfg(test)]
mod tests {
    use super::MEMORY;

    #[test]
    fn the_memory_policy_renews_past_its_threshold_and_makes_room_for_batches() {
        assert!(!MEMORY.renew_due(MEMORY.renew_after_bytes));
        assert!(MEMORY.renew_due(MEMORY.renew_after_bytes + 1));
        // No items, no room needed; a batch counted past the most a batch holds is that most.
        assert!(!MEMORY.needs_room(MEMORY.bound, 0));
        let fits = (MEMORY.bound - MEMORY.renew_after_bytes) / MEMORY.batch_item_bytes;
        assert!(!MEMORY.needs_room(MEMORY.renew_after_bytes, fits));
        assert!(MEMORY.needs_room(MEMORY.renew_after_bytes, fits + 1));
        assert_eq!(MEMORY.needs_room(0, usize::MAX), MEMORY.needs_room(0, MEMORY.batch_items_max));
        assert!(MEMORY.needs_room(MEMORY.renew_after_bytes, usize::MAX));
    }
}
