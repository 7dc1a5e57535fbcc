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
    c.object(value, "", "a tool result", 1)?;
    c.closed(value, "", &FIELDS, "a tool result")?;
    let mut out = vec![("content", content(&mut c, value, "", 1, Holder::ToolResult)?)];
    if let Some(d) = c.optional(value, "", "details")? {
        out.push(("details", c.json_of(&d, &Path::Root("/details"), 1)?));
    }
    if let Some(t) = c.optional(value, "", "terminate")? {
        out.push(("terminate", Value::Bool(c.boolean_of(&t, &Path::Root("/terminate"), "terminate")?)));
    }
    Ok(object(out))
}
