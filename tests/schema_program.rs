//! The schema program (`tools::schema`'s evaluation without the engine's tree) against the
//! engine: on random schemas made of the keywords the program evaluates (and a few it does not)
//! and random inputs near them, the verdict is the engine's, and the text path
//! (`validate_json`, the schema evaluated while the strict parser reads) gives exactly the
//! outcome of parsing then validating.

use agent_contract::json::{parse, Mode};
use agent_contract::tools::schema::{compile_with, engine_verdict, has_program, validate, validate_json};
use agent_contract::value::{write_json, Number, Value};
use agent_contract::{ContractError, Limits};
use proptest::prelude::*;

fn num(n: f64) -> Value {
    Value::Number(Number::from_f64(n))
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

const NAMES: [&str; 4] = ["a", "b", "c", "d~/"];

fn leaf_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Bool(true)),
        Just(Value::Bool(false)),
        Just(obj(vec![])),
        prop::sample::select(vec!["string", "integer", "number", "object", "array", "boolean", "null"])
            .prop_map(|t| obj(vec![("type", s(t))])),
        Just(obj(vec![("type", Value::Array(vec![s("integer"), s("null")]))])),
        (0usize..4, 0usize..4).prop_map(|(a, b)| obj(vec![("minLength", num(a as f64)), ("maxLength", num(b as f64))])),
        (-3i64..3, -3i64..3, any::<bool>()).prop_map(|(a, b, ex)| {
            let (lo, hi) = if ex { ("exclusiveMinimum", "exclusiveMaximum") } else { ("minimum", "maximum") };
            obj(vec![("type", s("integer")), (lo, num(a as f64)), (hi, num(b as f64))])
        }),
        Just(obj(vec![("minimum", num(0.5))])),
        Just(obj(vec![("pattern", s("^[a-b]+$")), ("maxLength", num(3.0))])),
        Just(obj(vec![("enum", Value::Array(vec![s("a"), num(1.0), Value::Null]))])),
        // An enum of strings alone is the program's; with another scalar keyword, the engine's.
        Just(obj(vec![("enum", Value::Array(vec![s("a"), s("é"), s("xA")]))])),
        Just(obj(vec![
            ("type", s("string")),
            ("enum", Value::Array(vec![s("abc"), s("abcd")])),
            ("maxLength", num(3.0))
        ])),
        Just(obj(vec![("enum", Value::Array(vec![s("ab"), s("a")])), ("pattern", s("^a"))])),
        Just(obj(vec![("enum", Value::Array(vec![]))])),
        Just(obj(vec![("const", num(2.0))])),
        Just(obj(vec![("multipleOf", num(2.0))])),
        Just(obj(vec![("format", s("email"))])),
        Just(obj(vec![("description", s("x")), ("default", num(1.0))])),
        Just(obj(vec![("anyOf", Value::Array(vec![obj(vec![("type", s("string"))])]))])),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf_schema().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                prop::collection::vec((prop::sample::select(NAMES.to_vec()), inner.clone()), 0..4),
                prop::collection::vec(prop::sample::select(NAMES.to_vec()), 0..3),
                prop::option::of(inner.clone()),
                prop::option::of(0usize..3),
                any::<bool>(),
            )
                .prop_map(|(props, required, additional, max, typed)| {
                    let mut seen = std::collections::HashSet::new();
                    let props: Vec<(String, Value)> =
                        props.into_iter().filter(|(k, _)| seen.insert(*k)).map(|(k, v)| (k.to_owned(), v)).collect();
                    let mut required: Vec<&str> = required;
                    required.dedup();
                    let mut e = vec![];
                    if typed {
                        e.push(("type", s("object")));
                    }
                    e.push(("properties", Value::Object(props)));
                    if !required.is_empty() {
                        e.push(("required", Value::Array(required.into_iter().map(s).collect())));
                    }
                    if let Some(a) = additional {
                        e.push(("additionalProperties", a));
                    }
                    if let Some(m) = max {
                        e.push(("maxProperties", num(m as f64)));
                    }
                    obj(e)
                }),
            (inner, prop::option::of(0usize..3), prop::option::of(0usize..3)).prop_map(|(items, min, max)| {
                let mut e = vec![("type", s("array")), ("items", items)];
                if let Some(m) = min {
                    e.push(("minItems", num(m as f64)));
                }
                if let Some(m) = max {
                    e.push(("maxItems", num(m as f64)));
                }
                obj(e)
            }),
        ]
    })
}

/// Input text: JSON from a small alphabet of values the schemas above care about, numbers
/// written several ways.
fn input() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "2",
            "3",
            "-3",
            "1.0",
            "2.5",
            "1e0",
            "-0",
            "0.5",
            "1E400",
            "12345678901234567890"
        ])
        .prop_map(str::to_owned),
        prop::sample::select(vec![
            "\"\"",
            "\"a\"",
            "\"ab\"",
            "\"abc\"",
            "\"abcd\"",
            "\"x\\u0041\"",
            "\"é\"",
            "\"a@b.c\""
        ])
        .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((prop::sample::select(vec!["a", "b", "c", "d~/", "e", "a"]), inner), 0..5).prop_map(
                |m| format!("{{{}}}", m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))
            ),
        ]
    })
}

fn key(r: &Result<(), ContractError>) -> Option<(String, String, String, bool)> {
    r.as_ref().err().map(|e| (e.code.as_str().to_owned(), e.path.clone(), format!("{:?}", e.issues), e.truncated))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn program_agrees_with_the_engine(schema in schema(), text in input()) {
        agent_contract::entropy::seed(&[7; 32]);
        let Ok(compiled) = compile_with(&schema, "", &[]) else { return Ok(()) };
        let limits = Limits::default();
        let from_text = validate_json(&compiled, text.as_bytes(), &limits, 5);
        match parse(text.as_bytes(), Mode::Strict, &limits) {
            Ok(value) => {
                let from_tree = validate(&compiled, &value, 5);
                prop_assert_eq!(key(&from_text), key(&from_tree), "text and tree paths");
                let engine = engine_verdict(&compiled, &value);
                prop_assert_eq!(from_tree.is_ok(), engine, "program vs engine on {}", text);
            }
            Err(e) => prop_assert_eq!(key(&from_text), key(&Err(e)), "parse error first"),
        }
    }
}

/// The schemas of the benchmarks and of typical tools have a program; one outside the subset
/// has none (and still validates, through the engine).
#[test]
fn typical_schemas_have_a_program() {
    agent_contract::entropy::seed(&[7; 32]);
    let text = r#"{"type":"object","properties":{"path":{"type":"string","pattern":"^[A-Za-z0-9_./-]+$","maxLength":512},
        "mode":{"enum":["create","overwrite","append"]},"encoding":{"type":"string"},
        "retries":{"type":"integer","minimum":0,"maximum":5},
        "edits":{"type":"array","items":{"type":"object","properties":{"line":{"type":"integer","minimum":1},
        "text":{"type":"string"}},"required":["line","text"],"additionalProperties":false}}},
        "required":["path","mode","edits"],"additionalProperties":false}"#;
    let schema = parse(text.as_bytes(), Mode::Strict, &Limits::default()).unwrap();
    let compiled = compile_with(&schema, "", &[]).unwrap();
    assert!(has_program(&compiled));
    let ok = br#"{"path":"a/b","mode":"create","edits":[{"line":1,"text":"x"}]}"#;
    assert!(validate_json(&compiled, ok, &Limits::default(), 5).is_ok());
    let bad = br#"{"path":"a b","mode":"create","edits":[{"line":1,"text":"x"}]}"#;
    let e = validate_json(&compiled, bad, &Limits::default(), 5).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.issues[0].path.as_str(), e.issues[0].keyword.as_str()),
        ("SCHEMA_MISMATCH", "/path", "pattern")
    );

    let other = parse(br#"{"anyOf":[{"type":"string"}]}"#, Mode::Strict, &Limits::default()).unwrap();
    let compiled = compile_with(&other, "", &[]).unwrap();
    assert!(!has_program(&compiled));
    assert!(validate_json(&compiled, b"\"x\"", &Limits::default(), 5).is_ok());
    assert!(validate_json(&compiled, b"1", &Limits::default(), 5).is_err());
    let mut out = String::new();
    write_json(&mut out, &other);
    assert!(out.contains("anyOf"));
}
