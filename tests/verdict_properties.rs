//! Verdict replies: a host that holds the accepted value builds the result with the
//! verdict's shape (`protocol::verdict::build`); that must be exactly the result the core writes
//! (`into_value`), for host values and for strict JSON text, on random action- and
//! decision-like inputs. The hosts' own builders are compared with the full replies by
//! `js-tests/test/verdict-properties.test.mjs` and `py-host/tests/test_verdict_properties.py`.

use agent_contract::json::{parse, Mode};
use agent_contract::protocol::verdict::{self, build, shape};
use agent_contract::protocol::{action, decision};
use agent_contract::value::{write_json, Number, Value};
use agent_contract::Options;
use proptest::prelude::*;

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
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
            Just("c1"),
            Just(" ")
        ]
        .prop_map(|s| Value::String(s.into())),
        "\\PC{0,6}".prop_map(Value::String),
    ]
}

fn any_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{0,6}|__proto__", inner), 0..4).prop_map(Value::Object),
        ]
    })
}

fn string() -> impl Strategy<Value = Value> {
    prop_oneof![4 => Just(Value::String("read_file".into())), 1 => leaf(), 1 => any_value()]
}

/// Objects with the variant's fields, mostly right, in any order, sometimes with extras.
fn action_like() -> impl Strategy<Value = Value> {
    let fields = prop_oneof![
        Just(vec!["content"]),
        Just(vec!["callId", "tool", "input"]),
        Just(vec!["summary"]),
        Just(vec!["requestId", "capability", "resource", "reason"]),
    ];
    (
        prop_oneof![Just("message"), Just("tool_call"), Just("finish"), Just("request_approval"), Just("x")],
        fields,
        prop::collection::vec((string(), any_value()), 4),
        prop::collection::vec((prop_oneof![Just("schemaVersion"), Just("extra"), Just("input")], any_value()), 0..2),
        any::<bool>(),
    )
        .prop_map(|(t, fields, values, extra, reverse)| {
            let mut entries = vec![("type".to_owned(), Value::String(t.into()))];
            for (f, (s, v)) in fields.iter().zip(values) {
                entries.push(((*f).to_owned(), if *f == "input" { v } else { s }));
            }
            entries.extend(extra.into_iter().map(|(k, v)| (k.to_owned(), v)));
            if reverse {
                entries.reverse();
            }
            Value::Object(entries)
        })
}

fn decision_like() -> impl Strategy<Value = Value> {
    let call = (string(), string(), any_value(), "[a-z]{1,3}").prop_map(|(id, name, args, suffix)| {
        let id = match id {
            Value::String(s) => Value::String(s + &suffix),
            other => other,
        };
        let args = match args {
            Value::Object(_) => args,
            other => Value::Object(vec![("a".into(), other)]),
        };
        Value::Object(vec![("callId".into(), id), ("name".into(), name), ("arguments".into(), args)])
    });
    prop_oneof![
        prop::collection::vec(call, 1..3).prop_map(|calls| Value::Object(vec![
            ("kind".into(), Value::String("tool".into())),
            ("calls".into(), Value::Array(calls))
        ])),
        string().prop_map(|answer| Value::Object(vec![
            ("kind".into(), Value::String("final".into())),
            ("answer".into(), answer)
        ])),
        any_value(),
    ]
}

fn text(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn actions_built_from_the_verdict_are_the_written_result(value in action_like(), strict in any::<bool>()) {
        let options = Options { strict, ..Options::default() };
        if let Ok(a) = action::parse_agent_action(&&value, &options) {
            let v = verdict::action_verdict(&a);
            prop_assert_eq!(build(&value, &shape(v).unwrap()), Some(a.clone().into_value()));
        }
        // Text: JSON has no undefined; the value is what the host's JSON parser gives.
        let t = text(&value);
        let parsed = action::parse_agent_action_json(t.as_bytes(), &options);
        // The verdict read from the text's top alone: the same verdict, or the same error.
        let alone = action::agent_action_json_verdict(t.as_bytes(), &options);
        prop_assert_eq!(alone, parsed.as_ref().map(verdict::action_verdict).map_err(Clone::clone));
        if let Ok(a) = parsed {
            let held = parse(t.as_bytes(), Mode::Strict, &options.limits).unwrap();
            let v = verdict::action_verdict(&a);
            prop_assert_eq!(build(&held, &shape(v).unwrap()), Some(a.into_value()));
        }
    }

    #[test]
    fn decisions_built_from_the_verdict_are_the_written_result(value in decision_like()) {
        let options = Options::default();
        if let Ok(d) = decision::parse_decision(&&value, &options) {
            let v = verdict::decision_verdict(&d);
            prop_assert_eq!(build(&value, &shape(v).unwrap()), Some(d.clone().into_value()));
        }
        let t = text(&value);
        let parsed = decision::parse_decision_json(t.as_bytes(), &options);
        let alone = decision::decision_json_verdict(t.as_bytes(), &options);
        prop_assert_eq!(alone, parsed.as_ref().map(verdict::decision_verdict).map_err(Clone::clone));
        if let Ok(d) = parsed {
            let held = parse(t.as_bytes(), Mode::Strict, &options.limits).unwrap();
            let v = verdict::decision_verdict(&d);
            prop_assert_eq!(build(&held, &shape(v).unwrap()), Some(d.into_value()));
        }
    }
}

/// The table hosts read: one shape per verdict, actions then decisions.
#[test]
fn the_shapes_table() {
    let written = text(&verdict::shapes_value());
    assert_eq!(
        written,
        r#"[["type","content"],["type","callId","tool","input"],["type","summary"],["type","requestId","capability","resource","reason"],["kind",["calls",["callId","name","arguments"]]],["kind","answer"]]"#
    );
}
