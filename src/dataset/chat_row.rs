//! One row of the OpenAI chat fine-tuning format: `{"messages": [...], "tools"?: [...],
//! "parallel_tool_calls"?: bool}`, checked as a whole and reported like a session file: every
//! problem (up to `maxIssues`, then `truncated: true`) with its code and JSON Pointer, and the
//! row's counts.
//!
//! What is read: the five roles (`system`, `developer`, `user`, `assistant`, `tool`) and the
//! content each may hold (a string, or a list of parts of the kinds its role takes); the row's
//! tools (`{type: "function", function: {name, description?, parameters?, strict?}}`, names by
//! OpenAI's rule `^[a-zA-Z0-9_-]{1,64}$`, each `parameters` compiled once per row, and once per
//! batch by its canonical text); an assistant's `tool_calls`, whose `function.arguments` is a
//! string that must be strict JSON valid against the named tool's `parameters`; call ids unique
//! in the row; each `tool` message answering an earlier call not yet answered; a call left
//! unanswered when the conversation goes on (the calls of the row's last message are what the
//! row teaches, and need no answer); several calls in one message when `parallel_tool_calls` is
//! false; `weight` (0 or 1) on assistant messages only. The legacy `functions` /
//! `function_call` / `role: "function"` form is reported, never read (docs/decisions.md).
//!
//! A `null` optional field counts as absent (datasets written from Python often hold `None`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use crate::error::{Code, ContractError};
use crate::input::options::Options;
use crate::input::{HostValue, Kind, Undefined};
use crate::json::{self, Mode};
use crate::session::field::{number, object, string};
use crate::tools::schema::{self, Allowance, CompiledSchema, PatternScope};
use crate::value::{pointer_child, pointer_index, write_json, Value};

/// The longest name OpenAI takes for a function.
const NAME_MAX: usize = 64;
/// Declared tool names an unknown call's message lists.
const DECLARED_SHOWN: usize = 10;
/// Distinct schemas one batch keeps compiled; past it the map starts again (a dataset has a
/// handful of tool sets; a hostile one only costs recompiles).
const SCHEMAS_KEPT: usize = 1024;

/// The tool schemas of a batch, compiled once each: keyed by their canonical JSON text, with the
/// compile error (its path relative to the schema) when the engine refused one.
pub struct Schemas {
    compiled: HashMap<String, Result<Rc<CompiledSchema>, ContractError>>,
    /// The evaluations the batch's tool calls share (`schema::Allowance`).
    allowance: Allowance,
    /// The regular expressions the batch's schemas share (`schema::PatternScope`).
    _patterns: PatternScope,
}

impl Default for Schemas {
    fn default() -> Self {
        Schemas { compiled: HashMap::new(), allowance: Allowance::shared(), _patterns: PatternScope::open() }
    }
}

impl Schemas {
    fn get(&mut self, schema: &Value) -> Result<Rc<CompiledSchema>, ContractError> {
        let mut key = String::new();
        write_json(&mut key, schema);
        if let Some(hit) = self.compiled.get(&key) {
            return hit.clone();
        }
        if self.compiled.len() >= SCHEMAS_KEPT {
            self.compiled.clear();
        }
        let result = schema::compile(schema, "");
        self.compiled.insert(key, result.clone());
        result
    }
}

/// A declared tool: its compiled `parameters`, when it has usable ones.
struct Tool {
    schema: Option<Rc<CompiledSchema>>,
}

/// A call made and not answered yet; `seq` is its place among the row's calls, the order
/// unanswered calls are reported in.
struct Pending {
    seq: usize,
    name: String,
    message: usize,
    path: String,
}

/// The calls not answered yet, by id: an answer finds its call in O(log n), so a message with
/// thousands of calls and their answers stays linear.
type Calls = BTreeMap<String, Pending>;

/// The check of one row: its problems and counts.
pub struct RowCheck<'o> {
    options: &'o Options,
    problems: Vec<(Code, String, String)>,
    truncated: bool,
    messages: usize,
    tool_calls: usize,
    /// The batch's allowance, lent to the row while it is checked.
    allowance: Allowance,
}

impl<'o> RowCheck<'o> {
    fn new(options: &'o Options) -> Self {
        RowCheck {
            options,
            problems: Vec::new(),
            truncated: false,
            messages: 0,
            tool_calls: 0,
            allowance: Allowance::shared(),
        }
    }

    /// The report of a row that could not be read at all: that one error.
    pub fn failed(options: &Options, error: ContractError) -> Value {
        let mut check = RowCheck::new(options);
        check.error(error);
        check.report()
    }

    fn problem(&mut self, code: Code, path: String, message: impl Into<String>) {
        if self.problems.len() < self.options.max_issues {
            self.problems.push((code, path, message.into()));
        } else {
            self.truncated = true;
        }
    }

    fn error(&mut self, e: ContractError) {
        let message = e.to_string();
        self.problem(e.code, e.path, message);
    }

    /// `{ok, problems: [{code, path, message}], stats: {messages, toolCalls}}`, and
    /// `truncated: true` when problems were cut (as `checkSession`'s report).
    pub fn report(self) -> Value {
        let problems = self
            .problems
            .into_iter()
            .map(|(code, path, message)| {
                object(vec![("code", string(code.as_str())), ("path", string(path)), ("message", string(message))])
            })
            .collect::<Vec<_>>();
        let mut out = vec![
            ("ok", Value::Bool(problems.is_empty())),
            ("problems", Value::Array(problems)),
            (
                "stats",
                object(vec![("messages", number(self.messages as f64)), ("toolCalls", number(self.tool_calls as f64))]),
            ),
        ];
        if self.truncated {
            out.push(("truncated", Value::Bool(true)));
        }
        object(out)
    }

    fn invalid(&mut self, path: String, message: impl Into<String>) {
        self.problem(Code::RowFieldInvalid, path, message);
    }

    fn unknown_fields(&mut self, value: &Value, path: &str, known: &[&str], what: &str) {
        if !self.options.strict {
            return;
        }
        if let Value::Object(members) = value {
            for (key, _) in members {
                if !known.contains(&key.as_str()) {
                    self.problem(
                        Code::RowFieldUnknown,
                        pointer_child(path, key),
                        format!("{key:?} is not a field of {what} (strict)"),
                    );
                }
            }
        }
    }

    fn check(&mut self, row: &Value, schemas: &mut Schemas) {
        if !matches!(row, Value::Object(_)) {
            self.invalid(
                String::new(),
                format!("a row must be an object {{messages, tools?, parallel_tool_calls?}}, got {}", row.kind_name()),
            );
            return;
        }
        self.unknown_fields(row, "", &["messages", "tools", "parallel_tool_calls", "functions"], "a row");
        if present(row.get("functions")).is_some() {
            self.problem(
                Code::RowLegacyFunctions,
                "/functions".to_owned(),
                "functions is the deprecated form of tools: declare each as {\"type\": \"function\", \"function\": {...}} in tools",
            );
        }
        let parallel = match present(row.get("parallel_tool_calls")) {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.invalid(
                    "/parallel_tool_calls".to_owned(),
                    format!("parallel_tool_calls must be a boolean, got {}", other.kind_name()),
                );
                true
            }
        };
        let tools = self.tools(row.get("tools"), schemas);
        let messages = match present(row.get("messages")) {
            Some(Value::Array(list)) if !list.is_empty() => list,
            Some(Value::Array(_)) => {
                self.invalid("/messages".to_owned(), "messages must hold at least one message");
                return;
            }
            Some(other) => {
                self.invalid(
                    "/messages".to_owned(),
                    format!("messages must be a list of messages, got {}", other.kind_name()),
                );
                return;
            }
            None => {
                self.invalid("/messages".to_owned(), "a row needs messages (a list of messages)");
                return;
            }
        };
        self.messages = messages.len();
        let mut pending = Calls::new();
        let mut ids: BTreeSet<String> = BTreeSet::new();
        let mut answered: BTreeSet<String> = BTreeSet::new();
        for (i, message) in messages.iter().enumerate() {
            let path = pointer_index("/messages", i);
            let role = self.message(message, &path, i);
            if role != Some("tool") {
                self.unanswered(&mut pending, &format!("before message {i}"));
            }
            match role {
                Some("assistant") => {
                    self.calls(message, &path, i, &tools, parallel, &mut ids, &mut pending);
                }
                Some("tool") => self.answer(message, &path, &mut pending, &mut answered),
                _ => {}
            }
        }
        // The calls of the last message are what the row teaches: they need no answer.
        let last = messages.len() - 1;
        pending.retain(|_, p| p.message != last);
        self.unanswered(&mut pending, "before the end of the row");
    }

    fn unanswered(&mut self, pending: &mut Calls, when: &str) {
        let mut calls: Vec<(String, Pending)> = std::mem::take(pending).into_iter().collect();
        crate::order::sort_by_key(&mut calls, |(_, p)| p.seq);
        for (id, p) in calls {
            self.problem(
                Code::RowCallUnanswered,
                p.path,
                format!("call {id:?} to {:?} is not answered by a tool message {when}", p.name),
            );
        }
    }

    /// The row's tools by name.
    fn tools(&mut self, tools: Option<&Value>, schemas: &mut Schemas) -> BTreeMap<String, Tool> {
        let mut out = BTreeMap::new();
        let list = match present(tools) {
            None => return out,
            Some(Value::Array(list)) => list,
            Some(other) => {
                self.invalid("/tools".to_owned(), format!("tools must be a list of tools, got {}", other.kind_name()));
                return out;
            }
        };
        for (j, tool) in list.iter().enumerate() {
            let path = pointer_index("/tools", j);
            if !matches!(tool, Value::Object(_)) {
                self.invalid(path, format!("a tool must be an object {{type, function}}, got {}", tool.kind_name()));
                continue;
            }
            self.unknown_fields(tool, &path, &["type", "function"], "a tool");
            if !matches!(tool.get("type"), Some(Value::String(t)) if t == "function") {
                self.invalid(format!("{path}/type"), "a tool's type must be \"function\"");
                continue;
            }
            let function = match tool.get("function") {
                Some(f @ Value::Object(_)) => f,
                other => {
                    self.invalid(
                        format!("{path}/function"),
                        format!(
                            "a tool's function must be an object {{name, description?, parameters?, strict?}}, got {}",
                            other.map_or("nothing", Value::kind_name)
                        ),
                    );
                    continue;
                }
            };
            let fpath = format!("{path}/function");
            self.unknown_fields(function, &fpath, &["name", "description", "parameters", "strict"], "a function");
            let name = match function.get("name") {
                Some(Value::String(name)) => name.clone(),
                other => {
                    self.invalid(
                        format!("{fpath}/name"),
                        format!(
                            "a function's name must be a string, got {}",
                            other.map_or("nothing", Value::kind_name)
                        ),
                    );
                    continue;
                }
            };
            if !is_openai_name(&name) {
                self.problem(
                    Code::RowToolNameInvalid,
                    format!("{fpath}/name"),
                    format!("tool name {name:?} must match ^[a-zA-Z0-9_-]{{1,{NAME_MAX}}}$"),
                );
            }
            if let Some(d) = present(function.get("description")) {
                if !matches!(d, Value::String(_)) {
                    self.invalid(
                        format!("{fpath}/description"),
                        format!("description must be a string, got {}", d.kind_name()),
                    );
                }
            }
            if let Some(s) = present(function.get("strict")) {
                if !matches!(s, Value::Bool(_)) {
                    self.invalid(format!("{fpath}/strict"), format!("strict must be a boolean, got {}", s.kind_name()));
                }
            }
            let schema = match present(function.get("parameters")) {
                None => None,
                Some(p @ Value::Object(_)) => match schemas.get(p) {
                    Ok(compiled) => Some(compiled),
                    Err(e) => {
                        let message =
                            format!("the parameters of tool {name:?} are not a usable JSON Schema: {}", e.message);
                        self.problem(Code::RowToolSchemaInvalid, format!("{fpath}/parameters{}", e.path), message);
                        None
                    }
                },
                Some(other) => {
                    self.problem(
                        Code::RowToolSchemaInvalid,
                        format!("{fpath}/parameters"),
                        format!(
                            "the parameters of tool {name:?} must be a JSON Schema object, got {}",
                            other.kind_name()
                        ),
                    );
                    None
                }
            };
            if out.contains_key(&name) {
                self.problem(
                    Code::RowToolDuplicate,
                    format!("{fpath}/name"),
                    format!("tool {name:?} is declared more than once in the row"),
                );
                continue;
            }
            out.insert(name, Tool { schema });
        }
        out
    }

    /// One message's own fields; its role when it has a known one.
    fn message<'m>(&mut self, message: &'m Value, path: &str, i: usize) -> Option<&'m str> {
        if !matches!(message, Value::Object(_)) {
            self.invalid(
                path.to_owned(),
                format!("message {i} must be an object {{role, content, ...}}, got {}", message.kind_name()),
            );
            return None;
        }
        let role = match message.get("role") {
            Some(Value::String(r)) => r.as_str(),
            other => {
                self.invalid(
                    format!("{path}/role"),
                    format!("a message's role must be a string, got {}", other.map_or("nothing", Value::kind_name)),
                );
                return None;
            }
        };
        let role = match role {
            "system" | "developer" | "user" | "assistant" | "tool" => role,
            "function" => {
                self.problem(
                    Code::RowLegacyFunctions,
                    format!("{path}/role"),
                    "role \"function\" is the deprecated form of a tool message (role \"tool\" with tool_call_id)",
                );
                return None;
            }
            other => {
                self.problem(
                    Code::RowRoleUnknown,
                    format!("{path}/role"),
                    format!("unknown role {other:?}; expected system, developer, user, assistant or tool"),
                );
                return None;
            }
        };
        let known: &[&str] = match role {
            "assistant" => &["role", "content", "name", "tool_calls", "weight", "refusal", "function_call", "audio"],
            "tool" => &["role", "content", "tool_call_id"],
            _ => &["role", "content", "name"],
        };
        self.unknown_fields(message, path, known, &format!("a {role} message"));
        if let Some(name) = present(message.get("name")) {
            if !matches!(name, Value::String(_)) {
                self.invalid(format!("{path}/name"), format!("name must be a string, got {}", name.kind_name()));
            }
        }
        if let Some(weight) = present(message.get("weight")) {
            let ok = matches!(weight, Value::Number(n) if n.value == 0.0 || n.value == 1.0);
            if role != "assistant" {
                self.problem(
                    Code::RowWeightInvalid,
                    format!("{path}/weight"),
                    "weight is allowed on assistant messages only",
                );
            } else if !ok {
                self.problem(Code::RowWeightInvalid, format!("{path}/weight"), "weight must be 0 or 1");
            }
        }
        if role != "assistant" && present(message.get("tool_calls")).is_some() {
            self.invalid(format!("{path}/tool_calls"), "only assistant messages make tool calls");
        }
        if role == "assistant" {
            if present(message.get("function_call")).is_some() {
                self.problem(
                    Code::RowLegacyFunctions,
                    format!("{path}/function_call"),
                    "function_call is the deprecated form of tool_calls",
                );
            }
            if let Some(refusal) = present(message.get("refusal")) {
                if !matches!(refusal, Value::String(_)) {
                    self.invalid(
                        format!("{path}/refusal"),
                        format!("refusal must be a string, got {}", refusal.kind_name()),
                    );
                }
            }
        }
        self.content(message, path, role);
        Some(role)
    }

    fn content(&mut self, message: &Value, path: &str, role: &str) {
        let cpath = format!("{path}/content");
        let parts: &[&str] = match role {
            "user" => &["text", "image_url", "input_audio", "file"],
            "assistant" => &["text", "refusal"],
            _ => &["text"],
        };
        match present(message.get("content")) {
            None => {
                let calls = matches!(present(message.get("tool_calls")), Some(Value::Array(l)) if !l.is_empty());
                if role != "assistant" {
                    self.problem(Code::RowContentInvalid, cpath, format!("a {role} message needs content"));
                } else if !calls && present(message.get("function_call")).is_none() {
                    self.problem(Code::RowContentInvalid, cpath, "an assistant message needs content or tool_calls");
                }
            }
            Some(Value::String(_)) => {}
            Some(Value::Array(list)) if list.is_empty() => {
                self.problem(Code::RowContentInvalid, cpath, "content must hold at least one part");
            }
            Some(Value::Array(list)) => {
                for (j, part) in list.iter().enumerate() {
                    self.part(part, &pointer_index(&cpath, j), role, parts);
                }
            }
            Some(other) => {
                self.problem(
                    Code::RowContentInvalid,
                    cpath,
                    format!("content must be a string or a list of parts, got {}", other.kind_name()),
                );
            }
        }
    }

    fn part(&mut self, part: &Value, path: &str, role: &str, allowed: &[&str]) {
        let kind = match part.get("type") {
            Some(Value::String(t)) if matches!(part, Value::Object(_)) => t.as_str(),
            _ => {
                self.problem(Code::RowContentInvalid, path.to_owned(), "a content part must be an object with a type");
                return;
            }
        };
        if !allowed.contains(&kind) {
            self.problem(
                Code::RowContentInvalid,
                format!("{path}/type"),
                format!("a {role} message takes no {kind:?} part (it takes {})", allowed.join(", ")),
            );
            return;
        }
        // The payload: a string for text and refusal, an object for the media parts.
        let payload = part.get(kind);
        let ok = match kind {
            "text" | "refusal" => matches!(payload, Some(Value::String(_))),
            "image_url" => matches!(payload.and_then(|p| p.get("url")), Some(Value::String(_))),
            _ => matches!(payload, Some(Value::Object(_))),
        };
        if !ok {
            let what = match kind {
                "text" | "refusal" => "a string",
                "image_url" => "an object with a url string",
                _ => "an object",
            };
            self.problem(
                Code::RowContentInvalid,
                pointer_child(path, kind),
                format!("a part of type {kind:?} needs {kind} as {what}"),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn calls(
        &mut self,
        message: &Value,
        path: &str,
        i: usize,
        tools: &BTreeMap<String, Tool>,
        parallel: bool,
        ids: &mut BTreeSet<String>,
        pending: &mut Calls,
    ) {
        let list = match present(message.get("tool_calls")) {
            None => return,
            Some(Value::Array(list)) if !list.is_empty() => list,
            Some(Value::Array(_)) => {
                self.invalid(format!("{path}/tool_calls"), "tool_calls must hold at least one call (or be left out)");
                return;
            }
            Some(other) => {
                self.invalid(
                    format!("{path}/tool_calls"),
                    format!("tool_calls must be a list, got {}", other.kind_name()),
                );
                return;
            }
        };
        self.tool_calls += list.len();
        if !parallel && list.len() > 1 {
            self.problem(
                Code::RowParallelCalls,
                format!("{path}/tool_calls"),
                format!("{} calls in one message, but the row sets parallel_tool_calls to false", list.len()),
            );
        }
        for (k, call) in list.iter().enumerate() {
            let cpath = pointer_index(&format!("{path}/tool_calls"), k);
            self.call(call, &cpath, i, tools, ids, pending);
        }
    }

    fn call(
        &mut self,
        call: &Value,
        path: &str,
        i: usize,
        tools: &BTreeMap<String, Tool>,
        ids: &mut BTreeSet<String>,
        pending: &mut Calls,
    ) {
        if !matches!(call, Value::Object(_)) {
            self.invalid(
                path.to_owned(),
                format!("a tool call must be an object {{id, type, function}}, got {}", call.kind_name()),
            );
            return;
        }
        self.unknown_fields(call, path, &["id", "type", "function"], "a tool call");
        let id = match call.get("id") {
            Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
            other => {
                self.invalid(
                    format!("{path}/id"),
                    format!("a tool call's id must be a non-empty string, got {}", describe(other)),
                );
                None
            }
        };
        if !matches!(call.get("type"), Some(Value::String(t)) if t == "function") {
            self.invalid(format!("{path}/type"), "a tool call's type must be \"function\"");
        }
        let function = match call.get("function") {
            Some(f @ Value::Object(_)) => f,
            other => {
                self.invalid(
                    format!("{path}/function"),
                    format!("a tool call's function must be an object {{name, arguments}}, got {}", describe(other)),
                );
                return;
            }
        };
        let fpath = format!("{path}/function");
        self.unknown_fields(function, &fpath, &["name", "arguments"], "a call's function");
        let name = match function.get("name") {
            Some(Value::String(n)) => Some(n.clone()),
            other => {
                self.invalid(
                    format!("{fpath}/name"),
                    format!("the called function's name must be a string, got {}", describe(other)),
                );
                None
            }
        };
        let tool = name.as_ref().and_then(|n| tools.get(n));
        if let (Some(n), None) = (&name, tool) {
            // At most a few names: a row with many tools and many bad calls stays linear.
            let declared = match tools.len() {
                0 => "the row declares no tools".to_owned(),
                n => {
                    let names: Vec<String> = tools.keys().take(DECLARED_SHOWN).map(|k| format!("{k:?}")).collect();
                    let more =
                        if n > DECLARED_SHOWN { format!(" and {} more", n - DECLARED_SHOWN) } else { String::new() };
                    format!("the row declares {}{more}", names.join(", "))
                }
            };
            self.problem(
                Code::RowToolUnknown,
                format!("{fpath}/name"),
                format!("call to {n:?}, which is not declared: {declared}"),
            );
        }
        match function.get("arguments") {
            Some(Value::String(text)) => {
                let apath = format!("{fpath}/arguments");
                match json::parse(text.as_bytes(), Mode::Strict, &self.options.limits) {
                    Err(e) => {
                        self.problem(Code::RowArgumentsInvalid, apath, format!("arguments is not strict JSON: {e}"))
                    }
                    Ok(arguments) => {
                        if let (Some(n), Some(Tool { schema: Some(compiled) })) = (&name, tool) {
                            let max_issues = self.options.max_issues;
                            if let Err(e) =
                                schema::validate_within(compiled, &arguments, max_issues, &mut self.allowance)
                            {
                                self.problem(Code::RowArgumentsMismatch, apath, mismatch(n, &e));
                            }
                        }
                    }
                }
            }
            other => self.invalid(
                format!("{fpath}/arguments"),
                format!("arguments must be a string holding JSON, got {}", describe(other)),
            ),
        }
        if let Some(id) = id {
            if !ids.insert(id.clone()) {
                self.problem(
                    Code::RowCallIdDuplicate,
                    format!("{path}/id"),
                    format!("call id {id:?} is already the id of an earlier call"),
                );
            } else {
                let seq = ids.len();
                pending.insert(
                    id,
                    Pending { seq, name: name.unwrap_or_default(), message: i, path: format!("{path}/id") },
                );
            }
        }
    }

    /// A tool message answers an earlier call not yet answered.
    fn answer(&mut self, message: &Value, path: &str, pending: &mut Calls, answered: &mut BTreeSet<String>) {
        let id = match message.get("tool_call_id") {
            Some(Value::String(id)) => id,
            other => {
                self.invalid(
                    format!("{path}/tool_call_id"),
                    format!("a tool message needs tool_call_id (a string), got {}", describe(other)),
                );
                return;
            }
        };
        if pending.remove(id).is_some() {
            answered.insert(id.clone());
            return;
        }
        let message = if answered.contains(id) {
            format!("tool_call_id {id:?} answers a call that is already answered")
        } else {
            format!("tool_call_id {id:?} answers no earlier call of the row")
        };
        self.problem(Code::RowToolResultUnmatched, format!("{path}/tool_call_id"), message);
    }
}

/// An optional field: `null` counts as absent.
fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !matches!(v, Value::Null))
}

fn describe(value: Option<&Value>) -> String {
    match value {
        None => "nothing".to_owned(),
        Some(Value::String(s)) if s.is_empty() => "an empty string".to_owned(),
        Some(v) => v.kind_name().to_owned(),
    }
}

/// The arguments against the tool's parameters: the first issue named in the message.
fn mismatch(name: &str, e: &ContractError) -> String {
    match e.issues.first() {
        Some(issue) if e.issues.len() == 1 => format!(
            "the arguments do not match the parameters of tool {name:?}: {} at {:?} ({})",
            issue.message, issue.path, issue.keyword
        ),
        Some(issue) => format!(
            "the arguments do not match the parameters of tool {name:?}: {} issues; the first: {} at {:?} ({})",
            e.issues.len(),
            issue.message,
            issue.path,
            issue.keyword
        ),
        None => format!("the arguments do not match the parameters of tool {name:?}: {}", e.message),
    }
}

/// OpenAI's rule for function names: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_openai_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One row given as a value (already read).
pub fn check_row_value(row: &Value, options: &Options, schemas: &mut Schemas) -> Value {
    let mut check = RowCheck::new(options);
    check.allowance = std::mem::take(&mut schemas.allowance);
    check.check(row, schemas);
    schemas.allowance = std::mem::take(&mut check.allowance);
    check.report()
}

/// One row given as JSON text: the strict parser, then the row's rules.
pub fn check_row_text(text: &[u8], options: &Options, schemas: &mut Schemas) -> Value {
    match json::parse(text, Mode::Strict, &options.limits) {
        Ok(row) => check_row_value(&row, options, schemas),
        Err(e) => RowCheck::failed(options, e),
    }
}

/// One row given as a host value: a string is the row's JSON text; anything else is read as the
/// row itself, under the limits.
pub fn check_host_row<V: HostValue>(row: &V, options: &Options, schemas: &mut Schemas) -> Value {
    if row.kind() == Kind::String {
        return check_row_text(row.string().as_bytes(), options, schemas);
    }
    match crate::tools::registry::read_value(row, &options.limits, Undefined::Reject) {
        Ok(value) => check_row_value(&value, options, schemas),
        Err(e) => RowCheck::failed(options, e),
    }
}
