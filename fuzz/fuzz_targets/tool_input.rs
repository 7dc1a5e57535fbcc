//! `validateToolInput`: a schema and an input, both from the fuzzer (split at the first NUL
//! byte). The schema is wrapped into a tool and defined; the input is validated as JSON text
//! and as a value, and its verdict alone from the text. All paths must agree, and
//! `SCHEMA_MISMATCH` lists at most `maxIssues`.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::{Number, Value};
use agent_contract::{api, Code, Limits};
use libfuzzer_sys::fuzz_target;

mod common;
use common::canon;

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|&b| b == 0) else { return };
    let (schema, input) = (&data[..split], &data[split + 1..]);
    let Ok(schema) = json::parse(schema, Mode::Strict, &Limits::default()) else { return };
    let tool = Value::Object(vec![
        ("name".into(), Value::String("t".into())),
        ("description".into(), Value::String("d".into())),
        ("permission".into(), Value::String("read".into())),
        ("inputSchema".into(), schema),
    ]);
    let Ok(def) = api::define_tool(&&tool, None) else { return };
    let def = def.into_value();
    let max_issues = 1 + (data.len() % 7);
    let options = Value::Object(vec![("maxIssues".into(), Value::Number(Number::from_f64(max_issues as f64)))]);
    let (d, o) = (&def, &options);
    let from_text = api::validate_tool_input_json(&d, input, Some(&o));
    if let Err(e) = &from_text {
        if e.code == Code::SchemaMismatch {
            assert!(!e.issues.is_empty() && e.issues.len() <= max_issues, "1..=maxIssues issues");
        }
    }
    // The verdict-only path (the schema evaluated while the text is read, no tree when valid)
    // gives the same outcome.
    let verdict = api::check_tool_input_json(&d, input, Some(&o));
    match (&from_text, &verdict) {
        (Ok(_), Ok(())) => {}
        (Err(a), Err(b)) => assert_eq!(
            (a.code, &a.path, &a.message, &a.issues, a.truncated, &a.position),
            (b.code, &b.path, &b.message, &b.issues, b.truncated, &b.position)
        ),
        _ => panic!("text and verdict paths disagree: {from_text:?} vs {verdict:?}"),
    }
    if let Ok(value) = json::parse(input, Mode::Strict, &Limits::default()) {
        let v = &value;
        let from_value = api::validate_tool_input(&d, &v, Some(&o));
        match (&from_text, &from_value) {
            (Ok(a), Ok(b)) => {
                assert_eq!(canon(a), canon(b), "the same input (key order: ECMAScript's, as every host reads it)")
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.code, &a.path, &a.issues, a.truncated), (b.code, &b.path, &b.issues, b.truncated))
            }
            _ => panic!("text and value disagree: {from_text:?} vs {from_value:?}"),
        }
    }
});
