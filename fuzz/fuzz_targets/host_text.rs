//! Host-mode text (what the Python binding writes: JSON plus `undefined`, non-finite numbers,
//! lone surrogates, non-JSON values, `!!cycle`) through every value operation. Nothing may
//! panic; every result must write as wire text that is JSON.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::Value;
use agent_contract::{api, wire, Limits};
use libfuzzer_sys::fuzz_target;

fn wire_ok(result: agent_contract::error::Result<Value>) {
    let text = wire::to_text(&wire::outcome_value(result));
    json::parse(text.as_bytes(), Mode::Host, &Limits::ceilings()).expect("wire text parses back");
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let Ok(v) = json::parse(text, Mode::Host, &Limits::default()) else { return };
    let v = &v;
    let none: Option<&&Value> = None;
    match op % 8 {
        0 => wire_ok(api::parse_agent_action(&v, none).map(|a| a.into_value())),
        1 => wire_ok(api::define_tool(&v, none).map(|d| d.into_value())),
        2 => wire_ok(api::parse_decision(&v, none).map(|d| d.into_value())),
        3 => wire_ok(Ok(api::preview_action(&v, none))),
        4 => wire_ok(api::parse_agent_actions(&v, none).map(|items| {
            Value::Array(items.into_iter().map(|r| wire::outcome_value(r.map(|a| a.into_value()))).collect())
        })),
        5 => wire_ok(api::strict_schema_issues(&v)),
        6 => wire_ok(api::define_policy(&v)),
        _ => {
            // The value as options of every operation family.
            let action = Value::Object(vec![
                ("type".into(), Value::String("finish".into())),
                ("summary".into(), Value::String("s".into())),
            ]);
            let a = &action;
            wire_ok(api::parse_agent_action(&a, Some(&v)).map(|a| a.into_value()));
            wire_ok(api::parse_decision(&a, Some(&v)).map(|d| d.into_value()));
            wire_ok(api::parse_json(b"{}", Some(&v)));
        }
    }
});
