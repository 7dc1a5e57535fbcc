//! Property tests of the Rust core: no input makes a parser or a rule panic, and the strict
//! parser agrees with serde_json on every JSON document serde_json writes.

use agent_contract::json::{parse, Mode};
use agent_contract::value::{write_json, Number, Value};
use agent_contract::{action, tool_contract, Limits, Options};
use proptest::prelude::*;

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| serde_json::json!(f)),
        any::<String>().prop_map(serde_json::Value::String),
        "[a-z_]{0,8}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-zA-Z_0-9]{0,6}|\\PC{0,4}", inner, 0..8)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn same(ours: &Value, theirs: &serde_json::Value) -> bool {
    match (ours, theirs) {
        (Value::Null, serde_json::Value::Null) => true,
        (Value::Bool(a), serde_json::Value::Bool(b)) => a == b,
        (Value::Number(a), serde_json::Value::Number(b)) => Some(a.value) == b.as_f64(),
        (Value::String(a), serde_json::Value::String(b)) => a == b,
        (Value::Array(a), serde_json::Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), serde_json::Value::Object(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
        }
        _ => false,
    }
}

/// Values with every host-only variant, for the rules.
fn host_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        Just(Value::IllFormedString),
        Just(Value::NotJson("Map".into())),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>().prop_map(|f| Value::Number(Number::from_f64(f))),
        prop_oneof![
            Just("message"),
            Just("tool_call"),
            Just("finish"),
            Just("request_approval"),
            Just("read"),
            Just(" ")
        ]
        .prop_map(|s| Value::String(s.into())),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        let key = prop_oneof![
            Just("type"),
            Just("content"),
            Just("callId"),
            Just("tool"),
            Just("input"),
            Just("name"),
            Just("description"),
            Just("inputSchema"),
            Just("permissions"),
            Just("permission"),
            Just("version"),
            Just("schemaVersion"),
            Just("summary"),
            Just("0"),
            Just("x"),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.prop_map(String::from), inner), 0..8).prop_map(Value::Object),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse(&bytes, Mode::Strict, &Limits::default());
        let _ = parse(&bytes, Mode::Host, &Limits::default());
        let _ = action::parse_agent_action_json(&bytes, &Options::default());
    }

    #[test]
    fn agrees_with_serde_json(doc in json_value()) {
        let text = serde_json::to_string(&doc).unwrap();
        let ours = parse(text.as_bytes(), Mode::Strict, &Limits::default()).unwrap();
        prop_assert!(same(&ours, &doc), "{text}");
        let mut written = String::new();
        write_json(&mut written, &ours);
        let again = parse(written.as_bytes(), Mode::Strict, &Limits::default()).unwrap();
        prop_assert!(same(&again, &doc), "{written}");
    }

    #[test]
    fn mutated_documents_never_panic(doc in json_value(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut text = serde_json::to_vec(&doc).unwrap();
        let i = at.index(text.len());
        text[i] = byte;
        let _ = parse(&text, Mode::Strict, &Limits::default());
    }

    #[test]
    fn rules_never_panic(value in host_value(), strict in any::<bool>()) {
        let options = Options { strict, limits: Limits { max_bytes: 4096, max_depth: 4 } };
        let _ = action::parse_agent_action(&&value, &options);
        let _ = tool_contract::define_tool(&&value, &options);
        let _ = agent_contract::preview::preview_action(&&value, &options);
    }
}
