//! Property tests for the registry and the pipeline: random registries, actions, policies and
//! tool results never make `checkToolCall`, `definePolicy`, `createRegistry`,
//! `normalizeToolResult` or `strictSchemaIssues` panic; every failure is a `ContractError`.

use agent_contract::value::{Number, Value};
use agent_contract::{api, Layer};
use proptest::prelude::*;

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        Just(Value::Undefined),
        Just(Value::NotJson("function".into())),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5).prop_map(|n| Value::Number(Number::from_f64(n as f64))),
        prop::sample::select(vec![
            "read",
            "write",
            "network",
            "execute",
            "admin",
            "allow",
            "ask",
            "deny",
            "read_file",
            "tool_call",
            "x",
            "",
        ])
        .prop_map(s),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "rules",
                        "effect",
                        "tool",
                        "permission",
                        "type",
                        "callId",
                        "input",
                        "name",
                        "description",
                        "inputSchema",
                        "permissions",
                        "tools",
                        "ok",
                        "data",
                        "code",
                        "message",
                        "retryable",
                        "properties",
                        "required",
                        "additionalProperties",
                        "anyOf",
                    ]),
                    inner,
                ),
                0..5
            )
            .prop_map(|e| {
                let mut seen = std::collections::HashSet::new();
                Value::Object(e.into_iter().filter(|(k, _)| seen.insert(*k)).map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

fn tool(name: &'static str, perms: Vec<&'static str>) -> Value {
    obj(vec![
        ("name", s(name)),
        ("description", s("d")),
        ("inputSchema", obj(vec![("type", s("object"))])),
        ("permissions", Value::Array(perms.into_iter().map(s).collect())),
    ])
}

fn registry() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(obj(vec![(
            "tools",
            Value::Array(vec![tool("read_file", vec!["read"]), tool("write_file", vec!["write", "network"])])
        )])),
        json_value(),
    ]
}

fn policy() -> impl Strategy<Value = Value> {
    let rule = (
        prop::sample::select(vec!["allow", "ask", "deny", "maybe"]),
        prop::sample::select(vec!["tool", "permission"]),
        prop::sample::select(vec!["read", "write", "network", "read_file", "write_file", "Bad"]),
    )
        .prop_map(|(e, k, v)| obj(vec![("effect", s(e)), (k, s(v))]));
    prop_oneof![prop::collection::vec(rule, 0..5).prop_map(|r| obj(vec![("rules", Value::Array(r))])), json_value()]
}

fn action() -> impl Strategy<Value = Value> {
    prop_oneof![
        (prop::sample::select(vec!["read_file", "write_file", "read_flie", ""]), json_value())
            .prop_map(|(t, i)| obj(vec![("type", s("tool_call")), ("callId", s("c")), ("tool", s(t)), ("input", i)])),
        json_value(),
    ]
}

fn domain_or_other(e: &agent_contract::ContractError) {
    assert!(!e.message.is_empty());
    if e.layer == Layer::Domain {
        assert!(e.path == "/tool");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn check_tool_call_gives_a_result_or_an_error(r in registry(), a in action(), p in policy()) {
        match api::check_tool_call(&&r, &&a, &&p, None) {
            Ok(Value::Object(entries)) => prop_assert_eq!(entries.len(), 4),
            Ok(other) => prop_assert!(false, "unexpected {:?}", other),
            Err(e) => domain_or_other(&e),
        }
    }

    #[test]
    fn policies_and_registries_are_read_or_refused(v in json_value()) {
        let _ = api::define_policy(&&v);
        let _ = api::create_registry(&&Value::Array(vec![v.clone()]), None);
        let _ = api::catalog(&&v);
        let _ = api::strict_schema_issues(&&v);
        let _ = api::compare_contracts(&&v, &&tool("read_file", vec!["read"]));
        let _ = api::diff_catalogs(&&v, &&v);
    }

    #[test]
    fn tool_results_always_normalise(v in json_value()) {
        let t = tool("read_file", vec!["read"]);
        let result = api::normalize_tool_result(&&t, &&v, None).expect("a valid tool never fails");
        prop_assert!(matches!(result.get("ok"), Some(Value::Bool(_))));
    }
}
