//! A tool's schema for another JSON Schema draft (`jsonSchemaForTarget`), as Standard JSON
//! Schema consumers ask for it (`~standard.jsonSchema.input({target})`; the Vercel AI SDK asks
//! for `"draft-07"`).
//!
//! No schema is rewritten: a schema is given for a target only when every keyword in it means
//! the same there. Its own draft (root `$schema`: 2020-12 when absent) is given as it is. For
//! `draft-07`, a 2020-12 or 2019-09 schema is given (without its `$schema`) when none of its
//! subschemas uses a keyword draft-07 lacks or reads differently; otherwise the first such
//! keyword is `SCHEMA_TARGET_UNSUPPORTED` at its pointer. Any other target is that error at
//! `""`, as the Standard JSON Schema spec asks ("throw if the target is not supported").

use crate::error::{Code, ContractError, Result};
use crate::value::{pointer_child, pointer_index, Value};

const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_2019_09: &str = "https://json-schema.org/draft/2019-09/schema";
const DRAFT_07: [&str; 2] = ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"];

/// Keywords draft-07 lacks (new since) or reads differently (`dependencies` and
/// `additionalItems` are draft-07 assertions that 2020-12 ignores).
const NOT_IN_DRAFT_07: [&str; 16] = [
    "prefixItems",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$anchor",
    "$vocabulary",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "contentSchema",
    "dependencies",
    "additionalItems",
];

/// Keywords whose value is one subschema, a list of subschemas, or a map of them.
const ONE: [&str; 8] = ["not", "if", "then", "else", "additionalProperties", "propertyNames", "contains", "items"];
const LIST: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const MAP: [&str; 4] = ["properties", "patternProperties", "$defs", "definitions"];
/// What draft-07 still reads beside a `$ref` (it ignores every sibling; these are annotations).
const ANNOTATIONS: [&str; 6] = ["$comment", "description", "title", "default", "examples", "$id"];

pub fn json_schema_for_target(schema: &Value, target: &str) -> Result<Value> {
    let own = match schema.get("$schema") {
        None => "draft-2020-12",
        Some(Value::String(s)) if s.trim_end_matches('#') == DRAFT_2020_12 => "draft-2020-12",
        Some(Value::String(s)) if s.trim_end_matches('#') == DRAFT_2019_09 => "draft-2019-09",
        Some(Value::String(s)) if DRAFT_07.contains(&s.as_str()) => "draft-07",
        Some(_) => {
            return Err(unsupported("/$schema", "the schema's own $schema is not a draft this library runs".into()))
        }
    };
    if target == own {
        return Ok(schema.clone());
    }
    if target != "draft-07" || own == "draft-07" {
        return Err(unsupported(
            "",
            format!(
                "a {own} schema cannot be given for the target {target:?} (supported: its own draft, and draft-07)"
            ),
        ));
    }
    check_07(schema, "")?;
    let Value::Object(entries) = schema else { return Ok(schema.clone()) };
    Ok(Value::Object(entries.iter().filter(|(k, _)| k != "$schema").cloned().collect()))
}

fn check_07(schema: &Value, path: &str) -> Result<()> {
    let Value::Object(entries) = schema else { return Ok(()) };
    let has_ref = entries.iter().any(|(k, _)| k == "$ref");
    for (k, v) in entries {
        let here = pointer_child(path, k);
        if NOT_IN_DRAFT_07.contains(&k.as_str()) {
            return Err(unsupported(&here, format!("keyword {k:?} has no draft-07 meaning, or another one")));
        }
        if has_ref && k != "$ref" && k != "$schema" && !ANNOTATIONS.contains(&k.as_str()) {
            return Err(unsupported(&here, format!("draft-07 ignores {k:?} beside $ref")));
        }
        if ONE.contains(&k.as_str()) {
            check_07(v, &here)?;
        } else if LIST.contains(&k.as_str()) {
            if let Value::Array(items) = v {
                for (i, item) in items.iter().enumerate() {
                    check_07(item, &pointer_index(&here, i))?;
                }
            }
        } else if MAP.contains(&k.as_str()) {
            if let Value::Object(members) = v {
                for (name, item) in members {
                    check_07(item, &pointer_child(&here, name))?;
                }
            }
        }
    }
    Ok(())
}

fn unsupported(path: &str, message: String) -> ContractError {
    ContractError::new(Code::SchemaTargetUnsupported, path, message)
}
