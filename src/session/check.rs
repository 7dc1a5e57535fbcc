//! Session files: `checkSession` (every line, every problem, one report) and the line check
//! that `readSession` (`tree`) and the incremental reader (`reader`) share.
//!
//! One pass over the lines, linear in the text: each line is parsed on its own (so `maxBytes`
//! and the other limits bound one line), checked as an entry (`session::entry`), then placed in
//! the tree (`tree`). Each line gets at most one problem, the first of: blank line, strict JSON,
//! header placement, the entry's own rules, a duplicate id, a parent that is not an earlier
//! entry, a compaction target that is not an ancestor, a tool result that answers no call of its
//! branch (or the wrong tool, or a call already answered on the branch). A line with a problem
//! still joins the tree when its `id` (and `parentId`) can be read, so one bad line is one
//! problem, not a cascade.

mod reader;
mod tree;

use std::collections::BTreeMap;

use crate::error::{Code, ContractError, Position, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::json::{self, Mode};
use crate::session::entry::{lenient_link, read_entry, Entry, EntryKind, FirstKept};
use crate::session::field::{number, object, string, Ctx, Dialect};
use crate::session::message::{dialect, tool_calls};
use crate::value::Value;

pub use reader::SessionReader;
use tree::Tree;
pub use tree::{read_session, Session};

/// One problem of a session text: the 1-based line and the error found there.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub line: usize,
    pub error: ContractError,
}

/// Reads a session text line by line. `checkSession` and `readSession` feed it one whole text;
/// it holds no text itself, only what the rules between lines need (the tree, the tool calls
/// and results per branch), so it could be fed chunk by chunk.
pub struct Checker {
    options: Options,
    dialect: Dialect,
    /// Keep each entry's checked value (`readSession`).
    keep: bool,
    lines: usize,
    entries: usize,
    problems: Vec<Problem>,
    truncated: bool,
    header: Option<Value>,
    header_id: Option<String>,
    tree: Tree,
    /// toolCall id -> the nodes whose assistant message holds it, with the tool name.
    calls: BTreeMap<String, Vec<(u32, String)>>,
    /// (call node, toolCall id) -> the nodes of the results answering it.
    results: BTreeMap<(u32, String), Vec<u32>>,
    /// `dialect: "pi"`: the node of each parsed line (`firstKeptEntryIndex` indexes them).
    file_entries: Vec<Option<u32>>,
    last_node: Option<u32>,
}

impl Checker {
    pub fn new(options: &Options, keep: bool) -> Checker {
        Checker {
            options: *options,
            dialect: dialect(options),
            keep,
            lines: 0,
            entries: 0,
            problems: Vec::new(),
            truncated: false,
            header: None,
            header_id: None,
            tree: Tree::default(),
            calls: BTreeMap::new(),
            results: BTreeMap::new(),
            file_entries: Vec::new(),
            last_node: None,
        }
    }

    /// Every line of `text` (LF or CRLF line ends; the last line may lack one).
    pub fn feed_text(&mut self, text: &[u8]) {
        let mut start = 0;
        while start < text.len() {
            let end = memchr_lf(&text[start..]).map_or(text.len(), |i| start + i);
            let mut line = &text[start..end];
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            self.line(line, start);
            start = end + 1;
        }
    }

    fn problem(&mut self, line: usize, error: ContractError) {
        if self.problems.len() < self.options.max_issues {
            self.problems.push(Problem { line, error });
        } else {
            self.truncated = true;
        }
    }

    /// One line (without its line end) starting at byte `offset` of the text.
    pub fn line(&mut self, bytes: &[u8], offset: usize) {
        self.lines += 1;
        let n = self.lines;
        if bytes.len() > self.options.limits.max_bytes {
            let e = line_too_large(offset, n, self.options.limits.max_bytes);
            self.problem(n, e);
            return;
        }
        if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            let e = ContractError::new(
                Code::SessionLineBlank,
                "",
                "a blank line: every line of a session file holds one entry",
            )
            .at(Position { offset, line: n, column: 1 });
            self.problem(n, e);
            return;
        }
        let doc = match json::parse(bytes, Mode::Strict, &self.options.limits) {
            Ok(doc) => doc,
            Err(mut e) => {
                if let Some(p) = e.position.as_mut() {
                    p.offset += offset;
                    p.line = n;
                }
                self.problem(n, e);
                return;
            }
        };
        let at =
            |e: ContractError| if e.position.is_some() { e } else { e.at(Position { offset, line: n, column: 1 }) };
        let is_header = matches!(doc.get("type"), Some(Value::String(t)) if t == "session");
        let mut reported = false;
        if n == 1 && !is_header {
            self.problem(
                n,
                at(ContractError::new(
                    Code::SessionHeaderMissing,
                    "/type",
                    "the first line must be the session header ({\"type\": \"session\", ...})",
                )),
            );
            reported = true;
        } else if n != 1 && is_header {
            self.file_entries.push(None);
            self.problem(
                n,
                at(ContractError::new(
                    Code::SessionHeaderMisplaced,
                    "/type",
                    "a session header is only allowed on the first line, once",
                )),
            );
            return;
        }
        let source = if self.keep { Source::Host } else { Source::StrictText };
        let mut c = Ctx::new(&self.options.limits, source, self.options.strict, self.dialect);
        let entry = match read_entry(&mut c, &&doc) {
            Ok(entry) => entry,
            Err(e) => {
                if !reported {
                    self.problem(n, at(e));
                }
                self.join_leniently(&doc, n);
                return;
            }
        };
        if entry.kind == EntryKind::Header {
            self.file_entries.push(None);
            self.header_id = entry.id.clone();
            self.header = Some(entry.value);
            self.entries += 1;
            return;
        }
        match self.place(entry, n) {
            Ok(()) if !reported => self.entries += 1,
            Ok(()) => {}
            Err(e) if !reported => self.problem(n, at(e)),
            Err(_) => {}
        }
    }

    /// A line with a problem: it still joins the tree when its id can be read.
    fn join_leniently(&mut self, doc: &Value, n: usize) {
        let header = matches!(doc.get("type"), Some(Value::String(t)) if t == "session");
        if self.dialect == Dialect::Pi {
            if doc.kind_name() == "object" && !header {
                let node = self.tree.push(format!("line-{n}"), self.last_node);
                self.note(node, Value::Null, None);
                self.file_entries.push(Some(node));
                self.last_node = Some(node);
            } else {
                self.file_entries.push(None);
            }
            return;
        }
        if header {
            return;
        }
        let Some((id, parent)) = lenient_link(doc) else { return };
        if self.tree.by_id.contains_key(&id) || self.header_id.as_deref() == Some(id.as_str()) {
            return;
        }
        let parent = parent.and_then(|p| self.tree.by_id.get(&p).copied());
        let node = self.tree.push(id, parent);
        self.note(node, Value::Null, None);
    }

    fn note(&mut self, _node: u32, value: Value, kind: Option<EntryKind>) {
        self.tree.values.push(if self.keep { value } else { Value::Null });
        self.tree.kinds.push(kind);
    }

    /// Places a valid entry in the tree, then checks the rules between entries.
    fn place(&mut self, entry: Entry, n: usize) -> Result<()> {
        let Entry { kind, id, parent_id, first_kept, mut value } = entry;
        let node = if self.dialect == Dialect::Pi {
            let id = format!("line-{n}");
            let parent = self.last_node;
            if let Value::Object(members) = &mut value {
                let parent_value = parent.map_or(Value::Null, |p| string(self.tree.ids[p as usize].clone()));
                members.insert(1, ("id".to_owned(), string(id.clone())));
                members.insert(2, ("parentId".to_owned(), parent_value));
            }
            let node = self.tree.push(id, parent);
            self.file_entries.push(Some(node));
            self.last_node = Some(node);
            node
        } else {
            let id = id.unwrap_or_default();
            if self.tree.by_id.contains_key(&id) || self.header_id.as_deref() == Some(id.as_str()) {
                let what = if self.header_id.as_deref() == Some(id.as_str()) {
                    "the session header"
                } else {
                    "an earlier entry"
                };
                return Err(ContractError::new(
                    Code::EntryIdDuplicate,
                    "/id",
                    format!("id {id:?} is already the id of {what}"),
                ));
            }
            let mut problem = None;
            let parent = match &parent_id {
                None => None,
                Some(p) if *p == id => {
                    problem = Some(format!("parentId {p:?} names the entry itself"));
                    None
                }
                Some(p) if self.header_id.as_deref() == Some(p.as_str()) => {
                    problem = Some(format!(
                        "parentId {p:?} names the session header, which is not part of the tree (a first entry has parentId null)"
                    ));
                    None
                }
                Some(p) => match self.tree.by_id.get(p) {
                    Some(&node) => Some(node),
                    None => {
                        problem = Some(format!("parentId {p:?} names no earlier entry of the file"));
                        None
                    }
                },
            };
            let node = self.tree.push(id, parent);
            if let Some(message) = problem {
                self.note(node, Value::Null, Some(kind));
                self.register_calls(node, &value);
                return Err(ContractError::new(Code::EntryParentMissing, "/parentId", message));
            }
            node
        };
        let result = self.relate(node, kind, first_kept, &mut value);
        self.note(node, if result.is_ok() { value } else { Value::Null }, Some(kind));
        result
    }

    fn relate(&mut self, node: u32, kind: EntryKind, first_kept: Option<FirstKept>, value: &mut Value) -> Result<()> {
        match (kind, first_kept) {
            (EntryKind::Compaction, Some(FirstKept::Id(target))) => {
                let ok = self.tree.by_id.get(&target).is_some_and(|&a| a != node && self.tree.is_ancestor(a, node));
                if !ok {
                    return Err(ContractError::new(
                        Code::CompactionTargetInvalid,
                        "/firstKeptEntryId",
                        format!("firstKeptEntryId {target:?} names no entry on this compaction's branch before it"),
                    ));
                }
            }
            (EntryKind::Compaction, Some(FirstKept::Index(i))) => {
                let target = self.file_entries.get(i).copied().flatten();
                let Some(a) = target.filter(|&a| a != node && self.tree.is_ancestor(a, node)) else {
                    return Err(ContractError::new(
                        Code::CompactionTargetInvalid,
                        "/firstKeptEntryIndex",
                        format!("firstKeptEntryIndex {i} names no entry on this compaction's branch before it"),
                    ));
                };
                if let Value::Object(members) = value {
                    let id = self.tree.ids[a as usize].clone();
                    let at = members.iter().position(|(k, _)| k == "firstKeptEntryIndex").unwrap_or(members.len());
                    members.insert(at, ("firstKeptEntryId".to_owned(), string(id)));
                }
            }
            (EntryKind::Message, _) => {
                let Some(message) = value.get("message") else { return Ok(()) };
                match message.get("role") {
                    Some(Value::String(r)) if r == "assistant" => self.register_calls(node, value),
                    Some(Value::String(r)) if r == "toolResult" => return self.answer(node, message),
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn register_calls(&mut self, node: u32, entry: &Value) {
        let Some(message) = entry.get("message") else { return };
        for (id, name) in tool_calls(message) {
            self.calls.entry(id.to_owned()).or_default().push((node, name.to_owned()));
        }
    }

    /// A tool result must answer a toolCall of an ancestor, with its tool name, once per branch.
    fn answer(&mut self, node: u32, message: &Value) -> Result<()> {
        let text = |k: &str| match message.get(k) {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let (call_id, name) = (text("toolCallId"), text("toolName"));
        let call = self.calls.get(&call_id).and_then(|sites| {
            let holds = |u: u32| {
                let end = sites.partition_point(|(a, _)| *a <= u);
                (end > 0 && sites[end - 1].0 == u).then(|| end - 1)
            };
            nearest(sites, |&(a, _)| a != node && self.tree.is_ancestor(a, node), self.tree.parent_of(node), holds, |u| {
                self.tree.parent_of(u)
            })
            .map(|i| sites[i].clone())
        });
        let Some((call_node, call_name)) = call else {
            return Err(ContractError::new(
                Code::ToolResultUnmatched,
                "/message/toolCallId",
                format!("toolCallId {call_id:?} answers no toolCall of an earlier entry on this branch"),
            ));
        };
        if call_name != name {
            return Err(ContractError::new(
                Code::ToolResultNameMismatch,
                "/message/toolName",
                format!("toolName {name:?} differs from the call's tool name {call_name:?}"),
            ));
        }
        let key = (call_node, call_id);
        if let Some(done) = self.results.get(&key) {
            // Every result of the call is below it: the path up from `node` stops there.
            let answered = nearest(
                done,
                |&r| self.tree.is_ancestor(r, node),
                self.tree.parent_of(node).filter(|&u| u != call_node),
                |u| done.binary_search(&u).ok(),
                |u| self.tree.parent_of(u).filter(|&p| p != call_node),
            );
            if answered.is_some() {
                return Err(ContractError::new(
                    Code::ToolResultDuplicate,
                    "/message/toolCallId",
                    format!("toolCall {:?} is already answered on this branch", key.1),
                ));
            }
        }
        self.results.entry(key).or_default().push(node);
        Ok(())
    }

    /// The end of the text.
    pub fn finish(&mut self) {
        if self.lines == 0 {
            let e = ContractError::new(
                Code::SessionHeaderMissing,
                "",
                "the session is empty: it must start with a session header",
            )
            .at(Position { offset: 0, line: 1, column: 1 });
            self.problem(1, e);
        }
    }

    /// `{ok, entries, problems, roots, leaves}` (and `truncated: true` when problems were cut).
    pub fn report(&self) -> Value {
        let problems = self.problems.iter().map(problem_value).collect();
        let mut out = vec![
            ("ok", Value::Bool(self.problems.is_empty())),
            ("entries", number(self.entries as f64)),
            ("problems", Value::Array(problems)),
            ("roots", self.tree.roots()),
            ("leaves", self.tree.leaves()),
        ];
        if self.truncated {
            out.push(("truncated", Value::Bool(true)));
        }
        object(out)
    }

    pub fn first_problem(&self) -> Option<&Problem> {
        self.problems.first()
    }
}

/// A line over `maxBytes`: judged by its length alone (so a reader that has seen only its first
/// `maxBytes + 1` bytes reaches the same verdict).
/// The index in `sites` (nodes in file order, so an ancestor comes before its descendants) of
/// the deepest ancestor of a node: the last site `is_above` holds for, which is also the first
/// `holds` names on the path up from `from` (`up` gives the next node; None ends the path).
/// The two searches run in turns and the first to answer decides, so the cost is twice the
/// cheaper one: a toolCall id reused turn after turn made every result scan all earlier calls,
/// and results of one call on many sibling branches scanned every sibling (quadratic).
fn nearest<T>(
    sites: &[T],
    is_above: impl Fn(&T) -> bool,
    from: Option<u32>,
    holds: impl Fn(u32) -> Option<usize>,
    up: impl Fn(u32) -> Option<u32>,
) -> Option<usize> {
    let (mut back, mut at) = (sites.len(), from);
    loop {
        if back > 0 {
            back -= 1;
            if is_above(&sites[back]) {
                return Some(back);
            }
        } else if at.is_none() {
            return None;
        }
        if let Some(u) = at {
            if let Some(i) = holds(u) {
                return Some(i);
            }
            at = up(u);
        }
    }
}

fn line_too_large(offset: usize, line: usize, max: usize) -> ContractError {
    ContractError::new(Code::InputTooLarge, "", format!("the line is longer than the limit of {max} bytes (maxBytes)"))
        .at(Position { offset: offset + max, line, column: max + 1 })
}

/// The first LF, eight bytes at a time: a word XORed with eight LFs has a zero byte exactly where
/// the word has an LF, and `(w - 0x01..) & !w & 0x80..` is non-zero when a word has a zero byte
/// (bytes past the first zero may be flagged too, so the word is then searched byte by byte).
/// Finding line ends was a tenth of a native session check with the bytewise search.
fn memchr_lf(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LF: u64 = ONES * b'\n' as u64;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ LF;
        if x.wrapping_sub(ONES) & !x & HIGH != 0 {
            return word.iter().position(|&b| b == b'\n').map(|i| at + i);
        }
        at += 8;
    }
    words.remainder().iter().position(|&b| b == b'\n').map(|i| at + i)
}

pub fn problem_value(p: &Problem) -> Value {
    object(vec![
        ("line", number(p.line as f64)),
        ("code", string(p.error.code.as_str())),
        ("path", string(p.error.path.clone())),
        ("message", string(p.error.message.clone())),
    ])
}

/// `checkSession(text, options?)`: the report. Options: `strict`, `dialect`, `maxIssues`
/// (most problems listed), the limits (of each line).
pub fn check_session(text: &[u8], options: &Options) -> Value {
    let mut checker = Checker::new(options, false);
    checker.feed_text(text);
    checker.finish();
    checker.report()
}

#[cfg(test)]
mod tests {
    use super::memchr_lf;

    /// The word-at-a-time search finds the first LF exactly where a bytewise scan does: every
    /// start in buffers of LFs among bytes that differ from it in one bit, at every alignment.
    #[test]
    fn memchr_lf_matches_a_bytewise_scan() {
        let alphabet = [b'\n', b'\x0b', b'\x08', b'\x0e', b'\x8a', 0x00, 0xFF, b'a', b'\r', b'"'];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        alphabet[(state >> 8) as usize % alphabet.len()]
                    })
                    .collect();
                for start in 0..=len {
                    let expected = bytes[start..].iter().position(|&b| b == b'\n');
                    assert_eq!(memchr_lf(&bytes[start..]), expected, "{bytes:?} from {start}");
                }
            }
        }
    }
}
