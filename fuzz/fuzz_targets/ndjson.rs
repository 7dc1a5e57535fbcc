//! The NDJSON decoder and the JSON-RPC rules over raw bytes. The first byte picks the options
//! (a small `maxLineBytes`, reply mode, the MCP profile) and a cut point; the stream is fed
//! whole, in two pieces and byte by byte: the frames must not depend on the chunking, the
//! decoder never holds more than `maxLineBytes`, every frame's message goes through a session
//! both ways without panicking, and the bindings' reply (repeats and frames like the previous
//! object written as rows and runs, `wire::FrameWriter`) expands to the frames, as the hosts
//! expand it.
#![no_main]

use agent_contract::rpc::options::{OnMalformed, Profile, RpcOptions};
use agent_contract::rpc::{Decoder, Frame, Session};
use agent_contract::value::{write_json, Number, Value};
use agent_contract::wire::FrameWriter;
use agent_contract::Limits;
use libfuzzer_sys::fuzz_target;

fn decode(options: RpcOptions, pieces: &[&[u8]]) -> Vec<Frame> {
    decode_with(Decoder::new(options), options, pieces)
}

fn decode_with(mut d: Decoder, options: RpcOptions, pieces: &[&[u8]]) -> Vec<Frame> {
    let mut frames = Vec::new();
    for p in pieces {
        frames.extend(d.push(p));
        assert!(d.buffered() <= options.max_bytes, "held {} bytes over {}", d.buffered(), options.max_bytes);
    }
    frames.extend(d.end());
    frames
}

/// The reply's list with its rows and runs expanded, as pkg/api.mjs and the Python host do: a
/// row is `k, offset, text`, the k-th object's other members, the previous frame's line plus
/// one; a run, `[k, offset, text, count, stride]`, is `count` rows `stride` bytes apart.
fn expand(items: &[Value]) -> Vec<Value> {
    let (mut objects, mut out, mut line, mut i) = (Vec::new(), Vec::new(), 0.0, 0);
    let row = |from: &[(String, Value)], text: &Value, offset: f64, line: &mut f64, out: &mut Vec<Value>| {
        *line += 1.0;
        let mut frame = vec![
            ("text".to_owned(), text.clone()),
            ("line".to_owned(), Value::Number(Number::from_f64(*line))),
            ("offset".to_owned(), Value::Number(Number::from_f64(offset))),
        ];
        frame.extend(from[3..].iter().cloned());
        out.push(Value::Object(frame));
    };
    let number = |v: &Value| match v {
        Value::Number(n) => n.value,
        other => panic!("a row's offset, count and stride are numbers, not {other:?}"),
    };
    while i < items.len() {
        match &items[i] {
            Value::Object(members) => {
                let Some((_, Value::Number(n))) = members.get(1) else {
                    panic!("an object's second member is its line")
                };
                line = n.value;
                objects.push(members);
                out.push(items[i].clone());
                i += 1;
            }
            Value::Number(k) => {
                row(objects[k.value as usize], &items[i + 2], number(&items[i + 1]), &mut line, &mut out);
                i += 3;
            }
            Value::Array(run) => {
                let [k, offset, text, count, stride] = run.as_slice() else {
                    panic!("a run is five items, not {run:?}")
                };
                let (offset, count, stride) = (number(offset), number(count), number(stride));
                assert!(count >= 2.0 && stride >= 1.0, "a run of {count} rows {stride} bytes apart");
                for j in 0..count as usize {
                    row(objects[number(k) as usize], text, offset + j as f64 * stride, &mut line, &mut out);
                }
                i += 1;
            }
            other => panic!("a reply item is an object, a row or a run, not {other:?}"),
        }
    }
    out
}

fn text_of(values: Vec<Value>) -> String {
    let mut out = String::new();
    write_json(&mut out, &Value::Array(values));
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let options = RpcOptions {
        max_bytes: if op & 1 == 0 { 16 << 20 } else { 1 + usize::from(op >> 4) * 8 },
        on_malformed: if op & 2 == 0 { OnMalformed::Ignore } else { OnMalformed::Reply },
        profile: if op & 4 == 0 { Profile::JsonRpc } else { Profile::Mcp },
        allow_null_id: op & 8 == 0,
        ..RpcOptions::default()
    };
    let whole = decode(options, &[text]);
    let cut = if text.is_empty() { 0 } else { usize::from(op) * 7919 % text.len() };
    assert_eq!(decode(options, &[&text[..cut], &text[cut..]]), whole, "chunking changed the frames");
    // The bindings' decoder (envelope only, message as a marker) classifies every line alike.
    let lazy = decode_with(Decoder::new(options).lazy(), options, &[text]);
    assert_eq!(lazy.len(), whole.len());
    for (l, f) in lazy.iter().zip(&whole) {
        assert_eq!(l.classification, f.classification, "the envelope classified {:?} differently", f.text);
        assert_eq!(l.message.is_some(), f.message.is_some());
    }
    // The bindings' reply, in two pushes (repeats are remembered across them).
    let mut d = Decoder::new(options).lazy();
    let mut expanded = Vec::new();
    for piece in [&text[..cut], &text[cut..]] {
        let mut writer = FrameWriter::new();
        d.push_lines(piece, &mut |line| writer.line(line));
        let reply = writer.finish(Ok(()));
        let Ok(Value::Object(reply)) =
            agent_contract::json::parse(reply.as_bytes(), agent_contract::json::Mode::Strict, &Limits::ceilings())
        else {
            panic!("the reply is strict JSON: {reply}")
        };
        let Some((_, Value::Array(items))) = reply.into_iter().find(|(k, _)| k == "value") else {
            panic!("a reply has a value")
        };
        expanded.extend(expand(&items));
    }
    let mut writer = FrameWriter::new();
    d.end_line().into_iter().for_each(|line| writer.line(line));
    let reply = writer.finish(Ok(()));
    if let Ok(Value::Object(reply)) =
        agent_contract::json::parse(reply.as_bytes(), agent_contract::json::Mode::Strict, &Limits::ceilings())
    {
        if let Some((_, Value::Array(items))) = reply.into_iter().find(|(k, _)| k == "value") {
            expanded.extend(expand(&items));
        }
    }
    let expected: Vec<Value> = whole
        .iter()
        .map(|f| Frame { message: f.message.as_ref().map(|_| Value::Bool(true)), ..f.clone() }.into_value())
        .map(agent_contract::wire::batch_reply_linked) // a batch's reply is linked by the host
        .collect();
    assert_eq!(text_of(expanded), text_of(expected), "the rows expand to other frames");
    let bytewise: Vec<&[u8]> = text.chunks(1).collect();
    assert_eq!(decode(options, &bytewise), whole, "byte-by-byte changed the frames");
    let mut session = Session::new(options);
    for (i, f) in whole.iter().enumerate() {
        if let Some(m) = &f.message {
            let _ = if i % 2 == 0 { session.incoming(m) } else { session.outgoing(m) };
        }
    }
});
