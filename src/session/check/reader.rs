//! The incremental session reader (`createSessionChecker`): the line check of `super` fed in
//! chunks, so a host can check a file larger than it wants to hold as one string.

use super::{line_too_large, memchr_lf, problem_value, Checker};
use crate::input::options::Options;
use crate::value::Value;

/// The incremental reader: a session text in chunks of any size (cut anywhere, even inside a
/// character), problems out as their lines complete, the report at the end. It holds at most
/// one line (up to `maxBytes` + 1 bytes: a longer line is reported when it passes the limit and
/// skipped to its end) plus what the rules between lines need, so a 100 MB file needs neither a
/// 100 MB string in the host nor in the core. Its report equals `checkSession`'s on the whole.
pub struct SessionReader {
    checker: Checker,
    /// The start of the current line (without its line end), and its offset in the text.
    pending: Vec<u8>,
    pending_offset: usize,
    /// The current line passed `maxBytes`: its problem is recorded, its bytes are dropped.
    skipping: bool,
    /// Problems already returned by `push`.
    returned: usize,
    /// Bytes of the chunks before this one.
    consumed: usize,
    /// The first error is final (options); `finish` has run.
    finished: bool,
}

impl SessionReader {
    pub fn new(options: &Options) -> SessionReader {
        SessionReader {
            checker: Checker::new(options, false),
            pending: Vec::new(),
            pending_offset: 0,
            skipping: false,
            returned: 0,
            consumed: 0,
            finished: false,
        }
    }

    /// Feeds a chunk; returns the problems of the lines it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Value {
        if self.finished {
            return Value::Array(Vec::new());
        }
        let max = self.checker.options.limits.max_bytes;
        let mut start = 0;
        while let Some(i) = memchr_lf(&chunk[start..]) {
            let end = start + i;
            if self.skipping {
                self.skipping = false;
            } else if self.pending.is_empty() {
                // The whole line is in this chunk: checked where it is, not copied. (A line
                // longer than `maxBytes` is the checker's own problem, as in `checkSession`.)
                let mut line = &chunk[start..end];
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                self.checker.line(line, self.pending_offset);
            } else {
                self.pending.extend_from_slice(&chunk[start..end]);
                let mut line = std::mem::take(&mut self.pending);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.checker.line(&line, self.pending_offset);
                line.clear();
                self.pending = line;
            }
            start = end + 1;
            self.pending_offset = self.consumed + start;
        }
        if !self.skipping {
            self.pending.extend_from_slice(&chunk[start..]);
            // One byte more than the limit may be the CR of a CRLF line end still to come.
            if self.pending.len() > max + 1 {
                self.checker.lines += 1;
                let n = self.checker.lines;
                let e = line_too_large(self.pending_offset, n, max);
                self.checker.problem(n, e);
                self.pending = Vec::new();
                self.skipping = true;
            }
        }
        self.consumed += chunk.len();
        self.new_problems()
    }

    /// Every problem found so far.
    pub fn problems_so_far(&self) -> Value {
        Value::Array(self.checker.problems.iter().map(problem_value).collect())
    }

    fn new_problems(&mut self) -> Value {
        let fresh = self.checker.problems[self.returned..].iter().map(problem_value).collect();
        self.returned = self.checker.problems.len();
        Value::Array(fresh)
    }

    /// The end of the text: the last line (if it has no line end) and the report.
    pub fn finish(&mut self) -> Value {
        if !self.finished {
            self.finished = true;
            if !self.skipping && !self.pending.is_empty() {
                let mut line = std::mem::take(&mut self.pending);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.checker.line(&line, self.pending_offset);
            }
            self.checker.finish();
        }
        self.checker.report()
    }
}
