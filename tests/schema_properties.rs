//! Property tests for tool schemas: random schema-like objects (valid and not) and random inputs
//! never make `defineTool` or `validateToolInput` panic; every failure is one of the expected
//! codes.

use agent_contract::value::{Number, Value};
use agent_contract::{api, Code};
use proptest::prelude::*;

fn num(n: f64) -> Value {
    Value::Number(Number::from_f64(n))
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(|n| num(n as f64)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(num),
        "[a-z]{0,6}|\\PC{0,3}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-c]|x|\\PC{0,2}", inner), 0..5).prop_map(|e| {
                let mut seen = std::collections::HashSet::new();
                Value::Object(e.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect())
            }),
        ]
    })
}

fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Bool(true)),
        Just(Value::Bool(false)),
        Just(Value::Object(vec![])),
        prop::sample::select(vec!["string", "integer", "number", "object", "array", "boolean", "null", "strin"])
            .prop_map(|t| Value::Object(vec![("type".into(), s(t))])),
        prop::sample::select(vec!["^a+$", "(?=a)", "(a)\\1", "[a-", "\\d{2,3}", "^(a|b)*$", "\\p{L}"])
            .prop_map(|p| Value::Object(vec![("pattern".into(), s(p))])),
        prop::sample::select(vec![
            "#",
            "#/$defs/a",
            "#/$defs/b",
            "#/properties/a",
            "#nope",
            "http://x.test/s.json",
            "#/allOf/0"
        ])
        .prop_map(|r| Value::Object(vec![("$ref".into(), s(r))])),
        (
            prop::sample::select(vec![
                "minimum",
                "maxLength",
                "minItems",
                "multipleOf",
                "maxProperties",
                "const",
                "enum",
                "required",
                "format"
            ]),
            json_value()
        )
            .prop_map(|(k, v)| Value::Object(vec![(k.into(), v)])),
    ];
    leaf.prop_recursive(5, 48, 4, |inner| {
        let keyword = prop::sample::select(vec![
            "properties",
            "items",
            "prefixItems",
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "additionalProperties",
            "$defs",
            "if",
            "then",
            "else",
            "contains",
            "patternProperties",
            "unevaluatedProperties",
            "dependentSchemas",
        ]);
        prop::collection::vec((keyword, inner.clone(), inner), 1..4).prop_map(|entries| {
            let mut out: Vec<(String, Value)> = Vec::new();
            for (k, a, b) in entries {
                if out.iter().any(|(n, _)| n == k) {
                    continue;
                }
                let v = match k {
                    "properties" | "$defs" | "patternProperties" | "dependentSchemas" => {
                        let names = if k == "patternProperties" { ["^a", "b$"] } else { ["a", "b"] };
                        Value::Object(vec![(names[0].into(), a), (names[1].into(), b)])
                    }
                    "prefixItems" | "allOf" | "anyOf" | "oneOf" => Value::Array(vec![a, b]),
                    _ => a,
                };
                out.push((k.to_owned(), v));
            }
            Value::Object(out)
        })
    })
}

const EXPECTED: [Code; 9] = [
    Code::ToolSchemaInvalid,
    Code::ToolSchemaRootNotObject,
    Code::ToolSchemaUnsupported,
    Code::ToolSchemaNotObject,
    Code::SchemaMismatch,
    Code::InputTooDeep,
    Code::InputTooLarge,
    Code::ValueNotJson,
    Code::FieldType,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_schemas_and_inputs_never_panic(schema in schema(), inputs in prop::collection::vec(json_value(), 1..4)) {
        let def = Value::Object(vec![
            ("name".into(), s("t")),
            ("description".into(), s("d")),
            ("inputSchema".into(), schema),
            ("permission".into(), s("read")),
        ]);
        match api::define_tool(&&def, None) {
            Ok(_) => {
                for input in &inputs {
                    if let Err(e) = api::validate_tool_input(&&def, &input, None) {
                        prop_assert!(EXPECTED.contains(&e.code), "{:?}", e);
                        prop_assert_eq!(e.code == Code::SchemaMismatch, !e.issues.is_empty());
                    }
                }
            }
            Err(e) => prop_assert!(EXPECTED.contains(&e.code), "{:?}", e),
        }
        // The same schema under a property, so schemas whose root type is not an object (refused
        // at the root: TOOL_SCHEMA_ROOT_NOT_OBJECT) still meet inputs.
        let Value::Object(mut entries) = def else { unreachable!() };
        let schema = entries.iter().find(|(k, _)| k == "inputSchema").map(|(_, v)| v.clone()).unwrap_or(Value::Null);
        let wrapped = Value::Object(vec![
            ("type".into(), s("object")),
            ("properties".into(), Value::Object(vec![("v".into(), schema)])),
        ]);
        for entry in entries.iter_mut().filter(|(k, _)| k == "inputSchema") {
            entry.1 = wrapped.clone();
        }
        let def = Value::Object(entries);
        match api::define_tool(&&def, None) {
            Ok(_) => {
                for input in inputs {
                    let input = Value::Object(vec![("v".into(), input)]);
                    if let Err(e) = api::validate_tool_input(&&def, &&input, None) {
                        prop_assert!(EXPECTED.contains(&e.code), "{:?}", e);
                        prop_assert_eq!(e.code == Code::SchemaMismatch, !e.issues.is_empty());
                    }
                }
            }
            Err(e) => prop_assert!(EXPECTED.contains(&e.code), "{:?}", e),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A Unicode property class of any name and value, in or out of brackets, negated or not,
    /// with any operator: `defineTool` answers (a definition, or the pattern refused at its
    /// pointer), and the properties ECMA-262 lacks are refused whatever the build's tables.
    #[test]
    fn any_unicode_property_class_is_answered_at_the_pattern(
        name in "(is)?[ _-]?([Aa]ge|gcb|[Ww]ord_?[Bb]reak|sb|[Ss]cript|scx|gc|\\PC{0,4})[ _-]?",
        value in "\\PC{0,6}",
        op in prop::sample::select(vec!["=", ":", "!="]),
        bracketed in any::<bool>(),
        negated in any::<bool>(),
    ) {
        let class = format!("\\{}{{{name}{op}{value}}}", if negated { 'P' } else { 'p' });
        let pattern = if bracketed { format!("[a{class}]") } else { format!("^{class}+$") };
        let def = Value::Object(vec![
            ("name".into(), s("t")),
            ("description".into(), s("d")),
            ("inputSchema".into(), Value::Object(vec![("pattern".into(), s(&pattern))])),
            ("permission".into(), s("read")),
        ]);
        let loose: String = name
            .trim_start()
            .strip_prefix("is")
            .unwrap_or(name.trim_start())
            .chars()
            .filter(|c| c.is_ascii() && !matches!(c, ' ' | '_' | '-'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match api::define_tool(&&def, None) {
            Ok(_) => prop_assert!(!["age", "gcb", "wordbreak", "wb", "sb"].contains(&loose.as_str()), "{pattern}"),
            Err(e) => {
                prop_assert!(matches!(e.code, Code::ToolSchemaInvalid | Code::ToolSchemaUnsupported), "{:?}", e);
                prop_assert_eq!(e.path.as_str(), "/inputSchema/pattern");
            }
        }
    }
}
