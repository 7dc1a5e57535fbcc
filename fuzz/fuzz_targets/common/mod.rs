//! What several targets share: the check that a result writes as wire text the strict parser
//! accepts again (it is what the hosts decode), and the member-order canonical form used to
//! compare a value read from text with the same value read as a host value.
#![allow(dead_code)]

use agent_contract::json::{self, Mode};
use agent_contract::value::Value;
use agent_contract::{wire, Limits};

/// The result (or its error) as wire text; the text must be strict JSON.
pub fn wire_ok(result: agent_contract::error::Result<Value>) {
    let text = wire::to_text(&wire::outcome_value(result));
    json::parse(text.as_bytes(), Mode::Strict, &Limits::ceilings()).expect("wire text is strict JSON");
}

/// `v` with every object's members in ECMAScript key order (array-index keys first, ascending):
/// the order a value's copy has, while a text's value keeps the text's order.
pub fn canon(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(canon).collect()),
        Value::Object(entries) => {
            let mut keys: Vec<String> = entries.iter().map(|(k, _)| k.clone()).collect();
            agent_contract::input::ecmascript_order(&mut keys);
            Value::Object(
                keys.into_iter()
                    .filter_map(|k| entries.iter().find(|(n, _)| *n == k).map(|(n, x)| (n.clone(), canon(x))))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}
