//! The input abstraction every rule is written against.
//!
//! A rule asks a `HostValue` for what it needs (its kind, one own field, a string) and nothing
//! more. `&Value` implements it for JSON text, Rust callers and the Python binding; the JS
//! binding implements it over a live JS object, so a JS caller's object is read in place, one
//! field at a time, instead of being copied across the boundary first.
//!
//! Two host-independent conventions live here because verdicts depend on them:
//! - key order is ECMAScript's (array-index keys ascending, then insertion order), so "the
//!   first unknown field" and error paths are the same whichever host built the object;
//! - size is measured over what the rules read (see `limits`).

pub mod fields;
pub mod limits;
pub mod options;

use crate::error::{Code, ContractError, Result};
use crate::input::limits::Limits;
use crate::value::{pointer_child, pointer_index, Number, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Undefined,
    Null,
    Bool,
    Number,
    String,
    /// A string that is not valid Unicode (lone UTF-16 surrogate).
    IllFormedString,
    Array,
    /// A plain object: JS prototype `Object.prototype` or `null`, Python `dict` with `str` keys.
    Object,
    /// Anything else: functions, `Map`, `Set`, `Date`, class instances, symbols, bigints...
    NotJson,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Undefined => "undefined",
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::String | Kind::IllFormedString => "string",
            Kind::Array => "array",
            Kind::Object => "object",
            Kind::NotJson => "non-JSON value",
        }
    }
}

/// An own field read by `HostValue::get_string`.
pub enum StringField<V> {
    Missing,
    /// A well-formed string.
    String(String),
    /// Anything else, undefined and ill-formed strings included.
    Other(V),
}

/// Why a host value could not be read.
#[derive(Debug)]
pub enum HostFault {
    /// The host threw while being read (a JS getter or Proxy trap). Reported as
    /// `VALUE_NOT_JSON` at the path being read: such a value has no stable JSON meaning.
    Threw(String),
    /// The field or element read is a container that is one of its own ancestors. Reported as
    /// `VALUE_CYCLE` at its path, in every host, before any depth limit is reached: a cycle
    /// has no JSON form, and following it would only spend the limits.
    Cycle,
    /// The container read is one a host did not write out because it was deeper than the
    /// limit it wrote the value with (`Value::TooDeep`). Reported as `INPUT_TOO_DEEP` at its
    /// path: read as an empty container, a part of a value cut off by a host writing under
    /// smaller limits than the core reads with would pass unseen (a schema's keywords).
    TooDeep,
}

impl HostFault {
    pub fn at(self, path: &str) -> ContractError {
        match self {
            HostFault::Threw(message) => {
                ContractError::new(Code::ValueNotJson, path, format!("reading the value threw: {message}"))
            }
            HostFault::Cycle => {
                ContractError::new(Code::ValueCycle, path, "the value contains itself (a reference cycle)")
            }
            HostFault::TooDeep => ContractError::new(
                Code::InputTooDeep,
                path,
                "nesting is deeper than the limit the host wrote the value with",
            ),
        }
    }
}

pub type HostResult<T> = std::result::Result<T, HostFault>;

/// Why the keys of an object could not be listed.
#[derive(Debug)]
pub enum KeysError {
    Fault(HostFault),
    /// A key is not valid Unicode (lone surrogate).
    IllFormedKey,
}

impl KeysError {
    pub fn at(self, path: &str) -> ContractError {
        match self {
            KeysError::Fault(f) => f.at(path),
            KeysError::IllFormedKey => ill_formed_key(path),
        }
    }
}

/// A JSON Pointer built as a chain on the stack and written out only when an error needs it:
/// the common, valid case allocates no path strings.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Root(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub fn render(&self) -> String {
        match self {
            Path::Root(p) => (*p).to_owned(),
            Path::Key(parent, key) => pointer_child(&parent.render(), key),
            Path::Index(parent, i) => pointer_index(&parent.render(), *i),
        }
    }
}

pub trait HostValue: Sized {
    fn kind(&self) -> Kind;
    /// Only called when `kind()` is `Bool`.
    fn boolean(&self) -> bool;
    /// Only called when `kind()` is `Number`.
    fn number(&self) -> f64;
    /// The exact source text of a number, when the host has one (JSON text).
    fn number_text(&self) -> Option<Box<str>> {
        None
    }
    /// Only called when `kind()` is `String`.
    fn string(&self) -> String;
    /// The own property `key`; `None` when missing (inherited properties are missing).
    fn get(&self, key: &str) -> HostResult<Option<Self>>;
    /// `get` for a field a rule expects to hold a string. Most do, and a host where every read
    /// is a boundary crossing answers that case in one.
    fn get_string(&self, key: &str) -> HostResult<StringField<Self>> {
        Ok(match self.get(key)? {
            None => StringField::Missing,
            Some(v) if v.kind() == Kind::String => StringField::String(v.string()),
            Some(v) => StringField::Other(v),
        })
    }
    /// Own enumerable string keys in ECMAScript order.
    fn keys(&self) -> std::result::Result<Vec<String>, KeysError>;
    /// Own enumerable members in ECMAScript order, for rules that visit every member. A host
    /// that holds its members together (`&Value`) answers with each value already read, in one
    /// pass: `keys` then `get` per key would scan the object once per key, O(n²) for an
    /// object of n members. The default lists the keys and leaves every value unread (`None`),
    /// so a host that crosses a boundary per read (a JS getter, a Proxy) is read one member at
    /// a time, in order, as before; `member_value` reads it.
    fn members(&self) -> std::result::Result<Vec<(String, Option<HostResult<Self>>)>, KeysError> {
        Ok(self.keys()?.into_iter().map(|k| (k, None)).collect())
    }
    fn len(&self) -> HostResult<usize>;
    fn index(&self, i: usize) -> HostResult<Self>;
    /// For messages about a `NotJson` value: "function", "Map", "set"...
    fn not_json_name(&self) -> String;
}

/// The value of a member `HostValue::members` listed: the one it read, else `get` now. `None`
/// when the key vanished since it was listed (a JS getter or Proxy can delete it).
pub fn member_value<V: HostValue>(object: &V, key: &str, read: Option<HostResult<V>>) -> HostResult<Option<V>> {
    match read {
        Some(value) => value.map(Some),
        None => object.get(key),
    }
}

/// Whether `key` is an ECMAScript array index (canonical decimal below 2^32 - 1).
pub fn is_array_index(key: &str) -> bool {
    let b = key.as_bytes();
    if b.is_empty() || b.len() > 10 || (b.len() > 1 && b[0] == b'0') || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    key.parse::<u64>().is_ok_and(|n| n < u32::MAX as u64)
}

/// Reorders keys the way ECMAScript enumerates own properties.
pub fn ecmascript_order(keys: &mut [String]) {
    if keys.iter().any(|k| is_array_index(k)) {
        // Stable: non-index keys keep insertion order.
        crate::order::sort_by_key(
            keys,
            |k| if is_array_index(k) { (0, k.parse::<u64>().unwrap_or(0)) } else { (1, 0) },
        );
    }
}

impl<'a> HostValue for &'a Value {
    fn kind(&self) -> Kind {
        match self {
            Value::Undefined => Kind::Undefined,
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::IllFormedString => Kind::IllFormedString,
            Value::Array(_) | Value::TooDeep { array: true } => Kind::Array,
            Value::Object(_) | Value::TooDeep { array: false } => Kind::Object,
            Value::IllFormedKey | Value::NotJson(_) | Value::Cycle => Kind::NotJson,
        }
    }

    fn boolean(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn number(&self) -> f64 {
        match self {
            Value::Number(n) => n.value,
            _ => f64::NAN,
        }
    }

    fn number_text(&self) -> Option<Box<str>> {
        match self {
            Value::Number(n) => n.text.clone(),
            _ => None,
        }
    }

    fn string(&self) -> String {
        match self {
            Value::String(s) => s.clone(),
            _ => String::new(),
        }
    }

    fn get(&self, key: &str) -> HostResult<Option<Self>> {
        match self {
            Value::Object(entries) => {
                match entries.iter().find(|(k, v)| k == key && !matches!(v, Value::IllFormedKey)) {
                    Some((_, Value::Cycle)) => Err(HostFault::Cycle),
                    found => Ok(found.map(|(_, v)| v)),
                }
            }
            Value::TooDeep { .. } => Err(HostFault::TooDeep),
            _ => Ok(None),
        }
    }

    fn keys(&self) -> std::result::Result<Vec<String>, KeysError> {
        let Value::Object(entries) = self else {
            return too_deep(self).map(|()| Vec::new());
        };
        if entries.iter().any(|(_, v)| matches!(v, Value::IllFormedKey)) {
            return Err(KeysError::IllFormedKey);
        }
        let mut keys: Vec<String> = entries.iter().map(|(k, _)| k.clone()).collect();
        ecmascript_order(&mut keys);
        Ok(keys)
    }

    fn members(&self) -> std::result::Result<Vec<(String, Option<HostResult<Self>>)>, KeysError> {
        let Value::Object(entries) = self else {
            return too_deep(self).map(|()| Vec::new());
        };
        let mut members = Vec::with_capacity(entries.len());
        let mut indexed = false;
        for (key, value) in entries {
            let read = match value {
                Value::IllFormedKey => return Err(KeysError::IllFormedKey),
                Value::Cycle => Err(HostFault::Cycle),
                value => Ok(value),
            };
            indexed |= is_array_index(key);
            members.push((key.clone(), Some(read)));
        }
        if indexed {
            // Stable, as `ecmascript_order`: non-index keys keep insertion order.
            crate::order::sort_by_key(&mut members, |(k, _)| {
                if is_array_index(k) {
                    (0, k.parse::<u64>().unwrap_or(0))
                } else {
                    (1, 0)
                }
            });
        }
        Ok(members)
    }

    fn len(&self) -> HostResult<usize> {
        match self {
            Value::Array(items) => Ok(items.len()),
            Value::TooDeep { .. } => Err(HostFault::TooDeep),
            _ => Ok(0),
        }
    }

    fn index(&self, i: usize) -> HostResult<Self> {
        match self {
            Value::Array(items) if i < items.len() => match &items[i] {
                Value::Cycle => Err(HostFault::Cycle),
                item => Ok(item),
            },
            Value::TooDeep { .. } => Err(HostFault::TooDeep),
            _ => Err(HostFault::Threw("index out of range".into())),
        }
    }

    fn not_json_name(&self) -> String {
        match self {
            Value::NotJson(kind) => kind.clone(),
            other => other.kind_name().to_owned(),
        }
    }
}

/// A container a host did not write out cannot be listed.
fn too_deep(value: &Value) -> std::result::Result<(), KeysError> {
    match value {
        Value::TooDeep { .. } => Err(KeysError::Fault(HostFault::TooDeep)),
        _ => Ok(()),
    }
}

pub fn ill_formed_key(path: &str) -> ContractError {
    ContractError::new(Code::StringLoneSurrogate, path, "an object key contains a lone UTF-16 surrogate")
}

/// Counts the measured size of what rules read against `Limits::max_bytes`.
pub struct Budget {
    used: usize,
    max: usize,
}

impl Budget {
    pub fn new(limits: &Limits) -> Budget {
        Budget { used: 0, max: limits.max_bytes }
    }

    /// For values parsed from text, whose size the text length already bounded.
    pub fn unlimited() -> Budget {
        Budget { used: 0, max: usize::MAX }
    }

    pub fn check_room(&self, units: usize) -> Result<()> {
        if self.used.saturating_add(units) > self.max {
            return Err(self.too_large());
        }
        Ok(())
    }

    fn too_large(&self) -> ContractError {
        ContractError::new(Code::InputTooLarge, "", format!("input is larger than the limit of {} bytes", self.max))
    }

    pub fn charge(&mut self, units: usize) -> Result<()> {
        self.used = self.used.saturating_add(units);
        if self.used > self.max {
            return Err(self.too_large());
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Undefined {
    /// Kept as `Value::Undefined` (tool input: an own property holding undefined).
    Keep,
    /// An error: the value must be pure JSON (schemas).
    Reject,
}

/// Everything a deep copy needs besides the value: limits, the size budget, what to do with
/// `undefined`.
pub struct Copier<'l> {
    pub limits: &'l Limits,
    pub budget: &'l mut Budget,
    pub undefined: Undefined,
}

impl Copier<'_> {
    /// Deep-copies a host value into a `Value` holding only JSON (and `Undefined` when kept),
    /// failing on the first value with no JSON form. `depth` is the number of containers
    /// around `value`.
    pub fn copy<V: HostValue>(&mut self, value: &V, path: &Path<'_>, depth: usize) -> Result<Value> {
        match value.kind() {
            Kind::Undefined => match self.undefined {
                Undefined::Keep => {
                    self.budget.charge(1)?;
                    Ok(Value::Undefined)
                }
                Undefined::Reject => Err(not_json(&path.render(), "undefined")),
            },
            Kind::Null => {
                self.budget.charge(1)?;
                Ok(Value::Null)
            }
            Kind::Bool => {
                self.budget.charge(1)?;
                Ok(Value::Bool(value.boolean()))
            }
            Kind::Number => {
                let n = finite(value.number(), path)?;
                self.budget.charge(1)?;
                Ok(Value::Number(Number { value: n, text: value.number_text() }))
            }
            Kind::String => self.string(value.string(), path),
            Kind::IllFormedString => Err(lone_surrogate(&path.render())),
            Kind::Array => {
                self.enter(path, depth)?;
                let len = value.len().map_err(|f| f.at(&path.render()))?;
                if len > self.limits.max_array_length {
                    self.limits.check_array(len, &path.render())?;
                }
                // Every element costs at least one unit: a huge (even sparse) length fails now
                // instead of after millions of reads.
                self.budget.check_room(len)?;
                let mut items = Vec::with_capacity(len.min(1024));
                for i in 0..len {
                    let item_path = Path::Index(path, i);
                    let item = value.index(i).map_err(|f| f.at(&item_path.render()))?;
                    items.push(self.copy(&item, &item_path, depth + 1)?);
                }
                Ok(Value::Array(items))
            }
            Kind::Object => {
                self.enter(path, depth)?;
                let members = value.members().map_err(|e| e.at(&path.render()))?;
                if members.len() > self.limits.max_object_members {
                    self.limits.check_members(members.len(), &path.render())?;
                }
                let mut entries = Vec::with_capacity(members.len());
                for (key, read) in members {
                    if key.len() > self.limits.max_string_bytes {
                        self.limits.check_string(key.len(), &path.render())?;
                    }
                    self.budget.charge(key.len())?;
                    let item_path = Path::Key(path, &key);
                    let item = match read {
                        Some(read) => read.map_err(|f| f.at(&item_path.render()))?,
                        // Asked as a string first: a host that crosses a boundary per read
                        // answers a string member in one crossing instead of two.
                        // A key listed a moment ago can vanish under a getter or Proxy; it is
                        // then simply not there.
                        None => match value.get_string(&key).map_err(|f| f.at(&item_path.render()))? {
                            StringField::Missing => continue,
                            StringField::String(s) => {
                                let copied = self.string(s, &item_path)?;
                                entries.push((key, copied));
                                continue;
                            }
                            StringField::Other(item) => item,
                        },
                    };
                    let copied = self.copy(&item, &item_path, depth + 1)?;
                    entries.push((key, copied));
                }
                Ok(Value::Object(entries))
            }
            Kind::NotJson => Err(not_json(&path.render(), &value.not_json_name())),
        }
    }

    /// A well-formed string read: its limit, then the size budget.
    fn string(&mut self, s: String, path: &Path<'_>) -> Result<Value> {
        if s.len() > self.limits.max_string_bytes {
            self.limits.check_string(s.len(), &path.render())?;
        }
        self.budget.charge(1 + s.len())?;
        Ok(Value::String(s))
    }

    fn enter(&mut self, path: &Path<'_>, depth: usize) -> Result<()> {
        if depth + 1 > self.limits.max_depth {
            return Err(ContractError::new(
                Code::InputTooDeep,
                path.render(),
                format!("nesting is deeper than the limit of {}", self.limits.max_depth),
            ));
        }
        self.budget.charge(1)
    }
}

/// `n` when it is finite; `NaN` and the infinities are no JSON values (`VALUE_NOT_JSON`, named
/// as a host spells them).
pub fn finite(n: f64, path: &Path<'_>) -> Result<f64> {
    if n.is_finite() {
        return Ok(n);
    }
    let name = if n.is_nan() {
        "NaN"
    } else if n > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    };
    Err(not_json(&path.render(), name))
}

pub fn not_json(path: &str, what: &str) -> ContractError {
    let article = if what.starts_with(|c: char| "aeiouAEIOU".contains(c)) { "an" } else { "a" };
    let message = if what.chars().next().is_some_and(|c| c.is_ascii_uppercase()) || what == "undefined" {
        format!("{what} is not a JSON value")
    } else {
        format!("{article} {what} is not a JSON value")
    };
    ContractError::new(Code::ValueNotJson, path, message)
}

pub fn lone_surrogate(path: &str) -> ContractError {
    ContractError::new(Code::StringLoneSurrogate, path, "string contains a lone UTF-16 surrogate")
}
