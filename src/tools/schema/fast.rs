//! The verdict "valid" without the engine's tree, for the schemas most tools have.
//!
//! A schema made only of `type`, `properties`, `required`, `additionalProperties`, `items`
//! (one schema for every item), the size keywords (`minItems`, `maxItems`, `minProperties`,
//! `maxProperties`, `minLength`, `maxLength`), integral `minimum` / `maximum` /
//! `exclusiveMinimum` / `exclusiveMaximum`, annotations, an `enum` of strings, and scalar
//! keywords the engine checks on the one scalar they apply to (`pattern`, `format`,
//! `multipleOf`, any other `enum`, `const`) becomes a `Program`: one node per subschema, each
//! value of the input evaluated once against at most one node. It is evaluated while the strict
//! parser reads the text (`json::check_with`, no tree at all) or over a value tree.
//!
//! The program only ever answers "valid" or "not known to be valid": anything it does not
//! evaluate exactly (a number whose exact value it does not know, an `enum` on a container, a
//! value that is not JSON) and every failure send the input to the engine, which gives the
//! verdict and the issues as before. So the verdict is always the engine's; the program only
//! skips the engine (and the tree) for inputs it proves valid. Its work is one step per value
//! plus one name lookup per member (and a binary search per string under an `enum`), whatever
//! the schema, so it needs no bound of its own.

use crate::json::{Scalar, Sink};
use crate::value::Value;

/// Any value (`true`, or no constraint).
const ANY: u32 = u32::MAX;
/// No value (`false`).
const NEVER: u32 = u32::MAX - 1;

const NULL: u8 = 1;
const BOOL: u8 = 2;
const INT: u8 = 4;
/// Numbers that are not integers.
const FRACTION: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;
const ALL: u8 = 127;

/// Numbers whose value as f64 is exact: integers up to 2^53.
const EXACT: f64 = 9_007_199_254_740_992.0;

pub(super) struct Program {
    nodes: Vec<Node>,
    root: u32,
}

struct Key {
    name: Box<[u8]>,
    /// The member's schema: its `properties` entry, else `additionalProperties`.
    schema: u32,
    /// Its bit in `Node::required`, if required.
    bit: Option<u32>,
}

struct Node {
    types: u8,
    /// Sorted by name.
    keys: Vec<Key>,
    /// One bit per required name.
    required: u64,
    additional: u32,
    items: u32,
    props: (usize, usize),
    len_items: (usize, usize),
    len_chars: (usize, usize),
    /// `(limit, exclusive)`: the value must be above (`lower`) or below (`upper`) the limit.
    lower: Vec<(f64, bool)>,
    upper: Vec<(f64, bool)>,
    /// Scalars are checked by the engine against this subschema (`pattern`, `format`, ...).
    delegate: Option<boon::SchemaIndex>,
    /// An `enum` of strings, the node's only scalar keyword, sorted: a string equal to one of
    /// them (the same code points, so the same UTF-8) is valid for it; any other value is left to
    /// the engine. The commonest scalar keyword of tool schemas, checked without a crossing into
    /// the engine and a value built for it, and found by binary search: the engine compares a
    /// value with every member, so 50,000 values against 20,000 members took seconds.
    strings: Option<Box<[Box<str>]>>,
    /// `enum` or `const`: a container is not evaluated here.
    scalars_only: bool,
}

impl Node {
    fn new() -> Node {
        Node {
            types: ALL,
            keys: Vec::new(),
            required: 0,
            additional: ANY,
            items: ANY,
            props: (0, usize::MAX),
            len_items: (0, usize::MAX),
            len_chars: (0, usize::MAX),
            lower: Vec::new(),
            upper: Vec::new(),
            delegate: None,
            strings: None,
            scalars_only: false,
        }
    }

    fn wants_text(&self) -> bool {
        self.delegate.is_some() || self.strings.is_some() || self.len_chars != (0, usize::MAX)
    }

    #[inline]
    fn key(&self, name: &[u8]) -> Option<&Key> {
        if self.keys.len() <= 8 {
            self.keys.iter().find(|k| &*k.name == name)
        } else {
            self.keys.binary_search_by(|k| (*k.name).cmp(name)).ok().map(|i| &self.keys[i])
        }
    }
}

/// Builds the program of `schema` (a draft the engine compiled it in), or `None` when a keyword
/// is outside the subset. `delegate(pointer)` compiles the subschema at a JSON Pointer of the
/// schema with the engine.
pub(super) fn build(schema: &Value, delegate: &mut dyn FnMut(&str) -> Option<boon::SchemaIndex>) -> Option<Program> {
    let mut nodes = Vec::new();
    let root = node(schema, "", true, &mut nodes, delegate)?;
    Some(Program { nodes, root })
}

fn node(
    schema: &Value,
    pointer: &str,
    root: bool,
    nodes: &mut Vec<Node>,
    delegate: &mut dyn FnMut(&str) -> Option<boon::SchemaIndex>,
) -> Option<u32> {
    let entries = match schema {
        Value::Bool(true) => return Some(ANY),
        Value::Bool(false) => return Some(NEVER),
        Value::Object(entries) => entries,
        _ => return None,
    };
    let mut n = Node::new();
    let mut properties: Vec<(&str, &Value)> = Vec::new();
    let mut required: Vec<&str> = Vec::new();
    let mut additional: Option<&Value> = None;
    let mut scalar_keywords = false;
    // The members of an `enum` of strings, while it is the only scalar keyword.
    let mut strings: Option<Vec<Box<str>>> = None;
    let mut engine_keywords = false;
    for (key, value) in entries {
        match (key.as_str(), value) {
            ("type", Value::String(t)) => n.types = type_bits(t)?,
            ("type", Value::Array(list)) => {
                n.types = 0;
                for t in list {
                    let Value::String(t) = t else { return None };
                    n.types |= type_bits(t)?;
                }
            }
            ("properties", Value::Object(props)) => properties = props.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            ("required", Value::Array(names)) => {
                for name in names {
                    let Value::String(name) = name else { return None };
                    required.push(name);
                }
            }
            ("additionalProperties", v) => additional = Some(v),
            // One schema for every item (an array form is draft-07's tuple: not here).
            ("items", v @ (Value::Object(_) | Value::Bool(_))) => {
                let child = crate::value::pointer_child(pointer, "items");
                let at = node(v, &child, false, nodes, delegate)?;
                n.items = at;
            }
            ("minItems", v) => n.len_items.0 = count(v)?,
            ("maxItems", v) => n.len_items.1 = count(v)?,
            ("minProperties", v) => n.props.0 = count(v)?,
            ("maxProperties", v) => n.props.1 = count(v)?,
            ("minLength", v) => n.len_chars.0 = count(v)?,
            ("maxLength", v) => n.len_chars.1 = count(v)?,
            ("minimum", v) => n.lower.push((limit(v)?, false)),
            ("exclusiveMinimum", v) => n.lower.push((limit(v)?, true)),
            ("maximum", v) => n.upper.push((limit(v)?, false)),
            ("exclusiveMaximum", v) => n.upper.push((limit(v)?, true)),
            ("pattern" | "format" | "multipleOf", _) => {
                scalar_keywords = true;
                engine_keywords = true;
            }
            ("enum", Value::Array(items)) if items.iter().all(|v| matches!(v, Value::String(_))) => {
                scalar_keywords = true;
                n.scalars_only = true;
                let texts = items.iter().filter_map(|v| if let Value::String(s) = v { Some(s.as_str()) } else { None });
                strings = Some(texts.map(Box::from).collect());
            }
            ("enum" | "const", _) => {
                scalar_keywords = true;
                engine_keywords = true;
                n.scalars_only = true;
            }
            (
                "title" | "description" | "$comment" | "default" | "examples" | "deprecated" | "readOnly" | "writeOnly",
                _,
            ) => {}
            // Only reachable through `$ref`, which no schema here has.
            ("$defs" | "definitions", Value::Object(_)) => {}
            ("$schema", Value::String(url)) if root && boon::Draft::from_url(url).is_some() => {}
            _ => return None,
        }
    }
    if required.len() > 64 {
        return None;
    }
    if let Some(v) = additional {
        let child = crate::value::pointer_child(pointer, "additionalProperties");
        n.additional = node(v, &child, false, nodes, delegate)?;
    }
    let props_pointer = crate::value::pointer_child(pointer, "properties");
    for (name, v) in properties {
        let schema = node(v, &crate::value::pointer_child(&props_pointer, name), false, nodes, delegate)?;
        n.keys.push(Key { name: name.as_bytes().into(), schema, bit: None });
    }
    let mut bits = 0u32;
    for name in required {
        let at = match n.keys.iter().position(|k| &*k.name == name.as_bytes()) {
            Some(at) => at,
            None => {
                n.keys.push(Key { name: name.as_bytes().into(), schema: n.additional, bit: None });
                n.keys.len() - 1
            }
        };
        if n.keys[at].bit.is_none() {
            n.keys[at].bit = Some(bits);
            n.required |= 1 << bits;
            bits += 1;
        }
    }
    crate::order::sort_by(&mut n.keys, |a, b| a.name.cmp(&b.name));
    if n.keys.windows(2).any(|w| w[0].name == w[1].name) {
        return None;
    }
    match strings {
        Some(mut strings) if !engine_keywords => {
            crate::order::sort(&mut strings);
            n.strings = Some(strings.into());
        }
        _ if scalar_keywords => n.delegate = Some(delegate(pointer)?),
        _ => {}
    }
    nodes.push(n);
    u32::try_from(nodes.len() - 1).ok().filter(|&i| i < NEVER)
}

fn type_bits(t: &str) -> Option<u8> {
    Some(match t {
        "null" => NULL,
        "boolean" => BOOL,
        "integer" => INT,
        "number" => INT | FRACTION,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => return None,
    })
}

fn count(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) if n.value >= 0.0 && n.value.fract() == 0.0 && n.value < EXACT => Some(n.value as usize),
        _ => None,
    }
}

/// A numeric limit compared exactly: an integer up to 2^53.
fn limit(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) if n.value.fract() == 0.0 && n.value.abs() <= EXACT => Some(n.value),
        _ => None,
    }
}

struct Frame {
    node: u32,
    array: bool,
    seen: u64,
    count: usize,
}

/// One evaluation of a program: a `json::Sink`, or driven over a value tree (`value`).
pub(super) struct Eval<'p> {
    program: &'p Program,
    schemas: &'p boon::Schemas,
    frames: Vec<Frame>,
    /// The schema of the next member's value (set by its name).
    pending: u32,
    /// False once the input is not known to be valid (then every event is ignored).
    valid: bool,
    depth: usize,
    values: usize,
}

impl<'p> Eval<'p> {
    pub(super) fn new(program: &'p Program, schemas: &'p boon::Schemas) -> Eval<'p> {
        Eval { program, schemas, frames: Vec::new(), pending: program.root, valid: true, depth: 0, values: 0 }
    }

    /// `Some((depth, values))` (the input's shape, as `schema::shape` counts it) when the input
    /// read is valid.
    pub(super) fn valid(&self) -> Option<(usize, usize)> {
        (self.valid && self.frames.is_empty() && self.values > 0).then_some((self.depth, self.values))
    }

    /// The schema of the next value, counting it.
    #[inline]
    fn next(&mut self) -> u32 {
        self.values += 1;
        match self.frames.last_mut() {
            None => self.program.root,
            Some(f) if f.array => {
                f.count += 1;
                if f.node == ANY {
                    ANY
                } else {
                    self.program.nodes[f.node as usize].items
                }
            }
            Some(_) => self.pending,
        }
    }

    fn peek(&self) -> u32 {
        match self.frames.last() {
            None => self.program.root,
            Some(f) if f.array => {
                if f.node == ANY {
                    ANY
                } else {
                    self.program.nodes[f.node as usize].items
                }
            }
            Some(_) => self.pending,
        }
    }

    fn open_container(&mut self, array: bool) {
        let at = self.next();
        if at == NEVER {
            self.valid = false;
            return;
        }
        if at != ANY {
            let n = &self.program.nodes[at as usize];
            if n.types & if array { ARRAY } else { OBJECT } == 0 || n.scalars_only {
                self.valid = false;
                return;
            }
        }
        self.frames.push(Frame { node: at, array, seen: 0, count: 0 });
        self.depth = self.depth.max(self.frames.len());
    }

    fn close_container(&mut self) {
        let Some(f) = self.frames.pop() else {
            self.valid = false;
            return;
        };
        if f.node == ANY {
            return;
        }
        let n = &self.program.nodes[f.node as usize];
        let ok = if f.array {
            f.count >= n.len_items.0 && f.count <= n.len_items.1
        } else {
            f.seen & n.required == n.required && f.count >= n.props.0 && f.count <= n.props.1
        };
        self.valid &= ok;
    }

    fn member(&mut self, name: &[u8]) {
        let Some(f) = self.frames.last_mut() else {
            self.valid = false;
            return;
        };
        f.count += 1;
        if f.node == ANY {
            self.pending = ANY;
            return;
        }
        let n = &self.program.nodes[f.node as usize];
        match n.key(name) {
            Some(k) => {
                if let Some(bit) = k.bit {
                    f.seen |= 1 << bit;
                }
                self.pending = k.schema;
            }
            None => self.pending = n.additional,
        }
    }

    /// A scalar; `number` is its value when it is a number and it is known exactly (else
    /// `Some(None)`); `engine` builds its engine form for a delegated check.
    fn scalar(
        &mut self,
        kind: u8,
        number: Option<Option<f64>>,
        text: &str,
        engine: impl FnOnce() -> serde_json::Value,
    ) {
        let at = self.next();
        if at == ANY {
            return;
        }
        if at == NEVER {
            self.valid = false;
            return;
        }
        let n = &self.program.nodes[at as usize];
        if let Some(index) = n.delegate {
            self.valid &= self.schemas.validate(&engine(), index).is_ok();
            return;
        }
        let mut ok = n.types & kind != 0;
        if let Some(strings) = &n.strings {
            ok &= kind == STRING && strings.binary_search_by(|s| (**s).cmp(text)).is_ok();
        }
        if kind == STRING && n.len_chars != (0, usize::MAX) {
            let chars = text.chars().count();
            ok &= chars >= n.len_chars.0 && chars <= n.len_chars.1;
        }
        if let Some(value) = number {
            if !n.lower.is_empty() || !n.upper.is_empty() {
                match value {
                    Some(v) => {
                        ok &= n.lower.iter().all(|&(l, ex)| if ex { v > l } else { v >= l });
                        ok &= n.upper.iter().all(|&(u, ex)| if ex { v < u } else { v <= u });
                    }
                    None => ok = false,
                }
            }
        }
        self.valid &= ok;
    }

    fn number_text(&mut self, text: &[u8]) {
        let at = self.peek();
        if at == ANY {
            self.next();
            return;
        }
        // A plain integer is an integer whatever its size; other forms are integers or not by
        // their f64 value, which only the engine's own conversion decides: taken as fractions
        // here, so `1.0` fails `integer` and goes to the engine, which decides.
        let plain = !text.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
        let kind = if plain { INT } else { FRACTION };
        let bounded = at != NEVER && {
            let n = &self.program.nodes[at as usize];
            n.delegate.is_none() && (!n.lower.is_empty() || !n.upper.is_empty())
        };
        let digits = &text[usize::from(text.first() == Some(&b'-'))..];
        let exact = if bounded && plain && digits.len() <= 15 {
            // At most 15 digits: exact in an i64 and in an f64.
            let magnitude = digits.iter().fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
            Some(if digits.len() < text.len() { -magnitude } else { magnitude } as f64)
        } else {
            None
        };
        self.scalar(kind, Some(exact), "", || {
            serde_json::Value::Number(engine_number(std::str::from_utf8(text).unwrap_or("0"), exact))
        });
    }

    /// Evaluates a value tree (a host's copy, or text parsed by the strict parser).
    pub(super) fn value(&mut self, root: &Value) -> bool {
        enum Step<'v> {
            Value(&'v Value),
            Member(&'v str, &'v Value),
            Close,
        }
        let mut stack = vec![Step::Value(root)];
        while let Some(step) = stack.pop() {
            if !self.valid {
                return false;
            }
            let value = match step {
                Step::Close => {
                    self.close_container();
                    continue;
                }
                Step::Member(name, value) => {
                    self.member(name.as_bytes());
                    value
                }
                Step::Value(value) => value,
            };
            match value {
                Value::Null | Value::Undefined => self.scalar(NULL, None, "", || serde_json::Value::Null),
                Value::Bool(b) => self.scalar(BOOL, None, "", || serde_json::Value::Bool(*b)),
                Value::String(s) => self.scalar(STRING, None, s, || serde_json::Value::String(s.clone())),
                Value::Number(n) => match &n.text {
                    Some(text) => self.number_text(text.as_bytes()),
                    None => {
                        let v = n.value;
                        let kind = if v.fract() == 0.0 { INT } else { FRACTION };
                        let exact = (v.abs() <= EXACT).then_some(v);
                        self.scalar(kind, Some(exact), "", || serde_json::Value::Number(super::instance::number(n)));
                    }
                },
                Value::Array(items) => {
                    self.open_container(true);
                    stack.push(Step::Close);
                    stack.extend(items.iter().rev().map(Step::Value));
                }
                Value::Object(entries) => {
                    self.open_container(false);
                    stack.push(Step::Close);
                    // Undefined members are absent (as in the engine's copy).
                    stack.extend(
                        entries
                            .iter()
                            .rev()
                            .filter(|(_, v)| !matches!(v, Value::Undefined))
                            .map(|(k, v)| Step::Member(k, v)),
                    );
                }
                // Not JSON: the engine path decides (and reports).
                _ => self.valid = false,
            }
        }
        self.valid && self.frames.is_empty()
    }
}

/// The engine's number for JSON number text (as `schema::number` makes it).
fn engine_number(text: &str, exact: Option<f64>) -> serde_json::Number {
    if let Ok(n) = text.parse::<serde_json::Number>() {
        return n;
    }
    let v = exact.unwrap_or_else(|| text.parse::<f64>().unwrap_or(0.0));
    serde_json::Number::from_f64(v).unwrap_or_else(|| serde_json::Number::from(0))
}

impl Sink for Eval<'_> {
    #[inline]
    fn wants_text(&mut self) -> bool {
        if !self.valid {
            return false;
        }
        let at = self.peek();
        at != ANY && at != NEVER && self.program.nodes[at as usize].wants_text()
    }

    #[inline]
    fn open(&mut self, array: bool) {
        if self.valid {
            self.open_container(array);
        }
    }

    #[inline]
    fn close(&mut self) {
        if self.valid {
            self.close_container();
        }
    }

    #[inline]
    fn name(&mut self, name: &[u8]) {
        if self.valid {
            self.member(name);
        }
    }

    #[inline]
    fn scalar(&mut self, value: Scalar<'_>) {
        if !self.valid {
            return;
        }
        match value {
            Scalar::Null => self.scalar(NULL, None, "", || serde_json::Value::Null),
            Scalar::Bool(b) => self.scalar(BOOL, None, "", || serde_json::Value::Bool(b)),
            Scalar::String(s) => self.scalar(STRING, None, s, || serde_json::Value::String(s.to_owned())),
            Scalar::Number(text) => self.number_text(text),
        }
    }
}
