//! The solver of chess endings with pawns. A tier's slots are spelled pawns
//! first, most advanced placements first ([`games::chess::pawns`]), so the
//! placements of one advancement are one run of slots, a slice, and every pawn
//! move leads out of it to an earlier slice. Slices are solved in order, each by
//! the plies of [`crate::retrograde`] on its own slots: inside a slice only the
//! kings and pieces move, and pawn moves are valued, like captures and
//! promotions, from codes already known. A double step that gives the opponent
//! an en passant capture is valued through the position with that right,
//! whose moves all lead to known codes.

use super::{
    Dtm, Known, PairShare, Pieces, Sight, Told, captured_at, known_outcome, leave, moved, role,
};
use crate::order::Solved;
use crate::progress::Progress;
use crate::retrograde::{Parents, Scan, Scans, scanned_keeping_exits, solve_scanned_marking_exits};
use crate::states::{Outcome, Slot};
use crate::tier_codes::{Packed, Solution, TierCodes};
use games::chess::piece::is_pawn;
use games::chess::{
    Board, Color, Endgame, Layout, PROMOTIONS, PawnSlots, Placements, Role, Square, attacks,
};
use games::{Game, Value};
use std::collections::VecDeque;
use std::ops::Range;
use tables::Codes;

/// One slice of a tier being solved, or a part of one (a run of its
/// placements): what its scans and un-moves read.
pub(super) struct Slice<'a, S: Solved> {
    game: &'a Endgame,
    tier: u32,
    /// The slice's first slot, and the first slot after it.
    start: u64,
    end: u64,
    /// The slice's first placement, and whether each of its placements is its
    /// own mirror image (then a position may be stored as its image).
    first: usize,
    symmetric: Vec<bool>,
    /// How many slots one placement spans, and how slots are spelled.
    per_placement: u64,
    slots: PawnSlots,
    /// The tier's codes, every earlier slice solved.
    own: &'a dyn TierCodes,
    /// The codes of the tiers before.
    solved: &'a S,
    /// Under DTZ, the 50-move limit a capture or pawn move restarts.
    reset: Option<u16>,
    /// What the scans are told of the tier's codes (see [`known_outcome`]).
    outcomes: Option<Told<'a>>,
}

impl<S: Solved> Slice<'_, S> {
    /// The placement of a slot, as a number within the slice.
    #[inline]
    fn placement(&self, slot: u64) -> usize {
        (slot / self.per_placement) as usize - self.first
    }

    /// The value for its side to move of a position after a pawn's push: from
    /// an earlier slice of this tier.
    fn pushed(&self, layout: &Layout) -> Value {
        let slot = self.game.slot_of_layout(self.tier, false, layout);
        debug_assert!(slot < self.start, "a pawn move leads to an earlier slice");
        Value::from_code(self.game.value_kind(), self.own.code(slot))
            .expect("a solved legal position")
    }

    /// The value for its side to move of a position after a move, without an
    /// en passant right: from an earlier slice of this tier or a tier before.
    fn value_of(&self, layout: &Layout) -> Value {
        let (tier, slot) = self.game.locate(layout);
        let code = match tier == self.tier {
            true => {
                debug_assert!(slot < self.start, "a pawn move leads to an earlier slice");
                self.own.code(slot)
            }
            false => self.solved.code(tier, slot),
        };
        Value::from_code(self.game.value_kind(), code).expect("a solved legal position")
    }

    /// The value of a board for its side to move, through its moves where it
    /// has an en passant right.
    fn board_value(&self, board: &Board) -> Value {
        match board.ep_square() {
            None => self.value_of(&Layout::of(board)),
            Some(_) => {
                games::value_from_children(self.game, board, |child| self.board_value(child))
            }
        }
    }

    /// The value for the opponent of the position after a double step to `to`:
    /// with an en passant right where a capture uses it.
    fn after_double_step(&self, after: &Layout, skipped: Square) -> Value {
        let beside = attacks().pawn(after.turn.other(), skipped);
        let capturers = after.others[..after.count].iter().any(|&(kind, sq)| {
            kind == after.turn as u8 * 8 + Role::Pawn as u8 && beside & sq.bit() != 0
        });
        if !capturers {
            return self.pushed(after);
        }
        let mut board = after.board().expect("a legal position's pieces apart");
        board.set_ep_square(Some(skipped));
        self.board_value(&board)
    }

    /// Whether the slot holds the position `layout` spells: no two pieces on a
    /// square, the side not to move not in check, and stored as it stands
    /// (where the placement is not its own mirror image, every position is).
    #[inline]
    fn legal(&self, slot: u64, layout: &Layout, sight: &Sight) -> bool {
        sight.sound(layout)
            && (!self.symmetric[self.placement(slot)]
                || self.game.stored_slot_of(self.tier, layout) == Some(slot))
    }

    /// Every move of the position `layout` at `slot`, whose sight is `sight`:
    /// what it settles, as the generic solver's scan has it. Each piece's moves
    /// are masked as in the pawnless scan (along a pin, onto a checker or between
    /// it and the king); a pawn's by the same mask.
    fn scan(&self, slot: u64, layout: &Layout, sight: &Sight) -> Scan {
        if !self.legal(slot, layout, sight) {
            return Scan::default();
        }
        let layout = *layout;
        let pieces = &sight.pieces;
        let (mover, opponent) = (layout.turn as usize, layout.turn.other());
        let enemy_king = layout.kings[opponent as usize].bit();
        let mut scan = Scan {
            legal: true,
            ..Scan::default()
        };
        let own_king = layout.kings[mover];
        let danger = sight.danger(opponent, own_king);
        let in_check = sight.seen[opponent as usize] & own_king.bit() != 0;
        let allowed = sight.allowed(opponent, own_king);
        let enemies = sight.sides[opponent as usize] & !enemy_king;
        let mut legal_moves = 0;
        for (at, &(kind, _)) in pieces.list[..pieces.len].iter().enumerate() {
            if Pieces::color(kind) as usize != mover {
                continue;
            }
            if is_pawn(kind) {
                let reach = allowed[at];
                let legal = |to: Square| reach & to.bit() != 0;
                legal_moves += self.pawn_moves(&layout, pieces, at, legal, &mut scan);
                continue;
            }
            let mut targets = sight.attacks[at] & !sight.sides[mover] & allowed[at];
            if at == mover {
                targets &= !danger;
            }
            let quiet = (targets & !pieces.occupied).count_ones();
            legal_moves += quiet;
            scan.out_degree += quiet;
            targets &= enemies;
            while targets != 0 {
                let to = Square::first(targets);
                targets &= targets - 1;
                legal_moves += 1;
                let after = moved(&layout, at, to, Some(captured_at(&layout, to)));
                leave(&mut scan, self.value_of(&after), self.reset, true);
            }
        }
        if legal_moves == 0 {
            scan = Scan {
                legal: true,
                end: Some(if in_check {
                    Value::Loss(0)
                } else {
                    Value::Draw
                }),
                ..Scan::default()
            };
        }
        scan
    }

    /// Values every legal move of the pawn at `at` (a push, a double step, a
    /// capture, each promotion) into `scan`; returns how many there are.
    fn pawn_moves(
        &self,
        layout: &Layout,
        pieces: &Pieces,
        at: usize,
        legal: impl Fn(Square) -> bool,
        scan: &mut Scan,
    ) -> u32 {
        let (kind, from) = pieces.list[at];
        let mover = layout.turn;
        let enemy_king = layout.kings[mover.other() as usize].bit();
        let own = pieces.list[..pieces.len]
            .iter()
            .filter(|p| Pieces::color(p.0) == mover)
            .fold(0u64, |bits, p| bits | p.1.bit());
        let enemies = pieces.occupied & !own & !enemy_king;
        let step = |sq: Square| {
            sq.offset((0, mover.forward()))
                .expect("a pawn is off the last rank")
        };
        let last_rank = |sq: Square| sq.rank() == if mover == Color::White { 7 } else { 0 };
        let mut moves = 0;
        // Where the pawn goes (a push, two captures at most), and what it takes there.
        let mut goes = [(Square::default(), None); 3];
        let mut count = 0;
        let one = step(from);
        if pieces.occupied & one.bit() == 0 {
            goes[0] = (one, None);
            count = 1;
        }
        let mut takes = attacks().pawn(mover, from) & enemies;
        while takes != 0 {
            let to = Square::first(takes);
            takes &= takes - 1;
            goes[count] = (to, Some(captured_at(layout, to)));
            count += 1;
        }
        for &(to, captured) in &goes[..count] {
            if !legal(to) {
                continue;
            }
            if last_rank(to) {
                for role in PROMOTIONS {
                    let mut promoting = *layout;
                    promoting.others[at - 2].0 = kind - Role::Pawn as u8 + role as u8;
                    let after = moved(&promoting, at, to, captured);
                    leave(scan, self.value_of(&after), self.reset, true);
                }
                moves += 4;
            } else {
                let after = moved(layout, at, to, captured);
                let value = match captured {
                    Some(_) => self.value_of(&after),
                    None => self.pushed(&after),
                };
                leave(scan, value, self.reset, captured.is_some());
                moves += 1;
            }
        }
        // The double step from the second rank, over an empty square.
        let second = if mover == Color::White { 1 } else { 6 };
        if from.rank() == second && pieces.occupied & one.bit() == 0 {
            let two = step(one);
            if pieces.occupied & two.bit() == 0 && legal(two) {
                let after = moved(layout, at, two, None);
                leave(scan, self.after_double_step(&after, one), self.reset, false);
                moves += 1;
            }
        }
        moves
    }

    /// Calls `visit` with the slot of every stored position of the slice with a
    /// quiet move of a king or piece into the slot's class, once per such move.
    /// The pawns stay, so a parent's slot is arithmetic on the image's parts,
    /// except where the placement is its own mirror image and the parent may be
    /// stored as its image.
    fn predecessors(&self, slot: u64, mut visit: impl FnMut(u64)) {
        let (game, tier) = (self.game, self.tier);
        let layout = game.layout_at(tier, slot).expect("a decided slot is legal");
        let symmetric = self.symmetric[self.placement(slot)];
        let placement = slot / self.per_placement;
        let mirror = layout.file_mirrored();
        let views: &[Layout] = match symmetric && mirror != layout {
            true => &[layout, mirror],
            false => &[layout],
        };
        let attacks = attacks();
        for image in views {
            let mover = image.turn.other();
            let occupied = image.kings[0].bit()
                | image.kings[1].bit()
                | image.others[..image.count]
                    .iter()
                    .fold(0, |bits, p| bits | p.1.bit());
            let pieces = image.without_pawns();
            let squares = pieces.squares();
            // The parent is built only where it may be stored as its image.
            let mut found = |parent: &dyn Fn() -> Layout, slot: Option<u64>| match symmetric {
                false => slot.into_iter().for_each(&mut visit),
                true => game
                    .stored_slot_of(tier, &parent())
                    .into_iter()
                    .for_each(&mut visit),
            };
            let king = image.kings[mover as usize];
            let mut froms = attacks.king(king) & !occupied;
            while froms != 0 {
                let from = Square::first(froms);
                froms &= froms - 1;
                let [wk, bk] = image.kings;
                let kings = match mover {
                    Color::White => [from, bk],
                    Color::Black => [wk, from],
                };
                found(
                    &|| moved(image, mover as usize, from, None),
                    self.slots.slot(placement, kings, squares, mover),
                );
            }
            for (i, &(kind, to)) in pieces.others[..pieces.count].iter().enumerate() {
                if Pieces::color(kind) != mover {
                    continue;
                }
                let unique = pieces.unique(i);
                let weight = pieces.weight(i);
                let at = image.others[..image.count]
                    .iter()
                    .position(|p| p.1 == to)
                    .expect("the piece");
                let mut froms = attacks.targets(role(kind), to, occupied) & !occupied;
                while froms != 0 {
                    let from = Square::first(froms);
                    froms &= froms - 1;
                    let parent = || moved(image, at + 2, from, None);
                    let parent_squares = match unique {
                        true => {
                            squares - u64::from(to.number()) * weight
                                + u64::from(from.number()) * weight
                        }
                        false => parent().in_order().without_pawns().squares(),
                    };
                    found(
                        &parent,
                        self.slots
                            .slot(placement, image.kings, parent_squares, mover),
                    );
                }
            }
        }
    }
}

impl<S: Solved> Scans for Slice<'_, S> {
    fn run(&self, slots: Range<usize>, mut visit: impl FnMut(Scan)) {
        // Both sides to move share a position's pieces and its sight, one slot
        // after the other: spelled once for the pair.
        let mut shared = PairShare::new();
        for slot in slots {
            let slot = self.start + slot as u64;
            let known = known_outcome(self.outcomes, slot);
            if known == Some(Known::Empty) {
                visit(Scan::default());
                continue;
            }
            let seen = shared.of(slot, || {
                let layout = self.game.layout_at(self.tier, slot);
                layout.map(|l| (l, Sight::of(&l)))
            });
            visit(match seen {
                Some((layout, sight)) => {
                    let turn = if slot % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let layout = Layout { turn, ..*layout };
                    match known {
                        Some(Known::Draw) => Known::draw(self.legal(slot, &layout, sight)),
                        _ => self.scan(slot, &layout, sight),
                    }
                }
                None => Scan::default(),
            });
        }
    }

    fn tells(&self) -> bool {
        Told::tells(self.outcomes)
    }

    #[inline]
    fn told(&self, slot: Slot) -> Option<Outcome> {
        Told::will(self.outcomes, self.start + slot)
    }
}

impl<S: Solved> Parents for Slice<'_, S> {
    fn each(&self, slot: Slot, mut visit: impl FnMut(Slot)) {
        self.predecessors(self.start + slot, |parent| {
            debug_assert!((self.start..self.end).contains(&parent));
            visit(parent - self.start)
        });
    }
}

/// Each slice of a tier with pawns whose slots hold `codes`, as its scans read
/// it: the tiers below in `solved`, the draws of `codes` taken as known.
pub(super) fn slices<'a, S: Solved>(
    game: &'a Endgame,
    tier: u32,
    placements: &Placements,
    codes: &'a dyn TierCodes,
    solved: &'a S,
) -> Vec<Slice<'a, S>> {
    let told = Some(Told::own(game, codes));
    placements
        .slices()
        .map(|run| Slice::of(game, tier, placements, run, codes, solved, told))
        .collect()
}

impl<'a, S: Solved> Slice<'a, S> {
    /// The slice (or part of one) of `tier`'s placements `run`, reading the
    /// tier's codes so far from `own` and the tiers below from `solved`.
    fn of(
        game: &'a Endgame,
        tier: u32,
        placements: &Placements,
        run: Range<usize>,
        own: &'a dyn TierCodes,
        solved: &'a S,
        outcomes: Option<Told<'a>>,
    ) -> Self {
        let per_placement = game.placement_size(tier);
        Slice {
            game,
            tier,
            start: run.start as u64 * per_placement,
            end: run.end as u64 * per_placement,
            first: run.start,
            symmetric: run.clone().map(|i| placements.is_symmetric(i)).collect(),
            per_placement,
            slots: game.pawn_slots(tier),
            own,
            solved,
            reset: super::reset(game),
            outcomes,
        }
    }
}

impl<S: Solved> Slice<'_, S> {
    /// The slice's slots.
    pub(super) fn span(&self) -> Range<u64> {
        self.start..self.end
    }
}

/// How many of the slices solved last a tier keeps a byte a slot while it packs
/// the others: a pawn's push leads into the slice solved last, a double step
/// into the one before it.
const WINDOW: usize = 2;

/// The most slots of a slice solved at once, its placements taken a run at a
/// time (one at least): inside a slice only kings and pieces move, so no
/// move leads from one placement to another, and a solve's states and lists
/// need only hold one part. KRPvKR's slices are four placements of about 30
/// million slots each.
pub(super) const PART_SLOTS: u64 = 1 << 25;

/// A pawn tier's codes while its slices are solved: every slice so far.
enum Own {
    /// Held whole, each part written into them.
    Whole(Codes),
    /// The parts of the window's slices and of the slice being solved a byte
    /// a slot, each with its slice's number and first slot; those before
    /// packed.
    Packing {
        packed: Packed,
        window: VecDeque<(usize, u64, Codes)>,
    },
}

impl Own {
    /// Packs what the slice numbered `slice` and those after it read no more:
    /// the parts of slices more than [`WINDOW`] before it.
    fn begin(&mut self, slice: usize) {
        if let Own::Packing { packed, window } = self {
            while let Some(&(oldest, first, _)) = window.front() {
                if oldest + WINDOW >= slice {
                    break;
                }
                debug_assert_eq!(first, packed.slots(), "parts packed in order");
                let (_, _, codes) = window.pop_front().expect("a part");
                packed.push(&codes);
            }
        }
    }

    /// Takes the codes of the part of slice `slice` that starts at `start`,
    /// the next one.
    fn add(&mut self, slice: usize, start: u64, part: Codes) {
        match self {
            Own::Whole(codes) => codes.write_at(start, &part),
            Own::Packing { window, .. } => window.push_back((slice, start, part)),
        }
    }

    /// Every slice's codes, the tier solved.
    fn finish(self) -> Solution {
        match self {
            Own::Whole(codes) => Solution::held(codes),
            Own::Packing { mut packed, window } => {
                for (_, _, part) in window {
                    packed.push(&part);
                }
                Solution::packed(packed)
            }
        }
    }
}

impl TierCodes for Own {
    #[inline]
    fn code(&self, slot: u64) -> u16 {
        match self {
            Own::Whole(codes) => codes.get(slot),
            Own::Packing { packed, window } => {
                for (_, start, part) in window {
                    if let Some(at) = slot.checked_sub(*start).filter(|&at| at < part.len()) {
                        return part.get(at);
                    }
                }
                // A slice before the window: none of a tier's pawn moves reach it.
                packed.code(slot)
            }
        }
    }

    fn slots(&self) -> u64 {
        match self {
            Own::Whole(codes) => codes.len(),
            Own::Packing { packed, window } => {
                packed.slots() + window.iter().map(|(_, _, p)| p.len()).sum::<u64>()
            }
        }
    }
}

/// Solves a tier with pawns slice by slice, most advanced first, the tiers
/// its captures and promotions lead to given in `solved`. With `pack` (a
/// number of slots), each slice is solved in parts of at most that many slots
/// (a placement at least), and only the last [`WINDOW`] slices are held a
/// byte a slot as the next is solved, those before compressed in memory
/// (KRPvKR's 710 million slots: about 220 MB held, not 710 MB); without, the
/// tier is held whole and each slice solved at once. Under DTZ, what `dtm`
/// settles is read a part at a time too. Each part's scans keep its slots'
/// best captures and promotions, so that the solution marks the slots they
/// decide (a bit a slot of the tier: KRPvKR's 89 MB).
pub(super) fn solve_tier(
    game: &Endgame,
    tier: u32,
    placements: &Placements,
    solved: &mut impl Solved,
    dtm: Option<Dtm>,
    progress: &Progress,
    pack: Option<u64>,
) -> Solution {
    let per_placement = game.placement_size(tier);
    // The slots a move out of the tier decides, a bit a slot of the tier.
    let mut exits = vec![0u64; game.index_size(tier).div_ceil(64) as usize];
    let mut own = match pack {
        Some(_) => Own::Packing {
            packed: Packed::new(),
            window: VecDeque::new(),
        },
        // A byte a slot, written a slice at a time.
        None => Own::Whole(Codes::new(game.index_size(tier))),
    };
    // The tiers only a promotion leads to are read by the slices up to the
    // last where a pawn stands on its seventh rank (the first, with one pawn).
    let promoting = placements.slices().map(|s| promotes(placements, s));
    let last_promoting = promoting
        .enumerate()
        .filter(|&(_, p)| p)
        .map(|(i, _)| i)
        .last();
    let per_part = match pack {
        Some(part_slots) => (part_slots / per_placement).max(1) as usize,
        None => usize::MAX,
    };
    for (i, placements_of_slice) in placements.slices().enumerate() {
        own.begin(i);
        let parts = placements_of_slice.clone().step_by(per_part);
        for first in parts {
            let part = first..first.saturating_add(per_part).min(placements_of_slice.end);
            let start = part.start as u64 * per_placement;
            let end = part.end as u64 * per_placement;
            let outcomes = dtm.and_then(|dtm| dtm.outcomes(start..end));
            let told = outcomes.as_ref().map(Told::Dtm);
            let slice = Slice::of(game, tier, placements, part, &own, &*solved, told);
            let counts = scanned_keeping_exits((end - start) as usize, &slice, progress);
            let (local, marks) = solve_scanned_marking_exits(game, counts, &slice, progress);
            mark_at(&mut exits, start, &marks, end - start);
            own.add(i, start, local);
            solved.release();
        }
        if Some(i) == last_promoting {
            solved.let_go(&game.tiers_only_promoted_to(tier));
        }
    }
    own.finish().marking(exits)
}

/// Sets in `words`, the bits of a tier, from bit `start` on, the first `len`
/// bits of `bits`, a part of the tier.
fn mark_at(words: &mut [u64], start: u64, bits: &[u64], len: u64) {
    for (at, &word) in bits.iter().enumerate() {
        let first = at as u64 * 64;
        let word = match len - first {
            left if left < 64 => word & ((1 << left) - 1),
            _ => word,
        };
        let bit = start + first;
        let (to, shift) = ((bit / 64) as usize, bit % 64);
        words[to] |= word << shift;
        if shift > 0 && word >> (64 - shift) != 0 {
            words[to + 1] |= word >> (64 - shift);
        }
    }
}

/// Whether a pawn of some placement of `slice` stands on its seventh rank.
fn promotes(placements: &Placements, slice: Range<usize>) -> bool {
    slice.filter_map(|i| placements.get(i)).any(|pawns| {
        let on = |side: usize, rank| {
            let squares = &pawns.squares[side][..pawns.counts[side]];
            squares.iter().any(|sq| sq.rank() == rank)
        };
        on(Color::White as usize, 6) || on(Color::Black as usize, 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::chess::{Material, Metric};
    use games::value::NO_POSITION;

    /// Solves `name` and every tier below it, keeping every tier's codes.
    fn solve_chain(game: &Endgame) -> Vec<Codes> {
        let progress = Progress::hidden();
        let mut solved: Vec<Codes> = Vec::new();
        for tier in game.tiers() {
            let codes = super::super::solve_tier(game, tier, &mut solved, &progress);
            solved.push(codes);
        }
        solved
    }

    /// The value of a board from the codes, through its moves where it has an
    /// en passant right: the board's own move generator, not the solver's.
    fn looked_up(game: &Endgame, solved: &[Codes], board: &Board) -> Value {
        if board.ep_square().is_some() {
            return games::value_from_children(game, board, |child| looked_up(game, solved, child));
        }
        let code = solved[game.tier_of(board) as usize].get(game.index(board));
        Value::from_code(game.value_kind(), code).expect("a legal position has a value")
    }

    /// Every `step`th slot of every tier with pawns holds the best of its moves,
    /// each valued from the codes on boards (with the right terminal values,
    /// this fixes every distance); returns the positions checked.
    fn agrees_with_its_moves(game: &Endgame, solved: &[Codes], step: usize) -> usize {
        let mut checked = 0;
        for tier in game
            .tiers()
            .into_iter()
            .filter(|&t| game.placements(t).is_some())
        {
            for slot in (0..game.index_size(tier)).step_by(step) {
                let code = solved[tier as usize].get(slot);
                let Some(board) = game.position_at(tier, slot) else {
                    assert_eq!(code, NO_POSITION, "{} slot {slot}", game.tier_name(tier));
                    continue;
                };
                let stored = Value::from_code(game.value_kind(), code).expect("a legal position");
                let moves = games::value_from_children(game, &board, |child| {
                    looked_up(game, solved, child)
                });
                assert_eq!(stored, moves, "{}", board.fen());
                checked += 1;
            }
        }
        checked
    }

    /// Bits of parts laid into a tier's from any bit on, past a word's end
    /// or not, as one long run: each part's bits past its length ignored.
    #[test]
    fn marks_of_parts_land_at_their_slots() {
        let mut words = vec![0u64; 4];
        // Bits 0..70 of a part: every third; bits past 70 set but not its.
        let part: Vec<u64> = (0..2)
            .map(|w| {
                (0..64)
                    .filter(|b| (w * 64 + b) % 3 == 0)
                    .fold(0, |x, b| x | 1 << b)
            })
            .map(|w| w | 1 << 63)
            .collect();
        mark_at(&mut words, 0, &[1], 1);
        mark_at(&mut words, 100, &part, 70);
        let set: Vec<u64> = (0..256)
            .filter(|&b| words[b / 64] >> (b % 64) & 1 == 1)
            .map(|b| b as u64)
            .collect();
        let mut expected = vec![0];
        expected.extend((0..70).filter(|b| b % 3 == 0 || b == &63).map(|b| 100 + b));
        assert_eq!(set, expected);
    }

    /// KPvK, the first ending every player learns: every position agrees with
    /// its moves, and the figures are the published ones.
    #[test]
    fn king_and_pawn_against_king() {
        let game = Endgame::new(&Material::parse("KPvK").unwrap());
        let solved = solve_chain(&game);
        assert_eq!(agrees_with_its_moves(&game, &solved, 1), 165_676);
    }

    /// Under DTZ, every position agrees with its moves, each capture and pawn
    /// move counted by the outcome it leads to.
    #[test]
    fn king_and_pawn_against_king_under_dtz() {
        let game = Endgame::new(&Material::parse("KPvK").unwrap()).with_metric(Metric::Dtz);
        let solved = solve_chain(&game);
        assert_eq!(agrees_with_its_moves(&game, &solved, 1), 165_676);
    }

    /// Pawns on both sides, with double steps that allow en passant.
    #[test]
    fn pawn_against_pawn() {
        let game = Endgame::new(&Material::parse("KPvKP").unwrap());
        let solved = solve_chain(&game);
        assert!(agrees_with_its_moves(&game, &solved, 7) > 400_000);
    }

    /// A tier whose slices are packed as the later ones are solved (its
    /// pushes and double steps read from the window, anything older from the
    /// packed runs), and one whose slices are solved a placement at a time
    /// too, have every code of the tier held whole, and mark the same exits:
    /// KPvKP's eleven slices under DTM, KPvK's six under DTZ.
    #[test]
    fn packed_slices_solve_as_held_ones() {
        let progress = Progress::hidden();
        for (material, metric) in [("KPvKP", Metric::Dtm), ("KPvK", Metric::Dtz)] {
            let game = Endgame::new(&Material::parse(material).unwrap()).with_metric(metric);
            let mut solved: Vec<Codes> = Vec::new();
            for tier in game.tiers() {
                let mut pack = |above| {
                    super::super::solve_tier_packing(
                        &game,
                        tier,
                        &mut solved,
                        None,
                        &progress,
                        above,
                    )
                };
                let (held, packed) = (pack(u64::MAX), pack(0));
                let packs = packed.is_packed();
                assert_eq!(packs, game.placements(tier).is_some());
                let marks = held.exits().expect("every tier marks its exits").clone();
                assert!(packed.exits() == Some(&marks), "{}", game.tier_name(tier));
                let (held, packed) = (held.into_codes(), packed.into_codes());
                assert!(held == packed, "{material} {}", game.tier_name(tier));
                if let Some(placements) = game.placements(tier) {
                    let words = marks.unpack();
                    assert!(words.iter().any(|&w| w != 0), "{}", game.tier_name(tier));
                    let each = Some(1);
                    let parts =
                        solve_tier(&game, tier, placements, &mut solved, None, &progress, each);
                    let name = game.tier_name(tier);
                    assert!(parts.exits() == Some(&marks), "{name}: a placement a part");
                    assert!(
                        held == parts.into_codes(),
                        "{material} {name}: a placement a part"
                    );
                }
                solved.push(held);
            }
        }
    }
}
