//! The tool contract: what a tool must declare before any model may see or call it.
//!
//! `name` is a stable snake_case identifier (it ends up in prompts, traces and policy keys),
//! `description` says when to use it, `inputSchema` is a JSON object, `permissions` is a closed
//! set so a typo can never slip past a policy. The result is a deep copy: later changes to the
//! caller's objects cannot change a registered contract.

use std::rc::Rc;

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{is_blank, kind_name, Field, Reader, Source};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path, Undefined};
use crate::json::{self, Mode};
use crate::tools::names::NameRule;
use crate::tools::schema::CompiledSchema;
use crate::value::{pointer_child, pointer_index, take_member, Value};

pub const NAME_MAX_LEN: usize = 64;
pub const PERMISSIONS: [&str; 4] = ["read", "write", "execute", "network"];
const TOOL_FIELDS: [&str; 10] = [
    "name",
    "description",
    "inputSchema",
    "permissions",
    "permission",
    "outputSchema",
    "version",
    "resources",
    "names",
    "formats",
];

#[derive(Clone, Debug, PartialEq)]
pub struct ToolDefinition {
    pub name: String,
    /// Trimmed.
    pub description: String,
    pub input_schema: Value,
    /// Non-empty, no duplicates, in the order given.
    pub permissions: Vec<String>,
    pub output_schema: Option<Value>,
    pub version: Option<String>,
    /// Schema documents the schemas may `$ref` by URI (`tools::resources`), in the order
    /// given; empty when the definition has none.
    pub resources: Vec<(String, Value)>,
    /// Whose rule `name` follows (`tools::names`): ours unless the definition or the option
    /// names a catalog's protocol; kept in the value (`names`) so that the definition read
    /// again, alone or in a registry, follows it too.
    pub names: NameRule,
    /// `format` asserted (`formats: "assert"`) rather than an annotation; kept in the value
    /// like `names`, and part of the compiled-schema cache's key.
    pub assert_formats: bool,
}

impl ToolDefinition {
    pub fn into_value(self) -> Value {
        let mut entries = vec![
            ("name".to_owned(), Value::String(self.name)),
            ("description".to_owned(), Value::String(self.description)),
            ("inputSchema".to_owned(), self.input_schema),
            ("permissions".to_owned(), Value::Array(self.permissions.into_iter().map(Value::String).collect())),
        ];
        if let Some(schema) = self.output_schema {
            entries.push(("outputSchema".to_owned(), schema));
        }
        if let Some(version) = self.version {
            entries.push(("version".to_owned(), Value::String(version)));
        }
        if !self.resources.is_empty() {
            entries.push(("resources".to_owned(), Value::Object(self.resources)));
        }
        if let Some(rule) = self.names.as_option() {
            entries.push(("names".to_owned(), Value::String(rule.to_owned())));
        }
        if self.assert_formats {
            entries.push(("formats".to_owned(), Value::String("assert".to_owned())));
        }
        Value::Object(entries)
    }

    /// The input schema compiled (or found in the cache) as this definition asks: its
    /// documents and its format mode.
    pub fn compile_input(&self) -> Result<Rc<CompiledSchema>> {
        crate::tools::schema::compile_for(&self.input_schema, "/inputSchema", &self.resources, self.assert_formats)
    }
}

pub fn define_tool<V: HostValue>(def: &V, options: &Options) -> Result<ToolDefinition> {
    define_tool_compiled(def, options).map(|(tool, _)| tool)
}

/// `define_tool` with the compiled input schema its check made, for a holder of the tool (a
/// `ToolHandle`): compiled once per definition. A second compile of a schema the cache does not
/// keep doubled the instance's peak memory, enough to make a host renew it.
pub fn define_tool_compiled<V: HostValue>(def: &V, options: &Options) -> Result<(ToolDefinition, Rc<CompiledSchema>)> {
    let tool = define_with(def, options, Source::Host)?;
    let compiled = check_schemas(&tool)?;
    Ok((tool, compiled))
}

/// `read_definition` in a registry with shared documents (`createRegistry({tools, resources})`):
/// the tool keeps its own documents (its own wins on the same URI) and takes the shared ones
/// its schemas reference, closed over references between documents; `taken` counts the bytes
/// of the shared documents it took.
pub fn read_sharing<V: HostValue>(
    def: &V,
    options: &Options,
    shared: &crate::tools::resources::Shared,
    taken: &mut usize,
) -> Result<ToolDefinition> {
    use crate::tools::resources::Owners;
    let mut tool = define_with(def, options, Source::Host)?;
    if shared.docs.is_empty() {
        return Ok(tool);
    }
    let own = tool.resources.len();
    // The shared documents the tool does not shadow with its own, numbered after its own.
    let kept: Vec<usize> =
        (0..shared.docs.len()).filter(|&j| !tool.resources.iter().any(|(u, _)| *u == shared.docs[j].0)).collect();
    let owners = if kept.len() == shared.docs.len() {
        if own == 0 {
            std::borrow::Cow::Borrowed(&shared.owners)
        } else {
            std::borrow::Cow::Owned(Owners::after(&tool.resources, &shared.owners))
        }
    } else {
        let mut all = tool.resources.clone();
        all.extend(kept.iter().map(|&j| shared.docs[j].clone()));
        std::borrow::Cow::Owned(Owners::of(&all))
    };
    // Index `i` past the tool's own documents is shared document `kept[i - own]`.
    let at = |i: usize| kept[i - own];
    let mut needed = {
        let doc = |i: usize| if i < own { &tool.resources[i].1 } else { &shared.docs[at(i)].1 };
        let mut needed = owners.referenced(&tool.input_schema, doc);
        if let Some(output) = &tool.output_schema {
            needed.extend(owners.referenced(output, doc));
        }
        needed
    };
    needed.retain(|&i| i >= own);
    needed.sort_unstable();
    needed.dedup();
    for i in needed {
        let j = at(i);
        *taken = taken.saturating_add(shared.sizes[j]);
        tool.resources.push(shared.docs[j].clone());
    }
    if tool.resources.len() > crate::tools::resources::MAX_RESOURCES {
        return Err(ContractError::new(
            Code::ToolResourceInvalid,
            "/resources",
            format!(
                "the tool needs {} documents with the registry's shared ones; at most {}",
                tool.resources.len(),
                crate::tools::resources::MAX_RESOURCES
            ),
        )
        .in_layer(Layer::Contract));
    }
    Ok(tool)
}

/// The definition rules without compiling the schemas: a registry read again compiles only the
/// tool a call needs (see `registry::read_registry`).
pub fn read_definition<V: HostValue>(def: &V, options: &Options) -> Result<ToolDefinition> {
    define_with(def, options, Source::Host)
}

pub fn define_tool_json(text: &[u8], options: &Options) -> Result<ToolDefinition> {
    define_tool_json_compiled(text, options).map(|(tool, _)| tool)
}

/// `define_tool_json` with the compiled input schema (see `define_tool_compiled`).
pub fn define_tool_json_compiled(text: &[u8], options: &Options) -> Result<(ToolDefinition, Rc<CompiledSchema>)> {
    let mut document = json::parse(text, Mode::Strict, &options.limits)?;
    let mut tool = define_with(&&document, options, Source::StrictText)?;
    tool.input_schema = take_member(&mut document, "inputSchema");
    if let Some(schema) = tool.output_schema.as_mut() {
        *schema = take_member(&mut document, "outputSchema");
    }
    if document.get("resources").is_some() {
        tool.resources = crate::tools::resources::read(take_member(&mut document, "resources"))?;
    }
    let compiled = check_schemas(&tool)?;
    Ok((tool, compiled))
}

fn define_with<V: HostValue>(def: &V, options: &Options, source: Source) -> Result<ToolDefinition> {
    let mut r = Reader::new(Layer::Contract, &options.limits, source);
    match def.kind() {
        Kind::Object => {}
        other => {
            return Err(r.error(
                Code::ToolNotObject,
                "",
                format!("a tool definition must be a plain object, got {}", kind_name(def, other)),
            ))
        }
    }
    r.budget.charge(1)?;

    if options.strict {
        for key in r.keys(def, "")? {
            if !TOOL_FIELDS.contains(&key.as_str()) {
                return Err(r.error(
                    Code::ToolFieldUnknown,
                    &pointer_child("", &key),
                    format!("unknown field {} in a tool definition (strict mode)", crate::value::quoted_name(&key)),
                ));
            }
        }
    }

    let names = catalog_option(&mut r, def, "names", options.names, |item, path| {
        crate::input::options::read_names(item, path)
    })?
    .unwrap_or_default();
    let assert_formats = catalog_option(&mut r, def, "formats", options.formats, |item, path| {
        crate::input::options::read_formats(item, path)
    })?
    .unwrap_or(false);
    let name = r.required_text(def, "name", Code::ToolNameInvalid)?;
    if !names.accepts(&name) {
        return Err(r.error(
            Code::ToolNameInvalid,
            "/name",
            format!("tool name {name:?} must match {}", names.describe()),
        ));
    }
    let description = r.required_text(def, "description", Code::ToolDescriptionEmpty)?.trim().to_owned();
    let input_schema = schema(&mut r, def, "inputSchema")?
        .ok_or_else(|| r.error(Code::FieldMissing, "/inputSchema", "missing required field inputSchema"))?;
    let permissions = permissions(&mut r, def)?;
    let output_schema = schema(&mut r, def, "outputSchema")?;
    let version = match r.optional_string(def, "version")? {
        Some(v) if is_blank(&v) => {
            return Err(r.error(Code::FieldEmpty, "/version", "version must not be empty or blank"))
        }
        Some(v) if parse_semver(&v).is_some() => Some(v),
        Some(v) => {
            return Err(r.error(
                Code::ToolVersionInvalid,
                "/version",
                format!(
                    "version {v:?} must be a Semantic Versioning 2.0.0 version, e.g. \"1.4.0\" or \"2.0.0-beta.1\""
                ),
            ))
        }
        None => None,
    };
    let resources = match r.field(def, "resources")? {
        Field::Missing => Vec::new(),
        Field::Undefined => return Err(r.undefined("/resources", "resources")),
        Field::Present(v) if v.kind() == Kind::Object => {
            let value = r.copy(&v, "/resources", Undefined::Reject)?;
            match source {
                Source::Host => crate::tools::resources::read(value)?,
                // Strict text: `define_tool_json` moves the documents out of the parsed text.
                Source::StrictText => Vec::new(),
            }
        }
        Field::Present(v) => {
            return Err(r.error(
                Code::ToolResourceInvalid,
                "/resources",
                format!("resources must be an object from URI to schema document, got {}", kind_name(&v, v.kind())),
            ))
        }
    };
    Ok(ToolDefinition {
        name,
        description,
        input_schema,
        permissions,
        output_schema,
        version,
        resources,
        names,
        assert_formats,
    })
}

/// A definition's `names` (or `formats`) and the option given with it disagree.
pub fn catalog_option_conflict(key: &str) -> ContractError {
    ContractError::new(
        Code::FieldValueInvalid,
        pointer_child("", key),
        format!("the definition's {key} differs from the {key} option given with it"),
    )
    .in_layer(Layer::Contract)
}

/// A catalog option (`names`, `formats`) as the definition's own field and the call's option
/// give it: either alone decides; both must agree (a definition read under another rule than
/// the one it was defined with is a mistake of the caller's, not a choice to make silently).
/// A field's bad value is `FIELD_VALUE_INVALID` at the field (the option's is `OPTION_INVALID`,
/// already refused when the options were read).
fn catalog_option<V: HostValue, T: PartialEq + Copy + std::fmt::Debug>(
    r: &mut Reader<'_>,
    def: &V,
    key: &str,
    option: Option<T>,
    read: impl Fn(&V, &str) -> Result<T>,
) -> Result<Option<T>> {
    let path = pointer_child("", key);
    let own = match r.field(def, key)? {
        Field::Missing => None,
        Field::Undefined => return Err(r.undefined(&path, key)),
        Field::Present(v) => {
            if v.kind() != Kind::String {
                return Err(r.error(
                    Code::FieldType,
                    &path,
                    format!("{key} must be a string, got {}", kind_name(&v, v.kind())),
                ));
            }
            r.budget.charge(1)?;
            Some(read(&v, &path).map_err(|e| r.error(Code::FieldValueInvalid, &path, e.message))?)
        }
    };
    match (own, option) {
        (Some(own), Some(option)) if own != option => Err(catalog_option_conflict(key)),
        (own, option) => Ok(own.or(option)),
    }
}

/// Our rule: `^[a-z][a-z0-9_]*$`, at most 64 characters.
pub fn is_valid_name(name: &str) -> bool {
    NameRule::Own.accepts(name)
}

/// A Semantic Versioning 2.0.0 version: `MAJOR.MINOR.PATCH`, decimal without leading zeros,
/// then an optional pre-release (`-beta.1`) and build metadata (`+sha.5`). Parsed by the
/// maintained `semver` crate, which also gives precedence to `compareContracts`.
pub fn parse_semver(v: &str) -> Option<semver::Version> {
    semver::Version::parse(v).ok()
}

/// A tool's input is one JSON object in every provider protocol (OpenAI and Gemini arguments,
/// Anthropic `input`, MCP `arguments`), and MCP, Anthropic and OpenAI refuse a tool whose input
/// schema's root `type` is anything but `"object"`. So the root `type`, when given, must be
/// exactly `"object"`; a root without `type` is taken as an object schema and the projections
/// write `"type": "object"` into it (see `projection::client_schema`).
fn check_input_root(schema: &Value) -> Result<()> {
    let root_type = match schema {
        Value::Object(entries) => entries.iter().find(|(k, _)| k == "type").map(|(_, v)| v),
        _ => None,
    };
    match root_type {
        None => Ok(()),
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(other) => Err(ContractError::new(
            Code::ToolSchemaRootNotObject,
            "/inputSchema/type",
            format!(
                "the schema's root type must be \"object\" (or absent), not {}: every provider sends a tool's input, and MCP a tool's structured output, as one JSON object",
                {
                    let mut text = String::new();
                    crate::value::write_json(&mut text, other);
                    text
                }
            ),
        )),
    }
}

/// An optional schema field: `None` when missing; otherwise a plain object deep-copied as pure
/// JSON (no `undefined` anywhere: a schema is data that must survive JSON transport).
fn schema<V: HostValue>(r: &mut Reader<'_>, def: &V, key: &str) -> Result<Option<Value>> {
    let path = pointer_child("", key);
    match r.field(def, key)? {
        Field::Missing => Ok(None),
        Field::Undefined => Err(r.undefined(&path, key)),
        Field::Present(v) if v.kind() == Kind::Object => r.copy(&v, &path, Undefined::Reject).map(Some),
        Field::Present(v) => Err(r.error(
            Code::ToolSchemaNotObject,
            &path,
            format!("{key} must be a JSON Schema object, got {}", kind_name(&v, v.kind())),
        )),
    }
}

fn permissions<V: HostValue>(r: &mut Reader<'_>, def: &V) -> Result<Vec<String>> {
    let list = r.field(def, "permissions")?;
    let single = r.field(def, "permission")?;
    match (list, single) {
        (Field::Missing, Field::Missing) => Err(r.error(
            Code::FieldMissing,
            "/permissions",
            "missing required field permissions (or the shorthand permission)",
        )),
        (Field::Missing, Field::Undefined) => Err(r.undefined("/permission", "permission")),
        (Field::Missing, Field::Present(p)) => {
            let p = r.string_value(&p, &Path::Root("/permission"), "permission")?;
            check_permission(r, &p, "/permission")?;
            Ok(vec![p])
        }
        (Field::Undefined, Field::Missing) => Err(r.undefined("/permissions", "permissions")),
        (Field::Present(list), Field::Missing) => {
            if list.kind() != Kind::Array {
                return Err(r.error(
                    Code::FieldType,
                    "/permissions",
                    format!("permissions must be an array, got {}", kind_name(&list, list.kind())),
                ));
            }
            let len = list.len().map_err(|f| f.at("/permissions"))?;
            r.limits.check_array(len, "/permissions")?;
            r.budget.charge(1)?;
            r.budget.check_room(len)?;
            if len == 0 {
                return Err(r.error(Code::FieldEmpty, "/permissions", "permissions must not be empty"));
            }
            let mut out: Vec<String> = Vec::with_capacity(len.min(PERMISSIONS.len()));
            for i in 0..len {
                let path = pointer_index("/permissions", i);
                let item = list.index(i).map_err(|f| f.at(&path))?;
                let p = r.string_value(&item, &Path::Root(&path), "a permission")?;
                check_permission(r, &p, &path)?;
                if out.contains(&p) {
                    return Err(r.error(
                        Code::ToolPermissionDuplicate,
                        &path,
                        format!("permission {p:?} is listed twice"),
                    ));
                }
                out.push(p);
            }
            Ok(out)
        }
        (_, _) => Err(r.error(
            Code::ToolPermissionConflict,
            "/permission",
            "give either permissions (a list) or permission (one string), not both",
        )),
    }
}

fn check_permission(r: &Reader<'_>, p: &str, path: &str) -> Result<()> {
    if is_blank(p) {
        return Err(r.error(Code::FieldEmpty, path, "a permission must not be empty or blank"));
    }
    if PERMISSIONS.contains(&p) {
        Ok(())
    } else {
        Err(r.error(
            Code::ToolPermissionUnknown,
            path,
            format!("unknown permission {p:?}; expected one of read, write, execute, network"),
        ))
    }
}

/// Counts the definition's schemas into the budget of patterns the call shares before any of
/// the call's definitions compiles (`schema::plan`).
pub fn plan_schemas(tool: &ToolDefinition) {
    crate::tools::schema::plan(&tool.input_schema, &tool.resources, tool.assert_formats);
    if let Some(output) = &tool.output_schema {
        crate::tools::schema::plan(output, &tool.resources, tool.assert_formats);
    }
}

/// `defineTool`'s last step: both schemas must compile (input first), and the input schema
/// must admit objects at its root. The compiled input schema is returned for a holder.
pub fn check_schemas(tool: &ToolDefinition) -> Result<Rc<CompiledSchema>> {
    let input = tool.compile_input()?;
    check_input_root(&tool.input_schema)?;
    if let Some(output) = &tool.output_schema {
        crate::tools::schema::compile_for(output, "/outputSchema", &tool.resources, tool.assert_formats)?;
    }
    Ok(input)
}
