//! Shared schema documents: a tool definition's `resources`, an object from an absolute URI to
//! the JSON Schema document served there, so `inputSchema` and `outputSchema` may `$ref` a
//! document by that URI. Nothing is ever fetched: a reference to a URI that is not among the
//! resources stays unresolved (`TOOL_SCHEMA_UNSUPPORTED` when the schema is compiled).
//!
//! - `read` checks the documents a definition carries (`TOOL_RESOURCE_INVALID`): at most
//!   `MAX_RESOURCES`, each key an absolute URI without a fragment and outside the core's own
//!   `urn:agent-contract:` namespace, each value a schema (an object or a boolean). Their size
//!   counts against the definition's limits like the schemas do.
//! - `bundle` gives clients a self-contained schema: every document becomes an embedded schema
//!   resource under the root's `$defs` (draft-07: `definitions`), keyed by its URI, with `$id`
//!   set to that URI: JSON Schema 2020-12's bundling, so the same `$ref`s resolve to the same
//!   documents without any resource list. What cannot be bundled without changing a verdict is
//!   refused (`TOOL_RESOURCE_UNBUNDLABLE`): a document whose own `$id` differs from its URI
//!   (embedding would change its base URI), a document declaring another `$schema` than the
//!   root, a boolean document in a draft-07 root, or a root that already holds that key.

use url::Url;

use crate::error::{Code, ContractError, Layer, Result};
use crate::tools::target::ANNOTATIONS;
use crate::value::{pointer_child, Value};

/// Most documents one definition carries.
pub const MAX_RESOURCES: usize = 64;
/// The prefix of the core's own schema URIs (`schema::BASE`): not a caller's to use.
const RESERVED: &str = "urn:agent-contract:";

fn invalid(path: String, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::ToolResourceInvalid, path, message).in_layer(Layer::Contract)
}

/// An absolute URI (`scheme:rest`, RFC 3986 scheme syntax) with no fragment, no whitespace or
/// control characters.
fn is_absolute_uri(uri: &str) -> bool {
    let Some((scheme, rest)) = uri.split_once(':') else { return false };
    let mut chars = scheme.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !uri.chars().any(|c| c == '#' || c.is_whitespace() || c.is_control())
}

/// Checks the copied `resources` value of a definition (`Value::Object`, JSON only) and returns
/// its documents in the given order.
pub fn read(value: Value) -> Result<Vec<(String, Value)>> {
    let Value::Object(entries) = value else {
        return Err(invalid("/resources".into(), "resources must be an object from URI to schema document"));
    };
    if entries.len() > MAX_RESOURCES {
        return Err(invalid(
            "/resources".into(),
            format!("resources holds {} documents; at most {MAX_RESOURCES}", entries.len()),
        ));
    }
    for (uri, doc) in &entries {
        let path = pointer_child("/resources", uri);
        if !is_absolute_uri(uri) {
            return Err(invalid(
                path,
                format!("resource key {uri:?} must be an absolute URI without a fragment, e.g. \"https://example.com/schemas/address.json\""),
            ));
        }
        if uri.starts_with(RESERVED) {
            return Err(invalid(path, format!("resource URI {uri:?} is in the core's reserved namespace {RESERVED}")));
        }
        if !matches!(doc, Value::Object(_) | Value::Bool(_)) {
            return Err(invalid(path, format!("resource {uri:?} is not a schema (an object or a boolean)")));
        }
    }
    Ok(entries)
}

/// The resources as one object value (the definition's `resources` field).
pub fn to_value(resources: &[(String, Value)]) -> Value {
    Value::Object(resources.to_vec())
}

fn unbundlable(path: String, message: impl Into<String>) -> ContractError {
    ContractError::new(Code::ToolResourceUnbundlable, path, message).in_layer(Layer::Contract)
}

fn is_draft7(schema: &Value) -> bool {
    matches!(schema.get("$schema"), Some(Value::String(s)) if s.trim_end_matches('#') == "http://json-schema.org/draft-07/schema")
}

/// Calls `f` with every identifier (`$id`, resolved) and every reference (`$ref`,
/// `$dynamicRef`, `$recursiveRef`, resolved, fragment removed) in `doc`, whose base URI is
/// `base`. Data keywords (`enum`, `const`, `examples`, `default`) are not schemas.
fn uris(doc: &Value, base: &Url, f: &mut dyn FnMut(bool, String)) {
    let mut stack: Vec<(&Value, Url)> = vec![(doc, base.clone())];
    while let Some((value, base)) = stack.pop() {
        match value {
            Value::Object(entries) => {
                let mut base = base;
                if let Some(Value::String(id)) = value.get("$id") {
                    if let Ok(u) = base.join(id) {
                        let mut doc = u.clone();
                        doc.set_fragment(None);
                        f(true, doc.to_string());
                        base = u;
                    }
                }
                for (k, v) in entries {
                    match (k.as_str(), v) {
                        ("$ref" | "$dynamicRef" | "$recursiveRef", Value::String(r)) => {
                            if let Ok(mut u) = base.join(r) {
                                u.set_fragment(None);
                                f(false, u.to_string());
                            }
                        }
                        ("enum" | "const" | "examples" | "default", _) => {}
                        (_, Value::Object(_) | Value::Array(_)) => stack.push((v, base.clone())),
                        _ => {}
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, base.clone()))),
            _ => {}
        }
    }
}

/// Which document each URI (its key, and every `$id` inside it) belongs to, and each document's
/// base: worked out once for documents a registry's tools share, where doing it for every tool
/// walked every shared document once per tool.
#[derive(Clone, Default)]
pub struct Owners {
    owner: std::collections::HashMap<String, usize>,
    bases: Vec<Option<Url>>,
}

impl Owners {
    pub fn of(resources: &[(String, Value)]) -> Owners {
        let mut owners = Owners::default();
        for (i, (uri, doc)) in resources.iter().enumerate() {
            let base = Url::parse(uri).ok();
            if let Some(b) = &base {
                owners.owner.entry(b.to_string()).or_insert(i);
                uris(doc, b, &mut |is_id, u| {
                    if is_id {
                        owners.owner.entry(u).or_insert(i);
                    }
                });
            }
            owners.bases.push(base);
        }
        owners
    }

    /// The owners of `first` followed by the documents `rest` indexes (numbered after them);
    /// the first document to claim a URI keeps it.
    pub fn after(first: &[(String, Value)], rest: &Owners) -> Owners {
        let mut owners = Owners::of(first);
        for (u, &i) in &rest.owner {
            owners.owner.entry(u.clone()).or_insert(first.len() + i);
        }
        owners.bases.extend(rest.bases.iter().cloned());
        owners
    }

    /// The documents `schema` needs, closed over references between them: their indices, in
    /// order. `doc(i)` is document `i`.
    pub fn referenced<'a>(&self, schema: &Value, doc: impl Fn(usize) -> &'a Value) -> Vec<usize> {
        let mut needed = vec![false; self.bases.len()];
        let mut queue: Vec<usize> = Vec::new();
        let visit = |d: &Value, base: &Url, needed: &mut Vec<bool>, queue: &mut Vec<usize>| {
            uris(d, base, &mut |is_id, u| {
                if let (false, Some(&i)) = (is_id, self.owner.get(&u)) {
                    if !needed[i] {
                        needed[i] = true;
                        queue.push(i);
                    }
                }
            });
        };
        let root = Url::parse("urn:agent-contract:schema:root").expect("static URL");
        visit(schema, &root, &mut needed, &mut queue);
        while let Some(i) = queue.pop() {
            if let Some(base) = &self.bases[i] {
                visit(doc(i), base, &mut needed, &mut queue);
            }
        }
        (0..needed.len()).filter(|&i| needed[i]).collect()
    }
}

/// The shared documents of `createRegistry({tools, resources})`, indexed once for all its tools,
/// with the size of each (its JSON text) for the budget of what the tools take.
pub struct Shared {
    pub docs: Vec<(String, Value)>,
    pub owners: Owners,
    pub sizes: Vec<usize>,
}

/// What the tools of one registry may take of its shared documents together, in bytes of JSON
/// text: each tool holds (and compiles) its own copy of every document it references, so 1,000
/// tools referencing one 100 KB document took 0.9 s and 319 MiB, and 3,000 referencing 550 KB
/// (a 0.97 MB call) ran the wasm instance out of memory.
pub const MAX_SHARED_TAKEN_BYTES: usize = 8 << 20;

impl Shared {
    pub fn new(docs: Vec<(String, Value)>) -> Shared {
        let owners = Owners::of(&docs);
        let sizes = docs
            .iter()
            .map(|(_, d)| {
                let mut text = String::new();
                crate::value::write_json(&mut text, d);
                text.len()
            })
            .collect();
        Shared { docs, owners, sizes }
    }
}

/// The resources `schema` needs, closed over references between documents: indices into
/// `resources`, in the given order. A document is needed when a reference resolves to its URI
/// or to an identifier declared inside it.
pub fn referenced(schema: &Value, resources: &[(String, Value)]) -> Vec<usize> {
    Owners::of(resources).referenced(schema, |i| &resources[i].1)
}

/// `schema` (an object schema) with the resources it references embedded, so it needs no
/// resource list. `path` is where the definition's resources are reported (`/resources`).
/// Whether `bundle` would change `schema`: some of `resources` are referenced from it.
pub fn needs_bundling(schema: &Value, resources: &[(String, Value)]) -> bool {
    !resources.is_empty() && !referenced(schema, resources).is_empty()
}

pub fn bundle(schema: &Value, resources: &[(String, Value)], path: &str) -> Result<Value> {
    if resources.is_empty() {
        return Ok(schema.clone());
    }
    let needed = referenced(schema, resources);
    if needed.is_empty() {
        return Ok(schema.clone());
    }
    let resources: Vec<(String, Value)> = needed.into_iter().map(|i| resources[i].clone()).collect();
    let resources = &resources[..];
    let Value::Object(entries) = schema else { return Ok(schema.clone()) };
    let draft7 = is_draft7(schema);
    let defs_key = if draft7 { "definitions" } else { "$defs" };
    let root_dialect = schema.get("$schema");
    let mut embedded = Vec::with_capacity(resources.len());
    for (uri, doc) in resources {
        let at = pointer_child(path, uri);
        let doc = match doc {
            // `true` is `{}` and `false` is `{"not": {}}`, now with an `$id`.
            Value::Bool(b) if !draft7 => {
                let mut members = vec![("$id".to_owned(), Value::String(uri.clone()))];
                if !*b {
                    members.push(("not".to_owned(), Value::Object(Vec::new())));
                }
                Value::Object(members)
            }
            Value::Bool(_) => {
                return Err(unbundlable(
                    at,
                    format!("boolean resource {uri:?} cannot carry an $id in a draft-07 schema"),
                ))
            }
            Value::Object(members) => {
                match doc.get("$id") {
                    None => {}
                    Some(Value::String(id)) if id == uri => {}
                    Some(_) => {
                        return Err(unbundlable(
                            pointer_child(&at, "$id"),
                            format!("resource {uri:?} declares another $id: embedded, its base URI would change"),
                        ))
                    }
                }
                if let Some(dialect) = doc.get("$schema") {
                    if Some(dialect) != root_dialect {
                        return Err(unbundlable(
                            pointer_child(&at, "$schema"),
                            format!("resource {uri:?} declares another $schema than the tool's schema"),
                        ));
                    }
                }
                // Draft-07 ignores every sibling of `$ref`, the `$id` given here too: the `$ref`
                // moves into `allOf`, where it resolves against that `$id` as it did against the
                // document's URI. A sibling draft-07 ignored would then be asserted.
                let wrap = draft7 && doc.get("$ref").is_some();
                if wrap {
                    let kept =
                        |k: &str| matches!(k, "$ref" | "$id" | "$schema" | "definitions") || ANNOTATIONS.contains(&k);
                    if let Some((k, _)) = members.iter().find(|(k, _)| !kept(k)) {
                        return Err(unbundlable(
                            pointer_child(&at, k),
                            format!("resource {uri:?} holds {k:?} beside $ref, which draft-07 ignores there: embedded under an $id, the $ref moves into allOf and {k:?} would be asserted"),
                        ));
                    }
                }
                let mut out = Vec::with_capacity(members.len() + 1);
                out.push(("$id".to_owned(), Value::String(uri.clone())));
                for (k, v) in members.iter().filter(|(k, _)| k != "$id" && k != "$schema") {
                    if wrap && k == "$ref" {
                        let reference = Value::Object(vec![(k.clone(), v.clone())]);
                        out.push(("allOf".to_owned(), Value::Array(vec![reference])));
                    } else {
                        out.push((k.clone(), v.clone()));
                    }
                }
                Value::Object(out)
            }
            // `read` admits only objects and booleans.
            _ => return Err(unbundlable(at, format!("resource {uri:?} is not a schema"))),
        };
        embedded.push((uri.clone(), doc));
    }
    let mut out: Vec<(String, Value)> = Vec::with_capacity(entries.len() + 1);
    let mut placed = false;
    for (k, v) in entries {
        if k == defs_key {
            let Value::Object(defs) = v else {
                return Err(unbundlable(format!("/{defs_key}"), format!("{defs_key} is not an object")));
            };
            let mut defs = defs.clone();
            for (uri, doc) in &embedded {
                if defs.iter().any(|(k, _)| k == uri) {
                    return Err(unbundlable(
                        pointer_child(path, uri),
                        format!("the schema's {defs_key} already holds the key {uri:?}"),
                    ));
                }
                defs.push((uri.clone(), doc.clone()));
            }
            out.push((k.clone(), Value::Object(defs)));
            placed = true;
        } else {
            out.push((k.clone(), v.clone()));
        }
    }
    if !placed {
        out.push((defs_key.to_owned(), Value::Object(embedded)));
    }
    Ok(Value::Object(out))
}

/// The first `$ref` (document order: the schema, then the documents in the given order) whose
/// document is neither the schema, nor a resource, nor an identifier declared in either, nor a
/// JSON Schema metaschema: `(pointer, uri)`, pointers under `pointer` for the schema and under
/// `/resources/<uri>` for a document. The engine names one unresolved reference, but which one
/// depends on its hash order; this names the same one in every host.
pub fn first_unresolved(schema: &Value, pointer: &str, resources: &[(String, Value)]) -> Option<(String, String)> {
    let root = Url::parse("urn:agent-contract:schema:root").expect("static URL");
    let mut known: std::collections::HashSet<String> = std::collections::HashSet::new();
    known.insert(root.to_string());
    uris(schema, &root, &mut |is_id, u| {
        if is_id {
            known.insert(u);
        }
    });
    let bases: Vec<Option<Url>> = resources.iter().map(|(u, _)| Url::parse(u).ok()).collect();
    for ((_, doc), base) in resources.iter().zip(&bases) {
        if let Some(b) = base {
            known.insert(b.to_string());
            uris(doc, b, &mut |is_id, u| {
                if is_id {
                    known.insert(u);
                }
            });
        }
    }
    let metaschema = |u: &str| u.starts_with("https://json-schema.org/") || u.starts_with("http://json-schema.org/");
    let mut docs: Vec<(&Value, Url, String)> = vec![(schema, root, pointer.to_owned())];
    for ((uri, doc), base) in resources.iter().zip(bases) {
        if let Some(b) = base {
            docs.push((doc, b, pointer_child("/resources", uri)));
        }
    }
    for (doc, base, at) in docs {
        // Pre-order, members in order: document order.
        let mut stack: Vec<(&Value, Url, String)> = vec![(doc, base, at)];
        while let Some((value, base, path)) = stack.pop() {
            match value {
                Value::Object(entries) => {
                    let mut base = base;
                    if let Some(Value::String(id)) = value.get("$id") {
                        if let Ok(u) = base.join(id) {
                            base = u;
                        }
                    }
                    let mut children = Vec::new();
                    for (k, v) in entries {
                        let child = pointer_child(&path, k);
                        match (k.as_str(), v) {
                            ("$ref" | "$dynamicRef" | "$recursiveRef", Value::String(r)) => {
                                if let Ok(mut u) = base.join(r) {
                                    u.set_fragment(None);
                                    let u = u.to_string();
                                    if !known.contains(&u) && !metaschema(&u) {
                                        return Some((child, u));
                                    }
                                }
                            }
                            ("enum" | "const" | "examples" | "default", _) => {}
                            (_, Value::Object(_) | Value::Array(_)) => children.push((v, base.clone(), child)),
                            _ => {}
                        }
                    }
                    stack.extend(children.into_iter().rev());
                }
                Value::Array(items) => {
                    stack.extend(items.iter().enumerate().rev().map(|(i, v)| (v, base.clone(), format!("{path}/{i}"))))
                }
                _ => {}
            }
        }
    }
    None
}
