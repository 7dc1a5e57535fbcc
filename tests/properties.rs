//! Property tests of the Rust core: no input makes a parser or a rule panic, and the strict
//! parser agrees with serde_json on every JSON document serde_json writes.

mod common;

use agent_contract::json::{parse, Mode};
use agent_contract::protocol::{action, decision};
use agent_contract::tools::contract;
use agent_contract::value::{write_json, Number, Value};
use agent_contract::{Limits, Options};
use proptest::prelude::*;

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    common::json_value("[a-z_]{0,8}", "[a-zA-Z_0-9]{0,6}|\\PC{0,4}", 8)
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
            Just("tool"),
            Just("final"),
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
            Just("kind"),
            Just("calls"),
            Just("answer"),
            Just("arguments"),
            Just("0"),
            Just("x"),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.prop_map(String::from), inner), 0..8).prop_map(unique_keys),
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
        let options = Options { strict, limits: Limits { max_bytes: 4096, max_depth: 4, ..Limits::default() }, ..Options::default() };
        let _ = action::parse_agent_action(&&value, &options);
        let _ = contract::define_tool(&&value, &options);
        let _ = agent_contract::protocol::preview::preview_action(&&value, &options);
    }
}

/// Decision-shaped values: mostly valid, with every field drawn from hostile values too.
fn decision_like() -> impl Strategy<Value = Value> {
    let text = prop_oneof![Just("c1".to_owned()), Just("c2".to_owned()), Just(" ".to_owned()), any::<String>()];
    let call = (text.clone(), text.clone(), json_value(), host_value(), any::<u8>()).prop_map(
        |(id, name, args, junk, pick)| {
            let args = match serde_json::Value::Object(serde_json::Map::new()) {
                _ if pick % 4 != 0 => Value::Object(vec![("a".into(), to_value(&args))]),
                _ => junk.clone(),
            };
            let mut entries = vec![
                ("callId".to_owned(), Value::String(id)),
                ("name".to_owned(), Value::String(name)),
                ("arguments".to_owned(), args),
            ];
            if pick % 7 == 0 {
                entries.push(("extra".into(), junk));
            }
            if pick % 11 == 0 {
                entries.remove(usize::from(pick) % 3);
            }
            Value::Object(entries)
        },
    );
    prop_oneof![
        (prop::collection::vec(call, 0..6), any::<bool>()).prop_map(|(calls, with_answer)| {
            let mut entries =
                vec![("kind".to_owned(), Value::String("tool".into())), ("calls".to_owned(), Value::Array(calls))];
            if with_answer {
                entries.push(("answer".into(), Value::String("x".into())));
            }
            Value::Object(entries)
        }),
        (text, host_value()).prop_map(|(answer, other)| Value::Object(vec![
            ("kind".to_owned(), Value::String("final".into())),
            ("answer".to_owned(), if answer.len() % 3 == 0 { other } else { Value::String(answer) }),
        ])),
        host_value(),
    ]
}

fn to_value(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Number(Number::from_f64(n.as_f64().unwrap_or(0.0))),
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::Array(a.iter().map(to_value).collect()),
        serde_json::Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Any value gives a decision or a ContractError, never a panic; an accepted decision, written
    /// back as JSON, is accepted again as the same decision (seed 002 §15.6).
    #[test]
    fn decisions_never_panic_and_round_trip(value in decision_like(), max_calls in 1usize..6) {
        let options = Options { max_calls, ..Options::default() };
        match decision::parse_decision(&&value, &options) {
            Ok(d) => {
                let mut text = String::new();
                write_json(&mut text, &d.clone().into_value());
                let again = decision::parse_decision_json(text.as_bytes(), &options);
                prop_assert_eq!(again.as_ref().ok(), Some(&d), "{}", text);
            }
            Err(e) => {
                prop_assert!(!e.code.as_str().is_empty());
                prop_assert!(e.path.is_empty() || e.path.starts_with('/'));
            }
        }
    }

    /// For JSON values, the value path and the text path reach the same verdict.
    #[test]
    fn decision_text_and_value_agree(value in decision_like()) {
        let mut text = String::new();
        write_json(&mut text, &value);
        // Only pure JSON values: host-only values have no text form.
        let Ok(parsed) = parse(text.as_bytes(), Mode::Strict, &Limits::default()) else { return Ok(()) };
        if !same_value(&parsed, &value) {
            return Ok(());
        }
        let a = decision::parse_decision(&&value, &Options::default());
        let b = decision::parse_decision_json(text.as_bytes(), &Options::default());
        match (&a, &b) {
            // Key order inside arguments may differ (the value path lists keys in ECMAScript
            // order, text keeps its own); hosts build objects, where that order is not a verdict.
            (Ok(x), Ok(y)) => prop_assert!(unordered(&x.clone().into_value(), &y.clone().into_value()), "{x:?} vs {y:?}"),
            (Err(x), Err(y)) => prop_assert_eq!((x.code, &x.path), (y.code, &y.path), "{}", text),
            _ => prop_assert!(false, "{text}: {a:?} vs {b:?}"),
        }
    }

    #[test]
    fn decision_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = decision::parse_decision_json(&bytes, &Options::default());
        let _ = agent_contract::api::parse_json::<&Value>(&bytes, None);
    }
}

fn unordered(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| unordered(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.iter().any(|(k2, v2)| k == k2 && unordered(v, v2)))
        }
        (Value::Number(x), Value::Number(y)) => x.value == y.value,
        _ => a == b,
    }
}

/// Structural equality where host-only values (written as null) make the text differ.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k1, v1), (k2, v2))| k1 == k2 && same_value(v1, v2))
        }
        (Value::Number(x), Value::Number(y)) => x.value == y.value,
        _ => a == b,
    }
}

/// A host object never holds a name twice (JS and Python objects cannot): keep the first.
fn unique_keys(entries: Vec<(String, Value)>) -> Value {
    let mut out: Vec<(String, Value)> = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        if !out.iter().any(|(seen, _)| *seen == k) {
            out.push((k, v));
        }
    }
    Value::Object(out)
}
