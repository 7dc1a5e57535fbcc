//! The one JSON parser of the project.
//!
//! `Mode::Strict` is for model-produced text: exactly one RFC 8259 value with the I-JSON
//! restrictions (no duplicate names, no lone surrogates, valid UTF-8, finite numbers), no BOM,
//! no comments, no trailing content, with byte-size and nesting limits. Every error carries the
//! JSON Pointer of the value being read and the byte offset, line and column.
//!
//! `Mode::Host` reads the text the Python binding writes for a Python value. It is the same
//! grammar plus tokens for what a host can hold and JSON cannot (`undefined`, `NaN`,
//! `Infinity`, `-Infinity`, `!kind` for a value with no JSON form, `!![` / `!!{` for a container
//! the binding did not descend into, `!!large` for a value too large to encode), and it keeps lone surrogates as `Value::IllFormedString`
//! instead of failing. Host text is not judged here: rules judge the parts they read, exactly as
//! the JS binding reads a JS object in place, so both hosts reach the same verdict.
//!
//! The parser is iterative (an explicit stack), so nesting depth never touches the call stack.

use std::collections::BTreeSet;

use crate::error::{Code, ContractError, Position, Result};
use crate::limits::Limits;
use crate::value::{push_pointer, Number, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Host,
}

/// Objects this small find duplicates by scanning; larger ones keep an ordered set of names
/// (no hashing, so no hash flooding).
const LINEAR_DUPLICATE_SCAN: usize = 16;

pub fn parse(bytes: &[u8], mode: Mode, limits: &Limits) -> Result<Value> {
    run::<true>(bytes, mode, limits)
}

/// The verdict of `parse(bytes, Mode::Strict, limits)` without its value: `Ok` exactly when
/// `parse` accepts, else the very same error (code, path, message, position). It is the same
/// parser run with `BUILD = false`, so the rules exist once; it only skips what a verdict does
/// not need: no value is built, strings and numbers are not copied out of the text. Member
/// names are still kept (the duplicate-name rule and error paths need them).
///
/// Hosts that hold the text use it for `parseJson`: the text the core accepted is exactly one
/// I-JSON value, so the host's own parser gives the value the core would have sent back (see
/// docs/decisions.md, "Strict JSON: verdict in the core, value from the host").
pub fn check(bytes: &[u8], limits: &Limits) -> Result<()> {
    run::<false>(bytes, Mode::Strict, limits).map(drop)
}

/// `BUILD = false` is the verdict-only run of `check`: every value it returns is a placeholder.
fn run<const BUILD: bool>(bytes: &[u8], mode: Mode, limits: &Limits) -> Result<Value> {
    if mode == Mode::Strict && bytes.len() > limits.max_bytes {
        return Err(ContractError::new(
            Code::InputTooLarge,
            "",
            format!("JSON text is {} bytes, over the limit of {} bytes", bytes.len(), limits.max_bytes),
        )
        .at(Position::locate(bytes, limits.max_bytes)));
    }
    // Host text is written by our binding, which never nests deeper than the limit allows; the
    // ceiling only guards against text from elsewhere (and recursive drops of deep values).
    // Host text has no per-value limits either: rules judge the parts they read.
    let limits = match mode {
        Mode::Strict => *limits,
        Mode::Host => Limits { max_depth: crate::limits::MAX_DEPTH_CEILING + 1, ..*limits }.unbounded_values(),
    };
    let max_depth = limits.max_depth;
    let mut parser = Parser::<BUILD> { bytes, pos: 0, mode, max_depth, limits, stack: Vec::new() };
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(parser.error(Code::JsonInvalid, "JSON text must not start with a byte order mark"));
    }
    parser.skip_whitespace();
    if bytes[parser.pos..].starts_with(b"```") {
        return Err(parser.error(Code::JsonInvalid, "JSON text must not be wrapped in a markdown fence"));
    }
    let value = parser.parse_document()?;
    parser.skip_whitespace();
    if parser.pos < bytes.len() {
        let what = describe_trailing(&bytes[parser.pos..]);
        return Err(parser.error_at_root(Code::JsonTrailingContent, format!("unexpected {what} after the JSON value")));
    }
    Ok(value)
}

fn describe_trailing(rest: &[u8]) -> &'static str {
    if rest.starts_with(b"```") {
        "markdown fence"
    } else if rest.starts_with(b"//") || rest.starts_with(b"/*") {
        "comment"
    } else {
        "content"
    }
}

enum Frame {
    /// `len` counts the elements read so far (the next one's pointer, the length limit);
    /// `items` holds them when building.
    Array { items: Vec<Value>, len: usize },
    /// Names are kept in both runs (duplicates, error paths); a verdict-only run stores a
    /// placeholder value beside each.
    Object { entries: Vec<(String, Value)>, key: Option<String>, ill_formed_key: bool, names: Option<BTreeSet<String>> },
}

struct Parser<'a, const BUILD: bool> {
    bytes: &'a [u8],
    pos: usize,
    mode: Mode,
    max_depth: usize,
    limits: Limits,
    stack: Vec<Frame>,
}

impl<'a, const BUILD: bool> Parser<'a, BUILD> {
    fn parse_document(&mut self) -> Result<Value> {
        self.skip_whitespace();
        let mut value = self.parse_value()?;
        loop {
            let Some(frame) = self.stack.last_mut() else {
                return Ok(value);
            };
            match frame {
                Frame::Array { items, len } => {
                    if BUILD {
                        items.push(value);
                    }
                    *len += 1;
                    let count = *len;
                    self.skip_whitespace();
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_whitespace();
                            if count >= self.limits.max_array_length {
                                return Err(self.container_too_large(format!(
                                    "an array has more than maxArrayLength ({}) elements",
                                    self.limits.max_array_length
                                )));
                            }
                            value = self.parse_value()?;
                        }
                        Some(b']') => {
                            self.pos += 1;
                            value = match self.stack.pop() {
                                Some(Frame::Array { items, .. }) => Value::Array(items),
                                _ => return Err(self.error(Code::JsonInvalid, "parser state lost")),
                            };
                        }
                        _ => return Err(self.unexpected("',' or ']' in array")),
                    }
                }
                Frame::Object { entries, key, ill_formed_key, .. } => {
                    let name = key.take().unwrap_or_default();
                    if std::mem::take(ill_formed_key) {
                        entries.push((name, Value::IllFormedKey));
                    } else {
                        entries.push((name, value));
                    }
                    let count = entries.len();
                    self.skip_whitespace();
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_whitespace();
                            if count >= self.limits.max_object_members {
                                return Err(self.container_too_large(format!(
                                    "an object has more than maxObjectMembers ({}) members",
                                    self.limits.max_object_members
                                )));
                            }
                            self.parse_member_name()?;
                            value = self.parse_value()?;
                        }
                        Some(b'}') => {
                            self.pos += 1;
                            value = match self.stack.pop() {
                                Some(Frame::Object { entries, .. }) if BUILD => Value::Object(entries),
                                Some(Frame::Object { .. }) => Value::Null,
                                _ => return Err(self.error(Code::JsonInvalid, "parser state lost")),
                            };
                        }
                        _ => return Err(self.unexpected("',' or '}' in object")),
                    }
                }
            }
        }
    }

    /// Parses a scalar, or opens a container and returns its value if it is empty. For a
    /// non-empty container it pushes a frame and parses the first element (recursion depth is
    /// bounded: a container always pushes before descending).
    fn parse_value(&mut self) -> Result<Value> {
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error(Code::JsonInvalid, "unexpected end of input, expected a value"));
            };
            match byte {
                b'{' | b'[' => {
                    if self.stack.len() + 1 > self.max_depth {
                        return Err(self.error(
                            Code::InputTooDeep,
                            format!("nesting is deeper than the limit of {}", self.max_depth),
                        ));
                    }
                    self.pos += 1;
                    self.skip_whitespace();
                    if byte == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            return Ok(Value::Array(Vec::new()));
                        }
                        self.stack.push(Frame::Array { items: Vec::new(), len: 0 });
                    } else {
                        if self.peek() == Some(b'}') {
                            self.pos += 1;
                            return Ok(Value::Object(Vec::new()));
                        }
                        self.stack.push(Frame::Object {
                            entries: Vec::new(),
                            key: None,
                            ill_formed_key: false,
                            names: None,
                        });
                        self.parse_member_name()?;
                    }
                    // Loop to parse the first element of the container just opened.
                }
                b'"' => {
                    return Ok(match self.parse_string(BUILD)? {
                        Some(s) if BUILD => Value::String(s),
                        Some(_) => Value::Null,
                        None => Value::IllFormedString,
                    })
                }
                b't' => return self.literal(b"true", Value::Bool(true)),
                b'f' => return self.literal(b"false", Value::Bool(false)),
                b'n' => return self.literal(b"null", Value::Null),
                b'-' | b'0'..=b'9' => return self.parse_number(),
                _ if self.mode == Mode::Host => return self.parse_host_token(),
                _ => return Err(self.unexpected("a JSON value")),
            }
        }
    }

    /// Reads `"name" :` into the top object frame, rejecting duplicate names.
    fn parse_member_name(&mut self) -> Result<()> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a string for an object member name"));
        }
        let start = self.pos;
        let Some(name) = self.parse_string(true)? else {
            // Host mode only: a key that is not valid Unicode. The entry becomes a marker so
            // that a rule reading the keys fails exactly as the JS binding does.
            if let Some(Frame::Object { key, ill_formed_key, .. }) = self.stack.last_mut() {
                *key = Some(String::new());
                *ill_formed_key = true;
            }
            self.expect_colon()?;
            self.skip_whitespace();
            return Ok(());
        };
        let duplicate = match self.stack.last_mut() {
            Some(Frame::Object { entries, names, .. }) => match names {
                Some(set) => !set.insert(name.clone()),
                None => {
                    let found = entries.iter().any(|(k, _)| *k == name);
                    if entries.len() >= LINEAR_DUPLICATE_SCAN {
                        *names = Some(entries.iter().map(|(k, _)| k.clone()).chain([name.clone()]).collect());
                    }
                    found
                }
            },
            _ => false,
        };
        if duplicate && self.mode == Mode::Strict {
            let mut err = self.error(Code::JsonDuplicateKey, format!("duplicate object member name {name:?}"));
            push_pointer(&mut err.path, &name);
            err.position = Some(Position::locate(self.bytes, start));
            return Err(err);
        }
        if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
            *key = Some(name);
        }
        self.expect_colon()?;
        self.skip_whitespace();
        Ok(())
    }

    fn expect_colon(&mut self) -> Result<()> {
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("':' after an object member name"));
        }
        self.pos += 1;
        Ok(())
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    fn parse_host_token(&mut self) -> Result<Value> {
        let rest = &self.bytes[self.pos..];
        for (word, value) in [
            (&b"undefined"[..], Value::Undefined),
            (b"NaN", Value::Number(Number::from_f64(f64::NAN))),
            (b"Infinity", Value::Number(Number::from_f64(f64::INFINITY))),
            (b"-Infinity", Value::Number(Number::from_f64(f64::NEG_INFINITY))),
        ] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return Ok(value);
            }
        }
        // A container the binding did not descend into because it is deeper than the limit.
        // It stays a marker: only a rule that reads it reports INPUT_TOO_DEEP, as in JS.
        if rest.starts_with(b"!![") || rest.starts_with(b"!!{") {
            self.pos += 3;
            return Ok(Value::TooDeep { array: rest[2] == b'[' });
        }
        if rest.starts_with(b"!!large") {
            return Err(ContractError::new(Code::InputTooLarge, "", "the value is too large to encode"));
        }
        if rest.first() == Some(&b'!') {
            let len = rest[1..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
            if len > 0 {
                let kind = String::from_utf8_lossy(&rest[1..=len]).into_owned();
                self.pos += 1 + len;
                return Ok(Value::NotJson(kind));
            }
        }
        Err(self.unexpected("a host value"))
    }

    fn parse_number(&mut self) -> Result<Value> {
        let start = self.pos;
        if self.mode == Mode::Host && self.bytes[start..].starts_with(b"-Infinity") {
            return self.parse_host_token();
        }
        let b = self.bytes;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return Err(self.unexpected("a digit"));
            }
        }
        let int_digits = i - int_start;
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected("a digit after the decimal point"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        let has_exponent = matches!(b.get(i), Some(b'e' | b'E'));
        if has_exponent {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return Err(self.unexpected("a digit in the exponent"));
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        // Without an exponent, at most 308 integer digits is below 10^308 < f64::MAX, so the
        // number is finite: a verdict needs no conversion (the only rule on its value).
        if !BUILD && !has_exponent && int_digits <= 308 {
            self.pos = i;
            return Ok(Value::Null);
        }
        // The slice is ASCII digits and signs, so it is valid UTF-8.
        let text = std::str::from_utf8(&b[start..i]).unwrap_or("0");
        let value: f64 = text.parse().unwrap_or(f64::NAN);
        if !value.is_finite() {
            if self.mode == Mode::Strict {
                return Err(
                    self.error(Code::JsonInvalid, format!("number {text} is out of the range of a 64-bit float"))
                );
            }
            self.pos = i;
            return Ok(Value::Number(Number::from_f64(value)));
        }
        self.pos = i;
        if !BUILD {
            return Ok(Value::Null);
        }
        Ok(Value::Number(Number { value, text: Some(text.into()) }))
    }

    /// Parses a string starting at the opening quote. `None` (host mode only) means the string
    /// holds a lone surrogate. With `keep` false (a verdict-only run's string values) the
    /// string is checked exactly the same but not copied: `Some("")` stands for it.
    fn parse_string(&mut self, keep: bool) -> Result<Option<String>> {
        let b = self.bytes;
        let start = self.pos;
        self.pos += 1;
        let mut out: Option<String> = None;
        // Decoded bytes before the current run that were not kept (`keep` false).
        let mut skipped = 0usize;
        let mut ill_formed = false;
        let mut run = self.pos;
        loop {
            self.pos = skip_plain(b, self.pos);
            let Some(&byte) = b.get(self.pos) else {
                self.pos = start;
                return Err(self.error(Code::JsonInvalid, "unterminated string"));
            };
            match byte {
                b'"' => {
                    let tail = self.take_run(run, self.pos, &mut ill_formed)?;
                    if ill_formed {
                        self.pos += 1;
                        return Ok(None);
                    }
                    let len = out.as_ref().map_or(0, String::len) + skipped + tail.len();
                    if len > self.limits.max_string_bytes {
                        // The string's pointer (a member name: its object's), at its opening quote.
                        self.pos = start;
                        return Err(self.error(
                            Code::InputTooLarge,
                            format!(
                                "a string of {len} bytes is over maxStringBytes ({})",
                                self.limits.max_string_bytes
                            ),
                        ));
                    }
                    self.pos += 1;
                    if !keep {
                        return Ok(Some(String::new()));
                    }
                    return Ok(Some(match out {
                        Some(mut s) => {
                            s.push_str(tail);
                            s
                        }
                        None => tail.to_owned(),
                    }));
                }
                b'\\' => {
                    let piece = self.take_run(run, self.pos, &mut ill_formed)?;
                    self.pos += 1;
                    let escaped = self.parse_escape()?;
                    if keep {
                        let s = out.get_or_insert_with(String::new);
                        s.push_str(piece);
                        match escaped {
                            Some(c) => s.push(c),
                            None => ill_formed = true,
                        }
                    } else {
                        skipped += piece.len() + escaped.map_or(0, char::len_utf8);
                        ill_formed |= escaped.is_none();
                    }
                    run = self.pos;
                }
                // skip_plain stops only at a quote, a backslash or a control character.
                _ => {
                    return Err(self.error(Code::JsonInvalid, "control character in string must be escaped"));
                }
            }
        }
    }

    /// Validates the raw bytes `from..to` of a string as UTF-8.
    fn take_run(&mut self, from: usize, to: usize, ill_formed: &mut bool) -> Result<&'a str> {
        let bytes: &'a [u8] = self.bytes;
        match std::str::from_utf8(&bytes[from..to]) {
            Ok(s) => Ok(s),
            Err(e) => {
                let bad = from + e.valid_up_to();
                // WTF-8: a UTF-16 surrogate encoded on its own (ED A0..BF xx). Hosts send this
                // for strings holding lone surrogates.
                let surrogate = bytes.get(bad) == Some(&0xED)
                    && matches!(bytes.get(bad + 1), Some(0xA0..=0xBF))
                    && matches!(bytes.get(bad + 2), Some(0x80..=0xBF));
                if surrogate && self.mode == Mode::Host {
                    if is_wtf8(&bytes[from..to]) {
                        *ill_formed = true;
                        return Ok("");
                    }
                }
                self.pos = bad;
                if surrogate {
                    Err(self.error(Code::StringLoneSurrogate, "string contains a lone UTF-16 surrogate"))
                } else {
                    Err(self.error(Code::JsonInvalid, "invalid UTF-8"))
                }
            }
        }
    }

    /// After a backslash. Returns `None` for a lone surrogate escape in host mode.
    fn parse_escape(&mut self) -> Result<Option<char>> {
        let Some(&e) = self.bytes.get(self.pos) else {
            return Err(self.error(Code::JsonInvalid, "unterminated escape"));
        };
        self.pos += 1;
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let escape_start = self.pos - 2;
                let first = self.hex4()?;
                let unit = match first {
                    0xD800..=0xDBFF => {
                        if self.bytes[self.pos..].starts_with(b"\\u") {
                            let save = self.pos;
                            self.pos += 2;
                            let second = self.hex4()?;
                            if (0xDC00..=0xDFFF).contains(&second) {
                                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                            } else {
                                self.pos = save;
                                return self.lone_surrogate(escape_start);
                            }
                        } else {
                            return self.lone_surrogate(escape_start);
                        }
                    }
                    0xDC00..=0xDFFF => return self.lone_surrogate(escape_start),
                    unit => unit,
                };
                // Every non-surrogate code point below 0x110000 is a char.
                char::from_u32(unit).unwrap_or('\u{FFFD}')
            }
            _ => {
                self.pos -= 1;
                return Err(self.error(Code::JsonInvalid, "invalid escape in string"));
            }
        };
        Ok(Some(c))
    }

    fn lone_surrogate(&mut self, at: usize) -> Result<Option<char>> {
        if self.mode == Mode::Host {
            return Ok(None);
        }
        self.pos = at;
        Err(self.error(Code::StringLoneSurrogate, "string contains a lone UTF-16 surrogate escape"))
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.bytes.get(self.pos) {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.error(Code::JsonInvalid, "invalid \\u escape, expected 4 hex digits")),
            };
            n = n * 16 + d as u32;
            self.pos += 1;
        }
        Ok(n)
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// JSON Pointer of the value being read, from the open frames.
    fn current_path(&self) -> String {
        let mut path = String::new();
        for frame in &self.stack {
            match frame {
                Frame::Array { len, .. } => {
                    path.push('/');
                    path.push_str(&len.to_string());
                }
                Frame::Object { key: Some(key), .. } => push_pointer(&mut path, key),
                Frame::Object { key: None, .. } => {}
            }
        }
        path
    }

    /// JSON Pointer of the innermost open container (the array or object itself).
    fn container_path(&self) -> String {
        let mut path = String::new();
        let open = self.stack.len().saturating_sub(1);
        for frame in &self.stack[..open] {
            match frame {
                Frame::Array { len, .. } => {
                    path.push('/');
                    path.push_str(&len.to_string());
                }
                Frame::Object { key: Some(key), .. } => push_pointer(&mut path, key),
                Frame::Object { key: None, .. } => {}
            }
        }
        path
    }

    /// An array or object with one element too many: its own pointer, at the extra element.
    fn container_too_large(&self, message: String) -> ContractError {
        ContractError::new(Code::InputTooLarge, self.container_path(), message)
            .at(Position::locate(self.bytes, self.pos))
    }

    fn error(&self, code: Code, message: impl Into<String>) -> ContractError {
        ContractError::new(code, self.current_path(), message).at(Position::locate(self.bytes, self.pos))
    }

    fn error_at_root(&self, code: Code, message: impl Into<String>) -> ContractError {
        ContractError::new(code, "", message).at(Position::locate(self.bytes, self.pos))
    }

    fn unexpected(&self, expected: &str) -> ContractError {
        let found = match self.peek() {
            None => "end of input".to_owned(),
            Some(b) if b.is_ascii_graphic() => format!("'{}'", b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        };
        self.error(Code::JsonInvalid, format!("expected {expected}, found {found}"))
    }
}

/// The index of the first byte at or after `i` that ends a run of plain string bytes: a
/// quote, a backslash or a control character (below 0x20); `bytes.len()` if none. Strings are
/// most of a JSON text, so the run is scanned eight bytes at a time: a word is skipped when
/// none of its bytes equals '"' or '\\' and none is below 0x20 (the classic "has zero byte" /
/// "has byte less than" tests, exact for whether such a byte exists), and the word holding
/// one is scanned bytewise.
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let quote = w ^ (ONES * b'"' as u64);
        let backslash = w ^ (ONES * b'\\' as u64);
        let found = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (w.wrapping_sub(ONES * 0x20) & !w);
        if found & HIGHS != 0 {
            break;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if matches!(b, b'"' | b'\\' | 0x00..=0x1f) {
            break;
        }
        i += 1;
    }
    i
}

/// True when `bytes` is valid UTF-8 except for encoded surrogates (generalised UTF-8).
fn is_wtf8(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(_) => return true,
            Err(e) => {
                let bad = e.valid_up_to();
                let is_surrogate = rest.get(bad) == Some(&0xED)
                    && matches!(rest.get(bad + 1), Some(0xA0..=0xBF))
                    && matches!(rest.get(bad + 2), Some(0x80..=0xBF));
                if !is_surrogate {
                    return false;
                }
                rest = &rest[bad + 3..];
            }
        }
    }
}
