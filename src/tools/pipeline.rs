//! `checkToolCall(registry, call, policy)`: the four layers between a model's proposal and an
//! executor, in the seed's order, each failing with its own layer and code:
//!
//! 1. protocol: the call is read in whichever shape it came (`call`: an agent action, which
//!    must be a `tool_call` (`ACTION_NOT_TOOL_CALL`), a decision or assembled call, a provider's
//!    or MCP's call object); errors point into the caller's object;
//! 2. domain: the tool must be registered (`UNKNOWN_TOOL`, with `availableTools`: the closest
//!    registered names, at most 20, nothing else from the registry);
//! 3. schema: the input must satisfy the tool's `inputSchema` (`SCHEMA_MISMATCH`); an input of
//!    `null` or `undefined` means "no arguments" and is checked (and returned) as `{}`;
//! 4. domain: the policy must allow it (`POLICY_DENIED`, or `APPROVAL_REQUIRED` carrying a
//!    `request_approval` proposal).
//!
//! The registry and the policy are the program's configuration and are read first (contract
//! layer). The result is an approved call `{callId, tool, input, permissions}`; nothing is run.

use crate::error::{Approval, Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::input::HostValue;
use crate::tools::call;
use crate::tools::contract::ToolDefinition;
use crate::tools::policy::{self, Effect};
use crate::tools::registry;
use crate::tools::schema::CompiledSchema;
use crate::value::Value;

pub fn check_tool_call<V: HostValue>(registry: &V, call: &V, policy: &V, options: &Options) -> Result<Value> {
    // Only the tool called is compiled: a registry larger than the compiled-schema cache would
    // otherwise recompile every schema on every call.
    let (list, names) = registry::read_names(registry)?;
    check_with(&names, policy, call, options, |index| {
        let def = registry::read_tool_at(&list, index)?;
        let compiled = def.compile_input()?;
        Ok((std::rc::Rc::new(def), compiled))
    })
}

/// The layers after the registry: `names` are the registered names with their index, and
/// `tool_at(index)` gives the definition called and its compiled input schema (read from the
/// registry value, or held by a compiled registry, `tools::handle`).
pub fn check_with<V: HostValue>(
    names: &[(usize, String)],
    policy: &V,
    call: &V,
    options: &Options,
    tool_at: impl FnOnce(usize) -> Result<(std::rc::Rc<ToolDefinition>, std::rc::Rc<CompiledSchema>)>,
) -> Result<Value> {
    let policy = policy::define_policy(policy)?;
    let call = call::read_call(call, options)?;
    let (call_id, tool, input) = (call.call_id, call.name, call.input);
    let Some(&(index, _)) = names.iter().find(|(_, n)| *n == tool) else {
        let mut e =
            ContractError::new(Code::UnknownTool, call.name_path, format!("no tool named {tool:?} is registered"));
        let names: Vec<String> = names.iter().map(|(_, n)| n.clone()).collect();
        e.available_tools = Some(registry::closest_names(&names, &tool));
        return Err(e);
    };
    let (def, compiled) = tool_at(index)?;
    let def = &*def;
    crate::tools::schema::validate(&compiled, &input, options.max_issues).map_err(|mut e| {
        if e.code == Code::SchemaMismatch {
            e.path = call.input_path.to_owned();
        }
        e
    })?;
    let verdict = policy.decide(def);
    match verdict.effect {
        Effect::Allow => {}
        Effect::Deny => {
            return Err(ContractError::new(
                Code::PolicyDenied,
                call.name_path,
                format!("the policy denies tool {tool:?}: {}", verdict.reason),
            )
            .in_layer(Layer::Domain))
        }
        Effect::Ask => {
            let reason = format!("the policy asks for approval before tool {tool:?} runs: {}", verdict.reason);
            let mut e = ContractError::new(Code::ApprovalRequired, call.name_path, reason.clone());
            e.proposal =
                Some(Approval { request_id: call_id, capability: def.permissions.join(","), resource: tool, reason });
            return Err(e);
        }
    }
    Ok(Value::Object(vec![
        ("callId".to_owned(), Value::String(call_id)),
        ("tool".to_owned(), Value::String(tool)),
        ("input".to_owned(), input),
        ("permissions".to_owned(), Value::Array(def.permissions.iter().cloned().map(Value::String).collect())),
    ]))
}
