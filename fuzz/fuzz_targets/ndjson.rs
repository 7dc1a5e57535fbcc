//! The NDJSON decoder and the JSON-RPC rules over raw bytes. The first byte picks the options
//! (a small `maxLineBytes`, reply mode, the MCP profile) and a cut point; the stream is fed
//! whole, in two pieces and byte by byte: the frames must not depend on the chunking, the
//! decoder never holds more than `maxLineBytes`, and every frame's message goes through a
//! session both ways without panicking.
#![no_main]

use agent_contract::rpc::options::{OnMalformed, Profile, RpcOptions};
use agent_contract::rpc::{Decoder, Frame, Session};
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
    let bytewise: Vec<&[u8]> = text.chunks(1).collect();
    assert_eq!(decode(options, &bytewise), whole, "byte-by-byte changed the frames");
    let mut session = Session::new(options);
    for (i, f) in whole.iter().enumerate() {
        if let Some(m) = &f.message {
            let _ = if i % 2 == 0 { session.incoming(m) } else { session.outgoing(m) };
        }
    }
});
