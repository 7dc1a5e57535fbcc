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

use std::borrow::Cow;
use std::collections::BTreeSet;

use crate::error::{Code, ContractError, Position, Result};
use crate::input::limits::Limits;
use crate::value::{push_pointer, Number, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Host,
}

/// Objects this small find duplicates by scanning; larger ones keep an ordered set of names
/// (no hashing, so no hash flooding: a hostile object costs O(log n) comparisons per name).
const LINEAR_DUPLICATE_SCAN: usize = 16;

pub fn parse(bytes: &[u8], mode: Mode, limits: &Limits) -> Result<Value> {
    run::<true, NoSink>(bytes, mode, limits, NoSink)
}

/// The verdict of `parse(bytes, Mode::Strict, limits)` without its value: `Ok` exactly when
/// `parse` accepts, else the very same error (code, path, message, position). It is the same
/// parser run with `BUILD = false`, so the rules exist once; it only skips what a verdict does
/// not need: no value is built, strings and numbers are not copied out of the text. Member
/// names are still kept (the duplicate-name rule and error paths need them), as slices of the
/// text unless they hold escapes.
///
/// Hosts that hold the text use it for `parseJson`: the text the core accepted is exactly one
/// I-JSON value, so the host's own parser gives the value the core would have sent back (see
/// docs/decisions.md, "Strict JSON: verdict in the core, value from the host").
pub fn check(bytes: &[u8], limits: &Limits) -> Result<()> {
    run::<false, NoSink>(bytes, Mode::Strict, limits, NoSink).map(drop)
}

/// `check`, reporting what it reads to `sink` as it goes (a schema evaluated while the text is
/// read, with no tree built: `tools::schema`). The verdict is `check`'s, whatever the sink does;
/// the sink sees the values of a text that may still turn out invalid further on.
pub fn check_with<S: Sink>(bytes: &[u8], limits: &Limits, sink: &mut S) -> Result<()> {
    run::<false, &mut S>(bytes, Mode::Strict, limits, sink).map(drop)
}

/// `parse`'s verdict with only the top of its value: containers opened `levels` deep or deeper
/// (the root is at depth 0) stand as `Value::TooDeep` of their kind, and nothing under them is
/// built. `Ok` exactly when `parse` accepts, else the very same error: it is `check` with a sink
/// that builds the upper levels. For rules that read only the kind of a value below those levels
/// (an action's `input`, whose text the host already holds): most of a parse's time is building
/// strings and containers.
pub fn parse_levels(bytes: &[u8], limits: &Limits, levels: usize) -> Result<Value> {
    let mut top = Levels { levels, open: Vec::new(), key: String::new(), hidden: 0, root: Value::Null };
    check_with(bytes, limits, &mut top)?;
    Ok(top.root)
}

/// The sink of `parse_levels`.
struct Levels {
    levels: usize,
    /// The containers being built, outermost first, each with the member name it will go under.
    open: Vec<(Value, String)>,
    /// The name of the member whose value comes next.
    key: String,
    /// How many containers are open below the built ones.
    hidden: usize,
    root: Value,
}

impl Levels {
    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            None => self.root = value,
            Some((Value::Array(items), _)) => items.push(value),
            Some((Value::Object(entries), _)) => entries.push((std::mem::take(&mut self.key), value)),
            Some(_) => {}
        }
    }
}

impl Sink for Levels {
    fn wants_text(&mut self) -> bool {
        self.hidden == 0
    }

    fn open(&mut self, array: bool) {
        if self.hidden > 0 || self.open.len() >= self.levels {
            if self.hidden == 0 {
                self.put(Value::TooDeep { array });
            }
            self.hidden += 1;
        } else {
            let container = if array { Value::Array(Vec::new()) } else { Value::Object(Vec::new()) };
            let key = std::mem::take(&mut self.key);
            self.open.push((container, key));
        }
    }

    fn close(&mut self) {
        if self.hidden > 0 {
            self.hidden -= 1;
        } else if let Some((container, key)) = self.open.pop() {
            self.key = key;
            self.put(container);
        }
    }

    fn name(&mut self, name: &[u8]) {
        if self.hidden == 0 {
            self.key = into_text(Cow::Borrowed(name));
        }
    }

    fn scalar(&mut self, value: Scalar<'_>) {
        if self.hidden > 0 {
            return;
        }
        self.put(match value {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Number(text) => {
                // JSON number grammar: ASCII, and finite (the parser checked).
                let text = std::str::from_utf8(text).unwrap_or("0");
                Value::Number(Number { value: text.parse().unwrap_or(f64::NAN), text: Some(text.into()) })
            }
            Scalar::String(s) => Value::String(s.to_owned()),
        });
    }
}

/// One scalar read by a verdict-only run.
#[derive(Clone, Copy, Debug)]
pub enum Scalar<'t> {
    Null,
    Bool(bool),
    /// The number's text (JSON grammar, so ASCII; finite).
    Number(&'t [u8]),
    /// The decoded string (valid UTF-8) when the sink asked for it (`Sink::wants_text`), else
    /// empty.
    String(&'t str),
}

/// Events of a verdict-only run, in document order: containers opened and closed, member names
/// (after the duplicate check) and scalars. A value's events come before the parser looks past
/// it, so an error later in the text still wins.
pub trait Sink {
    /// Whether the next string value is wanted decoded (`Scalar::String`); asked just before it.
    fn wants_text(&mut self) -> bool;
    fn open(&mut self, array: bool);
    fn close(&mut self);
    fn name(&mut self, name: &[u8]);
    fn scalar(&mut self, value: Scalar<'_>);
}

/// The sink of `check`: nothing is reported.
pub struct NoSink;

impl Sink for NoSink {
    #[inline(always)]
    fn wants_text(&mut self) -> bool {
        false
    }
    #[inline(always)]
    fn open(&mut self, _: bool) {}
    #[inline(always)]
    fn close(&mut self) {}
    #[inline(always)]
    fn name(&mut self, _: &[u8]) {}
    #[inline(always)]
    fn scalar(&mut self, _: Scalar<'_>) {}
}

impl<S: Sink> Sink for &mut S {
    #[inline(always)]
    fn wants_text(&mut self) -> bool {
        (**self).wants_text()
    }
    #[inline(always)]
    fn open(&mut self, array: bool) {
        (**self).open(array)
    }
    #[inline(always)]
    fn close(&mut self) {
        (**self).close()
    }
    #[inline(always)]
    fn name(&mut self, name: &[u8]) {
        (**self).name(name)
    }
    #[inline(always)]
    fn scalar(&mut self, value: Scalar<'_>) {
        (**self).scalar(value)
    }
}

/// The verdict on strict JSON text of `len` bytes over `max_bytes`, located from its first
/// bytes (`start` needs only `max_bytes` of them): a binding that measured the text's length
/// without copying it builds this error with the first `max_bytes + 1` bytes alone.
pub fn text_too_large(start: &[u8], len: usize, max_bytes: usize) -> ContractError {
    ContractError::new(
        Code::InputTooLarge,
        "",
        format!("JSON text is {len} bytes, over the limit of {max_bytes} bytes"),
    )
    .at(Position::locate(start, max_bytes))
}

/// `BUILD = false` is the verdict-only run of `check`: every value it returns is a placeholder.
fn run<const BUILD: bool, S: Sink>(bytes: &[u8], mode: Mode, limits: &Limits, sink: S) -> Result<Value> {
    if mode == Mode::Strict && bytes.len() > limits.max_bytes {
        return Err(text_too_large(bytes, bytes.len(), limits.max_bytes));
    }
    // Host text is written by our binding, which never nests deeper than the limit allows; the
    // ceiling only guards against text from elsewhere (and recursive drops of deep values).
    // Host text has no per-value limits either: rules judge the parts they read.
    let limits = match mode {
        Mode::Strict => *limits,
        Mode::Host => Limits { max_depth: crate::input::limits::MAX_DEPTH_CEILING + 1, ..*limits }.unbounded_values(),
    };
    let max_depth = limits.max_depth;
    let mut parser =
        Parser::<BUILD, S> { bytes, pos: 0, mode, max_depth, limits, stack: Vec::new(), names: Vec::new(), sink };
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

/// A member name's UTF-8 bytes (validated): a slice of the text unless it holds escapes. Bytes,
/// not `str`: an ASCII name is then never validated again.
type Name<'a> = Cow<'a, [u8]>;

/// A closed container's list at its exact length. A growing `Vec` starts at four slots, so
/// without this a one-item array held four values' room: input made of many small containers
/// (`[[[[]]]]` repeated) took ~100 bytes of tree per input byte instead of ~40.
fn exact<T>(mut items: Vec<T>) -> Vec<T> {
    items.shrink_to_fit();
    items
}

enum Frame<'a> {
    /// `len` counts the elements read so far (the next one's pointer, the length limit);
    /// `items` holds them when building.
    Array { items: Vec<Value>, len: usize },
    /// The object's member names are `Parser::names[names_start..]` (while it is the innermost
    /// open container); `key` indexes the name of the member being read, if any. `entries`
    /// holds the members when building, `key_text` the name being read. `set` holds the
    /// names of a strict object with more than `LINEAR_DUPLICATE_SCAN` members.
    Object {
        entries: Vec<(String, Value)>,
        key_text: String,
        names_start: usize,
        key: Option<usize>,
        ill_formed_key: bool,
        set: Option<BTreeSet<Name<'a>>>,
    },
}

struct Parser<'a, const BUILD: bool, S: Sink> {
    bytes: &'a [u8],
    pos: usize,
    mode: Mode,
    max_depth: usize,
    limits: Limits,
    stack: Vec<Frame<'a>>,
    /// The member names of every open object, outermost first (one stack reused across
    /// objects: an object's names are dropped when it closes).
    names: Vec<Name<'a>>,
    /// Told what a verdict-only run reads (`check_with`); `NoSink` otherwise.
    sink: S,
}

/// The text of a string `parse_string` returned (valid UTF-8 by then, so this never replaces
/// anything).
fn into_text(bytes: Cow<'_, [u8]>) -> String {
    match bytes {
        Cow::Borrowed(b) => {
            std::str::from_utf8(b).map_or_else(|_| String::from_utf8_lossy(b).into_owned(), str::to_owned)
        }
        Cow::Owned(v) => String::from_utf8(v).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

impl<'a, const BUILD: bool, S: Sink> Parser<'a, BUILD, S> {
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
                            self.sink.close();
                            value = match self.stack.pop() {
                                Some(Frame::Array { items, .. }) => Value::Array(exact(items)),
                                _ => return Err(self.error(Code::JsonInvalid, "parser state lost")),
                            };
                        }
                        _ => return Err(self.unexpected("',' or ']' in array")),
                    }
                }
                Frame::Object { entries, key_text, names_start, key, ill_formed_key, .. } => {
                    *key = None;
                    let ill_formed = std::mem::take(ill_formed_key);
                    if BUILD {
                        entries.push((std::mem::take(key_text), if ill_formed { Value::IllFormedKey } else { value }));
                    }
                    // The innermost object's names are the last ones: one per member read.
                    let count = self.names.len() - *names_start;
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
                            self.sink.close();
                            value = match self.stack.pop() {
                                Some(Frame::Object { entries, names_start, .. }) => {
                                    self.names.truncate(names_start);
                                    if BUILD {
                                        Value::Object(exact(entries))
                                    } else {
                                        Value::Null
                                    }
                                }
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
                    self.sink.open(byte == b'[');
                    if byte == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            self.sink.close();
                            return Ok(Value::Array(Vec::new()));
                        }
                        self.stack.push(Frame::Array { items: Vec::new(), len: 0 });
                    } else {
                        if self.peek() == Some(b'}') {
                            self.pos += 1;
                            self.sink.close();
                            return Ok(Value::Object(Vec::new()));
                        }
                        self.stack.push(Frame::Object {
                            entries: Vec::new(),
                            key_text: String::new(),
                            names_start: self.names.len(),
                            key: None,
                            ill_formed_key: false,
                            set: None,
                        });
                        self.parse_member_name()?;
                    }
                    // Loop to parse the first element of the container just opened.
                }
                b'"' => {
                    let keep = BUILD || self.sink.wants_text();
                    return Ok(match self.parse_string(keep)? {
                        Some(s) if BUILD => Value::String(into_text(s)),
                        Some(s) => {
                            // Valid UTF-8 by now (`parse_string`); empty when not kept.
                            self.sink.scalar(Scalar::String(std::str::from_utf8(&s).unwrap_or("")));
                            Value::Null
                        }
                        None => Value::IllFormedString,
                    });
                }
                b't' => {
                    self.sink.scalar(Scalar::Bool(true));
                    return self.literal(b"true", Value::Bool(true));
                }
                b'f' => {
                    self.sink.scalar(Scalar::Bool(false));
                    return self.literal(b"false", Value::Bool(false));
                }
                b'n' => {
                    self.sink.scalar(Scalar::Null);
                    return self.literal(b"null", Value::Null);
                }
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
            self.names.push(Cow::Borrowed(b""));
            let index = self.names.len() - 1;
            if let Some(Frame::Object { key, ill_formed_key, .. }) = self.stack.last_mut() {
                *key = Some(index);
                *ill_formed_key = true;
            }
            self.expect_colon()?;
            self.skip_whitespace();
            return Ok(());
        };
        // Host text is not judged (duplicates included): no need to look for them.
        if self.mode == Mode::Strict {
            let duplicate = match self.stack.last_mut() {
                Some(Frame::Object { names_start, set, .. }) => match set {
                    Some(set) => !set.insert(name.clone()),
                    None => {
                        let names = &self.names[*names_start..];
                        let found = names.iter().any(|n| n.len() == name.len() && *n == name);
                        if names.len() >= LINEAR_DUPLICATE_SCAN {
                            // Inserted one by one: collecting would sort first, one more
                            // copy of the standard sort in every core for 17 names.
                            let mut all = BTreeSet::new();
                            for n in names.iter().chain([&name]) {
                                all.insert(n.clone());
                            }
                            *set = Some(all);
                        }
                        found
                    }
                },
                _ => false,
            };
            if duplicate {
                let name = String::from_utf8_lossy(&name);
                let mut err = self.error(Code::JsonDuplicateKey, format!("duplicate object member name {name:?}"));
                push_pointer(&mut err.path, &name);
                err.position = Some(Position::locate(self.bytes, start));
                return Err(err);
            }
        }
        if let Some(Frame::Object { key, key_text, .. }) = self.stack.last_mut() {
            *key = Some(self.names.len());
            if BUILD {
                *key_text = into_text(name.clone());
            }
        }
        self.sink.name(&name);
        self.names.push(name);
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
        // A back-reference to a container being written (a cycle in the host's value).
        if rest.starts_with(b"!!cycle") {
            self.pos += 7;
            return Ok(Value::Cycle);
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
            self.sink.scalar(Scalar::Number(&b[start..i]));
            return Ok(Value::Null);
        }
        // The slice is ASCII digits and signs, so it is valid UTF-8.
        let text = std::str::from_utf8(&b[start..i]).unwrap_or("0");
        let value: f64 = text.parse().unwrap_or(f64::NAN);
        if !value.is_finite() {
            if self.mode == Mode::Strict {
                // A long number is named by its start and length: the message is not the input.
                let shown = match text.len() {
                    n if n > 64 => format!("{}… ({n} characters)", &text[..32]),
                    _ => text.to_owned(),
                };
                return Err(
                    self.error(Code::JsonInvalid, format!("number {shown} is out of the range of a 64-bit float"))
                );
            }
            self.pos = i;
            return Ok(Value::Number(Number::from_f64(value)));
        }
        self.pos = i;
        if !BUILD {
            self.sink.scalar(Scalar::Number(text.as_bytes()));
            return Ok(Value::Null);
        }
        Ok(Value::Number(Number { value, text: Some(text.into()) }))
    }

    /// Parses a string starting at the opening quote, returning its UTF-8 bytes (validated): a
    /// slice of the text when it holds no escape. `None` (host mode only) means the string
    /// holds a lone surrogate. With `keep` false (a verdict-only run's string values) the
    /// string is checked exactly the same but not copied: an empty slice stands for it.
    #[inline]
    fn parse_string(&mut self, keep: bool) -> Result<Option<Cow<'a, [u8]>>> {
        // Most strings have no escape: one run up to the closing quote, validated as UTF-8 only
        // if it is not ASCII. Anything else (or an error) takes the general loop, which goes
        // on from the end of that run (or fails exactly as if it had read it itself).
        let b = self.bytes;
        let (end, high) = skip_plain(b, self.pos + 1);
        let text = &b[self.pos + 1..end];
        if b.get(end) == Some(&b'"')
            && text.len() <= self.limits.max_string_bytes
            && (!high || std::str::from_utf8(text).is_ok())
        {
            self.pos = end + 1;
            return Ok(Some(Cow::Borrowed(if keep { text } else { &[] })));
        }
        self.parse_string_slow(keep, (end, high))
    }

    /// `parse_string` for any string (the general loop), given `skip_plain` of its first run.
    #[inline(never)]
    fn parse_string_slow(&mut self, keep: bool, first_run: (usize, bool)) -> Result<Option<Cow<'a, [u8]>>> {
        let b = self.bytes;
        let start = self.pos;
        self.pos += 1;
        let mut out: Option<Vec<u8>> = None;
        // Decoded bytes before the current run that were not kept (`keep` false).
        let mut skipped = 0usize;
        let mut ill_formed = false;
        let mut run = self.pos;
        // Whether the current run has a byte >= 0x80 (else it is ASCII: valid UTF-8 as is).
        let mut non_ascii = false;
        let (mut end, mut high) = first_run;
        loop {
            self.pos = end;
            non_ascii |= high;
            let Some(&byte) = b.get(self.pos) else {
                self.pos = start;
                return Err(self.error(Code::JsonInvalid, "unterminated string"));
            };
            match byte {
                b'"' => {
                    let tail = self.take_run(run, self.pos, non_ascii, &mut ill_formed)?;
                    if ill_formed {
                        self.pos += 1;
                        return Ok(None);
                    }
                    let len = out.as_ref().map_or(0, Vec::len) + skipped + tail.len();
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
                        return Ok(Some(Cow::Borrowed(&[])));
                    }
                    return Ok(Some(match out {
                        Some(mut s) => {
                            s.extend_from_slice(tail);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(tail),
                    }));
                }
                b'\\' => {
                    let piece = self.take_run(run, self.pos, non_ascii, &mut ill_formed)?;
                    self.pos += 1;
                    let escaped = self.parse_escape()?;
                    if keep {
                        let s = out.get_or_insert_with(Vec::new);
                        s.extend_from_slice(piece);
                        match escaped {
                            Some(c) => s.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                            None => ill_formed = true,
                        }
                    } else {
                        skipped += piece.len() + escaped.map_or(0, char::len_utf8);
                        ill_formed |= escaped.is_none();
                    }
                    run = self.pos;
                    non_ascii = false;
                    (end, high) = skip_plain(b, self.pos);
                }
                // skip_plain stops only at a quote, a backslash or a control character.
                _ => {
                    return Err(self.error(Code::JsonInvalid, "control character in string must be escaped"));
                }
            }
        }
    }

    /// The raw bytes `from..to` of a string, validated as UTF-8 unless `non_ascii` is false
    /// (an ASCII run is valid as is).
    fn take_run(&mut self, from: usize, to: usize, non_ascii: bool, ill_formed: &mut bool) -> Result<&'a [u8]> {
        let bytes: &'a [u8] = self.bytes;
        let run = &bytes[from..to];
        if !non_ascii {
            return Ok(run);
        }
        match std::str::from_utf8(run) {
            Ok(_) => Ok(run),
            Err(e) => {
                let bad = from + e.valid_up_to();
                // WTF-8: a UTF-16 surrogate encoded on its own (ED A0..BF xx). Hosts send this
                // for strings holding lone surrogates.
                let surrogate = bytes.get(bad) == Some(&0xED)
                    && matches!(bytes.get(bad + 1), Some(0xA0..=0xBF))
                    && matches!(bytes.get(bad + 2), Some(0x80..=0xBF));
                if surrogate && self.mode == Mode::Host {
                    if is_wtf8(run) {
                        *ill_formed = true;
                        return Ok(b"");
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
        self.path_through(&self.stack)
    }

    /// JSON Pointer of the innermost open container (the array or object itself).
    fn container_path(&self) -> String {
        self.path_through(&self.stack[..self.stack.len().saturating_sub(1)])
    }

    fn path_through(&self, frames: &[Frame]) -> String {
        let mut path = String::new();
        for frame in frames {
            match frame {
                Frame::Array { len, .. } => {
                    path.push('/');
                    path.push_str(&len.to_string());
                }
                Frame::Object { key: Some(key), .. } => {
                    push_pointer(&mut path, &String::from_utf8_lossy(&self.names[*key]))
                }
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
/// quote, a backslash or a control character (below 0x20); `bytes.len()` if none. And whether
/// the run holds a byte >= 0x80 (only such runs need UTF-8 validation). Strings are most of a
/// JSON text, so the run is scanned eight bytes at a time with the classic "has zero byte" /
/// "has byte less than" tests: a byte is flagged when it equals '"' or '\\' or is below 0x20,
/// or (a false positive) when a byte below it in the word is; so the lowest flagged byte is
/// the first stop, exactly.
fn skip_plain(bytes: &[u8], mut i: usize) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut high = 0u64;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let quote = w ^ (ONES * b'"' as u64);
        let backslash = w ^ (ONES * b'\\' as u64);
        let found = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (w.wrapping_sub(ONES * 0x20) & !w))
            & HIGHS;
        if found != 0 {
            // Little-endian: the lowest flagged byte comes first in the text.
            let stop = found.trailing_zeros() / 8;
            let before = (1u64 << (stop * 8)) - 1;
            return (i + stop as usize, (high | (w & before)) & HIGHS != 0);
        }
        high |= w;
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if matches!(b, b'"' | b'\\' | 0x00..=0x1f) {
            break;
        }
        high |= b as u64;
        i += 1;
    }
    (i, high & HIGHS != 0)
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

#[cfg(test)]
mod tests {
    use super::skip_plain;

    /// The eight-byte scan stops exactly where a bytewise scan does, and sees a high byte in
    /// the run exactly when there is one: every start in buffers of the bytes around each
    /// boundary (the stops, 0x20, 0x7F/0x80, 0xFF) at every alignment.
    #[test]
    fn skip_plain_matches_a_bytewise_scan() {
        let alphabet = [b'a', b'"', b'\\', 0x00, 0x1F, 0x20, b'!', b'#', b'[', b']', 0x7F, 0x80, 0xC3, 0xFF];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Mostly plain bytes, so that runs are long.
                        if state % 4 == 0 {
                            alphabet[(state >> 8) as usize % alphabet.len()]
                        } else {
                            b'a' + (state >> 8) as u8 % 26
                        }
                    })
                    .collect();
                for start in 0..=len {
                    let stop = (start..len).find(|&i| matches!(bytes[i], b'"' | b'\\' | 0x00..=0x1f)).unwrap_or(len);
                    let high = bytes[start..stop].iter().any(|&b| b >= 0x80);
                    assert_eq!(skip_plain(&bytes, start), (stop, high), "{bytes:?} from {start}");
                }
            }
        }
    }
}
