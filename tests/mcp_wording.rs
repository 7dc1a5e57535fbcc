//! The words of the MCP modules' validators, which both hosts ask the core for
//! (`HOST_SUPPORT`: `mcpValidatorWording`, `mcpFailureLine`), so that a check is worded alike
//! in every host and as `checkMcpToolResult` words its own.

use agent_contract::json::{parse, Mode};
use agent_contract::value::Value;
use agent_contract::{api, Limits};

fn json(text: &str) -> Value {
    parse(text.as_bytes(), Mode::Strict, &Limits::default()).unwrap()
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => panic!("not a string: {other:?}"),
    }
}

fn wording(options: &str) -> Result<(String, String), (String, String, String)> {
    match api::mcp_validator_wording(&&json(options)) {
        Ok(words) => Ok((text(words.get("subject").unwrap()), text(words.get("schema").unwrap()))),
        Err(e) => Err((e.code.as_str().to_owned(), e.path, e.message)),
    }
}

#[test]
fn a_role_names_the_check() {
    let client = ("structuredContent".to_owned(), "the tool's outputSchema".to_owned());
    let server = ("the elicitation answer (content)".to_owned(), "the requestedSchema".to_owned());
    let neutral = ("the value".to_owned(), "the JSON Schema".to_owned());
    assert_eq!(wording(r#"{"role": "client"}"#), Ok(client));
    assert_eq!(wording(r#"{"role": "server"}"#), Ok(server));
    assert_eq!(wording("null"), Ok(neutral.clone()));
    assert_eq!(wording("{}"), Ok(neutral.clone()));
    assert_eq!(wording(r#"{"role": null}"#), Ok(neutral));
}

#[test]
fn anything_else_is_an_invalid_option() {
    let role = |got: &str| {
        Err((
            "OPTION_INVALID".to_owned(),
            "/role".to_owned(),
            format!("role must be \"client\" or \"server\", got {got}"),
        ))
    };
    assert_eq!(wording(r#"{"role": "any"}"#), role("\"any\""));
    assert_eq!(wording(r#"{"role": 5}"#), role("a value that is not a string"));
    assert_eq!(wording(r#"{"role": ["client"]}"#), role("a value that is not a string"));
    // A long role is shown by its first 64 characters.
    let long = "é".repeat(100);
    assert_eq!(wording(&format!(r#"{{"role": "{long}"}}"#)), role(&format!("\"{}\"", "é".repeat(64))));
    assert_eq!(
        wording(r#""client""#),
        Err(("OPTION_INVALID".to_owned(), String::new(), "options must be an object".to_owned()))
    );
}

#[test]
fn a_failure_is_one_line() {
    let line = |error: &str| text(&api::mcp_failure_line(&&json(error)).unwrap());
    let mismatch = r#"{"code": "SCHEMA_MISMATCH", "path": "", "message": "m", "issues": [
        {"path": "", "message": "missing city", "keyword": "required"},
        {"path": "/t", "message": "not a number", "keyword": "type"}]}"#;
    assert_eq!(line(mismatch), "(root): missing city (required); /t: not a number (type)");
    let truncated = mismatch.replacen("\"issues\"", "\"truncated\": true, \"issues\"", 1);
    assert_eq!(line(&truncated), "(root): missing city (required); /t: not a number (type); (more issues not listed)");
    assert_eq!(
        line(r#"{"code": "VALUE_NOT_JSON", "path": "/a", "message": "NaN is not a JSON value"}"#),
        "VALUE_NOT_JSON at /a: NaN is not a JSON value"
    );
    assert_eq!(
        line(r#"{"code": "SCHEMA_MISMATCH", "path": "", "message": "no issues"}"#),
        "SCHEMA_MISMATCH at (root): no issues"
    );
}
