//! Compiled tools and registries: the handle paths give the plain paths' outcomes
//! (proptest), and a released tool is TOOL_HANDLE_FREED.

use agent_contract::value::{Number, Value};
use agent_contract::{api, Code};
use proptest::prelude::*;

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn n(x: f64) -> Value {
    Value::Number(Number { value: x, text: None })
}

fn tool(name: &str, property: Value, permission: &str) -> Value {
    obj(vec![
        ("name", s(name)),
        ("description", s("d")),
        ("inputSchema", obj(vec![("type", s("object")), ("properties", obj(vec![("a", property)]))])),
        ("permissions", Value::Array(vec![s(permission)])),
    ])
}

fn schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(obj(vec![])),
        Just(obj(vec![("type", s("string"))])),
        Just(obj(vec![("type", s("integer")), ("minimum", n(1.0))])),
        Just(obj(vec![("enum", Value::Array(vec![s("x"), n(2.0)]))])),
        Just(obj(vec![("type", s("array")), ("items", obj(vec![("type", s("string"))]))])),
        Just(Value::Bool(false)),
    ]
}

fn input() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(s("x")),
        Just(n(2.0)),
        Just(n(0.5)),
        Just(Value::Array(vec![s("a"), n(1.0)])),
        Just(Value::Undefined),
        Just(obj(vec![("k", s("v"))])),
    ]
}

fn policy(i: usize) -> Value {
    let rule = |effect: &str, key: &str, v: &str| obj(vec![("effect", s(effect)), (key, s(v))]);
    obj(vec![(
        "rules",
        Value::Array(match i {
            0 => vec![rule("allow", "permission", "read")],
            1 => vec![rule("ask", "tool", "t0"), rule("allow", "permission", "write")],
            2 => vec![],
            _ => vec![rule("sometimes", "tool", "t0")],
        }),
    )])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn handle_paths_give_the_plain_paths_outcomes(
        specs in prop::collection::vec((schema(), prop::bool::ANY), 1..4),
        calls in prop::collection::vec((0usize..4, input(), 0usize..4), 0..4),
    ) {
        let tools: Vec<Value> = specs.iter().enumerate()
            .map(|(i, (p, read))| tool(&format!("t{i}"), p.clone(), if *read { "read" } else { "write" }))
            .collect();
        for t in &tools {
            let Ok(handle) = api::compile_tool(&t, None) else { continue };
            let definition = handle.take_definition().unwrap();
            for (_, i, _) in &calls {
                let input = obj(vec![("a", i.clone())]);
                prop_assert_eq!(api::handle_validate_input(&handle, &&input, None), api::validate_tool_input(&&definition, &&input, None));
            }
        }
        let list = Value::Array(tools);
        let (Ok(registry), Ok(plain)) = (api::compile_registry(&&list, None), api::create_registry(&&list, None)) else {
            return Ok(());
        };
        let (mut written, mut expected, mut again) = (String::new(), String::new(), String::new());
        registry.write_value(&mut written);
        agent_contract::value::write_json(&mut expected, &plain);
        prop_assert_eq!(written, expected);
        registry.write_value(&mut again);
        prop_assert_eq!(again, "null");
        for provider in [api::Provider::OpenAi, api::Provider::Anthropic, api::Provider::Mcp, api::Provider::Gemini] {
            prop_assert_eq!(api::registry_project(&registry, Some(provider)), api::project(&&plain, provider));
        }
        prop_assert_eq!(api::registry_project(&registry, None), api::catalog(&&plain));
        for (name, i, p) in calls {
            let tool = if name == 3 { s("nope") } else { s(&format!("t{name}")) };
            let call = obj(vec![("type", s("tool_call")), ("callId", s("c")), ("tool", tool), ("input", obj(vec![("a", i)]))]);
            let policy = policy(p);
            prop_assert_eq!(
                api::registry_check_tool_call(&registry, &&call, &&policy, None),
                api::check_tool_call(&&plain, &&call, &&policy, None)
            );
        }
    }
}

#[test]
fn a_released_tool_is_freed() {
    let handle = api::compile_tool(&&tool("t", obj(vec![]), "read"), None).unwrap();
    let input = obj(vec![("a", n(1.0))]);
    assert!(api::handle_validate_input(&handle, &&input, None).is_ok());
    handle.release();
    handle.release();
    let e = api::handle_validate_input(&handle, &&input, None).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (Code::ToolHandleFreed, ""));
    assert_eq!(
        api::handle_validate_input_json::<&Value>(&handle, b"{}", None).unwrap_err().code,
        Code::ToolHandleFreed
    );
}

/// The most subschemas a definition may have (the root, one property and 8,190 `true` items):
/// its compiled form is kept by the cache even though it weighs more than the cache's whole
/// budget, so a tool read again (the plain path, another instance's handle gone) does not
/// compile it again; and `defineTool` compiles it once, handing the handle what it checked.
#[test]
fn the_heaviest_admitted_schema_is_compiled_once_and_kept() {
    let items = Value::Array(vec![Value::Bool(true); 8_190]);
    let schema = obj(vec![
        ("type", s("object")),
        ("properties", obj(vec![("a", obj(vec![("prefixItems", items)]))])),
    ]);
    let def = obj(vec![
        ("name", s("wide")),
        ("description", s("d")),
        ("inputSchema", schema.clone()),
        ("permissions", Value::Array(vec![s("read")])),
    ]);
    agent_contract::tools::schema::clear_cache();
    let handle = api::compile_tool(&&def, None).expect("8,190 items are within the bounds");
    // The cache holds the very schema the definition compiled: a second compile finds it.
    let first = agent_contract::tools::schema::compile_in(&schema, "/inputSchema", &[]).unwrap();
    let again = agent_contract::tools::schema::compile_in(&schema, "/inputSchema", &[]).unwrap();
    assert!(std::rc::Rc::ptr_eq(&first, &again), "the heaviest admitted schema is kept");
    let input = obj(vec![("a", Value::Array(vec![n(1.0); 3]))]);
    assert_eq!(api::handle_validate_input(&handle, &&input, None).unwrap(), input);
    assert_eq!(api::validate_tool_input(&&def, &&input, None).unwrap(), input);
    let bad = Value::Array(vec![]);
    assert_eq!(api::handle_validate_input(&handle, &&bad, None).unwrap_err().code, Code::SchemaMismatch);
}

/// A compiled registry holds the schemas its definitions' checks compiled: each distinct schema
/// is compiled once, also when there are more of them than the compile cache keeps (a registry
/// that compiled them again took twice the time once past it).
#[test]
fn a_compiled_registry_compiles_each_schema_once() {
    use agent_contract::tools::schema::{clear_cache, compiles};
    let count = 2_500;
    let tools = Value::Array(
        (0..count).map(|i| tool(&format!("t{i}"), obj(vec![("maxLength", n(i as f64))]), "read")).collect(),
    );
    for shared in [false, true] {
        let arg = if shared { obj(vec![("tools", tools.clone())]) } else { tools.clone() };
        clear_cache();
        let before = compiles();
        let registry = api::compile_registry(&&arg, None).unwrap();
        assert_eq!(compiles() - before, count as u64, "one compile per distinct schema (shared: {shared})");
        // The held schemas are the ones used: a call compiles nothing.
        let call = obj(vec![
            ("type", s("tool_call")),
            ("callId", s("c")),
            ("tool", s("t7")),
            ("input", obj(vec![("a", s("abcdefg"))])),
        ]);
        let before = compiles();
        assert!(api::registry_check_tool_call(&registry, &&call, &&policy(0), None).is_ok());
        assert_eq!(compiles(), before);
    }
}
