//! Training data: rows of tool-calling datasets checked the way the agent itself is checked.
//!
//! `chat_row` reads one row of the OpenAI chat fine-tuning format; this module runs it over a
//! list of rows or a JSON Lines text, one report per row, with the rows' tool schemas compiled
//! once per batch (`chat_row::Schemas`).

pub mod chat_row; // one row: messages, tools, calls and their answers, the report

use crate::error::{Code, ContractError, Result};
use crate::input::options::Options;
use crate::input::{HostValue, Kind};
use crate::session::field::number;
use crate::value::Value;

use chat_row::{RowCheck, Schemas};

/// `checkChatRows(rows, options)`: one report per element of a list (a string element is that
/// row's JSON text). The list holds at most `maxArrayLength` rows: every row gets a report.
pub fn check_chat_rows<V: HostValue>(rows: &V, options: &Options) -> Result<Value> {
    let mut reports = Vec::new();
    chat_rows_reports(rows, options, &mut |r| reports.push(r))?;
    Ok(Value::Array(reports))
}

/// `checkChatRows`, each report handed to `each` as soon as it is made, in order (a binding
/// writes it out at once: 65,536 reports held together as values took ~65 MB of wasm memory).
pub fn chat_rows_reports<V: HostValue>(rows: &V, options: &Options, each: &mut dyn FnMut(Value)) -> Result<()> {
    if rows.kind() != Kind::Array {
        return Err(ContractError::new(
            Code::FieldType,
            "",
            format!("expected a list of rows, got {}", crate::input::fields::kind_name(rows, rows.kind())),
        ));
    }
    let len = rows.len().map_err(|f| f.at(""))?;
    if len > options.limits.max_array_length {
        return Err(too_many_rows("the list has", options.limits.max_array_length));
    }
    let mut schemas = Schemas::default();
    for i in 0..len {
        each(match rows.index(i) {
            Ok(row) => chat_row::check_host_row(&row, options, &mut schemas),
            Err(fault) => RowCheck::failed(options, fault.at("")),
        });
    }
    Ok(())
}

/// `checkChatRowsJsonl(text, options)`: one report per line, each with its 1-based `line`. A
/// line that is not one JSON value (or is blank) gets a report with that one problem; the batch
/// goes on. A final line end is allowed; `maxBytes` bounds each line, `maxArrayLength` the
/// number of lines.
pub fn check_chat_rows_jsonl(text: &[u8], options: &Options) -> Result<Value> {
    let mut reports = Vec::new();
    chat_rows_jsonl_reports(text, options, &mut |r| reports.push(r))?;
    Ok(Value::Array(reports))
}

/// `checkChatRowsJsonl`, each report handed to `each` as soon as it is made (as
/// `chat_rows_reports`).
pub fn chat_rows_jsonl_reports(text: &[u8], options: &Options, each: &mut dyn FnMut(Value)) -> Result<()> {
    let lines = text.iter().filter(|&&b| b == b'\n').count() + usize::from(text.last().is_some_and(|&b| b != b'\n'));
    if lines > options.limits.max_array_length {
        return Err(too_many_rows("the text has", options.limits.max_array_length));
    }
    let mut schemas = Schemas::default();
    let mut start = 0;
    let mut line_no = 1usize;
    while start < text.len() {
        let end = text[start..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| start + i);
        let mut line = &text[start..end];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let report = if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            RowCheck::failed(
                options,
                ContractError::new(Code::RowLineBlank, "", "a blank line: every line of a dataset holds one row"),
            )
        } else {
            chat_row::check_row_text(line, options, &mut schemas)
        };
        let mut members = vec![("line".to_owned(), number(line_no as f64))];
        if let Value::Object(rest) = report {
            members.extend(rest);
        }
        each(Value::Object(members));
        start = end + 1;
        line_no += 1;
    }
    Ok(())
}

fn too_many_rows(what: &str, max: usize) -> ContractError {
    ContractError::new(
        Code::InputTooLarge,
        "",
        format!("{what} more rows than the limit of {max} (maxArrayLength): each gets its own report"),
    )
}
