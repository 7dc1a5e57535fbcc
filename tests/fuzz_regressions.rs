//! Inputs `cargo fuzz` found (scripts/fuzz.sh), kept as tests. Each also runs as a fixture
//! where it can be written as data.

use agent_contract::json::{self, Mode};
use agent_contract::{api, Limits};

/// host_text, crash-01b28886: a `pattern` the regex crate refuses (`\p` then a name that is no
/// Unicode class) made the schema engine hit its own `debug_assert!` in debug builds.
#[test]
fn a_pattern_the_regex_engine_refuses_is_an_error_not_a_panic() {
    let text = br#"{"name":"t","description":"A tool.","permission":"read","inputSchema":{"pattern":"^\\permissions~~~~~~~~~|~~~~~~~{3}-T_#+$"}}"#;
    let v = json::parse(text, Mode::Host, &Limits::default()).unwrap();
    let err = api::define_tool(&&v, None).unwrap_err();
    assert_eq!((err.code.as_str(), err.path.as_str()), ("TOOL_SCHEMA_UNSUPPORTED", "/inputSchema/pattern"));
}
