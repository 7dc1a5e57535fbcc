//! The official JSON Schema Test Suite (draft 2020-12, required tests) run the way
//! tests/json_schema_suite.rs runs it for the core, with the `jsonschema` crate: the `regex`
//! pattern engine, no network or file access (`remotes/` served from memory as
//! http://localhost:1234/...). Usage: suite [path to json-schema-test-suite]
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jsonschema::{Retrieve, Uri};
use serde_json::Value;

struct Remotes(HashMap<String, Value>);

impl Retrieve for Remotes {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        self.0.get(uri.as_str()).cloned().ok_or_else(|| format!("{uri} cannot be loaded (no I/O)").into())
    }
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

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "../../../shared/conformance/json-schema-test-suite".into()));
    let mut remote_files = Vec::new();
    files(&root.join("remotes"), &mut remote_files);
    let remotes: HashMap<String, Value> = remote_files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(root.join("remotes")).unwrap().to_string_lossy().replace('\\', "/");
            (format!("http://localhost:1234/{rel}"), serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        })
        .collect();
    let dir = root.join("tests/draft2020-12");
    let mut required: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    required.sort();
    let (mut passed, mut failed) = (0, 0);
    for path in &required {
        let groups: Vec<Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for group in &groups {
            let built = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .with_pattern_options(jsonschema::PatternOptions::regex())
                .with_retriever(Remotes(remotes.clone()))
                .build(&group["schema"]);
            for t in group["tests"].as_array().unwrap() {
                let want = t["valid"] == Value::Bool(true);
                let got = built.as_ref().map(|v| v.is_valid(&t["data"]));
                if got.as_ref().is_ok_and(|g| *g == want) {
                    passed += 1;
                } else {
                    failed += 1;
                    eprintln!(
                        "FAIL {} | {} | {}: want {want}, got {:?}",
                        path.file_name().unwrap().to_string_lossy(),
                        group["description"],
                        t["description"],
                        got.map_err(|e| e.to_string())
                    );
                }
            }
        }
    }
    println!("json-schema-test-suite draft2020-12 (jsonschema 0.61.2, regex engine): required {passed} passed, {failed} failed");
}
