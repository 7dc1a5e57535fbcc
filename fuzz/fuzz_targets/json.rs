//! Strict JSON: `json::check` (verdict only), `json::parse_levels` (the top of the value) and
//! `json::parse` agree on every text, error for error; `parse_levels` builds the parsed value cut
//! at its level; what `parse` accepts writes back to text that parses to the same value.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::write_json;
use agent_contract::Limits;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/levels.rs"]
mod levels;
use levels::cut;

fuzz_target!(|data: &[u8]| {
    // The first byte picks small limits now and then, so the limit paths are reached too.
    let (limits, text) = match data.split_first() {
        Some((&b, rest)) if b & 0x80 != 0 => (
            Limits {
                max_bytes: 64 + (b as usize & 0x3f) * 16,
                max_depth: 1 + (b as usize & 0x0f),
                max_string_bytes: 8 + (b as usize & 0x1f),
                max_array_length: 1 + (b as usize & 0x07),
                max_object_members: 1 + (b as usize & 0x07),
            },
            rest,
        ),
        Some((_, rest)) => (Limits::default(), rest),
        None => (Limits::default(), data),
    };
    let checked = json::check(text, &limits);
    let parsed = json::parse(text, Mode::Strict, &limits);
    match (&checked, &parsed) {
        (Ok(()), Ok(value)) => {
            let mut out = String::new();
            write_json(&mut out, value);
            let again = json::parse(out.as_bytes(), Mode::Strict, &Limits::ceilings()).expect("written JSON re-parses");
            assert_eq!(&again, value, "written JSON parses to the same value");
        }
        (Err(a), Err(b)) => assert_eq!((a.code, &a.path, a.position), (b.code, &b.path, b.position), "same error"),
        _ => panic!("check and parse disagree: {checked:?} vs {parsed:?}"),
    }
    let levels = text.len() % 4;
    match (json::parse_levels(text, &limits, levels), &parsed) {
        (Ok(top), Ok(value)) => assert!(top.identical(&cut(value, levels)), "levels {levels}: {top:?}"),
        (Err(a), Err(b)) => assert_eq!(&a, b, "parse_levels fails as parse"),
        (top, _) => panic!("parse_levels and parse disagree: {top:?} vs {parsed:?}"),
    }
});
