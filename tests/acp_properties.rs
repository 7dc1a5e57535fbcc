//! ACP admission and lifecycle properties: canonical base64 against a
//! re-encoding oracle written here (not the crate), the signature table against the reference
//! data, the fixtures against the reference data (every vector, row and documentation example),
//! every combination of capability facts, every interleaving of lifecycle calls against the
//! seed's invariants, and the stage order of admission on random prompts.

use std::path::{Path, PathBuf};

use agent_contract::acp::{admission, base64, capabilities, lifecycle::PromptLifecycle, sniff};
use agent_contract::value::Number;
use agent_contract::{api, Value};
use proptest::prelude::*;
use serde_json::Value as Json;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// RFC 4648 §4 encoding, written from the RFC: the oracle's only source of canonical text.
fn reference_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v =
            (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            out.push(if i <= n { ALPHABET[(v >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// A lenient decoder: alphabet symbols, then only `=`; pad bits ignored, padding optional.
fn lenient_decode(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text.bytes().take_while(|&b| b != b'=').collect();
    if text.bytes().skip(symbols.len()).any(|b| b != b'=') {
        return None;
    }
    let values: Option<Vec<u32>> =
        symbols.iter().map(|b| ALPHABET.iter().position(|a| a == b).map(|p| p as u32)).collect();
    let values = values?;
    if values.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::new();
    for group in values.chunks(4) {
        let mut v = 0u32;
        for (i, s) in group.iter().enumerate() {
            v |= s << (18 - 6 * i);
        }
        for i in 0..group.len() - 1 {
            out.push((v >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Canonical exactly when re-encoding what the text means gives the text back.
fn oracle(text: &str) -> bool {
    lenient_decode(text).is_some_and(|b| reference_encode(&b) == text)
}

fn base64ish() -> impl Strategy<Value = String> {
    let symbol = prop_oneof![
        8 => proptest::sample::select(ALPHABET.to_vec()).prop_map(|b| b as char),
        2 => Just('='),
        1 => proptest::sample::select(vec![' ', '\n', '\r', '-', '_', '.', 'é', '\t']),
    ];
    proptest::collection::vec(symbol, 0..24).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn canonical_base64_agrees_with_the_reencoding_oracle(text in base64ish()) {
        prop_assert_eq!(base64::is_canonical(text.as_bytes()), oracle(&text), "{:?}", text);
        if let Ok(bytes) = base64::decode(text.as_bytes()) {
            prop_assert_eq!(reference_encode(&bytes), text);
        }
    }

    #[test]
    fn any_bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let text = reference_encode(&bytes);
        prop_assert!(base64::is_canonical(text.as_bytes()));
        prop_assert_eq!(base64::decode(text.as_bytes()).unwrap(), bytes);
        prop_assert_eq!(base64::encode(&base64::decode(text.as_bytes()).unwrap()), text);
    }
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance")
}

fn read_shared(rel: &str) -> Option<String> {
    let path = shared().join(rel);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            println!("SKIPPED: {} is absent", path.display());
            None
        }
    }
}

fn fixture_cases(file: &str) -> Vec<Json> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(file);
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn the_signature_table_is_the_reference_data() {
    let Some(text) = read_shared("mime-sniff/signatures.json") else { return };
    let data: Json = serde_json::from_str(&text).unwrap();
    let rows = data["signatures"].as_array().unwrap();
    assert_eq!(rows.len(), sniff::SIGNATURES.len());
    for (row, sig) in rows.iter().zip(sniff::SIGNATURES) {
        assert_eq!(row["mime"], sig.mime);
        assert_eq!(hex(row["pattern"].as_str().unwrap()), sig.pattern, "{}", sig.mime);
        assert_eq!(hex(row["mask"].as_str().unwrap()), sig.mask, "{}", sig.mime);
    }
}

#[test]
fn fixtures_cover_every_reference_vector_row_and_example() {
    let b64 = fixture_cases("acp_base64.json");
    let sniffs = fixture_cases("acp_sniff.json");
    let admissions = fixture_cases("acp_admission.json");
    if let Some(text) = read_shared("base64-rfc4648/vectors.json") {
        let vectors: Json = serde_json::from_str(&text).unwrap();
        for v in vectors["cases"].as_array().unwrap() {
            let t = v["text"].as_str().unwrap();
            assert!(
                b64.iter().any(|c| c["op"] == "isCanonicalBase64" && c["text"] == t && c["expect"]["value"] == true),
                "no isCanonicalBase64 case for the vector {t:?}"
            );
            if !t.is_empty() {
                let decoded = b64.iter().any(|c| {
                    c["op"] == "admitPrompt"
                        && c["args"][0]["prompt"][1]["resource"]["blob"] == t
                        && c["expect"]["value"]["resources"][0]["bytesHex"] == v["bytesHex"]
                });
                assert!(decoded, "no decoding case for the vector {t:?}");
            }
            assert_eq!(base64::decode(t.as_bytes()).unwrap(), hex(v["bytesHex"].as_str().unwrap()));
        }
    }
    if let Some(text) = read_shared("mime-sniff/signatures.json") {
        let data: Json = serde_json::from_str(&text).unwrap();
        for row in data["signatures"].as_array().unwrap() {
            let (pattern, mask) = (hex(row["pattern"].as_str().unwrap()), hex(row["mask"].as_str().unwrap()));
            let covered = sniffs.iter().any(|c| {
                let bytes = hex(c["bytesHex"].as_str().unwrap());
                c["expect"]["value"] == row["mime"]
                    && bytes.len() == pattern.len()
                    && bytes.iter().zip(&pattern).zip(&mask).all(|((b, p), m)| b & m == *p)
            });
            assert!(covered, "no exact sniffing case for the row {row}");
        }
    }
    if let Some(text) = read_shared("acp-schema/docs-v1-examples.jsonl") {
        let mut found = 0;
        for line in text.lines() {
            let example: Json = serde_json::from_str(line).unwrap();
            let value = &example["value"];
            if value["method"] != "session/prompt" || value.get("id").is_none() {
                continue;
            }
            found += 1;
            let covered = admissions.iter().any(|c| c["op"] == "admitPrompt" && c["args"][0] == value["params"]);
            assert!(covered, "no admitPrompt case for the documentation example at line {}", example["line"]);
        }
        assert!(found >= 3, "the documentation examples hold {found} session/prompt requests");
    }
}

fn to_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(Number::from_f64(n.as_f64().unwrap())),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::Array(a.iter().map(to_value).collect()),
        Json::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
    }
}

/// Every combination of the facts (each absent, null, false, true or of another type; lists
/// absent, null, empty, without and with the wanted entry, or not a list): `image` is true for
/// exactly the combinations where every fact behind it is known true.
#[test]
fn capabilities_every_combination() {
    let flags: Vec<Option<Json>> =
        vec![None, Some(Json::Null), Some(Json::Bool(false)), Some(Json::Bool(true)), Some(Json::from("true"))];
    let modalities: Vec<Option<Json>> = vec![
        None,
        Some(Json::Null),
        Some(serde_json::json!([])),
        Some(serde_json::json!(["text"])),
        Some(serde_json::json!(["image"])),
        Some(serde_json::json!(["text", "audio"])),
        Some(serde_json::json!(["text", "image", "audio"])),
        Some(Json::from("image")),
    ];
    let stores: Vec<Option<Json>> = vec![
        None,
        Some(Json::Null),
        Some(serde_json::json!([])),
        Some(serde_json::json!(["image/bmp", "application/pdf"])),
        Some(serde_json::json!(["image/png"])),
        Some(serde_json::json!(["image/tiff", "image/webp"])),
        Some(Json::from("image/png")),
    ];
    let known_true = |f: &Option<Json>| f.as_ref() == Some(&Json::Bool(true));
    let lists = |f: &Option<Json>, wanted: &[&str]| {
        f.as_ref()
            .and_then(|v| v.as_array())
            .is_some_and(|a| a.iter().any(|x| x.as_str().is_some_and(|s| wanted.contains(&s))))
    };
    let (mut combinations, mut images) = (0, 0);
    for store in &flags {
        for provider in &flags {
            for model in &flags {
                for modality in &modalities {
                    for types in &stores {
                        for embedded in &flags {
                            let mut facts = serde_json::Map::new();
                            for (k, v) in [
                                ("attachmentStore", store),
                                ("providerResolved", provider),
                                ("modelResolved", model),
                                ("inputModalities", modality),
                                ("storeMimeTypes", types),
                                ("embeddedContext", embedded),
                            ] {
                                if let Some(v) = v {
                                    facts.insert(k.to_owned(), v.clone());
                                }
                            }
                            let got = capabilities::advertise(&&to_value(&Json::Object(facts))).unwrap();
                            let resolved = known_true(store) && known_true(provider) && known_true(model);
                            let image = resolved
                                && lists(modality, &["image"])
                                && lists(types, &["image/png", "image/jpeg", "image/webp", "image/gif"]);
                            assert_eq!(got.image, image);
                            assert_eq!(got.audio, resolved && lists(modality, &["audio"]));
                            assert_eq!(got.embedded_context, known_true(embedded));
                            combinations += 1;
                            images += usize::from(got.image);
                        }
                    }
                }
            }
        }
    }
    assert_eq!(combinations, 5 * 5 * 5 * 8 * 7 * 5);
    // Store, provider and model true (1 × 1 × 1), a modality list with image (2 of 8), a store
    // list with an allowed type (2 of 7), any embeddedContext (5).
    assert_eq!(images, 2 * 2 * 5);
}

const CALLS: [&str; 8] =
    ["admitted", "written", "enqueue", "cancel", "agentIdle", "outputDelivered", "settle", "abandon"];

/// The seed's invariants, checked on the log of one lifecycle's calls and outcomes: `log`
/// holds, for the prompt in flight, the calls that succeeded since its `admitted()` (a refused
/// `enqueue()` after a cancel counts: it completed admission).
fn check_sequence(seq: &[usize]) {
    let mut lc = PromptLifecycle::new();
    let mut current: Option<Vec<&str>> = None;
    for &i in seq {
        let call = CALLS[i];
        let out = api::lifecycle_call::<&Value>(&mut lc, call, None);
        let log = current.as_ref();
        let has = |name: &str| log.is_some_and(|l| l.contains(&name));
        let pos = |name: &str| log.and_then(|l| l.iter().position(|c| *c == name));
        match call {
            "admitted" => {
                assert_eq!(out.is_ok(), log.is_none(), "{seq:?}");
                if log.is_some() {
                    assert_eq!(out.as_ref().unwrap_err().code.as_str(), "PROMPT_IN_FLIGHT");
                }
            }
            "enqueue" => {
                // No late user message: never queued after a cancel of this prompt.
                if has("cancel") {
                    assert!(out.is_err(), "enqueued after cancel: {seq:?}");
                }
                if out.is_ok() {
                    assert!(log.is_some() && !has("cancel") && !has("enqueue") && !has("enqueue!"), "{seq:?}");
                }
                if has("cancel") && !has("enqueue") && !has("enqueue!") {
                    assert_eq!(out.as_ref().unwrap_err().code.as_str(), "PROMPT_CANCELLED");
                }
            }
            "cancel" => {
                let must = log.is_some() && has("enqueue!") && !has("cancel") && !has("agentIdle");
                assert_eq!(out.as_ref().unwrap(), &Value::Bool(must), "{seq:?}");
            }
            "settle" => {
                let quiet = match (pos("enqueue").or(pos("enqueue!")), pos("agentIdle"), pos("outputDelivered")) {
                    (Some(q), Some(idle), Some(d)) => q < idle && idle < d,
                    _ => false,
                };
                assert_eq!(out.is_ok(), log.is_some() && quiet, "{seq:?}");
                if let Ok(v) = &out {
                    let want = if has("cancel") { "cancelled" } else { "end_turn" };
                    assert_eq!(v, &Value::String(want.to_owned()), "{seq:?}");
                }
            }
            _ => {}
        }
        // Update the log with what the call did.
        match (call, &out) {
            ("admitted", Ok(_)) => current = Some(vec![]),
            ("settle" | "abandon", Ok(_)) => current = None,
            ("enqueue", Ok(_)) => current.as_mut().unwrap().extend(["enqueue!"]),
            ("enqueue", Err(e)) if e.code.as_str() == "PROMPT_CANCELLED" => current.as_mut().unwrap().push("enqueue"),
            ("cancel", Ok(Value::Bool(_))) if current.is_some() && !has("cancel") => {
                current.as_mut().unwrap().push("cancel")
            }
            (_, Ok(_)) if current.is_some() && call != "cancel" => {
                let log = current.as_mut().unwrap();
                if !log.contains(&call) {
                    log.push(call);
                }
            }
            _ => {}
        }
        assert_eq!(lc.in_flight(), current.is_some(), "{seq:?}");
    }
}

/// Every sequence of up to six calls: 8 + 8² + ... + 8⁶ interleavings.
#[test]
fn lifecycle_every_interleaving() {
    let mut count = 0;
    for len in 1..=6u32 {
        for n in 0..8usize.pow(len) {
            let seq: Vec<usize> = (0..len).map(|k| n / 8usize.pow(k) % 8).collect();
            check_sequence(&seq);
            count += 1;
        }
    }
    assert_eq!(count, (1..=6).map(|k| 8usize.pow(k)).sum::<usize>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Longer random sequences (several prompts in one session).
    #[test]
    fn lifecycle_long_sequences(seq in proptest::collection::vec(0usize..8, 0..40)) {
        check_sequence(&seq);
    }
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR";
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF";

/// One block of a random prompt and the stage its own first failure belongs to (0: none).
fn block() -> impl Strategy<Value = (Json, u8)> {
    let b64 = |b: &[u8]| reference_encode(b);
    prop_oneof![
        Just((serde_json::json!({"type": "text", "text": "hi"}), 0)),
        Just((serde_json::json!({"type": "text", "text": " "}), 0)),
        Just((serde_json::json!({"type": "resource_link", "uri": "file:///a", "name": "a"}), 0)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/png", "data": b64(PNG)}), 0)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/jpeg", "data": b64(JPEG)}), 0)),
        Just((serde_json::json!({"type": "video"}), 1)),
        Just((serde_json::json!({"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}), 1)),
        Just((serde_json::json!({"type": "text"}), 1)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/bmp", "data": b64(PNG)}), 2)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/png", "data": "AB=="}), 3)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/png", "data": ""}), 3)),
        Just((serde_json::json!({"type": "image", "mimeType": "image/png", "data": b64(JPEG)}), 4)),
    ]
}

fn stage(code: &str) -> u8 {
    match code {
        "CONTENT_TYPE_UNKNOWN" | "CAPABILITY_NOT_ADVERTISED" | "FIELD_MISSING" => 1,
        "MEDIA_TYPE_NOT_ALLOWED" => 2,
        "BASE64_NOT_CANONICAL" | "FIELD_EMPTY" => 3,
        "MEDIA_TYPE_MISMATCH" => 4,
        "PROMPT_EMPTY" => 5,
        other => panic!("unexpected code {other}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The failure reported is the earliest stage any block fails in, at the lowest index of
    /// that stage; a prompt of valid blocks is admitted with its images in wire order, each
    /// entry's payload re-encoding to the block's data.
    #[test]
    fn admission_stage_order(blocks in proptest::collection::vec(block(), 0..8)) {
        let request = serde_json::json!({"sessionId": "s", "prompt": blocks.iter().map(|(b, _)| b.clone()).collect::<Vec<_>>()});
        let caps = serde_json::json!({"image": true});
        let got = admission::admit_prompt(&&to_value(&request), &&to_value(&caps), None);
        let worst = blocks.iter().enumerate().filter(|(_, (_, s))| *s > 0).min_by_key(|(i, (_, s))| (*s, *i));
        match (got, worst) {
            (Err(e), Some((i, (_, s)))) => {
                prop_assert_eq!(stage(e.code.as_str()), *s, "{}", e.message);
                prop_assert!(e.path.starts_with(&format!("/prompt/{i}")), "{} at {}", e.code.as_str(), e.path);
            }
            (Err(e), None) => {
                prop_assert_eq!(e.code.as_str(), "PROMPT_EMPTY");
                prop_assert!(blocks.iter().all(|(b, _)| b["type"] == "text" && b["text"] == " "));
            }
            (Ok(plan), None) => {
                let images: Vec<usize> = blocks.iter().enumerate().filter(|(_, (b, _))| b["type"] == "image").map(|(i, _)| i).collect();
                prop_assert_eq!(plan.attachments.len(), images.len());
                for (a, i) in plan.attachments.iter().zip(images) {
                    prop_assert_eq!(a.index, i);
                    prop_assert_eq!(Json::from(reference_encode(&a.bytes)), blocks[i].0["data"].clone());
                }
            }
            (Ok(_), Some((i, _))) => prop_assert!(false, "admitted a prompt whose block {} fails", i),
        }
    }
}
