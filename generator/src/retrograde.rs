//! Retrograde analysis for win/loss/draw games with cycles.
//!
//! Positions whose game is over are decided first. Then, ply by ply, the
//! predecessors of the positions just decided are examined: a predecessor of a loss
//! in `n` is a win in `n + 1` (the first such loss found is the nearest, so wins are
//! fastest); a predecessor whose last undecided move has just turned out to be a win
//! for the opponent is a loss in `n + 1` (its slowest). What is never decided is a
//! draw. Each ply's frontier is processed in parallel through atomics; every write
//! in a ply stores a value that depends only on the ply, so the result is the same
//! for any number of threads.

use crate::progress::Progress;
use games::{Game, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

const UNDECIDED: u16 = games::value::NO_POSITION;

/// The moves of a tier turned around: for every slot, the slots that move into it,
/// once per move (so a slot reached by two moves is listed twice).
#[derive(Debug)]
pub struct ReverseGraph {
    starts: Vec<usize>,
    predecessors: Vec<u32>,
    /// Moves out of every slot.
    out_degree: Vec<u32>,
}

impl ReverseGraph {
    /// Builds the graph from forward moves. Every move must stay inside the tier.
    pub fn build<G: Game>(game: &G, tier: u32) -> ReverseGraph {
        let size = game.index_size(tier);
        assert!(
            size <= u64::from(u32::MAX),
            "tier too large for a 32-bit reverse graph"
        );
        let children: Vec<Vec<u32>> = (0..size)
            .into_par_iter()
            .map(|index| {
                let Some(position) = game.position_at(tier, index) else {
                    return Vec::new();
                };
                if game.end_value(&position).is_some() {
                    return Vec::new();
                }
                game.moves(&position)
                    .iter()
                    .map(|mv| {
                        let child = game.play(&position, mv).position;
                        assert_eq!(
                            game.tier_of(&child),
                            tier,
                            "{}: a move left the tier",
                            game.id()
                        );
                        game.index(&child) as u32
                    })
                    .collect()
            })
            .collect();
        let mut starts = vec![0usize; size as usize + 1];
        for &child in children.iter().flatten() {
            starts[child as usize + 1] += 1;
        }
        for i in 0..size as usize {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut predecessors = vec![0u32; starts[size as usize]];
        for (parent, list) in children.iter().enumerate() {
            for &child in list {
                predecessors[fill[child as usize]] = parent as u32;
                fill[child as usize] += 1;
            }
        }
        let out_degree = children.iter().map(|c| c.len() as u32).collect();
        ReverseGraph {
            starts,
            predecessors,
            out_degree,
        }
    }

    pub fn predecessors(&self, slot: u32) -> &[u32] {
        &self.predecessors[self.starts[slot as usize]..self.starts[slot as usize + 1]]
    }
}

/// Solves one tier of a win/loss/draw game whose moves stay inside the tier;
/// returns the value code of every slot.
pub fn solve_retrograde<G: Game>(game: &G, tier: u32, progress: &Progress) -> Vec<u16> {
    let size = game.index_size(tier) as usize;
    let graph = ReverseGraph::build(game, tier);
    let codes: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(UNDECIDED)).collect();
    let remaining: Vec<AtomicU32> = graph
        .out_degree
        .iter()
        .map(|&d| AtomicU32::new(d))
        .collect();

    // Positions whose game is over, waiting for the ply of their distance.
    let mut pending: BTreeMap<u16, Vec<(u32, Value)>> = BTreeMap::new();
    let ends: Vec<(u32, Value)> = (0..size as u64)
        .into_par_iter()
        .filter_map(|i| {
            let position = game.position_at(tier, i)?;
            game.end_value(&position).map(|v| (i as u32, v))
        })
        .collect();
    for (slot, value) in ends {
        match value.distance() {
            Some(n) => pending.entry(n).or_default().push((slot, value)),
            // A drawn end is a draw whatever happens: it decides no predecessor.
            None => codes[slot as usize].store(value.code(), Ordering::Relaxed),
        }
    }

    progress.start(&format!("{} plies", game.id()), 0);
    let decide = |slot: u32, value: Value| {
        codes[slot as usize]
            .compare_exchange(
                UNDECIDED,
                value.code(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
    };
    let mut frontier: Vec<u32> = Vec::new();
    let mut ply: u16 = 0;
    loop {
        if let Some(ends) = pending.remove(&ply) {
            for (slot, value) in ends {
                if decide(slot, value) {
                    frontier.push(slot);
                }
            }
        }
        if frontier.is_empty() && pending.is_empty() {
            break;
        }
        frontier.sort_unstable();
        let next: Vec<u32> = frontier
            .par_iter()
            .flat_map_iter(|&slot| {
                let value = Value::from_code(
                    game.value_kind(),
                    codes[slot as usize].load(Ordering::Relaxed),
                );
                let decide = &decide;
                let remaining = &remaining;
                graph
                    .predecessors(slot)
                    .iter()
                    .filter_map(move |&parent| match value {
                        Some(Value::Loss(_)) => {
                            decide(parent, Value::Win(ply + 1)).then_some(parent)
                        }
                        Some(Value::Win(_)) => {
                            let last =
                                remaining[parent as usize].fetch_sub(1, Ordering::Relaxed) == 1;
                            (last && decide(parent, Value::Loss(ply + 1))).then_some(parent)
                        }
                        _ => None,
                    })
            })
            .collect();
        frontier = next;
        ply += 1;
        progress.advance(1);
    }
    progress.finish();
    let draw = Value::Draw.code();
    (0..size)
        .into_par_iter()
        .map(|i| match codes[i].load(Ordering::Relaxed) {
            UNDECIDED if game.position_at(tier, i as u64).is_some() => draw,
            code => code,
        })
        .collect()
}
