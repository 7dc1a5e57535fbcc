//! `dialect: "pi"`: the older pi-mono session format that seed 004's session entries are a
//! strict subset of (the recorded files in `../shared/conformance/pi-mono-sessions/`). It
//! accepts exactly what those files hold, beyond the seed:
//! - a header without `version` (or `version: 1`), with `provider`, `modelId`, `thinkingLevel`,
//!   `branchedFrom`; entries without `id` / `parentId`, read as one linear chain as pi-mono's
//!   v1 → v2 migration does (entry n's parent is entry n - 1; ids are `line-<n>`);
//! - entry types `thinking_level_change {thinkingLevel}` and `model_change {provider, modelId}`;
//!   compactions with `firstKeptEntryIndex` (an index into the file's entries, the header being
//!   0) instead of `firstKeptEntryId`;
//! - assistant messages with `api`, `provider`, `model`, `thinking` blocks
//!   `{thinking, thinkingSignature?}`, `partialJson` on tool calls, usage with `cacheRead`,
//!   `cacheWrite`, `cost` and an optional `totalTokens`;
//! - `bashExecution` messages `{command, output, exitCode, cancelled, truncated,
//!   fullOutputPath?, timestamp}`.

use crate::error::Result;
use crate::input::{HostValue, Kind, Path};
use crate::session::field::{number, object, string, timestamp, Ctx};
use crate::value::{pointer_child, Value};

pub const ASSISTANT_FIELDS: [&str; 9] =
    ["role", "content", "api", "provider", "model", "stopReason", "usage", "timestamp", "errorMessage"];
const USAGE_FIELDS: [&str; 6] = ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"];
const COST_FIELDS: [&str; 5] = ["input", "output", "cacheRead", "cacheWrite", "total"];
const BASH_FIELDS: [&str; 8] =
    ["role", "command", "output", "exitCode", "cancelled", "truncated", "fullOutputPath", "timestamp"];
pub const HEADER_FIELDS: [&str; 9] =
    ["type", "version", "id", "timestamp", "cwd", "provider", "modelId", "thinkingLevel", "branchedFrom"];

pub fn thinking<V: HostValue>(c: &mut Ctx<'_>, item: &V, path: &str, kind: String) -> Result<Value> {
    c.closed(item, path, &["type", "thinking", "thinkingSignature"], "a thinking block")?;
    let mut out = vec![("type", string(kind)), ("thinking", c.payload(item, path, "thinking")?)];
    if let Some(s) = c.optional_payload(item, path, "thinkingSignature")? {
        out.push(("thinkingSignature", s));
    }
    Ok(object(out))
}

pub fn usage<V: HostValue>(c: &mut Ctx<'_>, u: &V, path: &str, level: usize) -> Result<Value> {
    c.closed(u, path, &USAGE_FIELDS, "usage")?;
    let mut out = Vec::with_capacity(6);
    for key in ["input", "output", "cacheRead", "cacheWrite"] {
        out.push((key, number(c.count(u, path, key)?)));
    }
    if let Some(t) = c.optional(u, path, "totalTokens")? {
        out.push(("totalTokens", number(c.count_of(&t, &Path::Key(&Path::Root(path), "totalTokens"), "totalTokens")?)));
    }
    let cost = c.required(u, path, "cost")?;
    let cost_path = pointer_child(path, "cost");
    c.object(&cost, &cost_path, "cost", level + 1)?;
    c.closed(&cost, &cost_path, &COST_FIELDS, "cost")?;
    let mut costs = Vec::with_capacity(5);
    for key in COST_FIELDS {
        costs.push((key, number(c.non_negative(&cost, &cost_path, key)?)));
    }
    out.push(("cost", object(costs)));
    Ok(object(out))
}

pub fn bash_execution<V: HostValue>(
    c: &mut Ctx<'_>,
    value: &V,
    path: &str,
    mut out: Vec<(&'static str, Value)>,
) -> Result<Value> {
    c.closed(value, path, &BASH_FIELDS, "a bashExecution message")?;
    out.push(("command", c.payload(value, path, "command")?));
    out.push(("output", c.payload(value, path, "output")?));
    let exit = c.required(value, path, "exitCode")?;
    let exit_path = pointer_child(path, "exitCode");
    out.push((
        "exitCode",
        if exit.kind() == Kind::Null { Value::Null } else { number(integer(c, &exit, &exit_path)?) },
    ));
    out.push(("cancelled", Value::Bool(c.boolean(value, path, "cancelled")?)));
    out.push(("truncated", Value::Bool(c.boolean(value, path, "truncated")?)));
    if let Some(p) = c.optional_string(value, path, "fullOutputPath")? {
        out.push(("fullOutputPath", string(p)));
    }
    out.push(("timestamp", timestamp(c, value, path)?));
    Ok(object(out))
}

/// An exit code: an integer (it may be negative), or `null` for a killed process.
fn integer<V: HostValue>(c: &mut Ctx<'_>, v: &V, path: &str) -> Result<f64> {
    let n = c.number_of(v, &Path::Root(path), "exitCode")?;
    if n.fract() != 0.0 {
        return Err(c.error(
            crate::error::Code::FieldValueInvalid,
            path,
            format!("exitCode must be an integer, got {n}"),
        ));
    }
    Ok(n)
}
