//! The registry: a set of tool definitions with unique names, kept as plain data.
//!
//! `createRegistry(tools)` defines every tool (all the `defineTool` rules), refuses a name given
//! twice (`TOOL_DUPLICATE`) and returns `{tools: [...definitions sorted by name]}`. Hosts hold
//! that plain value (deep-frozen in JS); every operation taking a registry reads it again with
//! the same rules (`read_registry`), so a changed or forged registry cannot skip one. The
//! compiled-schema cache (`tools::schema`) makes reading again cheap. Nothing here executes a tool.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::limits::Limits;
use crate::input::options::Options;
use crate::input::{Budget, Copier, HostValue, Kind, Path, Undefined};
use crate::tools::contract::{self, ToolDefinition};
use crate::value::Value;

/// A definition and its compiled input schema.
pub type Compiled = (ToolDefinition, std::rc::Rc<crate::tools::schema::CompiledSchema>);

/// A host value as a pure-JSON `Value` (the configuration a program hands over: registries,
/// policies, tool definitions), under `limits`.
pub fn read_value<V: HostValue>(value: &V, limits: &Limits, undefined: Undefined) -> Result<Value> {
    let mut budget = Budget::new(limits);
    let mut copier = Copier { limits, budget: &mut budget, undefined };
    copier.copy(value, &Path::Root(""), 0)
}

/// Prefixes an error's path (a rule on an element reports relative to that element).
pub fn under(mut e: ContractError, prefix: &str) -> ContractError {
    e.path = format!("{prefix}{}", e.path);
    e
}

fn invalid(path: &str, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::RegistryInvalid, path, message).in_layer(Layer::Contract)
}

/// `createRegistry(tools)`: `tools` is a list of tool definitions, or `{tools, resources}` with
/// schema documents the tools share (each tool takes those its schemas reference).
pub fn create_registry<V: HostValue>(tools: &V, options: &Options) -> Result<Vec<ToolDefinition>> {
    Ok(create_compiled(tools, options)?.into_iter().map(|(def, _)| def).collect())
}

/// `create_registry` with each definition's compiled input schema, the one its check made: a
/// holder of the registry (`RegistryHandle`) compiling them again paid every compile twice once
/// the registry outgrew the compile cache.
pub fn create_compiled<V: HostValue>(tools: &V, options: &Options) -> Result<Vec<Compiled>> {
    let _patterns = crate::tools::schema::PatternScope::open();
    if tools.kind() == Kind::Object && tools.get("tools").map_err(|f| f.at("/tools"))?.is_some() {
        return create_sharing(tools, options);
    }
    if tools.kind() != Kind::Array {
        return Err(invalid(
            "",
            format!(
                "createRegistry expects a list of tool definitions (or {{tools, resources}}), got {}",
                crate::input::fields::kind_name(tools, tools.kind())
            ),
        ));
    }
    let len = tools.len().map_err(|f| f.at(""))?;
    let read = read_each(len, |i| {
        let prefix = format!("/{i}");
        let item = tools.index(i).map_err(|f| f.at(&prefix))?;
        contract::read_definition(&item, options).map_err(|e| under(e, &prefix))
    });
    finish(compile_each(read, "")?, "")
}

/// Reads the definitions at 0..len in order, up to the first that fails (its error kept for
/// after the ones before it are compiled).
fn read_each(
    len: usize,
    mut read: impl FnMut(usize) -> Result<ToolDefinition>,
) -> (Vec<ToolDefinition>, Option<ContractError>) {
    let mut defs = Vec::with_capacity(len.min(1 << 12));
    for i in 0..len {
        match read(i) {
            Ok(def) => defs.push(def),
            Err(e) => return (defs, Some(e)),
        }
    }
    (defs, None)
}

/// Compiles the definitions read, in order, after counting all of their schemas into the budget
/// of patterns the call shares (`schema::plan`): the budget is then the same whatever the order,
/// so a registry `createRegistry` accepted is accepted when read again in its sorted order. The
/// first error is the first definition's in the given order, as when each was read and compiled
/// in turn: a compile error before the failed read, or that read's error.
fn compile_each((defs, failed): (Vec<ToolDefinition>, Option<ContractError>), prefix: &str) -> Result<Vec<Compiled>> {
    for def in &defs {
        contract::plan_schemas(def);
    }
    let mut compiled = Vec::with_capacity(defs.len());
    for (i, def) in defs.into_iter().enumerate() {
        let schema = contract::check_schemas(&def).map_err(|e| under(e, &format!("{prefix}/{i}")))?;
        compiled.push((def, schema));
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(compiled),
    }
}

/// `createRegistry({tools: [...], resources?: {uri: schema}})`.
fn create_sharing<V: HostValue>(arg: &V, options: &Options) -> Result<Vec<Compiled>> {
    let keys = arg.keys().map_err(|e| e.at(""))?;
    if let Some(k) = keys.iter().find(|k| k.as_str() != "tools" && k.as_str() != "resources") {
        return Err(invalid(
            &crate::value::pointer_child("", k),
            format!(
                "unknown field {}: createRegistry takes a list of tools or {{tools, resources}}",
                crate::value::quoted_name(k)
            ),
        ));
    }
    let shared = match arg.get("resources").map_err(|f| f.at("/resources"))? {
        None => crate::tools::resources::Shared::new(Vec::new()),
        Some(r) if r.kind() == Kind::Object => {
            let value = read_value(&r, &options.limits, Undefined::Reject).map_err(|e| under(e, "/resources"))?;
            crate::tools::resources::Shared::new(crate::tools::resources::read(value)?)
        }
        Some(_) => {
            return Err(ContractError::new(
                Code::ToolResourceInvalid,
                "/resources",
                "resources must be an object from URI to schema document",
            )
            .in_layer(Layer::Contract))
        }
    };
    let Some(tools) = arg.get("tools").map_err(|f| f.at("/tools"))? else {
        return Err(invalid("/tools", "createRegistry({tools, resources}) needs a tools list"));
    };
    if tools.kind() != Kind::Array {
        return Err(invalid("/tools", "tools must be a list of tool definitions"));
    }
    let len = tools.len().map_err(|f| f.at("/tools"))?;
    let mut taken = 0;
    let read = read_each(len, |i| {
        let prefix = format!("/tools/{i}");
        let item = tools.index(i).map_err(|f| f.at(&prefix))?;
        let tool = contract::read_sharing(&item, options, &shared, &mut taken).map_err(|e| under(e, &prefix))?;
        if taken > crate::tools::resources::MAX_SHARED_TAKEN_BYTES {
            return Err(ContractError::new(
                Code::InputTooLarge,
                prefix,
                format!(
                    "the tools take more than {} MiB of the shared resources in all (each tool holds a copy of every document it references)",
                    crate::tools::resources::MAX_SHARED_TAKEN_BYTES >> 20
                ),
            ));
        }
        Ok(tool)
    });
    finish(compile_each(read, "/tools")?, "/tools")
}

/// Sorts by name and refuses duplicates (reported at the later one's `name`, in given order).
fn finish(mut defs: Vec<Compiled>, prefix: &str) -> Result<Vec<Compiled>> {
    unique_names(defs.iter().map(|(d, _)| d.name.as_str()), prefix)?;
    crate::order::sort_by(&mut defs, |(a, _), (b, _)| a.name.cmp(&b.name));
    Ok(defs)
}

fn unique_names<'a>(names: impl Iterator<Item = &'a str>, prefix: &str) -> Result<()> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, name) in names.enumerate() {
        if let Some(first) = seen.insert(name, i) {
            return Err(ContractError::new(
                Code::ToolDuplicate,
                format!("{prefix}/{i}/name"),
                format!("tool name {name:?} is already registered (at {prefix}/{first})"),
            ));
        }
    }
    Ok(())
}

/// The registry value hosts hold: `{tools: [...]}`.
pub fn registry_value(defs: Vec<ToolDefinition>) -> Value {
    Value::Object(vec![("tools".to_owned(), catalog_value(defs))])
}

pub fn catalog_value(defs: Vec<ToolDefinition>) -> Value {
    Value::Array(defs.into_iter().map(|d| d.into_value()).collect())
}

/// The `tools` list of a registry: `{tools: [...]}` and nothing else.
pub fn tools_list<V: HostValue>(registry: &V) -> Result<V> {
    if registry.kind() != Kind::Object {
        return Err(invalid(
            "",
            format!(
                "a registry must be the object createRegistry returned, got {}",
                crate::input::fields::kind_name(registry, registry.kind())
            ),
        ));
    }
    let keys = registry.keys().map_err(|e| e.at(""))?;
    if let Some(k) = keys.iter().find(|k| k.as_str() != "tools") {
        return Err(invalid(
            &crate::value::pointer_child("", k),
            format!("unknown field {} in a registry", crate::value::quoted_name(k)),
        ));
    }
    let Some(tools) = registry.get("tools").map_err(|f| f.at("/tools"))? else {
        return Err(invalid("/tools", "a registry must have a tools list"));
    };
    if tools.kind() != Kind::Array {
        return Err(invalid("/tools", "a registry's tools must be a list"));
    }
    Ok(tools)
}

/// Reads a registry handed back by the program: `{tools: [definitions]}`, each definition read
/// again under the ceilings (like `validateToolInput` reads its tool), names unique; sorted.
pub fn read_registry<V: HostValue>(registry: &V, strict: bool) -> Result<Vec<ToolDefinition>> {
    let _patterns = crate::tools::schema::PatternScope::open();
    read_definitions(&tools_list(registry)?, "/tools", strict)?.compile()
}

/// A list of definitions as read, their schemas not compiled yet: those before the first that
/// failed to read, that failure, and the pointer of the list in the call's arguments.
#[derive(Default)]
pub struct Read {
    defs: Vec<ToolDefinition>,
    failed: Option<ContractError>,
    at: String,
}

/// Reads a list of definitions (at `at` in the call's arguments: errors point there) without
/// compiling their schemas, for a call that reads more than one list and counts all of their
/// schemas into its budget first (`Read::plan`).
pub fn read_definitions<V: HostValue>(tools: &V, at: &str, strict: bool) -> Result<Read> {
    let options = Options { strict, limits: Limits::ceilings(), ..Options::default() };
    let len = tools.len().map_err(|f| f.at(at))?;
    let (defs, failed) = read_each(len, |i| {
        let prefix = format!("{at}/{i}");
        let item = tools.index(i).map_err(|f| f.at(&prefix))?;
        contract::read_definition(&item, &options).map_err(|e| under(e, &prefix))
    });
    Ok(Read { defs, failed, at: at.to_owned() })
}

impl Read {
    /// Whether every definition was read.
    pub fn is_whole(&self) -> bool {
        self.failed.is_none()
    }

    /// Counts the schemas read into the budget of patterns the open call shares.
    pub fn plan(&self) {
        for def in &self.defs {
            contract::plan_schemas(def);
        }
    }

    /// Compiles the schemas (the first error as when each definition was read and compiled in
    /// turn), refuses a name given twice, and sorts by name.
    pub fn compile(self) -> Result<Vec<ToolDefinition>> {
        let mut defs: Vec<ToolDefinition> =
            compile_each((self.defs, self.failed), &self.at)?.into_iter().map(|(def, _)| def).collect();
        // Checked in place: a copy of every definition (schemas included) only to sort the copy
        // was a second walk of the whole registry.
        unique_names(defs.iter().map(|d| d.name.as_str()), &self.at)?;
        crate::order::sort_by(&mut defs, |a, b| a.name.cmp(&b.name));
        Ok(defs)
    }
}

/// The registry's shape and its tools' names only (unique, valid), each with its index: what
/// `checkToolCall` needs to find the tool called, which it then reads in full (`read_tool_at`).
/// A tool whose name cannot be read is read in full here, so its error is `defineTool`'s.
pub fn read_names<V: HostValue>(registry: &V) -> Result<(V, Vec<(usize, String)>)> {
    let tools = tools_list(registry)?;
    let options = Options { limits: Limits::ceilings(), ..Options::default() };
    let len = tools.len().map_err(|f| f.at("/tools"))?;
    let mut names: Vec<(usize, String)> = Vec::with_capacity(len.min(1 << 12));
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for i in 0..len {
        let prefix = format!("/tools/{i}");
        let item = tools.index(i).map_err(|f| f.at(&prefix))?;
        let name = match (item.kind(), item.get_string("name")) {
            (Kind::Object, Ok(crate::input::StringField::String(n))) if contract::is_valid_name(&n) => n,
            _ => contract::read_definition(&item, &options).map_err(|e| under(e, &prefix))?.name,
        };
        if let Some(first) = seen.insert(name.clone(), i) {
            return Err(ContractError::new(
                Code::ToolDuplicate,
                format!("/tools/{i}/name"),
                format!("tool name {name:?} is already registered (at /tools/{first})"),
            ));
        }
        names.push((i, name));
    }
    Ok((tools, names))
}

/// Reads the tool at `tools[index]` in full (every `defineTool` rule, schemas compiled).
pub fn read_tool_at<V: HostValue>(tools: &V, index: usize) -> Result<ToolDefinition> {
    let prefix = format!("/tools/{index}");
    let item = tools.index(index).map_err(|f| f.at(&prefix))?;
    let options = Options { limits: Limits::ceilings(), ..Options::default() };
    contract::define_tool(&item, &options).map_err(|e| under(e, &prefix))
}

/// Levenshtein distance over characters (names are short: at most 64 characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(256).collect();
    let b: Vec<char> = b.chars().take(256).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// At most this many names in `UNKNOWN_TOOL`'s `availableTools`.
pub const MAX_SUGGESTIONS: usize = 20;

/// The registered names closest to `name`: by edit distance, then by name; at most 20.
pub fn closest_names(names: &[String], name: &str) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = names.iter().map(|n| (edit_distance(name, n), n.as_str())).collect();
    crate::order::sort(&mut scored);
    scored.into_iter().take(MAX_SUGGESTIONS).map(|(_, n)| n.to_owned()).collect()
}
