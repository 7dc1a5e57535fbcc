//! MCP's tool messages read as tool contracts: a `tools/list` answer as the definitions a
//! registry takes, and a `tools/call` result checked against its tool's `outputSchema`. The
//! hosts' MCP modules (`pkg/mcp.mjs`, `agent_contract.mcp`) compose these with the other rows;
//! every decision about an MCP message is made here, once.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::options::Options;
use crate::input::HostValue;
use crate::tools::names::NameRule;
use crate::tools::{contract, input};
use crate::value::Value;

/// The options that make a tool an MCP tool: any MCP name, `format` asserted (as the SDKs'
/// default validators, Ajv with ajv-formats, do).
fn mcp_options() -> Options {
    Options { names: Some(NameRule::Mcp), formats: Some(true), ..Options::default() }
}

/// `mcp_options` as the options a host passes with a definition, for the hosts' MCP modules,
/// which define the tools of an MCP peer through the public rows (`describe()`, `mcp`).
pub const TOOL_OPTIONS: [(&str, &str); 2] = [("names", "mcp"), ("formats", "assert")];

/// The failure of a valid schema the core cannot check (look-around, a backreference): a
/// validator made for it refuses every value with the reason, where throwing failed the MCP
/// SDK's whole `listTools()`. Any other failure of a schema is thrown (an invalid schema).
pub const UNCHECKABLE: Code = Code::ToolSchemaUnsupported;

/// How many schemas a host's MCP module keeps compiled by the canonical text of the core's copy
/// (`describe()`, `mcp`): a client sees the same schemas again in every `tools/list` answer, as
/// new objects, and validates with each of them many times; past this many, the least recently
/// used is dropped, so a peer that sends ever new schemas cannot grow the cache without bound.
pub const COMPILED_SCHEMAS_KEPT: usize = 256;

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

/// A member that is present and neither undefined nor null.
fn given<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    value.get(key).filter(|v| !matches!(v, Value::Undefined | Value::Null))
}

/// `mcpToolDefinitions(answer)`: a `tools/list` answer (`{tools: [...]}`, or the list itself) as
/// `{tools, at}`: `tools` what `createRegistry({tools})` takes (each MCP tool as a definition,
/// anything else as it was, for the registry to refuse at its pointer) and `at` the pointer of
/// the list in the answer (`""` or `"/tools"`), to which a host moves the registry's `/tools`.
pub fn tool_definitions<V: HostValue>(answer: &V) -> Result<Value> {
    let answer = input::copy_input(answer, &Options::default())?;
    let (tools, at) = match answer {
        Value::Array(_) => (answer, ""),
        Value::Object(_) => (answer.get("tools").cloned().unwrap_or(Value::Null), "/tools"),
        other => (other, "/tools"),
    };
    let tools = match tools {
        Value::Array(items) => Value::Array(items.into_iter().map(definition).collect()),
        other => other,
    };
    Ok(Value::Object(vec![("tools".to_owned(), tools), ("at".to_owned(), s(at))]))
}

/// One MCP tool as a tool definition: its name and schemas as they are, a description (its
/// own, else its title, else one made from its name), and the permissions its annotations let
/// us assume. Hints come from the server and grant nothing: only `readOnlyHint: true` makes a
/// tool read-only, and only `openWorldHint: false` takes `network` away (MCP's defaults are
/// not read-only and open world). An `outputSchema` holding null or undefined is absent.
fn definition(tool: Value) -> Value {
    if !matches!(tool, Value::Object(_)) {
        return tool;
    }
    let text = |key: &str| match tool.get(key) {
        Some(Value::String(t)) => Some(t.clone()),
        _ => None,
    };
    let description = text("description")
        .or_else(|| text("title"))
        .unwrap_or_else(|| format!("The MCP tool {}", text("name").unwrap_or_default()).trim().to_owned());
    let hints = match tool.get("annotations") {
        Some(hints @ Value::Object(_)) => Some(hints),
        _ => None,
    };
    let hint = |key: &str| hints.and_then(|h| h.get(key));
    let mut permissions =
        vec![s(if matches!(hint("readOnlyHint"), Some(Value::Bool(true))) { "read" } else { "write" })];
    if !matches!(hint("openWorldHint"), Some(Value::Bool(false))) {
        permissions.push(s("network"));
    }
    let mut out = Vec::new();
    if let Some(name) = tool.get("name") {
        out.push(("name".to_owned(), name.clone()));
    }
    out.push(("description".to_owned(), Value::String(description)));
    if let Some(schema) = tool.get("inputSchema") {
        out.push(("inputSchema".to_owned(), schema.clone()));
    }
    out.push(("permissions".to_owned(), Value::Array(permissions)));
    if let Some(schema) = given(&tool, "outputSchema") {
        out.push(("outputSchema".to_owned(), schema.clone()));
    }
    Value::Object(out)
}

/// A pointer in the message `path` is found at, moved from under `from` to under `to`.
fn moved(mut e: ContractError, from: &str, to: &str, message: Option<String>) -> ContractError {
    if e.path == from || e.path.starts_with(&format!("{from}/")) {
        e.path = format!("{to}{}", &e.path[from.len()..]);
    }
    if let Some(message) = message {
        e.message = message;
    }
    e
}

fn where_(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// One line for a failure, as the SDKs show it: the issues of a `SCHEMA_MISMATCH`, or the code
/// and place of any other failure.
pub fn describe_failure(e: &ContractError) -> String {
    let issues: Vec<(&str, &str, &str)> =
        e.issues.iter().map(|i| (i.path.as_str(), i.message.as_str(), i.keyword.as_str())).collect();
    failure_line(e.code.as_str(), &e.path, &e.message, &issues, e.truncated)
}

fn failure_line(code: &str, path: &str, message: &str, issues: &[(&str, &str, &str)], truncated: bool) -> String {
    if code == Code::SchemaMismatch.as_str() && !issues.is_empty() {
        let listed: Vec<String> =
            issues.iter().map(|(path, message, keyword)| format!("{}: {message} ({keyword})", where_(path))).collect();
        let listed = listed.join("; ");
        return if truncated { format!("{listed}; (more issues not listed)") } else { listed };
    }
    format!("{code} at {}: {message}", where_(path))
}

/// `describe_failure` of a failure a host holds (its own `ContractError`, given as `{code,
/// path, message, issues?, truncated?}`): the line an MCP validator's error text ends with. A
/// member of another type reads as empty. Read under the ceilings: the failure is one the core
/// wrote (a schema's issues may quote the schema at length), and a validator never throws.
pub fn failure_line_of<V: HostValue>(error: &V) -> Result<Value> {
    let ceilings = Options { limits: crate::input::limits::Limits::ceilings(), ..Options::default() };
    let error = input::copy_input(error, &ceilings)?;
    let text = |v: &Value, key: &str| match v.get(key) {
        Some(Value::String(t)) => t.clone(),
        _ => String::new(),
    };
    let issues: Vec<[String; 3]> = match error.get("issues") {
        Some(Value::Array(items)) => {
            items.iter().map(|i| [text(i, "path"), text(i, "message"), text(i, "keyword")]).collect()
        }
        _ => Vec::new(),
    };
    let issues: Vec<(&str, &str, &str)> = issues.iter().map(|[p, m, k]| (p.as_str(), m.as_str(), k.as_str())).collect();
    let truncated = matches!(error.get("truncated"), Some(Value::Bool(true)));
    let line = failure_line(&text(&error, "code"), &text(&error, "path"), &text(&error, "message"), &issues, truncated);
    Ok(Value::String(line))
}

/// What a check is of, in a validator's error text, by role: the client checks a tool's
/// `structuredContent` against its `outputSchema`, the server an elicitation answer against its
/// `requestedSchema`; with no role, neutral words.
const CLIENT: (&str, &str) = ("structuredContent", "the tool's outputSchema");
const SERVER: (&str, &str) = ("the elicitation answer (content)", "the requestedSchema");
const ANY: (&str, &str) = ("the value", "the JSON Schema");

/// A validator's options (`{role?: "client" | "server"}`, or none) as the words of its error
/// text, `{subject, schema}`; OPTION_INVALID for anything else.
pub fn validator_wording<V: HostValue>(options: &V) -> Result<Value> {
    use crate::input::{Kind, StringField};
    let role_invalid = |got: &str| {
        ContractError::new(Code::OptionInvalid, "/role", format!("role must be \"client\" or \"server\", got {got}"))
    };
    match options.kind() {
        Kind::Undefined | Kind::Null => return Ok(wording(ANY)),
        Kind::Object => {}
        _ => return Err(ContractError::new(Code::OptionInvalid, "", "options must be an object")),
    }
    // An unknown option is an error, as in every operation's options: a typo must not pass
    // unseen. One holding undefined counts as not given.
    for (key, read) in options.members().map_err(|e| e.at(""))? {
        let path = crate::value::pointer_child("", &key);
        let value = crate::input::member_value(options, &key, read).map_err(|f| f.at(&path))?;
        if key != "role" && value.is_some_and(|v| v.kind() != Kind::Undefined) {
            return Err(ContractError::new(Code::OptionInvalid, &path, format!("unknown option {key:?}")));
        }
    }
    // Only the role is read, and only its kind unless it is a string: any other value is no
    // role, whatever it holds.
    let role = options.get_string("role").map_err(|f| f.at("/role"))?;
    Ok(wording(match role {
        StringField::Missing => ANY,
        StringField::String(role) if role == "client" => CLIENT,
        StringField::String(role) if role == "server" => SERVER,
        // At most 64 characters of it: the caller's string may be long.
        StringField::String(role) => {
            return Err(role_invalid(&crate::wire::to_text(&s(&role.chars().take(64).collect::<String>()))))
        }
        StringField::Other(v) if matches!(v.kind(), Kind::Undefined | Kind::Null) => ANY,
        StringField::Other(_) => return Err(role_invalid("a value that is not a string")),
    }))
}

fn wording((subject, schema): (&str, &str)) -> Value {
    Value::Object(vec![("subject".to_owned(), s(subject)), ("schema".to_owned(), s(schema))])
}

/// `schema` compiled as MCP compiles it (the tool it makes validates against it), or the
/// failure with its pointer inside the schema and `label` naming the schema.
fn schema_tool(schema: &Value, label: &str) -> Result<Value> {
    let tool = Value::Object(vec![
        ("name".to_owned(), s("mcp_schema")),
        ("description".to_owned(), s("A JSON Schema an MCP peer sent.")),
        ("permission".to_owned(), s("read")),
        ("inputSchema".to_owned(), schema.clone()),
    ]);
    contract::define_tool(&&tool, &mcp_options()).map(contract::ToolDefinition::into_value).map_err(|e| {
        let message = format!("{label}: {}", e.message);
        moved(e, "/inputSchema", "", Some(message))
    })
}

fn failure(code: Code, path: &str, message: &str) -> ContractError {
    ContractError::new(code, path, message).in_layer(Layer::Schema)
}

/// Whether JSON text claims to be an object: `{` after its insignificant whitespace.
fn claims_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{')
}

/// `checkMcpToolResult(tool, result)`: a `tools/call` result against its tool (a definition, an
/// MCP tool or a registry's tool). Nothing more is asked of a result whose `isError` is true or
/// whose tool has no `outputSchema`; otherwise `structuredContent` is required and must match
/// the `outputSchema`, and the text block mirroring it (the first text block of `content` whose
/// text claims to be an object), when there is one, must be JSON of the same value. The result
/// is the core's copy of `result`.
pub fn check_tool_result<V: HostValue>(tool: &V, result: &V, options: &Options) -> Result<Value> {
    let defaults = Options::default();
    // A tool that is not an object (a failed lookup's null, a name) has no outputSchema to
    // read: taken as a tool without one, every result would pass unchecked.
    if tool.kind() != crate::input::Kind::Object {
        let got = tool.kind().name();
        let message = format!("the tool must be an object (a definition, an MCP tool or a registry's tool), got {got}");
        return Err(ContractError::new(Code::ToolNotObject, "", message));
    }
    let tool = input::copy_input(tool, &defaults)?;
    let output_schema = given(&tool, "outputSchema").cloned();
    // The result under the call's limits: its content blocks carry base64 payloads (a
    // screenshot), which a caller may allow past the default 1 MiB string.
    let checked = input::copy_input(result, options)?;
    if !matches!(checked, Value::Object(_)) {
        return Err(failure(Code::FieldType, "", "a tools/call result must be an object"));
    }
    let Some(output_schema) = output_schema else { return Ok(checked) };
    if matches!(checked.get("isError"), Some(Value::Bool(true))) {
        return Ok(checked);
    }
    // A failure of the schema itself points into the tool, as `fromMcpTools` points into the
    // answer.
    let compiled = schema_tool(&output_schema, CLIENT.1).map_err(|e| moved(e, "", "/outputSchema", None))?;
    let Some(structured) = given(&checked, "structuredContent") else {
        return Err(failure(
            Code::FieldMissing,
            "/structuredContent",
            "the tool has an outputSchema: a result that is not an error must carry structuredContent",
        ));
    };
    if let Err(e) = input::validate_tool_input(&&compiled, &structured, options) {
        let message = format!("{} does not match {}: {}", CLIENT.0, CLIENT.1, describe_failure(&e));
        return Err(moved(e, "", "/structuredContent", Some(message)));
    }
    let blocks = match checked.get("content") {
        Some(Value::Array(blocks)) => blocks.as_slice(),
        _ => &[],
    };
    let mirror = blocks.iter().enumerate().find_map(|(at, block)| match (block.get("type"), block.get("text")) {
        (Some(Value::String(kind)), Some(Value::String(text))) if kind == "text" && claims_object(text) => {
            Some((at, text))
        }
        _ => None,
    });
    if let Some((at, text)) = mirror {
        let path = format!("/content/{at}/text");
        let parsed = crate::json::parse(text.as_bytes(), crate::json::Mode::Strict, &options.limits).map_err(|e| {
            let message = format!("the text block mirroring structuredContent is not JSON: {}", e.message);
            let from = e.path.clone();
            moved(e, &from, &path, Some(message))
        })?;
        if let Some(at) = first_difference(&parsed, structured, &mut String::new()) {
            let issue = crate::error::Issue {
                path: at,
                keyword: "const".to_owned(),
                message: "the mirror's value differs from structuredContent here".to_owned(),
            };
            let message = "the text block mirroring structuredContent parses to a different value";
            return Err(failure(Code::SchemaMismatch, &path, message).with_issues(vec![issue]));
        }
    }
    Ok(checked)
}

/// Where the mirror's value (`mirror`, parsed from its text) first differs from
/// structuredContent (`given`, the host's value), as a pointer into the mirror; `None` when it
/// is the same value. Numbers are equal by value as doubles (a JS host has no others, and its
/// `JSON.parse` reads the mirror's digits so), members in any order, a member of structuredContent
/// holding undefined absent (it has no JSON text to mirror).
fn first_difference(mirror: &Value, given: &Value, at: &mut String) -> Option<String> {
    let here = at.len();
    let found = match (mirror, given) {
        (Value::Object(m), Value::Object(g)) => {
            let defined: std::collections::HashMap<&str, &Value> =
                g.iter().filter(|(_, v)| !matches!(v, Value::Undefined)).map(|(k, v)| (k.as_str(), v)).collect();
            let mut found = None;
            for (key, item) in m {
                crate::value::push_pointer(at, key);
                found = match defined.get(key.as_str()) {
                    Some(other) => first_difference(item, other, at),
                    None => Some(at.clone()),
                };
                at.truncate(here);
                if found.is_some() {
                    break;
                }
            }
            // Every mirrored member matched: a member the mirror lacks is the difference, at the
            // place it would have in the mirror.
            found.or_else(|| {
                let missing =
                    g.iter().find(|(k, v)| !matches!(v, Value::Undefined) && !m.iter().any(|(name, _)| name == k))?;
                crate::value::push_pointer(at, &missing.0);
                let pointer = at.clone();
                at.truncate(here);
                Some(pointer)
            })
        }
        (Value::Array(m), Value::Array(g)) => {
            let mut found = None;
            for (i, (item, other)) in m.iter().zip(g).enumerate() {
                at.push('/');
                at.push_str(&i.to_string());
                found = first_difference(item, other, at);
                at.truncate(here);
                if found.is_some() {
                    break;
                }
            }
            found.or_else(|| (m.len() != g.len()).then(|| at.clone()))
        }
        (Value::Number(x), Value::Number(y)) => (x.value != y.value).then(|| at.clone()),
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => Some(at.clone()),
        _ => (mirror != given).then(|| at.clone()),
    };
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_options_hosts_pass_are_the_cores() {
        let given = Value::Object(TOOL_OPTIONS.iter().map(|(k, v)| ((*k).to_owned(), s(v))).collect());
        let read = Options::read_for(Some(&&given), crate::input::options::OptionSet::Tool).unwrap();
        assert_eq!(read, mcp_options());
    }
}
