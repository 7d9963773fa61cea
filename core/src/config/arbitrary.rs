//! Arbitrary JSON documents for the readers' property tests, with keys drawn from the ones a
//! reader knows, so that fuzzing reaches the typed shapes rather than stopping at unknown keys.

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value nested up to `depth` levels, its object keys drawn from `keys`.
pub(super) fn json_with_keys(keys: Vec<&'static str>, depth: u32) -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(keys);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z#/ ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(depth, 16 * depth, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}
