//! A projection's schema is self-contained: the shared documents a tool references are embedded
//! (`resources::bundle`). Compiled alone, with no resource list, that schema must give every
//! input the verdict the tool gives with its resources, in each dialect the bundle writes.

use agent_contract::api::{self, Provider};
use agent_contract::json::{parse, Mode};
use agent_contract::value::Value;
use agent_contract::Limits;

fn value(text: &str) -> Value {
    parse(text.as_bytes(), Mode::Strict, &Limits::ceilings()).unwrap()
}

const DRAFT_07: &str = r#""$schema":"http://json-schema.org/draft-07/schema#","#;
const ZIP: &str = "https://schemas.example.com/zip.json";
const ADDRESS: &str = "https://schemas.example.com/address.json";

/// Tools whose `zip` or `to` property is a reference to a shared document, and the documents:
/// a root `$ref` into the document's own definitions, a reference between documents, a
/// reference into a document's subschema.
fn tools(dialect: &str, defs: &str) -> Vec<String> {
    let zip_doc = format!(
        r##"{{"description":"A ZIP code.","$ref":"#/{defs}/zip","{defs}":{{"zip":{{"type":"string","pattern":"^[0-9]{{5}}$"}}}}}}"##
    );
    let address_doc = format!(
        r#"{{"type":"object","properties":{{"city":{{"type":"string","minLength":1}},"zip":{{"$ref":"zip.json"}}}},"required":["city","zip"]}}"#
    );
    let tool = |properties: &str, resources: &str| {
        format!(
            r#"{{"name":"ship","description":"Ship.","permissions":["write"],"inputSchema":{{{dialect}"type":"object","properties":{properties},"required":["to"]}},"resources":{resources}}}"#
        )
    };
    vec![
        tool(&format!(r#"{{"to":{{"$ref":"{ZIP}"}}}}"#), &format!(r#"{{"{ZIP}":{zip_doc}}}"#)),
        tool(
            &format!(r#"{{"to":{{"$ref":"{ADDRESS}"}}}}"#),
            &format!(r#"{{"{ADDRESS}":{address_doc},"{ZIP}":{zip_doc}}}"#),
        ),
        tool(
            &format!(r#"{{"to":{{"$ref":"{ADDRESS}#/properties/zip"}}}}"#),
            &format!(r#"{{"{ADDRESS}":{address_doc},"{ZIP}":{zip_doc}}}"#),
        ),
    ]
}

const INPUTS: [&str; 7] = [
    r#"{"to":"12345"}"#,
    r#"{"to":"1234"}"#,
    r#"{"to":12345}"#,
    r#"{"to":{"city":"Oslo","zip":"12345"}}"#,
    r#"{"to":{"city":"Oslo","zip":"123"}}"#,
    r#"{"to":{"city":"","zip":"12345"}}"#,
    r#"{}"#,
];

fn verdict(tool: &Value, input: &Value) -> Result<(), Vec<(String, String)>> {
    api::validate_tool_input(&tool, &input, None).map(|_| ()).map_err(|e| {
        assert_eq!(e.code, agent_contract::Code::SchemaMismatch, "{}", e.message);
        e.issues.iter().map(|i| (i.path.clone(), i.keyword.clone())).collect()
    })
}

#[test]
fn a_bundled_schema_alone_gives_the_verdicts_of_the_tool_with_its_resources() {
    for (dialect, defs) in [("", "$defs"), (DRAFT_07, "definitions")] {
        for text in tools(dialect, defs) {
            let tool = value(&text);
            let registry = api::create_registry(&&value(&format!("[{text}]")), None).unwrap();
            let projected = api::project(&&registry, Provider::Anthropic).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
            let Value::Array(list) = &projected else { panic!("a list") };
            let schema = list[0].get("input_schema").unwrap().clone();
            let mut schema_text = String::new();
            agent_contract::value::write_json(&mut schema_text, &schema);
            assert!(!schema_text.contains("resources"), "{schema_text}");
            let alone = value(&format!(
                r#"{{"name":"ship","description":"Ship.","permissions":["write"],"inputSchema":{schema_text}}}"#
            ));
            for input in INPUTS {
                let input = value(input);
                assert_eq!(verdict(&tool, &input), verdict(&alone, &input), "{schema_text}\non {input:?}");
            }
        }
    }
}
