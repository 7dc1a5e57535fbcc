//! `checkStdoutPurity`: every line of an agent's stdout that is not a protocol frame (seed 003:
//! "stdout is reserved for protocol frames"). The stream is decoded as the NDJSON decoder does
//! (same options); each ignored frame is one problem `{line, offset, code, reason}`.

use crate::value::{Number, Value};

use super::ndjson::{Decoder, Frame};
use super::options::RpcOptions;

/// Most problems listed; past it `truncated` is set (the count stays exact).
pub const MAX_PROBLEMS: usize = 1000;

pub struct Purity {
    decoder: Decoder,
    frames: usize,
    problem_count: usize,
    problems: Vec<Value>,
}

impl Purity {
    pub fn new(options: RpcOptions) -> Purity {
        Purity {
            decoder: Decoder::new(RpcOptions { on_malformed: super::options::OnMalformed::Ignore, ..options }).lazy(),
            frames: 0,
            problem_count: 0,
            problems: Vec::new(),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        let frames = self.decoder.push(chunk);
        self.take(frames);
    }

    fn take(&mut self, frames: Vec<Frame>) {
        for f in frames {
            if !f.ignored {
                self.frames += 1;
                continue;
            }
            self.problem_count += 1;
            if self.problems.len() < MAX_PROBLEMS {
                let n = |x: usize| Value::Number(Number::from_f64(x as f64));
                let p = f.classification.problem.expect("an ignored frame has a problem");
                self.problems.push(Value::Object(vec![
                    ("line".to_owned(), n(f.line)),
                    ("offset".to_owned(), n(f.offset)),
                    ("code".to_owned(), Value::String(p.code.as_str().to_owned())),
                    ("reason".to_owned(), Value::String(p.reason)),
                ]));
            }
        }
    }

    /// `{pure, frames, problemCount, problems, truncated}`.
    pub fn finish(&mut self) -> Value {
        let frames = self.decoder.end();
        self.take(frames);
        let n = |x: usize| Value::Number(Number::from_f64(x as f64));
        Value::Object(vec![
            ("pure".to_owned(), Value::Bool(self.problem_count == 0)),
            ("frames".to_owned(), n(self.frames)),
            ("problemCount".to_owned(), n(self.problem_count)),
            ("problems".to_owned(), Value::Array(self.problems.clone())),
            ("truncated".to_owned(), Value::Bool(self.problem_count > MAX_PROBLEMS)),
        ])
    }
}
