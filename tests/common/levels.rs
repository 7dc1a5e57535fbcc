//! What `json::parse_levels` must build for a text whose full parse is a given value, shared by
//! the property test (tests/json_check.rs) and the `json` fuzz target.

use agent_contract::value::Value;

/// `value` with every container opened `levels` deep or deeper standing as its kind alone.
pub fn cut(value: &Value, levels: usize) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) if levels == 0 => Value::TooDeep { array: matches!(value, Value::Array(_)) },
        Value::Array(items) => Value::Array(items.iter().map(|v| cut(v, levels - 1)).collect()),
        Value::Object(entries) => Value::Object(entries.iter().map(|(k, v)| (k.clone(), cut(v, levels - 1))).collect()),
        other => other.clone(),
    }
}
