//! `tbgen`'s library: solvers, output of table files, progress.

pub mod abapa;
pub mod dots;
pub mod grundy;
pub mod layered;
pub mod output;
pub mod progress;
pub mod retrograde;

pub use layered::solve_layered;
pub use output::{Summary, WriteOptions, write_tier, write_tier_with};
pub use progress::Progress;
pub use retrograde::{solve_retracting_tier, solve_retrograde, solve_retrograde_tier};

use games::dots::Dots;
use games::{Game, Layered};
use std::time::Instant;

/// Solves every tier with `solve` and writes it.
fn generate<G: Game>(
    game: &G,
    options: &WriteOptions,
    solve: impl Fn(u32) -> Vec<u16>,
) -> anyhow::Result<Vec<Summary>> {
    game.tiers()
        .into_iter()
        .map(|tier| {
            let started = Instant::now();
            let codes = solve(tier);
            write_tier(game, tier, &codes, started.elapsed(), options)
        })
        .collect()
}

/// Solves and writes an acyclic game layer by layer (Euler).
pub fn generate_layered<G: Layered>(
    game: &G,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    generate(game, options, |tier| solve_layered(game, tier, progress))
}

/// Solves and writes a win/loss/draw game with cycles by retrograde analysis (L-Game).
pub fn generate_retrograde<G: Game>(
    game: &G,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    generate(game, options, |tier| solve_retrograde(game, tier, progress))
}

/// Solves and writes a dots-and-boxes board with the dedicated solver.
pub fn generate_dots(
    game: &Dots,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let started = Instant::now();
    let scores = dots::solve_dots(game, progress);
    let code = |slot: u64| dots::score_code(scores[slot as usize]);
    Ok(vec![write_tier_with(
        game,
        0,
        &code,
        started.elapsed(),
        options,
    )?])
}

/// Solves and writes every Abapa tier up to the game's `max_seeds`.
pub fn generate_abapa(
    game: &games::abapa::Abapa,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let mut summaries = Vec::new();
    abapa::solve_abapa(game, progress, |n, values, took| {
        let code = |slot: u64| games::Value::Score(i16::from(values[slot as usize])).code();
        summaries.push(write_tier_with(game, n, &code, took, options)?);
        Ok(())
    })?;
    Ok(summaries)
}

/// Solves every tier of a chess ending, smallest material first, each tier reading
/// the tiers its captures lead to from memory; calls `done` with each tier's codes
/// and solve time as it is solved.
pub fn solve_endgame(
    game: &games::endgame::Endgame,
    progress: &Progress,
    mut done: impl FnMut(u32, &[u16], std::time::Duration) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vec<u16>>> {
    let mut solved: Vec<Vec<u16>> = Vec::new();
    for tier in game.tiers() {
        let started = Instant::now();
        let earlier = |board: &games::chess::Board| -> games::Value {
            let code = solved[game.tier_of(board) as usize][game.index(board) as usize];
            games::Value::from_code(game.value_kind(), code).expect("a solved legal position")
        };
        let codes = solve_retracting_tier(game, tier, &earlier, progress);
        done(tier, &codes, started.elapsed())?;
        solved.push(codes);
    }
    Ok(solved)
}

/// Solves and writes every tier of a chess ending, smallest material first.
pub fn generate_endgame(
    game: &games::endgame::Endgame,
    options: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let mut summaries = Vec::new();
    solve_endgame(game, progress, |tier, codes, took| {
        let code = |slot: u64| codes[slot as usize];
        let notes = chess_sides(game, codes);
        summaries.push(output::write_tier_noting(
            game, tier, &code, took, options, notes,
        )?);
        Ok(())
    })?;
    Ok(summaries)
}

/// For each side to move (slots alternate White, Black): legal positions, wins,
/// draws, losses and the longest mate in moves, as chess players count them.
fn chess_sides(game: &games::endgame::Endgame, codes: &[u16]) -> Vec<(String, String)> {
    ["white", "black"]
        .iter()
        .enumerate()
        .map(|(side, name)| {
            let (mut positions, mut wins, mut draws, mut losses, mut longest) = (0u64, 0u64, 0u64, 0u64, 0u16);
            for &code in codes.iter().skip(side).step_by(2) {
                let Some(value) = games::Value::from_code(game.value_kind(), code) else {
                    continue;
                };
                match value {
                    games::Value::Win(_) => wins += 1,
                    games::Value::Loss(_) => losses += 1,
                    _ => draws += 1,
                }
                longest = longest.max(game.distance_in_moves(value).unwrap_or(0));
                positions += 1;
            }
            (
                format!("{name} to move"),
                format!("{positions} positions: {wins} wins, {draws} draws, {losses} losses; longest mate {longest} moves"),
            )
        })
        .collect()
}
