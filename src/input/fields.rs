//! Field-reading helpers shared by the action and tool rules: the three states of a field
//! (missing / undefined / a value) and the non-blank string check, each failure with its code
//! and JSON Pointer, in the layer of the rule asking.

use crate::error::{Code, ContractError, Layer, Result};
use crate::input::limits::Limits;
use crate::input::{lone_surrogate, Budget, Copier, HostValue, Kind, Path, StringField, Undefined};
use crate::value::{pointer_child, Value};

/// One own field as a rule sees it.
pub enum Field<V> {
    Missing,
    Undefined,
    Present(V),
}

/// Where the value a rule reads comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A host value: measured against `max_bytes` as it is read; nested values are deep-copied
    /// (and checked to be JSON) as they are read.
    Host,
    /// A document the strict parser just built: its size, depth and JSON-ness are already
    /// proven, so nested values are not copied; the caller moves them out of the document.
    StrictText,
}

/// Reads fields of one object for one rule, in that rule's layer, charging what it reads.
pub struct Reader<'l> {
    pub layer: Layer,
    pub limits: &'l Limits,
    pub budget: Budget,
    source: Source,
}

impl<'l> Reader<'l> {
    pub fn new(layer: Layer, limits: &'l Limits, source: Source) -> Reader<'l> {
        let budget = match source {
            Source::Host => Budget::new(limits),
            Source::StrictText => Budget::unlimited(),
        };
        Reader { layer, limits, budget, source }
    }

    pub fn error(&self, code: Code, path: &str, message: impl Into<String>) -> ContractError {
        ContractError::new(code, path, message).in_layer(self.layer)
    }

    pub fn field<V: HostValue>(&mut self, object: &V, key: &str) -> Result<Field<V>> {
        match object.get(key).map_err(|f| f.at(&pointer_child("", key)))? {
            None => Ok(Field::Missing),
            Some(v) if v.kind() == Kind::Undefined => Ok(Field::Undefined),
            Some(v) => {
                self.budget.charge(key.len())?;
                Ok(Field::Present(v))
            }
        }
    }

    /// A field that must hold a string; `None` when missing (for optional fields).
    pub fn optional_string<V: HostValue>(&mut self, object: &V, key: &str) -> Result<Option<String>> {
        match object.get_string(key).map_err(|f| f.at(&pointer_child("", key)))? {
            StringField::Missing => Ok(None),
            StringField::String(s) => {
                self.budget.charge(key.len())?;
                self.charge_string(&s, &Path::Key(&Path::Root(""), key))?;
                Ok(Some(s))
            }
            StringField::Other(v) if v.kind() == Kind::Undefined => Err(self.undefined(&pointer_child("", key), key)),
            StringField::Other(v) => {
                self.budget.charge(key.len())?;
                self.string_value(&v, &Path::Key(&Path::Root(""), key), key).map(Some)
            }
        }
    }

    /// A field that must hold a string with at least one non-whitespace character. Returned as
    /// given, not trimmed.
    pub fn required_text<V: HostValue>(&mut self, object: &V, key: &str, empty: Code) -> Result<String> {
        let Some(text) = self.optional_string(object, key)? else {
            return Err(self.error(
                Code::FieldMissing,
                &pointer_child("", key),
                format!("missing required field {key}"),
            ));
        };
        if is_blank(&text) {
            return Err(self.error(empty, &pointer_child("", key), format!("{key} must not be empty or blank")));
        }
        Ok(text)
    }

    /// The string limit, then the size budget, for a string a rule has read.
    fn charge_string(&mut self, s: &str, path: &Path<'_>) -> Result<()> {
        if s.len() > self.limits.max_string_bytes {
            self.limits.check_string(s.len(), &path.render())?;
        }
        self.budget.charge(1 + s.len())
    }

    pub fn string_value<V: HostValue>(&mut self, v: &V, path: &Path<'_>, name: &str) -> Result<String> {
        match v.kind() {
            Kind::String => {
                let s = v.string();
                self.charge_string(&s, path)?;
                Ok(s)
            }
            Kind::IllFormedString => Err(lone_surrogate(&path.render())),
            Kind::Undefined => Err(self.undefined(&path.render(), name)),
            other => Err(self.error(
                Code::FieldType,
                &path.render(),
                format!("{name} must be a string, got {}", kind_name(v, other)),
            )),
        }
    }

    /// The own keys of an object a rule lists (strict mode, closed objects), within
    /// `maxObjectMembers` and `maxStringBytes`.
    pub fn keys<V: HostValue>(&self, object: &V, path: &str) -> Result<Vec<String>> {
        let keys = object.keys().map_err(|e| e.at(path))?;
        self.limits.check_members(keys.len(), path)?;
        for key in &keys {
            self.limits.check_string(key.len(), path)?;
        }
        Ok(keys)
    }

    pub fn undefined(&self, path: &str, key: &str) -> ContractError {
        self.error(Code::FieldUndefined, path, format!("{key} is present but undefined"))
    }

    /// Deep-copies a nested value (tool input, schemas) under the same limits and budget.
    /// For `Source::StrictText` this returns `Null`: the caller moves the value out instead.
    pub fn copy<V: HostValue>(&mut self, v: &V, path: &str, undefined: Undefined) -> Result<Value> {
        // The value sits inside the root object: one container around it.
        self.copy_at(v, path, undefined, 1)
    }

    /// `copy` for a value with `depth` containers around it.
    pub fn copy_at<V: HostValue>(&mut self, v: &V, path: &str, undefined: Undefined, depth: usize) -> Result<Value> {
        if self.source == Source::StrictText {
            return Ok(Value::Null);
        }
        let mut copier = Copier { limits: self.limits, budget: &mut self.budget, undefined };
        copier.copy(v, &Path::Root(path), depth)
    }
}

pub fn kind_name<V: HostValue>(v: &V, kind: Kind) -> String {
    match kind {
        Kind::NotJson => v.not_json_name(),
        other => other.name().to_owned(),
    }
}

/// Blank means empty or only Unicode White_Space. The core decides it, so every host agrees
/// (JS `trim()` and Python `str.strip()` disagree on U+FEFF, U+0085 and U+180E).
pub fn is_blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}
