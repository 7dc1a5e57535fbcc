//! The Gemini projection and what Gemini's OpenAPI-subset `Schema` cannot take.
//!
//! Gemini's `FunctionDeclaration` has `name`, `description` and either `parameters` (a `Schema`:
//! "a select subset of an OpenAPI 3.0 schema object") or `parametersJsonSchema` (JSON Schema
//! that "must describe an object"); the two are mutually exclusive. `toGeminiTools` uses
//! `parametersJsonSchema`: the tool's input schema as every other projection sends it (object
//! root, documents bundled), with nothing dropped or rewritten, so Gemini receives the schema
//! the core validates against. The result is the request's `tools` list: one `Tool` holding
//! every declaration, `[{functionDeclarations: [...]}]`.
//!
//! `geminiSchemaIssues(schema)` says, like `strictSchemaIssues` for OpenAI, why a schema could
//! not be sent as `parameters` instead: a keyword outside the `Schema` fields, a `type` other
//! than one JSON Schema type name, an `enum` with a value that is not a string, `items` that is
//! not one schema, a boolean schema. Empty: the schema only uses the subset's fields (their
//! JSON Schema spelling; `type` names are written in upper case in the `Schema` form).

use crate::error::{Issue, Result};
use crate::tools::contract::ToolDefinition;
use crate::tools::names::{check_for_target, NameRule};
use crate::value::{pointer_child, Value};

/// The fields of Gemini's `Schema` (the js-genai `Schema` interface and the REST reference).
const SCHEMA_FIELDS: [&str; 22] = [
    "anyOf",
    "default",
    "description",
    "enum",
    "example",
    "format",
    "items",
    "maximum",
    "maxItems",
    "maxLength",
    "maxProperties",
    "minimum",
    "minItems",
    "minLength",
    "minProperties",
    "nullable",
    "pattern",
    "properties",
    "propertyOrdering",
    "required",
    "title",
    "type",
];
/// JSON Schema type names with a `Type` in Gemini's `Schema`.
const TYPES: [&str; 7] = ["string", "number", "integer", "boolean", "array", "object", "null"];

/// `toGeminiTools(registry)`: `[{functionDeclarations: [{name, description,
/// parametersJsonSchema}]}]`, declarations in the registry's order.
pub fn gemini(defs: Vec<ToolDefinition>) -> Result<Value> {
    let declarations = defs
        .into_iter()
        .enumerate()
        .map(|(i, mut d)| {
            check_for_target(NameRule::Gemini, &d.name, i)?;
            let parameters = crate::tools::projection::parameters(&mut d, i)?;
            Ok(Value::Object(vec![
                ("name".to_owned(), Value::String(d.name)),
                ("description".to_owned(), Value::String(d.description)),
                ("parametersJsonSchema".to_owned(), parameters),
            ]))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Array(vec![Value::Object(vec![("functionDeclarations".to_owned(), Value::Array(declarations))])]))
}

/// Why `schema` could not be sent as Gemini's `parameters` (`{path, keyword, message}`, JSON
/// Pointers into the schema, in document order); empty when it could. Reads only.
pub fn gemini_schema_issues(schema: &Value) -> Vec<Issue> {
    let mut issues = Vec::new();
    walk(schema, "", &mut issues);
    issues
}

fn push(issues: &mut Vec<Issue>, path: String, keyword: &str, message: String) {
    issues.push(Issue { path, keyword: keyword.to_owned(), message });
}

fn walk(schema: &Value, path: &str, issues: &mut Vec<Issue>) {
    // Explicit stack: a schema may nest as deep as the limits allow.
    let mut stack: Vec<(&Value, String)> = vec![(schema, path.to_owned())];
    while let Some((schema, path)) = stack.pop() {
        let Value::Object(entries) = schema else {
            push(issues, path, "type", "a boolean schema has no Gemini Schema form".into());
            continue;
        };
        let mut children: Vec<(&Value, String)> = Vec::new();
        for (k, v) in entries {
            let child = pointer_child(&path, k);
            if !SCHEMA_FIELDS.contains(&k.as_str()) {
                push(issues, child, k, format!("keyword {k:?} is not a field of Gemini's Schema"));
                continue;
            }
            match (k.as_str(), v) {
                ("type", Value::String(t)) if TYPES.contains(&t.as_str()) => {}
                ("type", Value::Array(_)) => push(
                    issues,
                    child,
                    "type",
                    "Gemini's Schema takes one type (a list of types has no form; use nullable or anyOf)".into(),
                ),
                ("type", _) => push(issues, child, "type", "type must be one JSON Schema type name".into()),
                ("enum", Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        if !matches!(item, Value::String(_)) {
                            push(
                                issues,
                                format!("{child}/{i}"),
                                "enum",
                                "Gemini's Schema enum holds strings only".into(),
                            );
                        }
                    }
                }
                ("properties", Value::Object(props)) => {
                    for (name, sub) in props {
                        children.push((sub, pointer_child(&child, name)));
                    }
                }
                ("items", sub @ Value::Object(_)) => children.push((sub, child)),
                ("items", _) => push(issues, child, "items", "items must be one schema".into()),
                ("anyOf", Value::Array(subs)) => {
                    for (i, sub) in subs.iter().enumerate() {
                        children.push((sub, format!("{child}/{i}")));
                    }
                }
                _ => {}
            }
        }
        // Document order: the first child is handled next.
        stack.extend(children.into_iter().rev());
    }
}
