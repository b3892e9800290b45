//! Retrograde analysis for win/loss/draw games with cycles.
//!
//! Positions whose game is over are decided first. Then, ply by ply, the
//! predecessors of the positions just decided are examined: a predecessor of a loss
//! in `n` is a win in `n + 1` (the first such loss found is the nearest, so wins are
//! fastest); a predecessor whose last undecided move has just turned out to be a win
//! for the opponent is a loss in `n + 1` (its slowest). What is never decided is a
//! draw. Every slot is one 16-bit word while solving (its value, or how many of its
//! moves are still awaited), and each ply visits the slots decided at its distance,
//! split over the threads, writing through atomics; every write in a ply stores a
//! value that depends only on the ply, so the result is the same for any number of
//! threads.
//!
//! Moves may leave the tier (a capture in chess) into tiers solved before, whose
//! values are known from the start: a move to a loss in `n` there makes a win in
//! `n + 1` that waits for its ply; a move to a draw there means the position can
//! never be lost; a move to a win in `n` there only makes a loss at least `n + 1`.

use crate::progress::Progress;
use games::capability::Retract;
use games::{Game, Value, ValueKind};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU16, Ordering};

use games::value::NO_POSITION;

/// Where a solver finds the slots that move into a slot.
pub(crate) trait Parents: Sync {
    /// Calls `visit` with every slot that moves into `slot`, once per move (so a
    /// slot reached by two moves comes twice).
    fn each(&self, slot: u32, visit: impl FnMut(u32));
}

/// Where a solver finds the scan of each slot, a run of slots at a time (a
/// run is read in order, so a solver may spell each slot from the one before).
pub(crate) trait Scans: Sync {
    /// Calls `visit` with the scan of every slot of `slots`, in order.
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan));
}

/// Scans made slot by slot.
pub(crate) struct PerSlot<F>(pub(crate) F);

impl<F: Fn(usize) -> Scan + Sync> Scans for PerSlot<F> {
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan)) {
        slots.map(&self.0).for_each(visit);
    }
}

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
    /// The best value for the mover among the moves out of the tier (chess:
    /// captures and promotions, not pawn pushes into another slice).
    pub(crate) exit: Option<Value>,
}

impl Scan {
    /// Counts a move out of the tier worth `value` to the mover.
    #[inline]
    pub(crate) fn exit_to(&mut self, value: Value) {
        self.exit = Some(self.exit.map_or(value, |best| best.best(value)));
    }
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
        let value = child.value_for_mover(solved(&child.position));
        scan.exit_to(value);
        match value {
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

impl Parents for ReverseGraph {
    fn each(&self, slot: u32, visit: impl FnMut(u32)) {
        self.predecessors(slot).iter().copied().for_each(visit);
    }
}

/// A tier's parents found by a game's own un-moves.
struct ByUnmoves<'a, G: Game> {
    game: &'a G,
    retract: &'a dyn Retract<G>,
    tier: u32,
}

impl<G: Game> Parents for ByUnmoves<'_, G> {
    fn each(&self, slot: u32, mut visit: impl FnMut(u32)) {
        let position = self
            .game
            .position_at(self.tier, u64::from(slot))
            .expect("a decided slot holds a position");
        self.retract
            .predecessors(self.tier, &position, &mut |parent| visit(parent as u32));
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
    let counts = Counts::from_scans(scans.len(), &PerSlot(|slot| scans[slot]), progress);
    drop(scans);
    solve_plies(game, counts, &graph, progress)
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
    let counts = Counts::from_scans(
        size,
        &PerSlot(|slot| scan_slot(game, tier, slot as u64, solved, |_| {})),
        progress,
    );
    let parents = ByUnmoves {
        game,
        retract,
        tier,
    };
    solve_plies(game, counts, &parents, progress)
}

/// Solves one tier of `size` slots from a scan of each slot and its
/// predecessors, however a solver finds them (the dedicated chess solver).
pub(crate) fn solve_by_scans<G: Game>(
    game: &G,
    size: usize,
    scan: &impl Scans,
    parents: &impl Parents,
    progress: &Progress,
) -> Vec<u16> {
    assert!(
        size <= u32::MAX as usize,
        "{}: too large for 32-bit slots",
        game.id()
    );
    let counts = Counts::from_scans(size, scan, progress);
    solve_plies(game, counts, parents, progress)
}

/// A slot's state while solving, in one u16: [`NO_POSITION`] where the slot holds
/// no position, a value code once its value is known, else `COUNTING + n` with
/// `n` the moves that must still turn out wins for the opponent before it is lost.
const COUNTING: u16 = 0xf000;
/// The most moves a slot may wait on.
const MAX_COUNT: u32 = (u16::MAX - COUNTING) as u32;
/// The longest distance while solving, so that every code stays below `COUNTING`.
const MAX_PLIES: u16 = (COUNTING - 4) / 2;

/// Every slot's state before the first ply, and what the plies need besides.
struct Counts {
    states: Vec<AtomicU16>,
    /// Slots with a move out of the tier to a loss (for the mover) in `n`, by
    /// the ply `n - 1` that counts that move down as if it were a move in the
    /// tier to a win decided then: a loss of the slot is at least `n` long.
    floors: Plies,
    /// The slots decided before the plies (the game over, or a win through a
    /// move out of the tier), in order, by distance: the ply each is visited at.
    decided: Plies,
}

/// Slots to visit, by the ply that visits them.
#[derive(Default)]
struct Plies(Vec<Vec<u32>>);

impl Plies {
    fn add(&mut self, ply: u16, slots: impl IntoIterator<Item = u32>) {
        let ply = usize::from(ply);
        if self.0.len() <= ply {
            self.0.resize_with(ply + 1, Vec::new);
        }
        self.0[ply].extend(slots);
    }

    /// The slots of `ply`, taken out.
    fn take(&mut self, ply: u16) -> Vec<u32> {
        self.0
            .get_mut(usize::from(ply))
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Whether no slot waits for `ply` or a later one.
    fn done_from(&self, ply: u16) -> bool {
        self.0.iter().skip(usize::from(ply)).all(Vec::is_empty)
    }
}

/// What the scan of one piece of slots leaves for the plies: its floors, by
/// ply, and its decided slots, in order.
struct Found {
    floors: Vec<(u16, u32)>,
    decided: Vec<u32>,
}

/// Slots per parallel piece of a scan.
const PIECE: usize = 1 << 12;

impl Counts {
    fn from_scans(size: usize, scans: &impl Scans, progress: &Progress) -> Counts {
        let mut states: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(NO_POSITION)).collect();
        progress.start("scans", size.div_ceil(PIECE) as u64);
        let pieces: Vec<Found> = states
            .par_chunks_mut(PIECE)
            .enumerate()
            .map(|(piece, states)| {
                let mut floors = Vec::new();
                let mut decided = Vec::new();
                let start = piece * PIECE;
                let mut states = states.iter_mut().enumerate();
                scans.run(start..start + states.len(), |scan| {
                    let (i, state) = states.next().expect("one scan a slot");
                    let slot = start + i;
                    let Outside { win, loss_at_least } = scan.outside;
                    let known = match scan.end {
                        Some(end) => Some(end),
                        None if !scan.legal => return,
                        None => match win {
                            Some(n) => Some(Value::Win(n)),
                            None if scan.out_degree == 0 && loss_at_least > 0 => {
                                Some(Value::Loss(loss_at_least))
                            }
                            None => None,
                        },
                    };
                    *state.get_mut() = match known {
                        Some(value) => {
                            let n = value.distance().unwrap_or(0);
                            assert!(n <= MAX_PLIES, "slot {slot}: {n} plies is too long");
                            if value.distance().is_some() {
                                decided.push(slot as u32);
                            }
                            value.code()
                        }
                        None => {
                            let awaited = scan.out_degree + u32::from(loss_at_least > 0);
                            assert!(
                                awaited <= MAX_COUNT,
                                "slot {slot}: more than {MAX_COUNT} moves"
                            );
                            if loss_at_least > 0 {
                                floors.push((loss_at_least - 1, slot as u32));
                            }
                            COUNTING + awaited as u16
                        }
                    };
                });
                progress.advance(1);
                Found { floors, decided }
            })
            .collect();
        progress.finish();
        let distance = |slot: u32| {
            let code = states[slot as usize].load(Ordering::Relaxed);
            Value::from_code(ValueKind::WinLossDraw, code)
                .and_then(Value::distance)
                .expect("a decided slot")
        };
        // The decided slots by distance, in order, each list made at its size.
        let mut sizes = Vec::new();
        for &slot in pieces.iter().flat_map(|piece| &piece.decided) {
            let n = usize::from(distance(slot));
            if sizes.len() <= n {
                sizes.resize(n + 1, 0);
            }
            sizes[n] += 1;
        }
        let mut known = Plies(sizes.into_iter().map(Vec::with_capacity).collect());
        let mut all_floors = Plies::default();
        for Found { floors, decided } in pieces {
            for (ply, slot) in floors {
                all_floors.add(ply, [slot]);
            }
            for slot in decided {
                known.add(distance(slot), [slot]);
            }
        }
        Counts {
            states,
            floors: all_floors,
            decided: known,
        }
    }
}

/// Slots per parallel piece of a ply's visits.
const VISITS: usize = 1 << 10;

/// The plies of retrograde analysis from the state of every slot, given where to
/// find the slots that move into a slot. Ply `n` visits the slots decided at
/// distance `n`, split over the threads: each makes its predecessors wins at
/// `n + 1` (it is a loss) or takes one awaited move from each (it is a win); a
/// slot decided so is visited at its own ply. Every write of a ply depends only
/// on the ply, and a win only ever shortens, so the states are the same for any
/// number of threads and any order.
fn solve_plies<G: Game>(
    game: &G,
    counts: Counts,
    parents: &impl Parents,
    progress: &Progress,
) -> Vec<u16> {
    let Counts {
        states,
        mut floors,
        decided: mut due,
    } = counts;
    progress.start(&format!("{} plies", game.id()), 0);
    let mut ply: u16 = 0;
    while !due.done_from(ply) || !floors.done_from(ply) {
        assert!(ply < MAX_PLIES, "{}: {ply} plies is too long", game.id());
        let (win_now, loss_now) = (Value::Win(ply).code(), Value::Loss(ply).code());
        let win_next = Value::Win(ply + 1).code();
        // A slot is a win at `ply + 1` unless decided otherwise or already a
        // nearer win (a win through a move out of the tier waits for its ply).
        let win = |parent: u32, decided: &mut Vec<u32>| {
            let state = &states[parent as usize];
            let mut now = state.load(Ordering::Relaxed);
            while now >= COUNTING || (now > win_next && now % 2 == 0) {
                match state.compare_exchange_weak(
                    now,
                    win_next,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => return decided.push(parent),
                    Err(seen) => now = seen,
                }
            }
        };
        // One more move of an undecided slot is a win for the opponent; after
        // the last, the slot is lost.
        let loss_next = Value::Loss(ply + 1).code();
        let count_down = |parent: u32, decided: &mut Vec<u32>| {
            let state = &states[parent as usize];
            let mut now = state.load(Ordering::Relaxed);
            while now > COUNTING {
                let next = match now - COUNTING {
                    1 => loss_next,
                    _ => now - 1,
                };
                match state.compare_exchange_weak(now, next, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) if next < COUNTING => return decided.push(parent),
                    Ok(_) => break,
                    Err(seen) => now = seen,
                }
            }
        };
        // In order: neighbouring slots have parents near each other.
        let mut slots = due.take(ply);
        slots.par_sort_unstable();
        let late = floors.take(ply);
        let late = late.par_chunks(VISITS).map(|late| {
            let mut decided = Vec::new();
            late.iter().for_each(|&slot| count_down(slot, &mut decided));
            decided
        });
        let decided: Vec<Vec<u32>> = slots
            .par_chunks(VISITS)
            .map(|slots| {
                let mut decided = Vec::new();
                for &slot in slots {
                    let now = states[slot as usize].load(Ordering::Relaxed);
                    if now == loss_now {
                        parents.each(slot, |parent| win(parent, &mut decided));
                    } else if now == win_now {
                        parents.each(slot, |parent| count_down(parent, &mut decided));
                    }
                }
                decided
            })
            .chain(late)
            .collect();
        due.add(ply + 1, decided.into_iter().flatten());
        ply += 1;
        progress.advance(1);
    }
    progress.finish();
    let draw = Value::Draw.code();
    let mut states = states;
    states.par_iter_mut().for_each(|state| {
        let state = state.get_mut();
        if *state >= COUNTING {
            *state = draw;
        }
    });
    // In place: an atomic u16 is laid out as a u16, and a vector's own items
    // mapped to a type of the same layout are collected into its allocation,
    // so the codes never stand beside the states (on KRBvKR, 419 MB apart).
    states.into_iter().map(AtomicU16::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::chess::{Endgame, Material};

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
