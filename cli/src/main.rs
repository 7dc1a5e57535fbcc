//! `agent-contract`: the core's verdicts on the files agent authors have, from the command line.
//!
//! Every verdict is the core's (`agent_contract::api`); this binary reads files, maps the
//! core's JSON Pointers to `file:line:column`, and prints. Exit codes: 0 no problem, 1 problems,
//! 2 usage or I/O error (clap's own usage errors exit 2 too).

mod corpus;
mod locate;
mod output;
mod report;

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agent_contract::api;
use agent_contract::json::{self, Mode};
use agent_contract::stream::provider_stream::ProviderStream;
use agent_contract::value::Value;
use agent_contract::{ContractError, Limits};
use clap::{Parser, Subcommand, ValueEnum};

use report::{Problem, Report};

// Natively, mimalloc: the core allocates and frees a value tree per checked line, which glibc's
// allocator made a third of the time of `check sessions` (bench/RESULTS.md).
#[cfg(not(target_os = "wasi"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "agent-contract",
    version,
    about = "Checks agent actions, tool catalogs, provider streams and contract changes with the agent-contract core."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Output: one line per problem and a summary (human), one JSON document (json), or one JSON
    /// object per problem and a last `{"summary"}` line (jsonl; `check sessions` only).
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
    Jsonl,
}

#[derive(Subcommand)]
enum Command {
    /// Check a file.
    #[command(subcommand)]
    Check(Check),
    /// Compare two tool catalogs (a list of definitions or a registry {tools}): contract changes
    /// and the semver bump each needs. A tool whose version does not move as its change requires
    /// is a problem.
    Diff {
        /// The catalog before (`-`: standard input).
        old: PathBuf,
        /// The catalog after.
        new: PathBuf,
    },
}

#[derive(Subcommand)]
enum Check {
    /// Agent actions as JSON Lines, one action per line (`-`: standard input).
    Actions { file: PathBuf },
    /// A tool catalog: a JSON list of tool definitions, or a registry `{tools: [...]}`.
    Tools { file: PathBuf },
    /// A provider's raw Server-Sent Events response, assembled to its tool calls.
    Stream {
        /// openai-chat, openai-responses, anthropic or gemini.
        #[arg(long)]
        provider: String,
        /// The file holds one event payload (JSON) per line instead of raw SSE; a problem then
        /// has the line of its event.
        #[arg(long)]
        events: bool,
        file: PathBuf,
    },
    /// A session file (JSON Lines, seed 004): every line, the header, the entry tree, tool
    /// results against their calls. Every problem is listed, with its line.
    Session {
        /// `seed` (the protocol's rules) or `pi` (pi-mono's older session files).
        #[arg(long, value_enum, default_value_t = Dialect::Seed)]
        dialect: Dialect,
        /// Unknown fields are problems instead of being ignored.
        #[arg(long)]
        strict: bool,
        file: PathBuf,
    },
    /// Many session files, in parallel: files, directories (their `*.jsonl` and `*.jsonl.gz`,
    /// recursively), globs, `-` (standard input); `.gz` files are decompressed as they are read.
    /// Problems are listed by path, then line, whatever `--jobs`; a progress bar shows on a
    /// terminal.
    Sessions {
        /// `seed` (the protocol's rules) or `pi` (pi-mono's older session files).
        #[arg(long, value_enum, default_value_t = Dialect::Seed)]
        dialect: Dialect,
        /// Unknown fields are problems instead of being ignored.
        #[arg(long)]
        strict: bool,
        /// Files checked at once (default: every core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Chat dataset rows (OpenAI chat fine-tuning format, one `{messages, tools}` per line), many
    /// files in parallel: PATHs as for `check sessions`. Problems by path, then line.
    Rows {
        /// Unknown fields are problems instead of being ignored.
        #[arg(long)]
        strict: bool,
        /// Files checked at once (default: every core).
        #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Dialect {
    Seed,
    Pi,
}

/// Files at least this large get a progress bar (when standard error is a terminal).
const PROGRESS_BYTES: usize = 4 << 20;

fn main() -> ExitCode {
    // Under WASI (`npx agent-contract`: pkg/bin/agent-contract.mjs runs this program with the
    // host's `/` preopened) the working directory starts at `/`; the runner passes the real one
    // as AGENT_CONTRACT_CWD, so relative paths, `..` included, mean what they mean in the shell.
    #[cfg(target_os = "wasi")]
    if let Some(cwd) = std::env::var_os("AGENT_CONTRACT_CWD") {
        let _ = std::env::set_current_dir(cwd);
    }
    let cli = Cli::parse();
    let corpus = match &cli.command {
        Command::Check(Check::Sessions { dialect, strict, jobs, paths }) => {
            Some((corpus::Kind::Sessions { pi: *dialect == Dialect::Pi, strict: *strict }, jobs, paths))
        }
        Command::Check(Check::Rows { strict, jobs, paths }) => {
            Some((corpus::Kind::Rows { strict: *strict }, jobs, paths))
        }
        _ => None,
    };
    if let Some((kind, jobs, paths)) = corpus {
        let format = match cli.format {
            Format::Human => corpus::Output::Human,
            Format::Json => corpus::Output::Json,
            Format::Jsonl => corpus::Output::Jsonl,
        };
        return match corpus::run(kind, paths, jobs.map(usize::from), format) {
            Ok(code) => ExitCode::from(code),
            Err(message) => {
                eprintln!("agent-contract: {message}");
                ExitCode::from(2)
            }
        };
    }
    let outcome = match &cli.command {
        Command::Check(Check::Actions { file }) => read(file).map(|text| check_actions(file, &text)),
        Command::Check(Check::Tools { file }) => read(file).map(|text| check_tools(file, &text)),
        Command::Check(Check::Stream { provider, events, file }) => {
            read(file).map(|text| check_stream(file, provider, *events, &text))
        }
        Command::Check(Check::Session { dialect, strict, file }) => {
            read(file).map(|text| check_session(file, *dialect, *strict, &text))
        }
        Command::Diff { old, new } => read(old).and_then(|a| read(new).map(|b| diff(old, &a, new, &b))),
        // Returned above; a corpus command never reaches the single-file commands.
        Command::Check(Check::Sessions { .. } | Check::Rows { .. }) => return ExitCode::from(2),
    };
    match outcome {
        Ok(report) => {
            let text = match cli.format {
                Format::Human => report.human(),
                // One file's report: its problems one per line would be `check sessions`' form;
                // the single-file commands keep their one document.
                Format::Json | Format::Jsonl => format!("{}\n", report.json()),
            };
            let mut out = output::stdout();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                eprintln!("agent-contract: standard output: {e}");
                return ExitCode::from(2);
            }
            if report.problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("agent-contract: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("standard input: {e}"))?;
    } else {
        bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(bytes)
}

fn name(path: &PathBuf) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

fn progress(total: usize) -> Option<indicatif::ProgressBar> {
    (total >= PROGRESS_BYTES && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    })
}

/// JSON Lines, in blocks of whole lines (so the bar moves), each block through the core's
/// JSON Lines operation; line numbers and offsets are then made whole-file.
fn check_actions(path: &PathBuf, text: &[u8]) -> Report {
    let file = name(path);
    let mut report = Report::new(&file, "actions");
    let bar = progress(text.len());
    let (mut start, mut first_line) = (0, 1);
    while start < text.len() {
        let mut end = (start + (1 << 20)).min(text.len());
        while end < text.len() && text[end - 1] != b'\n' {
            end += 1;
        }
        let block = &text[start..end];
        match api::parse_agent_actions_jsonl::<&Value>(block, None) {
            Ok(outcomes) => {
                let mut lines = block.split(|&b| b == b'\n');
                for (i, outcome) in outcomes.into_iter().enumerate() {
                    report.checked += 1;
                    let line_text = lines.next().unwrap_or_default();
                    if let Err(e) = outcome {
                        // A parse error has its column; a rule's error, its pointer in the line.
                        let column = match &e.position {
                            Some(p) => p.column,
                            None => locate::locate(line_text, &e.path).1,
                        };
                        report.problems.push(Problem::at(&file, Some((first_line + i, column)), &e));
                    }
                }
            }
            Err(e) => report.problems.push(Problem::at(&file, None, &e)),
        }
        first_line += block.iter().filter(|&&b| b == b'\n').count();
        start = end;
        if let Some(bar) = &bar {
            bar.set_position(start as u64);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report
}

/// `checkSession` over the whole file: every problem at its line; the column is that of the
/// value its pointer names in the line (the line's start for a line that is not JSON).
fn check_session(path: &PathBuf, dialect: Dialect, strict: bool, text: &[u8]) -> Report {
    let file = name(path);
    let mut report = Report::new(&file, "entries");
    let s = |x: &str| Value::String(x.to_owned());
    let options = Value::Object(vec![
        ("dialect".to_owned(), s(if dialect == Dialect::Pi { "pi" } else { "seed" })),
        ("strict".to_owned(), Value::Bool(strict)),
        // Every problem, up to the core's ceiling: the command line lists them all.
        (
            "maxIssues".to_owned(),
            Value::Number(agent_contract::value::Number {
                value: agent_contract::input::limits::MAX_ISSUES_CEILING as f64,
                text: None,
            }),
        ),
    ]);
    let checked = match api::check_session(text, Some(&&options)) {
        Ok(checked) => checked,
        Err(e) => {
            report.problems.push(Problem::at(&file, None, &e));
            return report;
        }
    };
    if let Some(Value::Number(n)) = checked.get("entries") {
        report.checked = n.value as usize;
    }
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let Some(Value::Array(problems)) = checked.get("problems") else { return report };
    for p in problems {
        let field = |k: &str| match p.get(k) {
            Some(Value::String(v)) => v.clone(),
            _ => String::new(),
        };
        let line = match p.get("line") {
            Some(Value::Number(n)) => n.value as usize,
            _ => 0,
        };
        let path = field("path");
        let column = match lines.get(line.wrapping_sub(1)) {
            Some(text) if !path.is_empty() => locate::locate(text, &path).1,
            _ => 1,
        };
        report.problems.push(Problem {
            file: file.clone(),
            at: (line > 0).then_some((line, column)),
            code: field("code"),
            path,
            message: field("message"),
        });
    }
    if checked.get("truncated") == Some(&Value::Bool(true)) {
        let e = ContractError::new(
            agent_contract::error::Code::InputTooLarge,
            "",
            "more than 10000 problems: the first 10000 are listed",
        );
        report.problems.push(Problem::at(&file, None, &e));
    }
    report
}

/// The whole text as strict JSON, or the parse problem with its position.
fn parse(file: &str, text: &[u8], report: &mut Report) -> Option<Value> {
    match json::parse(text, Mode::Strict, &Limits::ceilings()) {
        Ok(value) => Some(value),
        Err(e) => {
            let at = e.position.as_ref().map(|p| (p.line, p.column));
            report.problems.push(Problem::at(file, at, &e));
            None
        }
    }
}

/// A problem the core reported by pointer, placed in the text.
fn placed(file: &str, text: &[u8], e: &ContractError) -> Problem {
    Problem::at(file, Some(locate::locate(text, &e.path)), e)
}

fn check_tools(path: &PathBuf, text: &[u8]) -> Report {
    let file = name(path);
    let mut report = Report::new(&file, "tools");
    let Some(catalog) = parse(&file, text, &mut report) else { return report };
    // A registry {tools: [...]} or a bare list; every definition is checked, not just the first.
    let (tools, prefix) = match &catalog {
        Value::Object(entries) => match entries.iter().find(|(k, _)| k == "tools") {
            Some((_, list @ Value::Array(_))) => (list, "/tools"),
            _ => (&catalog, ""),
        },
        _ => (&catalog, ""),
    };
    let Value::Array(items) = tools else {
        let e = ContractError::new(
            agent_contract::Code::FieldType,
            "",
            "a tool catalog is a list of tool definitions or a registry {tools: [...]}",
        );
        report.problems.push(placed(&file, text, &e));
        return report;
    };
    for (i, item) in items.iter().enumerate() {
        report.checked += 1;
        if let Err(mut e) = api::define_tool::<&Value>(&item, None) {
            e.path = format!("{prefix}/{i}{}", e.path);
            report.problems.push(placed(&file, text, &e));
        }
    }
    if report.problems.is_empty() {
        // Names given twice: the registry's rule.
        if let Err(mut e) = api::create_registry::<&Value>(&tools, None) {
            e.path = format!("{prefix}{}", e.path);
            report.problems.push(placed(&file, text, &e));
        }
    }
    report
}

fn check_stream(path: &PathBuf, provider: &str, events: bool, text: &[u8]) -> Report {
    let file = name(path);
    let mut report = Report::new(&file, "responses");
    let mut stream = match ProviderStream::new::<&Value>(provider, None) {
        Ok(stream) => stream,
        Err(e) => {
            report.problems.push(Problem::at(&file, None, &e));
            return report;
        }
    };
    let bar = progress(text.len());
    // The line of the event being pushed, when the file is one event per line.
    let mut at = None;
    let mut outcome = Ok(());
    if events {
        let mut offset = 0;
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            offset += line.len() + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            at = Some((i + 1, 1));
            outcome = match std::str::from_utf8(line) {
                Ok(payload) => stream.push_host(&&Value::String(payload.to_owned())),
                // Not UTF-8: the strict parser says where (never a lossy decode).
                Err(_) => json::check(line, &Limits::default()).map_err(|e| stream.fail(e)),
            };
            if let Some(bar) = &bar {
                bar.set_position(offset.min(text.len()) as u64);
            }
            if outcome.is_err() {
                break;
            }
        }
    } else {
        for (i, chunk) in text.chunks(64 << 10).enumerate() {
            outcome = stream.push_sse(chunk);
            if let Some(bar) = &bar {
                bar.set_position(((i + 1) * (64 << 10)).min(text.len()) as u64);
            }
            if outcome.is_err() {
                break;
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report.checked = 1;
    match outcome {
        Err(e) => report.problems.push(Problem::at(&file, at, &e)),
        Ok(()) => match stream.finish() {
            Ok(response) => report.result = Some(response),
            Err(e) => report.problems.push(Problem::at(&file, None, &e)),
        },
    }
    report
}

fn diff(old_path: &PathBuf, old: &[u8], new_path: &PathBuf, new: &[u8]) -> Report {
    let (old_file, new_file) = (name(old_path), name(new_path));
    let mut report = Report::new(&new_file, "tools");
    let (Some(a), Some(b)) = (parse(&old_file, old, &mut report), parse(&new_file, new, &mut report)) else {
        return report;
    };
    match api::diff_catalogs::<&Value>(&&a, &&b) {
        Ok(result) => {
            report.problems.extend(report::bump_problems(&new_file, new, &b, &result));
            if let Some(Value::Array(tools)) = result.get("tools") {
                report.checked = tools.len();
            }
            report.result = Some(result);
        }
        Err(e) => {
            // The core says which side (`/old/...`, `/new/...`).
            let (file, text) = if e.path.starts_with("/old") { (&old_file, old) } else { (&new_file, new) };
            let mut inner = e.clone();
            inner.path = e.path.trim_start_matches("/old").trim_start_matches("/new").to_owned();
            let mut problem = placed(file, text, &inner);
            problem.path = e.path.clone();
            report.problems.push(problem);
        }
    }
    report
}
