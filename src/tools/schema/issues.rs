//! The engine's validation failures as `issues` (`{path, keyword, message}`), instance paths
//! as JSON Pointers, sorted so every host lists them in the same order.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt::{self, Display, Write as _};
use std::hash::{DefaultHasher, Hash, Hasher};

use super::compile_errors::percent_decode;
use super::CompiledSchema;
use crate::error::Issue;
use crate::value::push_pointer;

/// The most bytes of the engine's words an issue's message keeps. The engine quotes values in
/// them (an `enum`'s every value, a `const`, the instance): a failure under a 20,000-value
/// `enum` was a 220 KB message, so 100 such items took 1.45 s and 154 MiB to answer a 1 KB
/// input. Past it the message ends with "…"; the formatting stops there.
pub const MAX_MESSAGE_BYTES: usize = 256;

/// The most bytes of an instance's string a `format` or `pattern` failure quotes.
const QUOTED_BYTES: usize = 64;

/// `text` quoted as the engine quotes it (`'...'`, Rust escapes, `'` escaped).
fn quoted(text: &str) -> String {
    let debug = format!("{text:?}").replace("\\\"", "\"").replace('\'', "\\'");
    format!("'{}'", &debug[1..debug.len() - 1])
}

/// The first `QUOTED_BYTES` of `text` (at a character boundary), quoted, then "…".
fn quoted_start(text: &str) -> String {
    let mut cut = QUOTED_BYTES.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut out = quoted(&text[..cut]);
    out.insert(out.len() - 1, '…');
    out
}

/// `what`'s words, at most `MAX_MESSAGE_BYTES` (cut at a character boundary, then "…").
pub(super) fn message_of(what: &impl Display) -> String {
    struct Bounded(String);
    impl fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let room = MAX_MESSAGE_BYTES - self.0.len();
            if s.len() <= room {
                self.0.push_str(s);
                return Ok(());
            }
            let mut cut = room;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            self.0.push_str(&s[..cut]);
            Err(fmt::Error)
        }
    }
    let mut out = Bounded(String::new());
    if write!(out, "{what}").is_err() {
        out.0.push('…');
    }
    out.0
}

/// The first `keep` distinct issues in order, and how many distinct issues there were: a flood
/// of failures (a `dependentRequired` of many names under many members, 312,500 issues for a
/// 2 MB call) held every issue's words before the list was cut, 98 MB natively for 100 listed.
/// The list is settled (sorted, deduplicated, cut) whenever it holds twice what it keeps; the
/// distinct issues are counted by a 128-bit fingerprint each.
struct Kept {
    keep: usize,
    first: Vec<Issue>,
    seen: Vec<u128>,
}

impl Kept {
    fn push(&mut self, issue: Issue) {
        self.seen.push(fingerprint(&issue));
        self.first.push(issue);
        if self.first.len() >= 2 * self.keep.max(64) {
            self.settle();
        }
    }

    fn settle(&mut self) {
        crate::order::sort_by(&mut self.first, |a, b| {
            compare_pointers(&a.path, &b.path).then_with(|| (&a.keyword, &a.message).cmp(&(&b.keyword, &b.message)))
        });
        self.first.dedup();
        self.first.truncate(self.keep);
    }

    fn finish(mut self) -> (Vec<Issue>, usize) {
        self.settle();
        crate::order::sort(&mut self.seen);
        self.seen.dedup();
        (self.first, self.seen.len())
    }
}

fn fingerprint(issue: &Issue) -> u128 {
    let half = |seed: u8| {
        let mut h = DefaultHasher::new();
        seed.hash(&mut h);
        (&issue.path, &issue.keyword, &issue.message).hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// Flattens the engine's error tree into issues: the first `keep` in order and the number of
/// distinct issues. Alternatives (`anyOf`, `oneOf`) are one issue each: their branches are not
/// all required, so listing every branch's failure would mislead.
pub(super) fn issues(
    error: &boon::ValidationError<'_, '_>,
    undefined: &[String],
    compiled: &CompiledSchema,
    keep: usize,
) -> (Vec<Issue>, usize) {
    use boon::ErrorKind as K;
    let mut out = Kept { keep, first: Vec::new(), seen: Vec::new() };
    // Looked up once per issue: a scan per issue was quadratic in a wide object's members.
    let undefined: HashSet<&str> = undefined.iter().map(String::as_str).collect();
    let mut enum_messages: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
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
                    push(at, keyword_of(&e.kind, e.schema_url), message_of(&e.kind));
                }
                stack.extend(e.causes.iter().rev().map(|c| (c, fixes.clone())));
            }
            K::Required { want } => {
                for name in want {
                    let path = crate::value::pointer_child(&at, name);
                    let message = if undefined.contains(path.as_str()) {
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
                    let message = if undefined.contains(path.as_str()) {
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
                let cause = e.causes.first().map(|c| message_of(&c.kind)).unwrap_or_default();
                push(
                    crate::value::pointer_child(&at, prop),
                    "propertyNames",
                    format!("property name {prop:?} is not allowed: {cause}"),
                );
            }
            K::FalseSchema => {
                push(at, &false_keyword(e.schema_url), "no value is allowed here (the schema is false)".to_owned())
            }
            // An `enum`'s words name only its values, the same for every failure under it: made
            // once per `enum` (reading a large one took as long as listing it).
            K::Enum { want } => {
                let message = enum_messages.entry(want.as_ptr() as usize).or_insert_with(|| message_of(&e.kind));
                push(at, keyword_of(&e.kind, e.schema_url), message.clone())
            }
            // The instance's string is quoted first: a long one is shortened, so the words after
            // it (which format, why; which pattern) stay within the message.
            K::Format { got, want, err } => {
                let message = match got.as_ref() {
                    serde_json::Value::String(text) if text.len() > QUOTED_BYTES => {
                        message_of(&format_args!("{} is not valid {want}: {err}", quoted_start(text)))
                    }
                    _ => message_of(&e.kind),
                };
                push(at, keyword_of(&e.kind, e.schema_url), message)
            }
            K::Pattern { got, want } if got.len() > QUOTED_BYTES => {
                let message =
                    message_of(&format_args!("{} does not match pattern {}", quoted_start(got), quoted(want)));
                push(at, keyword_of(&e.kind, e.schema_url), message)
            }
            K::AnyOf => push(at, "anyOf", "the value matches none of the anyOf alternatives".to_owned()),
            K::OneOf(None) => push(at, "oneOf", "the value matches none of the oneOf alternatives".to_owned()),
            kind => push(at, keyword_of(kind, e.schema_url), message_of(kind)),
        }
    }
    out.finish()
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
fn compare_pointers(a: &str, b: &str) -> Ordering {
    let mut x = a.split('/');
    let mut y = b.split('/');
    loop {
        match (x.next(), y.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(s), Some(t)) => {
                let numeric = |v: &str| !v.is_empty() && v.len() < 20 && v.bytes().all(|c| c.is_ascii_digit());
                let ord =
                    if numeric(s) && numeric(t) { s.len().cmp(&t.len()).then_with(|| s.cmp(t)) } else { s.cmp(t) };
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

/// The deepest leaf of a metaschema validation error: (instance pointer, message).
pub(super) fn deepest(e: &boon::ValidationError<'_, '_>) -> (String, String) {
    let mut best: Option<(usize, String, String)> = None;
    let mut stack = vec![e];
    while let Some(err) = stack.pop() {
        if err.causes.is_empty() {
            let depth = err.instance_location.tokens.len();
            let path = instance_pointer(&err.instance_location);
            let message = message_of(&err.kind);
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
