//! The options of the JSON-RPC operations, read from a host value by the core (an unknown or
//! ill-typed option is `OPTION_INVALID`, as everywhere).

use crate::error::Result;
use crate::input::limits::{Limits, DEFAULT_MAX_DEPTH, MAX_BYTES_CEILING, MAX_DEPTH_CEILING};
use crate::input::options::{invalid, read_count};
use crate::input::{member_value, HostValue, Kind};

/// Default bound of one message (`maxBytes`) and of one NDJSON line (`maxLineBytes`): 16 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Default bound of a batch's elements (`maxBatchLength`). A batch's classification holds an
/// item and a reply per element, ~2.5 KB each in the core and a few objects each in a host:
/// 65,536 elements (131 KB of `[1,1,...]`, within `maxArrayLength`) took a wasm instance to
/// 160 MB. 1,024 keeps a batch's classification near 2.5 MB; MCP has no batches at all.
pub const DEFAULT_MAX_BATCH_LENGTH: usize = 1024;

/// Which rules ids follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// JSON-RPC 2.0 as written: ids are strings, numbers or (with `allowNullId`) null.
    JsonRpc,
    /// MCP 2025-06-18: ids are strings or integers, never null; no batches.
    Mcp,
}

/// What a malformed line gives (`onMalformed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnMalformed {
    /// `ignored: true`, no reply (frame sync over a dirty stream, the default).
    Ignore,
    /// The specification's `-32700` / `-32600` reply.
    Reply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RpcOptions {
    pub allow_null_id: bool,
    pub profile: Profile,
    /// The bound of one message's text (classify) or one line (the decoder).
    pub max_bytes: usize,
    pub max_depth: usize,
    pub on_malformed: OnMalformed,
    /// The most elements a batch may have; a longer one is one `-32600` for the whole batch.
    pub max_batch_length: usize,
}

impl Default for RpcOptions {
    fn default() -> Self {
        RpcOptions {
            allow_null_id: true,
            profile: Profile::JsonRpc,
            max_bytes: DEFAULT_MAX_LINE_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            on_malformed: OnMalformed::Ignore,
            max_batch_length: DEFAULT_MAX_BATCH_LENGTH,
        }
    }
}

/// Which operation the options are for: each takes its own names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RpcOptionSet {
    /// `classifyJsonRpc*`: `allowNullId`, `profile`, `maxBytes`, `maxDepth`, `maxBatchLength`.
    Classify,
    /// The decoder and `checkStdoutPurity`: `allowNullId`, `profile`, `maxLineBytes`,
    /// `maxDepth`, `maxBatchLength`, `onMalformed`.
    Decoder,
    /// `createRpcSession`: `allowNullId`, `profile`, `maxBytes`, `maxDepth` (of each message),
    /// `maxBatchLength`.
    Session,
}

impl RpcOptions {
    /// Ids may be null: `allowNullId` and not the MCP profile.
    pub fn null_id_allowed(&self) -> bool {
        self.allow_null_id && self.profile != Profile::Mcp
    }

    /// The limits a message's text is parsed with: one string may fill the whole message (an
    /// ACP prompt carries images as base64 strings of several MB).
    pub fn limits(&self) -> Limits {
        Limits {
            max_bytes: self.max_bytes,
            max_string_bytes: self.max_bytes,
            max_depth: self.max_depth,
            ..Limits::default()
        }
    }

    pub fn read<V: HostValue>(value: Option<&V>, set: RpcOptionSet) -> Result<RpcOptions> {
        let mut options = RpcOptions::default();
        let Some(value) = value else { return Ok(options) };
        match value.kind() {
            Kind::Undefined | Kind::Null => return Ok(options),
            Kind::Object => {}
            _ => return Err(invalid("", "options must be an object")),
        }
        for (key, read) in value.members().map_err(|e| e.at(""))? {
            let path = crate::value::pointer_child("", &key);
            let Some(item) = member_value(value, &key, read).map_err(|f| f.at(&path))? else { continue };
            if item.kind() == Kind::Undefined {
                continue;
            }
            match key.as_str() {
                "allowNullId" => {
                    if item.kind() != Kind::Bool {
                        return Err(invalid(&path, "allowNullId must be a boolean"));
                    }
                    options.allow_null_id = item.boolean();
                }
                "profile" => {
                    options.profile = match string_of(&item).as_deref() {
                        Some("jsonrpc") => Profile::JsonRpc,
                        Some("mcp") => Profile::Mcp,
                        _ => return Err(invalid(&path, "profile must be \"jsonrpc\" or \"mcp\"")),
                    }
                }
                "maxBytes" if set != RpcOptionSet::Decoder => {
                    options.max_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?
                }
                "maxLineBytes" if set == RpcOptionSet::Decoder => {
                    options.max_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?
                }
                "maxDepth" => options.max_depth = read_count(&item, &path, MAX_DEPTH_CEILING)?,
                "maxBatchLength" => options.max_batch_length = read_count(&item, &path, MAX_BYTES_CEILING)?,
                "onMalformed" if set == RpcOptionSet::Decoder => {
                    options.on_malformed = match string_of(&item).as_deref() {
                        Some("ignore") => OnMalformed::Ignore,
                        Some("reply") => OnMalformed::Reply,
                        _ => return Err(invalid(&path, "onMalformed must be \"ignore\" or \"reply\"")),
                    }
                }
                _ => return Err(invalid(&path, format!("unknown option {key:?}"))),
            }
        }
        Ok(options)
    }
}

/// The option's string, `None` for any other kind (a host answers `string()` only for a
/// string: the JS binding would hand any other value to the text encoder).
fn string_of<V: HostValue>(item: &V) -> Option<String> {
    (item.kind() == Kind::String).then(|| item.string())
}
