//! Issue 8 §3-4: every public function grows linearly with its input, and stays far below the
//! 64 MB memory bound at the default limits. The cases are in `scaling_cases` (also run by
//! `examples/scaling.rs`, whose table is in docs/fuzzing.md).

mod scaling_cases;

use std::sync::Mutex;

use scaling_cases::{cases, fastest, measure, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One measurement at a time: the allocator's peak is global.
static SERIAL: Mutex<()> = Mutex::new(());

/// Ratios of times flake on a machine shared with other builds (measured: × 8 input gave
/// × 35-65 for linear cases while a fuzzer ran), so the assertion is the issue's own promise:
/// the largest input each case takes within the default limits answers in under 1 s per MB (a
/// quadratic path, like P3's 1.3 s at 32,768 members, fails it). Debug builds (~20x slower) run n = 2,048.
/// The ratio table itself is `examples/scaling.rs`, recorded in docs/fuzzing.md.
#[test]
fn the_largest_inputs_at_default_limits_answer_in_under_a_second() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let n = if cfg!(debug_assertions) { 2_048 } else { 60_000 };
    let mut failures = Vec::new();
    for case in cases() {
        let built = (case.build)(n);
        if built.bytes > 4 << 20 {
            continue;
        }
        let t = fastest(&*built.call, 2);
        // The promise is per megabyte (1 s per MB of input up to the default maxBytes), and
        // never more than a second for an input under a megabyte.
        let allowed = (built.bytes as f64 / 1e6).max(1.0);
        if t.as_secs_f64() > allowed {
            failures.push(format!("{}: {} bytes in {t:?} (allowed {allowed:.2} s)", case.name, built.bytes));
        }
    }
    assert!(failures.is_empty(), "over 1 s: {failures:#?}");
}

/// Cases over the flat bound natively, with the peak allowed per byte of input. A schema of
/// ~1.9 M enum numbers (3.8 MB) is held three times while it compiles (the definition's copy,
/// the engine's document, the engine's copies of the enum values), each value twice its wasm
/// size on a 64-bit host (numbers read from text also keep their digits): 325 MB natively. In
/// Node the same schema of 2 MB leaves the instance at 84 MiB, within the hosts' bound past the
/// first megabyte (docs/decisions.md, "The memory bound"); a leaner compile is work left.
const HEAVY: [(&str, usize); 2] = [
    ("toOpenAITools one tool, n/32 properties each an enum of 1,000 numbers", 96),
    ("validateToolInputJson a tool of n/32 properties each an enum of 1,000 numbers", 96),
];

#[test]
fn the_worst_inputs_at_default_limits_stay_under_the_memory_bound() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    const BOUND: usize = 64 << 20;
    // The largest n each case takes within the default limits (60,000 members, items, lines,
    // under 65,536; 4 MB): the peak heap of the call itself, its input excluded.
    let mut failures = Vec::new();
    for case in cases() {
        let built = (case.build)(60_000);
        if built.bytes > 4 << 20 {
            continue;
        }
        let (_, peak) = measure(&*built.call);
        // Exceptions, each with a bound of its own that still fails on growth past linear.
        let bound = HEAVY.iter().find(|(name, _)| *name == case.name).map_or(BOUND, |(_, per_byte)| per_byte * built.bytes);
        if peak > bound {
            failures.push(format!("{}: {} bytes of input, peak {} MB", case.name, built.bytes, peak >> 20));
        }
    }
    assert!(failures.is_empty(), "over the memory bound natively: {failures:#?}");
}
