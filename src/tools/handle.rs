//! Compiled tools: a tool defined once, whose compiled input schema is held by a
//! handle the host keeps, so validating an input neither sends nor reads the definition again.
//!
//! A handle is made only by `defineTool`'s rules (`ToolHandle::define`, `define_json`): what it
//! holds is exactly the definition the host receives as plain data (frozen in JS and Python),
//! so validating through the handle reaches the verdict validating that plain data reaches
//! (`tools::input`), only without reading it again. A plain-data tool (from JSON, an older
//! release, a look-alike) keeps taking the plain path, which reads it again with every rule:
//! the handle is a fast path, not a second source of rules.
//!
//! `release` drops the compiled schemas at once (the host's `free()`, `close()`, `using`,
//! garbage collection); a released handle used again is `TOOL_HANDLE_FREED`. The compiled
//! schema is shared with the per-instance cache (`tools::schema`), which stays bounded, so
//! handles created and dropped do not grow the instance.

use std::cell::RefCell;
use std::rc::Rc;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::input::{HostValue, Kind};
use crate::tools::contract::{self, ToolDefinition};
use crate::tools::input::{check_input, check_input_json, check_input_within, read_tool, verdict_input_json};
use crate::tools::schema::{Allowance, CompiledSchema};
use crate::value::Value;

/// A defined tool's compiled input schema (shared with the per-instance cache).
pub struct CompiledTool {
    input: Rc<CompiledSchema>,
    /// The definition's name rule: a `names` option given with a validation must agree with
    /// it, as reading the plain definition again requires (`contract`).
    names: crate::tools::names::NameRule,
}

impl CompiledTool {
    /// What reading the plain definition again with `options` would refuse before the input:
    /// a `names` option other than the rule the definition names.
    fn check_options(&self, options: &Options) -> Result<()> {
        match options.names {
            Some(rule) if self.names != crate::tools::names::NameRule::Own && rule != self.names => {
                Err(contract::catalog_option_conflict("names"))
            }
            _ => Ok(()),
        }
    }
}

/// What a host holds for a tool `defineTool` returned. Interior mutability so that a host may
/// release it while one of its validations runs (a getter of the input calling `free()`): the
/// validation holds its own reference and finishes; the next call sees it released.
pub struct ToolHandle {
    tool: RefCell<Option<Rc<CompiledTool>>>,
    /// The definition until the host takes it (`take_definition`): a host keeps the data
    /// itself, so the instance holds only the compiled schema for a live tool.
    definition: RefCell<Option<ToolDefinition>>,
}

impl ToolHandle {
    /// `defineTool(def, options)`: every definition rule, the schemas compiled.
    pub fn define<V: HostValue>(def: &V, options: &Options) -> Result<ToolHandle> {
        ToolHandle::holding(contract::define_tool_compiled(def, options)?)
    }

    /// `defineToolJson(text, options)`.
    pub fn define_json(text: &[u8], options: &Options) -> Result<ToolHandle> {
        ToolHandle::holding(contract::define_tool_json_compiled(text, options)?)
    }

    /// Holds the input schema `defineTool` compiled when it checked the definition.
    fn holding((definition, input): (ToolDefinition, Rc<CompiledSchema>)) -> Result<ToolHandle> {
        Ok(ToolHandle {
            tool: RefCell::new(Some(Rc::new(CompiledTool { input, names: definition.names }))),
            definition: RefCell::new(Some(definition)),
        })
    }

    /// The compiled tool, or `TOOL_HANDLE_FREED` once released.
    pub fn live(&self) -> Result<Rc<CompiledTool>> {
        self.tool.borrow().clone().ok_or_else(freed)
    }

    /// The definition as the value hosts hand out (what `defineTool` returns), once: the
    /// handle keeps no copy afterwards (`TOOL_HANDLE_FREED` if asked again or once released).
    pub fn take_definition(&self) -> Result<Value> {
        self.live()?;
        let taken = self.definition.borrow_mut().take();
        taken.map(ToolDefinition::into_value).ok_or_else(freed)
    }

    /// Drops the compiled schemas now (idempotent).
    pub fn release(&self) {
        let held = (self.tool.borrow_mut().take(), self.definition.borrow_mut().take());
        drop(held);
    }

    pub fn is_released(&self) -> bool {
        self.tool.borrow().is_none()
    }

    /// `validateToolInput(tool, input, options)` through the handle.
    pub fn validate_input<V: HostValue>(&self, input: &V, options: &Options) -> Result<Value> {
        let tool = self.live()?;
        tool.check_options(options)?;
        check_input(&tool.input, input, options)
    }

    /// `validateToolInputJson(tool, text, options)` through the handle.
    pub fn validate_input_json(&self, text: &[u8], options: &Options) -> Result<Value> {
        let tool = self.live()?;
        tool.check_options(options)?;
        check_input_json(&tool.input, text, options)
    }

    /// `validate_input_json`'s verdict alone (no tree built for a valid input when the schema
    /// allows): what the bindings call, which let the host parse its own text.
    pub fn check_input_json(&self, text: &[u8], options: &Options) -> Result<()> {
        let tool = self.live()?;
        tool.check_options(options)?;
        verdict_input_json(&tool.input, text, options)
    }

    /// `validateToolInputs(tool, inputs, options)` through the handle: one outcome per input,
    /// handed to `sink` in order.
    pub fn validate_inputs<V: HostValue>(
        &self,
        inputs: &V,
        options: &Options,
        sink: &mut dyn FnMut(Result<Value>),
    ) -> Result<()> {
        let tool = self.live()?;
        tool.check_options(options)?;
        each_input(&tool.input, inputs, options, sink)
    }
}

/// `validateToolInputs(tool, inputs, options)` for a plain-data tool: the tool read again as
/// `validateToolInput` reads it (once for the whole list), then one outcome per input.
pub fn validate_tool_inputs<V: HostValue>(
    tool: &V,
    inputs: &V,
    options: &Options,
    sink: &mut dyn FnMut(Result<Value>),
) -> Result<()> {
    let tool = read_tool(tool, options)?;
    let compiled = tool.compile_input()?;
    each_input(&compiled, inputs, options, sink)
}

/// One outcome per element of `inputs`, each with its own size budget and all sharing one budget
/// of evaluations (`schema::Allowance`); the list is an array of at most `maxArrayLength`
/// elements (as `parseAgentActions`'s list).
fn each_input<V: HostValue>(
    compiled: &CompiledSchema,
    inputs: &V,
    options: &Options,
    sink: &mut dyn FnMut(Result<Value>),
) -> Result<()> {
    if inputs.kind() != Kind::Array {
        return Err(ContractError::new(
            Code::FieldType,
            "",
            format!("expected a list of tool inputs, got {}", crate::input::fields::kind_name(inputs, inputs.kind())),
        )
        .in_layer(Layer::Schema));
    }
    let len = inputs.len().map_err(|f| f.at(""))?;
    if len > options.limits.max_array_length {
        return Err(ContractError::new(
            Code::InputTooLarge,
            "",
            format!(
                "the list has more items than the limit of {} (maxArrayLength): each gets its own result",
                options.limits.max_array_length
            ),
        ));
    }
    let mut allowance = Allowance::shared();
    for i in 0..len {
        sink(match inputs.index(i) {
            Ok(item) => check_input_within(compiled, &item, options, &mut allowance),
            Err(fault) => Err(fault.at(&format!("/{i}"))),
        });
    }
    Ok(())
}

fn freed() -> ContractError {
    ContractError::new(
        Code::ToolHandleFreed,
        "",
        "this tool was freed (free(), close(), `using` or `with` ended it); define it again to validate with it",
    )
    .in_layer(Layer::Contract)
}

/// A registry `createRegistry` made, held for a host beside the plain value it returned: its names,
/// definitions and compiled input schemas, so `checkToolCall`, the projections and `catalog` given
/// that very value read nothing of it again. The value is the registry's `{tools: [...]}` in the
/// same order (sorted by name), so indices agree.
pub struct RegistryHandle {
    names: Vec<(usize, String)>,
    tools: Vec<(Rc<ToolDefinition>, Rc<CompiledSchema>)>,
    /// Whether the host took the value (it is given once).
    taken: std::cell::Cell<bool>,
}

impl RegistryHandle {
    /// `createRegistry(tools, options)`.
    pub fn create<V: HostValue>(tools: &V, options: &Options) -> Result<RegistryHandle> {
        let compiled = crate::tools::registry::create_compiled(tools, options)?;
        let names = compiled.iter().enumerate().map(|(i, (d, _))| (i, d.name.clone())).collect();
        let tools = compiled.into_iter().map(|(d, schema)| (Rc::new(d), schema)).collect();
        Ok(RegistryHandle { names, tools, taken: std::cell::Cell::new(false) })
    }

    /// Writes the registry value (`createRegistry`'s `{tools: [...]}`) as JSON into `out`, once
    /// (`null` after), one definition at a time: the definitions are held once, not again as
    /// a value beside them (a registry of many small tools is mostly its definitions).
    pub fn write_value(&self, out: &mut String) {
        if self.taken.replace(true) {
            out.push_str("null");
            return;
        }
        out.push_str(r#"{"tools":["#);
        for (i, (def, _)) in self.tools.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            crate::value::write_json(out, &(**def).clone().into_value());
        }
        out.push_str("]}");
    }

    /// `checkToolCall(registry, call, policy, options)` with this registry.
    pub fn check_tool_call<V: HostValue>(&self, call: &V, policy: &V, options: &Options) -> Result<Value> {
        crate::tools::pipeline::check_with(&self.names, policy, call, options, |index| {
            let (def, compiled) = &self.tools[index];
            Ok((def.clone(), compiled.clone()))
        })
    }

    /// The definitions, sorted by name (what reading the registry value gives).
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.tools.iter().map(|(d, _)| (**d).clone()).collect()
    }
}
