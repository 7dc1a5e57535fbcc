//! `parseToolResult` (seed 004 §ToolDefinition 和 ToolResult): what a tool's local execution
//! returns, `{content: TextContent[], details?, terminate?}`, before it is wrapped into a
//! `toolResult` message for the next model request.

use crate::error::Result;
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::{HostValue, Path};
use crate::session::field::{object, Ctx};
use crate::session::message::{content, dialect, Holder};
use crate::value::Value;

const FIELDS: [&str; 3] = ["content", "details", "terminate"];

/// Options: `strict` and the limits.
pub fn parse_tool_result<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    read_tool_result(&mut c, value, "", 1)
}

/// One tool result at `path`, at nesting `level` (1 on its own; events hold one deeper).
pub fn read_tool_result<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str, level: usize) -> Result<Value> {
    c.object(value, path, "a tool result", level)?;
    c.closed(value, path, &FIELDS, "a tool result")?;
    let mut out = vec![("content", content(c, value, path, level, Holder::ToolResult)?)];
    if let Some(d) = c.optional(value, path, "details")? {
        out.push(("details", c.json_of(&d, &Path::Key(&Path::Root(path), "details"), level)?));
    }
    if let Some(t) = c.optional(value, path, "terminate")? {
        out.push((
            "terminate",
            Value::Bool(c.boolean_of(&t, &Path::Key(&Path::Root(path), "terminate"), "terminate")?),
        ));
    }
    Ok(object(out))
}
