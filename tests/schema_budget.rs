//! The engine's evaluation budget: an input whose validation takes more evaluations than
//! `evaluation_budget` allows (a wide `anyOf` or many `patternProperties` on every value) is
//! `INPUT_TOO_LARGE`, at the same count on the value path, the text path and through a compiled
//! tool; and an `enum` of many values other than strings costs a lookup per value, not a scan.

use agent_contract::api;
use agent_contract::json::{parse, Mode};
use agent_contract::tools::schema::{evaluation_budget, MIN_EVALUATION_BUDGET};
use agent_contract::value::Value;
use agent_contract::{Code, ContractError, Limits};

fn value(text: &str) -> Value {
    parse(text.as_bytes(), Mode::Strict, &Limits::ceilings()).unwrap()
}

fn tool(input_schema: &str) -> Value {
    value(&format!(r#"{{"name":"t","description":"d","permissions":["read"],"inputSchema":{input_schema}}}"#))
}

fn numbers(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!(r#"{{"a":[{}]}}"#, items.join(","))
}

/// Each path's answer on `text`: the value path, the text path, and through the tool's compiled
/// handle the value path, the text path and its verdict alone.
fn outcomes(tool: &Value, text: &str) -> Vec<Result<(), (Code, String, String)>> {
    let input = value(text);
    let (t, i) = (tool, &input);
    let handle = api::compile_tool(&t, None).unwrap();
    let strip =
        |r: Result<Value, ContractError>| r.map(|_| ()).map_err(|e| (e.code, e.path.clone(), e.message.clone()));
    vec![
        strip(api::validate_tool_input(&t, &i, None)),
        strip(api::validate_tool_input_json(&t, text.as_bytes(), None)),
        strip(api::handle_validate_input(&handle, &i, None)),
        strip(api::handle_validate_input_json::<&Value>(&handle, text.as_bytes(), None)),
        strip(api::handle_check_input_json::<&Value>(&handle, text.as_bytes(), None).map(|()| Value::Null)),
    ]
}

fn all_same(found: &[Result<(), (Code, String, String)>]) -> &Result<(), (Code, String, String)> {
    assert!(found.iter().all(|f| f == &found[0]), "the paths disagree: {found:?}");
    &found[0]
}

#[test]
fn a_wide_any_of_on_every_item_is_refused_past_the_budget_on_every_path() {
    // 298 failing branches, then one that matches: 300 evaluations per item (the items schema,
    // then each branch tried), 2,499,900 for 8,333 items.
    let mut branches = vec![r#"{"type":"string"}"#; 298];
    branches.push(r#"{"type":"number"}"#);
    let t = tool(&format!(
        r#"{{"type":"object","properties":{{"a":{{"type":"array","items":{{"anyOf":[{}]}}}}}}}}"#,
        branches.join(",")
    ));
    assert_eq!(evaluation_budget(8_335), MIN_EVALUATION_BUDGET);
    assert_eq!(all_same(&outcomes(&t, &numbers(8_333))), &Ok(()));
    let refused = all_same(&outcomes(&t, &numbers(8_334))).clone().unwrap_err();
    assert_eq!(refused.0, Code::InputTooLarge);
    assert_eq!(refused.1, "");
    assert_eq!(refused.2, "validating this input against its schema takes more than 2500000 evaluations");
    // An invalid item before the budget runs out is the mismatch, as without a budget.
    let text = numbers(8_334).replacen("[0,", "[null,", 1);
    let mismatch = all_same(&outcomes(&t, &text)).clone().unwrap_err();
    assert_eq!(mismatch.0, Code::SchemaMismatch);
}

#[test]
fn patterns_tried_on_member_names_count() {
    // 100 patterns on each of 25,000 members (none matches): 2,500,000 patterns tried and the
    // root's evaluation.
    let patterns: Vec<String> = (0..100).map(|i| format!(r#""^p{i}_[a-z]+$":{{"type":"string"}}"#)).collect();
    let t = tool(&format!(r#"{{"type":"object","patternProperties":{{{}}}}}"#, patterns.join(",")));
    let members = |n: usize| {
        let m: Vec<String> = (0..n).map(|i| format!(r#""k{i}":1"#)).collect();
        format!("{{{}}}", m.join(","))
    };
    assert_eq!(all_same(&outcomes(&t, &members(24_999))), &Ok(()));
    let refused = all_same(&outcomes(&t, &members(25_000))).clone().unwrap_err();
    assert_eq!((refused.0, refused.1.as_str()), (Code::InputTooLarge, ""));
}

#[test]
fn the_budget_grows_with_the_input_past_its_minimum() {
    assert_eq!(evaluation_budget(0), MIN_EVALUATION_BUDGET);
    assert_eq!(evaluation_budget(500_000), MIN_EVALUATION_BUDGET);
    assert_eq!(evaluation_budget(1_000_000), 5_000_000);
}

#[test]
fn an_enum_of_numbers_and_containers_is_searched_by_equality() {
    let numbers_enum: Vec<String> = (0..20_000).map(|i| (i * 2).to_string()).collect();
    let t = tool(&format!(
        r#"{{"type":"object","properties":{{"a":{{"type":"array","items":{{"enum":[{},"x",{{"k":[1,2]}},[0,{{"b":null,"a":1}}]]}}}}}}}}"#,
        numbers_enum.join(",")
    ));
    // Equal as JSON Schema compares: 2.0 is 2, -0 is 0, members in any order.
    let good = r#"{"a":[0,-0,-0.0,2.0,39998,"x",{"k":[1,2.0]},[0,{"a":1,"b":null}],4e1]}"#;
    assert_eq!(all_same(&outcomes(&t, good)), &Ok(()));
    for bad in [r#"{"a":[1]}"#, r#"{"a":[40000]}"#, r#"{"a":[{"k":[2,1]}]}"#, r#"{"a":["X"]}"#, r#"{"a":[[0]]}"#] {
        let e = all_same(&outcomes(&t, bad)).clone().unwrap_err();
        assert_eq!((e.0, e.1.as_str()), (Code::SchemaMismatch, ""), "{bad}");
    }
    // 60,000 items, each looked up among 20,000 values: far under a second even in a debug build
    // (it was 1.2e9 comparisons).
    let many: Vec<&str> = std::iter::repeat_n("39998", 60_000).collect();
    let text = format!(r#"{{"a":[{}]}}"#, many.join(","));
    let start = std::time::Instant::now();
    assert_eq!(all_same(&outcomes(&t, &text)), &Ok(()));
    assert!(start.elapsed().as_secs_f64() < 20.0, "{:?}", start.elapsed());
}

#[test]
fn a_failed_enum_quotes_its_values_up_to_the_message_bound() {
    let values: Vec<String> = (0..20_000).map(|i| format!("\"value-number-{i}\"")).collect();
    let t = tool(&format!(
        r#"{{"type":"object","properties":{{"a":{{"type":"array","items":{{"enum":[{}]}}}}}}}}"#,
        values.join(",")
    ));
    let items: Vec<String> = (0..100).map(|i| format!("\"nope{i}\"")).collect();
    let text = format!(r#"{{"a":[{}]}}"#, items.join(","));
    let start = std::time::Instant::now();
    let e = api::validate_tool_input_json(&&t, text.as_bytes(), None).unwrap_err();
    assert_eq!((e.code, e.issues.len()), (Code::SchemaMismatch, 100));
    for issue in &e.issues {
        assert_eq!(issue.keyword, "enum");
        assert!(
            issue.message.starts_with("value must be one of 'value-number-0', 'value-number-1', "),
            "{}",
            issue.message
        );
        assert!(issue.message.ends_with('…') && issue.message.len() <= 256 + '…'.len_utf8(), "{}", issue.message.len());
    }
    // A short enum's message is whole.
    let short = tool(r#"{"type":"object","properties":{"a":{"enum":["x","y"]}}}"#);
    let e = api::validate_tool_input_json(&&short, br#"{"a":"z"}"#, None).unwrap_err();
    assert_eq!(e.issues[0].message, "value must be one of 'x', 'y'");
    // 1.5 s in a debug build before the bound (1.45 s in Node), each message 220 KB.
    assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
}

#[test]
fn a_long_string_is_quoted_by_its_start_in_format_and_pattern_failures() {
    let t = value(
        r#"{"name":"t","description":"d","permissions":["read"],"formats":"assert","inputSchema":{"type":"object","properties":{"e":{"format":"email"},"p":{"pattern":"^x"}}}}"#,
    );
    let long = "é".repeat(40) + &"a".repeat(100_000);
    let text = format!(r#"{{"e":"{long}","p":"{long}"}}"#);
    let e = api::validate_tool_input_json(&&t, text.as_bytes(), None).unwrap_err();
    let start = format!("'{}…'", "é".repeat(32));
    let messages: Vec<(&str, &str)> = e.issues.iter().map(|i| (i.path.as_str(), i.message.as_str())).collect();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0].0, "/e");
    assert!(messages[0].1.starts_with(&format!("{start} is not valid email: ")), "{}", messages[0].1);
    assert_eq!(messages[1], ("/p", format!("{start} does not match pattern '^x'").as_str()));
    // Short strings keep the engine's words whole.
    let e = api::validate_tool_input_json(&&t, br#"{"e":"it's","p":"y"}"#, None).unwrap_err();
    let messages: Vec<&str> = e.issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(messages[1], r"'y' does not match pattern '^x'");
    assert!(messages[0].starts_with(r"'it\'s' is not valid email: "), "{}", messages[0]);
}

/// A tool whose `a` is an `anyOf` of 298 failing branches and a matching one: 300 evaluations
/// for each item `{"a": <number>}` (its root and `a`'s type the schema's program checks).
fn wide_any_of_tool_schema() -> String {
    let mut branches = vec![r#"{"type":"string"}"#; 298];
    branches.push(r#"{"type":"number"}"#);
    format!(r#"{{"type":"object","properties":{{"a":{{"anyOf":[{}]}}}}}}"#, branches.join(","))
}

#[test]
fn the_inputs_of_one_call_share_one_budget() {
    // 65,000 items of 300 evaluations each took 3.75 s in Node (0.77 MB), each item within a
    // budget of its own. One budget for the call: 2,500,000 for 130,000 values, 8,333 items.
    let t = tool(&wide_any_of_tool_schema());
    let items: Vec<String> = (0..20_000).map(|i| format!(r#"{{"a":{i}}}"#)).collect();
    let list = value(&format!("[{}]", items.join(",")));
    let outcomes = api::validate_tool_inputs(&&t, &&list, None).unwrap();
    assert_eq!(outcomes.len(), 20_000);
    // Each item takes ~300 (the engine's own wrapping adds a few): the first ~8,300 pass, then
    // every later one is refused.
    let first_refused = outcomes.iter().position(|o| o.is_err()).unwrap();
    assert!((8_000..=8_333).contains(&first_refused), "{first_refused}");
    for refused in &outcomes[first_refused..] {
        let e = refused.as_ref().unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (Code::InputTooLarge, ""));
        assert_eq!(
            e.message,
            "validating the inputs of this call against their schemas takes more than 2500000 evaluations"
        );
    }
    // Through the compiled tool, the same outcomes.
    let handle = api::compile_tool(&&t, None).unwrap();
    let through: Vec<bool> =
        api::handle_validate_inputs(&handle, &&list, None).unwrap().iter().map(|o| o.is_ok()).collect();
    assert_eq!(through, outcomes.iter().map(|o| o.is_ok()).collect::<Vec<_>>());
}

#[test]
fn the_tool_calls_of_dataset_rows_share_one_budget() {
    // One row of 9,000 calls to a tool of ~300 evaluations per call: its calls share the call's
    // budget, so the calls past 2,500,000 evaluations are refused, each as a mismatch of its
    // arguments saying why (the report lists the first 100 problems).
    let calls: Vec<String> = (0..9_000)
        .map(|i| format!(r#"{{"id":"c{i}","type":"function","function":{{"name":"f","arguments":"{{\"a\":{i}}}"}}}}"#))
        .collect();
    let answers: Vec<String> =
        (0..9_000).map(|i| format!(r#"{{"role":"tool","tool_call_id":"c{i}","content":"ok"}}"#)).collect();
    let row = format!(
        r#"{{"messages":[{{"role":"user","content":"go"}},{{"role":"assistant","tool_calls":[{}]}},{}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{}}}}}]}}"#,
        calls.join(","),
        answers.join(","),
        wide_any_of_tool_schema()
    );
    let report = api::check_chat_row(&&value(&row), None).unwrap();
    let problems = match report.get("problems") {
        Some(Value::Array(p)) => p.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(problems.len(), 100);
    assert_eq!(report.get("truncated"), Some(&Value::Bool(true)));
    let text = |v: Option<&Value>| match v {
        Some(Value::String(t)) => t.clone(),
        other => panic!("{other:?}"),
    };
    let first: usize =
        text(problems[0].get("path"))["/messages/1/tool_calls/".len()..].split('/').next().unwrap().parse().unwrap();
    assert!((8_000..=8_333).contains(&first), "{first}");
    for (i, problem) in problems.iter().enumerate() {
        assert_eq!(text(problem.get("code")), "ROW_ARGUMENTS_MISMATCH");
        assert_eq!(text(problem.get("path")), format!("/messages/1/tool_calls/{}/function/arguments", first + i));
        assert!(text(problem.get("message")).ends_with("takes more than 2500000 evaluations"));
    }
}

/// `properties` nested `levels` deep under `key`, with `leaves` subschemas `leaf` at the bottom.
fn nested(key: &str, levels: usize, leaves: usize, leaf: &str) -> String {
    let members: Vec<String> = (0..leaves).map(|i| format!(r#""p{i}":{leaf}"#)).collect();
    let mut s = format!(r#"{{"properties":{{{}}}}}"#, members.join(","));
    for _ in 0..levels {
        s = format!(r#"{{"properties":{{"{key}":{s}}}}}"#);
    }
    s
}

/// Runs `f` on a stack like the wasm builds' (8 MiB), doubled for the debug build's frames: the
/// schemas here nest over a hundred levels.
fn on_wasm_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(16 << 20).spawn(f).unwrap().join().unwrap();
}

#[test]
fn the_pointers_of_a_schemas_subschemas_are_bounded_before_any_is_held() {
    on_wasm_stack(pointers_bounded);
}

fn pointers_bounded() {
    let long = "k".repeat(1000);
    for leaf in ["true", "{}", r#"{"type":"string"}"#] {
        let e = api::define_tool(&&tool(&nested(&long, 62, 4000, leaf)), None).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (Code::ToolSchemaUnsupported, "/inputSchema"), "{leaf}");
        assert!(e.message.contains("JSON Pointers of the schema's subschemas"), "{}", e.message);
    }
    api::define_tool(&&tool(&nested("k", 62, 4000, "true")), None).expect("short names nest freely");
}

#[test]
fn gemini_schema_issues_are_cut_at_their_byte_bound() {
    on_wasm_stack(gemini_issues_cut);
}

fn gemini_issues_cut() {
    let members: Vec<String> = (0..60_000).map(|i| format!(r#""x{i}":1"#)).collect();
    let mut s = format!("{{{}}}", members.join(","));
    let name = "n".repeat(100);
    for _ in 0..120 {
        s = format!(r#"{{"type":"object","properties":{{"{name}":{s}}}}}"#);
    }
    let issues = api::gemini_schema_issues(&&value(&s)).unwrap();
    let Value::Array(issues) = issues else { panic!("a list") };
    let text = |i: &Value, k: &str| match i.get(k) {
        Some(Value::String(s)) => s.clone(),
        other => panic!("{k}: {other:?}"),
    };
    let bytes: usize =
        issues.iter().map(|i| text(i, "path").len() + text(i, "keyword").len() + text(i, "message").len()).sum();
    assert!(bytes <= 4 << 20, "{bytes}");
    let last = issues.last().unwrap();
    assert_eq!((text(last, "path"), text(last, "keyword")), (String::new(), "truncated".to_owned()));
    assert_eq!(text(&issues[0], "path"), format!("{}/x0", format!("/properties/{name}").repeat(120)));
}

/// `createRegistry({tools, resources})` with `n` tools each referencing one shared document of
/// `size` bytes of description.
fn sharing(n: usize, size: usize) -> Value {
    let u = "https://example.com/s.json";
    let tools: Vec<String> = (0..n)
        .map(|k| {
            format!(
                r#"{{"name":"t{k}","description":"d","permissions":["read"],"inputSchema":{{"type":"object","properties":{{"a":{{"$ref":"{u}"}}}}}}}}"#
            )
        })
        .collect();
    value(&format!(
        r#"{{"tools":[{}],"resources":{{"{u}":{{"type":"string","description":"{}"}}}}}}"#,
        tools.join(","),
        "x".repeat(size)
    ))
}

#[test]
fn what_the_tools_take_of_shared_resources_is_bounded() {
    // Each tool holds and compiles its own copy of the documents it references: 3,000 tools
    // referencing 550 KB (a 0.97 MB call) ran the wasm instance out of memory. Past 8 MiB taken
    // in all the registry is refused at the tool that takes it past, at once.
    let e = api::create_registry(&&sharing(3000, 550_000), None).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::InputTooLarge, "/tools/15"));
    assert!(e.message.contains("more than 8 MiB of the shared resources"), "{}", e.message);
    let e = api::create_registry(&&sharing(1000, 100_000), None).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::InputTooLarge, "/tools/83"));
    // Under the bound, and many tools sharing a small document, are accepted.
    for (n, size) in [(80, 100_000), (1000, 5_000)] {
        let registry = api::create_registry(&&sharing(n, size), None).expect("within the budget");
        assert!(matches!(registry.get("tools"), Some(Value::Array(t)) if t.len() == n));
    }
}
