//! `json::check` (the verdict-only run of the strict parser, used by the bindings for
//! `parseJson`) and `json::parse_levels` (its run that builds the top of the value) agree exactly
//! with `json::parse(.., Mode::Strict, ..)`: all accept, or all fail with the same error (code,
//! layer, path, message, position), and the top `parse_levels` builds is the parsed value cut at
//! its level. Inputs: arbitrary bytes,
//! JSON-ish token soups, serialised documents and their one-byte mutations, numbers around the
//! f64 range, under the default limits and under small random limits; and every JSONTestSuite
//! file (../shared/conformance/json-test-suite/test_parsing/, when present).

mod common;
#[path = "common/levels.rs"]
mod levels;

use agent_contract::json::{check, parse, parse_levels, Mode};
use agent_contract::Limits;
use levels::cut;
use proptest::prelude::*;

fn assert_agree(bytes: &[u8], limits: &Limits) -> Result<(), TestCaseError> {
    let parsed = parse(bytes, Mode::Strict, limits);
    let tree = parsed.as_ref().map(drop).map_err(Clone::clone);
    let verdict = check(bytes, limits);
    prop_assert_eq!(&tree, &verdict, "text {:?}", String::from_utf8_lossy(bytes));
    for levels in 0..4 {
        let top = parse_levels(bytes, limits, levels);
        match (&parsed, &top) {
            (Ok(whole), Ok(top)) => {
                let cut = cut(whole, levels);
                prop_assert!(
                    top.identical(&cut),
                    "levels {} of {:?}: {:?}",
                    levels,
                    String::from_utf8_lossy(bytes),
                    top
                );
            }
            _ => prop_assert_eq!(&tree, &top.as_ref().map(drop).map_err(Clone::clone), "levels {}", levels),
        }
    }
    Ok(())
}

/// Small limits, so that every limit error is reached by short texts.
fn small_limits() -> impl Strategy<Value = Limits> {
    (0usize..80, 1usize..6, 0usize..10, 0usize..5, 0usize..5).prop_map(|(bytes, depth, string, array, members)| {
        Limits {
            max_bytes: bytes,
            max_depth: depth,
            max_string_bytes: string,
            max_array_length: array,
            max_object_members: members,
        }
    })
}

fn limits() -> impl Strategy<Value = Limits> {
    prop_oneof![Just(Limits::default()), small_limits()]
}

/// Pieces of JSON and of near-JSON: every token, escapes (valid, invalid, surrogates), raw
/// non-ASCII, invalid UTF-8, WTF-8 surrogates, control characters, comments, fences, BOMs.
fn token() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\t",
            "\r",
            "\"",
            "\\",
            "\"a\"",
            "\"b\"",
            "\"a\":",
            "\"\\u0061\"",
            "\"\\ud83d\\ude00\"",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"\\ud800\\u0041\"",
            "\"\\u00e9\"",
            "\"\\n\\t\\\"\\/\\\\\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"é日本✓\"",
            "\"__proto__\"",
            "0",
            "-0",
            "1",
            "-1.5e-3",
            "12345678901234567890",
            "1e400",
            "-1e400",
            "1e-400",
            "1.",
            ".5",
            "01",
            "1e",
            "1e+",
            "-",
            "true",
            "false",
            "null",
            "tru",
            "nul",
            "NaN",
            "Infinity",
            "undefined",
            "```",
            "```json",
            "//",
            "/*",
            "x",
            "'a'",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::sample::select(vec![
            vec![0xEF, 0xBB, 0xBF],
            vec![0xFF],
            vec![0xC3],
            vec![0xED, 0xA0, 0x80],
            vec![0xED, 0xBF, 0xBF],
            vec![0xF0, 0x9F, 0x98],
            vec![0x00],
            vec![0x1F],
            vec![0x7F],
        ]),
        // A string of plain bytes long enough for the eight-byte scan, maybe with one odd byte.
        ("[ -~]{0,24}", prop::option::of(any::<u8>()), "[ -~]{0,24}").prop_map(|(a, odd, b)| {
            let mut s = vec![b'"'];
            s.extend_from_slice(a.replace(['"', '\\'], "").as_bytes());
            s.extend(odd);
            s.extend_from_slice(b.replace(['"', '\\'], "").as_bytes());
            s.push(b'"');
            s
        }),
        // Numbers around the f64 range, without and with an exponent or a fraction.
        ("-?", 300usize..320, "(\\.[0-9]{1,3})?", "([eE][+-]?[0-9]{1,3})?")
            .prop_map(|(sign, digits, frac, exp)| { format!("{sign}{}{frac}{exp}", "9".repeat(digits)).into_bytes() }),
    ]
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    common::json_value("[a-z_ \"\\\\]{0,20}", "[a-c]{0,2}|\\PC{0,4}", 20)
}

/// A serialised document with at most one byte replaced, inserted or removed.
fn document() -> impl Strategy<Value = Vec<u8>> {
    (json_value(), any::<bool>(), 0u8..4, any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(value, pretty, edit, at, byte)| {
            let mut bytes =
                if pretty { serde_json::to_vec_pretty(&value).unwrap() } else { serde_json::to_vec(&value).unwrap() };
            let i = at.index(bytes.len() + 1);
            match edit {
                1 if i < bytes.len() => bytes[i] = byte,
                2 => bytes.insert(i, byte),
                3 if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => {}
            }
            bytes
        },
    )
}

/// Objects with many members (over the linear duplicate scan's 16), maybe one duplicate.
fn wide_object() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec("[a-z]{1,3}", 0..40), any::<bool>()).prop_map(|(names, escape)| {
        let members: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let n = if escape && i % 3 == 0 { n.replacen('a', "\\u0061", 1) } else { n.clone() };
                format!("\"{n}\":{i}")
            })
            .collect();
        format!("{{{}}}", members.join(",")).into_bytes()
    })
}

/// How a member name is written: plain, every character as a `\u` escape, or its first
/// character only (the text differs, the name does not).
fn spell(name: &str, how: u8) -> String {
    let escape = |c: char| {
        let mut units = [0u16; 2];
        c.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect::<String>()
    };
    match how {
        1 => name.chars().map(escape).collect(),
        2 => {
            let mut chars = name.chars();
            chars.next().map(escape).unwrap_or_default() + chars.as_str()
        }
        _ => name.to_owned(),
    }
}

/// An object `{"n0":0,"n1":1,...}` under `prefix` (`{"p":[` … `]}`), its names drawn from a
/// few (ASCII, non-ASCII, `~` and `/` for the pointer), each spelt plainly or with escapes; and
/// what the strict parser must say: the first name equal (decoded) to an earlier one of the
/// same object is a duplicate, reported at its opening quote with its pointer.
fn spelt_object() -> impl Strategy<Value = (Vec<u8>, Option<(String, usize)>)> {
    let names = prop::sample::select(vec!["a", "b", "ab", "é", "日本", "k~1", "x/y", "type", "tool", "callId", ""]);
    (prop::collection::vec((names, 0u8..3), 0..48), any::<bool>()).prop_map(|(members, nested)| {
        let (open, close, pointer) = if nested { ("{\"p\":[1,", "]}", "/p/1") } else { ("", "", "") };
        let mut text = format!("{open}{{");
        let mut seen = std::collections::BTreeSet::new();
        let mut duplicate = None;
        for (i, (name, how)) in members.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            if duplicate.is_none() && !seen.insert(*name) {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                duplicate = Some((format!("{pointer}/{escaped}"), text.len()));
            }
            text.push_str(&format!("\"{}\":{i}", spell(name, *how)));
        }
        text.push('}');
        text.push_str(close);
        (text.into_bytes(), duplicate)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Duplicate names in small and large objects (the linear scan and the ordered set), spelt
    /// with and without escapes: both runs find exactly the first duplicate, at its pointer
    /// and opening quote.
    #[test]
    fn duplicate_names_however_spelt((bytes, duplicate) in spelt_object()) {
        let limits = Limits::default();
        assert_agree(&bytes, &limits)?;
        match (check(&bytes, &limits), duplicate) {
            (Ok(()), None) => {}
            (Err(e), Some((path, offset))) => {
                prop_assert_eq!(e.code, agent_contract::Code::JsonDuplicateKey);
                prop_assert_eq!(e.path, path);
                prop_assert_eq!(e.position.map(|p| p.offset), Some(offset));
            }
            (verdict, expected) => prop_assert!(false, "verdict {:?}, expected duplicate {:?}", verdict, expected),
        }
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64), limits in limits()) {
        assert_agree(&bytes, &limits)?;
    }

    #[test]
    fn token_soup(tokens in prop::collection::vec(token(), 0..24), limits in limits()) {
        assert_agree(&tokens.concat(), &limits)?;
    }

    #[test]
    fn documents(bytes in document(), limits in limits()) {
        assert_agree(&bytes, &limits)?;
    }

    #[test]
    fn wide_objects(bytes in wide_object(), limits in limits()) {
        assert_agree(&bytes, &limits)?;
    }
}

#[test]
fn json_test_suite_files() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-test-suite/test_parsing");
    if !dir.is_dir() {
        println!("SKIPPED: JSONTestSuite not found at {} (../shared is absent outside this workplace)", dir.display());
        return;
    }
    let small = Limits { max_bytes: 64, max_depth: 3, max_string_bytes: 4, max_array_length: 2, max_object_members: 2 };
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        for limits in [Limits::default(), small] {
            let tree = parse(&bytes, Mode::Strict, &limits).map(drop);
            assert_eq!(tree, check(&bytes, &limits), "{}", path.display());
        }
        files += 1;
    }
    assert!(files > 300, "only {files} files");
}

#[test]
fn escaped_name_equal_to_a_plain_one_is_a_duplicate() {
    let limits = Limits::default();
    for (text, path, offset) in [
        (r#"{"a":1,"\u0061":2}"#, "/a", 7),
        (r#"{"\u0061":1,"a":2}"#, "/a", 12),
        (r#"{"x":{"caf\u00e9":1,"café":2}}"#, "/x/café", 20),
    ] {
        let err = check(text.as_bytes(), &limits).unwrap_err();
        assert_eq!(
            (err.code, err.path.as_str(), err.position.map(|p| p.offset)),
            (agent_contract::Code::JsonDuplicateKey, path, Some(offset)),
            "{text}"
        );
        assert_eq!(parse(text.as_bytes(), Mode::Strict, &limits).map(drop), Err(err));
    }
}

/// The largest object the default limits allow, names that share a long prefix (no hashing:
/// nothing to collide), a duplicate last: found, in bounded time (O(log n) per name).
#[test]
fn widest_object_with_a_duplicate_last() {
    let limits = Limits::default();
    let prefix = "p".repeat(40);
    let mut text = String::from("{");
    for i in 0..limits.max_object_members - 1 {
        text.push_str(&format!("\"{prefix}{i}\":0,"));
    }
    let offset = text.len();
    text.push_str(&format!("\"{prefix}\\u0031\":0}}"));
    let err = check(text.as_bytes(), &limits).unwrap_err();
    assert_eq!(err.code, agent_contract::Code::JsonDuplicateKey);
    assert_eq!(err.path, format!("/{prefix}1"));
    assert_eq!(err.position.map(|p| p.offset), Some(offset));
    assert_eq!(parse(text.as_bytes(), Mode::Strict, &limits).map(drop), Err(err));
}

#[test]
fn a_number_out_of_range_is_named_whole_when_short_and_by_its_start_when_long() {
    let limits = Limits::default();
    let short = parse(b"[1e400]", Mode::Strict, &limits).unwrap_err();
    assert_eq!(short.message, "number 1e400 is out of the range of a 64-bit float");
    let digits = "9".repeat(400_000);
    let long = parse(format!("[{digits}]").as_bytes(), Mode::Strict, &limits).unwrap_err();
    assert_eq!(
        long.message,
        format!("number {}… (400000 characters) is out of the range of a 64-bit float", "9".repeat(32))
    );
    assert_eq!(check(format!("[{digits}]").as_bytes(), &limits).unwrap_err(), long);
}
