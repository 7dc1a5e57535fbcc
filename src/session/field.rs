//! How the message and session rules read nested objects: `input::fields::Reader` (limits,
//! size budget, layer) plus `strict` and the dialect, with every field read relative to the
//! JSON Pointer of the object holding it. Missing, `undefined` and a value are three states, as
//! for actions: a required field missing is `FIELD_MISSING`, holding `undefined` (required or
//! optional) `FIELD_UNDEFINED`.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::fields::{is_blank, kind_name, Field, Reader, Source};
use crate::input::limits::Limits;
use crate::input::{finite, not_json, HostValue, Kind, Path, Undefined};
use crate::value::{pointer_child, Value};

/// Which rules apply: the seed's (default) or pi-mono's older session format (`dialect: "pi"`,
/// `session::pi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Seed,
    Pi,
}

/// The largest integer every host holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

pub struct Ctx<'l> {
    pub r: Reader<'l>,
    pub strict: bool,
    pub dialect: Dialect,
    /// A check whose result is not kept (`checkSession` on text the strict parser read): payload
    /// strings, which no rule reads, are checked for their type but not copied.
    pub check_only: bool,
}

impl<'l> Ctx<'l> {
    pub fn new(limits: &'l Limits, source: Source, strict: bool, dialect: Dialect) -> Ctx<'l> {
        Ctx {
            r: Reader::new(Layer::Protocol, limits, source),
            strict,
            dialect,
            check_only: source == Source::StrictText,
        }
    }

    pub fn pi(&self) -> bool {
        self.dialect == Dialect::Pi
    }

    pub fn error(&self, code: Code, path: &str, message: impl Into<String>) -> ContractError {
        self.r.error(code, path, message)
    }

    /// `value` must be a plain object (`what` names it in the message); `level` is its nesting
    /// level, the outermost value being 1.
    pub fn object<V: HostValue>(&mut self, value: &V, path: &str, what: &str, level: usize) -> Result<()> {
        if value.kind() != Kind::Object {
            return Err(self.type_error(value, path, &format!("{what} must be an object")));
        }
        self.enter(path, level)
    }

    /// A container the rules read at nesting `level`, within `maxDepth`, charged one unit.
    pub fn enter(&mut self, path: &str, level: usize) -> Result<()> {
        if level > self.r.limits.max_depth {
            return Err(ContractError::new(
                Code::InputTooDeep,
                path,
                format!("nesting is deeper than the limit of {}", self.r.limits.max_depth),
            ));
        }
        self.r.budget.charge(1)
    }

    /// `FIELD_TYPE` for `value` (or the parse-layer verdict when it is no JSON value at all).
    pub fn type_error<V: HostValue>(&self, value: &V, path: &str, expected: &str) -> ContractError {
        match value.kind() {
            Kind::Undefined => self.error(Code::FieldUndefined, path, "the value is undefined"),
            Kind::NotJson => not_json(path, &value.not_json_name()),
            kind => self.error(Code::FieldType, path, format!("{expected}, got {}", kind_name(value, kind))),
        }
    }

    /// In strict mode, the first own field of `object` not in `known` is `FIELD_UNKNOWN`;
    /// otherwise unknown fields are dropped (the rules build their result from known fields).
    pub fn closed<V: HostValue>(&self, object: &V, path: &str, known: &[&str], what: &str) -> Result<()> {
        if !self.strict {
            return Ok(());
        }
        for key in self.r.keys(object, path)? {
            if !known.contains(&key.as_str()) {
                return Err(self.error(
                    Code::FieldUnknown,
                    &pointer_child(path, &key),
                    format!("unknown field {} in {what} (strict mode)", crate::value::quoted_name(&key)),
                ));
            }
        }
        Ok(())
    }

    pub fn field<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<Field<V>> {
        match object.get(key).map_err(|f| f.at(&pointer_child(parent, key)))? {
            None => Ok(Field::Missing),
            Some(v) if v.kind() == Kind::Undefined => Ok(Field::Undefined),
            Some(v) => {
                self.r.budget.charge(key.len())?;
                Ok(Field::Present(v))
            }
        }
    }

    pub fn required<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<V> {
        match self.field(object, parent, key)? {
            Field::Missing => Err(self.error(
                Code::FieldMissing,
                &pointer_child(parent, key),
                format!("missing required field {key}"),
            )),
            Field::Undefined => Err(self.r.undefined(&pointer_child(parent, key), key)),
            Field::Present(v) => Ok(v),
        }
    }

    pub fn optional<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<Option<V>> {
        match self.field(object, parent, key)? {
            Field::Missing => Ok(None),
            Field::Undefined => Err(self.r.undefined(&pointer_child(parent, key), key)),
            Field::Present(v) => Ok(Some(v)),
        }
    }

    /// `path` is rendered only for an error: the valid case allocates no pointer.
    pub fn string_of<V: HostValue>(&mut self, value: &V, path: &Path<'_>, name: &str) -> Result<String> {
        if value.kind() == Kind::NotJson {
            return Err(not_json(&path.render(), &value.not_json_name()));
        }
        self.r.string_value(value, path, name)
    }

    /// A required string (may be empty).
    pub fn string<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<String> {
        let v = self.required(object, parent, key)?;
        self.string_of(&v, &Path::Key(&Path::Root(parent), key), key)
    }

    /// A required string no rule reads (a text, a summary): its value, or `Null` in a check
    /// whose result is not kept (the parser already applied the string limits).
    pub fn payload<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<Value> {
        let v = self.required(object, parent, key)?;
        self.payload_of(&v, &Path::Key(&Path::Root(parent), key), key)
    }

    pub fn payload_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, key: &str) -> Result<Value> {
        if self.check_only && v.kind() == Kind::String {
            return Ok(Value::Null);
        }
        self.string_of(v, path, key).map(Value::String)
    }

    pub fn optional_payload<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<Option<Value>> {
        match self.optional(object, parent, key)? {
            None => Ok(None),
            Some(v) => self.payload_of(&v, &Path::Key(&Path::Root(parent), key), key).map(Some),
        }
    }

    /// A required string with a non-whitespace character (`FIELD_EMPTY` otherwise).
    pub fn text<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<String> {
        let s = self.string(object, parent, key)?;
        if is_blank(&s) {
            return Err(self.error(
                Code::FieldEmpty,
                &pointer_child(parent, key),
                format!("{key} must not be empty or blank"),
            ));
        }
        Ok(s)
    }

    pub fn non_blank(&self, s: &str, path: &str, key: &str) -> Result<()> {
        if is_blank(s) {
            return Err(self.error(Code::FieldEmpty, path, format!("{key} must not be empty or blank")));
        }
        Ok(())
    }

    pub fn optional_string<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<Option<String>> {
        match self.optional(object, parent, key)? {
            None => Ok(None),
            Some(v) => self.string_of(&v, &Path::Key(&Path::Root(parent), key), key).map(Some),
        }
    }

    pub fn boolean_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, key: &str) -> Result<bool> {
        if v.kind() != Kind::Bool {
            return Err(self.type_error(v, &path.render(), &format!("{key} must be a boolean")));
        }
        self.r.budget.charge(1)?;
        Ok(v.boolean())
    }

    pub fn boolean<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<bool> {
        let v = self.required(object, parent, key)?;
        self.boolean_of(&v, &Path::Key(&Path::Root(parent), key), key)
    }

    /// A finite number (`NaN` and the infinities are no JSON values).
    pub fn number_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, key: &str) -> Result<f64> {
        if v.kind() != Kind::Number {
            return Err(self.type_error(v, &path.render(), &format!("{key} must be a number")));
        }
        let n = finite(v.number(), path)?;
        self.r.budget.charge(1)?;
        Ok(n)
    }

    /// A finite number `>= 0` (`FIELD_VALUE_INVALID` below zero).
    pub fn non_negative<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<f64> {
        let v = self.required(object, parent, key)?;
        self.non_negative_of(&v, &Path::Key(&Path::Root(parent), key), key)
    }

    pub fn non_negative_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, key: &str) -> Result<f64> {
        let n = self.number_of(v, path, key)?;
        if n < 0.0 {
            return Err(self.error(
                Code::FieldValueInvalid,
                &path.render(),
                format!("{key} must not be negative, got {n}"),
            ));
        }
        Ok(n)
    }

    /// An integer from 0 to 2^53 - 1 (`FIELD_VALUE_INVALID` otherwise).
    pub fn count<V: HostValue>(&mut self, object: &V, parent: &str, key: &str) -> Result<f64> {
        let v = self.required(object, parent, key)?;
        self.count_of(&v, &Path::Key(&Path::Root(parent), key), key)
    }

    pub fn count_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, key: &str) -> Result<f64> {
        let n = self.number_of(v, path, key)?;
        if n < 0.0 || n.fract() != 0.0 || n > MAX_SAFE_INTEGER {
            return Err(self.error(
                Code::FieldValueInvalid,
                &path.render(),
                format!("{key} must be a non-negative integer, got {n}"),
            ));
        }
        Ok(n)
    }

    /// Any JSON value, copied (no `undefined` inside); `depth` containers are around it.
    pub fn json_of<V: HostValue>(&mut self, v: &V, path: &Path<'_>, depth: usize) -> Result<Value> {
        if self.check_only {
            return Ok(Value::Null);
        }
        self.r.copy_at(v, &path.render(), Undefined::Reject, depth)
    }
}

/// A message's `timestamp`: Unix milliseconds, a finite number `>= 0`. Here rather than in
/// `message` because the pi dialect's messages (`pi`) read it too, and `message` hands the pi
/// dialect its fields: the dependency stays one-way, `message` -> `pi` -> `field`.
pub fn timestamp<V: HostValue>(c: &mut Ctx<'_>, value: &V, path: &str) -> Result<Value> {
    c.non_negative(value, path, "timestamp").map(number)
}

/// The number of a result: the exact value, written as JSON writes it.
pub fn number(n: f64) -> Value {
    Value::Number(crate::value::Number::from_f64(n))
}

pub fn string(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

pub fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}
