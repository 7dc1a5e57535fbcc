//! The JSON-text operations: actions, tool definitions, decisions and JSON Lines from text,
//! with default or small limits. An accepted result must write as wire text that the strict
//! parser accepts again (it is what the hosts decode).
#![no_main]

use agent_contract::value::{Number, Value};
use agent_contract::{api, wire};
use libfuzzer_sys::fuzz_target;

mod common;
use common::wire_ok;

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    // Bit 3: small limits (and strict mode where it applies).
    let small = Value::Object(vec![
        ("maxBytes".into(), Value::Number(Number::from_f64(256.0))),
        ("maxDepth".into(), Value::Number(Number::from_f64(4.0))),
        ("maxArrayLength".into(), Value::Number(Number::from_f64(4.0))),
    ]);
    let strict = Value::Object(vec![("strict".into(), Value::Bool(true))]);
    let (small, strict) = (&small, &strict);
    let (rules, limits): (Option<&&Value>, Option<&&Value>) =
        if op & 8 == 0 { (None, None) } else { (Some(&strict), Some(&small)) };
    match op % 8 {
        0 => wire_ok(api::parse_agent_action_json(text, rules).map(|a| a.into_value())),
        1 => wire_ok(api::define_tool_json(text, rules).map(|d| d.into_value())),
        2 => wire_ok(api::parse_decision_json(text, limits).map(|d| d.into_value())),
        3 => wire_ok(api::parse_agent_actions_jsonl(text, limits).map(|items| {
            Value::Array(items.into_iter().map(|r| wire::outcome_value(r.map(|a| a.into_value()))).collect())
        })),
        4 => wire_ok(api::parse_json(text, limits)),
        5 => {
            let checked = api::check_json(text, limits);
            let parsed = api::parse_json(text, limits);
            assert_eq!(checked.is_ok(), parsed.is_ok(), "check_json and parse_json agree");
        }
        6 => wire_ok(api::schema_suite_check(text)),
        _ => wire_ok(api::parse_agent_action_json::<&Value>(text, None).map(|a| a.into_value())),
    }
});
