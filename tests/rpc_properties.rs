//! NDJSON decoder and JSON-RPC properties (proptest): any chunking of a stream gives the frames
//! of the unsplit stream; random bytes never panic, the decoder never holds more than
//! `maxLineBytes`, and lines, offsets and texts agree with an independent split at LF;
//! classification of random values never panics and replies exactly when the envelope demands.

use agent_contract::rpc::message::{classify, Kind};
use agent_contract::rpc::options::{Profile, RpcOptions};
use agent_contract::rpc::{Decoder, Frame, Session};
use agent_contract::value::{Number, Value};
use proptest::prelude::*;

fn decode(chunks: &[&[u8]], max: usize) -> Vec<Frame> {
    let frames = decode_with(chunks, max, false);
    // The bindings' decoder (envelope only, message as a marker) classifies every line alike.
    let lazy = decode_with(chunks, max, true);
    assert_eq!(lazy.len(), frames.len());
    for (l, f) in lazy.iter().zip(&frames) {
        assert_eq!((&l.text, l.line, l.offset, l.ignored), (&f.text, f.line, f.offset, f.ignored));
        assert_eq!(l.classification, f.classification, "{:?}", f.text);
        assert_eq!(l.message.is_some(), f.message.is_some());
    }
    frames
}

fn decode_with(chunks: &[&[u8]], max: usize, lazy: bool) -> Vec<Frame> {
    let d = Decoder::new(RpcOptions { max_bytes: max, ..RpcOptions::default() });
    let mut d = if lazy { d.lazy() } else { d };
    let mut out = Vec::new();
    for c in chunks {
        out.extend(d.push(c));
        assert!(d.buffered() <= max, "holds {} bytes, over {max}", d.buffered());
    }
    out.extend(d.end());
    assert!(d.buffered() <= max);
    out
}

/// Cuts `bytes` at the given points (any byte, so inside characters and CRLFs too).
fn cut<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::new();
    let mut prev = 0;
    for p in points {
        out.push(&bytes[prev..p]);
        prev = p;
    }
    out.push(&bytes[prev..]);
    out
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z/]{0,12}".prop_map(|m| format!("{{\"jsonrpc\":\"2.0\",\"method\":\"{m}\"}}")),
        ("[a-z]{1,8}", -5i64..1000, "[ -~é😀\u{2028}\u{2029}]{0,20}").prop_map(|(m, id, s)| format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{m}\",\"params\":[{}]}}",
            serde_json::to_string(&s).unwrap()
        )),
        (0i64..100).prop_map(|id| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":null}}")),
        "[ \t]{0,3}".prop_map(|s| s),
        "[ -~é😀\r]{0,40}",
        Just("[]".to_owned()),
        Just("[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},1]".to_owned()),
        Just("{\"a\":1,\"a\":2}".to_owned()),
    ]
}

fn stream() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec((line(), any::<bool>()), 0..8), any::<bool>()).prop_map(|(lines, last_lf)| {
        let mut out = String::new();
        let n = lines.len();
        for (i, (l, crlf)) in lines.into_iter().enumerate() {
            out.push_str(&l);
            if i + 1 < n || last_lf {
                out.push_str(if crlf { "\r\n" } else { "\n" });
            }
        }
        out.into_bytes()
    })
}

/// Where the lines are, by an independent split at LF: `(line number, offset, bytes without
/// the line end)`, the final line only when it has bytes.
fn oracle(bytes: &[u8]) -> Vec<(usize, usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut parts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let tail = parts.pop().unwrap_or(&[]);
    for (i, part) in parts.iter().enumerate() {
        let body = part.strip_suffix(b"\r").unwrap_or(part);
        out.push((i + 1, start, body.to_vec()));
        start += part.len() + 1;
    }
    if !tail.is_empty() {
        out.push((out.len() + 1, start, tail.to_vec()));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_gives_the_unsplit_frames(bytes in stream(), cuts in prop::collection::vec(any::<usize>(), 0..6), max in prop_oneof![Just(1usize << 20), 8usize..80]) {
        let whole = decode(&[&bytes], max);
        let split = decode(&cut(&bytes, &cuts), max);
        prop_assert_eq!(&split, &whole);
        // One byte at a time too.
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        prop_assert_eq!(&decode(&bytewise, max), &whole);
    }

    #[test]
    fn random_bytes_never_panic_and_frames_follow_the_lines(
        bytes in prop::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'{'), Just(b'"'), any::<u8>()], 0..300),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        max in 1usize..64,
    ) {
        let frames = decode(&cut(&bytes, &cuts), max);
        let lines = oracle(&bytes);
        prop_assert_eq!(frames.len(), lines.len());
        for (f, (line, offset, body)) in frames.iter().zip(&lines) {
            prop_assert_eq!(f.line, *line);
            prop_assert_eq!(f.offset, *offset);
            if body.len() > max {
                prop_assert_eq!(f.text.as_str(), "");
                prop_assert!(f.ignored);
            } else {
                prop_assert_eq!(&f.text, &String::from_utf8_lossy(body).into_owned());
            }
            // Default options: a frame is ignored exactly when it is not a valid message.
            prop_assert_eq!(f.ignored, !f.classification.kind.is_valid());
        }
    }

    #[test]
    fn the_envelope_classifies_like_the_whole_value(value in json(), mcp in any::<bool>()) {
        let options = RpcOptions { profile: if mcp { Profile::Mcp } else { Profile::JsonRpc }, ..RpcOptions::default() };
        let mut text = String::new();
        agent_contract::value::write_json(&mut text, &value);
        let envelope = agent_contract::rpc::shallow::envelope(text.as_bytes()).expect("valid text");
        prop_assert_eq!(classify(&envelope, &options), classify(&value, &options));
    }

    #[test]
    fn classification_replies_exactly_when_the_envelope_demands(value in json(), allow_null in any::<bool>()) {
        let options = RpcOptions { allow_null_id: allow_null, ..RpcOptions::default() };
        let c = classify(&value, &options);
        let has_problem = c.problem.is_some();
        match c.kind {
            Kind::Request | Kind::Notification | Kind::Response | Kind::ErrorResponse => {
                prop_assert!(c.reply.is_none() && !has_problem)
            }
            Kind::InvalidRequest | Kind::ParseError => prop_assert!(c.reply.is_some() && has_problem),
            Kind::InvalidResponse => prop_assert!(c.reply.is_none() && has_problem),
            Kind::Batch => {
                let items = c.items.as_ref().unwrap();
                let answered = items.iter().filter(|i| i.reply.is_some()).count();
                match &c.reply_value() {
                    None => prop_assert_eq!(answered, 0),
                    Some(Value::Array(replies)) => prop_assert_eq!(replies.len(), answered),
                    Some(other) => prop_assert!(false, "batch reply {other:?}"),
                }
            }
        }
        // A session given the same message never panics and reports the verdict first.
        let mut session = Session::new(options);
        let (_, problems) = session.incoming(&value);
        if let Some(p) = &c.problem {
            prop_assert_eq!(problems.first().map(|q| q.code), Some(p.code));
        }
    }
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3.0f64..3.0).prop_map(|f| Value::Number(Number::from_f64((f * 2.0).round() / 2.0))),
        prop_oneof![Just("2.0"), Just("rpc.x"), Just("m"), Just("1")].prop_map(|s| Value::String(s.to_owned())),
    ];
    let keys = prop_oneof![
        Just("jsonrpc"),
        Just("method"),
        Just("id"),
        Just("params"),
        Just("result"),
        Just("error"),
        Just("code"),
        Just("message"),
        Just("x")
    ];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(keys.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}
