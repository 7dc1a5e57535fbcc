//! The official JSON Schema Test Suite (draft 2020-12) through the same compile and validate
//! path as tool schemas (`tools::schema::check_instances`), with `remotes/` served as
//! `http://localhost:1234/...` from the files (no network). Required tests must all pass;
//! `optional/` (format included) is reported separately. Skips with a message when ../shared
//! (the conformance data) is not next to the checkout.

use std::path::{Path, PathBuf};

use agent_contract::json::{parse, Mode};
use agent_contract::tools::schema::check_instances;
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
    let (format, other): (Vec<PathBuf>, Vec<PathBuf>) =
        optional.into_iter().partition(|p| p.components().any(|c| c.as_os_str() == "format"));

    let (p, f, failures) = run(&required, &remotes);
    let (op, of, optional_failures) = run(&other, &remotes);
    for failure in &optional_failures {
        println!("optional, not asserted: {failure}");
    }
    let (fp, ff, _) = run(&format, &remotes);
    for failure in &failures {
        eprintln!("FAIL {failure}");
    }
    println!("json-schema-test-suite draft2020-12 (rust): required {p} passed, {f} failed");
    println!("json-schema-test-suite draft2020-12 (rust): optional {op} passed, {of} failed; format {fp} passed, {ff} failed (not asserted)");
    assert!(p > 0);
    assert_eq!(f, 0, "{f} required tests failed");
}
