//! `json::check` (the verdict-only run of the strict parser, used by the bindings for
//! `parseJson`) agrees exactly with `json::parse(.., Mode::Strict, ..)`: both accept, or both
//! fail with the same error (code, layer, path, message, position). Inputs: arbitrary bytes,
//! JSON-ish token soups, serialised documents and their one-byte mutations, numbers around the
//! f64 range, under the default limits and under small random limits; and every JSONTestSuite
//! file (../shared/conformance/json-test-suite/test_parsing/, when present).

use agent_contract::json::{check, parse, Mode};
use agent_contract::Limits;
use proptest::prelude::*;

fn assert_agree(bytes: &[u8], limits: &Limits) -> Result<(), TestCaseError> {
    let tree = parse(bytes, Mode::Strict, limits).map(drop);
    let verdict = check(bytes, limits);
    prop_assert_eq!(&tree, &verdict, "text {:?}", String::from_utf8_lossy(bytes));
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
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| serde_json::json!(f)),
        any::<String>().prop_map(serde_json::Value::String),
        "[a-z_ \"\\\\]{0,20}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-c]{0,2}|\\PC{0,4}", inner, 0..20)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

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
