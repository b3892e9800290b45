//! Solves Abapa's tiers from 0 seeds up as `tbgen abapa` does (default rules,
//! or the thesis rules when the second argument says `thesis`), without writing
//! tables, and prints what `scripts/abapa-reference.c` prints:
//! the seconds solving took, the positions, and a hash of every position's
//! value that does not depend on how positions are numbered.
//! `scripts/bench-abapa-vs-c.sh` compares the two.
//!
//! `cargo run --release -p generator --example abapa_solve -- 16 [thesis]`

use games::abapa::{Abapa, Rules};
use generator::Progress;
use generator::abapa::{solve_abapa, values_hash};
use std::time::Duration;

fn main() -> anyhow::Result<()> {
    let max_seeds: u32 = std::env::args().nth(1).map_or(Ok(16), |n| n.parse())?;
    let rules = Rules::parse(std::env::args().nth(2).as_deref())?;
    let game = Abapa::new(rules, max_seeds);
    let (mut seconds, mut positions, mut hash) = (Duration::ZERO, 0u64, 0u64);
    solve_abapa(&game, &Progress::hidden(), |n, values, took| {
        seconds += took;
        positions += values.len() as u64;
        hash = hash.wrapping_add(values_hash(n, values));
        Ok(())
    })?;
    println!("{:.3} {positions} {hash:016x}", seconds.as_secs_f64());
    Ok(())
}
