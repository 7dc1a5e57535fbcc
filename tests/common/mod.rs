//! Generators shared by the property tests (each file under tests/ is its own crate and
//! includes this module).

use proptest::prelude::*;

/// JSON documents as serde_json values: finite numbers, any strings plus strings from
/// `string_pattern`, objects with names from `name_pattern` and up to `max_members` members.
pub fn json_value(
    string_pattern: &'static str,
    name_pattern: &'static str,
    max_members: usize,
) -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| serde_json::json!(f)),
        any::<String>().prop_map(serde_json::Value::String),
        string_pattern.prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(name_pattern, inner, 0..max_members)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}
