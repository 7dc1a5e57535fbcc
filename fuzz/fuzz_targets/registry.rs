//! Registry and pipeline operations from JSON (the fuzzer's text is a JSON list of
//! arguments): createRegistry, catalog, the projections, definePolicy, checkToolCall,
//! normalizeToolResult, strictSchemaIssues, compareContracts, diffCatalogs, and the stream
//! assembler over an event list.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::Value;
use agent_contract::{api, Limits};
use libfuzzer_sys::fuzz_target;

mod common;
use common::wire_ok;

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let Ok(Value::Array(args)) = json::parse(text, Mode::Strict, &Limits::default()) else { return };
    let null = Value::Null;
    let a = |i: usize| args.get(i).unwrap_or(&null);
    let (a0, a1, a2) = (a(0), a(1), a(2));
    let none: Option<&&Value> = None;
    match op % 11 {
        0 => wire_ok(api::create_registry(&a0, none)),
        1 => wire_ok(api::catalog(&a0)),
        2 => wire_ok(api::project(&a0, api::Provider::OpenAi)),
        3 => wire_ok(api::project(&a0, api::Provider::Anthropic).and_then(|_| api::project(&a0, api::Provider::Mcp))),
        4 => wire_ok(api::define_policy(&a0)),
        5 => wire_ok(api::check_tool_call(&a0, &a1, &a2, none)),
        6 => wire_ok(api::normalize_tool_result(&a0, &a1, none)),
        7 => wire_ok(api::strict_schema_issues(&a0)),
        8 => wire_ok(api::compare_contracts(&a0, &a1)),
        9 => wire_ok(api::diff_catalogs(&a0, &a1)),
        _ => {
            let events: Vec<&Value> = args.iter().collect();
            let once = agent_contract::stream::assembler::assemble(&events, None);
            let again = agent_contract::stream::assembler::assemble(&events, None);
            assert_eq!(once, again, "replay agrees");
        }
    }
});
