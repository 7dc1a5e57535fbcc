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
    tally: Tally,
}

/// What the frames seen so far showed: taken one frame at a time as the decoder completes it
/// (a megabyte of blank lines is a million frames: gathered in a list first, they took a wasm
/// instance to 284 MB, found by the Node fuzzer).
#[derive(Default)]
struct Tally {
    frames: usize,
    problem_count: usize,
    problems: Vec<Value>,
}

impl Tally {
    fn take(&mut self, f: Frame) {
        if !f.ignored {
            self.frames += 1;
            return;
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

impl Purity {
    pub fn new(options: RpcOptions) -> Purity {
        Purity {
            decoder: Decoder::new(RpcOptions { on_malformed: super::options::OnMalformed::Ignore, ..options }).lazy(),
            tally: Tally::default(),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        let tally = &mut self.tally;
        self.decoder.push_each(chunk, &mut |frame| tally.take(frame));
    }

    /// `{pure, frames, problemCount, problems, truncated}`.
    pub fn finish(&mut self) -> Value {
        for frame in self.decoder.end() {
            self.tally.take(frame);
        }
        let t = &self.tally;
        let n = |x: usize| Value::Number(Number::from_f64(x as f64));
        Value::Object(vec![
            ("pure".to_owned(), Value::Bool(t.problem_count == 0)),
            ("frames".to_owned(), n(t.frames)),
            ("problemCount".to_owned(), n(t.problem_count)),
            ("problems".to_owned(), Value::Array(t.problems.clone())),
            ("truncated".to_owned(), Value::Bool(t.problem_count > MAX_PROBLEMS)),
        ])
    }
}
