//! Time and peak heap of every public function on growing inputs (n, 2n, 4n, 8n): the table
//! in `docs/fuzzing.md` ("Time per MB"). Run in release:
//! `cargo run --release --example scaling [n] [filter]`.

#[path = "../tests/scaling_cases/mod.rs"]
mod scaling_cases;

use scaling_cases::{cases, fastest, measure, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let mut args = std::env::args().skip(1);
    let n0: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8192);
    let filter = args.next().unwrap_or_default();
    println!("| function and input | n | bytes | ms | ns/byte | ratio to n/2 | peak heap MB |");
    println!("|---|---|---|---|---|---|---|");
    for case in cases().into_iter().filter(|c| c.name.contains(&filter)) {
        let mut last = None;
        for k in [1, 2, 4, 8] {
            let n = n0 * k;
            let built = (case.build)(n);
            let t = fastest(&*built.call, 3);
            let (_, peak) = measure(&*built.call);
            let ratio = last.map_or(String::new(), |l: f64| format!("{:.2}", t.as_secs_f64() / l));
            println!(
                "| {} | {n} | {} | {:.2} | {:.1} | {ratio} | {:.1} |",
                case.name,
                built.bytes,
                t.as_secs_f64() * 1e3,
                t.as_nanos() as f64 / built.bytes as f64,
                peak as f64 / 1048576.0
            );
            last = Some(t.as_secs_f64());
        }
    }
}
