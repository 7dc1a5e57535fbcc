//! `validateToolInput`: a tool input checked against its tool's `inputSchema`.
//!
//! The tool handed back by the program is read again as a definition (`tools::contract`), its
//! compiled schema comes from the cache (`tools::schema`), the input is copied under the call's
//! limits and then validated.

use crate::error::Result;
use crate::input::options::Options;
use crate::input::{Budget, Copier, HostValue, Path, Undefined};
use crate::json::{self, Mode};
use crate::tools::contract::{self, ToolDefinition};
use crate::tools::schema::{validate, validate_json, validate_within, Allowance, CompiledSchema};
use crate::value::Value;

/// `validateToolInput(tool, input)`: the tool is read as a definition (so a changed or forged
/// object is checked again, and its schema is found in the cache), the input is copied under
/// the limits, then validated. Returns the copied input.
pub fn validate_tool_input<V: HostValue>(tool: &V, input: &V, options: &Options) -> Result<Value> {
    let tool = read_tool(tool, options)?;
    let compiled = tool.compile_input()?;
    check_input(&compiled, input, options)
}

/// An input copied under the limits and validated against a compiled input schema: what
/// `validate_tool_input` does once it has the tool's schema (also a compiled tool's path,
/// `tools::handle`).
pub fn check_input<V: HostValue>(compiled: &CompiledSchema, input: &V, options: &Options) -> Result<Value> {
    let copied = copy_input(input, options)?;
    validate(compiled, &copied, options.max_issues)?;
    Ok(copied)
}

/// `check_input` for one of many inputs of a call, spending the call's `allowance`.
pub fn check_input_within<V: HostValue>(
    compiled: &CompiledSchema,
    input: &V,
    options: &Options,
    allowance: &mut Allowance,
) -> Result<Value> {
    let copied = copy_input(input, options)?;
    validate_within(compiled, &copied, options.max_issues, allowance)?;
    Ok(copied)
}

/// A caller's value copied as a tool input is, under the options' limits: members holding
/// `undefined` kept, the value itself never `undefined`.
pub fn copy_input<V: HostValue>(input: &V, options: &Options) -> Result<Value> {
    let mut budget = Budget::new(&options.limits);
    let mut copier = Copier { limits: &options.limits, budget: &mut budget, undefined: Undefined::Keep };
    let copied = copier.copy(input, &Path::Root(""), 0)?;
    if matches!(copied, Value::Undefined) {
        return Err(crate::input::not_json("", "undefined"));
    }
    Ok(copied)
}

/// The tool handed back by the program is read as a definition again (so a changed or forged
/// object cannot skip a rule), under the ceilings rather than the call's limits: the limits are
/// for the model's input, and a definition `defineTool` accepted (perhaps with raised limits)
/// must read back.
pub fn read_tool<V: HostValue>(tool: &V, options: &Options) -> Result<ToolDefinition> {
    contract::define_tool(
        tool,
        &Options {
            strict: options.strict,
            limits: crate::Limits::ceilings(),
            names: options.names,
            ..Options::default()
        },
    )
}

/// The same with the input as JSON text (strict parser, limits on the text).
pub fn validate_tool_input_json<V: HostValue>(tool: &V, text: &[u8], options: &Options) -> Result<Value> {
    let tool = read_tool(tool, options)?;
    let compiled = tool.compile_input()?;
    check_input_json(&compiled, text, options)
}

/// JSON text parsed (strict, under the limits) and validated against a compiled input schema.
pub fn check_input_json(compiled: &CompiledSchema, text: &[u8], options: &Options) -> Result<Value> {
    let input = json::parse(text, Mode::Strict, &options.limits)?;
    validate(compiled, &input, options.max_issues)?;
    Ok(input)
}

/// `validate_tool_input_json`'s verdict alone, for hosts that hold the text and parse it
/// themselves once it is accepted: a valid input builds no tree when the schema allows
/// (`schema::validate_json`).
pub fn check_tool_input_json<V: HostValue>(tool: &V, text: &[u8], options: &Options) -> Result<()> {
    let tool = read_tool(tool, options)?;
    let compiled = tool.compile_input()?;
    verdict_input_json(&compiled, text, options)
}

/// `check_input_json`'s verdict alone (no tree built for a valid input when the schema allows):
/// the bindings' path, which return a verdict and let the host parse its own text.
pub fn verdict_input_json(compiled: &CompiledSchema, text: &[u8], options: &Options) -> Result<()> {
    validate_json(compiled, text, &options.limits, options.max_issues)
}
