//! JSONTestSuite (nst/JSONTestSuite, test_parsing/) through `api::parse_json` with default
//! options: every `n_` file rejected, every `y_` file accepted except the two with duplicate
//! names (I-JSON forbids them), and each `i_` file's outcome pinned. The expectations are in
//! `tests/json_test_suite.json`, shared with the Node and Python runners of the same suite.
//! Skips with a message when ../shared (the conformance data) is not next to the checkout.

use std::path::Path;

use agent_contract::api;
use agent_contract::value::Value;
use serde_json::Value as Json;

#[test]
fn json_test_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../shared/conformance/json-test-suite/test_parsing");
    if !dir.is_dir() {
        println!("SKIPPED: JSONTestSuite not found at {} (../shared is absent outside this workplace)", dir.display());
        return;
    }
    let table: Json =
        serde_json::from_str(&std::fs::read_to_string(root.join("tests/json_test_suite.json")).unwrap()).unwrap();
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let (mut passed, mut failed) = (0, 0);
    let mut counts = [0usize; 3];
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let got = match api::parse_json::<&Value>(&bytes, None) {
            Ok(_) => "accept".to_owned(),
            Err(e) => e.code.as_str().to_owned(),
        };
        let expected = match &name[..2] {
            "y_" => {
                counts[0] += 1;
                table["rejectedY"].get(name).and_then(Json::as_str).unwrap_or("accept").to_owned()
            }
            "n_" => {
                counts[1] += 1;
                if got != "accept" {
                    got.clone()
                } else {
                    "a rejection".to_owned()
                }
            }
            "i_" => {
                counts[2] += 1;
                table["i"].get(name).and_then(Json::as_str).unwrap_or("(not in the table)").to_owned()
            }
            _ => continue,
        };
        if got == expected {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("FAIL {name}: expected {expected}, got {got}");
        }
    }
    println!(
        "JSONTestSuite (rust): {} y_, {} n_, {} i_ files; {passed} passed, {failed} failed",
        counts[0], counts[1], counts[2]
    );
    assert!(passed > 300, "too few files ran: {passed}");
    assert_eq!(failed, 0);
}
