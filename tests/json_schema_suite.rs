//! The official JSON Schema Test Suite (draft 2020-12) through the same compile and validate
//! path as tool schemas (`tools::schema::check_instances`), with `remotes/` served as
//! `http://localhost:1234/...` from the files (no network). Required tests must all pass, and
//! so must `optional/format` with `formats: "assert"` (through the public API); the rest of
//! `optional/` is reported. Skips with a message when ../shared
//! (the conformance data) is not next to the checkout.

use std::path::{Path, PathBuf};

use agent_contract::json::{parse, Mode};
use agent_contract::tools::schema::{check_instances, compile_with, validate, validate_json};
use agent_contract::{Limits, Value};

fn load(path: &Path) -> Value {
    parse(&std::fs::read(path).unwrap(), Mode::Strict, &Limits::ceilings()).unwrap()
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

fn remotes(dir: &Path) -> Vec<(String, Value)> {
    let mut all = Vec::new();
    files(dir, &mut all);
    all.iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
            (format!("http://localhost:1234/{rel}"), load(p))
        })
        .collect()
}

/// (passed, failed, failures) over the given files.
fn run(paths: &[PathBuf], remotes: &[(String, Value)]) -> (usize, usize, Vec<String>) {
    let (mut passed, mut failed, mut failures) = (0, 0, Vec::new());
    for path in paths {
        let Value::Array(groups) = load(path) else { panic!("{} is not a list", path.display()) };
        for group in &groups {
            let schema = group.get("schema").unwrap();
            let Some(Value::Array(tests)) = group.get("tests") else { panic!() };
            let instances: Vec<Value> = tests.iter().map(|t| t.get("data").unwrap().clone()).collect();
            let uses_remote = {
                let mut s = String::new();
                agent_contract::value::write_json(&mut s, schema);
                s.contains("localhost:1234")
            };
            let resources = if uses_remote { remotes } else { &[][..] };
            let verdicts = check_instances(schema, &instances, resources);
            // The same verdicts from the instances as text, read by the strict parser with the
            // schema evaluated as it reads (`validate_json`), and the same errors.
            if let Ok(compiled) = compile_with(schema, "", resources) {
                for (i, instance) in instances.iter().enumerate() {
                    let mut text = String::new();
                    agent_contract::value::write_json(&mut text, instance);
                    let from_text = validate_json(&compiled, text.as_bytes(), &Limits::ceilings(), 20);
                    let parsed = parse(text.as_bytes(), Mode::Strict, &Limits::ceilings()).unwrap();
                    let from_tree = validate(&compiled, &parsed, 20);
                    let key = |r: &Result<(), agent_contract::ContractError>| {
                        r.as_ref().err().map(|e| (e.code, e.path.clone(), e.issues.clone(), e.truncated))
                    };
                    if key(&from_text) != key(&from_tree) {
                        failed += 1;
                        failures.push(format!(
                            "{} | text path differs on instance {i}: {from_text:?} vs {from_tree:?}",
                            path.display()
                        ));
                    }
                }
            }
            for (i, t) in tests.iter().enumerate() {
                let want = t.get("valid") == Some(&Value::Bool(true));
                let got = verdicts.as_ref().map(|v| v[i]);
                if got.as_ref().is_ok_and(|g| *g == want) {
                    passed += 1;
                } else {
                    failed += 1;
                    let desc = |v: Option<&Value>| match v {
                        Some(Value::String(s)) => s.clone(),
                        _ => String::new(),
                    };
                    failures.push(format!(
                        "{} | {} | {}: want {want}, got {:?}",
                        path.file_name().unwrap().to_string_lossy(),
                        desc(group.get("description")),
                        desc(t.get("description")),
                        got.map_err(|e| format!("{} {}: {}", e.code.as_str(), e.path, e.message))
                    ));
                }
            }
        }
    }
    (passed, failed, failures)
}

/// The required draft 2020-12 tests every host runs (the same number in Node and Python).
const REQUIRED_AT_LEAST: usize = 1299;
/// The refRemote checks through the public API, likewise.
const REF_REMOTE_AT_LEAST: usize = 31;

#[test]
fn json_schema_test_suite_draft2020_12() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-schema-test-suite");
    if !root.is_dir() {
        println!(
            "SKIPPED: JSON Schema Test Suite not found at {} (../shared is absent outside this workplace)",
            root.display()
        );
        return;
    }
    agent_contract::entropy::seed(&[7; 32]);
    let remotes = remotes(&root.join("remotes"));
    let dir = root.join("tests/draft2020-12");
    let mut required: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    required.sort();
    let mut optional = Vec::new();
    files(&dir.join("optional"), &mut optional);
    // optional/format runs asserted, through the public API (`json_schema_test_suite_optional_format_asserted`).
    let other: Vec<PathBuf> =
        optional.into_iter().filter(|p| !p.components().any(|c| c.as_os_str() == "format")).collect();

    let (p, f, failures) = run(&required, &remotes);
    let (op, of, optional_failures) = run(&other, &remotes);
    for failure in &optional_failures {
        println!("optional, not asserted: {failure}");
    }
    for failure in &failures {
        eprintln!("FAIL {failure}");
    }
    println!("json-schema-test-suite draft2020-12 (rust): required {p} passed, {f} failed");
    println!("json-schema-test-suite draft2020-12 (rust): optional {op} passed, {of} failed (not asserted)");
    // A lower bound, not a count: a suite that lost its files (or a runner that stopped finding
    // them) passes `f == 0` with nothing run. The count when the pin was set; raise it as the
    // suite grows.
    assert!(p >= REQUIRED_AT_LEAST, "only {p} required tests ran, expected at least {REQUIRED_AT_LEAST}");
    assert_eq!(f, 0, "{f} required tests failed");
}

/// The documents the draft 2020-12 `refRemote` group may reference: its own folder and the
/// shared folders at the top of `remotes/` (the other drafts' folders are for their groups).
fn ref_remote_resources(remotes: &[(String, Value)]) -> Value {
    let other_draft = |uri: &str| {
        let rel = uri.trim_start_matches("http://localhost:1234/");
        (rel.starts_with("draft") || rel.starts_with("v1/")) && !rel.starts_with("draft2020-12/")
    };
    Value::Object(remotes.iter().filter(|(u, _)| !other_draft(u)).cloned().collect())
}

fn suite_tool(schema: &Value, resources: Option<&Value>) -> Value {
    let mut entries = vec![
        ("name".to_owned(), Value::String("suite_case".into())),
        ("description".to_owned(), Value::String("A conformance case.".into())),
        ("permission".to_owned(), Value::String("read".into())),
        ("inputSchema".to_owned(), schema.clone()),
    ];
    if let Some(r) = resources {
        entries.push(("resources".to_owned(), r.clone()));
    }
    Value::Object(entries)
}

/// The verdict of the public API: `defineTool` then `validateToolInput`; `Err` for any other
/// outcome than valid / `SCHEMA_MISMATCH`.
fn public_verdict(tool: &Value, data: &Value) -> Result<bool, String> {
    use agent_contract::api;
    let describe = |e: agent_contract::ContractError| format!("{} {}: {}", e.code.as_str(), e.path, e.message);
    let defined = api::define_tool(&tool, None).map_err(describe)?.into_value();
    match api::validate_tool_input(&&defined, &data, None) {
        Ok(_) => Ok(true),
        Err(e) if e.code.as_str() == "SCHEMA_MISMATCH" => Ok(false),
        Err(e) => Err(describe(e)),
    }
}

/// `refRemote` through the public API: each schema becomes a tool whose
/// `resources` hold the remotes, and each instance is checked with `validateToolInput`. Then
/// the Anthropic projection of that tool (documents bundled into the schema) is defined again
/// without resources and must give the same verdicts (for objects: the projection's root is an
/// object schema); a document whose `$id` differs from its
/// URI cannot be bundled and must be refused with `TOOL_RESOURCE_UNBUNDLABLE`, never sent.
#[test]
fn json_schema_test_suite_ref_remote_through_the_public_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-schema-test-suite");
    if !root.is_dir() {
        println!("SKIPPED: JSON Schema Test Suite not found at {} (../shared is absent)", root.display());
        return;
    }
    agent_contract::entropy::seed(&[7; 32]);
    let resources = ref_remote_resources(&remotes(&root.join("remotes")));
    let Value::Array(groups) = load(&root.join("tests/draft2020-12/refRemote.json")) else { panic!() };
    let (mut passed, mut failures) = (0, Vec::new());
    let (mut bundled, mut refused) = (0, 0);
    for group in &groups {
        let schema = group.get("schema").unwrap();
        let Some(Value::Array(tests)) = group.get("tests") else { panic!() };
        let tool = suite_tool(schema, Some(&resources));
        for t in tests {
            let want = t.get("valid") == Some(&Value::Bool(true));
            match public_verdict(&tool, t.get("data").unwrap()) {
                Ok(got) if got == want => passed += 1,
                other => failures.push(format!(
                    "{:?} | {:?}: want {want}, got {other:?}",
                    group.get("description"),
                    t.get("description")
                )),
            }
        }
        let defined = agent_contract::api::define_tool(&&tool, None).unwrap().into_value();
        let registry = Value::Object(vec![("tools".to_owned(), Value::Array(vec![defined]))]);
        match agent_contract::api::project(&&registry, agent_contract::api::Provider::Anthropic) {
            Ok(Value::Array(items)) => {
                bundled += 1;
                let standalone = suite_tool(items[0].get("input_schema").unwrap(), None);
                for t in tests {
                    // Projections write `"type": "object"` into a root without `type` (a tool's
                    // input is one object): other instances fail there by design.
                    let data = t.get("data").unwrap();
                    let want = t.get("valid") == Some(&Value::Bool(true)) && matches!(data, Value::Object(_));
                    match public_verdict(&standalone, t.get("data").unwrap()) {
                        Ok(got) if got == want => {}
                        other => failures.push(format!(
                            "bundled {:?} | {:?}: want {want}, got {other:?}",
                            group.get("description"),
                            t.get("description")
                        )),
                    }
                }
            }
            Err(e) if e.code.as_str() == "TOOL_RESOURCE_UNBUNDLABLE" => refused += 1,
            other => failures.push(format!("projection of {:?}: {other:?}", group.get("description"))),
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    println!("refRemote through the public API (rust): {passed} passed, {} failed; {bundled} schemas bundled, {refused} refused", failures.len());
    assert!(passed >= REF_REMOTE_AT_LEAST && bundled > 0, "only {passed} refRemote checks ran, expected at least {REF_REMOTE_AT_LEAST}");
    assert!(failures.is_empty(), "{} refRemote checks failed", failures.len());
}

/// The optional `format` tests run with `formats: "assert"`: the same count in every host
/// (`js-tests/test/json-schema-suite.test.mjs`, `py-host/tests/test_json_schema_suite.py`).
const FORMAT_ASSERTED: usize = 764;

/// Where a schema that cannot be a tool's `inputSchema` is served (as the hosts' suite runners do).
const SCHEMA_URI: &str = "https://conformance.invalid/schema.json";

/// One group through the public API as the hosts run it: `defineToolJson(text, {formats:
/// "assert"})` (an `inputSchema` whose root is not an object schema is a resource the
/// `inputSchema` references), then `validateToolInputJson` through the compiled tool for each
/// instance; `Err` for any other outcome than valid / `SCHEMA_MISMATCH`.
fn format_verdicts(schema: &Value, instances: &[Value]) -> Result<Vec<bool>, String> {
    use agent_contract::api;
    let direct = matches!(schema, Value::Object(_))
        && schema.get("type").is_none_or(|t| *t == Value::String("object".into()));
    let mut definition = vec![
        ("name".to_owned(), Value::String("conformance_case".into())),
        ("description".to_owned(), Value::String("One group of a JSON Schema conformance suite.".into())),
        ("permission".to_owned(), Value::String("read".into())),
    ];
    if direct {
        definition.push(("inputSchema".to_owned(), schema.clone()));
    } else {
        definition.push((
            "inputSchema".to_owned(),
            Value::Object(vec![("$ref".to_owned(), Value::String(SCHEMA_URI.into()))]),
        ));
        definition.push(("resources".to_owned(), Value::Object(vec![(SCHEMA_URI.to_owned(), schema.clone())])));
    }
    let mut text = String::new();
    agent_contract::value::write_json(&mut text, &Value::Object(definition));
    let options = Value::Object(vec![("formats".to_owned(), Value::String("assert".into()))]);
    let describe = |e: agent_contract::ContractError| format!("{} {}: {}", e.code.as_str(), e.path, e.message);
    let handle = api::compile_tool_json(text.as_bytes(), Some(&&options)).map_err(describe)?;
    let mut out = Vec::with_capacity(instances.len());
    for instance in instances {
        let mut text = String::new();
        agent_contract::value::write_json(&mut text, instance);
        match api::handle_validate_input_json::<&Value>(&handle, text.as_bytes(), None) {
            Ok(_) => out.push(true),
            Err(e) if e.code.as_str() == "SCHEMA_MISMATCH" => out.push(false),
            Err(e) => return Err(describe(e)),
        }
    }
    Ok(out)
}

#[test]
fn json_schema_test_suite_optional_format_asserted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-schema-test-suite");
    if !root.is_dir() {
        println!("SKIPPED: JSON Schema Test Suite not found at {} (../shared is absent)", root.display());
        return;
    }
    agent_contract::entropy::seed(&[7; 32]);
    let mut paths = Vec::new();
    files(&root.join("tests/draft2020-12/optional/format"), &mut paths);
    let (mut passed, mut failures) = (0, Vec::new());
    for path in &paths {
        let Value::Array(groups) = load(path) else { panic!("{} is not a list", path.display()) };
        for group in &groups {
            let Some(Value::Array(tests)) = group.get("tests") else { panic!() };
            let instances: Vec<Value> = tests.iter().map(|t| t.get("data").unwrap().clone()).collect();
            let verdicts = format_verdicts(group.get("schema").unwrap(), &instances);
            for (i, t) in tests.iter().enumerate() {
                let want = t.get("valid") == Some(&Value::Bool(true));
                match verdicts.as_ref().map(|v| v[i]) {
                    Ok(got) if got == want => passed += 1,
                    got => failures.push(format!(
                        "{} | {:?} | {:?}: want {want}, got {got:?}",
                        path.file_name().unwrap().to_string_lossy(),
                        group.get("description"),
                        t.get("description")
                    )),
                }
            }
        }
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    println!("json-schema-suite optional/format (rust): {passed} passed, {} failed", failures.len());
    assert_eq!(passed, FORMAT_ASSERTED, "the optional/format tests asserted");
    assert!(failures.is_empty(), "{} optional/format tests failed", failures.len());
}
