//! The core compiled to wasm32 and run in Node by wasm-bindgen-test, reading real JS values
//! through the JS binding: `cargo test --target wasm32-unknown-unknown --features js,testing --test
//! wasm` with wasm-bindgen-test-runner as the target runner (`testing`: the full-reply exports
//! these tests read the core's replies through).
#![cfg(all(target_arch = "wasm32", feature = "js", feature = "testing"))]

use agent_contract::bindings::js;
use js_sys::{JsString, Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

fn json(text: &str) -> JsValue {
    JSON::parse(text).unwrap()
}

/// The outcome JSON the binding returns, as a serde value for assertions.
fn outcome(text: String) -> serde_json::Value {
    serde_json::from_str(&text).unwrap()
}

fn error_of(text: String) -> (String, String) {
    let o = outcome(text);
    assert_eq!(o["ok"], false, "expected an error, got {o}");
    (o["error"]["code"].as_str().unwrap().to_owned(), o["error"]["path"].as_str().unwrap().to_owned())
}

#[wasm_bindgen_test]
fn reads_a_js_object_in_place() {
    let action = json(r#"{"type":"tool_call","callId":"c1","tool":"read_file","input":{"path":"a"},"extra":1}"#);
    let o = outcome(js::parse_agent_action(action, JsValue::UNDEFINED));
    assert_eq!(
        o["value"],
        serde_json::json!({"type":"tool_call","callId":"c1","tool":"read_file","input":{"path":"a"}})
    );
}

#[wasm_bindgen_test]
fn undefined_is_neither_missing_nor_null() {
    let action = json(r#"{"type":"tool_call","callId":"c1","tool":"noop"}"#);
    assert_eq!(
        error_of(js::parse_agent_action(action.clone(), JsValue::UNDEFINED)),
        ("ACTION_INPUT_MISSING".into(), "/input".into())
    );
    Reflect::set(&action, &"input".into(), &JsValue::UNDEFINED).unwrap();
    let o = outcome(js::parse_agent_action(action, JsValue::UNDEFINED));
    assert_eq!(o["undefined"], serde_json::json!(["/value/input"]));
    let callid_undefined = json(r#"{"type":"tool_call","tool":"noop","input":null}"#);
    Reflect::set(&callid_undefined, &"callId".into(), &JsValue::UNDEFINED).unwrap();
    assert_eq!(
        error_of(js::parse_agent_action(callid_undefined, JsValue::UNDEFINED)),
        ("FIELD_UNDEFINED".into(), "/callId".into())
    );
}

#[wasm_bindgen_test]
fn non_finite_numbers_and_functions_are_not_json() {
    let action = json(r#"{"type":"tool_call","callId":"c1","tool":"t","input":{"a":[1,2]}}"#);
    let input = Reflect::get(&action, &"input".into()).unwrap();
    let list = Reflect::get(&input, &"a".into()).unwrap();
    Reflect::set(&list, &1.into(), &JsValue::from_f64(f64::NAN)).unwrap();
    assert_eq!(
        error_of(js::parse_agent_action(action.clone(), JsValue::UNDEFINED)),
        ("VALUE_NOT_JSON".into(), "/input/a/1".into())
    );
    Reflect::set(&input, &"a".into(), &js_sys::Function::new_no_args("return 1")).unwrap();
    assert_eq!(
        error_of(js::parse_agent_action(action, JsValue::UNDEFINED)),
        ("VALUE_NOT_JSON".into(), "/input/a".into())
    );
}

#[wasm_bindgen_test]
fn lone_surrogates_are_reported_not_replaced() {
    let action = json(r#"{"type":"message"}"#);
    Reflect::set(&action, &"content".into(), &JsString::from_char_code1(0xD800)).unwrap();
    assert_eq!(
        error_of(js::parse_agent_action(action, JsValue::UNDEFINED)),
        ("STRING_LONE_SURROGATE".into(), "/content".into())
    );
    let text: JsValue = JsString::from(r#"{"type":"message","content":""#)
        .concat(&JsString::from_char_code1(0xDC00))
        .concat(&JsString::from(r#""}"#))
        .into();
    assert_eq!(
        error_of(js::parse_agent_action_json(text, JsValue::UNDEFINED)),
        ("STRING_LONE_SURROGATE".into(), "/content".into())
    );
}

#[wasm_bindgen_test]
fn a_throwing_getter_is_a_contract_error() {
    let action = json(r#"{"type":"message"}"#);
    let getter = js_sys::Function::new_no_args("throw new Error('boom')");
    let descriptor = Object::new();
    Reflect::set(&descriptor, &"get".into(), &getter).unwrap();
    Reflect::set(&descriptor, &"enumerable".into(), &JsValue::TRUE).unwrap();
    Reflect::define_property(&action.clone().into(), &"content".into(), &descriptor).unwrap();
    assert_eq!(
        error_of(js::parse_agent_action(action, JsValue::UNDEFINED)),
        ("VALUE_NOT_JSON".into(), "/content".into())
    );
}

#[wasm_bindgen_test]
fn tool_definitions_and_options() {
    let def = json(
        r#"{"name":"read_file","description":" Read. ","inputSchema":{"type":"object"},"permissions":["read","read"]}"#,
    );
    assert_eq!(
        error_of(js::define_tool(def, JsValue::UNDEFINED)),
        ("TOOL_PERMISSION_DUPLICATE".into(), "/permissions/1".into())
    );
    let action = json(r#"{"type":"finish","summary":"s","note":1}"#);
    assert_eq!(
        error_of(js::parse_agent_action(action.clone(), json(r#"{"strict":true}"#))),
        ("ACTION_FIELD_UNKNOWN".into(), "/note".into())
    );
    assert_eq!(
        error_of(js::parse_agent_action(action, json(r#"{"strickt":true}"#))),
        ("OPTION_INVALID".into(), "/strickt".into())
    );
}

#[wasm_bindgen_test]
fn schemas_need_host_randomness_first() {
    // The only test that seeds: before it, no hash key can be drawn, so no schema compiles
    // (an error, not a trap and not a constant key).
    let def = || {
        json(r#"{"name":"t","description":"d","inputSchema":{"type":"object","required":["a"]},"permission":"read"}"#)
    };
    assert_eq!(
        error_of(js::define_tool(def(), JsValue::UNDEFINED)),
        ("TOOL_SCHEMA_UNSUPPORTED".into(), "/inputSchema".into())
    );
    let random: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37).wrapping_add(11)).collect();
    assert!(!js::seed(&random[..8]), "too short a seed is refused");
    assert!(js::seed(&random));
    assert_eq!(outcome(js::define_tool(def(), JsValue::UNDEFINED))["ok"], true);
    let got = outcome(js::validate_tool_input(def(), json(r#"{"b":1}"#), JsValue::UNDEFINED));
    assert_eq!(got["error"]["code"], "SCHEMA_MISMATCH");
    assert_eq!(got["error"]["issues"][0]["path"], "/a");
    assert_eq!(got["error"]["issues"][0]["keyword"], "required");
}
