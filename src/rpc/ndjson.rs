//! An incremental NDJSON decoder for JSON-RPC over stdio, with no I/O: bytes in any chunking,
//! one classified frame per line out.
//!
//! Lines end at LF only; one CR right before the LF is dropped (a CRLF cut between two chunks
//! included); a CR anywhere else, U+2028 and U+2029 are payload. LF never occurs inside a UTF-8
//! sequence, so a character cut between chunks is simply joined. A final line without LF is
//! given by `end`. Every line is a frame: `{text, line, offset}` (its text without the line
//! end, 1-based number, byte offset of its first byte) and its classification
//! (`message::classify`). A malformed line (blank, not JSON, not a JSON-RPC message, over
//! `maxLineBytes`) is `ignored` with its reason by default, so the transport keeps frame sync
//! over a dirty stream; with `onMalformed: "reply"` it carries the specification's `-32700` /
//! `-32600` reply instead (a blank line is never answered, an invalid response cannot be).
//!
//! Memory: the decoder holds at most `maxLineBytes` bytes of the current line (a CR that may
//! end it is a flag, not a byte). A line growing past the bound is dropped as its bytes arrive
//! and counted; at its LF it is one frame (`RPC_MESSAGE_TOO_LARGE`) and the decoder is in sync
//! again. A lazy decoder (the bindings') also keeps short lines it met, with their frames
//! (`Line`), about 2 MiB at most. Work is linear in the bytes received.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::error::Code;
use crate::value::{Number, Value};

use super::message::{classify, Classification, Kind, Problem, Reply};
use super::options::{OnMalformed, RpcOptions};

#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub text: String,
    pub line: usize,
    pub offset: usize,
    pub classification: Classification,
    pub ignored: bool,
    /// The message (the line's JSON value) when the frame is not ignored.
    pub message: Option<Value>,
}

impl Frame {
    /// `{text, line, offset, kind, id?, method?, reply, ignored, code?, path?, reason?, items?,
    /// message?}`.
    pub fn into_value(mut self) -> Value {
        let n = |x: usize| Value::Number(Number::from_f64(x as f64));
        let mut out = vec![
            ("text".to_owned(), Value::String(std::mem::take(&mut self.text))),
            ("line".to_owned(), n(self.line)),
            ("offset".to_owned(), n(self.offset)),
        ];
        let Value::Object(rest) = self.rest_value(false) else { unreachable!() };
        out.extend(rest);
        Value::Object(out)
    }

    /// The members after `text`, `line` and `offset`: `{kind, id?, method?, reply, ignored,
    /// code?, path?, reason?, items?, message?}`, what lines of the same classification share
    /// (`wire::FrameWriter` writes a repeat as a row). For a binding's reply (`lazy`), a
    /// message is written as `true` (a message is an object or an array, never `true`) and the
    /// host parses `text` itself, which the core accepted as exactly one I-JSON value, so it
    /// gets the same value without the core writing it and the host decoding it twice (the
    /// `parseJson` approach).
    pub fn rest_value(self, lazy: bool) -> Value {
        shared_members(self.classification, self.ignored, self.message, lazy)
    }
}

fn shared_members(classification: Classification, ignored: bool, message: Option<Value>, lazy: bool) -> Value {
    let Value::Object(fields) = classification.into_value() else { unreachable!() };
    let mut out = Vec::with_capacity(fields.len() + 2);
    let mut fields = fields.into_iter();
    for (k, v) in fields.by_ref() {
        let reply = k == "reply";
        out.push((k, v));
        if reply {
            out.push(("ignored".to_owned(), Value::Bool(ignored)));
            break;
        }
    }
    out.extend(fields);
    if let Some(m) = message {
        out.push(("message".to_owned(), if lazy { Value::Bool(true) } else { m }));
    }
    Value::Object(out)
}

/// Lines of at most this many bytes are remembered by a lazy decoder (`Line::Repeat`), while
/// what they hold stays within `SHAPES_BYTES`: past that, lines are long or many enough that
/// reading each is not many times the work of receiving it.
const SHORT_LINE: usize = 128;
const SHAPES_BYTES: usize = 2 << 20;

/// What remembering a line holds, roughly: its bytes (twice: the key and the frame's text) and
/// its frame, a batch's frame holding a classification per element.
fn shape_bytes(frame: &Frame) -> usize {
    512 + 2 * frame.text.len() + 512 * frame.classification.items.as_ref().map_or(0, Vec::len)
}

/// A completed line as a lazy decoder gives it (`push_lines`): a frame, or a repeat of a short
/// line met before. A line's classification depends only on its bytes and the options (a line
/// over `maxLineBytes` is never remembered), so a repeat is not read again: its frame is the
/// first one's with its own `text`, `line` and `offset`. A binding writes repeats as rows
/// (`wire::FrameWriter`): a megabyte of short lines is a million frames.
// A line is handed to the sink as it completes, never stored: boxing the frame would cost an
// allocation per line for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Line {
    /// The frame, and its shape's number when its line is remembered (later lines with the same
    /// bytes are repeats of that number).
    Frame(Frame, Option<u32>),
    /// A repeat's text is its shape's (`of.text`): the same bytes, read the same way.
    Repeat { shape: u32, of: Rc<Frame>, line: usize, offset: usize },
}

impl Line {
    pub fn into_frame(self) -> Frame {
        match self {
            Line::Frame(frame, _) => frame,
            Line::Repeat { of, line, offset, .. } => Frame {
                text: of.text.clone(),
                line,
                offset,
                classification: of.classification.clone(),
                ignored: of.ignored,
                message: of.message.clone(),
            },
        }
    }
}

/// A repeat's frame as members after `text`, `line` and `offset` (see `Frame::rest_value`).
pub fn repeat_members(of: &Frame, lazy: bool) -> Value {
    shared_members(of.classification.clone(), of.ignored, of.message.clone(), lazy)
}

pub struct Decoder {
    options: RpcOptions,
    /// The current line's bytes (at most `options.max_bytes`).
    line: Vec<u8>,
    /// The current line's last byte is a CR, not yet in `line`: dropped if an LF follows.
    pending_cr: bool,
    /// The current line went over the bound: its bytes are counted, not held.
    discarding: bool,
    discarded: usize,
    /// Number and offset of the current line.
    line_no: usize,
    line_start: usize,
    /// Bytes received so far.
    received: usize,
    /// Frames for a binding: a valid line is checked and its envelope read without building
    /// its value, and its message is a marker the host fills from `text`
    /// (`Frame::rest_value`); and short lines are remembered by their bytes (`Line`).
    lazy: bool,
    shapes: Vec<Rc<Frame>>,
    shape_of: BTreeMap<Vec<u8>, u32>,
    shapes_bytes: usize,
}

impl Decoder {
    /// A line's classification and message (lazy: its marker).
    fn read(&self, bytes: &[u8]) -> (Classification, Option<Value>) {
        let limits = self.options.limits();
        if self.lazy {
            match crate::json::check(bytes, &limits) {
                Ok(()) => {
                    if let Some(envelope) = super::shallow::envelope(bytes) {
                        return (classify(&envelope, &self.options), Some(Value::Bool(true)));
                    }
                }
                Err(e) => return (Classification::from_parse_error(&e), None),
            }
        }
        match crate::json::parse(bytes, crate::json::Mode::Strict, &limits) {
            Ok(value) => (classify(&value, &self.options), Some(value)),
            Err(e) => (Classification::from_parse_error(&e), None),
        }
    }

    pub fn new(options: RpcOptions) -> Decoder {
        Decoder {
            options,
            line: Vec::new(),
            pending_cr: false,
            discarding: false,
            discarded: 0,
            line_no: 1,
            line_start: 0,
            received: 0,
            lazy: false,
            shapes: Vec::new(),
            shape_of: BTreeMap::new(),
            shapes_bytes: 0,
        }
    }

    /// A decoder whose frames carry `Value::Bool(true)` for a message (see `lazy`).
    pub fn lazy(mut self) -> Decoder {
        self.lazy = true;
        self
    }

    /// Bytes of the current line held now (never over `maxLineBytes`).
    pub fn buffered(&self) -> usize {
        self.line.len()
    }

    /// Feeds one chunk; returns the frames of the lines it completed, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Frame> {
        let mut out = Vec::new();
        self.push_each(chunk, &mut |frame| out.push(frame));
        out
    }

    /// `push`, each frame handed to `sink` as its line completes, none kept.
    pub fn push_each(&mut self, chunk: &[u8], sink: &mut dyn FnMut(Frame)) {
        self.push_lines(chunk, &mut |line| sink(line.into_frame()));
    }

    /// `push` for a binding, each line handed to `sink` as it completes, none kept: a binding
    /// writes its reply line by line (a chunk of a million short lines is a million frames).
    pub fn push_lines(&mut self, chunk: &[u8], sink: &mut dyn FnMut(Line)) {
        let mut rest = chunk;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.append(&rest[..at]);
            self.received += at + 1;
            self.pending_cr = false; // the CR right before the LF is not content
            sink(self.finish_line());
            rest = &rest[at + 1..];
        }
        self.append(rest);
        self.received += rest.len();
    }

    /// The stream ended: the final line, if any bytes of it were received.
    pub fn end(&mut self) -> Vec<Frame> {
        self.end_line().map(Line::into_frame).into_iter().collect()
    }

    /// `end` for a binding.
    pub fn end_line(&mut self) -> Option<Line> {
        if self.pending_cr {
            self.pending_cr = false;
            self.add(b"\r");
        }
        if self.line.is_empty() && !self.discarding {
            return None;
        }
        Some(self.finish_line())
    }

    fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if std::mem::take(&mut self.pending_cr) {
            self.add(b"\r");
        }
        match bytes.split_last() {
            Some((b'\r', body)) => {
                self.add(body);
                self.pending_cr = true;
            }
            _ => self.add(bytes),
        }
    }

    fn add(&mut self, bytes: &[u8]) {
        if self.discarding {
            self.discarded += bytes.len();
        } else if self.line.len() + bytes.len() > self.options.max_bytes {
            self.discarding = true;
            self.discarded = self.line.len() + bytes.len();
            self.line = Vec::new();
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn finish_line(&mut self) -> Line {
        let (line_no, offset) = (self.line_no, self.line_start);
        self.line_no += 1;
        self.line_start = self.received;
        let reply_mode = self.options.on_malformed == OnMalformed::Reply;
        if std::mem::take(&mut self.discarding) {
            let len = std::mem::take(&mut self.discarded);
            let problem = Problem {
                code: Code::RpcMessageTooLarge,
                path: String::new(),
                reason: format!("the line is {len} bytes, over maxLineBytes ({})", self.options.max_bytes),
            };
            let reply = reply_mode.then_some(Reply::InvalidRequest);
            let ignored = reply.is_none();
            let classification = Classification {
                kind: Kind::InvalidRequest,
                id: None,
                method: None,
                reply,
                problem: Some(problem),
                items: None,
            };
            let frame = Frame { text: String::new(), line: line_no, offset, classification, ignored, message: None };
            return Line::Frame(frame, None);
        }
        let remembered = self.lazy && self.line.len() <= SHORT_LINE;
        if remembered {
            // A repeat allocates nothing: the line's buffer is kept for the next line.
            if let Some(&shape) = self.shape_of.get(self.line.as_slice()) {
                self.line.clear();
                let of = Rc::clone(&self.shapes[shape as usize]);
                return Line::Repeat { shape, of, line: line_no, offset };
            }
        }
        let bytes = std::mem::take(&mut self.line);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let frame = self.classify_line(&bytes, text, line_no, offset);
        let weight = shape_bytes(&frame);
        if !remembered || self.shapes_bytes + weight > SHAPES_BYTES {
            return Line::Frame(frame, None);
        }
        self.shapes_bytes += weight;
        let shape = self.shapes.len() as u32;
        self.shapes.push(Rc::new(frame.clone()));
        self.shape_of.insert(bytes, shape);
        Line::Frame(frame, Some(shape))
    }

    fn classify_line(&self, bytes: &[u8], text: String, line_no: usize, offset: usize) -> Frame {
        let reply_mode = self.options.on_malformed == OnMalformed::Reply;
        if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            let problem = Problem {
                code: Code::RpcBlankLine,
                path: String::new(),
                reason: "a blank line is not a message".to_owned(),
            };
            let classification = Classification {
                kind: Kind::ParseError,
                id: None,
                method: None,
                reply: None,
                problem: Some(problem),
                items: None,
            };
            return Frame { text, line: line_no, offset, classification, ignored: true, message: None };
        }
        let (mut classification, value) = self.read(bytes);
        if classification.kind.is_valid() {
            return Frame { text, line: line_no, offset, classification, ignored: false, message: value };
        }
        if !reply_mode {
            classification.reply = None;
        }
        let ignored = classification.reply.is_none();
        Frame { text, line: line_no, offset, classification, ignored, message: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]], max: usize) -> Vec<Frame> {
        let mut d = Decoder::new(RpcOptions { max_bytes: max, ..RpcOptions::default() });
        let mut out = Vec::new();
        for c in chunks {
            out.extend(d.push(c));
            assert!(d.buffered() <= max);
        }
        out.extend(d.end());
        out
    }

    #[test]
    fn every_split_gives_the_same_frames() {
        let text = "{\"jsonrpc\":\"2.0\",\"method\":\"a\u{2028}\u{e9}\"}\r\n\r\nnot json\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\u{1f600}\"}\r\r\n[1]".as_bytes();
        let whole = decode(&[text], 1 << 20);
        assert_eq!(whole.len(), 5);
        assert_eq!(whole[0].classification.kind, Kind::Notification);
        assert_eq!(whole[0].classification.method.as_deref(), Some("a\u{2028}\u{e9}"));
        assert_eq!(whole[3].text, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\u{1f600}\"}\r");
        for a in 0..=text.len() {
            for b in a..=text.len() {
                assert_eq!(decode(&[&text[..a], &text[a..b], &text[b..]], 1 << 20), whole, "split at {a}, {b}");
            }
        }
    }

    #[test]
    fn an_over_long_line_is_one_frame_and_is_never_held() {
        let text = b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n0123456789abcdef\r\n[]\n";
        for cut in 0..=text.len() {
            let frames = decode(&[&text[..cut], &text[cut..]], 12);
            let kinds: Vec<_> = frames.iter().map(|f| f.classification.problem.as_ref().map(|p| p.code)).collect();
            assert_eq!(
                kinds,
                vec![Some(Code::RpcMessageTooLarge), Some(Code::RpcMessageTooLarge), Some(Code::RpcInvalidRequest)]
            );
            assert_eq!(frames[1].offset, 31);
            assert_eq!(frames[2].line, 3);
        }
    }
}
