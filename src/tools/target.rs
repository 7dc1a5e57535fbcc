//! A tool's schema for another JSON Schema draft, as Standard JSON Schema consumers ask for it
//! (`~standard.jsonSchema.input({target})`; the Vercel AI SDK asks for `"draft-07"`).
//!
//! Targets: the schema's own draft (root `$schema`, 2020-12 when absent) gives the schema as
//! it is; `draft-07` is reached from 2020-12 and 2019-09 by rewriting, keyword by keyword and
//! through every subschema, what has a faithful draft-07 equivalent:
//!
//! - `prefixItems` (+ `items`) → the array form of `items` (+ `additionalItems`);
//! - `$defs` → `definitions`;
//! - `dependentRequired` / `dependentSchemas` → `dependencies` (one name in both: the schema
//!   form `{required, allOf: [schema]}`);
//! - `$ref` beside assertions or applicators (draft-07 ignores every sibling of `$ref`) →
//!   the `$ref` moved into `allOf`; annotations stay beside it;
//! - every `$ref` into the schema whose JSON Pointer crosses a renamed keyword → the pointer of
//!   the new location (decoded and encoded as RFC 6901 and RFC 3986 say).
//!
//! Keywords with no faithful draft-07 form are `SCHEMA_TARGET_UNSUPPORTED` at their pointer:
//! `$anchor`, `$dynamicRef`, `$dynamicAnchor`, `$recursiveRef`, `$recursiveAnchor`,
//! `$vocabulary`, `unevaluatedProperties`, `unevaluatedItems`, `minContains`, `maxContains`,
//! `contentSchema`; keywords draft-07 reads as assertions where the source ignores them
//! (`dependencies`; in 2020-12 `additionalItems` and the array form of `items`; in 2019-09
//! `prefixItems`); a `$schema` below the root; an `$id` with a fragment (draft-07 reads it as
//! an anchor); a `$ref` to a document the schema does not hold (its draft, and so its meaning,
//! is unknown here). Any other target is that error at `""`, as the Standard JSON Schema spec
//! asks ("throw if the target is not supported").
//!
//! `standard_json_schema` is the converter `toStandardSchema` hands to consumers: the same,
//! except that a schema with a keyword draft-07 cannot hold is given in its own draft with its
//! `$schema` written out, so that a consumer asking for draft-07 (which cannot catch an error
//! inside its own call) still gets a schema that means what the tool checks.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::error::{Code, ContractError, Result};
use crate::value::{Positions, Value};

const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_2019_09: &str = "https://json-schema.org/draft/2019-09/schema";
const DRAFT_07: [&str; 2] = ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"];

/// The base URI of a schema without a root `$id`: a relative `$ref` resolved against it names
/// a document the schema cannot hold.
const NO_BASE: &str = "https://agent-contract.invalid/schema";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Draft {
    D2020,
    D2019,
    D07,
}

impl Draft {
    fn name(self) -> &'static str {
        match self {
            Draft::D2020 => "draft-2020-12",
            Draft::D2019 => "draft-2019-09",
            Draft::D07 => "draft-07",
        }
    }
}

/// Keywords with no faithful draft-07 form, in 2020-12 and 2019-09 alike.
const NO_DRAFT_07_FORM: [&str; 11] = [
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "contentSchema",
];

/// Keywords whose value is one subschema (`items` and `additionalItems` are handled apart).
const ONE: [&str; 7] = ["not", "if", "then", "else", "additionalProperties", "propertyNames", "contains"];
const LIST: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const MAP: [&str; 3] = ["properties", "patternProperties", "definitions"];
/// What may stay beside a `$ref` in draft-07: annotations, whose being ignored there changes
/// no verdict.
pub(crate) const ANNOTATIONS: [&str; 8] =
    ["$comment", "description", "title", "default", "examples", "readOnly", "writeOnly", "deprecated"];

/// `jsonSchemaForTarget`: the schema for `target`, or `SCHEMA_TARGET_UNSUPPORTED` at the first
/// keyword with no faithful form there.
pub fn json_schema_for_target(schema: &Value, target: &str) -> Result<Value> {
    let own = own_draft(schema)?;
    if target == own.name() {
        return Ok(schema.clone());
    }
    check_target(own, target)?;
    to_draft_07(schema, own)
}

/// `standardJsonSchema`: as `json_schema_for_target`, but a schema with a keyword the target
/// cannot hold is given in its own draft, its `$schema` written out. An unsupported target is
/// still an error.
pub fn standard_json_schema(schema: &Value, target: &str) -> Result<Value> {
    let own = own_draft(schema)?;
    if target == own.name() {
        return Ok(schema.clone());
    }
    check_target(own, target)?;
    match to_draft_07(schema, own) {
        Err(e) if e.code == Code::SchemaTargetUnsupported => Ok(with_own_schema(schema, own)),
        other => other,
    }
}

fn own_draft(schema: &Value) -> Result<Draft> {
    Ok(match schema.get("$schema") {
        None => Draft::D2020,
        Some(Value::String(s)) if s.trim_end_matches('#') == DRAFT_2020_12 => Draft::D2020,
        Some(Value::String(s)) if s.trim_end_matches('#') == DRAFT_2019_09 => Draft::D2019,
        Some(Value::String(s)) if DRAFT_07.contains(&s.as_str()) => Draft::D07,
        Some(_) => {
            return Err(unsupported("/$schema", "the schema's own $schema is not a draft this library runs".into()))
        }
    })
}

fn check_target(own: Draft, target: &str) -> Result<()> {
    if target == "draft-07" && own != Draft::D07 {
        return Ok(());
    }
    let own = own.name();
    Err(unsupported(
        "",
        format!("a {own} schema cannot be given for the target {target:?} (supported: its own draft, and draft-07)"),
    ))
}

fn with_own_schema(schema: &Value, own: Draft) -> Value {
    match schema {
        Value::Object(entries) if schema.get("$schema").is_none() && own == Draft::D2020 => {
            let mut out = Vec::with_capacity(entries.len() + 1);
            out.push(("$schema".to_owned(), Value::String(DRAFT_2020_12.to_owned())));
            out.extend(entries.iter().cloned());
            Value::Object(out)
        }
        _ => schema.clone(),
    }
}

fn to_draft_07(schema: &Value, source: Draft) -> Result<Value> {
    let root_base = root_base(schema)?;
    let mut found = Vec::new();
    collect_resources(schema, 0, &mut Positions::new(""), &root_base, source, &mut found)?;
    let mut resources = HashMap::with_capacity(found.len());
    for (url, node) in found {
        resources.entry(url.to_string()).or_insert(node);
    }
    let positions = RefCell::new(Positions::new(""));
    let conv = Converter { source, resources, members: RefCell::new(HashMap::new()), positions };
    let out = conv.schema(schema, 0, &root_base, schema, true)?;
    let Value::Object(entries) = out else { return Ok(out) };
    Ok(Value::Object(entries.into_iter().filter(|(k, _)| k != "$schema").collect()))
}

fn root_base(schema: &Value) -> Result<url::Url> {
    let base = url::Url::parse(NO_BASE).expect("a valid URL");
    match schema.get("$id") {
        Some(Value::String(id)) => resolve_id(&base, id, || "/$id".to_owned()),
        _ => Ok(base),
    }
}

/// An `$id` against its base, without its empty fragment; one with a fragment is an anchor in
/// draft-07, which 2020-12 spells `$anchor`.
fn resolve_id(base: &url::Url, id: &str, path: impl FnOnce() -> String) -> Result<url::Url> {
    if id.split_once('#').is_some_and(|(_, f)| !f.is_empty()) {
        return Err(unsupported(&path(), "an $id with a fragment is an anchor in draft-07".into()));
    }
    let mut url = base.join(id).map_err(|_| unsupported(&path(), "the $id is not a URI reference".into()))?;
    url.set_fragment(None);
    Ok(url)
}

/// Where a subschema sits under its parent: a keyword's value, an item of its list, or a
/// member of its map.
enum Step<'a> {
    One(&'a str),
    Item(&'a str, usize),
    Member(&'a str, &'a str),
}

impl Step<'_> {
    fn position(&self, positions: &mut Positions, at: usize) -> usize {
        match *self {
            Step::One(k) => positions.member(at, k),
            Step::Item(k, i) => {
                let keyword = positions.member(at, k);
                positions.item(keyword, i)
            }
            Step::Member(k, name) => {
                let keyword = positions.member(at, k);
                positions.member(keyword, name)
            }
        }
    }
}

/// Every subschema of `node` (the keywords `Converter::schema` descends into).
fn children(node: &Value, source: Draft) -> Vec<(Step<'_>, &Value)> {
    let Value::Object(entries) = node else { return Vec::new() };
    let mut out = Vec::new();
    for (k, v) in entries {
        let k = k.as_str();
        let one = ONE.contains(&k) || k == "items" || (k == "additionalItems" && source == Draft::D2019);
        let list = LIST.contains(&k) || k == "prefixItems" || k == "items";
        let map = MAP.contains(&k) || k == "$defs" || k == "dependentSchemas";
        match v {
            Value::Array(items) if list => out.extend(items.iter().enumerate().map(|(i, s)| (Step::Item(k, i), s))),
            Value::Object(members) if map => {
                out.extend(members.iter().map(|(name, s)| (Step::Member(k, name.as_str()), s)));
            }
            Value::Object(_) | Value::Bool(_) if one => out.push((Step::One(k), v)),
            _ => {}
        }
    }
    out
}

/// The schema resources the document holds (the root and every subschema with an `$id`), by
/// base URI. Positions, not pointers, are carried down: a pointer per level held the depth
/// times the path (long member names nested deep).
fn collect_resources<'a>(
    node: &'a Value,
    at: usize,
    positions: &mut Positions,
    base: &url::Url,
    source: Draft,
    out: &mut Vec<(url::Url, &'a Value)>,
) -> Result<()> {
    let root = at == 0;
    let base = match node.get("$id") {
        Some(Value::String(id)) if !root => resolve_id(base, id, || positions.pointer(at) + "/$id")?,
        _ => base.clone(),
    };
    if root || matches!(node.get("$id"), Some(Value::String(_))) {
        out.push((base.clone(), node));
    }
    for (step, child) in children(node, source) {
        let child_at = step.position(positions, at);
        collect_resources(child, child_at, positions, &base, source, out)?;
    }
    Ok(())
}

struct Converter<'a> {
    source: Draft,
    /// The schema resources by base URI (the first of a repeated one, as `$id`s are unique in a
    /// schema the engine compiles).
    resources: HashMap<String, &'a Value>,
    /// The members of the large objects `$ref` pointers walk through, by the object's address,
    /// built once each: many pointers into one `$defs` cost their length, not the map's size.
    members: RefCell<HashMap<*const Value, HashMap<&'a str, &'a Value>>>,
    /// The walk's positions (0 is the root); a pointer is written out only for an error.
    positions: RefCell<Positions>,
}

/// Objects with more members than this are looked up through an index.
const INDEXED: usize = 16;

impl<'a> Converter<'a> {
    /// The member `name` of `v`, as `Value::get` finds it (the first of that name).
    fn member(&self, v: &'a Value, name: &str) -> Option<&'a Value> {
        let Value::Object(entries) = v else { return None };
        if entries.len() <= INDEXED {
            return v.get(name);
        }
        let mut members = self.members.borrow_mut();
        let index = members.entry(v as *const Value).or_insert_with(|| {
            let mut index = HashMap::with_capacity(entries.len());
            for (k, item) in entries {
                index.entry(k.as_str()).or_insert(item);
            }
            index
        });
        index.get(name).copied()
    }

    /// The position of member `key` under `at`.
    fn member_at(&self, at: usize, key: &str) -> usize {
        self.positions.borrow_mut().member(at, key)
    }

    /// The JSON Pointer of member `key` under `at`, for an error.
    fn pointer_of(&self, at: usize, key: &str) -> String {
        let at = self.member_at(at, key);
        self.positions.borrow().pointer(at)
    }

    fn list(&self, v: &'a Value, at: usize, base: &url::Url, resource: &'a Value) -> Result<Value> {
        let Value::Array(items) = v else { return Ok(v.clone()) };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let item_at = self.positions.borrow_mut().item(at, i);
            out.push(self.schema(item, item_at, base, resource, false)?);
        }
        Ok(Value::Array(out))
    }

    fn map(&self, v: &'a Value, at: usize, base: &url::Url, resource: &'a Value) -> Result<Value> {
        let Value::Object(members) = v else { return Ok(v.clone()) };
        let mut out = Vec::with_capacity(members.len());
        for (name, item) in members {
            out.push((name.clone(), self.schema(item, self.member_at(at, name), base, resource, false)?));
        }
        Ok(Value::Object(out))
    }

    fn schema(&self, node: &'a Value, pos: usize, base: &url::Url, resource: &'a Value, root: bool) -> Result<Value> {
        let Value::Object(entries) = node else { return Ok(node.clone()) };
        let (base, resource) = match node.get("$id") {
            Some(Value::String(id)) if !root => (resolve_id(base, id, || self.pointer_of(pos, "$id"))?, node),
            _ => (base.clone(), resource),
        };
        let base = &base;
        let prefix = self.source == Draft::D2020
            && matches!(node.get("prefixItems"), Some(Value::Array(items)) if !items.is_empty());
        let mut out: Vec<(String, Value)> = Vec::with_capacity(entries.len());
        let mut dependencies_at = None;
        let mut ref_at = None;
        for (k, v) in entries {
            // The member's position is made only to descend into it, its pointer only for an error.
            let here = || self.member_at(pos, k);
            let err = |message: String| Err(unsupported(&self.pointer_of(pos, k), message));
            let key = k.as_str();
            if NO_DRAFT_07_FORM.contains(&key) {
                return err(format!("keyword {k:?} has no draft-07 form"));
            }
            let converted = match key {
                "$schema" if !root => {
                    return err("draft-07 reads $schema only at the root".into());
                }
                "dependencies" => {
                    return err(format!(
                        "a {} schema ignores \"dependencies\": draft-07 asserts it",
                        self.source.name()
                    ));
                }
                "prefixItems" if self.source == Draft::D2019 => {
                    return err("2019-09 ignores \"prefixItems\": draft-07 would assert it".into());
                }
                "additionalItems" if self.source == Draft::D2020 => {
                    return err("2020-12 ignores \"additionalItems\": draft-07 asserts it".into());
                }
                "items" if self.source == Draft::D2020 && matches!(v, Value::Array(_)) => {
                    return err("2020-12 has no array form of \"items\": draft-07 asserts it".into());
                }
                "$defs" if node.get("definitions").is_some() => {
                    return err("both $defs and definitions: draft-07 has one place for both".into());
                }
                "$defs" => Some(("definitions".to_owned(), self.map(v, here(), base, resource)?)),
                "prefixItems" if !matches!(v, Value::Array(_)) => {
                    return err("\"prefixItems\" is not a list".into());
                }
                "prefixItems" if prefix => Some(("items".to_owned(), self.list(v, here(), base, resource)?)),
                // An empty prefixItems constrains nothing, and draft-07's array items needs one.
                "prefixItems" => None,
                "items" if prefix => {
                    Some(("additionalItems".to_owned(), self.schema(v, here(), base, resource, false)?))
                }
                "items" | "additionalItems" if matches!(v, Value::Array(_)) => {
                    Some((k.clone(), self.list(v, here(), base, resource)?))
                }
                "items" | "additionalItems" => Some((k.clone(), self.schema(v, here(), base, resource, false)?)),
                "dependentRequired" | "dependentSchemas" => {
                    if !matches!(v, Value::Object(_)) {
                        return err(format!("{k:?} is not an object"));
                    }
                    dependencies_at.get_or_insert(out.len());
                    None
                }
                "$ref" => {
                    ref_at = Some(out.len());
                    match v {
                        Value::String(r) => Some((
                            k.clone(),
                            Value::String(self.reference(r, || self.pointer_of(pos, k), base, resource)?),
                        )),
                        _ => Some((k.clone(), v.clone())),
                    }
                }
                _ if ONE.contains(&key) => Some((k.clone(), self.schema(v, here(), base, resource, false)?)),
                _ if LIST.contains(&key) => Some((k.clone(), self.list(v, here(), base, resource)?)),
                _ if MAP.contains(&key) => Some((k.clone(), self.map(v, here(), base, resource)?)),
                _ => Some((k.clone(), v.clone())),
            };
            out.extend(converted);
        }
        if let Some(at) = dependencies_at {
            let dependencies = self.dependencies(node, pos, base, resource)?;
            out.insert(at, ("dependencies".to_owned(), dependencies));
            if let Some(r) = ref_at.as_mut().filter(|r| **r >= at) {
                *r += 1;
            }
        }
        if let Some(at) = ref_at {
            let wrap = entries
                .iter()
                .any(|(k, _)| k != "$ref" && !(root && k == "$schema") && !ANNOTATIONS.contains(&k.as_str()));
            if wrap {
                let (_, reference) = out.remove(at);
                let reference = Value::Object(vec![("$ref".to_owned(), reference)]);
                match out.iter_mut().find(|(k, _)| k == "allOf") {
                    // Appended, so a pointer into the existing `allOf` keeps its index.
                    Some((_, Value::Array(all))) => all.push(reference),
                    _ => out.insert(at, ("allOf".to_owned(), Value::Array(vec![reference]))),
                }
            }
        }
        Ok(Value::Object(out))
    }

    /// `dependentRequired` and `dependentSchemas` as one draft-07 `dependencies`.
    fn dependencies(&self, node: &'a Value, pos: usize, base: &url::Url, resource: &'a Value) -> Result<Value> {
        let mut out: Vec<(String, Value)> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        if let Some(Value::Object(required)) = node.get("dependentRequired") {
            for (name, names) in required {
                at.entry(name.clone()).or_insert(out.len());
                out.push((name.clone(), names.clone()));
            }
        }
        if let Some(Value::Object(schemas)) = node.get("dependentSchemas") {
            let here = self.member_at(pos, "dependentSchemas");
            for (name, s) in schemas {
                let s = self.schema(s, self.member_at(here, name), base, resource, false)?;
                match at.get(name).map(|&i| &mut out[i]) {
                    Some((_, slot)) => {
                        let required = std::mem::replace(slot, Value::Null);
                        *slot = Value::Object(vec![
                            ("required".to_owned(), required),
                            ("allOf".to_owned(), Value::Array(vec![s])),
                        ]);
                    }
                    None => out.push((name.clone(), s)),
                }
            }
        }
        Ok(Value::Object(out))
    }

    /// A `$ref` whose JSON Pointer names the new location of what it pointed to.
    fn reference(&self, r: &str, path: impl Fn() -> String, base: &url::Url, resource: &'a Value) -> Result<String> {
        let (uri, fragment) = match r.split_once('#') {
            Some((uri, fragment)) => (uri, Some(fragment)),
            None => (r, None),
        };
        let target = if uri.is_empty() {
            resource
        } else {
            let mut url = base.join(uri).map_err(|_| unsupported(&path(), "the $ref is not a URI reference".into()))?;
            url.set_fragment(None);
            match self.resources.get(url.as_str()) {
                Some(node) => *node,
                None => {
                    return Err(unsupported(
                        &path(),
                        "a $ref to a document the schema does not hold: its draft is unknown here".into(),
                    ))
                }
            }
        };
        let Some(fragment) = fragment.filter(|f| f.starts_with('/')) else { return Ok(r.to_owned()) };
        let decoded = percent_decode(fragment)
            .ok_or_else(|| unsupported(&path(), "the $ref's fragment is not percent-encoded UTF-8".into()))?;
        let segments: Vec<String> = decoded[1..].split('/').map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
        let mapped = self.pointer(target, &segments);
        if mapped == segments {
            return Ok(r.to_owned());
        }
        let mut out = String::with_capacity(r.len() + 8);
        out.push_str(uri);
        out.push('#');
        for segment in &mapped {
            out.push('/');
            percent_encode_segment(&segment.replace('~', "~0").replace('/', "~1"), &mut out);
        }
        Ok(out)
    }

    /// The segments of a pointer into `node` (a 2020-12 or 2019-09 schema) for the draft-07
    /// form of that schema. A segment that leaves the schema (into a `const`, an `enum`, a
    /// missing member) ends the mapping: the rest is kept as it is.
    fn pointer(&self, mut node: &'a Value, segments: &[String]) -> Vec<String> {
        let mut out = Vec::with_capacity(segments.len());
        let mut i = 0;
        while i < segments.len() {
            let key = segments[i].as_str();
            let next = segments.get(i + 1);
            let member = |v: &'a Value, name: &str| self.member(v, name);
            let element = |v: &'a Value, index: &str| match v {
                Value::Array(items) => index.parse::<usize>().ok().and_then(|n| items.get(n)),
                _ => None,
            };
            let prefix = self.source == Draft::D2020
                && matches!(self.member(node, "prefixItems"), Some(Value::Array(items)) if !items.is_empty());
            let step: Option<(Vec<String>, &'a Value, usize)> = match (self.member(node, key), next) {
                (None, _) => None,
                (Some(v), Some(name)) if MAP.contains(&key) || key == "$defs" => {
                    let renamed = if key == "$defs" { "definitions" } else { key };
                    member(v, name).map(|s| (vec![renamed.to_owned(), name.clone()], s, 2))
                }
                (Some(v), Some(name)) if key == "dependentSchemas" => member(v, name).map(|s| {
                    let both = self.member(node, "dependentRequired").is_some_and(|r| self.member(r, name).is_some());
                    let mut to = vec!["dependencies".to_owned(), name.clone()];
                    if both {
                        to.extend(["allOf".to_owned(), "0".to_owned()]);
                    }
                    (to, s, 2)
                }),
                (Some(v), Some(index)) if key == "prefixItems" => {
                    element(v, index).map(|s| (vec!["items".to_owned(), index.clone()], s, 2))
                }
                (Some(v), Some(index))
                    if (key == "items" || key == "additionalItems" || LIST.contains(&key))
                        && matches!(v, Value::Array(_)) =>
                {
                    element(v, index).map(|s| (vec![key.to_owned(), index.clone()], s, 2))
                }
                (Some(v), _) if key == "items" && prefix => Some((vec!["additionalItems".to_owned()], v, 1)),
                (Some(v), _) if key == "items" || key == "additionalItems" || ONE.contains(&key) => {
                    Some((vec![key.to_owned()], v, 1))
                }
                _ => None,
            };
            let Some((to, child, used)) = step else { break };
            out.extend(to);
            node = child;
            i += used;
        }
        out.extend(segments[i..].iter().cloned());
        out
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A pointer segment in a URI fragment: RFC 3986 `pchar`s as they are (but `%`), every other
/// byte percent-encoded.
fn percent_encode_segment(segment: &str, out: &mut String) {
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

fn unsupported(path: &str, message: String) -> ContractError {
    ContractError::new(Code::SchemaTargetUnsupported, path, message)
}
