//! Resource limits.
//!
//! Limits are defaults a caller can raise (up to a ceiling that keeps every host's stack safe).
//! For JSON text, `max_bytes` bounds the text; for a host value read in place it bounds the
//! *measured size* of what the rules read: one unit per value plus the UTF-8 bytes of every
//! string and member name. Both hosts measure the same parts the same way, so they agree.

use crate::error::{Code, ContractError, Result};

pub const DEFAULT_MAX_BYTES: usize = 4 * 1024 * 1024;
pub const DEFAULT_MAX_DEPTH: usize = 128;
/// Rules copy nested values recursively; this ceiling keeps that recursion far from the wasm
/// stack and the Python binding's recursion limit.
pub const MAX_DEPTH_CEILING: usize = 512;
/// A parsed value takes up to ~50 bytes per JSON value in memory (two bytes of text, `0,`, are
/// one value): 64 MiB of text stays well inside a 32-bit wasm memory, so no input can make the
/// core run out of memory (which would be a trap, not an error).
pub const MAX_BYTES_CEILING: usize = 64 * 1024 * 1024;
/// Defaults for the per-value limits: generous for any model output, small enough that one
/// string, array or object cannot take the whole `max_bytes` budget unnoticed. Their ceiling is
/// `MAX_BYTES_CEILING`: no text can hold more.
pub const DEFAULT_MAX_STRING_BYTES: usize = 1024 * 1024;
pub const DEFAULT_MAX_ARRAY_LENGTH: usize = 65_536;
pub const DEFAULT_MAX_OBJECT_MEMBERS: usize = 65_536;
/// `maxIssues`: most `SCHEMA_MISMATCH` issues listed (the rest are cut, `truncated: true`).
pub const DEFAULT_MAX_ISSUES: usize = 100;
/// Each issue is a path, a keyword and a message (~100-300 bytes): 10,000 of them stay a few
/// MB in every host's memory.
pub const MAX_ISSUES_CEILING: usize = 10_000;
/// `maxCalls` of a tool decision (the seed's `maxItems: 4`) and its ceiling.
pub const DEFAULT_MAX_CALLS: usize = 4;
pub const MAX_CALLS_CEILING: usize = 256;
/// Stream assembly: one call's arguments text, and everything one response buffers.
pub const DEFAULT_MAX_ARGUMENTS_BYTES: usize = 4 * 1024 * 1024;
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_depth: usize,
    /// UTF-8 bytes of one string (after unescaping), member names included.
    pub max_string_bytes: usize,
    /// Elements of one array.
    pub max_array_length: usize,
    /// Members of one object.
    pub max_object_members: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_string_bytes: DEFAULT_MAX_STRING_BYTES,
            max_array_length: DEFAULT_MAX_ARRAY_LENGTH,
            max_object_members: DEFAULT_MAX_OBJECT_MEMBERS,
        }
    }
}

impl Limits {
    /// Every limit at its ceiling: for data the program gave back (a definition it already had
    /// accepted) and for the conformance entry point, not for model output.
    pub fn ceilings() -> Limits {
        Limits {
            max_bytes: MAX_BYTES_CEILING,
            max_depth: MAX_DEPTH_CEILING,
            max_string_bytes: MAX_BYTES_CEILING,
            max_array_length: MAX_BYTES_CEILING,
            max_object_members: MAX_BYTES_CEILING,
        }
    }

    /// No per-value limit: for host text, which rules judge part by part.
    pub fn unbounded_values(mut self) -> Limits {
        self.max_string_bytes = usize::MAX;
        self.max_array_length = usize::MAX;
        self.max_object_members = usize::MAX;
        self
    }

    /// `INPUT_TOO_LARGE` at `path` when a string has more UTF-8 bytes than allowed. A member
    /// name is reported at its object's pointer.
    pub fn check_string(&self, len: usize, path: &str) -> Result<()> {
        if len > self.max_string_bytes {
            return Err(too_large(
                path,
                format!("a string of {len} bytes is over maxStringBytes ({})", self.max_string_bytes),
            ));
        }
        Ok(())
    }

    pub fn check_array(&self, len: usize, path: &str) -> Result<()> {
        if len > self.max_array_length {
            return Err(too_large(
                path,
                format!("an array of {len} elements is over maxArrayLength ({})", self.max_array_length),
            ));
        }
        Ok(())
    }

    pub fn check_members(&self, len: usize, path: &str) -> Result<()> {
        if len > self.max_object_members {
            return Err(too_large(
                path,
                format!("an object of {len} members is over maxObjectMembers ({})", self.max_object_members),
            ));
        }
        Ok(())
    }
}

pub fn too_large(path: &str, message: String) -> ContractError {
    ContractError::new(Code::InputTooLarge, path, message)
}
