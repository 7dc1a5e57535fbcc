//! The core's own value tree.
//!
//! It holds strict JSON, plus the few host things JSON cannot say, so that a rule can give the
//! same verdict whichever host the value came from: JS `undefined` / Python `UNDEFINED`,
//! non-finite numbers, strings with lone surrogates and values that are not JSON at all
//! (functions, `Map`, `set`, class instances...). Strict JSON text never produces those; the
//! host text written by the Python binding (see `json::Mode::Host`) can.

use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
    /// A string the host holds that is not valid Unicode (a lone UTF-16 surrogate).
    IllFormedString,
    /// Stands in an object for an entry whose key is not valid Unicode.
    IllFormedKey,
    /// A container the host binding did not descend into (deeper than the limit).
    TooDeep {
        array: bool,
    },
    /// A host value with no JSON form; the text names its kind for messages ("function", "Map").
    NotJson(String),
    /// A container that is one of its own ancestors (the host binding wrote a back-reference
    /// instead of descending again). Reading it is `VALUE_CYCLE`; see `input::HostFault`.
    Cycle,
}

/// A number, keeping the exact text it was written with when it came from JSON text, so that a
/// host with exact integers (Python) gets back exactly what was sent.
#[derive(Clone, Debug)]
pub struct Number {
    pub value: f64,
    pub text: Option<Box<str>>,
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.value == other.value
    }
}

impl Number {
    pub fn from_f64(value: f64) -> Number {
        Number { value, text: None }
    }
}

impl Value {
    /// The name used in messages ("expected a string, got number").
    pub fn kind_name(&self) -> &str {
        match self {
            Value::Undefined => "undefined",
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) | Value::IllFormedString => "string",
            Value::Array(_) | Value::TooDeep { array: true } => "array",
            Value::Object(_) | Value::TooDeep { array: false } => "object",
            Value::IllFormedKey => "invalid key",
            Value::NotJson(kind) => kind,
            Value::Cycle => "cycle",
        }
    }

    /// Equal and written as the same text. `==` compares numbers by value, so `0` and `-0`,
    /// `1`, `1.0` and `1e0`, or two integers past 2^53 that round to one double are equal
    /// values that write different text (and that Python reads back as different values).
    pub fn identical(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => a.text == b.text && a.value.to_bits() == b.value.to_bits(),
            (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.identical(y)),
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|((k, x), (l, y))| k == l && x.identical(y))
            }
            _ => self == other,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Moves member `key` out of an object, leaving `Null` behind (`Null` when absent).
pub fn take_member(object: &mut Value, key: &str) -> Value {
    match object {
        Value::Object(entries) => entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| std::mem::replace(v, Value::Null))
            .unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// Appends `value` as JSON text. Host-only values have no JSON form and are written as `null`:
/// `Undefined` only survives in tool input, and `wire::to_text` lists where it was; the others
/// never pass a rule.
pub fn write_json(out: &mut String, value: &Value) {
    write_with(out, value, true)
}

/// `write_json` with every number written from its value, never its source text, and members in
/// the order of their names: values equal as JSON values write the same text (`1`, `1.0` and
/// `1e0`; `0` and `-0`; integers past 2^53 that round to one double, as a JS host has them;
/// `{"a":1,"b":2}` and `{"b":2,"a":1}`). For comparing values by their text in every host alike.
pub fn write_json_by_value(out: &mut String, value: &Value) {
    write_with(out, value, false)
}

fn write_with(out: &mut String, value: &Value, exact: bool) {
    match value {
        Value::Undefined
        | Value::Null
        | Value::IllFormedString
        | Value::IllFormedKey
        | Value::NotJson(_)
        | Value::TooDeep { .. }
        | Value::Cycle => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) if exact => write_number(out, n),
        Value::Number(n) => write_number(out, &Number::from_f64(n.value)),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_with(out, item, exact);
            }
            out.push(']');
        }
        Value::Object(entries) if !exact => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            crate::order::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
            write_members(out, sorted.into_iter(), exact);
        }
        Value::Object(entries) => write_members(out, entries.iter(), exact),
    }
}

fn write_members<'a>(out: &mut String, members: impl Iterator<Item = &'a (String, Value)>, exact: bool) {
    out.push('{');
    for (i, (key, item)) in members.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key);
        out.push(':');
        write_with(out, item, exact);
    }
    out.push('}');
}

fn write_number(out: &mut String, n: &Number) {
    if let Some(text) = &n.text {
        out.push_str(text);
    } else if !n.value.is_finite() {
        // Unreachable for values that passed a rule; written as null so the text stays JSON.
        out.push_str("null");
    } else if n.value == n.value.trunc() && n.value.abs() < 9.007_199_254_740_992e15 {
        let _ = write!(out, "{}", n.value as i64);
    } else {
        out.push_str(ryu::Buffer::new().format_finite(n.value));
    }
}

pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    // Most strings need no escape: copy runs between escapes in one go.
    while let Some(offset) = bytes[start..].iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\') {
        let i = start + offset;
        out.push_str(&s[start..i]);
        match bytes[i] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends one JSON Pointer segment (RFC 6901 escaping).
pub fn push_pointer(path: &mut String, segment: &str) {
    path.push('/');
    if !segment.contains(['~', '/']) {
        path.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// A member name as messages quote it: Debug-quoted, cut after 64 characters ("…" then). The
/// error's `path` keeps the whole name; a message need not repeat a megabyte-long key (it was
/// several copies of it in a reply, past the memory bound).
pub fn quoted_name(name: &str) -> String {
    match name.char_indices().nth(64) {
        Some((at, _)) => format!("{:?}…", &name[..at]),
        None => format!("{name:?}"),
    }
}

pub fn pointer_child(path: &str, segment: &str) -> String {
    let mut p = String::with_capacity(path.len() + segment.len() + 1);
    p.push_str(path);
    push_pointer(&mut p, segment);
    p
}

pub fn pointer_index(path: &str, index: usize) -> String {
    format!("{path}/{index}")
}

/// The positions of a walk over a document, each kept as its parent and the segments that lead
/// from it, its JSON Pointer written out only when asked for (an issue at it). A walk holding
/// every pending position's whole pointer held its depth times its size: long member names
/// nested deep.
pub struct Positions {
    nodes: Vec<(usize, String)>,
}

impl Positions {
    /// Position 0 is the walk's start, at `root`.
    pub fn new(root: &str) -> Positions {
        Positions { nodes: vec![(usize::MAX, root.to_owned())] }
    }

    /// The position of member `key` (one segment) under `at`.
    pub fn member(&mut self, at: usize, key: &str) -> usize {
        let mut segment = String::with_capacity(key.len() + 1);
        push_pointer(&mut segment, key);
        self.nodes.push((at, segment));
        self.nodes.len() - 1
    }

    /// The position of item `index` under `at`.
    pub fn item(&mut self, at: usize, index: usize) -> usize {
        self.nodes.push((at, format!("/{index}")));
        self.nodes.len() - 1
    }

    /// The JSON Pointer of `at`.
    pub fn pointer(&self, mut at: usize) -> String {
        let mut parts = Vec::new();
        while at != usize::MAX {
            let (parent, segment) = &self.nodes[at];
            parts.push(segment.as_str());
            at = *parent;
        }
        let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        for part in parts.iter().rev() {
            out.push_str(part);
        }
        out
    }
}
