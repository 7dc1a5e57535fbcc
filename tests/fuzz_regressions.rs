//! Inputs `cargo fuzz` found (scripts/fuzz.sh), kept as tests. Each also runs as a fixture
//! where it can be written as data.

use agent_contract::json::{self, Mode};
use agent_contract::{api, Limits};

/// host_text, crash-01b28886: a `pattern` the regex crate refuses (`\p` then a name that is no
/// Unicode class) made the schema engine hit its own `debug_assert!` in debug builds. Naming no
/// property, it is an invalid pattern.
#[test]
fn a_pattern_the_regex_engine_refuses_is_an_error_not_a_panic() {
    let text = br#"{"name":"t","description":"A tool.","permission":"read","inputSchema":{"pattern":"^\\permissions~~~~~~~~~|~~~~~~~{3}-T_#+$"}}"#;
    let v = json::parse(text, Mode::Host, &Limits::default()).unwrap();
    let err = api::define_tool(&&v, None).unwrap_err();
    assert_eq!((err.code.as_str(), err.path.as_str()), ("TOOL_SCHEMA_INVALID", "/inputSchema/pattern"));
}

/// registry, crash-e4300a01: a pattern too large for the regex engine (`{888888885}`) inside a
/// shared `$ref` document made the engine panic in debug builds (its `debug_assert!` on
/// `CompileError::Bug`; the core's pattern pre-check reads the tool's own schema only). The
/// vendored boon returns the error in every build (vendor/boon/PATCHES.md, 2).
#[test]
fn a_pattern_too_large_in_a_shared_document_is_an_error_not_a_panic() {
    let text = br##"{"name":"ship_parcel","description":"Ship a parcel.","permissions":["write"],"inputSchema":{"type":"object","properties":{"to":{"$ref":"https://schemas.example.com/address.json"}}},"resources":{"https://schemas.example.com/address.json":{"type":"object","properties":{"zip":{"type":"string","pattern":"^[0-9]{888888885}$"}}}}}"##;
    let v = json::parse(text, Mode::Host, &Limits::default()).unwrap();
    let err = api::define_tool(&&v, None).unwrap_err();
    assert_eq!(err.code.as_str(), "TOOL_SCHEMA_UNSUPPORTED", "{err:?}");
}

/// tool_input: the target compared the value read from the text with the value read from a
/// copy of the same JSON and found `{"b":1,"1":2}` in two orders. Both are right: a value's copy
/// has ECMAScript key order (array-index keys first, ascending), as every host reads an
/// object, while the text's value keeps the text's order (hosts parse the text themselves).
/// The target now compares in ECMAScript order; this pins both orders.
#[test]
fn a_texts_input_keeps_its_key_order_and_a_values_copy_has_ecmascripts() {
    let tool = json::parse(
        br#"{"name":"t","description":"d","permission":"read","inputSchema":{"type":"object"}}"#,
        Mode::Strict,
        &Limits::default(),
    )
    .unwrap();
    let def = api::define_tool(&&tool, None).unwrap().into_value();
    let text = br#"{"b":1,"1":2}"#;
    let from_text = api::validate_tool_input_json(&&def, text, None).unwrap();
    let value = json::parse(text, Mode::Strict, &Limits::default()).unwrap();
    let from_value = api::validate_tool_input(&&def, &&value, None).unwrap();
    let keys = |v: &agent_contract::Value| match v {
        agent_contract::Value::Object(m) => m.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        _ => panic!("an object"),
    };
    assert_eq!(keys(&from_text), ["b", "1"]);
    assert_eq!(keys(&from_value), ["1", "b"]);
}

/// tool_input, crash-77d6ede1: a `patternProperties` name whose ECMA-to-Rust rewrite passed the
/// regex parser's limit of nested brackets (the name itself was within it) made the engine's
/// metaschema check panic on a `debug_assert!` in debug builds; release builds kept the name as
/// written. The vendored boon answers as release builds in every build (vendor/boon/PATCHES.md, 3).
#[test]
fn a_pattern_name_whose_rewrite_nests_too_deep_is_not_a_panic() {
    let schema = r##"{"patternProperties":{"N2x~~~~~~~~~~~~n~~~~~~~~~~~~~~~~~~~~~~    ;   ....|||||||                  f  e  d[\\\\\\        .@.......................................depe.~~~~~~~~~~|z^~/~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~z~~~~~~additio~~~~~~~~~~~~~~~~~dependen~~~~|~^~~~~w~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~|~^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~>~~~~~~~~=y~~~~~~~~~~~~~~~~additiif$ref~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~~~~~~~~~~~~~~~~~~~~additio~~~~~~~~~~~~~~~~~~~~n|~^~~~~~~~~~~~~~,~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|~^~~~~$~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~=~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~    ;   ....|||||||  ~~~~~~~~~~~~~~~~~~~~~    ;   ....|||||||                  f  e  d[\\\\\\diti$ref~~~~~~~        .@.......................................depe.~~~~~~~~~~|z^~/~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~additio~~~~~~~~~~~~~~~~~dependen~~~~|~^~~~~w~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~|~^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~=y~~~~~~~~~~~~~~~~additiif$ref~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~~~~~~~~~~~~~~~~~~~~additio~~~~~~~~~~~~~~~~~~~~~|~^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|~^~~~~$~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~=~~~~~~~~~~~~~~~~~~~~=~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~    ;   ....|||||||  ~~~~~~~~~~~~~~~~~~~~~    ;   ....|||||||                  f  e  d[\\\\\\diti$ref~~~~~~~        .@.......................................depe.~~~~~~~~~~|z^~/~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~additio~~~~~~~~~~~~~~~~~dependen~~~~|~^~~~~w~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~|~^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~=y~~~~~~~~~~~~~~~~additiif$ref~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~i$tems~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|]]]]~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~^^-":{"tY0e":"striadding"}}}"##;
    let text = format!(r#"{{"name":"t","description":"d","permission":"read","inputSchema":{schema}}}"#);
    let v = json::parse(text.as_bytes(), Mode::Strict, &Limits::default()).unwrap();
    let tool = api::define_tool(&&v, None).expect("the pattern is kept as written, as release builds do").into_value();
    let checked = api::validate_tool_input_json(&&tool, br#"{"x-a":0,"y":1}"#, None);
    assert!(checked.is_ok(), "{checked:?}");
}

/// host_text, slow-25ba6fee: a `defineTool` whose 12 KB `pattern` holds 135 `\d`. The engine
/// rewrote ECMA-262 classes one at a time, parsing the whole pattern again after each (2.5 s in
/// the fuzz build; quadratic in the number of escapes); one pass now (vendor/boon/PATCHES.md, 4,
/// whose unit test times 40,000 rewrites). The file is the fuzzer's input: an operation byte
/// (1: `defineTool`), then host-mode text. Node and Python time the same file.
#[test]
fn a_pattern_with_many_class_escapes_defines_its_tool() {
    let input = include_bytes!("fuzz_inputs/host_text-slow-25ba6fee");
    assert_eq!(input[0], 1);
    let v = json::parse(&input[1..], Mode::Host, &Limits::default()).unwrap();
    let tool = api::define_tool(&&v, None).expect("the pattern compiles").into_value();
    assert_eq!(tool.get("name"), Some(&agent_contract::value::Value::String("t".into())));
}

/// session, crash-08701cd1: a 759-byte JSON array read as a session entry with `maxBytes: 512`
/// is `INPUT_TOO_LARGE` as text (text past `maxBytes` is never parsed) and `FIELD_TYPE` as a
/// value (a value has no text to measure; the reader checks its shape first). Both are the
/// rules; the target's comparison of the two paths now holds on text within the limits only.
#[test]
fn an_entry_over_max_bytes_is_too_large_as_text_and_the_wrong_type_as_a_value() {
    let input = include_bytes!("fuzz_inputs/session-crash-08701cd1");
    let (op, text) = (input[0], &input[1..]);
    assert_eq!((op % 8, op & 32), (3, 32));
    let options =
        json::parse(br#"{"maxIssues":2,"maxBytes":512,"maxDepth":6}"#, Mode::Strict, &Limits::default()).unwrap();
    let read = agent_contract::input::options::Options::read_for(
        Some(&&options),
        agent_contract::input::options::OptionSet::Session,
    );
    let from_text = agent_contract::session::entry::parse_session_entry_json(text, &read.unwrap()).unwrap_err();
    assert_eq!((from_text.code.as_str(), from_text.path.as_str()), ("INPUT_TOO_LARGE", ""));
    let value = json::parse(text, Mode::Strict, &Limits::default()).unwrap();
    let from_value = api::parse_session_entry(&&value, Some(&&options)).unwrap_err();
    assert_eq!((from_value.code.as_str(), from_value.path.as_str()), ("FIELD_TYPE", ""));
}

/// ndjson, crash-07c71be3: lines 8 and 10 are requests alike but for their ids, `0` and `-0`.
/// The bindings' reply wrote line 10 as a row of line 8's object (`wire::FrameWriter` compared
/// the classifications with `==`, which compares ids as numbers), so the hosts gave it id `0`.
/// The same held for `1` and `1.0`, and for integers past 2^53 that round to one double:
/// Python got the previous request's id. Rows now need ids written alike
/// (`Classification::identical`); the fixture `ndjson/ids-written-as-sent` holds the rule.
#[test]
fn a_request_whose_id_differs_only_in_how_it_is_written_is_not_a_row() {
    use agent_contract::rpc::options::OnMalformed;
    use agent_contract::rpc::{Decoder, RpcOptions};
    let input = include_bytes!("fuzz_inputs/ndjson-crash-07c71be3");
    let (op, text) = (input[0], &input[1..]);
    // The target's options for this byte (`op & 15 == 8`).
    assert_eq!(op & 15, 8);
    let options = RpcOptions {
        max_bytes: 16 << 20,
        on_malformed: OnMalformed::Ignore,
        allow_null_id: false,
        ..RpcOptions::default()
    };
    let mut decoder = Decoder::new(options).lazy();
    let mut writer = agent_contract::wire::FrameWriter::new();
    decoder.push_lines(text, &mut |line| writer.line(line));
    decoder.end_line().into_iter().for_each(|line| writer.line(line));
    let reply = writer.finish(Ok(()));
    assert!(reply.contains(r#""line":10,"offset":370,"kind":"request","id":-0,"#), "{reply}");
}
