//! What a command found, printed for people (one line per problem, then a summary) or as one
//! JSON document for machines.

use agent_contract::value::{write_json, Value};
use agent_contract::ContractError;

/// One problem: where (a file, and a line and column when known), the code, the pointer, the
/// message.
pub struct Problem {
    pub file: String,
    pub at: Option<(usize, usize)>,
    pub code: String,
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn at(file: &str, at: Option<(usize, usize)>, e: &ContractError) -> Problem {
        Problem {
            file: file.to_owned(),
            at,
            code: e.code.as_str().to_owned(),
            path: e.path.clone(),
            message: e.message.clone(),
        }
    }

    fn human(&self) -> String {
        let place = match self.at {
            Some((line, column)) => format!("{}:{line}:{column}", self.file),
            None => self.file.clone(),
        };
        let path = if self.path.is_empty() { String::new() } else { format!(" at {}", self.path) };
        format!("{place}: {}{path}: {}\n", self.code, self.message)
    }

    fn value(&self) -> Value {
        let s = |x: &str| Value::String(x.to_owned());
        let mut entries = vec![("file".to_owned(), s(&self.file))];
        if let Some((line, column)) = self.at {
            entries.push(("line".to_owned(), number(line)));
            entries.push(("column".to_owned(), number(column)));
        }
        entries.push(("code".to_owned(), s(&self.code)));
        entries.push(("path".to_owned(), s(&self.path)));
        entries.push(("message".to_owned(), s(&self.message)));
        Value::Object(entries)
    }
}

fn number(n: usize) -> Value {
    Value::Number(agent_contract::value::Number { value: n as f64, text: None })
}

pub struct Report {
    pub file: String,
    /// What was counted: "actions", "tools", "responses".
    pub kind: &'static str,
    pub checked: usize,
    pub problems: Vec<Problem>,
    /// The core's result where there is one to show (an assembled response, a catalog diff).
    pub result: Option<Value>,
}

impl Report {
    pub fn new(file: &str, kind: &'static str) -> Report {
        Report { file: file.to_owned(), kind, checked: 0, problems: Vec::new(), result: None }
    }

    pub fn human(&self) -> String {
        let mut out: String = self.problems.iter().map(Problem::human).collect();
        if let Some(result) = &self.result {
            let mut text = String::new();
            write_json(&mut text, result);
            out.push_str(&text);
            out.push('\n');
        }
        let n = self.problems.len();
        let verdict = if n == 0 { "ok".to_owned() } else { format!("{n} problem{}", if n == 1 { "" } else { "s" }) };
        out.push_str(&format!("{}: {verdict} ({} {} checked)\n", self.file, self.checked, self.kind));
        out
    }

    pub fn json(&self) -> String {
        let mut entries = vec![
            ("file".to_owned(), Value::String(self.file.clone())),
            ("ok".to_owned(), Value::Bool(self.problems.is_empty())),
            ("checked".to_owned(), number(self.checked)),
            ("problems".to_owned(), Value::Array(self.problems.iter().map(Problem::value).collect())),
        ];
        if let Some(result) = &self.result {
            entries.push(("result".to_owned(), result.clone()));
        }
        let mut text = String::new();
        write_json(&mut text, &Value::Object(entries));
        text
    }
}

/// The tools of a catalog diff whose version does not move as their change requires
/// (`bump.ok` false, the core's verdict), placed at the tool in the new catalog.
pub fn bump_problems(file: &str, text: &[u8], catalog: &Value, diff: &Value) -> Vec<Problem> {
    let Some(Value::Array(tools)) = diff.get("tools") else { return Vec::new() };
    let (list, prefix) = match catalog.get("tools") {
        Some(list @ Value::Array(_)) => (list, "/tools"),
        _ => (catalog, ""),
    };
    let index_of = |name: &str| match list {
        Value::Array(items) => items.iter().position(|t| t.get("name") == Some(&Value::String(name.to_owned()))),
        _ => None,
    };
    let mut out = Vec::new();
    for tool in tools {
        let (Some(Value::String(name)), Some(bump)) = (tool.get("name"), tool.get("bump")) else { continue };
        if bump.get("ok") != Some(&Value::Bool(false)) {
            continue;
        }
        let word = |key: &str| match bump.get(key) {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let path = index_of(name).map_or(String::new(), |i| format!("{prefix}/{i}/version"));
        out.push(Problem {
            file: file.to_owned(),
            at: Some(crate::locate::locate(text, &path)),
            code: "VERSION_BUMP_MISSING".to_owned(),
            path,
            message: format!(
                "tool {name:?}: the change needs a {} version bump, the version moved: {}",
                word("required"),
                word("actual")
            ),
        });
    }
    out
}
