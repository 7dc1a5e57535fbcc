//! The seed's `ToolDefinition {name, description, parameters}` (seed 004) and the project's
//! tool contract (`defineTool`). `parameters` is the contract's `inputSchema`. The seed has no
//! permissions and the contract requires them (a tool that declares none cannot be matched by
//! any policy rule), so reading a seed definition needs them given with it:
//! `fromSeedTool(def, {permissions: [...]})`; without them the definition is refused
//! (`FIELD_MISSING` at `/permissions`). `toSeedTool(tool)` is the other direction: the contract
//! checked again, then its name, description and inputSchema (the documents it references from
//! `resources` embedded).

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Undefined};
use crate::tools::contract::{define_tool, ToolDefinition};
use crate::tools::registry::read_value;
use crate::value::Value;

/// `fromSeedTool(def, extra, options?)`: the tool contract, as `defineTool` returns it.
pub fn from_seed_tool<V: HostValue>(def: &V, extra: &V, options: &Options) -> Result<ToolDefinition> {
    let def = read_value(def, &options.limits, Undefined::Keep)?;
    let extra = read_value(extra, &options.limits, Undefined::Keep)?;
    let permissions = match &extra {
        Value::Object(_) => extra.get("permissions").cloned(),
        Value::Undefined | Value::Null => None,
        _ => {
            return Err(ContractError::new(Code::FieldType, "", "the second argument must be {permissions: [...]}")
                .in_layer(Layer::Contract))
        }
    };
    let Some(permissions) = permissions else {
        return Err(ContractError::new(
            Code::FieldMissing,
            "/permissions",
            "a seed ToolDefinition has no permissions: give them as fromSeedTool(def, {permissions: [...]})",
        )
        .in_layer(Layer::Contract));
    };
    let contract = match def {
        Value::Object(members) => {
            let mut out = Vec::new();
            for (key, value) in members {
                match key.as_str() {
                    "name" | "description" => out.push((key, value)),
                    "parameters" => out.push(("inputSchema".to_owned(), value)),
                    _ if options.strict => {
                        return Err(ContractError::new(
                            Code::ToolFieldUnknown,
                            crate::value::pointer_child("", &key),
                            format!(
                                "unknown field {} in a seed ToolDefinition (strict mode)",
                                crate::value::quoted_name(&key)
                            ),
                        ))
                    }
                    _ => {}
                }
            }
            out.push(("permissions".to_owned(), permissions));
            Value::Object(out)
        }
        other => other,
    };
    define_tool(&&contract, &Options { strict: false, ..*options }).map_err(|mut e| {
        if let Some(rest) = e.path.strip_prefix("/inputSchema") {
            e.path = format!("/parameters{rest}");
        }
        e
    })
}

/// `toSeedTool(tool)`: `{name, description, parameters}` of a valid tool contract.
pub fn to_seed_tool<V: HostValue>(tool: &V) -> Result<Value> {
    if tool.kind() != Kind::Object {
        return Err(ContractError::new(Code::ToolNotObject, "", "a tool contract must be an object"));
    }
    let t = define_tool(tool, &Options { limits: crate::Limits::ceilings(), ..Options::default() })?;
    // The seed's definition has no resources: the documents the schema references are embedded,
    // as the projections embed them, so `parameters` resolves on its own.
    let parameters = crate::tools::resources::bundle(&t.input_schema, &t.resources, "/resources")?;
    Ok(Value::Object(vec![
        ("name".to_owned(), Value::String(t.name)),
        ("description".to_owned(), Value::String(t.description)),
        ("parameters".to_owned(), parameters),
    ]))
}
