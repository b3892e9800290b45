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
//!
//! Moves may leave the tier (a capture in chess) into tiers solved before, whose
//! values are known from the start: a move to a loss in `n` there makes a win in
//! `n + 1` that waits for its ply; a move to a draw there means the position can
//! never be lost; a move to a win in `n` there only makes a loss at least `n + 1`.

use crate::progress::Progress;
use games::{Game, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

const UNDECIDED: u16 = games::value::NO_POSITION;

/// The moves of a tier turned around: for every slot, the slots that move into it,
/// once per move (so a slot reached by two moves is listed twice).
#[derive(Debug)]
pub struct ReverseGraph {
    starts: Vec<usize>,
    predecessors: Vec<u32>,
    /// Moves out of every slot that must turn out wins for the opponent before the
    /// slot is lost: moves inside the tier, and moves out of it to a draw or a win
    /// (which never do).
    out_degree: Vec<u32>,
    /// What the moves out of the tier say about every slot.
    outside: Vec<Outside>,
}

/// What a slot's moves into earlier tiers settle.
#[derive(Debug, Clone, Copy, Default)]
struct Outside {
    /// The fastest win through such a move.
    win: Option<u16>,
    /// The longest loss through such a move: a loss is at least this long.
    loss_at_least: u16,
}

/// The values of positions in earlier tiers (none for single-tier games).
pub type Solved<'a, P> = &'a (dyn Fn(&P) -> Value + Sync);

impl ReverseGraph {
    /// Builds the graph from forward moves. Moves into other tiers are valued by
    /// `solved`.
    pub fn build<G: Game>(game: &G, tier: u32, solved: Solved<G::Position>) -> ReverseGraph {
        let size = game.index_size(tier);
        assert!(
            size <= u64::from(u32::MAX),
            "tier too large for a 32-bit reverse graph"
        );
        let (children, outside): (Vec<(Vec<u32>, u32)>, Vec<Outside>) = (0..size)
            .into_par_iter()
            .map(|index| {
                let mut inside = Vec::new();
                let mut draws = 0;
                let mut outside = Outside::default();
                let Some(position) = game.position_at(tier, index) else {
                    return ((inside, draws), outside);
                };
                if game.end_value(&position).is_some() {
                    return ((inside, draws), outside);
                }
                for mv in game.moves(&position) {
                    let child = game.play(&position, &mv);
                    if game.tier_of(&child.position) == tier {
                        inside.push(game.index(&child.position) as u32);
                        continue;
                    }
                    match child.value_for_mover(solved(&child.position)) {
                        Value::Loss(n) => outside.loss_at_least = outside.loss_at_least.max(n),
                        // A win or a draw out of the tier: the position is never lost,
                        // so this move is counted and never turns into an opponent win.
                        Value::Win(n) => {
                            outside.win = Some(outside.win.map_or(n, |w| w.min(n)));
                            draws += 1;
                        }
                        _ => draws += 1,
                    }
                }
                ((inside, draws), outside)
            })
            .unzip();
        let out_degree = children
            .iter()
            .map(|(c, draws)| c.len() as u32 + draws)
            .collect();
        let children: Vec<Vec<u32>> = children.into_iter().map(|(c, _)| c).collect();
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
        ReverseGraph {
            starts,
            predecessors,
            out_degree,
            outside,
        }
    }

    pub fn predecessors(&self, slot: u32) -> &[u32] {
        &self.predecessors[self.starts[slot as usize]..self.starts[slot as usize + 1]]
    }
}

/// Solves one tier of a win/loss/draw game whose moves stay inside the tier;
/// returns the value code of every slot.
pub fn solve_retrograde<G: Game>(game: &G, tier: u32, progress: &Progress) -> Vec<u16> {
    let no_other_tiers =
        |p: &G::Position| -> Value { panic!("{}: a move left the tier to {p:?}", game.id()) };
    solve_retrograde_tier(game, tier, &no_other_tiers, progress)
}

/// Solves one tier whose moves may lead into earlier tiers, valued by `solved`;
/// returns the value code of every slot.
pub fn solve_retrograde_tier<G: Game>(
    game: &G,
    tier: u32,
    solved: Solved<G::Position>,
    progress: &Progress,
) -> Vec<u16> {
    let size = game.index_size(tier) as usize;
    let graph = ReverseGraph::build(game, tier, solved);
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
    // Wins through a move into an earlier tier wait for their ply; so do positions
    // with no move inside the tier, lost through their longest move out of it.
    for (slot, outside) in graph.outside.iter().enumerate() {
        let slot = slot as u32;
        if let Some(n) = outside.win {
            pending.entry(n).or_default().push((slot, Value::Win(n)));
        } else if graph.out_degree[slot as usize] == 0 && outside.loss_at_least > 0 {
            let n = outside.loss_at_least;
            pending.entry(n).or_default().push((slot, Value::Loss(n)));
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
        let delayed: Mutex<Vec<(u32, u16)>> = Mutex::default();
        let next: Vec<u32> = frontier
            .par_iter()
            .flat_map_iter(|&slot| {
                let value = Value::from_code(
                    game.value_kind(),
                    codes[slot as usize].load(Ordering::Relaxed),
                );
                let decide = &decide;
                let remaining = &remaining;
                let graph = &graph;
                let delayed = &delayed;
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
                            let floor = graph.outside[parent as usize].loss_at_least;
                            if last && floor > ply + 1 {
                                // A move out of the tier holds out longer.
                                delayed
                                    .lock()
                                    .expect("no panic while held")
                                    .push((parent, floor));
                                return None;
                            }
                            (last && decide(parent, Value::Loss(ply + 1))).then_some(parent)
                        }
                        _ => None,
                    })
            })
            .collect();
        for (slot, n) in delayed.into_inner().expect("no panic while held") {
            pending.entry(n).or_default().push((slot, Value::Loss(n)));
        }
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
