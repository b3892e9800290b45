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
use games::capability::Retract;
use games::{Game, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

const UNDECIDED: u16 = games::value::NO_POSITION;

/// Calls its second argument with every slot that moves into its first.
type Predecessors<'a> = &'a (dyn Fn(u32, &mut dyn FnMut(u32)) + Sync);

/// The values of positions in earlier tiers (none for single-tier games).
pub type Solved<'a, P> = &'a (dyn Fn(&P) -> Value + Sync);

/// What a slot's moves into earlier tiers settle.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Outside {
    /// The fastest win through such a move.
    pub(crate) win: Option<u16>,
    /// The longest loss through such a move: a loss is at least this long.
    pub(crate) loss_at_least: u16,
}

/// What one forward pass over a slot finds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Scan {
    pub(crate) legal: bool,
    /// The value of a position whose game is over.
    pub(crate) end: Option<Value>,
    /// Moves that must turn out wins for the opponent before the slot is lost:
    /// moves inside the tier, and moves out of it to a draw or a win (which never do).
    pub(crate) out_degree: u32,
    pub(crate) outside: Outside,
}

/// Looks at every move of the position at `index`, calling `inside` with the
/// position after each move that stays in the tier.
fn scan_slot<G: Game>(
    game: &G,
    tier: u32,
    index: u64,
    solved: Solved<G::Position>,
    mut inside: impl FnMut(&G::Position),
) -> Scan {
    let Some(position) = game.position_at(tier, index) else {
        return Scan::default();
    };
    let mut scan = Scan {
        legal: true,
        end: game.end_value(&position),
        ..Scan::default()
    };
    if scan.end.is_some() {
        return scan;
    }
    for mv in game.moves(&position) {
        let child = game.play(&position, &mv);
        if game.tier_of(&child.position) == tier {
            inside(&child.position);
            scan.out_degree += 1;
            continue;
        }
        match child.value_for_mover(solved(&child.position)) {
            Value::Loss(n) => {
                let floor = &mut scan.outside.loss_at_least;
                *floor = (*floor).max(n);
            }
            Value::Win(n) => {
                let win = &mut scan.outside.win;
                *win = Some(win.map_or(n, |w| w.min(n)));
                scan.out_degree += 1;
            }
            _ => scan.out_degree += 1,
        }
    }
    scan
}

/// The moves of a tier turned around: for every slot, the slots that move into it,
/// once per move (so a slot reached by two moves is listed twice).
#[derive(Debug)]
struct ReverseGraph {
    starts: Vec<usize>,
    predecessors: Vec<u32>,
}

impl ReverseGraph {
    /// Builds the graph from forward moves, with each slot's scan.
    fn build<G: Game>(
        game: &G,
        tier: u32,
        solved: Solved<G::Position>,
    ) -> (ReverseGraph, Vec<Scan>) {
        let size = game.index_size(tier);
        let (children, scans): (Vec<Vec<u32>>, Vec<Scan>) = (0..size)
            .into_par_iter()
            .map(|index| {
                let mut children = Vec::new();
                let scan = scan_slot(game, tier, index, solved, |child| {
                    children.push(game.index(child) as u32)
                });
                (children, scan)
            })
            .unzip();
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
        let graph = ReverseGraph {
            starts,
            predecessors,
        };
        (graph, scans)
    }

    fn predecessors(&self, slot: u32) -> &[u32] {
        &self.predecessors[self.starts[slot as usize]..self.starts[slot as usize + 1]]
    }
}

fn check_size<G: Game>(game: &G, tier: u32) -> usize {
    let size = game.index_size(tier);
    assert!(
        size <= u64::from(u32::MAX),
        "{} tier {tier}: too large for 32-bit slots",
        game.id()
    );
    size as usize
}

/// Solves one tier of a win/loss/draw game whose moves stay inside the tier;
/// returns the value code of every slot.
pub fn solve_retrograde<G: Game>(game: &G, tier: u32, progress: &Progress) -> Vec<u16> {
    let no_other_tiers =
        |p: &G::Position| -> Value { panic!("{}: a move left the tier to {p:?}", game.id()) };
    solve_retrograde_tier(game, tier, &no_other_tiers, progress)
}

/// Solves one tier whose moves may lead into earlier tiers, valued by `solved`,
/// with an explicit reverse graph; returns the value code of every slot.
pub fn solve_retrograde_tier<G: Game>(
    game: &G,
    tier: u32,
    solved: Solved<G::Position>,
    progress: &Progress,
) -> Vec<u16> {
    check_size(game, tier);
    let (graph, scans) = ReverseGraph::build(game, tier, solved);
    let counts = Counts::from_scans(scans.len(), |slot| scans[slot]);
    drop(scans);
    let predecessors = |slot: u32, visit: &mut dyn FnMut(u32)| {
        graph.predecessors(slot).iter().for_each(|&p| visit(p));
    };
    solve_plies(game, counts, &predecessors, progress)
}

/// Solves one tier like [`solve_retrograde_tier`], but finds predecessors by
/// un-moves instead of storing a reverse graph: a few bytes per slot.
pub fn solve_retracting_tier<G: Game>(
    game: &G,
    retract: &dyn Retract<G>,
    tier: u32,
    solved: Solved<G::Position>,
    progress: &Progress,
) -> Vec<u16> {
    let size = check_size(game, tier);
    let counts = Counts::from_scans(size, |slot| {
        scan_slot(game, tier, slot as u64, solved, |_| {})
    });
    let predecessors = |slot: u32, visit: &mut dyn FnMut(u32)| {
        let position = game
            .position_at(tier, u64::from(slot))
            .expect("a decided slot holds a position");
        retract.predecessors(tier, &position, &mut |parent| visit(parent as u32));
    };
    solve_plies(game, counts, &predecessors, progress)
}

/// Solves one tier of `size` slots from a scan of each slot and its
/// predecessors, however a solver finds them (the dedicated chess solver).
pub(crate) fn solve_by_scans<G: Game>(
    game: &G,
    size: usize,
    scan: impl Fn(usize) -> Scan + Sync,
    predecessors: Predecessors,
    progress: &Progress,
) -> Vec<u16> {
    assert!(
        size <= u32::MAX as usize,
        "{}: too large for 32-bit slots",
        game.id()
    );
    solve_plies(game, Counts::from_scans(size, scan), predecessors, progress)
}

/// What the plies keep of every slot besides its value code: 6 bytes, plus the
/// slots decided before the first ply.
struct Counts {
    /// Moves that must still turn out wins for the opponent before the slot is
    /// lost; `NO_SLOT` where the slot holds no position.
    remaining: Vec<AtomicU32>,
    /// The longest loss through a move out of the tier: a loss is at least this.
    floor: Vec<u16>,
    /// Slots whose value is known before the plies: ends, wins through a move
    /// out of the tier, positions lost through their longest move out of it.
    known: Vec<(u32, Value)>,
}

/// `Counts::remaining` of a slot that holds no position.
const NO_SLOT: u32 = u32::MAX;

/// Slots scanned per parallel piece.
const PIECE: usize = 1 << 12;

impl Counts {
    fn from_scans(size: usize, scan: impl Fn(usize) -> Scan + Sync) -> Counts {
        let mut remaining: Vec<AtomicU32> = (0..size).map(|_| AtomicU32::new(0)).collect();
        let mut floor = vec![0u16; size];
        let known: Vec<Vec<(u32, Value)>> = remaining
            .par_chunks_mut(PIECE)
            .zip(floor.par_chunks_mut(PIECE))
            .enumerate()
            .map(|(piece, (remaining, floor))| {
                let mut known = Vec::new();
                for (i, (remaining, floor)) in remaining.iter_mut().zip(floor).enumerate() {
                    let slot = piece * PIECE + i;
                    let scan = scan(slot);
                    *remaining.get_mut() = if scan.legal { scan.out_degree } else { NO_SLOT };
                    *floor = scan.outside.loss_at_least;
                    let value = match (scan.end, scan.outside) {
                        (Some(end), _) => Some(end),
                        (None, Outside { win: Some(n), .. }) => Some(Value::Win(n)),
                        (None, Outside { loss_at_least, .. })
                            if scan.legal && scan.out_degree == 0 && loss_at_least > 0 =>
                        {
                            Some(Value::Loss(loss_at_least))
                        }
                        _ => None,
                    };
                    if let Some(value) = value {
                        known.push((slot as u32, value));
                    }
                }
                known
            })
            .collect();
        Counts {
            remaining,
            floor,
            known: known.concat(),
        }
    }
}

/// The plies of retrograde analysis from the counts of every slot, given where to
/// find the slots that move into a slot.
fn solve_plies<G: Game>(
    game: &G,
    counts: Counts,
    predecessors: Predecessors,
    progress: &Progress,
) -> Vec<u16> {
    let Counts {
        remaining,
        floor,
        known,
    } = counts;
    let codes: Vec<AtomicU16> = (0..remaining.len())
        .map(|_| AtomicU16::new(UNDECIDED))
        .collect();
    // Known values wait for the ply of their distance; a drawn end is a draw
    // whatever happens and decides no predecessor.
    let mut pending: BTreeMap<u16, Vec<(u32, Value)>> = BTreeMap::new();
    for (slot, value) in known {
        match value.distance() {
            Some(n) => pending.entry(n).or_default().push((slot, value)),
            None => codes[slot as usize].store(value.code(), Ordering::Relaxed),
        }
    }

    progress.start(&format!("{} plies", game.id()), 0);
    // A plain load first: most predecessors met late in a tier are decided
    // already, and a failing exchange would still claim the cache line.
    let undecided = |slot: u32| codes[slot as usize].load(Ordering::Relaxed) == UNDECIDED;
    let decide = |slot: u32, value: Value| {
        undecided(slot)
            && codes[slot as usize]
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
                let mut decided = Vec::new();
                predecessors(slot, &mut |parent| match value {
                    Some(Value::Loss(_)) if decide(parent, Value::Win(ply + 1)) => {
                        decided.push(parent);
                    }
                    // A decided predecessor's count no longer matters.
                    Some(Value::Win(_)) if undecided(parent) => {
                        let last = remaining[parent as usize].fetch_sub(1, Ordering::Relaxed) == 1;
                        let floor = floor[parent as usize];
                        if last && floor > ply + 1 {
                            // A move out of the tier holds out longer.
                            delayed
                                .lock()
                                .expect("no panic while held")
                                .push((parent, floor));
                        } else if last && decide(parent, Value::Loss(ply + 1)) {
                            decided.push(parent);
                        }
                    }
                    _ => {}
                });
                decided
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
    codes
        .into_par_iter()
        .zip(remaining)
        .map(|(code, remaining)| match code.into_inner() {
            UNDECIDED if remaining.into_inner() != NO_SLOT => draw,
            code => code,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::endgame::{Endgame, Material};

    /// The un-move solver and the reverse-graph solver are written apart; on every
    /// tier below KRvKN (the 3-piece tiers and a 4-piece one with a minor piece
    /// each side) they must give every slot the same code.
    #[test]
    fn retracting_and_reverse_graph_solvers_agree() {
        let game = Endgame::new(&Material::parse("KRvKN").unwrap());
        let progress = Progress::hidden();
        let mut solved: Vec<Vec<u16>> = Vec::new();
        for tier in game.tiers() {
            let earlier = |board: &games::chess::Board| {
                let code = solved[game.tier_of(board) as usize][game.index(board) as usize];
                Value::from_code(game.value_kind(), code).unwrap()
            };
            let by_unmoves = solve_retracting_tier(&game, &game, tier, &earlier, &progress);
            let by_graph = solve_retrograde_tier(&game, tier, &earlier, &progress);
            assert!(by_unmoves == by_graph, "{}", game.tier_name(tier));
            solved.push(by_unmoves);
        }
        assert_eq!(game.tier_name(solved.len() as u32 - 1), "KRvKN");
    }
}
