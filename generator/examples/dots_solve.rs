//! Solves a dots-and-boxes board as `tbgen dots` does, without writing its table,
//! and prints what `scripts/dots-loop.c` prints: the fastest of `RUNS` solves in
//! seconds, the net score of the empty board and an FNV-1a hash of every mask's
//! score. `scripts/bench-dots-vs-c.sh` compares the two.
//!
//! `cargo run --release -p generator --example dots_solve -- 3x3 [RUNS]`

use games::dots::Dots;
use generator::Progress;
use generator::dots::{scores_hash, solve_dots};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let size = args.next().unwrap_or_else(|| "3x3".into());
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let dots = Dots::parse_size(&size)?;
    let mut fastest = f64::INFINITY;
    let mut scores = Vec::new();
    for _ in 0..runs.max(1) {
        drop(scores);
        let started = Instant::now();
        scores = solve_dots(&dots, &Progress::hidden());
        fastest = fastest.min(started.elapsed().as_secs_f64());
    }
    println!("{fastest:.3} {} {:016x}", scores[0], scores_hash(&scores));
    Ok(())
}
