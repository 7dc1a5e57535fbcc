//! Property tests for imported catalogs: each name rule agrees with the regular expression its
//! documentation gives, a definition read again keeps its rule and format mode, every
//! projection refuses exactly the names its target's rule refuses, and asserting formats only
//! ever refuses more inputs than annotating.

use agent_contract::tools::names::NameRule;
use agent_contract::value::Value;
use agent_contract::{api, Code};
use proptest::prelude::*;

const RULES: [(NameRule, &str, &str); 5] = [
    (NameRule::Own, "", r"^[a-z][a-z0-9_]{0,63}$"),
    (NameRule::Mcp, "mcp", r"^[A-Za-z0-9_.\-]{1,128}$"),
    (NameRule::OpenAi, "openai", r"^[a-zA-Z0-9_\-]{1,64}$"),
    (NameRule::Anthropic, "anthropic", r"^[a-zA-Z0-9_\-]{1,64}$"),
    (NameRule::Gemini, "gemini", r"^[a-zA-Z_][a-zA-Z0-9_.:\-]{0,127}$"),
];

/// Names near the rules' edges: their characters, a few others, lengths around 64 and 128.
fn name() -> impl Strategy<Value = String> {
    let short = "[a-zA-Z0-9_.:/ é-]{0,12}";
    let long = ("[a-zA-Z_]", "[a-z0-9_.:-]{60,130}").prop_map(|(a, b)| format!("{a}{b}"));
    prop_oneof![3 => short.prop_map(String::from), 1 => long]
}

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn tool(name: &str, extra: Vec<(&str, Value)>) -> Value {
    let mut entries = vec![
        ("name".to_owned(), s(name)),
        ("description".to_owned(), s("A tool.")),
        ("permission".to_owned(), s("read")),
        (
            "inputSchema".to_owned(),
            Value::Object(vec![(
                "properties".to_owned(),
                Value::Object(vec![(
                    "a".to_owned(),
                    Value::Object(vec![("format".to_owned(), s("date"))]),
                )]),
            )]),
        ),
    ];
    entries.extend(extra.into_iter().map(|(k, v)| (k.to_owned(), v)));
    Value::Object(entries)
}

fn options(entries: Vec<(&str, &str)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), s(v))).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn each_rule_is_its_documented_pattern(name in name()) {
        for (rule, option, pattern) in RULES {
            let re = regex::Regex::new(pattern).unwrap();
            prop_assert_eq!(rule.accepts(&name), re.is_match(&name), "{} {:?}", pattern, name);
            if rule == NameRule::Own {
                continue;
            }
            agent_contract::entropy::seed(&[7; 32]);
            let defined = api::define_tool(&&tool(&name, vec![]), Some(&&options(vec![("names", option)])));
            match defined {
                Ok(d) => {
                    prop_assert!(re.is_match(&name));
                    // Read again alone: the rule travels with the definition.
                    let value = d.into_value();
                    prop_assert_eq!(value.get("names"), Some(&s(option)));
                    let again = api::define_tool(&&value, None).map(|d| d.into_value());
                    prop_assert_eq!(again.as_ref().ok(), Some(&value));
                }
                Err(e) => {
                    prop_assert!(!re.is_match(&name));
                    prop_assert_eq!(e.code, Code::ToolNameInvalid);
                    prop_assert_eq!(e.path.as_str(), "/name");
                }
            }
        }
    }

    #[test]
    fn projections_refuse_exactly_what_their_target_refuses(name in name()) {
        agent_contract::entropy::seed(&[7; 32]);
        let defined = api::define_tool(&&tool(&name, vec![("names", s("mcp"))]), None);
        let Ok(defined) = defined else { return Ok(()) };
        let registry = Value::Object(vec![("tools".to_owned(), Value::Array(vec![defined.into_value()]))]);
        for (provider, rule) in [
            (api::Provider::OpenAi, NameRule::OpenAi),
            (api::Provider::OpenAiResponses, NameRule::OpenAi),
            (api::Provider::Anthropic, NameRule::Anthropic),
            (api::Provider::Mcp, NameRule::Mcp),
            (api::Provider::Gemini, NameRule::Gemini),
        ] {
            match api::project(&&registry, provider) {
                Ok(_) => prop_assert!(rule.accepts(&name)),
                Err(e) => {
                    prop_assert!(!rule.accepts(&name));
                    prop_assert_eq!(e.code, Code::ToolNameInvalid);
                    prop_assert_eq!(e.path.as_str(), "/tools/0/name");
                }
            }
        }
    }

    #[test]
    fn asserting_formats_only_refuses_more(a in "[0-9T:Z-]{0,12}|\\PC{0,6}") {
        agent_contract::entropy::seed(&[7; 32]);
        let input = Value::Object(vec![("a".to_owned(), s(&a))]);
        let annotated = api::define_tool(&&tool("t", vec![]), None).unwrap().into_value();
        let asserted = api::define_tool(&&tool("t", vec![]), Some(&&options(vec![("formats", "assert")])))
            .unwrap()
            .into_value();
        prop_assert!(api::validate_tool_input(&&annotated, &&input, None).is_ok());
        match api::validate_tool_input(&&asserted, &&input, None) {
            Ok(_) => {}
            Err(e) => {
                prop_assert_eq!(e.code, Code::SchemaMismatch);
                prop_assert_eq!(e.issues.len(), 1);
                prop_assert_eq!(e.issues[0].keyword.as_str(), "format");
                prop_assert_eq!(e.issues[0].path.as_str(), "/a");
            }
        }
    }
}
