//! The regular expressions of the definitions one call compiles share one budget: a registry
//! (or a batch of dataset rows, or a catalog read again) of many small definitions, each with a
//! costly pattern, is refused at the pattern that takes the call past it, whatever the
//! compiled-schema cache already holds; a definition alone keeps its own budget.

use agent_contract::api;
use agent_contract::json::{parse, Mode};
use agent_contract::tools::schema::clear_cache;
use agent_contract::value::Value;
use agent_contract::{Code, Limits};

fn value(text: &str) -> Value {
    parse(text.as_bytes(), Mode::Strict, &Limits::ceilings()).unwrap()
}

/// A tool whose one pattern costs ~3.6 MiB of automata (150 letters of any script): under the
/// definition's 4 MiB, a quarter of the call's 12 MiB.
fn heavy(i: usize) -> String {
    format!(
        r#"{{"name":"t{i}","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"s":{{"type":"string","pattern":"^\\p{{L}}{{150}}{}$"}}}}}}}}"#,
        "b".repeat(i)
    )
}

fn list(items: impl Iterator<Item = String>) -> Value {
    value(&format!("[{}]", items.collect::<Vec<_>>().join(",")))
}

fn refusal(r: agent_contract::error::Result<Value>) -> (Code, String, String) {
    let e = r.expect_err("refused");
    (e.code, e.path.clone(), e.message.clone())
}

const CALL_MESSAGE: &str = "the regular expressions of the definitions in this call need more than 12.0 MiB for their automata by this pattern (a call's definitions share 12 MiB, or 16 bytes per byte of their schemas when that is more); use fewer or smaller patterns";

#[test]
fn a_registry_of_costly_patterns_is_refused_where_the_call_runs_out() {
    clear_cache();
    let tools = list((0..6).map(heavy));
    let cold = refusal(api::create_registry(&&tools, None));
    assert_eq!(
        cold,
        (Code::ToolSchemaUnsupported, "/3/inputSchema/properties/s/pattern".to_owned(), CALL_MESSAGE.to_owned())
    );
    // Each definition alone is within its own budget, and compiling them first (the cache now
    // holds every schema) changes nothing for the registry.
    for i in 0..6 {
        let one = value(&heavy(i));
        api::define_tool(&&one, None).expect("a definition alone keeps its 4 MiB");
    }
    assert_eq!(refusal(api::create_registry(&&tools, None)), cold);
    // The same through a registry read again (the projections and the catalog compile it).
    let mut text = String::new();
    agent_contract::value::write_json(&mut text, &tools);
    let registry = value(&format!(r#"{{"tools":{text}}}"#));
    let read_again = refusal(api::catalog(&&registry));
    assert_eq!(read_again.1, "/tools/3/inputSchema/properties/s/pattern");
    assert_eq!(read_again.2, CALL_MESSAGE);
}

#[test]
fn one_schema_in_many_tools_is_charged_once() {
    // Six tools, one schema: compiled (and charged) once.
    let schema = r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^\\p{L}{150}$"}}}"#;
    let tools = list(
        (0..6).map(|i| format!(r#"{{"name":"t{i}","description":"d","permissions":["read"],"inputSchema":{schema}}}"#)),
    );
    let registry = api::create_registry(&&tools, None).expect("one schema, one charge");
    assert!(matches!(registry.get("tools"), Some(Value::Array(tools)) if tools.len() == 6));
}

#[test]
fn the_budget_grows_with_the_schemas_text() {
    // The four costly patterns that took the call past 12 MiB, in schemas of 300 KB each:
    // 16 bytes per byte of 1.2 MB of schemas is 19.2 MB, room for all four.
    let pad = "x".repeat(300_000);
    let tools = list((0..4).map(|i| {
        format!(
            r#"{{"name":"t{i}","description":"d","permissions":["read"],"inputSchema":{{"type":"object","description":"{pad}","properties":{{"s":{{"type":"string","pattern":"^\\p{{L}}{{150}}{}$"}}}}}}}}"#,
            "b".repeat(i)
        )
    }));
    api::create_registry(&&tools, None).expect("1.2 MB of schemas allow 19.2 MB of automata");
}

#[test]
fn the_budget_of_a_registry_does_not_depend_on_the_order_of_its_tools() {
    // Four costly patterns (~14.4 MiB) beside one pattern-free schema of 1 MB named to sort last
    // but given first: the call's budget is 16 bytes per byte of all its schemas (~16 MB) from
    // its start, so the registry is accepted, and accepted again when read in its sorted order
    // (with a budget grown only by the schemas compiled so far, the sorted read ran out at the
    // fourth pattern while the given order had room).
    let pad = "x".repeat(1_000_000);
    let big = format!(
        r#"{{"name":"zz","description":"d","permissions":["read"],"inputSchema":{{"type":"object","description":"{pad}"}}}}"#
    );
    let tools = list(std::iter::once(big).chain((0..4).map(heavy)));
    clear_cache();
    let created = api::create_registry(&&tools, None).expect("the call's budget counts the 1 MB schema");
    clear_cache();
    let catalog = api::catalog(&&created).expect("read again in sorted order, the same budget");
    assert!(matches!(&catalog, Value::Array(tools) if tools.len() == 5));
    // Without the large schema the same four patterns are refused, given in either order.
    let four = list((0..4).map(heavy));
    let reversed = list((0..4).rev().map(heavy));
    assert_eq!(refusal(api::create_registry(&&four, None)).1, "/3/inputSchema/properties/s/pattern");
    assert_eq!(refusal(api::create_registry(&&reversed, None)).1, "/3/inputSchema/properties/s/pattern");
}

#[test]
fn the_budget_of_a_diff_does_not_depend_on_which_catalog_is_old() {
    // The four costly patterns of the test above in one catalog, the 1 MB pattern-free schema in
    // the other: the call counts both catalogs' schemas before compiling either, so the diff is
    // answered both ways (with the budget grown only by the schemas compiled so far, the costly
    // catalog given first ran out at its fourth pattern).
    let pad = "x".repeat(1_000_000);
    let big = list(std::iter::once(format!(
        r#"{{"name":"zz","description":"d","permissions":["read"],"inputSchema":{{"type":"object","description":"{pad}"}}}}"#
    )));
    let four = list((0..4).map(heavy));
    for (old, new) in [(&four, &big), (&big, &four)] {
        clear_cache();
        let diff = api::diff_catalogs(&old, &new).expect("one budget for both catalogs");
        assert_eq!(diff.get("change"), Some(&Value::String("breaking".into())));
    }
    // The costly catalog beside an empty one is refused where it runs out, pointing into it.
    let empty = list(std::iter::empty());
    clear_cache();
    assert_eq!(refusal(api::diff_catalogs(&&four, &&empty)).1, "/old/3/inputSchema/properties/s/pattern");
}

/// A tool whose schema is its own (property `s{i}`) and whose pattern is `pattern`.
fn holding(i: usize, pattern: &str) -> String {
    format!(
        r#"{{"name":"p{i}","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"s{i}":{{"type":"string","pattern":"{pattern}"}}}}}}}}"#
    )
}

#[test]
fn one_pattern_in_many_schemas_is_charged_once_per_call() {
    // 3,000 distinct schemas holding the same ordinary pattern (~11 KB of automata each time it
    // is compiled): the engine compiles it once in the call, and the call pays for it once.
    let tools = list((0..3000).map(|i| holding(i, "^[a-z0-9_-]{1,64}$")));
    let created = api::create_registry(&&tools, None).expect("one pattern, compiled once");
    api::catalog(&&created).expect("read again");
    // The same costly pattern (~3.6 MiB) in ten schemas is one charge, beside two other costly
    // patterns; a third is past the call's 12 MiB, wherever the first holder of the shared
    // pattern compiled before (alone, or in another call where it was already paid for).
    let shared = r"^\\p{L}{150}$";
    let mixed = list((0..10).map(|i| holding(i, shared)).chain((1..4).map(heavy)));
    clear_cache();
    let cold = refusal(api::create_registry(&&mixed, None));
    assert_eq!((cold.0, cold.1.as_str()), (Code::ToolSchemaUnsupported, "/12/inputSchema/properties/s/pattern"));
    clear_cache();
    api::create_registry(&&list((5..7).map(|i| holding(i, shared))), None).expect("one costly pattern");
    assert_eq!(refusal(api::create_registry(&&mixed, None)), cold);
    for i in 0..10 {
        api::define_tool(&&value(&holding(i, shared)), None).expect("alone, within its 4 MiB");
    }
    assert_eq!(refusal(api::create_registry(&&mixed, None)), cold);
}

fn row(i: usize) -> String {
    format!(
        r#"{{"messages":[{{"role":"user","content":"hi"}},{{"role":"assistant","content":"ok"}}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{{"type":"object","properties":{{"s":{{"type":"string","pattern":"^\\p{{L}}{{150}}{}$"}}}}}}}}}}]}}"#,
        "b".repeat(i)
    )
}

#[test]
fn the_rows_of_a_batch_share_the_call_budget() {
    let rows = list((0..5).map(row));
    let reports = api::check_chat_rows(&&rows, None).unwrap();
    let Value::Array(reports) = reports else { panic!("a list of reports") };
    let problems: Vec<String> = reports
        .iter()
        .map(|r| {
            let mut s = String::new();
            agent_contract::value::write_json(&mut s, r.get("problems").unwrap());
            s
        })
        .collect();
    assert_eq!(&problems[..3], ["[]", "[]", "[]"]);
    assert!(problems[3].contains("ROW_TOOL_SCHEMA_INVALID"), "{}", problems[3]);
    assert!(problems[3].contains("/tools/0/function/parameters/properties/s/pattern"), "{}", problems[3]);
    assert!(problems[3].contains("in this call need more than 12.0 MiB"), "{}", problems[3]);
    // Alone, the row is within its definition's budget.
    let alone = api::check_chat_row(&&value(&row(3)), None).unwrap();
    assert_eq!(alone.get("ok"), Some(&Value::Bool(true)));
}

#[test]
fn a_schema_met_again_is_not_charged_again_when_the_cache_let_it_go() {
    // Three costly schemas (~10.8 MiB of the 12): the cache, bounded by what it holds, keeps at
    // most two of them, so the first is compiled again when it comes back. Charged once, it
    // leaves room for a short pattern after it; charged again, the call would have none.
    let short = r#"{"name":"short","description":"d","permissions":["read"],"inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":"^[a-z]{1,64}$"}}}}"#;
    let again = heavy(0).replacen(r#""name":"t0""#, r#""name":"again""#, 1);
    let tools = list([heavy(0), heavy(1), heavy(2), again, short.to_owned()].into_iter());
    for warm in [false, true] {
        clear_cache();
        if warm {
            api::define_tool(&&value(&heavy(0)), None).unwrap();
        }
        let registry = api::create_registry(&&tools, None).expect("the schema met again is charged once");
        assert!(matches!(registry.get("tools"), Some(Value::Array(t)) if t.len() == 5));
    }
}
