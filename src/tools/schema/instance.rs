//! Core values as the engine's instances (`serde_json`).

use crate::value::{push_pointer, Value};

/// Our value as the engine's: undefined own properties are dropped (their pointers are kept
/// for messages), undefined array elements become null, numbers keep their exact text.
pub(super) fn to_json(value: &Value) -> serde_json::Value {
    to_instance(value, &mut String::new(), &mut Vec::new())
}

pub(super) fn to_instance(value: &Value, path: &mut String, undefined: &mut Vec<String>) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => J::Number(number(n)),
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                out.push(to_instance(item, path, undefined));
                path.truncate(len);
            }
            J::Array(out)
        }
        Value::Object(entries) => {
            let mut map = serde_json::Map::new();
            for (k, v) in entries {
                let len = path.len();
                push_pointer(path, k);
                if matches!(v, Value::Undefined) {
                    undefined.push(path.clone());
                } else {
                    let item = to_instance(v, path, undefined);
                    map.insert(k.clone(), item);
                }
                path.truncate(len);
            }
            J::Object(map)
        }
        // Undefined in an array (JSON.stringify writes null) and host-only values (which never
        // pass the copy) are null.
        _ => J::Null,
    }
}

pub(super) fn number(n: &crate::value::Number) -> serde_json::Number {
    if let Some(text) = &n.text {
        if let Ok(parsed) = text.parse::<serde_json::Number>() {
            return parsed;
        }
    }
    let v = n.value;
    if v.fract() == 0.0 && v.abs() < 9.2e18 {
        return serde_json::Number::from(v as i64);
    }
    serde_json::Number::from_f64(v).unwrap_or_else(|| serde_json::Number::from(0))
}
