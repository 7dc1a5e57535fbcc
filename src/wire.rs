//! Results and errors as values and as text, for hosts that receive one string per call
//! (Python through the component) and for the fixture runners.
//!
//! The text is JSON. `undefined` cannot be written in JSON, so it is written as `null` and its
//! JSON Pointers are listed under `"undefined"`; the host puts its own undefined back there.

use crate::error::ContractError;
use std::fmt::Write as _;

use crate::value::{push_pointer, write_json, Number, Value};

pub fn error_value(e: &ContractError) -> Value {
    let mut entries = vec![
        ("layer".to_owned(), Value::String(e.layer.as_str().into())),
        ("code".to_owned(), Value::String(e.code.as_str().into())),
        ("path".to_owned(), Value::String(e.path.clone())),
        ("message".to_owned(), Value::String(e.message.clone())),
        ("retryable".to_owned(), Value::Bool(e.retryable())),
    ];
    if let Some(p) = e.position {
        let n = |x: usize| Value::Number(Number::from_f64(x as f64));
        entries.push((
            "position".to_owned(),
            Value::Object(vec![
                ("offset".to_owned(), n(p.offset)),
                ("line".to_owned(), n(p.line)),
                ("column".to_owned(), n(p.column)),
            ]),
        ));
    }
    if !e.issues.is_empty() {
        let issues = e
            .issues
            .iter()
            .map(|i| {
                Value::Object(vec![
                    ("path".to_owned(), Value::String(i.path.clone())),
                    ("keyword".to_owned(), Value::String(i.keyword.clone())),
                    ("message".to_owned(), Value::String(i.message.clone())),
                ])
            })
            .collect();
        entries.push(("issues".to_owned(), Value::Array(issues)));
    }
    if e.truncated {
        entries.push(("truncated".to_owned(), Value::Bool(true)));
    }
    if let Some(names) = &e.available_tools {
        let names = names.iter().map(|n| Value::String(n.clone())).collect();
        entries.push(("availableTools".to_owned(), Value::Array(names)));
    }
    if let Some(a) = &e.proposal {
        let s = |x: &str| Value::String(x.to_owned());
        entries.push((
            "proposal".to_owned(),
            Value::Object(vec![
                ("type".to_owned(), s("request_approval")),
                ("requestId".to_owned(), s(&a.request_id)),
                ("capability".to_owned(), s(&a.capability)),
                ("resource".to_owned(), s(&a.resource)),
                ("reason".to_owned(), s(&a.reason)),
            ]),
        ));
    }
    Value::Object(entries)
}

/// `{ok: true, value}` / `{ok: false, error}`.
pub fn outcome_value(result: Result<Value, ContractError>) -> Value {
    match result {
        Ok(value) => Value::Object(vec![("ok".into(), Value::Bool(true)), ("value".into(), value)]),
        Err(e) => Value::Object(vec![("ok".into(), Value::Bool(false)), ("error".into(), error_value(&e))]),
    }
}

/// `{ok: true, value: [...]}` written item by item as `produce` hands them over, each dropped
/// once written, or `{ok: false, error}` when it fails (before any item: a failure after some is
/// not one of the producers here). A batch of reports is then never held as values all at once.
/// Items hold no `undefined`.
pub fn array_reply(produce: impl FnOnce(&mut dyn FnMut(Value)) -> Result<(), ContractError>) -> String {
    let mut out = String::from(r#"{"ok":true,"value":["#);
    let mut first = true;
    let result = produce(&mut |item| {
        if !first {
            out.push(',');
        }
        first = false;
        write_json(&mut out, &item);
    });
    match result {
        Ok(()) => {
            out.push_str("]}");
            out
        }
        Err(e) => to_text(&outcome_value(Err(e))),
    }
}

/// `{ok: true, value}`, the value written into the reply by `write` (JSON holding no
/// `undefined`), for a value the core would otherwise build only to write it.
pub fn written_reply(write: impl FnOnce(&mut String)) -> String {
    let mut out = String::from(r#"{"ok":true,"value":"#);
    write(&mut out);
    out.push('}');
    out
}

/// An admission's reply: `{ok: true, value, payloads}`, `payloads` holding for each decoded
/// payload, in order, the JSON Pointer of the plan entry it belongs to, with its canonical base64
/// text when `base64` (`[pointer, text]`; else the host is handed the bytes, in the same order).
/// The host puts each payload where its pointer says, knowing neither the plan's shape nor the
/// order of its lists. The decoded bytes are returned beside the reply.
pub fn admission_reply(result: Result<crate::acp::admission::Plan, ContractError>, base64: bool) -> (String, Vec<Vec<u8>>) {
    let plan = match result {
        Ok(plan) => plan,
        Err(e) => return (to_text(&outcome_value(Err(e))), Vec::new()),
    };
    let mut bytes = Vec::with_capacity(plan.attachments.len());
    let payloads = plan
        .attachments
        .into_iter()
        .map(|a| {
            bytes.push(a.bytes);
            match base64 {
                true => Value::Array(vec![Value::String(a.at), Value::String(a.base64)]),
                false => Value::String(a.at),
            }
        })
        .collect();
    let mut reply = outcome_value(Ok(plan.value));
    if let Value::Object(members) = &mut reply {
        members.push(("payloads".to_owned(), Value::Array(payloads)));
    }
    (to_text(&reply), bytes)
}

/// The reply of an operation whose value, when it succeeds, is the caller's own JSON text
/// (`parseJson`, `validateToolInputJson`): `{"ok":true}`, with no `value`, or the usual
/// `{ok: false, error}`. The host parses the text it sent: the core accepted it as exactly one
/// I-JSON value (valid UTF-8, no BOM, no duplicate names, no lone surrogates, finite numbers),
/// so the host's JSON parser gives the value the core would have written back, and the core
/// is spared writing it and the host decoding a reply as large as the text.
pub fn verdict_text(result: Result<(), ContractError>) -> String {
    match result {
        Ok(()) => r#"{"ok":true}"#.to_owned(),
        Err(e) => to_text(&outcome_value(Err(e))),
    }
}

/// A JSON-RPC classification (or frame) as a binding writes it: a batch's `reply`, the list of
/// its items' replies that are not null, in order, is written as `true`, and the host puts its
/// items' reply objects there (`linkBatchReply` in pkg/api.mjs, `_link_batch_reply` in
/// `_rpc.py`). Each reply is then one object the caller gets, not two equal ones: a megabyte of
/// short batch lines is 500,000 replies of two containers each (docs/decisions.md).
pub fn batch_reply_linked(value: Value) -> Value {
    let Value::Object(mut members) = value else { return value };
    let is_batch = members.iter().any(|(k, v)| k == "kind" && matches!(v, Value::String(s) if s == "batch"));
    if is_batch {
        for (key, value) in members.iter_mut() {
            if key == "reply" && matches!(value, Value::Array(_)) {
                *value = Value::Bool(true);
            }
        }
    }
    Value::Object(members)
}

/// Writes `value` as JSON, adding `"undefined": [pointers]` when `value` is an object holding
/// `Value::Undefined` anywhere.
pub fn to_text(value: &Value) -> String {
    let mut pointers = Vec::new();
    if contains_undefined(value) {
        collect_undefined(value, &mut String::new(), &mut pointers);
    }
    let mut out = String::with_capacity(256);
    if pointers.is_empty() {
        write_json(&mut out, value);
        return out;
    }
    let mut entries = match value {
        Value::Object(entries) => entries.clone(),
        other => vec![("value".to_owned(), other.clone())],
    };
    entries.push(("undefined".to_owned(), Value::Array(pointers.into_iter().map(Value::String).collect())));
    write_json(&mut out, &Value::Object(entries));
    out
}

fn contains_undefined(value: &Value) -> bool {
    match value {
        Value::Undefined => true,
        Value::Array(items) => items.iter().any(contains_undefined),
        Value::Object(entries) => entries.iter().any(|(_, v)| contains_undefined(v)),
        _ => false,
    }
}

fn collect_undefined(value: &Value, path: &mut String, out: &mut Vec<String>) {
    // One path buffer, grown and truncated in place: nothing is allocated unless found.
    match value {
        Value::Undefined => out.push(path.clone()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                let _ = write!(path, "/{i}");
                collect_undefined(item, path, out);
                path.truncate(len);
            }
        }
        Value::Object(entries) => {
            for (k, v) in entries {
                let len = path.len();
                push_pointer(path, k);
                collect_undefined(v, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

// --- Verdict replies ---------------------------------------------------------------------------
// A host that holds the values a result is made of (the text the core accepted, the JS values
// the reader captured) gets, on success, only the verdict: an index into the shapes table
// (`protocol::verdict`). Errors keep their whole shape.

/// A batch of outcomes: `{"ok":true,"value":[{ok: true, value} | {ok: false, error}, ...]}`, or
/// the batch's own error. `value` makes each successful item's value as it is written.
pub fn batch_reply<T>(
    result: Result<Vec<Result<T, ContractError>>, ContractError>,
    value: impl Fn(T) -> Value,
) -> String {
    let mut batch = BatchWriter::new();
    let result = result.map(|items| items.into_iter().for_each(|item| batch.outcome(item.map(&value))));
    batch.finish(result)
}

/// A batch reply (`{"ok":true,"value":[item, ...]}`, or the batch's own error) written item by
/// item as the items are made: no tree of the whole reply is
/// built, and no list of the items is kept (the `*_each` functions of `api` hand each item to
/// the writer). Built as one tree from a list, a batch at the default limits (65,536 failed
/// JSON Lines, or tool inputs) held 1-2 KB per item at once and took wasm memory past 64 MiB
/// (the Node fuzzer's 10^6 run); now the reply text is most of it. `undefined` in an item's
/// value is listed as `to_text` lists it, with the item's pointer.
pub struct BatchWriter {
    out: String,
    items: usize,
    undefined: Vec<String>,
}

impl Default for BatchWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl BatchWriter {
    pub fn new() -> Self {
        BatchWriter { out: String::from(r#"{"ok":true,"value":["#), items: 0, undefined: Vec::new() }
    }

    fn next(&mut self) {
        if self.items > 0 {
            self.out.push(',');
        }
        self.items += 1;
    }

    /// A verdict number, or the item's error.
    pub fn verdict(&mut self, item: Result<u32, ContractError>) {
        self.next();
        match item {
            Ok(v) => {
                let _ = write!(self.out, "{v}");
            }
            Err(e) => write_json(&mut self.out, &outcome_value(Err(e))),
        }
    }

    /// A plain value (a list's item, not an outcome), with no `undefined` in it.
    pub fn value(&mut self, item: &Value) {
        self.next();
        write_json(&mut self.out, item);
    }

    /// `{ok: true, value}` or `{ok: false, error}`.
    pub fn outcome(&mut self, item: Result<Value, ContractError>) {
        if let Ok(value) = &item {
            if contains_undefined(value) {
                collect_undefined(value, &mut format!("/value/{}/value", self.items), &mut self.undefined);
            }
        }
        self.next();
        write_json(&mut self.out, &outcome_value(item));
    }

    /// The reply: the items written, or the batch's own error (what was written is dropped).
    pub fn finish(mut self, result: Result<(), ContractError>) -> String {
        if let Err(e) = result {
            return to_text(&outcome_value(Err(e)));
        }
        self.out.push(']');
        if !self.undefined.is_empty() {
            self.out.push_str(",\"undefined\":");
            write_json(&mut self.out, &Value::Array(self.undefined.into_iter().map(Value::String).collect()));
        }
        self.out.push('}');
        self.out
    }
}

/// An NDJSON decoder's frames as a binding's reply, `{"ok":true,"value":[...]}`. The list holds
/// frame objects, rows and runs. A row is three items, `k, offset, text`, for the frame whose
/// members after `text`, `line` and `offset` are those of the reply's k-th object (0-based,
/// objects only counted); its `line` is the previous frame's plus one (every line is a frame,
/// so a reply's frames have consecutive numbers, and its first item is an object). A run is
/// one item, `[k, offset, text, count, stride]`: `count` rows of object k with the same text,
/// the first at `offset`, each next one `stride` bytes further. Rows are written for a short
/// line met before (the decoder gives it as a repeat, `rpc::ndjson::Line`) and for a frame
/// whose members are the previous object's (lines that differ only in what the host reads
/// from `text`, such as `[0]`, `[1]`, ...); rows of one line repeated are a run. A megabyte of
/// blank lines is a million frames: ~170 MB as objects, ~14 MB as rows, a few bytes as a run,
/// which the host expands (copying the shared members, so no two frames share an object). A
/// message is `true` (`Frame::rest_value`).
pub struct FrameWriter {
    batch: BatchWriter,
    objects: usize,
    /// The object written for each shape in this reply (`usize::MAX`: none yet).
    object_of: Vec<usize>,
    /// The last object's shared members (classification, ignored, has a message): a frame equal
    /// to them, ids written alike (`Classification::identical`), is a row, found without
    /// writing anything.
    last: Option<(crate::rpc::Classification, bool, bool)>,
    /// Rows not written yet, while they continue one run.
    run: Option<Run>,
}

struct Run {
    k: usize,
    offset: usize,
    text: String,
    count: usize,
    stride: usize,
}

impl Default for FrameWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameWriter {
    pub fn new() -> Self {
        FrameWriter { batch: BatchWriter::new(), objects: 0, object_of: Vec::new(), last: None, run: None }
    }

    pub fn line(&mut self, line: crate::rpc::ndjson::Line) {
        use crate::rpc::ndjson::{repeat_members, Line};
        let like_last = |frame: &crate::rpc::Frame, last: &Option<(crate::rpc::Classification, bool, bool)>| matches!(last, Some((c, i, m)) if *i == frame.ignored && *m == frame.message.is_some() && c.identical(&frame.classification));
        let (shape, k) = match line {
            Line::Repeat { shape, of, offset, line } => match self.object_of.get(shape as usize) {
                Some(&k) if k != usize::MAX => return self.row(k, offset, &of.text),
                _ if like_last(&of, &self.last) => {
                    self.row(self.objects - 1, offset, &of.text);
                    (Some(shape), self.objects - 1)
                }
                _ => {
                    let shared = (of.classification.clone(), of.ignored, of.message.is_some());
                    let members = repeat_members(&of, true);
                    (Some(shape), self.object(&of.text, line, offset, members, shared))
                }
            },
            Line::Frame(mut frame, shape) => {
                if like_last(&frame, &self.last) {
                    self.row(self.objects - 1, frame.offset, &frame.text);
                    (shape, self.objects - 1)
                } else {
                    let shared = (frame.classification.clone(), frame.ignored, frame.message.is_some());
                    let (text, line, offset) = (std::mem::take(&mut frame.text), frame.line, frame.offset);
                    (shape, self.object(&text, line, offset, frame.rest_value(true), shared))
                }
            }
        };
        if let Some(shape) = shape {
            let shape = shape as usize;
            if self.object_of.len() <= shape {
                self.object_of.resize(shape + 1, usize::MAX);
            }
            self.object_of[shape] = k;
        }
    }

    /// Writes a frame object; returns its index.
    fn object(
        &mut self,
        text: &str,
        line: usize,
        offset: usize,
        members: Value,
        shared: (crate::rpc::Classification, bool, bool),
    ) -> usize {
        self.flush_run();
        self.batch.next();
        let out = &mut self.batch.out;
        out.push_str("{\"text\":");
        crate::value::write_string(out, text);
        let _ = write!(out, ",\"line\":{line},\"offset\":{offset}");
        let Value::Object(members) = batch_reply_linked(members) else { unreachable!() };
        for (key, value) in &members {
            out.push(',');
            crate::value::write_string(out, key);
            out.push(':');
            write_json(out, value);
        }
        out.push('}');
        self.last = Some(shared);
        self.objects += 1;
        self.objects - 1
    }

    /// A row: it continues the current run (same object, same text, the run's stride), or
    /// ends it and starts one.
    fn row(&mut self, k: usize, offset: usize, text: &str) {
        if let Some(run) = &mut self.run {
            if run.k == k && run.text == text {
                if run.count == 1 && offset > run.offset {
                    run.stride = offset - run.offset;
                    run.count = 2;
                    return;
                }
                if offset == run.offset + run.count * run.stride {
                    run.count += 1;
                    return;
                }
            }
        }
        self.flush_run();
        self.run = Some(Run { k, offset, text: text.to_owned(), count: 1, stride: 0 });
    }

    fn flush_run(&mut self) {
        let Some(run) = self.run.take() else { return };
        self.batch.next();
        let out = &mut self.batch.out;
        if run.count == 1 {
            let _ = write!(out, "{},{},", run.k, run.offset);
            crate::value::write_string(out, &run.text);
        } else {
            let _ = write!(out, "[{},{},", run.k, run.offset);
            crate::value::write_string(out, &run.text);
            let _ = write!(out, ",{},{}]", run.count, run.stride);
        }
    }

    pub fn finish(mut self, result: Result<(), ContractError>) -> String {
        self.flush_run();
        self.batch.finish(result)
    }
}

#[cfg(test)]
mod tests {
    use super::FrameWriter;
    use crate::rpc::{Decoder, RpcOptions};

    fn reply(text: &str) -> String {
        let mut d = Decoder::new(RpcOptions::default()).lazy();
        let mut w = FrameWriter::new();
        d.push_lines(text.as_bytes(), &mut |line| w.line(line));
        w.finish(Ok(()))
    }

    #[test]
    fn repeats_and_frames_like_the_previous_object_are_rows() {
        let blank = r#"{"text":"","line":1,"offset":0,"kind":"parse_error","reply":null,"ignored":true,"code":"RPC_BLANK_LINE","path":"","reason":"a blank line is not a message"}"#;
        assert_eq!(reply("\n\r\n"), format!(r#"{{"ok":true,"value":[{blank},0,1,""]}}"#));
        // Rows of one line repeated at one stride are a run, `[k, offset, text, count, stride]`;
        // a CRLF line is one byte longer, so the line after it is off the stride and starts a run.
        assert_eq!(reply("\n\n\n\n\r\n\n"), format!(r#"{{"ok":true,"value":[{blank},[0,1,"",4,1],0,6,""]}}"#));
        assert_eq!(
            reply("\n\n\n\r\n\r\n\r\n"),
            format!(r#"{{"ok":true,"value":[{blank},[0,1,"",3,1],[0,5,"",2,2]]}}"#)
        );
        // `[1]` and `[2]` differ only in the message the host reads from the text; `x` does not.
        let out = reply("[1]\nx\n[2]\n[1]\n");
        let value = out.strip_prefix(r#"{"ok":true,"value":["#).unwrap();
        assert!(value.starts_with(r#"{"text":"[1]","line":1,"#), "{out}");
        assert!(value.contains(r#"{"text":"x","line":2,"offset":4,"#), "{out}");
        assert!(value.contains(r#"{"text":"[2]","line":3,"offset":6,"#), "{out}");
        assert!(value.ends_with(r#"},0,10,"[1]"]}"#), "{out}");
    }

    #[test]
    fn ids_equal_as_numbers_but_written_apart_are_objects_not_rows() {
        // A row takes the previous object's id: `-0` would become `0`, `1.0` would become `1`,
        // and Python would get the first of two integers that round to one double.
        for (a, b) in [("0", "-0"), ("1", "1.0"), ("1", "1e0"), ("12345678901234567890", "12345678901234567891")] {
            let request = |id: &str| format!(r#"{{"jsonrpc":"2.0","method":"a","id":{id}}}"#);
            let out = reply(&format!("{}\n{}\n[{}]\n[{}]\n", request(a), request(b), request(a), request(b)));
            assert_eq!(out.matches(r#"{"text":"#).count(), 4, "{out}");
            assert!(
                out.contains(&format!(r#""line":2,"offset":{},"kind":"request","id":{b},"#, request(a).len() + 1)),
                "{out}"
            );
            assert!(out.contains(&format!(r#""items":[{{"kind":"request","id":{b},"#)), "{out}");
        }
        // Ids written alike still make rows.
        let one = r#"{"jsonrpc":"2.0","method":"a","id":1.0}"#;
        assert_eq!(reply(&format!("{one}\n{one} \n")).matches(r#"{"text":"#).count(), 1);
    }

    #[test]
    fn a_batch_reply_is_written_as_true_for_the_host_to_link() {
        // Answered elements: the batch's reply is `true`; none answered: it stays null; a message
        // that is not a batch keeps its reply object.
        let out = reply("[1,{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]\n[{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]\n");
        assert!(out.contains(r#""kind":"batch","reply":true,"ignored":false,"items":[{"kind":"invalid_request","reply":{"jsonrpc":"2.0","id":null,"#), "{out}");
        assert!(out.contains(r#""kind":"batch","reply":null,"#), "{out}");
        let one = crate::rpc::classify_json(b"1", &RpcOptions::default()).into_value();
        assert_eq!(super::batch_reply_linked(one.clone()), one);
    }
}
