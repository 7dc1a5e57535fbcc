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
use crate::tools::projection::IssueList;
use crate::value::{pointer_child, Positions, Value};

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
/// Pointers into the schema, in document order, at most `MAX_ISSUE_BYTES` of them); empty when
/// it could. Reads only.
pub fn gemini_schema_issues(schema: &Value) -> Vec<Issue> {
    let mut issues = IssueList::default();
    walk(schema, &mut issues);
    issues.finish()
}

/// An issue at `suffix` under position `at`; its pointer is written only while the list has room.
fn push(issues: &mut IssueList, positions: &Positions, at: usize, suffix: &str, keyword: &str, message: String) {
    if !issues.is_full() {
        issues.push(&format!("{}{suffix}", positions.pointer(at)), keyword, message);
    }
}

fn walk(schema: &Value, issues: &mut IssueList) {
    // Explicit stack: a schema may nest as deep as the limits allow. Positions, not pointers,
    // wait on it (a pointer is written for an issue only).
    let mut positions = Positions::new("");
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    while let Some((schema, at)) = stack.pop() {
        if issues.is_full() {
            return;
        }
        let Value::Object(entries) = schema else {
            push(issues, &positions, at, "", "type", "a boolean schema has no Gemini Schema form".into());
            continue;
        };
        let mut children: Vec<(&Value, usize)> = Vec::new();
        for (k, v) in entries {
            let key = pointer_child("", k);
            if !SCHEMA_FIELDS.contains(&k.as_str()) {
                push(issues, &positions, at, &key, k, format!("keyword {k:?} is not a field of Gemini's Schema"));
                continue;
            }
            match (k.as_str(), v) {
                ("type", Value::String(t)) if TYPES.contains(&t.as_str()) => {}
                ("type", Value::Array(_)) => push(
                    issues,
                    &positions,
                    at,
                    &key,
                    "type",
                    "Gemini's Schema takes one type (a list of types has no form; use nullable or anyOf)".into(),
                ),
                ("type", _) => {
                    push(issues, &positions, at, &key, "type", "type must be one JSON Schema type name".into())
                }
                ("enum", Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        if !matches!(item, Value::String(_)) {
                            push(
                                issues,
                                &positions,
                                at,
                                &format!("{key}/{i}"),
                                "enum",
                                "Gemini's Schema enum holds strings only".into(),
                            );
                        }
                    }
                }
                ("properties", Value::Object(props)) => {
                    let properties = positions.member(at, k);
                    for (name, sub) in props {
                        children.push((sub, positions.member(properties, name)));
                    }
                }
                ("items", sub @ Value::Object(_)) => children.push((sub, positions.member(at, k))),
                ("items", _) => push(issues, &positions, at, &key, "items", "items must be one schema".into()),
                ("anyOf", Value::Array(subs)) => {
                    let any_of = positions.member(at, k);
                    for (i, sub) in subs.iter().enumerate() {
                        children.push((sub, positions.item(any_of, i)));
                    }
                }
                _ => {}
            }
        }
        // Document order: the first child is handled next.
        stack.extend(children.into_iter().rev());
    }
}
