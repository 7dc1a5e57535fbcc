//! `check sessions` and `check rows`: many files, checked in parallel, each streamed through the
//! core's incremental checker, reported in path order whatever finished first.
//!
//! PATH arguments are files, directories (walked recursively for `*.jsonl` and `*.jsonl.gz`),
//! shell globs, or `-` (standard input). A `.gz` file is decompressed as it is read. Each worker
//! takes the next file from a shared index, feeds it in 256 KiB reads to the core, and hands its
//! problems to the printer, which prints the files in path order as soon as every file before
//! them is done: the output is the same for any `--jobs`, and what waits to be printed is the
//! problems of files finished early, never their text.
//!
//! Memory: per worker, one read buffer (256 KiB), one decompressor (about 40 KiB), and the
//! core's reader: the current line (at most `maxBytes` + 1 bytes, 4 MiB by default: a longer line
//! is reported and skipped, not held) and the state the rules between lines need, which grows
//! with the number of entries of the one session file being read (ids, parents, tool call ids),
//! never with its bytes or the corpus.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use agent_contract::api;
use agent_contract::value::{write_json, Number, Value};

/// What the files hold.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Session files (`checkSession` line by line, incrementally).
    Sessions { pi: bool, strict: bool },
    /// Chat dataset rows, one per line (`checkChatRowsJsonl`, one line at a time).
    Rows { strict: bool },
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Human,
    Json,
    Jsonl,
}

/// One input: a file, or standard input (`-`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Input {
    /// The name reports carry: the path as found, or `<stdin>`.
    pub name: String,
    pub path: Option<PathBuf>,
}

/// One problem of one file.
struct Found {
    line: usize,
    code: String,
    path: String,
    message: String,
}

/// One file's outcome: what was checked and found, or why it could not be read.
struct Outcome {
    checked: usize,
    bytes: u64,
    problems: Vec<Found>,
    error: Option<String>,
}

/// The inputs the PATH arguments name, sorted by name, each once. A path that names nothing, a
/// glob that matches nothing, or a walk that fails is a usage or I/O error (exit 2).
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Input { name: "<stdin>".to_owned(), path: None });
            continue;
        }
        if path.exists() {
            add(path, true, &mut out)?;
            continue;
        }
        let pattern = path.to_string_lossy();
        if !pattern.contains(['*', '?', '[']) {
            return Err(format!("{}: no such file or directory", path.display()));
        }
        let matches = glob::glob(&pattern).map_err(|e| format!("{pattern}: {e}"))?;
        let before = out.len();
        for m in matches {
            let m = m.map_err(|e| format!("{pattern}: {e}"))?;
            add(&m, true, &mut out)?;
        }
        if out.len() == before {
            return Err(format!("{pattern}: no file matches"));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn is_corpus_file(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
}

/// A file named outright is taken whatever its name; a directory's files only when they are
/// `.jsonl` or `.jsonl.gz`. Symbolic links to directories are not followed (no cycles).
fn add(path: &Path, named: bool, out: &mut Vec<Input>) -> Result<(), String> {
    let meta = if named { std::fs::metadata(path) } else { std::fs::symlink_metadata(path) }
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            add(&entry.path(), false, out)?;
        }
    } else if named || (meta.is_file() || meta.file_type().is_symlink()) && is_corpus_file(path) {
        out.push(Input { name: path.display().to_string(), path: Some(path.to_owned()) });
    }
    Ok(())
}

/// The worker count: `--jobs`, or every core. Builds without threads (WASI) check one file at a
/// time whatever is asked.
fn workers(jobs: Option<usize>, files: usize) -> usize {
    let wanted = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if cfg!(target_os = "wasi") {
        return 1;
    }
    wanted.clamp(1, files.max(1))
}

/// The files' bytes are counted as they are read (compressed bytes for a `.gz`), for the bar.
struct Counted<'a, R> {
    inner: R,
    bar: Option<&'a indicatif::ProgressBar>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(bar) = self.bar {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}

fn open<'a>(input: &Input, bar: Option<&'a indicatif::ProgressBar>) -> std::io::Result<Box<dyn Read + 'a>> {
    let raw: Box<dyn Read> = match &input.path {
        None => Box::new(std::io::stdin().lock()),
        Some(path) => Box::new(std::fs::File::open(path)?),
    };
    let counted = Counted { inner: raw, bar };
    if input.name.ends_with(".gz") {
        // Every member of the file, as `gzip -d` reads a concatenation.
        Ok(Box::new(flate2::bufread::MultiGzDecoder::new(std::io::BufReader::with_capacity(64 << 10, counted))))
    } else {
        Ok(Box::new(counted))
    }
}

fn options(kind: Kind) -> Value {
    let s = |x: &str| Value::String(x.to_owned());
    // Every problem of a file (a row), up to the core's ceiling.
    let ceiling = agent_contract::input::limits::MAX_ISSUES_CEILING as f64;
    let max = ("maxIssues".to_owned(), Value::Number(Number { value: ceiling, text: None }));
    match kind {
        Kind::Sessions { pi, strict } => Value::Object(vec![
            ("dialect".to_owned(), s(if pi { "pi" } else { "seed" })),
            ("strict".to_owned(), Value::Bool(strict)),
            max,
        ]),
        Kind::Rows { strict } => Value::Object(vec![("strict".to_owned(), Value::Bool(strict)), max]),
    }
}

fn check_one(
    kind: Kind,
    input: &Input,
    options: &Value,
    buf: &mut [u8],
    bar: Option<&indicatif::ProgressBar>,
) -> Outcome {
    match kind {
        Kind::Sessions { .. } => check_session_file(input, options, buf, bar),
        Kind::Rows { .. } => check_rows_file(input, options, buf.len(), bar),
    }
}

fn text_of(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    }
}

/// One dataset file, line by line: each line (with its line end, so a blank line is the core's
/// `ROW_LINE_BLANK`) through `checkChatRowsJsonl`, its line number the file's. Holds one line.
fn check_rows_file(input: &Input, options: &Value, capacity: usize, bar: Option<&indicatif::ProgressBar>) -> Outcome {
    use std::io::BufRead;
    let mut outcome = Outcome { checked: 0, bytes: 0, problems: Vec::new(), error: None };
    let mut source = match open(input, bar) {
        Ok(source) => std::io::BufReader::with_capacity(capacity, source),
        Err(e) => {
            outcome.error = Some(format!("{}: {e}", input.name));
            return outcome;
        }
    };
    let mut line = Vec::new();
    let mut n = 0;
    loop {
        line.clear();
        match source.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(got) => outcome.bytes += got as u64,
            Err(e) => {
                outcome.error = Some(format!("{}: {e}", input.name));
                return outcome;
            }
        }
        n += 1;
        let reports = match api::check_chat_rows_jsonl::<&Value>(&line, Some(&options)) {
            Ok(Value::Array(reports)) => reports,
            Ok(_) => Vec::new(),
            Err(e) => {
                outcome.problems.push(Found {
                    line: n,
                    code: e.code.as_str().to_owned(),
                    path: e.path,
                    message: e.message,
                });
                continue;
            }
        };
        for report in reports {
            outcome.checked += 1;
            if let Some(Value::Array(problems)) = report.get("problems") {
                for p in problems {
                    outcome.problems.push(Found {
                        line: n,
                        code: text_of(p, "code"),
                        path: text_of(p, "path"),
                        message: text_of(p, "message"),
                    });
                }
            }
        }
    }
    outcome
}

/// One file through the core's incremental session reader, in reads of `buf`'s size.
fn check_session_file(input: &Input, options: &Value, buf: &mut [u8], bar: Option<&indicatif::ProgressBar>) -> Outcome {
    let mut outcome = Outcome { checked: 0, bytes: 0, problems: Vec::new(), error: None };
    let mut reader = match api::create_session_reader::<&Value>(Some(&options)) {
        Ok(reader) => reader,
        Err(e) => {
            outcome.error = Some(e.message);
            return outcome;
        }
    };
    let read = open(input, bar).and_then(|mut source| loop {
        let n = match source.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Err(e),
        };
        if n == 0 {
            break Ok(());
        }
        outcome.bytes += n as u64;
        reader.push(&buf[..n]);
    });
    if let Err(e) = read {
        outcome.error = Some(format!("{}: {e}", input.name));
        return outcome;
    }
    let report = reader.finish();
    if let Some(Value::Number(n)) = report.get("entries") {
        outcome.checked = n.value as usize;
    }
    if let Some(Value::Array(problems)) = report.get("problems") {
        for p in problems {
            let text = |k: &str| match p.get(k) {
                Some(Value::String(v)) => v.clone(),
                _ => String::new(),
            };
            let line = match p.get("line") {
                Some(Value::Number(n)) => n.value as usize,
                _ => 0,
            };
            outcome.problems.push(Found { line, code: text("code"), path: text("path"), message: text("message") });
        }
    }
    if report.get("truncated") == Some(&Value::Bool(true)) {
        outcome.problems.push(Found {
            line: 0,
            code: "INPUT_TOO_LARGE".to_owned(),
            path: String::new(),
            message: "more than 10000 problems: the first 10000 are listed".to_owned(),
        });
    }
    // Path then line: the core reports lines in order; a file-level problem (line 0) comes first.
    outcome.problems.sort_by_key(|p| p.line);
    outcome
}

/// Totals for the summary.
#[derive(Default)]
struct Totals {
    files: usize,
    files_with_problems: usize,
    checked: usize,
    problems: usize,
    bytes: u64,
    errors: usize,
}

/// Prints outcomes in input order as they become printable.
struct Printer {
    next: usize,
    waiting: BTreeMap<usize, Outcome>,
    totals: Totals,
    out: std::io::BufWriter<crate::output::Stdout>,
    /// `--format json`: the problems, printed as one document at the end.
    document: Vec<Value>,
}

fn number(n: f64) -> Value {
    Value::Number(Number { value: n, text: None })
}

fn problem_value(file: &str, p: &Found) -> Value {
    let s = |x: &str| Value::String(x.to_owned());
    let mut entries = vec![("file".to_owned(), s(file))];
    if p.line > 0 {
        entries.push(("line".to_owned(), number(p.line as f64)));
    }
    entries.push(("code".to_owned(), s(&p.code)));
    entries.push(("path".to_owned(), s(&p.path)));
    entries.push(("message".to_owned(), s(&p.message)));
    Value::Object(entries)
}

impl Printer {
    fn print(&mut self, input: &Input, outcome: Outcome, format: Output) -> std::io::Result<()> {
        let t = &mut self.totals;
        t.files += 1;
        t.checked += outcome.checked;
        t.bytes += outcome.bytes;
        t.problems += outcome.problems.len();
        if !outcome.problems.is_empty() {
            t.files_with_problems += 1;
        }
        if let Some(error) = &outcome.error {
            t.errors += 1;
            eprintln!("agent-contract: {error}");
            return Ok(());
        }
        for p in &outcome.problems {
            match format {
                Output::Human => {
                    let place = if p.line > 0 { format!("{}:{}", input.name, p.line) } else { input.name.clone() };
                    let at = if p.path.is_empty() { String::new() } else { format!(" at {}", p.path) };
                    writeln!(self.out, "{place}: {}{at}: {}", p.code, p.message)?;
                }
                Output::Jsonl => {
                    let mut text = String::new();
                    write_json(&mut text, &problem_value(&input.name, p));
                    writeln!(self.out, "{text}")?;
                }
                Output::Json => self.document.push(problem_value(&input.name, p)),
            }
        }
        Ok(())
    }

    fn summary(&mut self, what: &str, format: Output) -> std::io::Result<()> {
        let t = &self.totals;
        let fields = vec![
            ("files".to_owned(), number(t.files as f64)),
            ("filesWithProblems".to_owned(), number(t.files_with_problems as f64)),
            ("unreadable".to_owned(), number(t.errors as f64)),
            ("checked".to_owned(), number(t.checked as f64)),
            ("problems".to_owned(), number(t.problems as f64)),
            ("bytes".to_owned(), number(t.bytes as f64)),
        ];
        match format {
            Output::Human => {
                let verdict = match t.problems {
                    // Not "ok" when a file could not be read: nothing is known of it.
                    0 if t.errors > 0 => "no problems in the files read".to_owned(),
                    0 => "ok".to_owned(),
                    1 => "1 problem".to_owned(),
                    n => format!("{n} problems"),
                };
                let unreadable = if t.errors > 0 { format!(", {} unreadable", t.errors) } else { String::new() };
                writeln!(
                    self.out,
                    "{verdict} ({} files, {} with problems{unreadable}; {} {what} checked, {:.1} MB)",
                    t.files,
                    t.files_with_problems,
                    t.checked,
                    t.bytes as f64 / 1e6
                )?;
            }
            Output::Jsonl => {
                let mut text = String::new();
                write_json(&mut text, &Value::Object(vec![("summary".to_owned(), Value::Object(fields))]));
                writeln!(self.out, "{text}")?;
            }
            Output::Json => {
                let mut entries = vec![("ok".to_owned(), Value::Bool(t.problems == 0 && t.errors == 0))];
                // `problems` is the list here; its count is the list's length.
                entries.extend(fields.into_iter().filter(|(k, _)| k != "problems"));
                entries.push(("problems".to_owned(), Value::Array(std::mem::take(&mut self.document))));
                let mut text = String::new();
                write_json(&mut text, &Value::Object(entries));
                writeln!(self.out, "{text}")?;
            }
        }
        self.out.flush()
    }
}

fn bar(total: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {elapsed} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// Checks every input with `jobs` workers; the exit code: 0 no problem, 1 problems, 2 a file
/// could not be read (or standard output failed).
pub fn run(kind: Kind, paths: &[PathBuf], jobs: Option<usize>, format: Output) -> Result<u8, String> {
    let inputs = expand(paths)?;
    let total: u64 =
        inputs.iter().filter_map(|i| i.path.as_ref()).filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let bar = bar(total);
    let options = options(kind);
    let next = AtomicUsize::new(0);
    let printer = Mutex::new(Printer {
        next: 0,
        waiting: BTreeMap::new(),
        totals: Totals::default(),
        out: std::io::BufWriter::with_capacity(64 << 10, crate::output::stdout()),
        document: Vec::new(),
    });
    let failed_output = Mutex::new(None::<std::io::Error>);
    let work = || {
        let mut buf = vec![0u8; 256 << 10];
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(input) = inputs.get(i) else { break };
            let outcome = check_one(kind, input, &options, &mut buf, bar.as_ref());
            let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
            p.waiting.insert(i, outcome);
            while let Some(ready) = {
                let n = p.next;
                p.waiting.remove(&n)
            } {
                let n = p.next;
                p.next += 1;
                if let Err(e) = p.print(&inputs[n], ready, format) {
                    failed_output.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                }
            }
            if let Some(bar) = &bar {
                let t = &p.totals;
                bar.set_message(format!("{}/{} files, {} problems", t.files, inputs.len(), t.problems));
            }
        }
    };
    let n = workers(jobs, inputs.len());
    std::thread::scope(|scope| {
        // The calling thread is a worker too: a build without threads runs just that one.
        for _ in 1..n {
            scope.spawn(work);
        }
        work();
    });
    if let Some(bar) = &bar {
        bar.finish();
    }
    let mut p = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    let what = match kind {
        Kind::Sessions { .. } => "entries",
        Kind::Rows { .. } => "rows",
    };
    let written = p.summary(what, format);
    if let Some(e) = failed_output.into_inner().unwrap_or_else(|e| e.into_inner()).or(written.err()) {
        return Err(format!("standard output: {e}"));
    }
    Ok(if p.totals.errors > 0 {
        2
    } else if p.totals.problems > 0 {
        1
    } else {
        0
    })
}
