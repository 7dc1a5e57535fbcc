//! How much work validating against a schema can take, decided before the engine runs.
//!
//! The engine evaluates a schema recursively: applicators and references on the same value
//! (`allOf`, `$ref`, `if`, ...) and applicators on child values (`properties`, `items`, ...).
//! It stops a reference cycle on the same value, so along one value the chain of evaluations
//! visits each schema at most once; it cannot bound the *number* of evaluations (`allOf` of two
//! references to a schema that does the same, 30 levels deep, is 2^30 evaluations) or the
//! recursion of a recursive schema over a deep input. This module builds the evaluation graph
//! (over-approximating: every reference is resolved where the engine could resolve it,
//! `$dynamicRef` / `$recursiveRef` to every matching anchor), condenses its same-value cycles
//! and computes, for an input of depth `d`:
//! - `frames`: the longest chain of nested evaluations (the engine's recursion depth), and
//! - `paths`: how many evaluations one value can receive,
//!
//! and refuses what would exceed fixed budgets: at definition time a schema whose evaluation of
//! a single value is unbounded enough (`TOOL_SCHEMA_UNSUPPORTED`), at validation time an input
//! that would make a recursive schema nest too deep (`INPUT_TOO_DEEP`) or work too long
//! (`INPUT_TOO_LARGE`).

use std::cell::RefCell;
use std::collections::HashMap;

use url::Url;

use crate::error::{Code, ContractError, Layer, Result};
use crate::value::Value;

/// Schema objects (and booleans) in one schema, references' targets included.
pub const MAX_SCHEMA_NODES: usize = 8_192;
/// Objects and arrays in one schema with its resources, subschemas or not (`examples`,
/// `default`, `const`, unknown keywords). The engine holds the whole document as its own tree,
/// where an object costs ~600 bytes however few its members (a B-tree node), and compiling
/// walks it: 185,000 nested one-member objects in an `examples` (1.1 MB of text) took a wasm
/// instance to 125 MB, and 490,000 nested arrays 1.4 s. At this bound they cost ~10 MB.
pub const MAX_SCHEMA_CONTAINERS: usize = 16_384;
/// Evaluations one value may receive from one schema (same-value applicators and references).
pub const MAX_EVALUATIONS: u64 = 100_000;
/// Nested evaluations (engine recursion). Measured: a failing evaluation nested through `$ref`
/// takes about 2.2 KB of V8's ~1 MB native stack (Node overflows near 450), and wasmtime's
/// default 512 KiB wasm stack runs out near 1,000 nested `items` evaluations. 300 keeps both
/// (and native threads with 2 MiB stacks) well clear.
pub const MAX_FRAMES: u64 = 300;
/// The JSON Pointers of a schema's subschemas together. Every subschema's pointer is held, here
/// and in the engine (its locations), so a schema nesting long member names costs its depth
/// times its size: 62 levels of 1,000-byte names over 4,000 subschemas (a 114 KB definition)
/// took 16 s and 1 GiB of wasm memory to compile. At this bound the pointers cost a few MiB.
pub const MAX_POINTER_BYTES: usize = 4 << 20;
/// Nesting of the schema itself (JSON levels): checking it against the metaschema recurses per
/// level, and wasmtime's stack runs out near 200 schema levels.
pub const MAX_SCHEMA_DEPTH: usize = 128;
/// Evaluations per validation as the graph over-approximates them (values × evaluations per
/// value), refused before the engine runs. The engine's actual evaluations are counted as it
/// runs, against `evaluation_budget`.
pub const MAX_WORK: u64 = 20_000_000;
/// The engine's evaluations (a schema on a value, a `patternProperties` pattern on a member
/// name) allowed on any input, counted as it runs (`with_budget`). Measured in Node, the
/// costliest evaluations (failing `anyOf` branches, `allOf` branches, each pattern tried) take
/// 75-150 ns, and up to 200 ns in a fresh process, before V8 optimizes the wasm: 2,500,000 is
/// at most ~0.5 s.
pub const MIN_EVALUATION_BUDGET: u64 = 2_500_000;
/// Past the minimum, evaluations allowed per value of the input. A value takes at least two
/// bytes of text (but the last), so this is at most 2.5 evaluations per byte: ~0.5 s per MB.
pub const EVALUATIONS_PER_VALUE: u64 = 5;

/// The engine's evaluations allowed on an input of `values` values.
pub fn evaluation_budget(values: usize) -> u64 {
    (values as u64).saturating_mul(EVALUATIONS_PER_VALUE).max(MIN_EVALUATION_BUDGET)
}

/// The budget one call spends over all the inputs it validates: `evaluation_budget` of all their
/// values, spent by every run of the engine in turn. A call validating many inputs (a batch, a
/// dataset's rows and their tool calls) shares one, so many small inputs against a schema that
/// multiplies the work cannot each take a budget of their own.
#[derive(Debug, Default)]
pub struct Allowance {
    values: usize,
    spent: u64,
    /// Shared by several inputs (the refusal then says so).
    shared: bool,
}

impl Allowance {
    /// One allowance for every input of a call.
    pub fn shared() -> Allowance {
        Allowance { shared: true, ..Allowance::default() }
    }

    /// Counts an input's values in; the evaluations left for it.
    pub(super) fn admit(&mut self, values: usize) -> u64 {
        self.values = self.values.saturating_add(values);
        self.left()
    }

    pub(super) fn left(&self) -> u64 {
        evaluation_budget(self.values).saturating_sub(self.spent)
    }

    /// Records a run that took `spent` evaluations of the `left()` it had; the refusal when that
    /// was more.
    pub(super) fn spend(&mut self, spent: u64) -> Result<()> {
        let left = self.left();
        self.spent = self.spent.saturating_add(spent);
        if spent > left {
            return Err(self.refusal());
        }
        Ok(())
    }

    /// The refusal of the input that ran past the budget.
    fn refusal(&self) -> ContractError {
        let budget = evaluation_budget(self.values);
        let message = if self.shared {
            format!("validating the inputs of this call against their schemas takes more than {budget} evaluations")
        } else {
            format!("validating this input against its schema takes more than {budget} evaluations")
        };
        ContractError::new(Code::InputTooLarge, "", message)
    }
}

/// Runs `run` (the engine, on one input) within `budget` evaluations: its result and the
/// evaluations it took, `budget + 1` when it ran out (every evaluation past the budget fails at
/// once, so an exhausted run's verdict means nothing). The engine is unbounded again after.
pub fn with_budget<T>(budget: u64, run: impl FnOnce() -> T) -> (T, u64) {
    boon::set_evaluation_budget(budget);
    let out = run();
    let spent =
        if boon::evaluations_exhausted() { budget.saturating_add(1) } else { budget - boon::evaluations_left() };
    boon::set_evaluation_budget(u64::MAX);
    (out, spent)
}

/// A metaschema (a `$ref` to json-schema.org) counts as this many nested evaluations per value,
/// and this many evaluations, recursing into every child value.
const META_FRAMES: u64 = 24;
const META_PATHS: u64 = 200;

#[derive(Default)]
struct Node {
    same: Vec<usize>,
    desc: Vec<usize>,
    /// (frames, paths) weight: 1 for a schema, more for the metaschema stand-in.
    weight: (u64, u64),
    pointer: String,
}

pub struct Bounds {
    nodes: Vec<Node>,
    /// Component of each node (same-value strongly connected components), sinks first.
    comp: Vec<usize>,
    comps: Vec<Vec<usize>>,
    root: usize,
    /// `levels[k]` = (frames, paths) of every component for an input of depth k.
    levels: RefCell<Vec<Vec<(u64, u64)>>>,
    converged: RefCell<bool>,
}

fn unsupported(path: &str, message: String) -> ContractError {
    ContractError::new(Code::ToolSchemaUnsupported, path, message).in_layer(Layer::Contract)
}

pub fn analyze(schema: &Value, pointer: &str, resources: &[(String, Value)]) -> Result<Bounds> {
    let depth = value_depth(schema);
    if depth > MAX_SCHEMA_DEPTH {
        return Err(unsupported(
            pointer,
            format!("the schema is nested {depth} levels deep; at most {MAX_SCHEMA_DEPTH} are supported"),
        ));
    }
    if containers(std::iter::once(schema).chain(resources.iter().map(|(_, doc)| doc))) > MAX_SCHEMA_CONTAINERS {
        return Err(unsupported(
            pointer,
            format!("the schema holds more than {MAX_SCHEMA_CONTAINERS} objects and arrays (its resources included)"),
        ));
    }
    let base = Url::parse("urn:agent-contract:schema").expect("static URL");
    let mut b = Builder { docs: vec![(schema, base)], ..Default::default() };
    for (url, doc) in resources {
        if let Ok(u) = Url::parse(url) {
            b.docs.push((doc, u));
        }
    }
    for d in 0..b.docs.len() {
        let (doc, base) = (b.docs[d].0, b.docs[d].1.clone());
        b.walk(d, String::new(), doc, &base);
    }
    b.resolve_all();
    if b.pointer_bytes > MAX_POINTER_BYTES {
        return Err(unsupported(
            pointer,
            format!(
                "the JSON Pointers of the schema's subschemas come to more than {} MiB (long member names nested deep)",
                MAX_POINTER_BYTES >> 20
            ),
        ));
    }
    if b.nodes.len() > MAX_SCHEMA_NODES {
        return Err(unsupported(pointer, format!("the schema has more than {MAX_SCHEMA_NODES} subschemas")));
    }
    let root = b.keys[&(0, String::new())];
    let mut nodes = b.nodes;
    for n in nodes.iter_mut() {
        if n.pointer.is_empty() || n.pointer.starts_with('/') {
            n.pointer = format!("{pointer}{}", n.pointer);
        }
    }
    let (comp, comps) = scc(&nodes);
    let bounds = Bounds { nodes, comp, comps, root, levels: RefCell::new(Vec::new()), converged: RefCell::new(false) };
    // Definition time: one value (depth 0) from any schema must stay within the budgets.
    bounds.extend_to(0);
    let levels = bounds.levels.borrow();
    for (c, &(frames, paths)) in levels[0].iter().enumerate() {
        let at = &bounds.nodes[bounds.comps[c][0]].pointer;
        if frames > MAX_FRAMES / 2 {
            return Err(unsupported(
                at,
                format!("references and applicators chain more than {} schemas on one value", MAX_FRAMES / 2),
            ));
        }
        if paths > MAX_EVALUATIONS {
            return Err(unsupported(
                at,
                format!("one value would be evaluated more than {MAX_EVALUATIONS} times (references fan out)"),
            ));
        }
    }
    drop(levels);
    Ok(bounds)
}

impl Bounds {
    /// Schema objects and booleans counted (at most MAX_SCHEMA_NODES).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Before validating an input of `depth` (root container = 1) and `values` values.
    /// Returns the evaluations it admitted (an upper bound).
    pub fn admit(&self, depth: usize, values: usize) -> Result<u64> {
        let (frames, paths) = self.root_at(depth);
        if frames > MAX_FRAMES {
            return Err(ContractError::new(
                Code::InputTooDeep,
                "",
                format!(
                    "validating this input against its recursive schema would nest more than {MAX_FRAMES} evaluations"
                ),
            ));
        }
        let work = paths.saturating_mul(values as u64);
        if work > MAX_WORK {
            return Err(ContractError::new(
                Code::InputTooLarge,
                "",
                format!("validating this input against its schema could take more than {MAX_WORK} evaluations"),
            ));
        }
        Ok(work)
    }

    fn root_at(&self, depth: usize) -> (u64, u64) {
        self.extend_to(depth);
        let levels = self.levels.borrow();
        let k = depth.min(levels.len() - 1);
        levels[k][self.comp[self.root]]
    }

    fn extend_to(&self, depth: usize) {
        let mut levels = self.levels.borrow_mut();
        let mut converged = self.converged.borrow_mut();
        while levels.len() <= depth && !*converged {
            let k = levels.len();
            let prev = if k == 0 { None } else { Some(&levels[k - 1]) };
            let mut cur = vec![(0u64, 0u64); self.comps.len()];
            for (c, members) in self.comps.iter().enumerate() {
                let mut frames_in = 0u64;
                let mut below = 0u64;
                let mut paths = 0u64;
                for &n in members {
                    let node = &self.nodes[n];
                    frames_in = frames_in.saturating_add(node.weight.0);
                    paths = paths.saturating_add(node.weight.1);
                    for &t in &node.same {
                        let tc = self.comp[t];
                        if tc != c {
                            below = below.max(cur[tc].0);
                            paths = paths.saturating_add(cur[tc].1);
                        }
                    }
                    if let Some(prev) = prev {
                        for &t in &node.desc {
                            let (f, p) = prev[self.comp[t]];
                            below = below.max(f);
                            paths = paths.saturating_add(p);
                        }
                    }
                }
                // Inside a same-value cycle every simple path may be taken. A path is its choice
                // of edge at each member it passes, so there are at most size times the product
                // of the members' edges inside the cycle of them (a chain of `$ref`s: size), and
                // never more than size!.
                let (mut factorial, mut choices) = (1u64, members.len() as u64);
                for (i, &n) in members.iter().enumerate() {
                    factorial = factorial.saturating_mul(i as u64 + 1);
                    let inside = self.nodes[n].same.iter().filter(|&&t| self.comp[t] == c).count() as u64;
                    choices = choices.saturating_mul(inside.max(1));
                }
                let factor = factorial.min(choices);
                cur[c] = (frames_in.saturating_add(below), paths.saturating_mul(factor));
            }
            if levels.last() == Some(&cur) {
                *converged = true;
            } else {
                levels.push(cur);
            }
            if k > 4096 {
                *converged = true;
            }
        }
    }
}

type Key = (usize, String);

#[derive(Default)]
struct Builder<'a> {
    docs: Vec<(&'a Value, Url)>,
    nodes: Vec<Node>,
    keys: HashMap<Key, usize>,
    /// Base URL of each node (for lazily walked reference targets).
    ids: HashMap<String, Key>,
    anchors: HashMap<String, Key>,
    dynamic: HashMap<String, Vec<usize>>,
    recursive: Vec<usize>,
    refs: Vec<(usize, Url, String, &'static str)>,
    meta: Option<usize>,
    /// The pointers of the subschemas walked so far, in bytes (past MAX_POINTER_BYTES the walk
    /// stops and the schema is refused).
    pointer_bytes: usize,
}

const SAME_ONE: [&str; 4] = ["not", "if", "then", "else"];
const SAME_LIST: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const SAME_MAP: [&str; 2] = ["dependentSchemas", "dependencies"];
const DESC_ONE: [&str; 8] = [
    "additionalProperties",
    "propertyNames",
    "additionalItems",
    "contains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
    "items",
];
const DESC_LIST: [&str; 2] = ["prefixItems", "items"];
const DESC_MAP: [&str; 2] = ["properties", "patternProperties"];
const DEFS: [&str; 2] = ["$defs", "definitions"];

fn without_fragment(u: &Url) -> String {
    let mut u = u.clone();
    u.set_fragment(None);
    u.to_string()
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

impl<'a> Builder<'a> {
    fn walk(&mut self, doc: usize, ptr: String, value: &'a Value, base: &Url) -> usize {
        if self.pointer_bytes > MAX_POINTER_BYTES {
            return 0;
        }
        let key = (doc, ptr.clone());
        if let Some(&i) = self.keys.get(&key) {
            return i;
        }
        self.pointer_bytes += ptr.len();
        let i = self.nodes.len();
        self.nodes.push(Node {
            weight: (1, 1),
            pointer: if doc == 0 { ptr.clone() } else { String::new() },
            ..Default::default()
        });
        self.keys.insert(key.clone(), i);
        if self.nodes.len() > MAX_SCHEMA_NODES + 1 {
            return i;
        }
        let Value::Object(entries) = value else { return i };
        let mut base = base.clone();
        if let Some(Value::String(id)) = value.get("$id") {
            if let Ok(u) = base.join(id) {
                if let Some(frag) = u.fragment().filter(|f| !f.is_empty() && !f.starts_with('/')) {
                    self.anchors.insert(format!("{}#{}", without_fragment(&u), frag), key.clone());
                }
                if !id.starts_with('#') {
                    self.ids.insert(without_fragment(&u), key.clone());
                    base = u;
                    base.set_fragment(None);
                }
            }
        }
        for kw in ["$anchor", "$dynamicAnchor"] {
            if let Some(Value::String(name)) = value.get(kw) {
                self.anchors.insert(format!("{}#{}", without_fragment(&base), name), key.clone());
                if kw == "$dynamicAnchor" {
                    self.dynamic.entry(name.clone()).or_default().push(i);
                }
            }
        }
        if let Some(Value::Bool(true)) = value.get("$recursiveAnchor") {
            self.recursive.push(i);
        }
        for (k, v) in entries {
            if self.pointer_bytes > MAX_POINTER_BYTES {
                break;
            }
            let child = |s: &str| format!("{ptr}/{}", escape(s));
            let is_schema = |v: &Value| matches!(v, Value::Object(_) | Value::Bool(_));
            let k = k.as_str();
            if matches!(k, "$ref" | "$dynamicRef" | "$recursiveRef") {
                if let Value::String(r) = v {
                    let kind = match k {
                        "$ref" => "$ref",
                        "$dynamicRef" => "$dynamicRef",
                        _ => "$recursiveRef",
                    };
                    self.refs.push((i, base.clone(), r.clone(), kind));
                }
                continue;
            }
            let mut edges: Vec<(usize, bool)> = Vec::new();
            let desc = DESC_ONE.contains(&k) || DESC_LIST.contains(&k) || DESC_MAP.contains(&k);
            let same = SAME_ONE.contains(&k) || SAME_LIST.contains(&k) || SAME_MAP.contains(&k);
            let defs = DEFS.contains(&k);
            if !(desc || same || defs) {
                continue;
            }
            match v {
                Value::Object(_) | Value::Bool(_) if SAME_ONE.contains(&k) || DESC_ONE.contains(&k) => {
                    let t = self.walk(doc, child(k), v, &base);
                    edges.push((t, desc));
                }
                Value::Array(items) if SAME_LIST.contains(&k) || DESC_LIST.contains(&k) => {
                    for (n, item) in items.iter().enumerate() {
                        if self.pointer_bytes > MAX_POINTER_BYTES {
                            break;
                        }
                        if is_schema(item) {
                            let t = self.walk(doc, format!("{}/{n}", child(k)), item, &base);
                            edges.push((t, desc));
                        }
                    }
                }
                Value::Object(map) if SAME_MAP.contains(&k) || DESC_MAP.contains(&k) || defs => {
                    for (name, item) in map {
                        if self.pointer_bytes > MAX_POINTER_BYTES {
                            break;
                        }
                        if is_schema(item) {
                            let t = self.walk(doc, format!("{}/{}", child(k), escape(name)), item, &base);
                            if !defs {
                                edges.push((t, desc));
                            }
                        }
                    }
                }
                _ => {}
            }
            for (t, d) in edges {
                if d {
                    self.nodes[i].desc.push(t);
                } else {
                    self.nodes[i].same.push(t);
                }
            }
        }
        i
    }

    fn resolve_all(&mut self) {
        while let Some((from, base, reference, kind)) = self.refs.pop() {
            if self.nodes.len() > MAX_SCHEMA_NODES + 1 {
                return;
            }
            let Ok(url) = base.join(&reference) else { continue };
            let doc_url = without_fragment(&url);
            let frag = url.fragment().map(super::compile_errors::percent_decode).unwrap_or_default();
            let mut targets = Vec::new();
            if let Some(t) = self.resolve(&doc_url, &frag) {
                targets.push(t);
            } else if doc_url.contains("json-schema.org/") {
                targets.push(self.meta());
            }
            match kind {
                "$dynamicRef" => {
                    if let Some(list) = self.dynamic.get(&frag) {
                        targets.extend(list.iter().copied());
                    }
                }
                "$recursiveRef" => targets.extend(self.recursive.iter().copied()),
                _ => {}
            }
            for t in targets {
                if !self.nodes[from].same.contains(&t) {
                    self.nodes[from].same.push(t);
                }
            }
        }
    }

    fn meta(&mut self) -> usize {
        if let Some(m) = self.meta {
            return m;
        }
        let m = self.nodes.len();
        self.nodes.push(Node { weight: (META_FRAMES, META_PATHS), desc: vec![m], ..Default::default() });
        self.meta = Some(m);
        m
    }

    fn resolve(&mut self, doc_url: &str, frag: &str) -> Option<usize> {
        let resource = match self.ids.get(doc_url) {
            Some(k) => k.clone(),
            None => {
                let d = self.docs.iter().position(|(_, u)| without_fragment(u) == doc_url)?;
                (d, String::new())
            }
        };
        if frag.is_empty() {
            return self.keys.get(&resource).copied();
        }
        if !frag.starts_with('/') {
            let key = self.anchors.get(&format!("{doc_url}#{frag}"))?.clone();
            return self.keys.get(&key).copied();
        }
        let pointer = format!("{}{}", resource.1, frag);
        let key = (resource.0, pointer.clone());
        if let Some(&i) = self.keys.get(&key) {
            return Some(i);
        }
        // A pointer into a place no applicator reaches (`$defs` of an unknown keyword): walk it.
        let (doc, _) = self.docs[resource.0];
        let mut target = doc;
        for segment in pointer.split('/').skip(1) {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            target = match target {
                Value::Object(_) => target.get(&segment)?,
                Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        let base = Url::parse(doc_url).ok()?;
        Some(self.walk(resource.0, pointer, target, &base))
    }
}

/// Tarjan's strongly connected components over same-value edges, iteratively; components come
/// out sinks first (every component's same-value successors are numbered before it).
fn scc(nodes: &[Node]) -> (Vec<usize>, Vec<Vec<usize>>) {
    const NONE: usize = usize::MAX;
    let n = nodes.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![NONE; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    let mut next = 0usize;
    for start in 0..n {
        if index[start] != NONE {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(start, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == NONE {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = nodes[v].same.get(*edge) {
                *edge += 1;
                if index[w] == NONE {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps.len();
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                comps.push(members);
            }
        }
    }
    (comp, comps)
}

/// Objects and arrays in `docs`, counted up to one past `MAX_SCHEMA_CONTAINERS`.
fn containers<'a>(docs: impl Iterator<Item = &'a Value>) -> usize {
    let mut count = 0;
    let mut stack: Vec<&Value> = docs.collect();
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(entries) => stack.extend(entries.iter().map(|(_, i)| i)),
            _ => continue,
        }
        count += 1;
        if count > MAX_SCHEMA_CONTAINERS {
            break;
        }
    }
    count
}

fn value_depth(value: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(value, 1usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(items) => {
                max = max.max(d);
                stack.extend(items.iter().map(|i| (i, d + 1)));
            }
            Value::Object(entries) => {
                max = max.max(d);
                stack.extend(entries.iter().map(|(_, i)| (i, d + 1)));
            }
            _ => {}
        }
    }
    max
}
