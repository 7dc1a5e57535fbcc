//! Tool input validation with JSON Schema.
//!
//! The engine (`boon`) stays behind this module: nothing else names it. This module decides
//! - which schemas are accepted (`TOOL_SCHEMA_INVALID` with the JSON Pointer of the bad keyword,
//!   `TOOL_SCHEMA_UNSUPPORTED` for what the engine cannot run or what could not be bounded),
//! - how a tool input is turned into an instance (`undefined` own properties are absent, like
//!   their JSON wire form; `undefined` array elements are `null`, like `JSON.stringify`),
//! - how failures become `issues` (`{path, keyword, message}`, instance paths as JSON Pointers,
//!   sorted so every host lists them in the same order),
//! - how much work one validation may do (`complexity`): a schema whose evaluation could recurse
//!   or fan out without bound is refused when defined, and an input that would make a recursive
//!   schema nest too deep or evaluate too often is refused before the engine runs.
//!
//! A schema made of the common keywords also becomes a program (`fast`) that proves an input
//! valid without the engine: while the strict parser reads the text (`validate_json`, no tree)
//! or over a value tree. Whatever it cannot prove valid goes to the engine, so verdicts and
//! issues are the engine's.
//!
//! Compiled schemas are cached per thread (one wasm instance is one thread) by their canonical
//! JSON text, so `defineTool` compiles once and `validateToolInput` finds the compiled schema
//! again from the definition the host hands back.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::error::{Code, ContractError, Issue, Layer, Result};
use crate::json::{self, Mode};
use crate::value::{push_pointer, write_json, Value};

mod complexity;
mod fast;
mod regex_budget;

pub use complexity::{MAX_EVALUATIONS, MAX_FRAMES, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, MAX_WORK};

/// The base URI of a tool schema: a scheme the engine cannot load, so nothing is ever fetched.
const BASE: &str = "urn:agent-contract:schema";
/// Compiled schemas kept per thread; the cache is cleared when full (definitions are few and
/// long-lived; a hostile caller cycling through schemas only costs recompiles). Sized so that a
/// registry of several hundred tools fits: otherwise `catalog` and the projections of a 500-tool
/// registry recompile every schema on every call (measured: 73 ms vs 12 ms in Node).
const CACHE_SIZE: usize = 1024;
/// The most memory the cache holds, as estimated by `CompiledSchema::weight`; past it the cache
/// is cleared, and a schema heavier than this is kept alone. A count alone let large
/// schemas keep tens of MB alive between calls, and so did a bound on their text: the compiled
/// form of `{"properties": {"a": {}, ...}}` is ~1.5 KB per 6 bytes of text in wasm (the Node
/// fuzzer saw instances past 64 MiB both times; 180 distinct 200-property schemas were enough).
const CACHE_BYTES: usize = 16 << 20;
/// What one compiled subschema is counted for: the engine's schema record (1,120 bytes on a
/// 64-bit host, less in wasm) with its maps and location, and the complexity graph's node.
const SCHEMA_NODE_BYTES: usize = 2 << 10;

/// A schema compiled by the engine, with its work bounds.
pub struct CompiledSchema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
    /// `{"not": {"not": {"$ref": <the schema>}}}`: the same verdict, but the engine evaluates
    /// `not` in its yes/no mode, which stops at the first failure and builds no error tree.
    verdict: boon::SchemaIndex,
    bounds: complexity::Bounds,
    /// The schema as a program that proves common inputs valid without the engine (`fast`), when
    /// it uses only the keywords that module evaluates.
    fast: Option<fast::Program>,
    /// Where the engine's item indices need correcting (`fix_item_index`): each schema holding a
    /// `prefixItems` list (draft-07: an `items` list), as (its pointer, the keyword numbering
    /// from 0, the list's length). Kept instead of a copy of the schema, which for a large
    /// schema was a walk and its size again in memory for every compile.
    item_shifts: Vec<(String, &'static str, usize)>,
    /// The base URL of the schema.
    base: String,
    /// Bytes of the regex budget its patterns spent.
    regex_bytes: usize,
}

thread_local! {
    static CACHE: RefCell<HashMap<String, Rc<CompiledSchema>>> = RefCell::new(HashMap::new());
    /// Weight of the schemas in `CACHE` (their keys and `CompiledSchema::weight`).
    static CACHE_HELD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Extra documents the engine may resolve references to (the conformance suite's remotes).
pub type Resources<'a> = &'a [(String, Value)];

/// Canonical text of a schema: the cache key.
fn canonical(schema: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, schema);
    out
}

/// Empties this thread's compiled-schema cache, so a measurement sees a first call's compile
/// (the scaling tests: timed on a warm cache, a definition's cost was hidden up to the sizes
/// the cache holds).
#[doc(hidden)]
pub fn clear_cache() {
    CACHE.with(|c| c.borrow_mut().clear());
    CACHE_HELD.with(|h| h.set(0));
}

/// Compiles `schema` (found at `pointer` in the caller's argument: `/inputSchema`), or finds it
/// in the cache.
pub fn compile(schema: &Value, pointer: &str) -> Result<Rc<CompiledSchema>> {
    compile_in(schema, pointer, &[])
}

/// `compile` with the documents a definition carries (`tools::resources`); they are part of the
/// cache key, so the same schema with other documents is compiled again.
pub fn compile_in(schema: &Value, pointer: &str, resources: Resources<'_>) -> Result<Rc<CompiledSchema>> {
    let mut key = canonical(schema);
    if !resources.is_empty() {
        // `\n` never occurs in canonical JSON text outside a string, so the key is unambiguous.
        key.push('\n');
        write_json(&mut key, &Value::Object(resources.to_vec()));
    }
    if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(hit);
    }
    let compiled = Rc::new(compile_with(schema, pointer, resources)?);
    let weight = key.len().saturating_add(compiled.weight());
    // A schema heavier than the whole budget is kept alone: the complexity bounds admit up to
    // MAX_SCHEMA_NODES subschemas, a little over CACHE_BYTES by this estimate, and a schema not
    // kept is compiled again by every call that reads its tool again.
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_SIZE || CACHE_HELD.with(|h| h.get()) + weight > CACHE_BYTES {
            c.clear();
            CACHE_HELD.with(|h| h.set(0));
        }
        CACHE_HELD.with(|h| h.set(h.get() + weight));
        c.insert(key, compiled.clone());
    });
    Ok(compiled)
}

impl CompiledSchema {
    /// The memory it holds, estimated: its subschemas and its patterns' automata (compiled, about
    /// twice the regex budget they spent).
    fn weight(&self) -> usize {
        self.schemas.size().saturating_mul(SCHEMA_NODE_BYTES).saturating_add(self.regex_bytes.saturating_mul(2))
    }
}

fn contract(code: Code, path: String, message: impl Into<String>) -> ContractError {
    ContractError::new(code, path, message).in_layer(Layer::Contract)
}

/// Compiles without the cache; `resources` are documents served at their URLs.
pub fn compile_with(schema: &Value, pointer: &str, resources: Resources<'_>) -> Result<CompiledSchema> {
    if !crate::entropy::is_seeded() {
        return Err(contract(
            Code::ToolSchemaUnsupported,
            pointer.to_owned(),
            "the core was not seeded with host randomness (hosts call seed() when they create an instance)",
        ));
    }
    let draft = draft_of(schema, pointer, resources)?;
    let mut budget = regex_budget::RegexBudget::new();
    check_patterns(schema, pointer, &mut budget)?;
    for (uri, doc) in resources {
        check_patterns(doc, &crate::value::pointer_child("/resources", uri), &mut budget)?;
    }
    let bounds = complexity::analyze(schema, pointer, resources)?;

    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(draft);
    compiler.use_loader(Box::new(NoLoader));
    let doc = to_json(schema);
    let base = format!("{BASE}:{}", if pointer.is_empty() { "root" } else { &pointer[1..] });
    let base = base.replace('/', ":");
    for (url, doc) in resources {
        compiler
            .add_resource(url, to_json(doc))
            .map_err(|e| contract(Code::ToolSchemaInvalid, pointer.to_owned(), format!("resource {url}: {e}")))?;
    }
    compiler
        .add_resource(&base, doc)
        .map_err(|e| contract(Code::ToolSchemaInvalid, pointer.to_owned(), e.to_string()))?;
    let verdict_url = format!("{base}:verdict");
    compiler
        .add_resource(&verdict_url, serde_json::json!({"not": {"not": {"$ref": base}}}))
        .map_err(|e| contract(Code::ToolSchemaInvalid, pointer.to_owned(), e.to_string()))?;
    // The engine reports a pattern its regex crate refuses as `CompileError::Bug` and, in builds
    // with debug assertions (tests, fuzzing), panics first: find such a pattern before it runs.
    // Release builds reach the same error through `compile_error` (found by `cargo fuzz`).
    if cfg!(debug_assertions) {
        if let Some((path, pattern)) = first_uncompilable_pattern(schema, pointer) {
            return Err(regex_error(&pattern, path));
        }
    }
    let mut schemas = boon::Schemas::new();
    // The engine's vector of compiled schemas, sized once: the schema's nodes and the verdict
    // wrapper's three (a vector doubling past 8,192 schemas held twice their memory).
    schemas.reserve(bounds.node_count() + 3);
    let fail = |e: boon::CompileError| {
        in_resource(&e, resources)
            .or_else(|| unresolved(&e, schema, pointer, resources))
            .unwrap_or_else(|| compile_error(&e, &base, pointer, schema))
    };
    // The verdict wrapper first: it references the schema, so one compile holds every
    // subschema (and the engine's list of them is one vector, exactly sized); the schema's own
    // compile then finds it compiled.
    let verdict = compiler.compile(&verdict_url, &mut schemas).map_err(fail)?;
    let index = compiler.compile(&base, &mut schemas).map_err(fail)?;
    let fast = fast::build(schema, &mut |at| compiler.compile(&format!("{base}#{}", fragment(at)), &mut schemas).ok());
    let regex_bytes = budget.spent();
    let mut item_shifts = Vec::new();
    find_item_shifts(schema, &mut String::new(), &mut item_shifts);
    item_shifts.sort_unstable();
    Ok(CompiledSchema { schemas, index, verdict, bounds, fast, item_shifts, base, regex_bytes })
}

/// Every object in `value` (at `path`) with a `prefixItems` list or an `items` list: what
/// `fix_item_index` looks up.
fn find_item_shifts(value: &Value, path: &mut String, out: &mut Vec<(String, &'static str, usize)>) {
    let len = path.len();
    match value {
        Value::Object(entries) => {
            for (keyword, numbered) in [("prefixItems", "items"), ("items", "additionalItems")] {
                if let Some(Value::Array(list)) = value.get(keyword) {
                    out.push((path.clone(), numbered, list.len()));
                }
            }
            for (k, v) in entries {
                if matches!(v, Value::Object(_) | Value::Array(_)) {
                    push_pointer(path, k);
                    find_item_shifts(v, path, out);
                    path.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                if matches!(v, Value::Object(_) | Value::Array(_)) {
                    path.push('/');
                    path.push_str(&i.to_string());
                    find_item_shifts(v, path, out);
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
}

/// A JSON Pointer as a URL fragment: every byte but ASCII letters, digits and `/-._~`
/// percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `$schema` picks the draft: 2020-12 (the default), 2019-09 and draft-07 are accepted.
fn draft_of(schema: &Value, pointer: &str, resources: Resources<'_>) -> Result<boon::Draft> {
    let Some(declared) = schema.get("$schema") else {
        return Ok(boon::Draft::V2020_12);
    };
    let path = format!("{pointer}/$schema");
    let Value::String(url) = declared else {
        return Err(contract(Code::ToolSchemaInvalid, path, "$schema must be a string (a metaschema URI)"));
    };
    match boon::Draft::from_url(url) {
        Some(d @ (boon::Draft::V2020_12 | boon::Draft::V2019_09 | boon::Draft::V7)) => Ok(d),
        // A custom metaschema among the given resources (the conformance suite's remotes).
        None if resources.iter().any(|(u, _)| u == url) => Ok(boon::Draft::V2020_12),
        _ => Err(contract(
            Code::ToolSchemaUnsupported,
            path,
            format!("$schema {url:?} is not supported; use draft 2020-12 (the default), 2019-09 or draft-07"),
        )),
    }
}

struct NoLoader;

impl boon::UrlLoader for NoLoader {
    fn load(&self, url: &str) -> std::result::Result<serde_json::Value, Box<dyn std::error::Error>> {
        Err(format!("{url} cannot be loaded: the core does no I/O, a schema must be self-contained").into())
    }
}

/// Regular expressions the engine cannot run (look-around, backreferences) are refused with
/// their pointer before the engine sees them, so they never become a silent pass; so are
/// patterns past the definition's budget of automata (`regex_budget`), before any is compiled.
fn check_patterns(schema: &Value, pointer: &str, budget: &mut regex_budget::RegexBudget) -> Result<()> {
    let mut stack: Vec<(&Value, String)> = vec![(schema, pointer.to_owned())];
    while let Some((value, path)) = stack.pop() {
        match value {
            Value::Object(entries) => {
                for (key, item) in entries {
                    let child = crate::value::pointer_child(&path, key);
                    if key == "pattern" {
                        if let Value::String(p) = item {
                            check_pattern(p, &child, budget)?;
                        }
                    }
                    if key == "patternProperties" {
                        if let Value::Object(props) = item {
                            for (p, _) in props {
                                check_pattern(p, &crate::value::pointer_child(&child, p), budget)?;
                            }
                        }
                    }
                    if matches!(item, Value::Object(_) | Value::Array(_)) && key != "enum" && key != "const" {
                        stack.push((item, child));
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if matches!(item, Value::Object(_) | Value::Array(_)) {
                        stack.push((item, format!("{path}/{i}")));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn check_pattern(pattern: &str, path: &str, budget: &mut regex_budget::RegexBudget) -> Result<()> {
    use regex_budget::{Refused, MAX_PATTERN_BYTES, REGEX_BUDGET_BYTES};
    let message = match budget.spend(pattern) {
        Ok(()) => return unsupported_regex(pattern, path),
        Err(Refused::TooLong) => format!(
            "the pattern is longer than {} KiB once its classes are spelled out (\\d as [0-9], ...)",
            MAX_PATTERN_BYTES >> 10
        ),
        Err(Refused::OverBudget) => format!(
            "the definition's regular expressions need more than {} MiB for their automata by this pattern; use fewer or smaller patterns",
            REGEX_BUDGET_BYTES >> 20
        ),
    };
    Err(contract(Code::ToolSchemaUnsupported, path.to_owned(), message))
}

fn unsupported_regex(pattern: &str, path: &str) -> Result<()> {
    use regex_syntax::ast::ErrorKind as K;
    let Err(e) = regex_syntax::ast::parse::Parser::new().parse(pattern) else {
        return Ok(());
    };
    let what = match e.kind() {
        K::UnsupportedLookAround => "look-around (?=, ?!, ?<=, ?<!)",
        K::UnsupportedBackreference => "backreferences",
        K::NestLimitExceeded(_) => "this much nesting",
        _ => return Ok(()), // invalid ECMA-262 patterns are TOOL_SCHEMA_INVALID, found by the engine
    };
    Err(contract(
        Code::ToolSchemaUnsupported,
        path.to_owned(),
        format!("pattern {pattern:?} uses {what}, which the linear-time regex engine does not run"),
    ))
}

/// A referenced resource that is not valid JSON Schema, reported at its place in the
/// definition (`/resources/<uri>/...`) rather than at the schema that references it.
fn in_resource(e: &boon::CompileError, resources: Resources<'_>) -> Option<ContractError> {
    let boon::CompileError::ValidationError { url, src } = e else { return None };
    let doc = url.split_once('#').map_or(url.as_str(), |(d, _)| d);
    let (uri, _) = resources.iter().find(|(u, _)| u == doc)?;
    let (path, message) = deepest(src);
    Some(contract(
        Code::ToolSchemaInvalid,
        format!("{}{path}", crate::value::pointer_child("/resources", uri)),
        format!("resource {uri} is not a valid JSON Schema: {message}"),
    ))
}

/// A reference no document answers: reported at the first such `$ref` in document order (the
/// engine's choice among several depends on its hash order, which differs between hosts).
fn unresolved(
    e: &boon::CompileError,
    schema: &Value,
    pointer: &str,
    resources: Resources<'_>,
) -> Option<ContractError> {
    use boon::CompileError as E;
    if !matches!(e, E::LoadUrlError { .. } | E::UnsupportedUrlScheme { .. }) {
        return None;
    }
    let (path, url) = crate::tools::resources::first_unresolved(schema, pointer, resources)?;
    Some(contract(
        Code::ToolSchemaUnsupported,
        path,
        format!(
            "reference to {url} cannot be resolved: nothing is fetched; give the document in the definition's resources (URI -> schema)"
        ),
    ))
}

/// Maps an engine compile error to our codes, with the JSON Pointer of the bad keyword.
fn compile_error(e: &boon::CompileError, base: &str, pointer: &str, schema: &Value) -> ContractError {
    use boon::CompileError as E;
    let locate = |url: &str| -> String {
        // Engine locations are `<url>#<json pointer>`; ours are relative to the argument.
        match url.split_once('#') {
            Some((doc, frag)) if doc == base => format!("{pointer}{}", percent_decode(frag)),
            _ => pointer.to_owned(),
        }
    };
    match e {
        E::ValidationError { src, .. } => {
            // The schema is not valid against its metaschema: report the deepest failure.
            let (path, message) = deepest(src);
            let path = format!("{pointer}{path}");
            contract(Code::ToolSchemaInvalid, path, format!("not a valid JSON Schema: {message}"))
        }
        E::InvalidRegex { url, regex, .. } => regex_error(regex, locate(url)),
        E::Bug(_) => {
            // The engine's remaining failure mode is a `pattern` its regex engine refuses: name
            // the first such pattern.
            match first_uncompilable_pattern(schema, pointer) {
                Some((path, pattern)) => regex_error(&pattern, path),
                None => {
                    contract(Code::ToolSchemaUnsupported, pointer.to_owned(), format!("the schema engine failed: {e}"))
                }
            }
        }
        E::LoadUrlError { url, .. } | E::UnsupportedUrlScheme { url } => contract(
            Code::ToolSchemaUnsupported,
            ref_location(schema, pointer, url),
            format!(
                "reference to {url} cannot be resolved: nothing is fetched; give the document in the definition's resources (URI -> schema)"
            ),
        ),
        E::UnsupportedDraft { url } | E::InvalidMetaSchemaUrl { url, .. } | E::MetaSchemaCycle { url } => {
            contract(Code::ToolSchemaUnsupported, format!("{pointer}/$schema"), format!("unsupported $schema {url}"))
        }
        E::UnsupportedVocabulary { vocabulary, .. } => contract(
            Code::ToolSchemaUnsupported,
            format!("{pointer}/$vocabulary"),
            format!("unsupported vocabulary {vocabulary}"),
        ),
        E::ParseIdError { loc } | E::ParseAnchorError { loc } => {
            contract(Code::ToolSchemaInvalid, locate(loc), format!("invalid identifier: {e}"))
        }
        E::DuplicateId { ptr2, .. } | E::DuplicateAnchor { ptr2, .. } => {
            contract(Code::ToolSchemaInvalid, format!("{pointer}{}", percent_decode(ptr2)), e.to_string())
        }
        E::JsonPointerNotFound(url) | E::InvalidJsonPointer(url) | E::ParseUrlError { url, .. } => contract(
            Code::ToolSchemaInvalid,
            ref_location(schema, pointer, url),
            format!("unresolvable reference: {e}"),
        ),
        E::AnchorNotFound { reference, .. } => contract(
            Code::ToolSchemaInvalid,
            ref_location(schema, pointer, reference),
            format!("unresolvable reference: {e}"),
        ),
    }
}

/// The pointer of the first `$ref`-like keyword whose value ends like `target`.
fn ref_location(schema: &Value, pointer: &str, target: &str) -> String {
    let mut stack: Vec<(&Value, String)> = vec![(schema, pointer.to_owned())];
    let mut found: Option<String> = None;
    while let Some((value, path)) = stack.pop() {
        match value {
            Value::Object(entries) => {
                for (key, item) in entries.iter().rev() {
                    let child = crate::value::pointer_child(&path, key);
                    if let (true, Value::String(r)) =
                        (matches!(key.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef"), item)
                    {
                        let frag = r.split_once('#').map_or("", |(_, f)| f);
                        let tail = target.split_once('#').map_or(target, |(_, f)| f);
                        if (!frag.is_empty() && (tail == frag || percent_decode(tail) == frag))
                            || target.ends_with(r.as_str())
                        {
                            if found.as_ref().is_none_or(|f| child < *f) {
                                found = Some(child.clone());
                            }
                        }
                    }
                    stack.push((item, child));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    stack.push((item, format!("{path}/{i}")));
                }
            }
            _ => {}
        }
    }
    found.unwrap_or_else(|| pointer.to_owned())
}

/// A pattern the engine refused: not a regular expression at all (`TOOL_SCHEMA_INVALID`), or one
/// its regex engine cannot build (size limits: `TOOL_SCHEMA_UNSUPPORTED`).
fn regex_error(pattern: &str, path: String) -> ContractError {
    if regex_syntax::ast::parse::Parser::new().parse(pattern).is_err() {
        contract(Code::ToolSchemaInvalid, path, format!("pattern {pattern:?} is not a valid regular expression"))
    } else {
        contract(Code::ToolSchemaUnsupported, path, format!("pattern {pattern:?} is too large for the regex engine"))
    }
}

fn first_uncompilable_pattern(schema: &Value, pointer: &str) -> Option<(String, String)> {
    let mut stack: Vec<(&Value, String)> = vec![(schema, pointer.to_owned())];
    while let Some((value, path)) = stack.pop() {
        if let Value::Object(entries) = value {
            for (key, item) in entries {
                let child = crate::value::pointer_child(&path, key);
                match (key.as_str(), item) {
                    ("pattern", Value::String(p)) if engine_refuses(p) => return Some((child, p.clone())),
                    ("patternProperties", Value::Object(props)) => {
                        for (p, _) in props {
                            if engine_refuses(p) {
                                return Some((crate::value::pointer_child(&child, p), p.clone()));
                            }
                        }
                    }
                    _ => {}
                }
                stack.push((item, child));
            }
        } else if let Value::Array(items) = value {
            for (i, item) in items.iter().enumerate() {
                stack.push((item, format!("{path}/{i}")));
            }
        }
    }
    None
}

/// Whether the engine fails on `pattern` with its internal error (the regex crate refusing its
/// ECMA-262 translation). In release builds the engine itself is asked, on a one-keyword
/// schema. Builds with debug assertions cannot ask it: the engine `debug_assert!`s on that error
/// (a panic; under the fuzzer, an abort). They ask the regex crate about the engine's own
/// translation (`boon::ecma_regex`), so debug and release builds give the same verdict; a
/// pattern the translation refuses is the engine's to report (its metaschema check does).
fn engine_refuses(pattern: &str) -> bool {
    if cfg!(debug_assertions) {
        return boon::ecma_regex(pattern).is_ok_and(|rewritten| regex::Regex::new(&rewritten).is_err());
    }
    let mut compiler = boon::Compiler::new();
    compiler.use_loader(Box::new(NoLoader));
    let url = format!("{BASE}:pattern");
    compiler.add_resource(&url, serde_json::json!({ "pattern": pattern })).is_ok()
        && matches!(compiler.compile(&url, &mut boon::Schemas::new()), Err(boon::CompileError::Bug(_)))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if let (Some(h), Some(l)) = (hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: Option<&u8>) -> Option<u8> {
    match b? {
        c @ b'0'..=b'9' => Some(c - b'0'),
        c @ b'a'..=b'f' => Some(c - b'a' + 10),
        c @ b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The deepest leaf of a metaschema validation error: (instance pointer, message).
fn deepest(e: &boon::ValidationError<'_, '_>) -> (String, String) {
    let mut best: Option<(usize, String, String)> = None;
    let mut stack = vec![e];
    while let Some(err) = stack.pop() {
        if err.causes.is_empty() {
            let depth = err.instance_location.tokens.len();
            let path = instance_pointer(&err.instance_location);
            let message = err.kind.to_string();
            // Deepest first; among equals, the first in pointer order (stable across hosts).
            let better = match &best {
                None => true,
                Some((d, p, m)) => depth > *d || (depth == *d && (&path, &message) < (p, m)),
            };
            if better {
                best = Some((depth, path, message));
            }
        }
        stack.extend(err.causes.iter());
    }
    best.map(|(_, p, m)| (p, m)).unwrap_or_default()
}

fn instance_pointer(loc: &boon::InstanceLocation<'_>) -> String {
    let mut out = String::new();
    for token in &loc.tokens {
        match token {
            boon::InstanceToken::Prop(p) => push_pointer(&mut out, p),
            boon::InstanceToken::Item(i) => {
                out.push('/');
                out.push_str(&i.to_string());
            }
        }
    }
    out
}

/// Our value as the engine's: undefined own properties are dropped (their pointers are kept
/// for messages), undefined array elements become null, numbers keep their exact text.
fn to_json(value: &Value) -> serde_json::Value {
    to_instance(value, &mut String::new(), &mut Vec::new())
}

fn to_instance(value: &Value, path: &mut String, undefined: &mut Vec<String>) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => J::Number(number(n)),
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                out.push(to_instance(item, path, undefined));
                path.truncate(len);
            }
            J::Array(out)
        }
        Value::Object(entries) => {
            let mut map = serde_json::Map::new();
            for (k, v) in entries {
                let len = path.len();
                push_pointer(path, k);
                if matches!(v, Value::Undefined) {
                    undefined.push(path.clone());
                } else {
                    let item = to_instance(v, path, undefined);
                    map.insert(k.clone(), item);
                }
                path.truncate(len);
            }
            J::Object(map)
        }
        // Undefined in an array (JSON.stringify writes null) and host-only values (which never
        // pass the copy) are null.
        _ => J::Null,
    }
}

fn number(n: &crate::value::Number) -> serde_json::Number {
    if let Some(text) = &n.text {
        if let Ok(parsed) = text.parse::<serde_json::Number>() {
            return parsed;
        }
    }
    let v = n.value;
    if v.fract() == 0.0 && v.abs() < 9.2e18 {
        return serde_json::Number::from(v as i64);
    }
    serde_json::Number::from_f64(v).unwrap_or_else(|| serde_json::Number::from(0))
}

/// The most the engine may spend building the failures of one input, in evaluations times
/// the depth of the instance locations it copies into each failure (the engine builds every
/// failure before any can be dropped). Measured: 4,000,000 takes ~0.2 s and ~40 MB natively.
/// Past it, `SCHEMA_MISMATCH` has one issue for the whole input and `truncated: true`.
pub const MAX_ISSUE_COST: u64 = 4_000_000;

/// Validates `input` against a compiled schema; `SCHEMA_MISMATCH` lists the failures, sorted,
/// the first `max_issues` of them (`truncated` when there were more).
///
/// The verdict comes first, from the engine's yes/no mode (no error tree): a valid input costs
/// no failure bookkeeping, and an invalid one is only described in full when that is cheap
/// enough (`MAX_ISSUE_COST`): a self-referencing schema over a large nested input can fail at
/// every value, and the engine would build every failure, with a copy of its location, first.
pub fn validate(compiled: &CompiledSchema, input: &Value, max_issues: usize) -> Result<()> {
    let (depth, nodes) = shape(input);
    let work = compiled.bounds.admit(depth, nodes)?;
    if let Some(program) = &compiled.fast {
        if fast::Eval::new(program, &compiled.schemas).value(input) {
            return Ok(());
        }
    }
    let mut undefined = Vec::new();
    let instance = to_instance(input, &mut String::new(), &mut undefined);
    if compiled.schemas.validate(&instance, compiled.verdict).is_ok() {
        return Ok(());
    }
    if work.saturating_mul(depth as u64 + 1) > MAX_ISSUE_COST {
        let issue = Issue {
            path: String::new(),
            keyword: "schema".to_owned(),
            message: "the input does not match the schema; it fails in too many places to list them".to_owned(),
        };
        let mut e = ContractError::new(
            Code::SchemaMismatch,
            "",
            "the input does not match the tool's inputSchema (too many issues to list)",
        )
        .with_issues(vec![issue]);
        e.truncated = true;
        return Err(e);
    }
    let Err(error) = compiled.schemas.validate(&instance, compiled.index) else {
        // Unreachable: both runs are the same evaluation. Kept total rather than panicking.
        return Ok(());
    };
    let mut issues = issues(&error, &undefined, compiled);
    drop(error);
    let found = issues.len();
    let truncated = found > max_issues;
    issues.truncate(max_issues.max(1));
    let message = match found {
        1 => format!("the input does not match the tool's inputSchema: {} at {:?}", issues[0].message, issues[0].path),
        n if truncated => {
            format!("the input does not match the tool's inputSchema ({n} issues, the first {max_issues} listed)")
        }
        n => format!("the input does not match the tool's inputSchema ({n} issues)"),
    };
    let mut e = ContractError::new(Code::SchemaMismatch, "", message).with_issues(issues);
    e.truncated = truncated;
    Err(e)
}

/// `validate(compiled, &json::parse(text, Mode::Strict, limits)?, max_issues)`, with no tree
/// built when the schema's program (`fast`) proves the text valid while the strict parser reads
/// it: the same verdict, error and issues in every case (anything else takes that very path).
pub fn validate_json(compiled: &CompiledSchema, text: &[u8], limits: &crate::Limits, max_issues: usize) -> Result<()> {
    if let Some(program) = &compiled.fast {
        let mut eval = fast::Eval::new(program, &compiled.schemas);
        // `check_with` fails exactly as `parse` does.
        json::check_with(text, limits, &mut eval)?;
        if let Some((depth, nodes)) = eval.valid() {
            compiled.bounds.admit(depth, nodes)?;
            return Ok(());
        }
    }
    let input = json::parse(text, Mode::Strict, limits)?;
    validate(compiled, &input, max_issues)
}

/// The engine's own verdict on `input`, without the program (`fast`): for tests comparing the two.
#[doc(hidden)]
pub fn engine_verdict(compiled: &CompiledSchema, input: &Value) -> bool {
    let instance = to_instance(input, &mut String::new(), &mut Vec::new());
    compiled.schemas.validate(&instance, compiled.verdict).is_ok()
}

/// Whether the schema has a program (`fast`): for tests.
#[doc(hidden)]
pub fn has_program(compiled: &CompiledSchema) -> bool {
    compiled.fast.is_some()
}

/// Whether `instance` is valid against `schema` compiled with `resources`: the conformance
/// suite's entry point (same compile path, no cache).
pub fn check_instances(schema: &Value, instances: &[Value], resources: Resources<'_>) -> Result<Vec<bool>> {
    let compiled = compile_with(schema, "", resources)?;
    instances
        .iter()
        .map(|i| match validate(&compiled, i, crate::input::limits::DEFAULT_MAX_ISSUES) {
            Ok(()) => Ok(true),
            Err(e) if e.code == Code::SchemaMismatch => Ok(false),
            Err(e) => Err(e),
        })
        .collect()
}

/// The conformance entry point over JSON text `{"schema", "instances": [...], "resources":
/// {url: document}}`: one boolean per instance (`api::schema_suite_check`, for the fuzz target;
/// the wasm hosts run the suite through the public tool functions instead).
pub fn check_suite_json(text: &[u8]) -> Result<Value> {
    let doc = json::parse(text, Mode::Strict, &crate::Limits::ceilings())?;
    let bad =
        |what: &str| ContractError::new(Code::FieldType, "", format!("expected {what}")).in_layer(Layer::Contract);
    let schema = doc.get("schema").ok_or_else(|| bad("a schema"))?;
    let Some(Value::Array(instances)) = doc.get("instances") else { return Err(bad("an instances list")) };
    let resources: Vec<(String, Value)> = match doc.get("resources") {
        Some(Value::Object(entries)) => entries.clone(),
        _ => Vec::new(),
    };
    let verdicts = check_instances(schema, instances, &resources)?;
    Ok(Value::Array(verdicts.into_iter().map(Value::Bool).collect()))
}

/// Depth (the root container is 1) and number of values.
fn shape(value: &Value) -> (usize, usize) {
    let mut max_depth = 0;
    let mut nodes = 0usize;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, d)) = stack.pop() {
        nodes += 1;
        match v {
            Value::Array(items) => {
                max_depth = max_depth.max(d + 1);
                stack.extend(items.iter().map(|i| (i, d + 1)));
            }
            Value::Object(entries) => {
                max_depth = max_depth.max(d + 1);
                stack.extend(entries.iter().map(|(_, i)| (i, d + 1)));
            }
            _ => {}
        }
    }
    (max_depth, nodes)
}

/// Flattens the engine's error tree into issues. Alternatives (`anyOf`, `oneOf`) are one issue
/// each: their branches are not all required, so listing every branch's failure would mislead.
fn issues(error: &boon::ValidationError<'_, '_>, undefined: &[String], compiled: &CompiledSchema) -> Vec<Issue> {
    use boon::ErrorKind as K;
    let mut out: Vec<Issue> = Vec::new();
    let mut stack: Vec<(&boon::ValidationError<'_, '_>, Vec<(usize, usize)>)> = vec![(error, Vec::new())];
    while let Some((e, mut fixes)) = stack.pop() {
        fix_item_index(e, compiled, &mut fixes);
        let at = instance_pointer_fixed(&e.instance_location, &fixes);
        let mut push = |path: String, keyword: &str, message: String| {
            out.push(Issue { path, keyword: keyword.to_owned(), message })
        };
        match &e.kind {
            K::Group | K::Schema { .. } | K::Reference { .. } | K::AllOf => {
                if e.causes.is_empty() {
                    push(at, keyword_of(&e.kind, e.schema_url), e.kind.to_string());
                }
                stack.extend(e.causes.iter().rev().map(|c| (c, fixes.clone())));
            }
            K::Required { want } => {
                for name in want {
                    let path = crate::value::pointer_child(&at, name);
                    let message = if undefined.contains(&path) {
                        format!("property {name:?} is present but undefined (undefined counts as absent)")
                    } else {
                        format!("missing required property {name:?}")
                    };
                    push(path, "required", message);
                }
            }
            K::DependentRequired { prop, missing } | K::Dependency { prop, missing } => {
                let keyword = if matches!(e.kind, K::Dependency { .. }) { "dependencies" } else { "dependentRequired" };
                for name in missing {
                    let path = crate::value::pointer_child(&at, name);
                    let message = if undefined.contains(&path) {
                        format!("property {name:?} is present but undefined; it is required when {prop:?} is present")
                    } else {
                        format!("property {name:?} is required when {prop:?} is present")
                    };
                    push(path, keyword, message);
                }
            }
            K::AdditionalProperties { got } => {
                for name in got {
                    push(
                        crate::value::pointer_child(&at, name),
                        "additionalProperties",
                        format!("property {name:?} is not allowed"),
                    );
                }
            }
            K::PropertyName { prop } => {
                let cause = e.causes.first().map(|c| c.kind.to_string()).unwrap_or_default();
                push(
                    crate::value::pointer_child(&at, prop),
                    "propertyNames",
                    format!("property name {prop:?} is not allowed: {cause}"),
                );
            }
            K::FalseSchema => {
                push(at, &false_keyword(e.schema_url), "no value is allowed here (the schema is false)".to_owned())
            }
            K::AnyOf => push(at, "anyOf", "the value matches none of the anyOf alternatives".to_owned()),
            K::OneOf(None) => push(at, "oneOf", "the value matches none of the oneOf alternatives".to_owned()),
            kind => push(at, keyword_of(kind, e.schema_url), kind.to_string()),
        }
    }
    out.sort_by(|a, b| {
        compare_pointers(&a.path, &b.path).then_with(|| (&a.keyword, &a.message).cmp(&(&b.keyword, &b.message)))
    });
    out.dedup();
    out
}

/// boon 0.6.1 numbers the items checked by `items` after `prefixItems` (and by draft-07
/// `additionalItems` after an `items` list) from 0 instead of from the prefix length. An error
/// reached through such a subschema gets its item token shifted by that length.
fn fix_item_index(e: &boon::ValidationError<'_, '_>, compiled: &CompiledSchema, fixes: &mut Vec<(usize, usize)>) {
    let Some(frag) = e.schema_url.strip_prefix(compiled.base.as_str()).and_then(|f| f.strip_prefix('#')) else {
        return;
    };
    let frag = percent_decode(frag);
    let Some((parent, keyword)) = frag.rsplit_once('/') else { return };
    let shifts = &compiled.item_shifts;
    let Ok(found) = shifts.binary_search_by(|(at, k, _)| (at.as_str(), *k).cmp(&(parent, keyword))) else { return };
    let shift = shifts[found].2;
    let tokens = e.instance_location.tokens.len();
    if tokens == 0 || !matches!(e.instance_location.tokens[tokens - 1], boon::InstanceToken::Item(_)) {
        return;
    }
    if !fixes.iter().any(|(at, _)| *at == tokens - 1) {
        fixes.push((tokens - 1, shift));
    }
}

fn instance_pointer_fixed(loc: &boon::InstanceLocation<'_>, fixes: &[(usize, usize)]) -> String {
    if fixes.is_empty() {
        return instance_pointer(loc);
    }
    let mut out = String::new();
    for (n, token) in loc.tokens.iter().enumerate() {
        match token {
            boon::InstanceToken::Prop(p) => push_pointer(&mut out, p),
            boon::InstanceToken::Item(i) => {
                let shift = fixes.iter().find(|(at, _)| *at == n).map_or(0, |(_, by)| *by);
                out.push('/');
                out.push_str(&(i + shift).to_string());
            }
        }
    }
    out
}

fn keyword_of(kind: &boon::ErrorKind<'_, '_>, schema_url: &str) -> &'static str {
    use boon::ErrorKind as K;
    match kind {
        K::RefCycle { .. } => "$ref",
        K::Group | K::Schema { .. } => "schema",
        K::FalseSchema => {
            let _ = schema_url;
            "false"
        }
        K::AdditionalProperties { .. } => "additionalProperties",
        other => other.keyword_path().map(|k| k.keyword).unwrap_or("schema"),
    }
}

/// The keyword holding a `false` schema, from its location (`…#/properties/x` → `properties`).
fn false_keyword(schema_url: &str) -> String {
    const MAPS: [&str; 6] =
        ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
    const LISTS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    let frag = schema_url.split_once('#').map_or("", |(_, f)| f);
    let tokens: Vec<String> =
        frag.split('/').skip(1).map(|t| percent_decode(t).replace("~1", "/").replace("~0", "~")).collect();
    let mut keyword = String::from("false");
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        keyword = t.clone();
        let skip_index =
            LISTS.contains(&t.as_str()) && tokens.get(i + 1).is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        i += if MAPS.contains(&t.as_str()) || skip_index { 2 } else { 1 };
    }
    keyword
}

/// JSON Pointer order: segment by segment, array indices numerically.
fn compare_pointers(a: &str, b: &str) -> std::cmp::Ordering {
    let mut x = a.split('/');
    let mut y = b.split('/');
    loop {
        match (x.next(), y.next()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(s), Some(t)) => {
                let numeric = |v: &str| !v.is_empty() && v.len() < 20 && v.bytes().all(|c| c.is_ascii_digit());
                let ord =
                    if numeric(s) && numeric(t) { s.len().cmp(&t.len()).then_with(|| s.cmp(t)) } else { s.cmp(t) };
                if ord != std::cmp::Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}
