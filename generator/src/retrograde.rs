//! Retrograde analysis for win/loss/draw games with cycles.
//!
//! Positions whose game is over are decided first. Then, ply by ply, the
//! predecessors of the positions just decided are examined: a predecessor of a loss
//! in `n` is a win in `n + 1` (the first such loss found is the nearest, so wins are
//! fastest); a predecessor whose last undecided move has just turned out to be a win
//! for the opponent is a loss in `n + 1` (its slowest). What is never decided is a
//! draw. Every slot is one byte while solving (its value, or how many of its
//! moves are still awaited; see `states.rs`), and each ply visits the slots
//! decided at its distance (listed by the ply before, or, where that decided
//! too many to list, found by their states), split over the threads, writing
//! through atomics; where those are many against the slots still undecided,
//! and the solver can read a slot's moves, the ply looks forward from each
//! undecided slot instead (see `Pull`); every
//! write in a ply stores a value that depends only on the ply, so the result is
//! the same for any number of threads.
//!
//! Moves may leave the tier (a capture in chess) into tiers solved before, whose
//! values are known from the start: a move to a loss in `n` there makes a win in
//! `n + 1` that waits for its ply; a move to a draw there means the position can
//! never be lost; a move to a win in `n` there only makes a loss at least `n + 1`.

use crate::due::{COUNT_DOWN, PIECE, Piece, VISIT, VISIT_LOSS, WIN};
use crate::long::Long;
use crate::progress::Progress;
use crate::states::{Distance, Outcome, SHORT, Slot, Start, States};
use games::capability::Retract;
use games::{Game, Value};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use tables::Codes;

/// Where a solver finds the slots that move into a slot, and, where it can,
/// the slots a slot moves into.
pub(crate) trait Parents: Sync {
    /// Calls `visit` with every slot that moves into `slot`, once per move (so a
    /// slot reached by two moves comes twice).
    fn each(&self, slot: Slot, visit: impl FnMut(Slot));

    /// Whether [`Parents::children`] finds a slot's moves, so that a ply may
    /// look forward from the undecided slots instead of back from the decided.
    fn pulls(&self) -> bool {
        false
    }

    /// For every slot of `slots` (past the tier's last, none) that `wanted`
    /// takes, in order, calls `visit(slot, child)` with the slot each of its
    /// moves inside the tier leads to, once per move, until `visit` says
    /// `false`. Only called where [`Parents::pulls`].
    fn children(
        &self,
        _slots: Range<Slot>,
        _wanted: impl FnMut(Slot) -> bool,
        _visit: impl FnMut(Slot, Slot) -> bool,
    ) {
        unreachable!("a solver that cannot pull is never asked to")
    }
}

/// Where a solver finds the scan of each slot, a run of slots at a time (a
/// run is read in order, so a solver may spell each slot from the one before).
pub(crate) trait Scans: Sync {
    /// Calls `visit` with the scan of every slot of `slots`, in order.
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan));

    /// Whether the scans are told whether each slot they leave undecided
    /// will be a win or a loss ([`Scans::told`]): a DTZ solve is, by the DTM
    /// table made before it (the 50-move rule changes distances, not who
    /// wins).
    fn tells(&self) -> bool {
        false
    }

    /// Where [`Scans::tells`], the outcome `slot` will have if its scan
    /// leaves it undecided. Its state keeps it through the plies (no count
    /// for a win to be), and a pull looks only at the slots its ply's
    /// frontier can decide (a win only through a move to a loss, a loss only
    /// through its moves to wins); what told it may be let go after the
    /// scans.
    fn told(&self, _slot: Slot) -> Option<Outcome> {
        None
    }
}

impl<T: Scans> Scans for &T {
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan)) {
        (**self).run(slots, visit)
    }

    fn tells(&self) -> bool {
        (**self).tells()
    }

    fn told(&self, slot: Slot) -> Option<Outcome> {
        (**self).told(slot)
    }
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

    fn predecessors(&self, slot: Slot) -> &[u32] {
        &self.predecessors[self.starts[slot as usize]..self.starts[slot as usize + 1]]
    }
}

impl Parents for ReverseGraph {
    fn each(&self, slot: Slot, mut visit: impl FnMut(Slot)) {
        (self.predecessors(slot).iter()).for_each(|&parent| visit(Slot::from(parent)));
    }
}

/// A tier's parents found by a game's own un-moves.
struct ByUnmoves<'a, G: Game> {
    game: &'a G,
    retract: &'a dyn Retract<G>,
    tier: u32,
}

impl<G: Game> Parents for ByUnmoves<'_, G> {
    fn each(&self, slot: Slot, mut visit: impl FnMut(Slot)) {
        let position = self
            .game
            .position_at(self.tier, slot)
            .expect("a decided slot holds a position");
        self.retract
            .predecessors(self.tier, &position, &mut |parent| visit(parent));
    }
}

/// The most slots a tier solved with a reverse graph may have: the graph
/// lists them in 32 bits.
const MAX_GRAPH_SLOTS: u64 = u32::MAX as u64;

/// Solves one tier of a win/loss/draw game whose moves stay inside the tier;
/// returns the value code of every slot.
pub fn solve_retrograde<G: Game>(game: &G, tier: u32, progress: &Progress) -> Codes {
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
) -> Codes {
    assert!(
        game.index_size(tier) <= MAX_GRAPH_SLOTS,
        "{} tier {tier}: too large for a reverse graph's 32-bit slots",
        game.id()
    );
    let (graph, scans) = ReverseGraph::build(game, tier, solved);
    let counts = scanned(scans.len(), &PerSlot(|slot| scans[slot]), progress);
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
) -> Codes {
    let size = usize::try_from(game.index_size(tier)).expect("a tier held in memory");
    let counts = scanned(
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

/// What the scans of a tier's `size` slots leave for the plies: the first
/// half of a solve by scans (a tier's or a slice's, however a solver finds
/// each slot's moves: the dedicated chess solver). A solver that holds
/// something for its scans alone lets go of it before the plies.
pub(crate) fn scanned(size: usize, scan: &impl Scans, progress: &Progress) -> Counts {
    scanned_by_parts(size, whole(size), |_| scan, progress)
}

/// [`scanned`], the scans of each part of `part` slots (a multiple of
/// [`PIECE`]) made by `scans_of` in turn, as a solver that reads something a
/// part at a time for its scans would (DTM's outcomes under DTZ).
pub(crate) fn scanned_by_parts<S: Scans>(
    size: usize,
    part: usize,
    scans_of: impl FnMut(Range<usize>) -> S,
    progress: &Progress,
) -> Counts {
    Counts::from_scans(size, part, scans_of, false, progress)
}

/// A part of whole pieces that holds `size` slots.
fn whole(size: usize) -> usize {
    size.max(1).next_multiple_of(PIECE)
}

/// [`scanned`], keeping each slot's best move out of the tier, for
/// [`solve_scanned_marking_exits`] where the scans' moves out of their slots
/// are not all moves out of the tier (a slice of a pawn tier, whose pawn
/// moves lead out of the slice but stay in the tier).
pub(crate) fn scanned_keeping_exits(size: usize, scan: &impl Scans, progress: &Progress) -> Counts {
    Counts::from_scans(size, whole(size), |_| scan, true, progress)
}

/// The second half of a solve by scans: the plies from what the scans left.
#[cfg(test)]
pub(crate) fn solve_scanned<G: Game>(
    game: &G,
    counts: Counts,
    parents: &impl Parents,
    progress: &Progress,
) -> Codes {
    solve_plies(game, counts, parents, progress)
}

/// The plies from what the scans left, with the slots whose value a move
/// out of the tier gives, a win or a loss, 64 a word: what [`crate::exits`]
/// asks. Found from the best moves out the scans kept
/// ([`scanned_keeping_exits`]), or else from what they left due, where a
/// solver's moves out of the slot's tier are all its scans count outside
/// it: that costs nothing more while the tier is solved.
pub(crate) fn solve_scanned_marking_exits<G: Game>(
    game: &G,
    mut counts: Counts,
    parents: &impl Parents,
    progress: &Progress,
) -> (Codes, Vec<u64>) {
    let kept = counts.exits.take();
    let (ended, due) = plies(game, counts, parents, progress, kept.is_none());
    // The marks are read from the states, before the codes are made, so
    // that the lists they are read from are let go before the codes grow.
    let exits = match kept {
        Some(kept) => ended.exits(kept, kept_exit),
        None => ended.exits(due, due_exit),
    };
    (ended.into_codes(), exits)
}

/// The value a slot due at `ply` for `what` has where a move out of the
/// tier gives it: a slot due a win at ply `n` (its best move out of the
/// tier wins in `n + 1`) in `n + 1`, a slot due a count down (its moves out
/// all lose, the longest in `n + 1`) a loss in `n + 1`, and a slot the scans
/// decided at a distance (every move of it leaves the tier, a loss) at that
/// distance: those decided at distance 0 have no move, and no move out.
fn due_exit(ply: u16, what: u16) -> Option<Value> {
    match what {
        WIN => Some(Value::Win(ply + 1)),
        COUNT_DOWN => Some(Value::Loss(ply + 1)),
        VISIT_LOSS if ply > 0 => Some(Value::Loss(ply)),
        VISIT if ply > 0 => Some(Value::Win(ply)),
        _ => None,
    }
}

/// The value of a slot's best move out of the tier, as the scans kept it.
fn kept_exit(ply: u16, what: u16) -> Option<Value> {
    match what {
        VISIT => Some(Value::Win(ply)),
        _ => Some(Value::Loss(ply)),
    }
}

/// What the plies leave: every slot's state, and the slots decided at each
/// distance a state does not hold.
struct Ended {
    states: States,
    long: Long,
}

/// Pieces whose marks [`Ended::exits`] sets before it gives back the memory
/// of their slots due: about a fifteenth of a six-piece tier's 3.8 million.
const MARKED_AT_ONCE: usize = 1 << 18;

impl Ended {
    /// Every slot's value code.
    fn into_codes(self) -> Codes {
        self.states.into_codes(self.long)
    }

    /// The bits of [`solve_scanned_marking_exits`]: each slot of `pieces` whose
    /// value is the one `exit` gives its ply and kind. The pieces are let go as
    /// they are read, the last first, so that the marks (an eighth of a byte a
    /// slot) and the slots due (KRBvKRN's: about 2.3 GB) are never both held
    /// whole.
    fn exits(
        &self,
        pieces: Vec<Piece>,
        exit: impl Fn(u16, u16) -> Option<Value> + Sync,
    ) -> Vec<u64> {
        self.exits_by(pieces, exit, MARKED_AT_ONCE)
    }

    /// [`Ended::exits`], `at_once` pieces at a time.
    fn exits_by(
        &self,
        mut pieces: Vec<Piece>,
        exit: impl Fn(u16, u16) -> Option<Value> + Sync,
        at_once: usize,
    ) -> Vec<u64> {
        let size = self.states.len();
        let mut words = vec![0u64; size.div_ceil(64)];
        let per_piece = PIECE / 64;
        // The slots whose exit is past what a state holds, with that exit,
        // found in the long lists once every piece is read.
        let mut far: Vec<(Slot, u16)> = Vec::new();
        while !pieces.is_empty() {
            let first = pieces.len().saturating_sub(at_once);
            let batch = pieces.split_off(first);
            let words = &mut words[first * per_piece..];
            let found = words
                .par_chunks_mut(per_piece)
                .zip(batch.into_par_iter())
                .map(|(words, piece)| {
                    let mut far = Vec::new();
                    for (ply, what, slot) in piece.each_due() {
                        let Some(value) = exit(ply, what) else {
                            continue;
                        };
                        if !self.states.holds(slot, value) {
                            continue;
                        }
                        match value.distance() {
                            Some(n) if n > SHORT => far.push((slot, n)),
                            _ => {
                                let bit = (slot % PIECE as Slot) as usize;
                                words[bit / 64] |= 1 << (bit % 64);
                            }
                        }
                    }
                    far
                });
            far.par_extend(found.flatten());
            // The batch's slots due go back to the system before the next
            // batch's marks grow (the last batch's go with the tier's).
            if !pieces.is_empty() {
                crate::memory::give_back();
            }
        }
        far.par_sort_unstable();
        self.long.each(|ply, slot| {
            if let Ok(at) = far.binary_search_by_key(&slot, |&(slot, _)| slot) {
                if far[at].1 == ply {
                    words[(slot / 64) as usize] |= 1 << (slot % 64);
                }
            }
        });
        words
    }
}

/// Slots counted apart by outcome: wins and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Split {
    won: usize,
    lost: usize,
}

impl Split {
    fn total(self) -> usize {
        self.won + self.lost
    }

    fn add(&mut self, other: Split) {
        self.won += other.won;
        self.lost += other.lost;
    }
}

// A chunk of states holds whole pieces.
const _: () = assert!(crate::states::CHUNK % PIECE == 0);

/// Every slot's state before the first ply, and what the plies need besides.
pub(crate) struct Counts {
    states: States,
    pieces: Vec<Piece>,
    /// Where the scans were asked to keep them, each slot's best move out of
    /// the tier where it is a win or a loss, a piece of slots at a time: at
    /// its distance, [`VISIT`] for a win and [`VISIT_LOSS`] for a loss.
    exits: Option<Vec<Piece>>,
    /// The last ply a piece has a slot due at.
    last: u16,
    /// The most slots a ply's decisions are listed for the next ply.
    listed_at_most: usize,
    /// How many slots the scans left undecided.
    awaiting: usize,
    /// How many wins and losses the scans decided at each distance (visited
    /// at that ply).
    visits: Vec<Split>,
    /// When a ply looks forward from the undecided slots.
    pub(crate) pull: Pull,
}

impl Counts {
    /// Whether the scans were told who wins each slot they left undecided.
    #[cfg(test)]
    pub(crate) fn told(&self) -> bool {
        self.states.told()
    }
}

/// When a ply looks forward from the undecided slots ("pulls") instead of
/// back from the slots the ply before decided ("pushes"), where the solver
/// can: a ply that pushes un-moves every slot of its frontier, so its cost
/// grows with the wins and losses at one distance; one that pulls reads the
/// moves of every slot still undecided, and stops at the first that wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pull {
    /// Where it costs less, as the plies so far measured each way (see
    /// [`Choice`]).
    WhenCheaper,
    #[cfg(test)]
    Never,
    #[cfg(test)]
    Always,
}

/// Before the plies, a pull is tried on one piece of slots in this many, all
/// moves of each undecided slot read (a pull stops at a win), for what a
/// pull costs a slot: reading each move's state is most of it, and its cost
/// depends on where the states lie (KQRvKR: 0.14 µs an undecided slot on
/// two threads; KRRvKRR, whose moves lead across 3.8 GB of states, 0.8 µs).
const TRIED_EVERY: usize = 256;

/// The fewest slots a ply must work on for its time to say what a slot costs.
const MEASURED_FROM: usize = 1 << 20;

/// How the plies choose between pushing and pulling: by what each has cost
/// a slot in the plies so far, a pull at first by a try on a few pieces
/// (seconds; the choice changes only how fast a ply is, never what it
/// decides). A push's cost varies most between tiers: KRRvKRR's colours may
/// swap, so a slot is un-moved in twice as many images, and its pushes
/// cost a slot some fifteen times what KQRvKR's do.
struct Choice {
    pull: Pull,
    /// A frontier slot's push.
    push: Option<f64>,
    /// An undecided slot's pull.
    pulled: Option<f64>,
}

impl Choice {
    /// The choice of the plies over `states` and `pieces`, found by `parents`.
    fn new(pull: Pull, states: &States, pieces: &[Piece], parents: &impl Parents) -> Choice {
        let pulled = (pull == Pull::WhenCheaper && parents.pulls()).then(|| {
            let began = std::time::Instant::now();
            let tried: usize = (pieces.par_iter().step_by(TRIED_EVERY))
                .map(|piece| {
                    let mut slots = 0;
                    let undecided = |slot| {
                        states.undecided(slot) && {
                            slots += 1;
                            true
                        }
                    };
                    parents.children(piece.slots(states.len()), undecided, |_, child| {
                        std::hint::black_box(states.at(child, Distance::of(0)));
                        true
                    });
                    slots
                })
                .sum();
            began.elapsed().as_secs_f64() / tried.max(1) as f64
        });
        Choice {
            pull,
            push: None,
            pulled,
        }
    }

    /// Whether a ply whose frontier holds `frontier` slots, with `undecided`
    /// slots left, pulls.
    fn pulls(&self, frontier: usize, undecided: usize) -> bool {
        let (frontier, undecided) = (frontier as f64, undecided as f64);
        match self.pull {
            Pull::WhenCheaper => match (self.push, self.pulled) {
                (Some(push), Some(pulled)) => undecided * pulled < frontier * push,
                // No ply has pushed many slots yet: a push is taken to cost
                // half a pull (KRBvKR's DTZ: 0.31 µs a slot pushed, 0.73 µs
                // a slot pulled).
                (None, Some(_)) => 2.0 * undecided < frontier,
                _ => false,
            },
            #[cfg(test)]
            Pull::Never => false,
            #[cfg(test)]
            Pull::Always => true,
        }
    }

    /// Learns from a ply that pulled `pulled` slots and pushed `pushed` in
    /// `seconds`, where it went mostly one way.
    fn measured(&mut self, pulled: usize, pushed: usize, seconds: f64) {
        let cost = |slots: usize| (slots >= MEASURED_FROM).then(|| seconds / slots as f64);
        if pushed <= pulled / 8 {
            self.pulled = cost(pulled).or(self.pulled);
        } else if pulled <= pushed / 8 {
            self.push = cost(pushed).or(self.push);
        }
    }
}

/// Which of a ply's two kinds of work look forward from the undecided slots
/// instead of back from its frontier: the frontier's wins count down the
/// slots that will be losses (`after_wins`), its losses make wins of the
/// slots that will be (`after_losses`). A solver told who wins each slot
/// ([`Parents::tells`]) chooses each apart, pulling only the slots it can
/// decide; one not told does both one way.
#[derive(Debug, Clone, Copy)]
struct Way {
    after_wins: bool,
    after_losses: bool,
}

impl Way {
    fn untold(pull: bool) -> Way {
        Way {
            after_wins: pull,
            after_losses: pull,
        }
    }

    /// Each way as `choice` finds cheaper, for a frontier of `frontier` wins
    /// and losses and `told` slots undecided that will be wins and losses.
    fn told(choice: &Choice, frontier: Split, told: Split) -> Way {
        Way {
            after_wins: frontier.won > 0 && choice.pulls(frontier.won, told.lost),
            after_losses: frontier.lost > 0 && choice.pulls(frontier.lost, told.won),
        }
    }

    fn pulls(self) -> bool {
        self.after_wins || self.after_losses
    }

    fn pushes(self) -> bool {
        !(self.after_wins && self.after_losses)
    }

    /// How many of the `told` slots a pull looks at.
    fn pulled(self, told: Split) -> usize {
        usize::from(self.after_wins) * told.lost + usize::from(self.after_losses) * told.won
    }

    /// How many of the `frontier`'s slots are pushed.
    fn pushed(self, frontier: Split) -> usize {
        usize::from(!self.after_wins) * frontier.won
            + usize::from(!self.after_losses) * frontier.lost
    }
}

impl Counts {
    /// What the scans of `size` slots leave for the plies, and, where
    /// `keep_exits`, each slot's best move out of the tier where it is a win
    /// or a loss (see [`Counts::exits`]).
    ///
    /// The scans of each part of `part` slots (a multiple of [`PIECE`]) come
    /// from `scans_of`, called with the part's slots, one part after another,
    /// so that what a part's scans hold is held for it alone.
    fn from_scans<S: Scans>(
        size: usize,
        part: usize,
        mut scans_of: impl FnMut(Range<usize>) -> S,
        keep_exits: bool,
        progress: &Progress,
    ) -> Counts {
        assert!(part > 0 && part % PIECE == 0, "a part of whole pieces");
        let mut chunks = States::chunks(size);
        progress.start("scans", size.div_ceil(PIECE) as u64);
        let visits: Vec<[AtomicUsize; 2]> = (0..=MAX_PLIES).map(|_| Default::default()).collect();
        // Each piece's states, in order (a chunk holds whole pieces), taken a
        // part at a time: so the pieces are collected in place, with nothing
        // between (KRBvKRN's 3.8 million pieces were 0.4 GB more at the
        // scans' end, collected in parts).
        let count = size.div_ceil(PIECE);
        let mut states = (chunks.iter_mut()).flat_map(|chunk| chunk.slots().chunks_mut(PIECE));
        let (awaiting, many) = (AtomicUsize::new(0), Mutex::new(Vec::new()));
        let exits: Vec<OnceLock<Piece>> = match keep_exits {
            true => (0..count).map(|_| OnceLock::new()).collect(),
            false => Vec::new(),
        };
        let mut pieces: Vec<Piece> = Vec::with_capacity(count);
        let mut told = false;
        while pieces.len() < count {
            let these: Vec<&mut [AtomicU8]> = states.by_ref().take(part / PIECE).collect();
            let first = pieces.len();
            let scans = scans_of(first * PIECE..(first * PIECE + part).min(size));
            // A state counting moves reads as a loss where the scans were told.
            assert!(first == 0 || told == scans.tells(), "every part told alike");
            told = scans.tells();
            let scanned = these.into_par_iter().enumerate().map(|(index, states)| {
                let index = first + index;
                let start = index * PIECE;
                let mut due = Vec::new();
                let mut kept_exits = Vec::new();
                let mut counts = Vec::new();
                let mut undecided = 0;
                let mut states = states.iter_mut().enumerate();
                scans.run(start..start + states.len(), |scan| {
                    let (i, state) = states.next().expect("one scan a slot");
                    let at = |ply: u16, what: u16| (ply, what, i as u16);
                    if keep_exits && scan.legal && scan.end.is_none() {
                        match scan.exit {
                            Some(Value::Win(n)) => kept_exits.push(at(n, VISIT)),
                            Some(Value::Loss(n)) => kept_exits.push(at(n, VISIT_LOSS)),
                            _ => {}
                        }
                    }
                    let Outside { win, loss_at_least } = scan.outside;
                    let floor = loss_at_least > 0;
                    // A slot that will be a win counts none of its moves.
                    let will_win = told && scans.told((start + i) as Slot) == Some(Outcome::Win);
                    let awaits = |moves| match will_win {
                        true => Start::ToWin,
                        false => Start::Awaiting(moves),
                    };
                    let begin = match (scan.end, win) {
                        (Some(end), _) => Start::Decided(end),
                        _ if !scan.legal => Start::Empty,
                        (None, Some(0)) => Start::Decided(Value::Win(0)),
                        // The move out is among those awaited: never a loss.
                        (None, Some(n)) => {
                            due.push(at(n - 1, WIN));
                            awaits(scan.out_degree)
                        }
                        (None, None) if scan.out_degree == 0 && floor => {
                            Start::Decided(Value::Loss(loss_at_least))
                        }
                        (None, None) => {
                            if floor && !will_win {
                                due.push(at(loss_at_least - 1, COUNT_DOWN));
                            }
                            awaits(scan.out_degree + u32::from(floor))
                        }
                    };
                    if let Start::Decided(value) = begin {
                        if let Some(n) = value.distance() {
                            assert!(n < MAX_PLIES, "slot {}: {n} plies is too long", start + i);
                            let what = match value {
                                Value::Loss(_) => VISIT_LOSS,
                                _ => VISIT,
                            };
                            due.push(at(n, what));
                        }
                    }
                    undecided += usize::from(matches!(begin, Start::Awaiting(_) | Start::ToWin));
                    if let Some(n) = crate::states::set(state, begin) {
                        counts.push(((start + i) as Slot, n));
                    }
                });
                let piece = Piece::new(start as Slot, due);
                for (ply, what, count) in piece.runs() {
                    let [won, lost] = &visits[usize::from(ply)];
                    match what {
                        VISIT => won.fetch_add(count, Ordering::Relaxed),
                        VISIT_LOSS => lost.fetch_add(count, Ordering::Relaxed),
                        _ => 0,
                    };
                }
                progress.advance(1);
                if keep_exits {
                    let kept = exits[index].set(Piece::new(start as Slot, kept_exits));
                    assert!(kept.is_ok(), "piece {index} scanned once");
                }
                if !counts.is_empty() {
                    many.lock().expect("no scan panicked").extend(counts);
                }
                awaiting.fetch_add(undecided, Ordering::Relaxed);
                piece
            });
            pieces.par_extend(scanned);
        }
        progress.finish();
        let exits = (exits.into_iter())
            .map(|piece| piece.into_inner().expect("every piece scanned"))
            .collect();
        let last = pieces.iter().filter_map(Piece::last_ply).max().unwrap_or(0);
        let many = many.into_inner().expect("no scan panicked");
        Counts {
            states: States::new(chunks, many, told),
            pieces,
            exits: keep_exits.then_some(exits),
            last,
            listed_at_most: listed_at_most(size),
            awaiting: awaiting.into_inner(),
            visits: (visits.into_iter())
                .map(|[won, lost]| Split {
                    won: won.into_inner(),
                    lost: lost.into_inner(),
                })
                .collect(),
            pull: Pull::WhenCheaper,
        }
    }
}

/// The longest distance while solving: every distance has its code.
const MAX_PLIES: u16 = games::value::MAX_DISTANCE;

/// Slots per parallel piece of a ply's visits.
const VISITS: usize = 1 << 10;

/// The slots a ply visits: those the ply before decided, listed, or, where
/// they were too many to list, found by their states.
enum Frontier {
    List(Vec<Slot>),
    /// Every slot whose state is a win or a loss at the ply's distance (a
    /// distance a state holds: at most [`SHORT`]).
    ByState,
}

impl Frontier {
    fn is_empty(&self) -> bool {
        matches!(self, Frontier::List(slots) if slots.is_empty())
    }
}

/// How many of the slots the scans left undecided will be wins and losses,
/// as they were told ([`Scans::told`]).
fn told_split(states: &States, pieces: &[Piece]) -> Split {
    let size = states.len();
    let of_piece = |piece: &Piece| {
        let mut split = Split::default();
        for slot in piece.slots(size) {
            match states.will(slot) {
                Some(Outcome::Loss) => split.lost += 1,
                Some(Outcome::Win) => split.won += 1,
                None => {}
            }
        }
        split
    };
    let add = |mut a: Split, b: Split| {
        a.add(b);
        a
    };
    pieces.par_iter().map(of_piece).reduce(Split::default, add)
}

/// The most slots a ply's decisions are listed for the next ply: a
/// sixty-fourth of the tier, eight bytes a slot listed, so at most an eighth
/// of a byte a slot (KQRvKR's first ply under DTZ decides 31 million of its
/// 242 million slots, 250 MB were they listed; KRRvKRR's, some 1.6 billion),
/// and no more than [`LISTED_BYTES`]. Past that the next ply finds its slots
/// by a pass over the states, which costs less than visiting them.
fn listed_at_most(size: usize) -> usize {
    (size / 64).min(LISTED_BYTES / std::mem::size_of::<Slot>())
}

/// The most bytes a ply's list of the slots it decided takes (a ply reads
/// one list while it makes the next): 256 MiB, which five-piece tiers and
/// KRRvKRR's never reach, where a sixty-fourth of a six-piece tier of four
/// different pieces (15.5 billion slots) would take 1.9 GB. A ply past it
/// decides more than 33 million slots; the pass over the states that finds
/// them (a few seconds for 15 GB of states) is a small part of visiting
/// them.
const LISTED_BYTES: usize = 256 << 20;

/// How a thread lists the slots a ply decides: into its own list, counted
/// into `listed` every [`COUNTED`] slots, until the ply's lists pass `most`
/// (then `dropped` is set and the lists are let go).
struct Listing<'a> {
    listed: &'a AtomicUsize,
    dropped: &'a AtomicBool,
    most: usize,
}

/// Slots a thread lists between two counts into the shared total.
const COUNTED: usize = 1 << 12;

impl Listing<'_> {
    #[inline]
    fn push(&self, slot: Slot, decided: &mut Vec<Slot>) {
        if self.dropped.load(Ordering::Relaxed) {
            return;
        }
        decided.push(slot);
        if decided.len() % COUNTED == 0
            && self.listed.fetch_add(COUNTED, Ordering::Relaxed) + COUNTED > self.most
        {
            self.dropped.store(true, Ordering::Relaxed);
            *decided = Vec::new();
        }
    }
}

/// What a thread of a ply finds: the slots it decided (listed while the
/// ply's lists are kept), how many wins and losses, and the slots it visited
/// past what a state holds.
#[derive(Default)]
struct Found {
    decided: Vec<Slot>,
    count: Split,
    visited: Vec<Slot>,
}

/// The plies of retrograde analysis from the state of every slot, given where to
/// find the slots that move into a slot. Ply `n` visits the slots decided at
/// distance `n`, split over the threads: each makes its undecided predecessors
/// wins at `n + 1` (it is a loss) or takes one awaited move from each (it is a
/// win); a slot decided so is visited at the next ply. A ply whose frontier is
/// large against the slots still undecided looks forward instead (see
/// [`Pull`]): each undecided slot whose move leads to a loss at `n` is a win
/// at `n + 1`, and takes one awaited move for each that leads to a win at
/// `n`. A slot is decided once, by the first ply that can, and every write of
/// a ply depends only on the ply, so the states are the same for any number
/// of threads, any order, and either way of looking.
fn solve_plies<G: Game>(
    game: &G,
    counts: Counts,
    parents: &impl Parents,
    progress: &Progress,
) -> Codes {
    plies(game, counts, parents, progress, false).0.into_codes()
}

/// [`solve_plies`] up to the codes, giving back the slots that were due where
/// `keep_due` (else none).
fn plies<G: Game>(
    game: &G,
    counts: Counts,
    parents: &impl Parents,
    progress: &Progress,
    keep_due: bool,
) -> (Ended, Vec<Piece>) {
    let Counts {
        states,
        mut pieces,
        last,
        listed_at_most,
        awaiting,
        visits,
        pull,
        exits,
    } = counts;
    // Kept for a caller that marks exits, which takes them before the plies.
    drop(exits);
    let size = states.len();
    progress.start(&format!("{} plies", game.id()), 0);
    // The slots at this ply's distance, as the last ply left them.
    let mut frontier = Frontier::List(Vec::new());
    // How many wins and losses the last ply decided, how many slots are left
    // undecided, and, where the solver is told, how many of them will be
    // wins and losses.
    let (mut decided_last, mut undecided) = (Split::default(), awaiting);
    let mut told = states.told().then(|| told_split(&states, &pieces));
    let mut choice = Choice::new(pull, &states, &pieces, parents);
    // The slots decided at each distance a state does not hold.
    let mut long = Long::default();
    let mut ply: u16 = 0;
    while ply <= last || !frontier.is_empty() {
        assert!(ply < MAX_PLIES, "{}: {ply} plies is too long", game.id());
        let next = Distance::of(ply + 1);
        // Slots decided at a distance past what a state holds are found only
        // in the lists: those are never dropped.
        let (listed, dropped) = (AtomicUsize::new(0), AtomicBool::new(false));
        let listing = Listing {
            listed: &listed,
            dropped: &dropped,
            most: match ply < SHORT {
                true => listed_at_most,
                false => usize::MAX,
            },
        };
        let decide = |won: bool, slot: Slot, found: &mut Found| {
            let now = match won {
                true => states.win(slot, next),
                false => states.count_down(slot, next),
            };
            if now {
                match won {
                    true => found.count.won += 1,
                    false => found.count.lost += 1,
                }
                listing.push(slot, &mut found.decided);
            }
        };
        let keep = ply > SHORT;
        let now = Distance::of(ply);
        let mut at_distance = decided_last;
        at_distance.add(visits.get(usize::from(ply)).copied().unwrap_or_default());
        let frontier_len = at_distance.total();
        // A pull reads the distance of each move's slot from its state: only
        // a distance a state holds exactly.
        let may_pull = ply < SHORT && parents.pulls();
        let way = match told {
            Some(told) if may_pull => Way::told(&choice, at_distance, told),
            _ => Way::untold(may_pull && choice.pulls(frontier_len, undecided)),
        };
        // A slot visited is pushed: a loss makes its parents wins, a win
        // counts them down; unless the ply pulls for it.
        let visit = |slot: Slot, found: &mut Found| match states.outcome(slot) {
            Some(Outcome::Loss) if !way.after_losses => {
                parents.each(slot, |parent| decide(true, parent, found))
            }
            Some(Outcome::Win) if !way.after_wins => {
                parents.each(slot, |parent| decide(false, parent, found))
            }
            Some(_) => {}
            None => unreachable!("a slot visited at its distance is a win or a loss"),
        };
        let began = std::time::Instant::now();
        // A slot told a win is decided by a move to a loss, never counted
        // down (a push may count it down in the same ply); one told a loss
        // has no move to a loss.
        let look = |slot: Slot, child: Slot, found: &mut Found| {
            let told = states.will(slot);
            match states.at(child, now) {
                Some(Outcome::Loss) => {
                    decide(true, slot, found);
                    false
                }
                Some(Outcome::Win) if told != Some(Outcome::Win) => {
                    decide(false, slot, found);
                    true
                }
                _ => true,
            }
        };
        let wanted = |slot| {
            states.undecided(slot)
                && match states.will(slot) {
                    Some(Outcome::Win) => way.after_losses,
                    Some(Outcome::Loss) => way.after_wins,
                    None => true,
                }
        };
        // The frontier found by the states holds the slots due to be visited.
        let by_state = matches!(frontier, Frontier::ByState);
        let from_pieces = pieces
            .par_iter_mut()
            .fold(Found::default, |mut found, piece| {
                let slots = piece.slots(size);
                if way.pulls() {
                    parents.children(slots.clone(), wanted, |slot, child| {
                        look(slot, child, &mut found)
                    });
                }
                if by_state && way.pushes() {
                    states.each_at(slots, now, |slot| visit(slot, &mut found));
                }
                for (slot, what) in piece.take(ply) {
                    match what {
                        VISIT | VISIT_LOSS if by_state => {}
                        VISIT | VISIT_LOSS => {
                            visit(slot, &mut found);
                            if keep {
                                found.visited.push(slot);
                            }
                        }
                        COUNT_DOWN => decide(false, slot, &mut found),
                        WIN => decide(true, slot, &mut found),
                        _ => unreachable!("a slot is due for one of four things"),
                    }
                }
                found
            });
        // A ply that pulls for both has looked at every slot: it visits no
        // frontier.
        let mut at_ply = match std::mem::replace(&mut frontier, Frontier::ByState) {
            Frontier::List(slots) if way.pushes() => slots,
            _ => Vec::new(),
        };
        // In order: neighbouring slots have parents near each other.
        at_ply.par_sort_unstable();
        let from_frontier = at_ply.par_chunks(VISITS).map(|slots| {
            let mut found = Found::default();
            slots.iter().for_each(|&slot| visit(slot, &mut found));
            found
        });
        let mut found: Vec<Found> = from_pieces.chain(from_frontier).collect();
        let pulled = match told {
            Some(told) => way.pulled(told),
            None if way.pulls() => undecided,
            None => 0,
        };
        choice.measured(
            pulled,
            way.pushed(at_distance),
            began.elapsed().as_secs_f64(),
        );
        decided_last = Split::default();
        found.iter().for_each(|found| decided_last.add(found.count));
        undecided -= decided_last.total();
        if let Some(told) = &mut told {
            // Told right, every win decided was told a win, every loss a loss.
            told.won = told.won.saturating_sub(decided_last.won);
            told.lost = told.lost.saturating_sub(decided_last.lost);
        }
        if !dropped.into_inner() {
            let decided = found
                .iter_mut()
                .flat_map(|found| std::mem::take(&mut found.decided));
            frontier = Frontier::List(decided.collect());
        }
        if keep {
            let visited = found.into_iter().flat_map(|found| found.visited);
            long.push(ply, at_ply.into_iter().chain(visited).collect());
        }
        ply += 1;
        progress.advance(1);
    }
    progress.finish();
    // The lists the plies freed go back to the system before the codes grow
    // beside the states.
    if !keep_due {
        pieces = Vec::new();
    }
    crate::memory::give_back();
    (Ended { states, long }, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::chess::{Endgame, Material};

    type Solver<'a> = &'a dyn Fn(&Endgame, u32, Solved<games::chess::Board>) -> Codes;

    /// Solves every tier below KRvKN (the 3-piece tiers and a 4-piece one with
    /// a minor piece each side) in order both ways, which must give every slot
    /// the same code.
    fn agree_below_krvkn(one: Solver, other: Solver) {
        let game = Endgame::new(&Material::parse("KRvKN").unwrap());
        let mut solved: Vec<Codes> = Vec::new();
        for tier in game.tiers() {
            let earlier = |board: &games::chess::Board| {
                let code = solved[game.tier_of(board) as usize].get(game.index(board));
                Value::from_code(game.value_kind(), code).unwrap()
            };
            let codes = one(&game, tier, &earlier);
            assert!(
                codes == other(&game, tier, &earlier),
                "{}",
                game.tier_name(tier)
            );
            solved.push(codes);
        }
        assert_eq!(game.tier_name(solved.len() as u32 - 1), "KRvKN");
    }

    /// A slot is marked where its value is the one its exit gives, at a
    /// distance a state holds or past it (read from the long lists), and
    /// not where its value is another; pieces read in batches, last first.
    #[test]
    fn exits_are_marked_where_the_exit_gives_the_value() {
        let size = 3 * PIECE + 100;
        let mut chunks = States::chunks(size);
        let far = Value::Win(SHORT + 20);
        // Slot, its value, and what its exit would give.
        let slots: [(usize, Value, Value); 6] = [
            (5, Value::Win(7), Value::Win(7)),
            (6, Value::Win(5), Value::Win(7)),
            (PIECE + 1, far, far),
            (PIECE + 2, Value::Win(SHORT + 10), far),
            (
                2 * PIECE + 9,
                Value::Loss(SHORT + 3),
                Value::Loss(SHORT + 3),
            ),
            (3 * PIECE + 99, Value::Loss(4), Value::Loss(4)),
        ];
        let mut long = Long::default();
        let mut due: Vec<Vec<(u16, u16, u16)>> = vec![Vec::new(); 4];
        for &(slot, value, exit) in &slots {
            crate::states::set(&mut chunks[0].slots()[slot], Start::Decided(value));
            let n = value.distance().unwrap();
            if n > SHORT {
                long.push(n, vec![slot as Slot]);
            }
            let what = match exit {
                Value::Win(_) => WIN,
                _ => COUNT_DOWN,
            };
            let offset = (slot % PIECE) as u16;
            due[slot / PIECE].push((exit.distance().unwrap() - 1, what, offset));
        }
        let pieces = || {
            (due.iter().enumerate())
                .map(|(at, due)| Piece::new((at * PIECE) as Slot, due.clone()))
                .collect()
        };
        let ended = Ended {
            states: States::new(chunks, Vec::new(), false),
            long,
        };
        for at_once in [1, 3, MARKED_AT_ONCE] {
            let words = ended.exits_by(pieces(), due_exit, at_once);
            let marked: Vec<usize> = (0..size)
                .filter(|&slot| words[slot / 64] >> (slot % 64) & 1 == 1)
                .collect();
            assert_eq!(marked, [5, PIECE + 1, 2 * PIECE + 9, 3 * PIECE + 99]);
        }
    }

    /// The un-move solver and the reverse-graph solver are written apart.
    #[test]
    fn retracting_and_reverse_graph_solvers_agree() {
        let progress = Progress::hidden();
        agree_below_krvkn(
            &|game, tier, earlier| solve_retracting_tier(game, game, tier, earlier, &progress),
            &|game, tier, earlier| solve_retrograde_tier(game, tier, earlier, &progress),
        );
    }

    /// Plies that find their slots by the states give every slot the code
    /// plies that list them give: ply lists let go as soon as a thread has
    /// listed [`COUNTED`] slots, and never. (A slot the states' pass misses
    /// changes the codes: the test fails.)
    #[test]
    fn plies_by_states_and_by_lists_agree() {
        let progress = &Progress::hidden();
        let listing = |listed_at_most| {
            move |game: &Endgame, tier, earlier: Solved<games::chess::Board>| {
                let (graph, scans) = ReverseGraph::build(game, tier, earlier);
                let mut counts = scanned(scans.len(), &PerSlot(|slot| scans[slot]), progress);
                counts.listed_at_most = listed_at_most;
                solve_plies(game, counts, &graph, progress)
            }
        };
        agree_below_krvkn(&listing(usize::MAX), &listing(0));
    }
}

/// A tier whose positions lie past the first 2^32 slots: slots are 64 bits
/// while solved.
#[cfg(test)]
mod far_slots {
    use super::*;
    use games::{Child, GameError, ValueKind};

    /// Take one or two from a pile of up to `piles` (a pile of none is
    /// lost), plus a position whose one move leads back to itself (a draw,
    /// numbered `piles + 1`), each stored `first` slots up the tier: pile `k`
    /// at `first + k`.
    struct Far {
        first: u64,
        piles: u64,
    }

    impl Far {
        fn is_loop(&self, position: u64) -> bool {
            position == self.piles + 1
        }
    }

    impl Game for Far {
        type Position = u64;
        type Move = u64;

        fn id(&self) -> &'static str {
            "far"
        }

        fn value_kind(&self) -> ValueKind {
            ValueKind::WinLossDraw
        }

        fn index_size(&self, _tier: u32) -> u64 {
            self.first + self.piles + 2
        }

        fn index(&self, position: &u64) -> u64 {
            self.first + position
        }

        fn position_at(&self, _tier: u32, index: u64) -> Option<u64> {
            index.checked_sub(self.first)
        }

        fn start(&self) -> u64 {
            self.piles
        }

        fn moves(&self, position: &u64) -> Vec<u64> {
            match *position {
                pile if self.is_loop(pile) => vec![pile],
                pile => (1..=2).filter_map(|take| pile.checked_sub(take)).collect(),
            }
        }

        fn play(&self, _position: &u64, to: &u64) -> Child<u64> {
            Child::passing(*to)
        }

        fn end_value(&self, position: &u64) -> Option<Value> {
            (*position == 0).then_some(Value::Loss(0))
        }

        fn parse_position(&self, text: &str) -> Result<u64, GameError> {
            text.parse()
                .map_err(|_| GameError::position(text, "a pile".to_string()))
        }

        fn write_position(&self, position: &u64) -> String {
            position.to_string()
        }

        fn write_move(&self, _position: &u64, to: &u64) -> String {
            to.to_string()
        }
    }

    impl Retract<Far> for Far {
        fn predecessors(&self, _tier: u32, position: &u64, visit: &mut dyn FnMut(u64)) {
            match *position {
                pile if self.is_loop(pile) => visit(self.index(&pile)),
                pile => (1..=2)
                    .map(|put| pile + put)
                    .filter(|&from| from <= self.piles)
                    .for_each(|from| visit(self.index(&from))),
            }
        }
    }

    /// Solves the tier `first` slots up and checks every position against
    /// the formula: a pile of `3m` is lost in `2m` plies, one of `3m + 1` or
    /// `3m + 2` won in `2m + 1`.
    fn solve_from(first: u64, piles: u64) {
        let game = Far { first, piles };
        let codes = solve_retracting_tier(&game, &game, 0, &|_| Value::Draw, &Progress::hidden());
        for pile in 0..=piles + 1 {
            let value = Value::from_code(ValueKind::WinLossDraw, codes.get(first + pile));
            let m = (pile / 3) as u16;
            let expected = match pile {
                _ if game.is_loop(pile) => Value::Draw,
                _ if pile % 3 == 0 => Value::Loss(2 * m),
                _ => Value::Win(2 * m + 1),
            };
            assert_eq!(
                value,
                Some(expected),
                "pile {pile} at slot {}",
                first + pile
            );
        }
    }

    #[test]
    fn a_tier_near_its_first_slot_solves_by_the_formula() {
        solve_from(0, 40);
    }

    /// Distances past what a state's byte holds (76 plies) and past what a
    /// code's byte holds (126), to 399 plies: the long lists, and the codes
    /// kept apart.
    #[test]
    fn long_distances_solve_by_the_formula() {
        solve_from(0, 600);
        solve_from(1000, 600);
    }

    /// Holds some 4.4 GB (a byte a slot, then the codes) for some 12 seconds.
    #[test]
    fn a_tier_across_the_32_bit_boundary_solves_by_the_formula() {
        // Piles 0 to 15 below 2^32, the rest and the loop above.
        solve_from((1 << 32) - 16, 40);
    }
}
