//! The protocol schemas (`protocolSchemas()`) against the parsers: every fixture
//! input of `parseAgentAction(Json)`, `parseDecision(Json)`, `parseAgentMessage(Json)`,
//! `parseSessionEntry` and `parseAgentEvent` that a schema can judge (no host values, no
//! options, text that is JSON) is validated with the schema by the project's own engine, and
//! the verdict must be the parser's, except for the cases listed in
//! `tests/protocol_schema_differences.json`, each with
//! the rule a schema cannot express (`docs/semantics.md`, "The protocol as JSON Schema"). The
//! list is exact: a listed case on which schema and parser agree fails the test too.

use std::collections::BTreeMap;
use std::path::Path;

use agent_contract::api;
use agent_contract::tools::projection::strict_schema_issues;
use agent_contract::tools::schema::check_instances;
use agent_contract::value::Value;
use serde_json::Value as Json;

/// Fixture cases where the schema's verdict is not the parser's, and why (shared with the Node and
/// Python checks).
fn differences() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protocol_schema_differences.json");
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["differences"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned())).collect()
}

fn to_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(agent_contract::value::Number::from_f64(n.as_f64().unwrap())),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::Array(a.iter().map(to_value).collect()),
        Json::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
    }
}

fn schema_of(op: &str) -> Option<&'static str> {
    Some(match op {
        "parseAgentAction" | "parseAgentActionJson" => "action",
        "parseDecision" | "parseDecisionJson" => "decision",
        "parseAgentMessage" | "parseAgentMessageJson" => "message",
        "parseSessionEntry" => "sessionEntry",
        "parseAgentEvent" => "event",
        _ => return None,
    })
}

#[test]
fn schemas_agree_with_the_parsers_on_every_fixture() {
    agent_contract::entropy::seed(&[7; 32]);
    let schemas = api::protocol_schemas();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let known = differences();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut differing = Vec::new();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json")) {
        let doc: Json = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let Some(cases) = doc.get("cases").and_then(Json::as_array) else { continue };
        for case in cases {
            let op = case["op"].as_str().unwrap_or("");
            let Some(name) = schema_of(op) else { continue };
            if case.get("host").is_some() || case.get("options").is_some() {
                continue; // host values and options: no schema can judge them (docs/semantics.md)
            }
            let input = if op.ends_with("Json") {
                let Some(text) = case.get("text").and_then(Json::as_str) else { continue };
                // Text that is not one strict JSON value is the JSON parser's verdict, not the protocol's.
                let Ok(j) = serde_json::from_str::<Json>(text) else { continue };
                if case["expect"]["layer"] == "parse" {
                    continue;
                }
                j
            } else {
                case["input"].clone()
            };
            let id = case["id"].as_str().unwrap();
            let parser_ok = case["expect"]["ok"].as_bool().unwrap();
            let schema = schemas.get(name).unwrap();
            let verdict = check_instances(schema, &[to_value(&input)], &[]).unwrap()[0];
            *checked.entry(name).or_default() += 1;
            let listed = known.contains_key(id);
            if verdict != parser_ok {
                differing.push(id.to_owned());
                if !listed {
                    unexpected.push(format!(
                        "{id} ({name}): parser {}, schema {}",
                        if parser_ok { "accepts" } else { "rejects" },
                        if verdict { "accepts" } else { "rejects" }
                    ));
                }
            } else if listed {
                unexpected.push(format!("{id} is listed as a difference, but schema and parser agree"));
            }
        }
    }
    for id in known.keys() {
        assert!(differing.iter().any(|d| d == id), "listed difference {id} was not checked (no such case?)");
    }
    println!("protocol schemas checked against fixtures: {checked:?}, {} listed differences", differing.len());
    assert!(checked.values().all(|n| *n >= 20), "too few cases checked: {checked:?}");
    assert!(unexpected.is_empty(), "{} unexpected verdicts:\n{}", unexpected.len(), unexpected.join("\n"));
}

#[test]
fn the_strict_forms_are_strict_ready_and_hold_the_valid_fixtures() {
    agent_contract::entropy::seed(&[7; 32]);
    let schemas = api::protocol_schemas();
    let strict = schemas.get("strict").unwrap();
    for name in ["action", "decision"] {
        let issues = strict_schema_issues(strict.get(name).unwrap());
        assert!(issues.is_empty(), "strictSchemaIssues({name}): {issues:?}");
        // The exact forms are unions: OpenAI's strict mode refuses them at the root.
        assert!(!strict_schema_issues(schemas.get(name).unwrap()).is_empty());
    }
    // Every valid decision of the fixtures, with the unused field null, fits the strict form;
    // the same with a second non-null field does not.
    let doc: Json = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/decision.json")).unwrap(),
    )
    .unwrap();
    let mut n = 0;
    for case in doc["cases"].as_array().unwrap() {
        if case["op"] != "parseDecision" || case["expect"]["ok"] != true || case.get("options").is_some() {
            continue;
        }
        let mut full = case["expect"]["value"].clone();
        let obj = full.as_object_mut().unwrap();
        obj.entry("calls").or_insert(Json::Null);
        obj.entry("answer").or_insert(Json::Null);
        let ok = check_instances(strict.get("decision").unwrap(), &[to_value(&full)], &[]).unwrap()[0];
        assert!(ok, "{}: {full}", case["id"]);
        n += 1;
    }
    assert!(n >= 3, "too few valid decisions: {n}");
}
