//! What a schema the engine cannot take becomes: `TOOL_SCHEMA_INVALID` or
//! `TOOL_SCHEMA_UNSUPPORTED`, with the JSON Pointer of the bad keyword. Patterns are checked
//! before the engine compiles (what it cannot run, what the regex budget refuses); the engine's
//! compile errors are mapped after.

use super::issues::deepest;
use super::{contract, regex_budget, NoLoader, Resources, BASE};
use crate::error::{Code, ContractError, Result};
use crate::value::{Positions, Value};

/// Regular expressions the engine cannot run (look-around, backreferences) are refused with
/// their pointer before the engine sees them, so they never become a silent pass; so are
/// patterns past the definition's budget of automata (`regex_budget`), before any is compiled.
pub(super) fn check_patterns(schema: &Value, pointer: &str, budget: &mut regex_budget::RegexBudget) -> Result<()> {
    // Pointers are written out only for the patterns (`Positions`): every member's would cost
    // the schema's depth times its size.
    let mut positions = Positions::new(pointer);
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    while let Some((value, at)) = stack.pop() {
        match value {
            Value::Object(entries) => {
                for (key, item) in entries {
                    if key == "pattern" {
                        if let Value::String(p) = item {
                            let child = positions.member(at, key);
                            check_pattern(p, || positions.pointer(child), budget)?;
                        }
                    }
                    if key == "patternProperties" {
                        if let Value::Object(props) = item {
                            let child = positions.member(at, key);
                            for (p, _) in props {
                                check_pattern(p, || crate::value::pointer_child(&positions.pointer(child), p), budget)?;
                            }
                        }
                    }
                    if matches!(item, Value::Object(_) | Value::Array(_)) && key != "enum" && key != "const" {
                        stack.push((item, positions.member(at, key)));
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if matches!(item, Value::Object(_) | Value::Array(_)) {
                        stack.push((item, positions.item(at, i)));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// `path` writes the pattern's pointer, asked for only when the pattern is refused.
fn check_pattern(pattern: &str, path: impl Fn() -> String, budget: &mut regex_budget::RegexBudget) -> Result<()> {
    use regex_budget::{Refused, MAX_PATTERN_BYTES, REGEX_BUDGET_BYTES};
    // A text met before in the schema, or paid for by the call, passed these checks then.
    let checked = budget.checked(pattern);
    if let Some(name) = non_ecma_property(pattern).filter(|_| !checked) {
        return Err(contract(
            Code::ToolSchemaInvalid,
            path(),
            format!("pattern {pattern:?} names the Unicode property {name:?}, which ECMA-262 regular expressions do not have"),
        ));
    }
    let message = match budget.spend(pattern) {
        Ok(()) if checked => return Ok(()),
        Ok(()) => return unsupported_regex(pattern, path),
        Err(Refused::TooLong) => format!(
            "the pattern is longer than {} KiB once its classes are spelled out (\\d as [0-9], ...)",
            MAX_PATTERN_BYTES >> 10
        ),
        Err(Refused::OverBudget) => match budget.call_limit() {
            None => format!(
                "the definition's regular expressions need more than {} MiB for their automata by this pattern; use fewer or smaller patterns",
                REGEX_BUDGET_BYTES >> 20
            ),
            // In tenths of a MiB by integers: float formatting would add ~4 KB to the wasm.
            Some(limit) => format!(
                "the regular expressions of the definitions in this call need more than {}.{} MiB for their automata by this pattern (a call's definitions share {} MiB, or {} bytes per byte of their schemas when that is more); use fewer or smaller patterns",
                limit >> 20,
                ((limit & ((1 << 20) - 1)) * 10) >> 20,
                regex_budget::CALL_BUDGET_BYTES >> 20,
                regex_budget::CALL_BYTES_PER_SCHEMA_BYTE
            ),
        },
    };
    Err(contract(Code::ToolSchemaUnsupported, path(), message))
}

fn unsupported_regex(pattern: &str, path: impl Fn() -> String) -> Result<()> {
    use regex_syntax::ast::ErrorKind as K;
    let Err(e) = regex_syntax::ast::parse::Parser::new().parse(&boon::ecma_literals(pattern)) else {
        return Ok(());
    };
    let what = match e.kind() {
        K::UnsupportedLookAround => "look-around (?=, ?!, ?<=, ?<!)",
        K::UnsupportedBackreference => "backreferences",
        // A named one (`\k<name>`), which ECMA-262 has and the parser does not know at all.
        K::EscapeUnrecognized if e.pattern().get(e.span().start.offset..).is_some_and(|s| s.starts_with("\\k<")) => {
            "backreferences"
        }
        K::NestLimitExceeded(_) => "this much nesting",
        _ => return Ok(()), // invalid ECMA-262 patterns are TOOL_SCHEMA_INVALID, found by the engine
    };
    Err(contract(
        Code::ToolSchemaUnsupported,
        path(),
        format!("pattern {pattern:?} uses {what}, which the linear-time regex engine does not run"),
    ))
}

/// Unicode properties the regex parser knows and ECMA-262 patterns cannot name (they have
/// General_Category, Script, Script_Extensions and binary properties), by their names after the
/// loose matching the parser applies (UAX44-LM3). Refused here, before any engine: the builds
/// leave these tables out (they are ~14 KB of the gzipped wasm), while a native test build may
/// have them through a test dependency, and every build must answer alike.
const NOT_ECMA_PROPERTIES: [&str; 7] = ["age", "graphemeclusterbreak", "gcb", "wordbreak", "wb", "sentencebreak", "sb"];

/// The first `\p{name=value}` (or `\P`, `:`, `!=`, in or out of brackets) whose `name` is one
/// of `NOT_ECMA_PROPERTIES`. Patterns longer than the budget's bound are left to the budget,
/// which refuses them without parsing.
fn non_ecma_property(pattern: &str) -> Option<String> {
    use regex_syntax::ast::{self, Ast, ClassSetItem, ClassUnicode, ClassUnicodeKind};
    struct Names;
    fn named(class: &ClassUnicode) -> std::result::Result<(), String> {
        let ClassUnicodeKind::NamedValue { name, .. } = &class.kind else { return Ok(()) };
        let bare = name.trim_start();
        // By bytes: the name may begin with any character, and "is" is two ASCII bytes.
        let bare =
            if bare.as_bytes().get(..2).is_some_and(|b| b.eq_ignore_ascii_case(b"is")) { &bare[2..] } else { bare };
        let loose: String = bare
            .chars()
            .filter(|c| c.is_ascii() && !matches!(c, ' ' | '_' | '-'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if NOT_ECMA_PROPERTIES.contains(&loose.as_str()) {
            Err(name.trim().to_owned())
        } else {
            Ok(())
        }
    }
    impl ast::Visitor for Names {
        type Output = ();
        type Err = String;
        fn finish(self) -> std::result::Result<(), String> {
            Ok(())
        }
        fn visit_pre(&mut self, ast: &Ast) -> std::result::Result<(), String> {
            if let Ast::ClassUnicode(c) = ast {
                named(c)?;
            }
            Ok(())
        }
        fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> std::result::Result<(), String> {
            if let ClassSetItem::Unicode(c) = item {
                named(c)?;
            }
            Ok(())
        }
    }
    if regex_budget::over_length_bound(pattern) {
        return None;
    }
    let parsed = ast::parse::Parser::new().parse(pattern).ok()?;
    ast::visit(&parsed, Names).err()
}

/// A referenced resource that is not valid JSON Schema, reported at its place in the
/// definition (`/resources/<uri>/...`) rather than at the schema that references it.
pub(super) fn in_resource(e: &boon::CompileError, resources: Resources<'_>) -> Option<ContractError> {
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
pub(super) fn unresolved(
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
pub(super) fn compile_error(e: &boon::CompileError, base: &str, pointer: &str, schema: &Value) -> ContractError {
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
pub(super) fn regex_error(pattern: &str, path: String) -> ContractError {
    // The syntax tree and its translation (which looks up Unicode property names) both refuse
    // what is no regular expression; only a pattern they accept can have failed by size.
    if regex_syntax::parse(pattern).is_err() {
        contract(Code::ToolSchemaInvalid, path, format!("pattern {pattern:?} is not a valid regular expression"))
    } else {
        contract(Code::ToolSchemaUnsupported, path, format!("pattern {pattern:?} is too large for the regex engine"))
    }
}

pub(super) fn first_uncompilable_pattern(schema: &Value, pointer: &str) -> Option<(String, String)> {
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

pub(super) fn percent_decode(s: &str) -> String {
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
