//! Resource limits and call options.
//!
//! Limits are defaults a caller can raise (up to a ceiling that keeps every host's stack safe).
//! For JSON text, `max_bytes` bounds the text; for a host value read in place it bounds the
//! *measured size* of what the rules read: one unit per value plus the UTF-8 bytes of every
//! string and member name. Both hosts measure the same parts the same way, so they agree.

use crate::error::{Code, ContractError, Result};
use crate::input::{HostValue, Kind};

pub const DEFAULT_MAX_BYTES: usize = 4 * 1024 * 1024;
pub const DEFAULT_MAX_DEPTH: usize = 128;
/// Rules copy nested values recursively; this ceiling keeps that recursion far from the wasm
/// stack and the Python binding's recursion limit.
pub const MAX_DEPTH_CEILING: usize = 512;
/// A parsed value takes up to ~50 bytes per JSON value in memory (two bytes of text, `0,`, are
/// one value): 64 MiB of text stays well inside a 32-bit wasm memory, so no input can make the
/// core run out of memory (which would be a trap, not an error).
pub const MAX_BYTES_CEILING: usize = 64 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: DEFAULT_MAX_BYTES, max_depth: DEFAULT_MAX_DEPTH }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Unknown fields are an error instead of being dropped.
    pub strict: bool,
    pub limits: Limits,
}

impl Options {
    /// Reads `{strict?, maxBytes?, maxDepth?}`. Options come from the calling program, not from
    /// the model, so an option holding `undefined` counts as not given (the JS idiom
    /// `{strict: opts.strict}`), while an unknown option name is an error: a typo must not
    /// silently turn strict mode off.
    pub fn read<V: HostValue>(value: Option<&V>) -> Result<Options> {
        let mut options = Options::default();
        let Some(value) = value else {
            return Ok(options);
        };
        match value.kind() {
            Kind::Undefined | Kind::Null => return Ok(options),
            Kind::Object => {}
            _ => return Err(invalid("", "options must be an object")),
        }
        for key in value.keys().map_err(|e| e.at(""))? {
            let path = crate::value::pointer_child("", &key);
            let Some(item) = value.get(&key).map_err(|f| f.at(&path))? else {
                continue;
            };
            match (key.as_str(), item.kind()) {
                (_, Kind::Undefined) => {}
                ("strict", Kind::Bool) => options.strict = item.boolean(),
                ("strict", _) => return Err(invalid(&path, "strict must be a boolean")),
                ("maxBytes", _) => options.limits.max_bytes = read_count(&item, &path, MAX_BYTES_CEILING)?,
                ("maxDepth", _) => options.limits.max_depth = read_count(&item, &path, MAX_DEPTH_CEILING)?,
                _ => return Err(invalid(&path, format!("unknown option {key:?}"))),
            }
        }
        Ok(options)
    }
}

fn read_count<V: HostValue>(item: &V, path: &str, ceiling: usize) -> Result<usize> {
    if item.kind() == Kind::Number {
        let n = item.number();
        if n.fract() == 0.0 && n >= 1.0 && n <= ceiling as f64 {
            return Ok(n as usize);
        }
    }
    Err(invalid(path, format!("must be an integer from 1 to {ceiling}")))
}

fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::OptionInvalid, path, message)
}
