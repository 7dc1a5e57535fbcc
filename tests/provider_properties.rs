//! Provider adapter properties (proptest), the Rust twin of js-tests/test/provider-properties.test.mjs
//! and py-host/tests/test_provider_properties.py, for every provider (OpenAI Chat, OpenAI
//! Responses, Anthropic, Gemini: whole and streamed `functionCall`s, partial args at JSON Paths):
//! - random chunk splits of raw SSE (single bytes, cuts inside multi-byte UTF-8) give the unsplit
//!   outcome, for every recording in ../shared/conformance/provider-streams (skipped, with a
//!   message, when ../shared is absent) and for synthetic streams with non-ASCII arguments, random
//!   interleavings of parallel calls, ignorable events and every SSE framing (event lines, CRLF /
//!   CR / LF, comments, a BOM, multi-line data); synthetic streams also match an oracle;
//! - mutated streams (events dropped, duplicated, swapped, junk inserted) never yield a call the
//!   valid stream did not have; truncation, a non-normal finish, a dropped tool-call end and cut
//!   arguments are errors with their codes, never a call;
//! - replay (two adapters, `finish` twice, `preview`) is identical;
//! - arbitrary bytes, payload texts and host values never panic, and the first error is final.

use std::path::PathBuf;

use agent_contract::stream::provider;
use agent_contract::stream::provider_stream::{self, ProviderStream, PROVIDERS};
use agent_contract::value::{write_json, Number, Value};
use agent_contract::Options;
use proptest::prelude::*;
use serde_json::{json, Value as Json};

type Outcome = Result<Json, (String, String, String)>;

fn outcome(r: agent_contract::error::Result<Value>) -> Outcome {
    r.map(|v| {
        let mut s = String::new();
        write_json(&mut s, &v);
        serde_json::from_str(&s).unwrap()
    })
    .map_err(|e| (e.layer.as_str().to_owned(), e.code.as_str().to_owned(), e.path.clone()))
}

fn adapter(p: &str) -> Box<dyn provider::Adapter> {
    provider_stream::adapter(p, Options::default()).unwrap()
}

fn sse_chunks(p: &str, chunks: &[&[u8]]) -> Outcome {
    let mut a = adapter(p);
    let mut r = Ok(());
    for c in chunks {
        r = r.and_then(|_| a.push_sse(c));
    }
    outcome(r.and_then(|_| a.finish()))
}

fn sse_whole(p: &str, bytes: &[u8]) -> Outcome {
    outcome(provider::assemble_sse(&mut *adapter(p), bytes))
}

fn payloads(p: &str, list: &[String]) -> Outcome {
    outcome(provider::assemble_payloads(&mut *adapter(p), list))
}

/// Cuts `bytes` at the given fractions (anywhere, inside characters too).
fn cut<'a>(bytes: &'a [u8], cuts: &[f64]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> =
        cuts.iter().map(|c| ((c * (bytes.len() + 1) as f64) as usize).min(bytes.len())).collect();
    points.sort();
    let mut out = Vec::new();
    let mut prev = 0;
    for p in points {
        out.push(&bytes[prev..p]);
        prev = p;
    }
    out.push(&bytes[prev..]);
    out
}

// ---------------------------------------------------------------------------------------------
// Recordings

fn recordings() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/provider-streams");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("provider_properties: recordings SKIPPED, {} is absent (synthetic streams still run)", d.display());
        None
    }
}

/// Every recording of the three providers as raw SSE: the raw files as they are, and each
/// `.chunks.txt` framed as `data: <line>\n\n` (plain), then again with `event:` lines, CRLF
/// line ends and comments. (provider, name, bytes).
fn recorded_sse() -> Vec<(&'static str, String, Vec<u8>)> {
    let Some(dir) = recordings() else { return Vec::new() };
    let mut out = Vec::new();
    for p in PROVIDERS {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(p)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&f).unwrap();
            if !name.ends_with(".chunks.txt") {
                out.push((p, name, bytes));
                continue;
            }
            let text = String::from_utf8(bytes).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let plain: String = lines.iter().map(|l| format!("data: {l}\n\n")).collect();
            let framed: String = std::iter::once(": recorded\r\n\r\n".to_owned())
                .chain(lines.iter().map(|l| format!("event: e\r\ndata:{l}\r\n: keep-alive\r\n\r\n")))
                .collect();
            out.push((p, format!("{name} (data lines)"), plain.into_bytes()));
            out.push((p, format!("{name} (event lines, CRLF, comments)"), framed.into_bytes()));
        }
    }
    out
}

#[test]
fn recordings_single_byte_chunks_give_the_whole_outcome() {
    for (p, name, bytes) in recorded_sse() {
        let whole = sse_whole(p, &bytes);
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(sse_chunks(p, &bytewise), whole, "{p} {name}: byte by byte");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn recordings_random_splits_give_the_whole_outcome(
        pick in any::<prop::sample::Index>(),
        cuts in prop::collection::vec(0.0..1.0f64, 0..40),
    ) {
        let all = recorded_sse();
        if all.is_empty() {
            return Ok(());
        }
        let (p, name, bytes) = &all[pick.index(all.len())];
        let whole = sse_whole(p, bytes);
        prop_assert_eq!(sse_chunks(p, &cut(bytes, &cuts)), whole, "{} {}", p, name);
    }
}

// ---------------------------------------------------------------------------------------------
// Synthetic streams: calls with non-ASCII arguments, random fragmenting and interleaving.

/// One provider event, tagged with what it is to the mutations below.
#[derive(Clone, Debug)]
struct Ev {
    payload: Json,
    /// Raw payload text, for `[DONE]`.
    raw: Option<&'static str>,
    role: Role,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Other,
    Start(usize),
    Delta(usize),
    /// The event that ends call i (Anthropic content_block_stop, Responses output_item.done).
    End(usize),
    /// Responses function_call_arguments.done for call i.
    ArgsDone(usize),
    Finish,
}

impl Ev {
    fn text(&self) -> String {
        self.raw.map_or_else(|| self.payload.to_string(), str::to_owned)
    }
}

#[derive(Clone, Debug)]
struct Spec {
    calls: Vec<(String, Json)>,
    /// Per call: argument text cuts (fractions of its code points).
    cuts: Vec<Vec<f64>>,
    order: Vec<usize>,
    noise: Vec<String>,
    /// Per call, Gemini's shape (bits): 1 streamed (else a whole `functionCall`), 2 the part
    /// gives an `id`, 4 a streamed call ends with an empty `functionCall` (else with its last
    /// partial args), 8 strings closed by an empty piece, 16 three partial args per part (and the
    /// id repeated), 32 no `args` for `{}` (whole) / a bare `willContinue` part (streamed),
    /// 64 the first partial args in the naming part, 128 a `thoughtSignature` on it.
    shapes: Vec<u8>,
}

fn ev(payload: Json, role: Role) -> Ev {
    Ev { payload, raw: None, role }
}

fn pieces(text: &str, cuts: &[f64]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut points: Vec<usize> =
        cuts.iter().map(|c| ((c * (chars.len() + 1) as f64) as usize).min(chars.len())).collect();
    points.sort();
    let mut out = Vec::new();
    let mut prev = 0;
    for p in points {
        out.push(chars[prev..p].iter().collect());
        prev = p;
    }
    out.push(chars[prev..].iter().collect());
    out
}

/// Gemini: `args` without empty arrays and objects (partial args set values, never `[]` or `{}`).
fn prune(v: &Json) -> Option<Json> {
    match v {
        Json::Array(a) => {
            let kept: Vec<Json> = a.iter().filter_map(prune).collect();
            (!kept.is_empty()).then_some(Json::Array(kept))
        }
        Json::Object(m) => {
            let kept: serde_json::Map<String, Json> =
                m.iter().filter_map(|(k, v)| prune(v).map(|v| (k.clone(), v))).collect();
            (!kept.is_empty()).then_some(Json::Object(kept))
        }
        _ => Some(v.clone()),
    }
}

/// A JSON Path (RFC 9535) to `path`, in one of three spellings: `.name` where the shorthand can
/// name it, `['name']`, `["name"]` with non-ASCII as `\u` escapes (surrogate pairs too).
fn json_path(path: &[Json], style: usize) -> String {
    let mut out = "$".to_owned();
    for seg in path {
        let Json::String(name) = seg else {
            out.push_str(&format!("[{seg}]"));
            continue;
        };
        let short = name
            .chars()
            .enumerate()
            .all(|(k, c)| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii() || (k > 0 && c.is_ascii_digit()));
        if style == 0 && !name.is_empty() && short {
            out.push('.');
            out.push_str(name);
            continue;
        }
        let q = if style == 2 { '"' } else { '\'' };
        out.push('[');
        out.push(q);
        for c in name.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c == q => {
                    out.push('\\');
                    out.push(c);
                }
                c if (c as u32) < 0x20 || (style == 2 && !c.is_ascii()) => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push(q);
        out.push(']');
    }
    out
}

/// Gemini: the partial args that build `args` (pruned), strings in pieces at `cuts`.
fn partial_args(args: &Json, cuts: &[f64], shape: u8, seed: usize) -> Vec<Json> {
    fn leaves(v: &Json, path: &mut Vec<Json>, out: &mut Vec<(Vec<Json>, Json)>) {
        match v {
            Json::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(json!(i));
                    leaves(x, path, out);
                    path.pop();
                }
            }
            Json::Object(m) => {
                for (k, x) in m {
                    path.push(json!(k));
                    leaves(x, path, out);
                    path.pop();
                }
            }
            _ => out.push((path.clone(), v.clone())),
        }
    }
    let mut found = Vec::new();
    if let Some(pruned) = prune(args) {
        leaves(&pruned, &mut Vec::new(), &mut found);
    }
    let mut out = Vec::new();
    for (k, (path, value)) in found.iter().enumerate() {
        let at = json_path(path, (k + seed) % 3);
        match value {
            Json::String(text) => {
                let mut parts = pieces(text, cuts);
                if shape & 8 != 0 {
                    parts.push(String::new());
                }
                let last = parts.len() - 1;
                for (j, piece) in parts.into_iter().enumerate() {
                    let mut a = json!({"jsonPath": at, "stringValue": piece});
                    if j < last {
                        a["willContinue"] = json!(true);
                    }
                    out.push(a);
                }
            }
            Json::Number(_) => out.push(json!({"jsonPath": at, "numberValue": value})),
            Json::Bool(_) => out.push(json!({"jsonPath": at, "boolValue": value})),
            _ => out
                .push(json!({"jsonPath": at, "nullValue": if k % 2 == 0 { json!("NULL_VALUE") } else { Json::Null }})),
        }
    }
    out
}

/// Gemini: a part that carries no call (text, thought, signature, inline data, a call in a thought).
fn gemini_noise(t: &str, kind: usize) -> Json {
    match kind % 5 {
        0 => json!({"text": t}),
        1 => json!({"text": t, "thought": true}),
        2 => json!({"text": t, "thoughtSignature": "c2lnbmF0dXJl"}),
        3 => json!({"inlineData": {"mimeType": "text/plain", "data": "5p2x5Lqs"}}),
        _ => json!({"thought": true, "functionCall": {"name": "write", "args": {"t": t}}}),
    }
}

const GEMINI_RID: &str = "gem-東京-😀";

fn gemini_payload(parts: Vec<Json>, rid: bool, index: bool) -> Json {
    let mut v =
        json!({"candidates": [{"content": {"role": "model", "parts": parts}}], "modelVersion": "gemini-3-flash"});
    if index {
        v["candidates"][0]["index"] = json!(0);
    }
    if rid {
        v["responseId"] = json!(GEMINI_RID);
    }
    v
}

fn call_id(p: &str, i: usize) -> String {
    match p {
        "anthropic" => format!("toolu_{i}"),
        _ => format!("call_{i}"),
    }
}

/// The provider's events for `spec`, and the normalized response it must give.
fn build(p: &str, spec: &Spec) -> (Vec<Ev>, Json) {
    let n = spec.calls.len();
    let texts: Vec<String> = spec.calls.iter().map(|(_, a)| a.to_string()).collect();
    let mut queues: Vec<Vec<Ev>> = Vec::new();
    let (rid, mut prologue, mut epilogue): (&str, Vec<Ev>, Vec<Ev>);
    match p {
        "openai-chat" => {
            rid = "chatcmpl-東京";
            let chunk = |delta: Json, finish: Json| json!({"id": rid, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
            prologue = vec![ev(chunk(json!({"role": "assistant", "content": ""}), Json::Null), Role::Other)];
            for (i, (name, _)) in spec.calls.iter().enumerate() {
                let mut q = vec![ev(
                    chunk(
                        json!({"tool_calls": [{"index": i, "id": call_id(p, i), "type": "function", "function": {"name": name, "arguments": ""}}]}),
                        Json::Null,
                    ),
                    Role::Start(i),
                )];
                for piece in pieces(&texts[i], &spec.cuts[i]) {
                    q.push(ev(
                        chunk(json!({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}), Json::Null),
                        Role::Delta(i),
                    ));
                }
                queues.push(q);
            }
            queues.push(spec.noise.iter().map(|t| ev(chunk(json!({"content": t}), Json::Null), Role::Other)).collect());
            epilogue = vec![
                ev(chunk(json!({}), json!(if n > 0 { "tool_calls" } else { "stop" })), Role::Finish),
                ev(
                    json!({"id": rid, "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 5}}),
                    Role::Other,
                ),
                Ev { payload: Json::Null, raw: Some("[DONE]"), role: Role::Other },
            ];
        }
        "anthropic" => {
            rid = "msg_😀";
            prologue = vec![ev(
                json!({"type": "message_start", "message": {"id": rid, "type": "message", "role": "assistant", "content": [], "stop_reason": null}}),
                Role::Other,
            )];
            for (i, (name, _)) in spec.calls.iter().enumerate() {
                let mut q = vec![ev(
                    json!({"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": call_id(p, i), "name": name, "input": {}}}),
                    Role::Start(i),
                )];
                for piece in pieces(&texts[i], &spec.cuts[i]) {
                    q.push(ev(json!({"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": piece}}), Role::Delta(i)));
                }
                q.push(ev(json!({"type": "content_block_stop", "index": i}), Role::End(i)));
                queues.push(q);
            }
            let mut text = vec![ev(
                json!({"type": "content_block_start", "index": n, "content_block": {"type": "text", "text": ""}}),
                Role::Other,
            )];
            for t in &spec.noise {
                text.push(ev(
                    json!({"type": "content_block_delta", "index": n, "delta": {"type": "text_delta", "text": t}}),
                    Role::Other,
                ));
                text.push(ev(json!({"type": "ping"}), Role::Other));
            }
            text.push(ev(json!({"type": "content_block_stop", "index": n}), Role::Other));
            queues.push(text);
            epilogue = vec![
                ev(
                    json!({"type": "message_delta", "delta": {"stop_reason": if n > 0 { "tool_use" } else { "end_turn" }, "stop_sequence": null}, "usage": {"output_tokens": 7}}),
                    Role::Finish,
                ),
                ev(json!({"type": "message_stop"}), Role::Other),
            ];
        }
        "gemini" => {
            rid = GEMINI_RID;
            let index = spec.order[0] % 2 == 1;
            let payload = |parts: Vec<Json>| gemini_payload(parts, true, index);
            prologue = Vec::new();
            // Gemini has no call index: one call streams at a time, and only ignorable parts
            // come between its parts. Calls go in order, noise anywhere.
            let mut q = Vec::new();
            for (i, (name, args)) in spec.calls.iter().enumerate() {
                let shape = spec.shapes[i];
                let id = (shape & 2 != 0).then(|| format!("fc-ü-{i}"));
                if shape & 1 == 0 {
                    let mut call = json!({"name": name});
                    if !(shape & 32 != 0 && args.as_object().is_some_and(|m| m.is_empty())) {
                        call["args"] = args.clone();
                    }
                    if let Some(id) = &id {
                        call["id"] = json!(id);
                    }
                    q.push(ev(payload(vec![json!({"functionCall": call})]), Role::Start(i)));
                    continue;
                }
                let items = partial_args(args, &spec.cuts[i], shape, i);
                let mut groups: Vec<Vec<Json>> =
                    items.chunks(if shape & 16 != 0 { 3 } else { 1 }).map(<[Json]>::to_vec).collect();
                let mut start = json!({"name": name, "willContinue": true});
                if let Some(id) = &id {
                    start["id"] = json!(id);
                }
                if shape & 64 != 0 && !groups.is_empty() {
                    start["partialArgs"] = json!(groups.remove(0));
                }
                let mut part = json!({"functionCall": start});
                if shape & 128 != 0 {
                    part["thoughtSignature"] = json!("c2lnbmF0dXJl");
                }
                q.push(ev(payload(vec![part]), Role::Start(i)));
                if shape & 32 != 0 {
                    q.push(ev(payload(vec![json!({"functionCall": {"willContinue": true}})]), Role::Delta(i)));
                }
                let by_empty = shape & 4 != 0 || groups.is_empty();
                let last = groups.len();
                for (j, g) in groups.into_iter().enumerate() {
                    let mut call = json!({"partialArgs": g});
                    let ends = !by_empty && j + 1 == last;
                    if !ends {
                        call["willContinue"] = json!(true);
                    } else if shape & 16 != 0 {
                        call["willContinue"] = json!(false);
                    }
                    if let (Some(id), true) = (&id, shape & 16 != 0) {
                        call["id"] = json!(id);
                    }
                    q.push(ev(
                        payload(vec![json!({"functionCall": call})]),
                        if ends { Role::End(i) } else { Role::Delta(i) },
                    ));
                }
                if by_empty {
                    q.push(ev(payload(vec![json!({"functionCall": {}})]), Role::End(i)));
                }
            }
            queues.push(q);
            let kind = spec.order[0];
            queues.push(
                spec.noise
                    .iter()
                    .enumerate()
                    .map(|(j, t)| {
                        ev(gemini_payload(vec![gemini_noise(t, j + kind)], (j + kind) % 2 == 0, index), Role::Other)
                    })
                    .collect(),
            );
            let mut finish = payload(vec![json!({"text": ""})]);
            if spec.order[0] % 4 >= 2 {
                finish["candidates"][0].as_object_mut().unwrap().remove("content");
            }
            finish["candidates"][0]["finishReason"] = json!("STOP");
            finish["usageMetadata"] = json!({"promptTokenCount": 3, "candidatesTokenCount": 5, "totalTokenCount": 8});
            epilogue = vec![
                ev(finish, Role::Finish),
                ev(
                    json!({"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 8}, "responseId": rid}),
                    Role::Other,
                ),
            ];
        }
        _ => {
            rid = "resp_é";
            prologue = vec![
                ev(
                    json!({"type": "response.created", "response": {"id": rid, "status": "in_progress", "output": []}}),
                    Role::Other,
                ),
                ev(
                    json!({"type": "response.in_progress", "response": {"id": rid, "status": "in_progress"}}),
                    Role::Other,
                ),
            ];
            for (i, (name, _)) in spec.calls.iter().enumerate() {
                let item = |args: &str, status: &str| json!({"type": "function_call", "id": format!("fc_{i}"), "call_id": call_id(p, i), "name": name, "arguments": args, "status": status});
                let mut q = vec![ev(
                    json!({"type": "response.output_item.added", "output_index": i, "item": item("", "in_progress")}),
                    Role::Start(i),
                )];
                for piece in pieces(&texts[i], &spec.cuts[i]) {
                    q.push(ev(json!({"type": "response.function_call_arguments.delta", "item_id": format!("fc_{i}"), "output_index": i, "delta": piece}), Role::Delta(i)));
                }
                q.push(ev(json!({"type": "response.function_call_arguments.done", "item_id": format!("fc_{i}"), "output_index": i, "arguments": texts[i]}), Role::ArgsDone(i)));
                q.push(ev(json!({"type": "response.output_item.done", "output_index": i, "item": item(&texts[i], "completed")}), Role::End(i)));
                queues.push(q);
            }
            let mut text = vec![ev(
                json!({"type": "response.output_item.added", "output_index": n, "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": [], "status": "in_progress"}}),
                Role::Other,
            )];
            for t in &spec.noise {
                text.push(ev(json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": n, "content_index": 0, "delta": t}), Role::Other));
            }
            text.push(ev(json!({"type": "response.output_item.done", "output_index": n, "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": [], "status": "completed"}}), Role::Other));
            queues.push(text);
            epilogue = vec![ev(
                json!({"type": "response.completed", "response": {"id": rid, "status": "completed"}}),
                Role::Finish,
            )];
        }
    }
    // Interleave the queues (each keeps its own order).
    let mut events = std::mem::take(&mut prologue);
    let mut k = 0;
    let mut started = Vec::new();
    for q in queues.iter_mut() {
        q.reverse();
    }
    while queues.iter().any(|q| !q.is_empty()) {
        let live: Vec<usize> = (0..queues.len()).filter(|&i| !queues[i].is_empty()).collect();
        let q = live[spec.order[k % spec.order.len()] % live.len()];
        k += 1;
        let e = queues[q].pop().unwrap();
        if let Role::Start(i) = e.role {
            started.push(i);
        }
        events.push(e);
    }
    if p == "gemini" {
        // Parallel whole calls and ignorable parts, several parts to a payload.
        let whole = |e: &Ev| match e.role {
            Role::Other => true,
            Role::Start(i) => spec.shapes[i] & 1 == 0,
            _ => false,
        };
        let mut merged: Vec<Ev> = Vec::new();
        for (k, e) in events.into_iter().enumerate() {
            match merged.last_mut() {
                Some(prev) if whole(prev) && whole(&e) && spec.order[k % spec.order.len()] >= 5 => {
                    let parts = e.payload["candidates"][0]["content"]["parts"].as_array().unwrap().clone();
                    prev.payload["candidates"][0]["content"]["parts"].as_array_mut().unwrap().extend(parts);
                    prev.payload["responseId"] = json!(rid);
                    if prev.role == Role::Other {
                        prev.role = e.role;
                    }
                }
                _ => merged.push(e),
            }
        }
        events = merged;
    }
    events.append(&mut epilogue);
    if p == "openai-responses" {
        for (s, e) in events.iter_mut().enumerate() {
            e.payload["sequence_number"] = json!(s);
        }
    }
    let calls: Vec<Json> = started
        .iter()
        .enumerate()
        .map(|(n, &i)| {
            let (name, args) = &spec.calls[i];
            if p != "gemini" {
                return json!({"callId": call_id(p, i), "name": name, "arguments": args});
            }
            let shape = spec.shapes[i];
            let id = if shape & 2 != 0 { format!("fc-ü-{i}") } else { format!("gemini:{rid}:{n}") };
            let args = if shape & 1 != 0 { prune(args).unwrap_or(json!({})) } else { args.clone() };
            json!({"callId": id, "name": name, "arguments": args})
        })
        .collect();
    let expected =
        json!({"responseId": rid, "finishReason": if n > 0 { "tool_calls" } else { "stop" }, "calls": calls});
    (events, expected)
}

/// Raw SSE for `events` in one of several framings.
fn to_sse(p: &str, events: &[Ev], framing: u8) -> Vec<u8> {
    let end = ["\n", "\r\n", "\r"][(framing % 3) as usize];
    let mut s = String::new();
    if framing & 4 != 0 {
        s.push('\u{feff}');
    }
    for (i, e) in events.iter().enumerate() {
        if framing & 8 != 0 && i % 3 == 0 {
            s.push_str(&format!(": ping 東京{end}"));
        }
        if p == "anthropic" || framing & 16 != 0 {
            let name = e.payload.get("type").and_then(Json::as_str).unwrap_or("message");
            s.push_str(&format!("event: {name}{end}"));
        }
        if framing & 32 != 0 && e.raw.is_none() {
            // Multi-line data: the pretty-printed JSON, one data line per line, joined with \n.
            for line in serde_json::to_string_pretty(&e.payload).unwrap().lines() {
                s.push_str(&format!("data:{line}{end}"));
            }
        } else {
            s.push_str(&format!("data: {}{end}", e.text()));
        }
        if framing & 64 != 0 {
            s.push_str(&format!("id: {i}{end}retry: 10{end}"));
        }
        s.push_str(end);
    }
    s.into_bytes()
}

fn texts(events: &[Ev]) -> Vec<String> {
    events.iter().map(Ev::text).collect()
}

fn arg_value() -> impl Strategy<Value = Json> {
    let text = prop_oneof![
        Just("東京".to_owned()),
        Just("😀👍🏽".to_owned()),
        Just("é\u{301}ü".to_owned()),
        Just("\"\\\n\t\u{0}".to_owned()),
        "\\PC{0,6}",
        "[a-z ]{0,6}",
    ];
    let leaf = prop_oneof![
        text.prop_map(Json::String),
        (-1000i64..1000).prop_map(|n| json!(n)),
        any::<bool>().prop_map(Json::Bool),
        Just(Json::Null),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map(
                prop_oneof![Just("a".to_owned()), Just("1 b".to_owned()), "\\PC{0,3}"],
                inner,
                0..3
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

fn spec() -> impl Strategy<Value = Spec> {
    let call = (
        prop::sample::select(vec!["read_file", "search", "get_weather", "write"]),
        prop::collection::btree_map(
            prop_oneof![Just("city".to_owned()), Just("都市".to_owned()), Just("a\t'\"\\b".to_owned()), "\\PC{0,4}"],
            arg_value(),
            0..4,
        ),
    )
        .prop_map(|(n, m)| (n.to_owned(), Json::Object(m.into_iter().collect())));
    (
        prop::collection::vec(call, 0..4),
        prop::collection::vec(prop::collection::vec(0.0..1.0f64, 0..6), 4),
        prop::collection::vec(0usize..8, 1..20),
        prop::collection::vec(prop_oneof![Just("東京は晴れ".to_owned()), Just("🌧️".to_owned()), "\\PC{0,5}"], 0..3),
        prop::collection::vec(any::<u8>(), 4),
    )
        .prop_map(|(calls, cuts, order, noise, shapes)| Spec { calls, cuts, order, noise, shapes })
}

const PROVIDER_NAMES: [&str; 4] = PROVIDERS;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any fragmenting, interleaving and framing of a valid stream gives the oracle's response,
    /// whole, split at random bytes, byte by byte, and as payloads.
    #[test]
    fn synthetic_streams_any_split_give_the_oracle(
        pi in 0usize..4,
        s in spec(),
        framing in any::<u8>(),
        cuts in prop::collection::vec(0.0..1.0f64, 0..30),
    ) {
        let p = PROVIDER_NAMES[pi];
        let (events, expected) = build(p, &s);
        let expected: Outcome = Ok(expected);
        prop_assert_eq!(&payloads(p, &texts(&events)), &expected);
        let sse = to_sse(p, &events, framing);
        prop_assert_eq!(&sse_whole(p, &sse), &expected);
        prop_assert_eq!(&sse_chunks(p, &cut(&sse, &cuts)), &expected);
        let bytewise: Vec<&[u8]> = sse.chunks(1).collect();
        prop_assert_eq!(&sse_chunks(p, &bytewise), &expected);
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations

#[derive(Clone, Debug)]
enum Mutation {
    Drop(prop::sample::Index),
    Duplicate(prop::sample::Index),
    Swap(prop::sample::Index, prop::sample::Index),
    Junk(prop::sample::Index, String),
    Value(prop::sample::Index, Json),
    CutPayload(prop::sample::Index, prop::sample::Index),
}

fn junk_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "\\PC{0,6}".prop_map(Json::String),
        prop::sample::select(vec!["message_start", "content_block_start", "response.created", "tool_use", "[DONE]"])
            .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map(
                prop_oneof![
                    prop::sample::select(vec![
                        "type",
                        "index",
                        "choices",
                        "delta",
                        "id",
                        "item",
                        "item_id",
                        "tool_calls",
                        "function",
                        "finish_reason",
                        "response",
                        "candidates",
                        "content",
                        "parts",
                        "functionCall",
                        "partialArgs",
                        "finishReason"
                    ])
                    .prop_map(str::to_owned),
                    "\\PC{0,4}",
                ],
                inner,
                0..4
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<prop::sample::Index>().prop_map(Mutation::Drop),
        any::<prop::sample::Index>().prop_map(Mutation::Duplicate),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (
            any::<prop::sample::Index>(),
            prop_oneof!["\\PC{0,12}", Just("[DONE]".to_owned()), Just("{".to_owned()), Just("".to_owned())]
        )
            .prop_map(|(a, b)| Mutation::Junk(a, b)),
        (any::<prop::sample::Index>(), junk_json()).prop_map(|(a, v)| Mutation::Value(a, v)),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(|(a, b)| Mutation::CutPayload(a, b)),
    ]
}

fn apply(list: &mut Vec<String>, m: &Mutation) {
    let len = list.len();
    match m {
        Mutation::Drop(i) if len > 0 => {
            list.remove(i.index(len));
        }
        Mutation::Duplicate(i) if len > 0 => {
            let at = i.index(len);
            list.insert(at, list[at].clone());
        }
        Mutation::Swap(a, b) if len > 0 => list.swap(a.index(len), b.index(len)),
        Mutation::Junk(i, text) => list.insert(i.index(len + 1), text.clone()),
        Mutation::Value(i, v) => list.insert(i.index(len + 1), v.to_string()),
        Mutation::CutPayload(i, at) if len > 0 => {
            let i = i.index(len);
            let chars: Vec<char> = list[i].chars().collect();
            list[i] = chars[..at.index(chars.len() + 1)].iter().collect();
        }
        _ => {}
    }
}

/// (callId, name) of each call in an outcome. Gemini's derived ids are positions
/// (`gemini:<responseId>:<n>`, n the call's place in the response): a dropped or repeated
/// whole `functionCall` part (Gemini gives no index to tell a repeat from a second call)
/// renumbers the calls after it, so a derived id is checked to be the call's place and compared
/// as `gemini:*`; ids Gemini gave are compared as they are.
fn call_names(o: &Outcome) -> Vec<(Json, Json)> {
    let Ok(v) = o else { return Vec::new() };
    let rid = v["responseId"].as_str().map(|r| format!("{r}:")).unwrap_or_default();
    let calls = v["calls"].as_array().unwrap().iter().enumerate();
    calls
        .map(|(n, c)| {
            let id = c["callId"].as_str().unwrap();
            if id.starts_with("gemini:") {
                assert_eq!(id, format!("gemini:{rid}{n}"), "a derived id is the call's place: {v}");
                return (json!("gemini:*"), c["name"].clone());
            }
            (c["callId"].clone(), c["name"].clone())
        })
        .collect()
}

/// Replay: two adapters fed the same payloads agree, `finish` twice agrees, previews agree.
fn replay(p: &str, list: &[String]) -> Outcome {
    let run = || {
        let mut a = adapter(p);
        for t in list {
            if a.push_payload(t).is_err() {
                break;
            }
        }
        let mut preview = String::new();
        write_json(&mut preview, &a.preview());
        (outcome(a.finish()), outcome(a.finish()), preview)
    };
    let (first, again, preview) = run();
    let (second, _, preview2) = run();
    assert_eq!(first, again, "finish twice");
    assert_eq!(first, second, "two adapters");
    assert_eq!(preview, preview2, "previews");
    assert_eq!(first, payloads(p, list), "assemble_payloads");
    first
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random damage never yields a call the valid stream did not have; replay is identical.
    #[test]
    fn mutated_streams_never_yield_a_new_call(pi in 0usize..4, s in spec(), ms in prop::collection::vec(mutation(), 1..5)) {
        let p = PROVIDER_NAMES[pi];
        let (events, expected) = build(p, &s);
        let valid: Outcome = Ok(expected);
        let mut list = texts(&events);
        for m in &ms {
            apply(&mut list, m);
        }
        let got = replay(p, &list);
        let known = call_names(&valid);
        for c in call_names(&got) {
            prop_assert!(known.contains(&c), "{:?} was not in the valid stream: {:?}", c, got);
        }
    }
}

fn is_err_with(o: &Outcome, codes: &[&str]) -> bool {
    matches!(o, Err((_, code, _)) if codes.contains(&code.as_str()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Truncation before the finish, a non-normal finish, a tool call's end dropped and cut
    /// arguments are each an error with its code: never a call.
    #[test]
    fn damaged_streams_are_errors_with_their_codes(
        pi in 0usize..4,
        s in spec(),
        keep in any::<prop::sample::Index>(),
        which in any::<prop::sample::Index>(),
        reason in 0usize..4,
        framing in any::<u8>(),
    ) {
        let p = PROVIDER_NAMES[pi];
        let (events, _) = build(p, &s);
        let finish = events.iter().position(|e| e.role == Role::Finish).unwrap();
        let check = |evs: &[Ev], codes: &[&str], what: &str| -> Result<(), TestCaseError> {
            let list = texts(evs);
            let got = replay(p, &list);
            prop_assert!(is_err_with(&got, codes), "{}: {:?} (expected {:?})", what, got, codes);
            let sse = to_sse(p, evs, framing);
            prop_assert_eq!(&sse_whole(p, &sse), &got, "{}: as SSE", what);
            Ok(())
        };

        // Truncated anywhere before the finish.
        check(&events[..keep.index(finish + 1)], &["INCOMPLETE_RESPONSE"], "truncated")?;

        // A finish that is not a normal end.
        let mut changed = events.clone();
        let f = &mut changed[finish].payload;
        match p {
            "openai-chat" => f["choices"][0]["finish_reason"] = json!(["length", "content_filter", "weird", "insufficient_system_resource"][reason]),
            "anthropic" => f["delta"]["stop_reason"] = json!(["max_tokens", "refusal", "pause_turn", "model_context_window_exceeded"][reason]),
            "gemini" if reason == 3 => *f = json!({"error": {"code": 500, "message": "x", "status": "INTERNAL"}}),
            "gemini" => f["candidates"][0]["finishReason"] = json!(["MAX_TOKENS", "SAFETY", "MALFORMED_FUNCTION_CALL"][reason]),
            _ => {
                let seq = f["sequence_number"].clone();
                *f = [
                    json!({"type": "response.incomplete", "response": {"id": "r", "incomplete_details": {"reason": "max_output_tokens"}}}),
                    json!({"type": "response.incomplete", "response": {"id": "r", "incomplete_details": {"reason": "content_filter"}}}),
                    json!({"type": "response.failed", "response": {"id": "r", "error": {"code": "server_error"}}}),
                    json!({"type": "error", "code": "server_error", "message": "x"}),
                ][reason].clone();
                f["sequence_number"] = seq;
            }
        }
        check(&changed, &["INCOMPLETE_RESPONSE"], "non-normal finish")?;

        if s.calls.is_empty() {
            return Ok(());
        }
        let i = which.index(s.calls.len());

        // A tool call's end dropped (OpenAI Chat has none: its finish ends every call; nor has
        // a whole Gemini functionCall). A Gemini call still streaming when the next is named is
        // STREAM_EVENT_INVALID.
        if let Some(at) = events.iter().position(|e| e.role == Role::End(i)) {
            let mut dropped = events.clone();
            dropped.remove(at);
            let codes: &[&str] =
                if p == "gemini" { &["INCOMPLETE_TOOL_CALL", "STREAM_EVENT_INVALID"] } else { &["INCOMPLETE_TOOL_CALL"] };
            check(&dropped, codes, "end dropped")?;
        }

        if p == "gemini" {
            let mut cut_args = events.clone();
            // Call i's part: the payload's first functionCall outside a thought.
            fn call_part(e: &mut Ev) -> &mut Json {
                let parts = e.payload["candidates"][0]["content"]["parts"].as_array_mut().unwrap();
                let is_call = |part: &&mut Json| part.get("thought").is_none() && part.get("functionCall").is_some();
                &mut parts.iter_mut().find(is_call).unwrap()["functionCall"]
            }
            let has_args = |e: &Ev| {
                let mut e = e.clone();
                matches!(e.role, Role::Start(j) | Role::Delta(j) | Role::End(j) if j == i) && {
                    let call = call_part(&mut e);
                    call["partialArgs"].is_array() || call["args"].is_object()
                }
            };
            let Some(last) = cut_args.iter().rposition(has_args) else { return Ok(()) };
            let call = call_part(&mut cut_args[last]);
            if call["args"].is_object() {
                // A whole call's args as the JSON text cut by one character: not an object.
                let text = call["args"].to_string();
                call["args"] = json!(text[..text.len() - 1]);
                check(&cut_args, &["STREAM_EVENT_INVALID"], "whole arguments cut")?;
            } else {
                // The last value still going on when the call ends (a string) or at all (others).
                let args = call["partialArgs"].as_array_mut().unwrap();
                args.last_mut().unwrap()["willContinue"] = json!(true);
                check(&cut_args, &["INCOMPLETE_TOOL_CALL", "STREAM_EVENT_INVALID"], "partial args cut")?;
            }
            return Ok(());
        }

        // The arguments cut by one character (a JSON object text minus its closing brace).
        let mut cut_args = events.clone();
        let last = cut_args.iter().rposition(|e| e.role == Role::Delta(i) && !delta_text(p, e).is_empty()).unwrap();
        let mut t: Vec<char> = delta_text(p, &cut_args[last]).chars().collect();
        t.pop();
        if t.is_empty() {
            cut_args.remove(last);
        } else {
            set_delta_text(p, &mut cut_args[last], t.into_iter().collect());
        }
        // Responses repeats the whole text: a mismatch is caught there...
        check(&cut_args, &["JSON_INVALID", "STREAM_EVENT_INVALID"], "arguments cut")?;
        if p == "openai-responses" {
            // ...and when the repeated texts are cut alike, the JSON itself is invalid.
            let full = s.calls[i].1.to_string();
            let short = &full[..full.len() - 1];
            for e in cut_args.iter_mut() {
                match e.role {
                    Role::ArgsDone(j) if j == i => e.payload["arguments"] = json!(short),
                    Role::End(j) if j == i => e.payload["item"]["arguments"] = json!(short),
                    _ => {}
                }
            }
            check(&cut_args, &["JSON_INVALID"], "arguments cut everywhere")?;
        }
    }
}

fn delta_text(p: &str, e: &Ev) -> String {
    let v = match p {
        "openai-chat" => &e.payload["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"],
        "anthropic" => &e.payload["delta"]["partial_json"],
        _ => &e.payload["delta"],
    };
    v.as_str().unwrap().to_owned()
}

fn set_delta_text(p: &str, e: &mut Ev, t: String) {
    match p {
        "openai-chat" => e.payload["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] = json!(t),
        "anthropic" => e.payload["delta"]["partial_json"] = json!(t),
        _ => e.payload["delta"] = json!(t),
    }
}

/// Recordings' payload lists, damaged at random: never a call the recording did not have.
#[test]
fn mutated_recordings_never_yield_a_new_call() {
    let Some(dir) = recordings() else { return };
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let mut lists = Vec::new();
    for p in PROVIDERS {
        for f in std::fs::read_dir(dir.join(p)).unwrap() {
            let f = f.unwrap().path();
            if f.to_string_lossy().ends_with(".chunks.txt") {
                let text = std::fs::read_to_string(&f).unwrap();
                lists.push((p, text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect::<Vec<_>>()));
            }
        }
    }
    lists.sort();
    runner
        .run(&(any::<prop::sample::Index>(), prop::collection::vec(mutation(), 1..4)), |(pick, ms)| {
            let (p, list) = &lists[pick.index(lists.len())];
            let known = call_names(&payloads(p, list));
            let mut damaged = list.clone();
            for m in &ms {
                apply(&mut damaged, m);
            }
            for c in call_names(&replay(p, &damaged)) {
                prop_assert!(known.contains(&c), "{:?}", c);
            }
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// Hostile input

fn sse_ish() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        prop::sample::select(vec![
            "data: ", "data:", "event: ", "event: message_start", ":", "\n", "\r", "\r\n", "\n\n", "[DONE]", "{", "}", "[", "]",
            "\"", ",", "\\", "\u{feff}", "\u{fffd}", "東", "😀", "id: 1", "retry: x",
            r#"{"type":"message_start","message":{"id":"m"}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#,
            r#"{"id":"r","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"{"type":"response.created","response":{"id":"r"}}"#,
            r#"{"type":"response.output_item.added","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}"#,
            r#"{"type":"response.output_item.done","item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}}"#,
            r#"{"type":"response.completed","response":{"id":"r"}}"#,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}],"responseId":"r"}"#,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}]}}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"t","thought":true}]}}]}"#,
            r#"{"usageMetadata":{"totalTokenCount":1}}"#,
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..6),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

fn host_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>().prop_map(|f| Value::Number(Number::from_f64(f))),
        any::<String>().prop_map(Value::String),
        prop::sample::select(vec!["message_start", "content_block_start", "response.created", "[DONE]", "{}", "{"])
            .prop_map(|s| Value::String(s.to_owned())),
        Just(Value::IllFormedString),
        Just(Value::NotJson("function".to_owned())),
        Just(Value::TooDeep { array: true }),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        prop::sample::select(vec![
                            "type", "index", "choices", "delta", "id", "message", "item", "response"
                        ])
                        .prop_map(str::to_owned),
                        any::<String>()
                    ],
                    inner
                ),
                0..4
            )
            .prop_map(Value::Object),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary SSE-ish bytes in any chunking: no panic, the first error is final, and the
    /// chunking does not change the outcome.
    #[test]
    fn arbitrary_sse_bytes_never_panic(pi in 0usize..4, bytes in sse_ish(), cuts in prop::collection::vec(0.0..1.0f64, 0..10)) {
        let p = PROVIDER_NAMES[pi];
        let whole = sse_whole(p, &bytes);
        let mut a = adapter(p);
        let mut first = None;
        for c in cut(&bytes, &cuts) {
            if let Err(e) = a.push_sse(c) {
                let e = (e.layer.as_str().to_owned(), e.code.as_str().to_owned(), e.path.clone());
                match &first {
                    None => first = Some(e),
                    Some(f) => prop_assert_eq!(f, &e, "the first error is final"),
                }
            }
        }
        let got = outcome(a.finish());
        if let Some(f) = first {
            prop_assert_eq!(&got, &Err(f));
        }
        prop_assert_eq!(got, whole);
    }

    /// Arbitrary payload texts and host values (lists of them, or anything else as the input),
    /// for every provider and an unknown one: no panic.
    #[test]
    fn arbitrary_events_never_panic(
        pi in 0usize..5,
        texts in prop::collection::vec(prop_oneof![any::<String>(), junk_json().prop_map(|j| j.to_string())], 0..6),
        values in prop::collection::vec(host_value(), 0..6),
        input in host_value(),
    ) {
        let p = ["openai-chat", "openai-responses", "anthropic", "gemini", "gemini-nope"][pi];
        if let Ok(mut a) = provider_stream::adapter(p, Options::default()) {
            for t in &texts {
                let _ = a.push_payload(t);
            }
            let _ = a.preview();
            let _ = a.finish();
        }
        let name = Value::String(p.to_owned());
        let list = Value::Array(values.clone());
        let _ = provider_stream::assemble(&&name, &&list, None, None);
        let _ = provider_stream::assemble(&&name, &&input, None, None);
        let _ = provider_stream::assemble(&&input, &&list, None, None);
        if let Ok(mut s) = ProviderStream::new::<&Value>(p, None) {
            for v in &values {
                let _ = s.push_host(&v);
                let _ = s.push_sse_host(&v);
            }
            let _ = s.preview();
            let _ = s.finish();
        }
    }
}
