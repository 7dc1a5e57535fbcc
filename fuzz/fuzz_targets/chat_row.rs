//! Dataset rows (the OpenAI chat fine-tuning format). The first byte picks the options (bit 0:
//! `strict`, bit 1: `maxIssues: 2`, bit 2: small limits); the rest is a row's text, or a JSON
//! Lines text of rows. Besides "no panic":
//! - a report is well formed: `ok` exactly when it lists no problem, at most `maxIssues`
//!   problems, `truncated` only when that many are listed, counts that are whole numbers;
//! - a row read from text and the same row read as a value give the same report (on text the
//!   limits admit);
//! - `checkChatRowsJsonl` gives one report per line, each the report of `checkChatRow` on that
//!   line (blank lines aside), and `checkChatRows` over the same rows the same reports.
#![no_main]

use agent_contract::json::{self, Mode};
use agent_contract::value::{Number, Value};
use agent_contract::{api, Limits};
use libfuzzer_sys::fuzz_target;

mod common;
use common::{canon, wire_ok};

fn options(op: u8) -> (Value, usize, Limits) {
    let mut members = Vec::new();
    let mut max_issues = 100;
    let mut limits = Limits::default();
    if op & 1 != 0 {
        members.push(("strict".to_owned(), Value::Bool(true)));
    }
    if op & 2 != 0 {
        max_issues = 2;
        members.push(("maxIssues".to_owned(), Value::Number(Number::from_f64(2.0))));
    }
    if op & 4 != 0 {
        limits.max_bytes = 512;
        limits.max_depth = 6;
        members.push(("maxBytes".to_owned(), Value::Number(Number::from_f64(512.0))));
        members.push(("maxDepth".to_owned(), Value::Number(Number::from_f64(6.0))));
    }
    (Value::Object(members), max_issues, limits)
}

fn well_formed(report: &Value, max_issues: usize) {
    let Some(Value::Array(problems)) = report.get("problems") else { panic!("a report lists its problems") };
    assert_eq!(report.get("ok"), Some(&Value::Bool(problems.is_empty())), "ok exactly when no problem is listed");
    assert!(problems.len() <= max_issues, "at most maxIssues problems");
    if report.get("truncated").is_some() {
        assert_eq!(problems.len(), max_issues, "truncated only when maxIssues problems are listed");
    }
    for p in problems {
        assert!(matches!(p.get("code"), Some(Value::String(c)) if c.starts_with("ROW_") || !c.is_empty()));
        assert!(matches!(p.get("path"), Some(Value::String(path)) if path.is_empty() || path.starts_with('/')));
    }
    let Some(stats) = report.get("stats") else { panic!("a report has its stats") };
    for key in ["messages", "toolCalls"] {
        assert!(matches!(stats.get(key), Some(Value::Number(n)) if n.value >= 0.0 && n.value.fract() == 0.0));
    }
}

fn without_line(report: &Value) -> Value {
    match report {
        Value::Object(members) => Value::Object(members.iter().filter(|(k, _)| k != "line").cloned().collect()),
        other => other.clone(),
    }
}

/// Whether the report has a problem from a budget the rows of one call share (the engine's
/// evaluations, the automata of their tools' patterns): such a report may differ from the row's
/// own, checked alone.
fn shares_a_call_budget(report: &Value) -> bool {
    let Some(Value::Array(problems)) = report.get("problems") else { return false };
    problems.iter().any(|p| matches!(p.get("message"), Some(Value::String(m)) if m.contains("this call")))
}

/// A row's report in a batch: the row's own, unless a budget of the batch refused it, or its
/// own call's budget refused it alone (in the batch, patterns earlier rows paid for are free).
fn same_as_alone(in_batch: &Value, alone: &Value, what: &str) {
    if !shares_a_call_budget(in_batch) && !shares_a_call_budget(alone) {
        assert_eq!(in_batch, alone, "{what}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, text)) = data.split_first() else { return };
    let (o, max_issues, limits) = options(op);
    let o = &o;
    let report = api::check_chat_row_json(text, Some(&o)).expect("the options are valid");
    wire_ok(Ok(report.clone()));
    well_formed(&report, max_issues);
    // A string given as a value is a row's text, not a row that is a string: only other values
    // compare.
    if let Some(value) = json::parse(text, Mode::Strict, &limits).ok().filter(|v| !matches!(v, Value::String(_))) {
        let from_value = api::check_chat_row(&&value, Some(&o)).expect("the options are valid");
        assert_eq!(canon(&from_value), canon(&report), "text and value give the same report");
    }
    let lines = api::check_chat_rows_jsonl(text, Some(&o)).expect("the options are valid, and lines are few");
    wire_ok(Ok(lines.clone()));
    let Value::Array(lines) = lines else { panic!("a list of reports") };
    let mut rows = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate().take(lines.len()) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let got = &lines[i];
        assert_eq!(got.get("line"), Some(&Value::Number(Number::from_f64((i + 1) as f64))), "lines are numbered");
        well_formed(got, max_issues);
        if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            continue;
        }
        let alone = api::check_chat_row_json(line, Some(&o)).expect("the options are valid");
        same_as_alone(&without_line(got), &alone, "a line's report is checkChatRow's on that line");
        if let Ok(s) = std::str::from_utf8(line) {
            rows.push((Value::String(s.to_owned()), alone));
        }
    }
    let list = Value::Array(rows.iter().map(|(row, _)| row.clone()).collect());
    let batch = api::check_chat_rows(&&list, Some(&o)).expect("the options are valid");
    let Value::Array(batch) = batch else { panic!("a list of reports") };
    assert_eq!(batch.len(), rows.len(), "one report per row");
    for (got, (_, alone)) in batch.iter().zip(&rows) {
        same_as_alone(got, alone, "checkChatRows gives each row's own report");
    }
});
