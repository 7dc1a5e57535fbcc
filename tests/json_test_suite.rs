//! JSONTestSuite (nst/JSONTestSuite, test_parsing/) against the strict parser: every `n_` file
//! rejected, every `y_` file accepted except the two with duplicate names (I-JSON forbids
//! them), and each `i_` file's outcome pinned to the table in docs/semantics.md.
//! Skips with a message when ../shared (the conformance data) is not next to the checkout.

use std::path::Path;

use agent_contract::json::{parse, Mode};
use agent_contract::Limits;

/// `i_` files the parser accepts; every other `i_` file is rejected.
const ACCEPTED_I: [&str; 5] = [
    "i_number_double_huge_neg_exp.json",
    "i_number_real_underflow.json",
    "i_number_too_big_neg_int.json",
    "i_number_too_big_pos_int.json",
    "i_number_very_big_negative_int.json",
];
/// `y_` files rejected on purpose: I-JSON (RFC 7493) forbids duplicate member names.
const REJECTED_Y: [&str; 2] = ["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"];

#[test]
fn json_test_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-test-suite/test_parsing");
    if !dir.is_dir() {
        println!("SKIPPED: JSONTestSuite not found at {} (../shared is absent outside this workplace)", dir.display());
        return;
    }
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let (mut passed, mut failed) = (0, 0);
    let mut counts = [0usize; 3];
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let accepted = parse(&bytes, Mode::Strict, &Limits::default()).is_ok();
        let expected = match &name[..2] {
            "y_" => {
                counts[0] += 1;
                !REJECTED_Y.contains(&name.as_str())
            }
            "n_" => {
                counts[1] += 1;
                false
            }
            "i_" => {
                counts[2] += 1;
                ACCEPTED_I.contains(&name.as_str())
            }
            _ => continue,
        };
        if accepted == expected {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("FAIL {name}: expected {}, got {}", verdict(expected), verdict(accepted));
        }
    }
    println!(
        "JSONTestSuite (rust): {} y_, {} n_, {} i_ files; {passed} passed, {failed} failed",
        counts[0], counts[1], counts[2]
    );
    assert!(passed > 300, "too few files ran: {passed}");
    assert_eq!(failed, 0);
}

fn verdict(accepted: bool) -> &'static str {
    if accepted {
        "accept"
    } else {
        "reject"
    }
}
