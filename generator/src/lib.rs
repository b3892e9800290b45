//! `tbgen`'s library: solvers, output of table files, progress.

pub mod layered;
pub mod output;
pub mod progress;

pub use layered::solve_layered;
pub use output::{Summary, WriteOptions, write_tier};
pub use progress::Progress;

use games::Layered;
use std::time::Instant;

/// Solves and writes every tier of a layered single-tier game such as Euler.
pub fn generate_layered<G: Layered>(game: &G, options: &WriteOptions, progress: &Progress) -> anyhow::Result<Vec<Summary>> {
    game.tiers()
        .into_iter()
        .map(|tier| {
            let started = Instant::now();
            let codes = solve_layered(game, tier, progress);
            write_tier(game, tier, &codes, started.elapsed(), Vec::new(), options)
        })
        .collect()
}
