//! Tool input validation with JSON Schema.
//!
//! The engine (`boon`) stays behind this module; only it and its children name it. It decides
//! - which schemas are accepted (`compile_errors`: `TOOL_SCHEMA_INVALID` with the JSON Pointer
//!   of the bad keyword, `TOOL_SCHEMA_UNSUPPORTED` for what the engine cannot run or what could
//!   not be bounded),
//! - how a tool input is turned into an instance (`instance`: `undefined` own properties are
//!   absent, like their JSON wire form; `undefined` array elements are `null`, like
//!   `JSON.stringify`),
//! - how failures become `issues` (`issues`: `{path, keyword, message}`, instance paths as JSON
//!   Pointers, sorted so every host lists them in the same order),
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

mod compile_errors;
mod complexity;
mod fast;
mod instance;
mod issues;
mod regex_budget;

use compile_errors::{check_patterns, compile_error, first_uncompilable_pattern, in_resource, regex_error, unresolved};
pub use complexity::{evaluation_budget, Allowance, MIN_EVALUATION_BUDGET};
use instance::{to_instance, to_json};
use issues::issues;
pub use regex_budget::PatternScope;

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
    /// Its distinct pattern texts (by hash) and what each was charged where it was compiled
    /// (`regex_budget::charge_again`).
    patterns: Vec<(u64, Option<usize>)>,
}

thread_local! {
    static CACHE: RefCell<HashMap<String, Rc<CompiledSchema>>> = RefCell::new(HashMap::new());
    /// Weight of the schemas in `CACHE` (their keys and `CompiledSchema::weight`).
    static CACHE_HELD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Schemas this thread compiled (cache misses), for tests that count a call's compiles.
    static COMPILES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
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

/// How many schemas this thread has compiled (not found in the cache): a test's measure of the
/// work a call repeats.
#[doc(hidden)]
pub fn compiles() -> u64 {
    COMPILES.with(|c| c.get())
}

/// The cache key of a schema compiled with `resources` and `assert_formats`.
fn cache_key(schema: &Value, resources: Resources<'_>, assert_formats: bool) -> String {
    let mut key = canonical(schema);
    if !resources.is_empty() {
        // `\n` never occurs in canonical JSON text outside a string, so the key is unambiguous.
        key.push('\n');
        write_json(&mut key, &Value::Object(resources.to_vec()));
    }
    if assert_formats {
        // After a second `\n` (or the first, without documents): never the end of another key.
        key.push_str("\n\nformats");
    }
    key
}

/// Counts a schema the open call will compile into the budget its patterns share, before any
/// of the call's schemas compiles: a call that plans all of its schemas first has one budget
/// from its start, so whether it is refused does not depend on the order it compiles them in.
pub fn plan(schema: &Value, resources: Resources<'_>, assert_formats: bool) {
    if regex_budget::scope_open() {
        regex_budget::plan(&cache_key(schema, resources, assert_formats));
    }
}

/// Compiles `schema` (found at `pointer` in the caller's argument: `/inputSchema`), or finds it
/// in the cache.
pub fn compile(schema: &Value, pointer: &str) -> Result<Rc<CompiledSchema>> {
    compile_in(schema, pointer, &[])
}

/// `compile` with the documents a definition carries (`tools::resources`); they are part of the
/// cache key, so the same schema with other documents is compiled again.
pub fn compile_in(schema: &Value, pointer: &str, resources: Resources<'_>) -> Result<Rc<CompiledSchema>> {
    compile_for(schema, pointer, resources, false)
}

/// `compile_in` with `format` asserted when `assert_formats` (a definition's `formats:
/// "assert"`); the mode is part of the cache key, so one schema compiled both ways is two
/// entries and neither verdict is served for the other.
pub fn compile_for(
    schema: &Value,
    pointer: &str,
    resources: Resources<'_>,
    assert_formats: bool,
) -> Result<Rc<CompiledSchema>> {
    let key = cache_key(schema, resources, assert_formats);
    let admitted = regex_budget::admit(&key);
    if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        let Some(a) = admitted else { return Ok(hit) };
        if let Some(cost) = regex_budget::charge_again(&hit.patterns).filter(|cost| *cost <= a.left) {
            regex_budget::charge_found(&hit.patterns, cost);
            return Ok(hit);
        }
        // Compiled again within what the call has left, so that the pattern it refuses is the
        // one a first compile would have refused (or so that a pattern's cost is known, where
        // the call that compiled it had paid for it already).
    }
    let budget = regex_budget::RegexBudget::within(admitted);
    COMPILES.with(|c| c.set(c.get() + 1));
    let compiled = match compile_within(schema, pointer, resources, assert_formats, budget) {
        Ok(compiled) => Rc::new(compiled),
        Err(e) => {
            if let Some(a) = &admitted {
                regex_budget::withdraw(a);
            }
            return Err(e);
        }
    };
    // A schema already charged in this call, compiled again (the cache no longer held it), is
    // not charged twice: what the call has left never depends on the cache.
    if admitted.is_some() {
        regex_budget::charge(&compiled.patterns);
    }
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
    compile_formats(schema, pointer, resources, false)
}

/// `compile_with`, `format` asserted when `assert_formats`: for the formats JSON Schema 2020-12
/// defines (`date-time` ... `regex`); any other format name stays an annotation.
pub fn compile_formats(
    schema: &Value,
    pointer: &str,
    resources: Resources<'_>,
    assert_formats: bool,
) -> Result<CompiledSchema> {
    compile_within(schema, pointer, resources, assert_formats, regex_budget::RegexBudget::new())
}

fn compile_within(
    schema: &Value,
    pointer: &str,
    resources: Resources<'_>,
    assert_formats: bool,
    mut budget: regex_budget::RegexBudget,
) -> Result<CompiledSchema> {
    if !crate::entropy::is_seeded() {
        return Err(contract(
            Code::ToolSchemaUnsupported,
            pointer.to_owned(),
            "the core was not seeded with host randomness (hosts call seed() when they create an instance)",
        ));
    }
    let draft = draft_of(schema, pointer, resources)?;
    check_patterns(schema, pointer, &mut budget)?;
    for (uri, doc) in resources {
        check_patterns(doc, &crate::value::pointer_child("/resources", uri), &mut budget)?;
    }
    let bounds = complexity::analyze(schema, pointer, resources)?;

    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(draft);
    if assert_formats {
        compiler.enable_format_assertions();
        // The engine also knows `period`, which no JSON Schema draft defines: it stays an
        // annotation, as every format name the specification does not list.
        compiler.register_format(boon::Format { name: "period", func: |_| Ok(()) });
    }
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
    // The engine reports a pattern its regex crate refuses as `CompileError::Bug` and, in builds
    // with debug assertions (tests, fuzzing), panics first: find such a pattern before it runs.
    // Release builds reach the same error through `compile_error` (found by `cargo fuzz`).
    if cfg!(debug_assertions) {
        if let Some((path, pattern)) = first_uncompilable_pattern(schema, pointer) {
            return Err(regex_error(&pattern, path));
        }
    }
    let mut schemas = boon::Schemas::new();
    // The engine's vector of compiled schemas, sized once: the schema's nodes (a vector doubling
    // past 8,192 schemas held twice their memory).
    schemas.reserve(bounds.node_count());
    let fail = |e: boon::CompileError| {
        in_resource(&e, resources)
            .or_else(|| unresolved(&e, schema, pointer, resources))
            .unwrap_or_else(|| compile_error(&e, &base, pointer, schema))
    };
    let index = compiler.compile(&base, &mut schemas).map_err(fail)?;
    let fast = fast::build(schema, &mut |at| compiler.compile(&format!("{base}#{}", fragment(at)), &mut schemas).ok());
    // Nothing more is compiled into them: what only compiling needs goes (about a third of a
    // small schema's compiled form).
    schemas.seal();
    let regex_bytes = budget.spent();
    let patterns = budget.into_patterns();
    let mut item_shifts = Vec::new();
    find_item_shifts(schema, &mut String::new(), &mut item_shifts);
    crate::order::sort(&mut item_shifts);
    Ok(CompiledSchema { schemas, index, bounds, fast, item_shifts, base, regex_bytes, patterns })
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

/// The most the engine may spend building the failures of one input, in evaluations times
/// the depth of the instance locations it copies into each failure (the engine builds every
/// failure before any can be dropped). Measured: 4,000,000 takes ~0.2 s and ~40 MB natively.
/// Past it, `SCHEMA_MISMATCH` has one issue for the whole input and `truncated: true`.
pub const MAX_ISSUE_COST: u64 = 4_000_000;

/// The most objects an input handed to the engine may hold. The engine validates its own tree
/// of the input, where an object costs ~430 bytes of wasm memory however few its members (a
/// B-tree node): a megabyte of nested one-member objects (170,000) took an instance to 98 MB,
/// past the 64 MB bound. At this count the worst measured left 57 MB; 65,536 objects in one
/// list (`uniqueItems` over them) stay within it. The schema's program (`fast`) builds no
/// tree, so an input it proves valid is not counted.
pub const MAX_ENGINE_OBJECTS: usize = 80_000;

/// Validates `input` against a compiled schema; `SCHEMA_MISMATCH` lists the failures, sorted,
/// the first `max_issues` of them (`truncated` when there were more).
///
/// The verdict comes first, from the engine's yes/no mode (no error tree): a valid input costs
/// no failure bookkeeping, and an invalid one is only described in full when that is cheap
/// enough (`MAX_ISSUE_COST`): a self-referencing schema over a large nested input can fail at
/// every value, and the engine would build every failure, with a copy of its location, first.
///
/// The engine's runs on the input (the program's delegations, the verdict, the issues) take
/// together at most `complexity::evaluation_budget` evaluations: past it, the input is
/// `INPUT_TOO_LARGE` (while listing the issues: one for the whole input, `truncated`).
pub fn validate(compiled: &CompiledSchema, input: &Value, max_issues: usize) -> Result<()> {
    validate_after(compiled, input, max_issues, None, &mut Allowance::default())
}

/// `validate` for one of the inputs of a call that validates many, spending the call's
/// `allowance` (`complexity::Allowance`).
pub fn validate_within(
    compiled: &CompiledSchema,
    input: &Value,
    max_issues: usize,
    allowance: &mut Allowance,
) -> Result<()> {
    validate_after(compiled, input, max_issues, None, allowance)
}

/// `validate`, where `program` is what the schema's program already found on this very input
/// while the strict parser read it: whether it proved it valid, and the evaluations it took
/// (the program reads values in the same order either way, so running it again would find the
/// same).
fn validate_after(
    compiled: &CompiledSchema,
    input: &Value,
    max_issues: usize,
    program: Option<(bool, u64)>,
    allowance: &mut Allowance,
) -> Result<()> {
    let (depth, nodes) = shape(input);
    let work = compiled.bounds.admit(depth, nodes)?;
    let budget = allowance.admit(nodes);
    if let Some(fast) = &compiled.fast {
        let (proven, spent) = program.unwrap_or_else(|| {
            complexity::with_budget(budget, || fast::Eval::new(fast, &compiled.schemas).value(input))
        });
        allowance.spend(spent)?;
        if proven {
            return Ok(());
        }
    }
    if objects(input) > MAX_ENGINE_OBJECTS {
        return Err(ContractError::new(
            Code::InputTooLarge,
            "",
            format!("the input holds more than {MAX_ENGINE_OBJECTS} objects, the most its schema can be checked on"),
        ));
    }
    let mut undefined = Vec::new();
    let instance = to_instance(input, &mut String::new(), &mut undefined);
    let (valid, spent) =
        complexity::with_budget(allowance.left(), || compiled.schemas.is_valid(&instance, compiled.index));
    allowance.spend(spent)?;
    if valid {
        return Ok(());
    }
    let (error, spent) = if work.saturating_mul(depth as u64 + 1) > MAX_ISSUE_COST {
        (None, 0)
    } else {
        complexity::with_budget(allowance.left(), || compiled.schemas.validate(&instance, compiled.index).err())
    };
    // Listed only when that is cheap enough and takes no more than the budget (the list is the
    // full run; it cannot be valid where the verdict was not, both being the same evaluation).
    let Some(error) = error.filter(|_| allowance.spend(spent).is_ok()) else {
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
    };
    let (issues, found) = issues(&error, &undefined, compiled, max_issues.max(1));
    drop(error);
    let truncated = found > max_issues;
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
        // A text of this length holds fewer values, so this run is never cut shorter than the
        // run over its parsed value, whose budget counts them.
        let most = complexity::evaluation_budget(text.len() / 2 + 2);
        // `check_with` fails exactly as `parse` does.
        let (checked, spent) = complexity::with_budget(most, || json::check_with(text, limits, &mut eval));
        checked?;
        let proven = eval.valid();
        if let Some((depth, nodes)) = proven {
            if spent <= complexity::evaluation_budget(nodes) {
                compiled.bounds.admit(depth, nodes)?;
                return Ok(());
            }
        }
        let input = json::parse(text, Mode::Strict, limits)?;
        return validate_after(
            compiled,
            &input,
            max_issues,
            Some((proven.is_some(), spent)),
            &mut Allowance::default(),
        );
    }
    let input = json::parse(text, Mode::Strict, limits)?;
    validate(compiled, &input, max_issues)
}

/// The engine's own verdict on `input`, without the program (`fast`): for tests comparing the two.
#[doc(hidden)]
pub fn engine_verdict(compiled: &CompiledSchema, input: &Value) -> bool {
    let instance = to_instance(input, &mut String::new(), &mut Vec::new());
    compiled.schemas.is_valid(&instance, compiled.index)
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

/// Objects in `value`, counted up to one past `MAX_ENGINE_OBJECTS`.
fn objects(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(entries) => {
                count += 1;
                if count > MAX_ENGINE_OBJECTS {
                    break;
                }
                stack.extend(entries.iter().map(|(_, i)| i));
            }
            _ => {}
        }
    }
    count
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
