//! Contract versions: `compareContracts(old, new)` classifies the change of one
//! tool, `diffCatalogs(old, new)` the change of a whole catalog.
//!
//! A change is `identical`, `compatible` (every call valid before stays valid: optional input
//! fields added, enums or types widened, limits loosened, the description changed) or `breaking`
//! (a call valid before may now fail, or means something else: a new required field, a removed
//! field, a narrowed type or enum, a tightened limit, a changed permission set, any change of the
//! output schema, a renamed tool). A keyword change the rules cannot prove compatible is
//! breaking. Each reason has a JSON Pointer into the definition. The semver bump is checked:
//! breaking needs a major bump, compatible at least a minor one.

use std::collections::{HashMap, HashSet};

use crate::error::Result;
use crate::input::limits::Limits;
use crate::input::options::Options;
use crate::input::{HostValue, Kind};
use crate::tools::contract::ToolDefinition;
use crate::tools::registry::{self, Read};
use crate::value::{pointer_child, write_json_by_value, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    Identical,
    Compatible,
    Breaking,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Identical => "identical",
            Change::Compatible => "compatible",
            Change::Breaking => "breaking",
        }
    }
}

pub struct Reason {
    pub path: String,
    pub change: Change,
    pub message: String,
}

/// `v` as compared: numbers by value (`1` and `1.0`, `0` and `-0` are the same), as a JS host,
/// which has no other numbers, compares them.
fn text(v: &Value) -> String {
    let mut out = String::new();
    write_json_by_value(&mut out, v);
    out
}

fn read_tool<V: HostValue>(def: &V, prefix: &str) -> Result<ToolDefinition> {
    let options = Options { limits: Limits::ceilings(), ..Options::default() };
    crate::tools::contract::define_tool(def, &options).map_err(|e| registry::under(e, prefix))
}

/// The reasons a change from `old` to `new` (two definitions of one tool) is what it is.
pub fn compare(old: &ToolDefinition, new: &ToolDefinition) -> Vec<Reason> {
    let mut reasons = Vec::new();
    let mut push =
        |path: &str, change: Change, message: String| reasons.push(Reason { path: path.to_owned(), change, message });
    if old.name != new.name {
        push("/name", Change::Breaking, format!("renamed from {:?} to {:?}", old.name, new.name));
    }
    if old.description != new.description {
        push("/description", Change::Compatible, "the description changed".into());
    }
    let mut a = old.permissions.clone();
    let mut b = new.permissions.clone();
    crate::order::sort(&mut a);
    crate::order::sort(&mut b);
    if a != b {
        let added: Vec<&String> = b.iter().filter(|p| !a.contains(p)).collect();
        let removed: Vec<&String> = a.iter().filter(|p| !b.contains(p)).collect();
        push(
            "/permissions",
            Change::Breaking,
            format!("the permission set changed (added {added:?}, removed {removed:?})"),
        );
    }
    match (&old.output_schema, &new.output_schema) {
        (None, None) => {}
        (Some(x), Some(y)) if text(x) == text(y) => {}
        _ => push("/outputSchema", Change::Breaking, "the output schema changed".into()),
    }
    // Asserting `format` refuses inputs annotating it accepted; the way back refuses none.
    match (old.assert_formats, new.assert_formats) {
        (false, true) => push("/formats", Change::Breaking, "format is now asserted (formats: \"assert\")".into()),
        (true, false) => push("/formats", Change::Compatible, "format is no longer asserted".into()),
        _ => {}
    }
    // The name rule alone changes no call: the name itself is compared above.
    schema(&old.input_schema, &new.input_schema, "/inputSchema", &mut reasons);
    resources(old, new, &mut reasons);
    reasons
}

/// Shared schema documents: one the schemas may reference changed or went away is breaking
/// (the rules do not follow a `$ref` into a document to prove a change compatible); one added
/// is compatible (no schema that compiled before could reference it).
fn resources(old: &ToolDefinition, new: &ToolDefinition, out: &mut Vec<Reason>) {
    let (om, nm) = (by_name(&old.resources), by_name(&new.resources));
    for (uri, doc) in &old.resources {
        let path = pointer_child("/resources", uri);
        match nm.get(uri.as_str()) {
            None => {
                out.push(Reason { path, change: Change::Breaking, message: format!("resource {uri:?} was removed") })
            }
            Some(d) if text(d) != text(doc) => {
                out.push(Reason { path, change: Change::Breaking, message: format!("resource {uri:?} changed") })
            }
            Some(_) => {}
        }
    }
    for (uri, _) in &new.resources {
        if !om.contains_key(uri.as_str()) {
            out.push(Reason {
                path: pointer_child("/resources", uri),
                change: Change::Compatible,
                message: format!("resource {uri:?} was added"),
            });
        }
    }
}

const LOWER: [&str; 5] = ["minLength", "minimum", "minItems", "minProperties", "exclusiveMinimum"];
const UPPER: [&str; 5] = ["maxLength", "maximum", "maxItems", "maxProperties", "exclusiveMaximum"];
const ANNOTATIONS: [&str; 5] = ["description", "title", "examples", "default", "$comment"];

fn types(v: Option<&Value>) -> Option<Vec<String>> {
    match v {
        None => None,
        Some(Value::String(t)) => Some(vec![t.clone()]),
        Some(Value::Array(ts)) => Some(ts.iter().map(text).map(|t| t.trim_matches('"').to_owned()).collect()),
        Some(other) => Some(vec![text(other)]),
    }
}

fn covers(wide: &[String], t: &str) -> bool {
    wide.iter().any(|w| w == t || (w == "number" && t == "integer"))
}

fn number(v: Option<&Value>) -> Option<f64> {
    match v {
        Some(Value::Number(n)) => Some(n.value),
        _ => None,
    }
}

fn schema(old: &Value, new: &Value, path: &str, out: &mut Vec<Reason>) {
    let push = |out: &mut Vec<Reason>, p: String, change: Change, message: String| {
        out.push(Reason { path: p, change, message })
    };
    if text(old) == text(new) {
        return;
    }
    let (Value::Object(o), Value::Object(n)) = (old, new) else {
        push(out, path.to_owned(), Change::Breaking, "the schema changed".into());
        return;
    };
    // Members by name, so each key is one lookup (a scan per key is O(n²) in the members).
    let (om, nm) = (by_name(o), by_name(n));
    let mut keys: Vec<&String> = o.iter().map(|(k, _)| k).collect();
    keys.extend(n.iter().map(|(k, _)| k).filter(|k| !om.contains_key(k.as_str())));
    for key in keys {
        let (a, b) = (om.get(key.as_str()).copied(), nm.get(key.as_str()).copied());
        if a.map(text) == b.map(text) {
            continue;
        }
        let p = pointer_child(path, key);
        let k = key.as_str();
        match k {
            _ if ANNOTATIONS.contains(&k) => push(out, p, Change::Compatible, format!("{k} changed")),
            "type" => match (types(a), types(b)) {
                (_, None) => push(out, p, Change::Compatible, "the type constraint was removed".into()),
                // The same types in another order.
                (Some(x), Some(y)) if x.iter().all(|t| y.contains(t)) && y.iter().all(|t| x.contains(t)) => {}
                (Some(x), Some(y)) if x.iter().all(|t| covers(&y, t)) => {
                    push(out, p, Change::Compatible, format!("type widened from {x:?} to {y:?}"))
                }
                (x, y) => push(
                    out,
                    p,
                    Change::Breaking,
                    format!("type narrowed or added: from {:?} to {:?}", x.unwrap_or_default(), y.unwrap_or_default()),
                ),
            },
            "enum" => match (a, b) {
                (_, None) => push(out, p, Change::Compatible, "the enum was removed".into()),
                (Some(Value::Array(x)), Some(Value::Array(y))) => {
                    let ys: HashSet<String> = y.iter().map(text).collect();
                    let gone: Vec<String> = x.iter().map(text).filter(|v| !ys.contains(v)).collect();
                    let xs: HashSet<String> = x.iter().map(text).collect();
                    if gone.is_empty() && ys.iter().all(|v| xs.contains(v)) {
                        // The same values, in another order or repeated.
                    } else if gone.is_empty() {
                        push(out, p, Change::Compatible, "enum widened".into())
                    } else {
                        push(out, p, Change::Breaking, format!("enum narrowed: {} removed", gone.join(", ")))
                    }
                }
                _ => push(out, p, Change::Breaking, "enum added or changed".into()),
            },
            _ if LOWER.contains(&k) || UPPER.contains(&k) => {
                let lower = LOWER.contains(&k);
                let looser = match (number(a), number(b), b) {
                    (_, _, None) => true,
                    (Some(x), Some(y), _) => (lower && y <= x) || (!lower && y >= x),
                    _ => false,
                };
                if looser {
                    push(out, p, Change::Compatible, format!("{k} loosened"))
                } else {
                    push(out, p, Change::Breaking, format!("{k} added or tightened"))
                }
            }
            "required" => {
                let list = |v: Option<&Value>| -> Vec<String> {
                    match v {
                        Some(Value::Array(items)) => items.iter().map(text).collect(),
                        _ => Vec::new(),
                    }
                };
                let (x, y) = (list(a), list(b));
                let (xs, ys): (HashSet<&String>, HashSet<&String>) = (x.iter().collect(), y.iter().collect());
                for name in y.iter().filter(|v| !xs.contains(v)) {
                    push(out, p.clone(), Change::Breaking, format!("new required field {name}"));
                }
                if x.iter().any(|v| !ys.contains(v)) {
                    push(out, p, Change::Compatible, "a field is no longer required".into());
                }
            }
            "additionalProperties" => match b {
                None | Some(Value::Bool(true)) => {
                    push(out, p, Change::Compatible, "additional properties now allowed".into())
                }
                Some(bv) => match a {
                    Some(av) if matches!(av, Value::Object(_)) && matches!(bv, Value::Object(_)) => {
                        schema(av, bv, &p, out)
                    }
                    _ => push(out, p, Change::Breaking, "additional properties restricted".into()),
                },
            },
            "properties" => {
                let empty = Vec::new();
                let xs = match a {
                    Some(Value::Object(e)) => e,
                    _ => &empty,
                };
                let ys = match b {
                    Some(Value::Object(e)) => e,
                    _ => &empty,
                };
                let (xm, ym) = (by_name(xs), by_name(ys));
                for (name, sub) in xs {
                    let q = pointer_child(&p, name);
                    match ym.get(name.as_str()) {
                        Some(nsub) => schema(sub, nsub, &q, out),
                        None => push(out, q, Change::Breaking, format!("field {name} removed")),
                    }
                }
                for (name, _) in ys {
                    if !xm.contains_key(name.as_str()) {
                        // Required or not: a new required name is reported under `required`.
                        push(out, pointer_child(&p, name), Change::Compatible, format!("field {name} added"));
                    }
                }
            }
            "items" | "not" | "if" | "then" | "else" | "contains" | "propertyNames" => match (a, b) {
                (Some(x), Some(y)) if k == "items" => schema(x, y, &p, out),
                (Some(_), None) if k == "items" => push(out, p, Change::Compatible, "items constraint removed".into()),
                _ => push(out, p, Change::Breaking, format!("{k} changed")),
            },
            "pattern" | "const" | "format" if b.is_none() => push(out, p, Change::Compatible, format!("{k} removed")),
            _ => push(out, p, Change::Breaking, format!("{k} changed (not provably compatible)")),
        }
    }
}

/// An object's members by name (the first of a name wins, as `Value::get`).
fn by_name(entries: &[(String, Value)]) -> HashMap<&str, &Value> {
    let mut map = HashMap::with_capacity(entries.len());
    for (k, v) in entries {
        map.entry(k.as_str()).or_insert(v);
    }
    map
}

fn semver(v: &Option<String>) -> Option<semver::Version> {
    crate::tools::contract::parse_semver(v.as_ref()?)
}

/// `{required, actual, ok}`: the bump the change needs (`none`, `minor`, `major`), the one made
/// (`none`, `prerelease`, `patch`, `minor`, `major`, `downgrade`, or `unknown` when a version is
/// missing). Versions are ordered by SemVer precedence (build metadata ignored). Between two
/// versions of the same `MAJOR.MINOR.PATCH` (a pre-release and the next, or the release of a
/// pre-release) the bump is `prerelease`, which satisfies any change: SemVer §9, a pre-release
/// promises no compatibility.
fn bump(change: Change, old: &ToolDefinition, new: &ToolDefinition) -> Value {
    let required = match change {
        Change::Identical => "none",
        Change::Compatible => "minor",
        Change::Breaking => "major",
    };
    let actual = match (semver(&old.version), semver(&new.version)) {
        (Some(a), Some(b)) => match b.cmp_precedence(&a) {
            std::cmp::Ordering::Equal => "none",
            std::cmp::Ordering::Less => "downgrade",
            std::cmp::Ordering::Greater if b.major > a.major => "major",
            std::cmp::Ordering::Greater if b.minor > a.minor => "minor",
            std::cmp::Ordering::Greater if b.patch > a.patch => "patch",
            std::cmp::Ordering::Greater => "prerelease",
        },
        _ => "unknown",
    };
    let rank = |s: &str| match s {
        "none" => 0,
        "patch" => 1,
        "minor" => 2,
        "major" => 3,
        _ => -1,
    };
    let ok = actual == "prerelease" || (actual != "unknown" && actual != "downgrade" && rank(actual) >= rank(required));
    let ok = ok || (change == Change::Identical && actual != "downgrade");
    Value::Object(vec![
        ("required".into(), Value::String(required.into())),
        ("actual".into(), Value::String(actual.into())),
        ("ok".into(), Value::Bool(ok)),
    ])
}

fn tool_report(old: &ToolDefinition, new: &ToolDefinition) -> (Change, Value) {
    let reasons = compare(old, new);
    let change = reasons.iter().map(|r| r.change).max().unwrap_or(Change::Identical);
    let list = reasons
        .into_iter()
        .map(|r| {
            Value::Object(vec![
                ("path".into(), Value::String(r.path)),
                ("change".into(), Value::String(r.change.as_str().into())),
                ("message".into(), Value::String(r.message)),
            ])
        })
        .collect();
    let value = Value::Object(vec![
        ("change".into(), Value::String(change.as_str().into())),
        ("reasons".into(), Value::Array(list)),
        ("bump".into(), bump(change, old, new)),
    ]);
    (change, value)
}

/// `compareContracts(old, new)`: `{change, reasons: [{path, change, message}], bump}`. Errors in
/// either definition are reported under `/old` or `/new`.
pub fn compare_contracts<V: HostValue>(old: &V, new: &V) -> Result<Value> {
    let old = read_tool(old, "/old")?;
    let new = read_tool(new, "/new")?;
    Ok(tool_report(&old, &new).1)
}

/// A catalog's definitions read, not compiled: a registry's `tools` or a list of definitions,
/// errors pointing into the argument at `at`.
fn read_catalog<V: HostValue>(v: &V, at: &str) -> Result<Read> {
    if v.kind() == Kind::Array {
        return registry::read_definitions(v, at, false);
    }
    let tools = registry::tools_list(v).map_err(|e| registry::under(e, at))?;
    registry::read_definitions(&tools, &format!("{at}/tools"), false)
}

/// `diffCatalogs(old, new)`: registries (or catalogs: lists of definitions) compared tool by tool
/// by name. `{change, tools: [{name, change, reasons?, bump?}], addedPermissions: [{tool,
/// permission}]}`; a removed tool is breaking, an added one compatible.
pub fn diff_catalogs<V: HostValue>(old: &V, new: &V) -> Result<Value> {
    let _patterns = crate::tools::schema::PatternScope::open();
    let old = read_catalog(old, "/old")?;
    // Both catalogs' schemas are counted into the call's budget before either compiles, so the
    // verdict does not depend on which catalog is old. A catalog that failed to read answers
    // with its first error; the other is then not read.
    let new = if old.is_whole() { read_catalog(new, "/new")? } else { Read::default() };
    old.plan();
    new.plan();
    let old = old.compile()?;
    let new = new.compile()?;
    let mut names: Vec<&str> = old.iter().chain(new.iter()).map(|d| d.name.as_str()).collect();
    crate::order::sort(&mut names);
    names.dedup();
    // Tools by name: one lookup per name, not a scan of each catalog.
    let old_by: HashMap<&str, &ToolDefinition> = old.iter().map(|d| (d.name.as_str(), d)).collect();
    let new_by: HashMap<&str, &ToolDefinition> = new.iter().map(|d| (d.name.as_str(), d)).collect();
    let mut worst = Change::Identical;
    let mut tools = Vec::new();
    let mut added_permissions = Vec::new();
    let s = |x: &str| Value::String(x.to_owned());
    for name in names {
        let a = old_by.get(name).copied();
        let b = new_by.get(name).copied();
        let entry = match (a, b) {
            (Some(a), Some(b)) => {
                for p in b.permissions.iter().filter(|p| !a.permissions.contains(p)) {
                    added_permissions.push(Value::Object(vec![("tool".into(), s(name)), ("permission".into(), s(p))]));
                }
                let (change, mut report) = tool_report(a, b);
                worst = worst.max(change);
                if let Value::Object(entries) = &mut report {
                    entries.insert(0, ("name".into(), s(name)));
                }
                report
            }
            (None, Some(b)) => {
                for p in &b.permissions {
                    added_permissions.push(Value::Object(vec![("tool".into(), s(name)), ("permission".into(), s(p))]));
                }
                worst = worst.max(Change::Compatible);
                Value::Object(vec![("name".into(), s(name)), ("change".into(), s("added"))])
            }
            _ => {
                worst = Change::Breaking;
                Value::Object(vec![("name".into(), s(name)), ("change".into(), s("removed"))])
            }
        };
        tools.push(entry);
    }
    Ok(Value::Object(vec![
        ("change".into(), s(worst.as_str())),
        ("tools".into(), Value::Array(tools)),
        ("addedPermissions".into(), Value::Array(added_permissions)),
    ]))
}
