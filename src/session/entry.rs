//! Session entries (seed 004 §SessionEntry), one line of a session file each:
//! `{type: "session", version: 1, id, timestamp, cwd}` (the header),
//! `{type: "message", id, parentId, timestamp, message}` and
//! `{type: "compaction", id, parentId, timestamp, summary, firstKeptEntryId, tokensBefore}`.
//! `parentId` must be present: a non-blank string or `null` (a root). Entry timestamps are
//! non-blank strings (ISO 8601 in practice; the format is not judged), message timestamps
//! numbers. The rules of one entry live here; the rules between entries in `session::check`.

use crate::error::{Code, Result};
use crate::input::fields::Source;
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Path};
use crate::json::{self, Mode};
use crate::session::field::{number, string, Ctx};
use crate::session::message::{dialect, read_message};
use crate::session::pi;
use crate::value::Value;

pub const SESSION_VERSION: f64 = 1.0;
const HEADER_FIELDS: [&str; 5] = ["type", "version", "id", "timestamp", "cwd"];
const MESSAGE_FIELDS: [&str; 5] = ["type", "id", "parentId", "timestamp", "message"];
const COMPACTION_FIELDS: [&str; 7] =
    ["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore"];
const PI_MESSAGE_FIELDS: [&str; 3] = ["type", "timestamp", "message"];
const PI_COMPACTION_FIELDS: [&str; 5] = ["type", "timestamp", "summary", "firstKeptEntryIndex", "tokensBefore"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Header,
    Message,
    Compaction,
    /// `dialect: "pi"` only: `thinking_level_change`, `model_change`.
    Setting,
}

/// Where a compaction's kept entries start.
#[derive(Clone, Debug, PartialEq)]
pub enum FirstKept {
    Id(String),
    /// `dialect: "pi"`: `firstKeptEntryIndex`.
    Index(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: EntryKind,
    /// `None` only for the entries of a pi file (ids are assigned by the file's reader).
    pub id: Option<String>,
    /// `None`: a root (or a pi entry).
    pub parent_id: Option<String>,
    pub first_kept: Option<FirstKept>,
    /// The entry with its known fields, in the seed's order.
    pub value: Value,
}

/// `parseSessionEntry(value, options?)`. Options: `strict`, the limits, `dialect`.
pub fn parse_session_entry<V: HostValue>(value: &V, options: &Options) -> Result<Value> {
    let mut c = Ctx::new(&options.limits, Source::Host, options.strict, dialect(options));
    read_entry(&mut c, value).map(|e| e.value)
}

/// The same from strict JSON text.
pub fn parse_session_entry_json(text: &[u8], options: &Options) -> Result<Value> {
    let document = json::parse(text, Mode::Strict, &options.limits)?;
    parse_session_entry(&&document, options)
}

pub fn read_entry<V: HostValue>(c: &mut Ctx<'_>, value: &V) -> Result<Entry> {
    c.object(value, "", "a session entry", 1)?;
    let kind = c.text(value, "", "type")?;
    let mut out: Vec<(String, Value)> = vec![("type".into(), string(kind.clone()))];
    let put = |out: &mut Vec<(String, Value)>, k: &str, v: Value| out.push((k.to_owned(), v));
    let mut entry = Entry { kind: EntryKind::Message, id: None, parent_id: None, first_kept: None, value: Value::Null };
    match kind.as_str() {
        "session" => {
            entry.kind = EntryKind::Header;
            let known: &[&str] = if c.pi() { &pi::HEADER_FIELDS } else { &HEADER_FIELDS };
            c.closed(value, "", known, "a session header")?;
            let version =
                if c.pi() { c.optional(value, "", "version")? } else { Some(c.required(value, "", "version")?) };
            if let Some(v) = version {
                let n = c.number_of(&v, &Path::Root("/version"), "version")?;
                if n != SESSION_VERSION {
                    return Err(c.error(
                        Code::SessionVersionUnsupported,
                        "/version",
                        format!("session version {n} is not supported (this reader knows version 1)"),
                    ));
                }
                put(&mut out, "version", number(n));
            }
            let id = c.text(value, "", "id")?;
            put(&mut out, "id", string(id.clone()));
            entry.id = Some(id);
            put(&mut out, "timestamp", string(c.text(value, "", "timestamp")?));
            put(&mut out, "cwd", string(c.text(value, "", "cwd")?));
            if c.pi() {
                for key in ["provider", "modelId", "thinkingLevel", "branchedFrom"] {
                    if let Some(s) = c.optional_string(value, "", key)? {
                        put(&mut out, key, string(s));
                    }
                }
            }
        }
        "message" | "compaction" => {
            let message = kind == "message";
            let known: &[&str] = match (message, c.pi()) {
                (true, false) => &MESSAGE_FIELDS,
                (false, false) => &COMPACTION_FIELDS,
                (true, true) => &PI_MESSAGE_FIELDS,
                (false, true) => &PI_COMPACTION_FIELDS,
            };
            c.closed(value, "", known, if message { "a message entry" } else { "a compaction entry" })?;
            if !c.pi() {
                let id = c.text(value, "", "id")?;
                put(&mut out, "id", string(id.clone()));
                entry.id = Some(id);
                entry.parent_id = parent_id(c, value)?;
                put(&mut out, "parentId", entry.parent_id.clone().map_or(Value::Null, Value::String));
            }
            put(&mut out, "timestamp", string(c.text(value, "", "timestamp")?));
            if message {
                let m = c.required(value, "", "message")?;
                put(&mut out, "message", read_message(c, &m, "/message", 2)?);
            } else {
                entry.kind = EntryKind::Compaction;
                put(&mut out, "summary", c.payload(value, "", "summary")?);
                if c.pi() {
                    let i = c.count(value, "", "firstKeptEntryIndex")?;
                    put(&mut out, "firstKeptEntryIndex", number(i));
                    entry.first_kept = Some(FirstKept::Index(i as usize));
                } else {
                    let target = c.text(value, "", "firstKeptEntryId")?;
                    put(&mut out, "firstKeptEntryId", string(target.clone()));
                    entry.first_kept = Some(FirstKept::Id(target));
                }
                put(&mut out, "tokensBefore", number(c.count(value, "", "tokensBefore")?));
            }
        }
        "thinking_level_change" if c.pi() => {
            entry.kind = EntryKind::Setting;
            c.closed(value, "", &["type", "timestamp", "thinkingLevel"], "a thinking_level_change entry")?;
            put(&mut out, "timestamp", string(c.text(value, "", "timestamp")?));
            put(&mut out, "thinkingLevel", string(c.text(value, "", "thinkingLevel")?));
        }
        "model_change" if c.pi() => {
            entry.kind = EntryKind::Setting;
            c.closed(value, "", &["type", "timestamp", "provider", "modelId"], "a model_change entry")?;
            put(&mut out, "timestamp", string(c.text(value, "", "timestamp")?));
            put(&mut out, "provider", string(c.text(value, "", "provider")?));
            put(&mut out, "modelId", string(c.text(value, "", "modelId")?));
        }
        other => {
            let expected = if c.pi() {
                "\"session\", \"message\", \"compaction\", \"thinking_level_change\" or \"model_change\""
            } else {
                "\"session\", \"message\" or \"compaction\""
            };
            return Err(c.error(
                Code::EntryTypeUnknown,
                "/type",
                format!("unknown session entry type {other:?}; expected {expected}"),
            ));
        }
    }
    entry.value = Value::Object(out);
    Ok(entry)
}

/// `parentId`: present, a non-blank string or `null`.
fn parent_id<V: HostValue>(c: &mut Ctx<'_>, value: &V) -> Result<Option<String>> {
    let v = c.required(value, "", "parentId")?;
    if v.kind() == Kind::Null {
        c.r.budget.charge(1)?;
        return Ok(None);
    }
    if v.kind() != Kind::String {
        return Err(c.type_error(&v, "/parentId", "parentId must be a string or null"));
    }
    let s = c.string_of(&v, &Path::Root("/parentId"), "parentId")?;
    c.non_blank(&s, "/parentId", "parentId")?;
    Ok(Some(s))
}

/// What `session::check` needs of a line that is not a valid entry, so that one bad entry does
/// not make every later reference to it a problem too: its `id` and `parentId`, when readable.
pub fn lenient_link(value: &Value) -> Option<(String, Option<String>)> {
    let id = match value.get("id") {
        Some(Value::String(s)) if !crate::input::fields::is_blank(s) => s.clone(),
        _ => return None,
    };
    let parent = match value.get("parentId") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    Some((id, parent))
}
