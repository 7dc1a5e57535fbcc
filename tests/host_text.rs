//! Host text (what the Python binding writes, `json::Mode::Host`) read by the rules: the
//! host-only tokens reach the same verdicts as the JS binding's in-place reads.

use agent_contract::api;
use agent_contract::json::{self, Mode};
use agent_contract::value::Value;
use agent_contract::{Code, Limits};

fn host(text: &str) -> Value {
    json::parse(text.as_bytes(), Mode::Host, &Limits::default()).expect("host text")
}

#[test]
fn a_back_reference_is_value_cycle_where_a_rule_reads_it() {
    let action = host(r#"{"type":"tool_call","callId":"c","tool":"t","input":{"a":[1,!!cycle]}}"#);
    let err = api::parse_agent_action(&&action, None).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::ValueCycle, "/input/a/1"));
    // A rule that does not read the field never meets it (an unknown field is dropped).
    let dropped = host(r#"{"type":"finish","summary":"s","extra":!!cycle}"#);
    assert!(api::parse_agent_action(&&dropped, None).is_ok());
    let field = host(r#"{"type":"message","content":!!cycle}"#);
    let err = api::parse_agent_action(&&field, None).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::ValueCycle, "/content"));
}

#[test]
fn a_container_the_host_did_not_write_out_is_never_read_as_empty() {
    // A host writes a container deeper than the limits it writes with as a marker. Read under
    // higher limits (a tool is read under the ceilings), the marker is INPUT_TOO_DEEP where a
    // rule reads into it, never an empty schema that accepts every input.
    let tool = host(
        r#"{"name":"t","description":"d","permissions":["read"],"inputSchema":{"type":"object","properties":!!{,"required":!![}}"#,
    );
    let input = host("{}");
    let err = api::validate_tool_input(&&tool, &&input, None).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::InputTooDeep, "/inputSchema/properties"));
    let list = host(r#"{"role":"user","content":!![,"timestamp":0}"#);
    let err = api::parse_agent_message(&&list, None).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::InputTooDeep, "/content"));
}
