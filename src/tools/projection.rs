//! Provider projections of a registry, and OpenAI strict-mode checks. Pure functions of the
//! definitions: every host gets the same objects, in the registry's order (sorted by name).
//!
//! - OpenAI (Chat Completions `tools`): `{type: "function", function: {name, description,
//!   parameters, strict}}`, `strict` true exactly when `strictSchemaIssues(inputSchema)` is
//!   empty (a schema strict mode would reject is never sent as strict);
//! - Anthropic (Messages `tools`): `{name, description, input_schema}`;
//! - OpenAI Responses (`tools`): `{type: "function", name, description, parameters, strict}`
//!   (the `FunctionTool` shape: everything at the top level), `strict` as for Chat Completions;
//! - MCP (`tools/list`): `{name, description, inputSchema, outputSchema?, annotations}` with
//!   `readOnlyHint` (only `read`), `destructiveHint` (`write` or `execute`) and `openWorldHint`
//!   (`network` or `execute`).
//!
//! Every client requires an input schema whose root is `"type": "object"`. `defineTool` refuses
//! any other root `type` (`TOOL_SCHEMA_ROOT_NOT_OBJECT`); a root without `type` (`{}`, or only
//! `properties`) is written with `"type": "object"` first (`client_schema`). That restricts
//! nothing a provider could send, since tool arguments are always one JSON object. Projections
//! are fresh plain data; the definitions stay as given.

use crate::error::{Issue, Result};
use crate::tools::contract::ToolDefinition;
use crate::tools::names::{check_for_target, NameRule};
use crate::value::{push_pointer, Value};

fn s(x: &str) -> Value {
    Value::String(x.to_owned())
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// An input (or MCP output) schema as clients require it: an object schema with `"type":
/// "object"` at its root. `None` for a schema whose root `type` is something else (only an
/// output schema can be one: `defineTool` refuses such an input schema).
pub fn client_schema(schema: &Value) -> Option<Value> {
    into_client_schema(schema.clone()).ok()
}

/// `schema` as clients require it (see `client_schema`), without copying it: `Err` gives it
/// back unchanged when its root `type` is something else.
fn into_client_schema(schema: Value) -> std::result::Result<Value, Value> {
    let Value::Object(mut entries) = schema else { return Err(schema) };
    match entries.iter().find(|(k, _)| k == "type") {
        Some((_, Value::String(t))) if t == "object" => Ok(Value::Object(entries)),
        Some(_) => Err(Value::Object(entries)),
        None => {
            entries.insert(0, ("type".to_owned(), s("object")));
            Ok(Value::Object(entries))
        }
    }
}

/// The input schema of a defined tool, as clients take it: object root, and the tool's
/// `resources` embedded (`resources::bundle`), so the schema is self-contained. The definition
/// is the projection's own (read for this call, or a registry handle's copy): its schema is
/// moved into the projection, not copied (each copy of a large schema was a walk of it and its
/// size again in memory).
pub(crate) fn parameters(d: &mut ToolDefinition, index: usize) -> Result<Value> {
    let schema = std::mem::replace(&mut d.input_schema, Value::Null);
    bundle(into_client_schema(schema).unwrap_or_else(|same| same), d, index)
}

/// `schema` with the tool's documents embedded: a schema that needs none is returned as it is.
fn bundle(schema: Value, d: &ToolDefinition, index: usize) -> Result<Value> {
    if !crate::tools::resources::needs_bundling(&schema, &d.resources) {
        return Ok(schema);
    }
    crate::tools::resources::bundle(&schema, &d.resources, &format!("/tools/{index}/resources"))
}

/// The members both OpenAI shapes give a function: `name`, `description`, `parameters` and
/// `strict` (true exactly when strict mode would accept the parameters).
fn openai_function(mut d: ToolDefinition, index: usize) -> Result<Vec<(&'static str, Value)>> {
    check_for_target(NameRule::OpenAi, &d.name, index)?;
    let parameters = parameters(&mut d, index)?;
    let strict = strict_schema_issues(&parameters).is_empty();
    Ok(vec![
        ("name", Value::String(d.name)),
        ("description", Value::String(d.description)),
        ("parameters", parameters),
        ("strict", Value::Bool(strict)),
    ])
}

/// OpenAI Chat Completions tools: `{type: "function", function: {...}}`.
pub fn openai(defs: Vec<ToolDefinition>) -> Result<Value> {
    Ok(Value::Array(
        defs.into_iter()
            .enumerate()
            .map(|(i, d)| Ok(obj(vec![("type", s("function")), ("function", obj(openai_function(d, i)?))])))
            .collect::<Result<_>>()?,
    ))
}

/// OpenAI Responses `FunctionTool`s: the Chat Completions function, flattened.
pub fn openai_responses(defs: Vec<ToolDefinition>) -> Result<Value> {
    Ok(Value::Array(
        defs.into_iter()
            .enumerate()
            .map(|(i, d)| {
                let mut members = vec![("type", s("function"))];
                members.extend(openai_function(d, i)?);
                Ok(obj(members))
            })
            .collect::<Result<_>>()?,
    ))
}

pub fn anthropic(defs: Vec<ToolDefinition>) -> Result<Value> {
    Ok(Value::Array(
        defs.into_iter()
            .enumerate()
            .map(|(i, mut d)| {
                check_for_target(NameRule::Anthropic, &d.name, i)?;
                let input_schema = parameters(&mut d, i)?;
                Ok(obj(vec![
                    ("name", Value::String(d.name)),
                    ("description", Value::String(d.description)),
                    ("input_schema", input_schema),
                ]))
            })
            .collect::<Result<_>>()?,
    ))
}

pub fn mcp(defs: Vec<ToolDefinition>) -> Result<Value> {
    Ok(Value::Array(
        defs.into_iter()
            .enumerate()
            .map(|(i, mut d)| {
                check_for_target(NameRule::Mcp, &d.name, i)?;
                let has = |p: &str| d.permissions.iter().any(|x| x == p);
                let annotations = obj(vec![
                    ("readOnlyHint", Value::Bool(d.permissions.iter().all(|p| p == "read"))),
                    ("destructiveHint", Value::Bool(has("write") || has("execute"))),
                    ("openWorldHint", Value::Bool(has("network") || has("execute"))),
                ]);
                let input_schema = parameters(&mut d, i)?;
                // MCP's `structuredContent` is an object: an output schema of another root type
                // has no MCP form, so it is left out (the tool still lists and calls).
                let output_schema = match d.output_schema.take().map(into_client_schema) {
                    Some(Ok(out)) => Some(bundle(out, &d, i)?),
                    _ => None,
                };
                let mut entries = vec![
                    ("name", Value::String(d.name)),
                    ("description", Value::String(d.description)),
                    ("inputSchema", input_schema),
                ];
                if let Some(out) = output_schema {
                    entries.push(("outputSchema", out));
                }
                entries.push(("annotations", annotations));
                Ok(obj(entries))
            })
            .collect::<Result<_>>()?,
    ))
}

/// Keywords OpenAI's strict mode accepts (structured outputs' supported subset).
const STRICT_KEYWORDS: [&str; 23] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "$schema",
];
/// Strict mode's size limits.
pub const STRICT_MAX_DEPTH: usize = 10;
pub const STRICT_MAX_PROPERTIES: usize = 5000;
pub const STRICT_MAX_ENUM_VALUES: usize = 1000;

/// The most bytes of issues (paths, keywords, messages) `strictSchemaIssues` and
/// `geminiSchemaIssues` list: paths are copies of the walk's position, so a schema nesting long
/// member names could otherwise make its issues many times larger than itself. Past it the list
/// ends with one `truncated` issue.
pub const MAX_ISSUE_BYTES: usize = 4 << 20;

/// A schema's issues, listed up to MAX_ISSUE_BYTES.
#[derive(Default)]
pub struct IssueList {
    issues: Vec<Issue>,
    bytes: usize,
    cut: bool,
}

impl IssueList {
    /// Whether the list is full: a walk can stop, or at least stop writing paths.
    pub fn is_full(&self) -> bool {
        self.cut
    }

    pub fn push(&mut self, path: &str, keyword: &str, message: String) {
        let size = path.len() + keyword.len() + message.len();
        if self.cut || self.bytes + size > MAX_ISSUE_BYTES {
            self.cut = true;
            return;
        }
        self.bytes += size;
        self.issues.push(Issue { path: path.to_owned(), keyword: keyword.to_owned(), message });
    }

    /// The issues, ending with the `truncated` one when some did not fit.
    pub fn finish(mut self) -> Vec<Issue> {
        if self.cut {
            self.issues.push(Issue {
                path: String::new(),
                keyword: "truncated".into(),
                message: format!("more issues than fit in {MAX_ISSUE_BYTES} bytes; the first are listed"),
            });
        }
        self.issues
    }
}

/// Why OpenAI's strict mode would not accept `schema`, as `{path, keyword, message}` with JSON
/// Pointers into the schema, in document order; empty when it would. Reads only.
pub fn strict_schema_issues(schema: &Value) -> Vec<Issue> {
    let mut found = Found { list: IssueList::default(), counts: (0, 0) };
    match schema {
        Value::Object(_) => {
            if schema.get("anyOf").is_some() {
                found.push("/anyOf", "anyOf", "the root schema must not be anyOf".into());
            }
            if schema.get("type") != Some(&Value::String("object".into())) {
                found.push("/type", "type", "the root schema must be of type \"object\"".into());
            }
        }
        _ => {
            found.push("", "type", "the root schema must be an object schema".into());
            return found.list.finish();
        }
    }
    // One path buffer for the whole walk (each level pushes its segment and truncates back),
    // so the walk holds one path, not one per level: linear in the schema, not quadratic.
    walk(schema, &mut String::new(), 0, &mut found);
    if found.counts.0 > STRICT_MAX_PROPERTIES {
        found.push("", "properties", format!("more than {STRICT_MAX_PROPERTIES} properties in all"));
    }
    if found.counts.1 > STRICT_MAX_ENUM_VALUES {
        found.push("", "enum", format!("more than {STRICT_MAX_ENUM_VALUES} enum values in all"));
    }
    found.list.finish()
}

/// The issues found so far and the property / enum counts.
struct Found {
    list: IssueList,
    counts: (usize, usize),
}

impl Found {
    fn push(&mut self, path: &str, keyword: &str, message: String) {
        self.list.push(path, keyword, message);
    }
}

/// `path` is the position of `schema`; every call leaves it as it found it.
fn walk(schema: &Value, path: &mut String, depth: usize, found: &mut Found) {
    let Value::Object(entries) = schema else {
        if matches!(schema, Value::Bool(_)) {
            found.push(path, "type", "boolean schemas are not supported in strict mode".into());
        }
        return;
    };
    if depth > STRICT_MAX_DEPTH {
        found.push(path, "properties", format!("nested deeper than {STRICT_MAX_DEPTH} levels"));
        return;
    }
    let len = path.len();
    for (k, _) in entries {
        if !STRICT_KEYWORDS.contains(&k.as_str()) {
            push_pointer(path, k);
            found.push(path, k, format!("keyword {k:?} is not supported in strict mode"));
            path.truncate(len);
        }
    }
    let is_object = match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == &Value::String("object".into())),
        _ => schema.get("properties").is_some(),
    };
    if is_object {
        if schema.get("additionalProperties") != Some(&Value::Bool(false)) {
            push_pointer(path, "additionalProperties");
            found.push(path, "additionalProperties", "every object must set additionalProperties: false".into());
            path.truncate(len);
        }
        // A set: every property is looked up in it (a list is O(properties × required)).
        let required: std::collections::HashSet<&str> = match schema.get("required") {
            Some(Value::Array(r)) => {
                r.iter().filter_map(|v| if let Value::String(s) = v { Some(s.as_str()) } else { None }).collect()
            }
            _ => Default::default(),
        };
        if let Some(Value::Object(props)) = schema.get("properties") {
            for (name, _) in props {
                if !required.contains(name.as_str()) {
                    push_pointer(path, "required");
                    found.push(
                        path,
                        "required",
                        format!("property {name:?} must be listed in required (use a null type for optional)"),
                    );
                    path.truncate(len);
                }
            }
        }
    }
    if let Some(Value::Array(e)) = schema.get("enum") {
        found.counts.1 += e.len();
    }
    for (k, v) in entries {
        push_pointer(path, k);
        let child = path.len();
        match (k.as_str(), v) {
            ("properties" | "$defs" | "definitions", Value::Object(props)) => {
                if k == "properties" {
                    found.counts.0 += props.len();
                }
                let next = if k == "properties" { depth + 1 } else { depth };
                for (name, sub) in props {
                    push_pointer(path, name);
                    walk(sub, path, next, found);
                    path.truncate(child);
                }
            }
            ("items", sub) => walk(sub, path, depth + 1, found),
            ("anyOf", Value::Array(subs)) => {
                for (i, sub) in subs.iter().enumerate() {
                    push_pointer(path, &i.to_string());
                    walk(sub, path, depth, found);
                    path.truncate(child);
                }
            }
            _ => {}
        }
        path.truncate(len);
    }
}
