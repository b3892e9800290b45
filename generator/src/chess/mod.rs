//! The dedicated pawnless chess solver. It plays the plies of the generic
//! retracting solver ([`crate::retrograde`]) on the same slots, but reads each
//! slot as a [`Layout`] (two kings, at most a few other pieces, the side to move)
//! and finds moves and un-moves with attack bitboards, never building a board:
//! a quiet un-move changes one square of the layout, so a parent's slot is
//! arithmetic on the image's, and only a parent with both kings on the long
//! diagonal (or whose colours may swap) is compared with its symmetric images.
//! Captures read the smaller endings solved before.
//! The generic solver stays as its oracle: both give every slot the same code.

use crate::Files;
use crate::order::{Solved, Store};
use crate::output::{Summary, WriteOptions};
use crate::progress::Progress;
use crate::retrograde::{
    Counts, Outside, Parents, Scan, Scans, scanned, scanned_by_parts, solve_scanned_marking_exits,
};
use crate::states::{Outcome, Slot};
use crate::tier_codes::{Solution, TierCodes};
use games::chess::{
    Color, Endgame, FIFTY_MOVES, Layout, MAX_PIECES, Metric, Role, Settled, Square, Walk, attacks,
};
use games::spec::Options;
use games::value::NO_POSITION;
use games::{Game, Value, ValueKind};
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;
use tables::Codes;

mod pawns;
pub(crate) mod wdl;

/// A layout's pieces as `(colour * 8 + role, square)`, kings first, with the
/// occupied squares.
#[derive(Clone, Copy)]
struct Pieces {
    list: [(u8, Square); 6],
    len: usize,
    occupied: u64,
}

/// The role of a piece written `colour * 8 + role`.
#[inline]
fn role(kind: u8) -> Role {
    Role::ALL[usize::from(kind % 8)]
}

impl Pieces {
    #[inline]
    fn of(layout: &Layout) -> Pieces {
        let mut list = [(0u8, Square::default()); 6];
        list[0] = (Role::King as u8, layout.kings[0]);
        list[1] = (8 + Role::King as u8, layout.kings[1]);
        // All of `others`, a copy of known length (the unused ones are empty).
        list[2..MAX_PIECES].copy_from_slice(&layout.others);
        let len = 2 + layout.count;
        let occupied = list[..len].iter().fold(0u64, |bits, p| bits | p.1.bit());
        Pieces {
            list,
            len,
            occupied,
        }
    }

    #[inline]
    fn color(kind: u8) -> Color {
        if kind < 8 { Color::White } else { Color::Black }
    }
}

/// The layout after the piece at `at` (0, 1: the kings; then `others`) moves to
/// `to`, with the piece at `captured` in `others` removed, the other side to move.
/// Built whole, field by field: a square written into a copy of the layout and
/// the copy read back at once waits on the write.
#[inline]
fn moved(layout: &Layout, at: usize, to: Square, captured: Option<usize>) -> Layout {
    let [wk, bk] = layout.kings;
    let kings = match at {
        0 => [to, bk],
        1 => [wk, to],
        _ => [wk, bk],
    };
    let others: [(u8, Square); MAX_PIECES - 2] = std::array::from_fn(|i| match i + 2 == at {
        true => (layout.others[i].0, to),
        false => layout.others[i],
    });
    let Some(c) = captured else {
        return Layout {
            kings,
            others,
            count: layout.count,
            turn: layout.turn.other(),
        };
    };
    Layout {
        kings,
        others: std::array::from_fn(|i| match i {
            _ if i < c => others[i],
            _ if i + 1 < layout.count => others[i + 1],
            _ => (0, Square::default()),
        }),
        count: layout.count - 1,
        turn: layout.turn.other(),
    }
}

/// How the field of a layout's squares (see [`Layout::squares`]) follows a
/// step of its piece at `at` (not a king), where a slot is arithmetic on it.
#[derive(Clone, Copy)]
enum Field {
    /// A piece with no twin adds its square times its weight to the rest.
    Lone { rest: u64, weight: u64 },
    /// A piece with a twin re-ranks the set of their squares.
    Twinned,
}

impl Field {
    /// The field of `layout`'s piece at `at`, the layout's being `squares`.
    #[inline]
    fn of(layout: &Layout, at: usize, squares: u64) -> Field {
        let i = at - 2;
        if !layout.unique(i) {
            return Field::Twinned;
        }
        let weight = layout.weight(i);
        let rest = squares - u64::from(layout.others[i].1.number()) * weight;
        Field::Lone { rest, weight }
    }

    /// The layout's field with its piece at `at` on `to` instead.
    #[inline]
    fn with(self, layout: &Layout, at: usize, to: Square) -> u64 {
        match self {
            Field::Lone { rest, weight } => rest + u64::from(to.number()) * weight,
            Field::Twinned => moved(layout, at, to, None).in_order().squares(),
        }
    }
}

/// Where in a layout's others the piece on `to` stands (a capture's victim).
fn captured_at(layout: &Layout, to: Square) -> usize {
    layout.others[..layout.count]
        .iter()
        .position(|&(_, sq)| sq == to)
        .expect("a capture takes a piece other than a king")
}

/// Counts a move out of the slot's tier or slice (a capture or a pawn move) into
/// `scan`, the position it leads to worth `child` to the opponent; under DTZ
/// (`reset`: the 50-move limit) the move counts by that position's outcome.
/// A move out of the tier (`exit`: a capture or a promotion) counts in its
/// exits too.
#[inline]
fn leave(scan: &mut Scan, child: Value, reset: Option<u16>, exit: bool) {
    let child = reset.map_or(child, |limit| child.restarted(limit));
    let value = Value::through(child, true, 0);
    if exit {
        scan.exit_to(value);
    }
    match value {
        Value::Loss(n) => {
            let floor = &mut scan.outside.loss_at_least;
            *floor = (*floor).max(n);
        }
        Value::Win(n) => {
            let outside: &mut Outside = &mut scan.outside;
            outside.win = Some(outside.win.map_or(n, |w| w.min(n)));
            scan.out_degree += 1;
        }
        _ => scan.out_degree += 1,
    }
}

/// What the two slots of a pair (the same pieces, each side to move) share,
/// made once for the pair as a scan reads its slots in order.
struct PairShare<T>(Option<(u64, T)>);

impl<T> PairShare<T> {
    fn new() -> Self {
        PairShare(None)
    }

    /// The share of `slot`'s pair, made by `make` unless it is the last one's.
    fn of(&mut self, slot: u64, make: impl FnOnce() -> T) -> &T {
        if !matches!(self.0, Some((pair, _)) if pair == slot / 2) {
            self.0 = Some((slot / 2, make()));
        }
        &self.0.as_ref().expect("just made").1
    }
}

/// What every piece of a layout attacks, found once for both sides to move.
struct Sight {
    pieces: Pieces,
    /// Each piece's attacks (a pawn's: the squares it takes on), in the order
    /// of `pieces.list`.
    attacks: [u64; 6],
    /// The squares of each side's pieces, kings included, by colour.
    sides: [u64; 2],
    /// Every square each side attacks, by colour.
    seen: [u64; 2],
}

impl Sight {
    /// Whether `layout`, whose sight this is, may stand: no two pieces on a
    /// square, and the side not to move not in check.
    #[inline]
    fn sound(&self, layout: &Layout) -> bool {
        let enemy_king = layout.kings[layout.turn.other() as usize].bit();
        self.pieces.occupied.count_ones() as usize == self.pieces.len
            && self.seen[layout.turn as usize] & enemy_king == 0
    }

    #[inline]
    fn of(layout: &Layout) -> Sight {
        let pieces = Pieces::of(layout);
        let table = attacks();
        let mut sight = Sight {
            pieces,
            attacks: [0; 6],
            sides: [0; 2],
            seen: [0; 2],
        };
        for (i, &(kind, sq)) in pieces.list[..pieces.len].iter().enumerate() {
            let side = Pieces::color(kind) as usize;
            let bits = table.of(Pieces::color(kind), role(kind), sq, pieces.occupied);
            sight.attacks[i] = bits;
            sight.sides[side] |= sq.bit();
            sight.seen[side] |= bits;
        }
        sight
    }

    /// Where each piece of the side whose king is on `king` may go without
    /// leaving it in check by `by`, in the order of `pieces.list`: anywhere if
    /// free, only along the line of a pin, in check only onto the checker or
    /// between it and the king, in double check nowhere. The king's own steps
    /// are bounded by [`Sight::danger`] instead.
    #[inline]
    fn allowed(&self, by: Color, king: Square) -> [u64; 6] {
        let table = attacks();
        let pieces = &self.pieces.list[..self.pieces.len];
        let mut allowed = [!0u64; 6];
        let mut evasions = !0u64;
        for (i, &(kind, from)) in pieces.iter().enumerate() {
            if Pieces::color(kind) != by {
                continue;
            }
            let gap = table.between(from, king);
            let line = gap | from.bit();
            if self.attacks[i] & king.bit() != 0 {
                evasions &= line;
                continue;
            }
            let between = gap & self.pieces.occupied;
            if table.lines(role(kind), from) & king.bit() != 0 && between.count_ones() == 1 {
                if let Some(pinned) = pieces.iter().position(|p| p.1.bit() == between) {
                    allowed[pinned] = line;
                }
            }
        }
        // A check by two pieces cannot be met by taking or blocking one of them.
        let mut allowed = allowed.map(|a| a & evasions);
        allowed[..2].fill(!0);
        allowed
    }

    /// Where each piece of the side to move in `layout`, whose sight this is,
    /// may go, captures included, in the order of `pieces.list` (none for the
    /// other side's pieces).
    #[inline]
    fn moves(&self, layout: &Layout) -> [u64; 6] {
        let (mover, opponent) = (layout.turn as usize, layout.turn.other());
        let own_king = layout.kings[mover];
        let danger = self.danger(opponent, own_king);
        let allowed = self.allowed(opponent, own_king);
        let pieces = &self.pieces;
        std::array::from_fn(|at| {
            if at >= pieces.len || Pieces::color(pieces.list[at].0) as usize != mover {
                return 0;
            }
            let targets = self.attacks[at] & !self.sides[mover] & allowed[at];
            match at == mover {
                true => targets & !danger,
                false => targets,
            }
        })
    }

    /// The squares `by` attacks with the other side's `king` taken off the
    /// board: where that king may not step.
    #[inline]
    fn danger(&self, by: Color, king: Square) -> u64 {
        let table = attacks();
        let occupied = self.pieces.occupied & !king.bit();
        let pieces = &self.pieces.list[..self.pieces.len];
        pieces
            .iter()
            .fold(self.seen[by as usize], |danger, &(kind, from)| {
                match Pieces::color(kind) == by && table.lines(role(kind), from) & king.bit() != 0 {
                    true => danger | table.targets(role(kind), from, occupied),
                    false => danger,
                }
            })
    }
}

/// The squares a white king may stand on in an image with a stored parent: with
/// White to un-move (Black to move now), the triangle a1-d1-d4 and the squares
/// one step from it; with Black to un-move, the triangle only.
fn near_triangle() -> (u64, u64) {
    static NEAR: OnceLock<(u64, u64)> = OnceLock::new();
    *NEAR.get_or_init(|| {
        let triangle = Square::all()
            .filter(|sq| sq.rank() <= sq.file() && sq.file() <= 3)
            .fold(0u64, |bits, sq| bits | sq.bit());
        let near = Square::all_of(triangle).fold(triangle, |bits, sq| bits | attacks().king(sq));
        (near, triangle)
    })
}

/// One tier being solved: what its scans and un-moves read.
struct Tier<'a, S: Solved> {
    game: &'a Endgame,
    tier: u32,
    settle: Settled,
    /// The tier (and colour swap) a capture of each piece other than the kings
    /// leads to.
    capture_tiers: Vec<(u32, bool)>,
    /// The codes of the tiers captures lead to.
    solved: &'a S,
    /// Under DTZ, the 50-move limit a capture restarts.
    reset: Option<u16>,
    /// What the scans are told of the tier's codes (see [`known_outcome`]).
    outcomes: Option<Told<'a>>,
}

impl<'a, S: Solved> Tier<'a, S> {
    fn new(game: &'a Endgame, tier: u32, solved: &'a S, outcomes: Option<Told<'a>>) -> Self {
        Tier {
            game,
            tier,
            settle: game.settled(tier),
            capture_tiers: game.capture_tiers(tier),
            solved,
            reset: reset(game),
            outcomes,
        }
    }

    /// Whether the slot holds the position `layout` spells: no two pieces on a
    /// square, the side not to move not in check, and stored as it stands
    /// (where the kings settle, every position is).
    #[inline]
    fn legal(&self, slot: u64, layout: &Layout, sight: &Sight) -> bool {
        sight.sound(layout)
            && (self.settle.slot(layout.kings, 0, layout.turn).is_some()
                || self.game.stored_slot_of(self.tier, layout) == Some(slot))
    }

    /// Every move of a slot, whose position as its slot spells it is `layout`
    /// and whose pieces' attacks are `sight`: what it settles, as the generic
    /// solver's scan has it.
    #[inline]
    fn scan(&self, slot: u64, layout: &Layout, sight: &Sight) -> Scan {
        if !self.legal(slot, layout, sight) {
            return Scan::default();
        }
        let pieces = &sight.pieces;
        let (mover, opponent) = (layout.turn as usize, layout.turn.other());
        let enemy_king = layout.kings[opponent as usize].bit();
        let mut scan = Scan {
            legal: true,
            ..Scan::default()
        };
        if layout.count == 0 {
            scan.end = Some(Value::Draw);
            return scan;
        }
        let in_check = sight.seen[opponent as usize] & layout.kings[mover].bit() != 0;
        let occupied = pieces.occupied;
        let enemies = sight.sides[opponent as usize] & !enemy_king;
        let mut legal_moves = 0;
        for (at, mut targets) in sight.moves(layout).into_iter().enumerate() {
            let quiet = (targets & !occupied).count_ones();
            legal_moves += quiet;
            scan.out_degree += quiet;
            targets &= enemies;
            while targets != 0 {
                let to = Square::first(targets);
                targets &= targets - 1;
                legal_moves += 1;
                self.capture(layout, at, to, &mut scan);
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

    /// Counts the capture of the piece on `to` by the piece at `at` into `scan`.
    #[inline]
    fn capture(&self, layout: &Layout, at: usize, to: Square, scan: &mut Scan) {
        let captured = captured_at(layout, to);
        let after = moved(layout, at, to, Some(captured));
        let (child_tier, swap) = self.capture_tiers[captured];
        let child_slot = self.game.slot_of_layout(child_tier, swap, &after);
        let code = self.solved.code(child_tier, child_slot);
        let child =
            Value::from_code(self.game.value_kind(), code).expect("a solved legal position");
        leave(scan, child, self.reset, true);
    }

    /// Calls `visit` with the slot of the position after each quiet move of
    /// the slot's, whose position is `layout` (as its slot spells it) and whose
    /// pieces' attacks are `sight`, until `visit` says `false`: the moves
    /// [`Tier::scan`] counts as awaited inside the tier.
    #[inline]
    fn quiet_children(&self, layout: &Layout, sight: &Sight, mut visit: impl FnMut(u64) -> bool) {
        let pieces = &sight.pieces;
        let turn = layout.turn.other();
        // Where the kings settle, a piece's step is arithmetic on the field of
        // its squares, as in [`Tier::predecessors`].
        let settled = self.settle.slot(layout.kings, 0, turn).is_some();
        let squares = settled.then(|| layout.squares());
        for (at, targets) in sight.moves(layout).into_iter().enumerate() {
            let mut targets = targets & !pieces.occupied;
            let field = squares
                .filter(|_| at >= 2)
                .map(|squares| Field::of(layout, at, squares));
            while targets != 0 {
                let to = Square::first(targets);
                targets &= targets - 1;
                let fast = field.and_then(|field| {
                    self.settle
                        .slot(layout.kings, field.with(layout, at, to), turn)
                });
                let child = fast.unwrap_or_else(|| {
                    let child = moved(layout, at, to, None);
                    self.game.slot_of_layout(self.tier, false, &child)
                });
                if !visit(child) {
                    return;
                }
            }
        }
    }

    /// Calls `visit` with the slot of every stored position with a quiet move into
    /// the slot's class, once per such move: the un-moves of every distinct image of
    /// the position. A parent left in check is visited too: its slot holds no
    /// position, so the plies pass it by, and testing it here would cost more.
    fn predecessors(&self, slot: u64, mut visit: impl FnMut(u64)) {
        let (game, tier, settle) = (self.game, self.tier, &self.settle);
        let layout = game.layout_at(tier, slot).expect("a decided slot is legal");
        let views: &[Layout] = match game.both_views(tier) {
            true => &[layout, layout.mirrored()],
            false => &[layout],
        };
        let near = near_triangle();
        let mut images = [layout; 16];
        let mut found = 0;
        for view in views {
            for t in 0..8 {
                // An image can have a stored parent only if its white king is in
                // the triangle, or one step from it with White to un-move.
                let [wk, _] = view.kings_under(t);
                let reach = match view.turn {
                    Color::Black => near.0,
                    Color::White => near.1,
                };
                if reach & wk.bit() == 0 {
                    continue;
                }
                let image = view.transformed(t);
                if !images[..found].contains(&image) {
                    images[found] = image;
                    found += 1;
                }
            }
        }
        let attacks = attacks();
        for image in images.into_iter().take(found) {
            // A stored parent has its kings on a canonical pair: where the image's
            // are not, only a king's un-move can bring them there.
            let kings_stored = Endgame::canonical_kings(image.kings);
            // Where a parent's kings settle, its slot is arithmetic on the image's
            // squares: a king's un-move changes the pair, a lone piece's its own
            // field, a piece with a twin the field of their set of squares.
            let squares = image.squares();
            let mover = image.turn.other();
            let settled = settle.slot(image.kings, 0, mover).is_some();
            let pieces = Pieces::of(&image);
            for (at, &(kind, to)) in pieces.list[..pieces.len].iter().enumerate() {
                if Pieces::color(kind) != mover || !(kings_stored || at < 2) {
                    continue;
                }
                let field = (at >= 2 && settled).then(|| Field::of(&image, at, squares));
                let mut froms = attacks.targets(role(kind), to, pieces.occupied) & !pieces.occupied;
                while froms != 0 {
                    let from = Square::first(froms);
                    froms &= froms - 1;
                    // The parent's kings, built whole: a king written into a copy
                    // of the pair and read back with it waits on the write.
                    let [wk, bk] = image.kings;
                    let kings = match at {
                        0 => [from, bk],
                        1 => [wk, from],
                        _ => [wk, bk],
                    };
                    let fast = match (at, field) {
                        (0 | 1, _) => settle.slot(kings, squares, mover),
                        (_, Some(field)) => {
                            settle.slot(image.kings, field.with(&image, at, from), mover)
                        }
                        _ => None,
                    };
                    if let Some(slot) = fast {
                        visit(slot);
                        continue;
                    }
                    if !Endgame::canonical_kings(kings) {
                        continue;
                    }
                    if let Some(slot) = game.stored_slot_of(tier, &moved(&image, at, from, None)) {
                        visit(slot);
                    }
                }
            }
        }
    }
}

impl<S: Solved> Scans for Tier<'_, S> {
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan)) {
        self.run_told(self.outcomes, slots, visit);
    }

    fn tells(&self) -> bool {
        Told::tells(self.outcomes)
    }

    #[inline]
    fn told(&self, slot: Slot) -> Option<Outcome> {
        Told::will(self.outcomes, slot)
    }
}

impl<S: Solved> Tier<'_, S> {
    /// [`Scans::run`], told `outcomes` (not the tier's own).
    fn run_told(&self, outcomes: Option<Told>, slots: Range<usize>, mut visit: impl FnMut(Scan)) {
        let walk = self.game.walk(self.tier, slots.start as u64);
        // Both sides to move share a layout, one after the other, and its sight.
        let mut sight = PairShare::new();
        for (slot, layout) in slots.zip(walk) {
            let slot = slot as u64;
            let known = known_outcome(outcomes, slot);
            if known == Some(Known::Empty) {
                visit(Scan::default());
                continue;
            }
            let seen = sight.of(slot, || Sight::of(&layout));
            visit(match known {
                Some(Known::Draw) => Known::draw(self.legal(slot, &layout, seen)),
                _ => self.scan(slot, &layout, seen),
            });
        }
    }
}

/// The scans of a part of a tier under DTZ, told what DTM settles of that
/// part alone: two bits a slot of a part, where the whole tier's were
/// KRBvKRN's 3.9 GB.
struct TierPart<'t, 'a, S: Solved> {
    tier: &'t Tier<'a, S>,
    outcomes: Option<DtmOutcomes>,
}

impl<S: Solved> Scans for TierPart<'_, '_, S> {
    fn run(&self, slots: Range<usize>, visit: impl FnMut(Scan)) {
        let told = self.outcomes.as_ref().map(Told::Dtm);
        self.tier.run_told(told, slots, visit);
    }

    fn tells(&self) -> bool {
        self.outcomes.is_some()
    }

    #[inline]
    fn told(&self, slot: Slot) -> Option<Outcome> {
        Told::will(self.outcomes.as_ref().map(Told::Dtm), slot)
    }
}

/// Slots of a tier whose DTM outcomes a DTZ solve's scans read at once:
/// 256 MiB of them, a part of a six-piece tier (five-piece tiers are one).
const OUTCOMES_PART: usize = 1 << 30;

/// The scans of a tier without pawns, under DTZ told by `dtm` a `part` of
/// slots at a time where it is read (a table that cannot be read from its
/// first part is not read: the scans then count every slot's moves).
fn scanned_told<S: Solved>(
    tier: &Tier<'_, S>,
    size: usize,
    dtm: Option<Dtm>,
    part: usize,
    progress: &Progress,
) -> Counts {
    if dtm.is_none() {
        return scanned(size, tier, progress);
    }
    let mut dtm = dtm;
    let scans_of = |slots: Range<usize>| {
        let outcomes = dtm.and_then(|dtm| dtm.outcomes(slots.start as u64..slots.end as u64));
        if slots.start == 0 && outcomes.is_none() {
            dtm = None;
        }
        // The states of the parts told before say who wins: a part untold
        // would read as losses every slot it leaves counting.
        assert!(
            outcomes.is_some() || dtm.is_none(),
            "the DTM table of {} could not be read at slots {slots:?} after it was read before it",
            tier.game.tier_name(tier.tier)
        );
        TierPart { tier, outcomes }
    };
    scanned_by_parts(size, part, scans_of, progress)
}

impl<S: Solved> Parents for Tier<'_, S> {
    fn each(&self, slot: Slot, visit: impl FnMut(Slot)) {
        self.predecessors(slot, visit);
    }

    fn pulls(&self) -> bool {
        true
    }

    fn children(
        &self,
        slots: Range<Slot>,
        mut wanted: impl FnMut(Slot) -> bool,
        mut visit: impl FnMut(Slot, Slot) -> bool,
    ) {
        // The walk is begun again past a long run of slots not wanted (late
        // plies pull few slots), and stepped over a short one.
        let mut walk: Option<(Slot, Walk)> = None;
        let mut sight = PairShare::new();
        for slot in slots.filter(|&slot| wanted(slot)) {
            let (at, steps) = match &mut walk {
                Some((at, steps)) if slot - *at < WALK_GAP => (at, steps),
                _ => {
                    let steps = self.game.walk(self.tier, slot);
                    let (at, steps) = walk.insert((slot, steps));
                    (at, steps)
                }
            };
            let Some(layout) = steps.nth((slot - *at) as usize) else {
                return;
            };
            *at = slot + 1;
            let seen = sight.of(slot, || Sight::of(&layout));
            self.quiet_children(&layout, seen, |child| visit(slot, child));
        }
    }
}

/// Slots a pull steps its walk over rather than begin it again.
const WALK_GAP: Slot = 64;

/// The 50-move limit a capture or pawn move restarts, where the tables count DTZ.
fn reset(game: &Endgame) -> Option<u16> {
    (game.metric() == Metric::Dtz).then_some(FIFTY_MOVES)
}

/// Solves one tier, the tiers its captures and promotions lead to given in
/// `solved`; returns the value code of every slot.
pub fn solve_tier(
    game: &Endgame,
    tier: u32,
    solved: &mut impl Solved,
    progress: &Progress,
) -> Codes {
    solve_tier_knowing(game, tier, solved, None, progress)
}

/// What a slot's distance-to-mate code settles without a look at its moves:
/// no position, or a draw. Counting plies to the next capture or pawn move
/// instead of to mate changes how long a win takes, never whether it is one,
/// so a draw under DTM is one under DTZ; and most positions of most endings
/// are draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    /// No position, or none whose scan is wanted.
    Empty,
    /// A draw, if the slot holds a position: a DTM table stores its empty slots
    /// as whatever compresses best, a draw among them.
    Draw,
}

impl Known {
    /// The scan of a slot known to be a draw where it holds a position.
    fn draw(legal: bool) -> Scan {
        match legal {
            true => Scan {
                legal: true,
                end: Some(Value::Draw),
                ..Scan::default()
            },
            false => Scan::default(),
        }
    }
}

/// Where a DTZ solve reads what a tier's codes under DTM settle, a slice of
/// slots at a time: its DTM table, or (in tests) its codes.
#[derive(Debug, Clone, Copy)]
pub enum Dtm<'a> {
    Table(&'a tables::Table),
    #[cfg(test)]
    Codes(&'a Codes),
}

impl Dtm<'_> {
    /// What the codes under DTM settle of `slots`; None where the table
    /// cannot be read (the solve then scans those slots as it would without).
    fn outcomes(self, slots: Range<u64>) -> Option<DtmOutcomes> {
        let mut outcomes = DtmOutcomes::new(slots.clone());
        match self {
            Dtm::Table(table) => {
                // Runs of the draft read in parallel, each into its own words.
                let runs = table.runs_to_read(slots, DTM_RUN_BLOCKS);
                let words = (runs[0].end - runs[0].start).div_ceil(32) as usize;
                let read = outcomes
                    .words
                    .par_chunks_mut(words.max(1))
                    .zip(runs)
                    .try_for_each(|(words, run)| {
                        let start = run.start;
                        table.for_each_code_in(run, |slot, code| {
                            set_outcome(words, slot - start, code)
                        })
                    });
                // The pages read are not kept for the slices after.
                table.drop_pages();
                read.ok()?;
            }
            #[cfg(test)]
            Dtm::Codes(codes) => slots.for_each(|slot| outcomes.set(slot, codes.get(slot))),
        }
        Some(outcomes)
    }
}

/// What a tier's codes under DTM settle of each slot of a range (no position,
/// a draw, a win or a loss), two bits a slot: what a DTZ solve keeps of them
/// while it solves those slots. The 50-move rule changes how far a win is,
/// never who wins: DTZ's wins are DTM's, and so are its losses and draws.
#[derive(Debug)]
pub struct DtmOutcomes {
    start: u64,
    words: Vec<u64>,
}

impl DtmOutcomes {
    /// Nothing settled yet of `slots`.
    fn new(slots: Range<u64>) -> DtmOutcomes {
        let size = (slots.end - slots.start) as usize;
        DtmOutcomes {
            start: slots.start,
            words: vec![0; size.div_ceil(32)],
        }
    }

    /// Takes `slot`'s code under DTM (a slot set again takes the new code).
    #[cfg(test)]
    #[inline]
    fn set(&mut self, slot: u64, code: u16) {
        set_outcome(&mut self.words, slot - self.start, code);
    }

    /// `slot`'s two bits, as [`DtmOutcomes::set`] made them.
    #[inline]
    fn bits(&self, slot: u64) -> u64 {
        let at = slot - self.start;
        self.words[at as usize / 32] >> (2 * (at % 32)) & 3
    }

    /// Whether `slot` is a win or a loss under DTM, if it is either.
    #[inline]
    fn outcome(&self, slot: u64) -> Option<Outcome> {
        match self.bits(slot) {
            0 => Some(Outcome::Win),
            3 => Some(Outcome::Loss),
            _ => None,
        }
    }

    #[inline]
    fn get(&self, slot: u64) -> Option<Known> {
        match self.bits(slot) {
            1 => Some(Known::Empty),
            2 => Some(Known::Draw),
            _ => None,
        }
    }
}

/// Blocks of each lane a DTZ solve reads of DTM's draft at a time, each
/// run of them on a thread of its own.
const DTM_RUN_BLOCKS: u64 = 8;

/// Sets the two bits of the slot `at` slots into `words` to what `code`
/// under DTM settles (see [`DtmOutcomes`]).
#[inline]
fn set_outcome(words: &mut [u64], at: u64, code: u16) {
    let outcome = match Value::from_code(ValueKind::WinLossDraw, code) {
        None => 1,
        Some(Value::Draw) => 2,
        Some(Value::Loss(_)) => 3,
        _ => 0,
    };
    let (word, shift) = (at as usize / 32, 2 * (at % 32));
    words[word] = words[word] & !(3 << shift) | outcome << shift;
}

/// What a scan is told of a tier before it looks at a slot's moves.
#[derive(Clone, Copy)]
enum Told<'a> {
    /// Under DTZ, what the tier's codes under DTM settle.
    Dtm(&'a DtmOutcomes),
    /// Finding the slots a capture or promotion decides: the tier's own codes
    /// and whether such a move can give a code; a slot of any other code is
    /// passed by as empty.
    Own(&'a dyn TierCodes, fn(u16) -> bool),
}

impl<'a> Told<'a> {
    /// Whether `told` says who wins each slot a scan leaves undecided
    /// ([`crate::retrograde::Scans::tells`]).
    fn tells(told: Option<Told>) -> bool {
        matches!(told, Some(Told::Dtm(_)))
    }

    /// The outcome `told` says `slot` has, a win or a loss.
    #[inline]
    fn will(told: Option<Told>, slot: u64) -> Option<Outcome> {
        match told {
            Some(Told::Dtm(outcomes)) => outcomes.outcome(slot),
            _ => None,
        }
    }

    /// The tier's own codes under `game`'s metric.
    fn own(game: &Endgame, codes: &'a dyn TierCodes) -> Self {
        // Under DTZ a capture or promotion restarts the count: the mover wins
        // or loses through it in one ply, or in one past the 50-move limit.
        fn dtz(code: u16) -> bool {
            let at = |n| [Value::Win(n).code(), Value::Loss(n).code()];
            at(1).contains(&code) || at(FIFTY_MOVES + 1).contains(&code)
        }
        fn dtm(code: u16) -> bool {
            code != Value::Draw.code()
        }
        // A WDL50 table's wins and losses are those a capture gives.
        match game.metric() {
            Metric::Dtz | Metric::Wdl => Told::Own(codes, dtz),
            Metric::Dtm => Told::Own(codes, dtm),
        }
    }
}

/// What `told` settles of `slot`.
#[inline]
fn known_outcome(told: Option<Told>, slot: u64) -> Option<Known> {
    match told? {
        Told::Dtm(outcomes) => outcomes.get(slot),
        Told::Own(codes, may_exit) => match codes.code(slot) {
            NO_POSITION => Some(Known::Empty),
            code if !may_exit(code) => Some(Known::Empty),
            _ => None,
        },
    }
}

/// [`solve_tier`], given, where it has them, the tier's codes under DTM
/// (`dtm`, for a DTZ solve), which spare the scan of every draw: a draw under
/// DTM is one under DTZ. The codes are the same with them or without.
pub fn solve_tier_knowing(
    game: &Endgame,
    tier: u32,
    solved: &mut impl Solved,
    dtm: Option<Dtm>,
    progress: &Progress,
) -> Codes {
    solve_tier_packing(game, tier, solved, dtm, progress, u64::MAX).into_codes()
}

/// [`solve_tier_knowing`], a tier with pawns of more than `pack_above` slots
/// solved with only the two slices of pawn placements solved last held a byte
/// a slot, those before compressed in memory ([`Solution::packed`]), and each
/// slice solved in parts of at most 2^25 slots (whole placements).
pub fn solve_tier_packing(
    game: &Endgame,
    tier: u32,
    solved: &mut impl Solved,
    dtm: Option<Dtm>,
    progress: &Progress,
    pack_above: u64,
) -> Solution {
    let pack = game.index_size(tier) > pack_above;
    let codes = match game.placements(tier) {
        Some(placements) => {
            let pack = pack.then_some(pawns::PART_SLOTS);
            pawns::solve_tier(game, tier, placements, solved, dtm, progress, pack)
        }
        None => {
            let size = game.index_size(tier) as usize;
            let scans = Tier::new(game, tier, &*solved, None);
            let counts = scanned_told(&scans, size, dtm, OUTCOMES_PART, progress);
            // The states keep who wins each slot left undecided: the plies
            // need no more of DTM's outcomes.
            // Nor of the tiers below, which only captures reach. A tier larger
            // than the codes a run holds for its reads (a six-piece one) lets
            // them go: the rest of its solve is the larger.
            if size > crate::HELD_BUDGET {
                solved.let_go(&game.tiers_below(tier));
            }
            let parents = Tier::new(game, tier, &*solved, None);
            // Without pawns, a move out of the tier is a capture, all the
            // scans count outside it: the plies' slots due tell the exits.
            let (codes, exits) = solve_scanned_marking_exits(game, counts, &parents, progress);
            Solution::held(codes).marking(exits)
        }
    };
    // What the tier's last solve freed after making its codes (the pawn
    // tier's slices, a solve each, give back before theirs): without it
    // KRBvKR's chain peaked 16 MB higher, in one run.
    crate::memory::give_back();
    codes
}

/// For every slot of `tier`, 64 a word, whether a capture or a promotion gives
/// its value (`codes`), a win or a loss, the tiers below read from `solved`:
/// what [`crate::exits`] asks, found by the solver's own scans. Draws are not
/// looked at (most positions of most endings): they compress well as they
/// are, and their scans would take most of the time.
pub(crate) fn decided_by_exits(
    game: &Endgame,
    tier: u32,
    codes: &dyn TierCodes,
    solved: &impl Solved,
    progress: &Progress,
) -> Vec<u64> {
    match game.placements(tier) {
        Some(placements) => {
            let slices = pawns::slices(game, tier, placements, codes, solved);
            let spans: Vec<_> = slices.iter().map(|s| (s.span(), s)).collect();
            mark_decided(game, &spans, codes, progress)
        }
        None => {
            let this = Tier::new(game, tier, solved, Some(Told::own(game, codes)));
            mark_decided(game, &[(0..codes.slots(), &this)], codes, progress)
        }
    }
}

/// Slots a parallel piece of [`mark_decided`] scans: 64 words of bits.
const MARK_PIECE: usize = 1 << 12;

/// The bits of [`decided_by_exits`] from the scans of each span of slots.
fn mark_decided<T: Scans>(
    game: &Endgame,
    spans: &[(Range<u64>, &T)],
    codes: &dyn TierCodes,
    progress: &Progress,
) -> Vec<u64> {
    use rayon::prelude::*;
    let kind = game.value_kind();
    let size = codes.slots();
    let mut words = vec![0u64; size.div_ceil(64) as usize];
    progress.start("exits", size.div_ceil(MARK_PIECE as u64));
    words
        .par_chunks_mut(MARK_PIECE / 64)
        .enumerate()
        .for_each(|(piece, words)| {
            let piece_start = (piece * MARK_PIECE) as u64;
            let piece_end = (piece_start + MARK_PIECE as u64).min(size);
            for (span, scans) in spans {
                let (from, to) = (span.start.max(piece_start), span.end.min(piece_end));
                if from >= to {
                    continue;
                }
                let local = (from - span.start) as usize..(to - span.start) as usize;
                let mut slot = from;
                scans.run(local, |scan| {
                    let decided = scan.legal
                        && scan.end.is_none()
                        && scan.exit.is_some()
                        && scan.exit == Value::from_code(kind, codes.code(slot));
                    if decided {
                        let bit = (slot - piece_start) as usize;
                        words[bit / 64] |= 1 << (bit % 64);
                    }
                    slot += 1;
                });
            }
            progress.advance(1);
        });
    progress.finish();
    words
}

/// The table under DTM of `tier`, for a DTZ solve to read what its codes
/// settle (see [`solve_tier_knowing`]), where it is in `dir` (`--metric
/// dtm,dtz` makes it first, and leaves its exits once DTZ is solved too) and
/// stores every value; else None.
pub fn dtm_table(game: &Endgame, tier: u32, dir: &Path) -> Option<tables::Table> {
    if game.metric() != Metric::Dtz {
        return None;
    }
    let dtm = game.clone().with_metric(Metric::Dtm);
    let (table, _) = crate::output::open_tier(&dtm, tier, dir).ok()?;
    // A table that leaves its exits to a search may store a draw for a win.
    (table.header().exits != tables::Exits::Searched).then_some(table)
}

/// The dedicated solver of chess endings (see [`crate::dedicated`]): every
/// tier in order, each written as a draft as it is solved; [`finish_tables`]
/// writes them again.
pub fn generate_tables(
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<Vec<Summary>> {
    let spec = &games::chess::SPEC;
    let endgame = spec.game(options)?;
    let caps = (spec.capabilities)(&endgame);
    if write.keep {
        wdl::remake_unpaired(&endgame, &write.dir, progress)?;
    }
    let draft = write.as_draft();
    let mut store = Files::new(&endgame, &caps, &draft);
    let dtm = |tier| dtm_table(&endgame, tier, &write.dir);
    solve_all(&endgame, progress, &mut store, dtm)?;
    Ok(store.summaries)
}

/// Whether the tables of `options` can be made here, said before any run
/// starts: the memory the largest one needs (given, then checked against what
/// the run can count on).
pub fn check_before(
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<()> {
    let endgame = games::chess::SPEC.game(options)?;
    let Some(need) = memory_needed(&endgame, &write.dir, write.keep) else {
        return Ok(());
    };
    progress.note(&format!(
        "{} needs about {}",
        need.what,
        crate::memory::gb(need.bytes)
    ));
    need.check(write.memory)
}

/// Bytes a slot of the tier being solved takes, in quarters: its state (a
/// byte), and a quarter more for the slots due at each ply (KRBvKRN's DTM:
/// about 2.3 GB beside its 15.5 billion states), the plies' lists, the slots
/// decided past 76 plies, the codes kept apart past 126 and the exit marks
/// (the slots due are let go as the marks are set, before the codes grow),
/// and DTM's outcomes a DTZ solve's scans read a part of [`OUTCOMES_PART`]
/// slots at a time; with pawns, a quarter more for the best moves out of the
/// tier a slice's scans keep and the slice's whole outcomes. KRBvKRN's DTM
/// peaked at 1.23 bytes a slot, read tables included; KRNvKNN's held 1.35
/// through its plies and 1.55 at its peak while its slots due were held
/// beside its codes and exit marks.
fn solve_quarters_per_slot(pawns: bool) -> u64 {
    5 + u64::from(pawns)
}

/// The memory the largest tier `endgame` solves needs (its table not kept
/// from `dir`): its solve's states and lists (a slice at a time past
/// [`crate::tier_codes::WHOLE_SLOTS`] with pawns, and a bit a slot of the
/// tier for the slots its exits decide), the codes held for later
/// tiers and the blocks' cache (no more than the other tiers' slots, so that a
/// small ending asks little). None where every table is kept.
fn memory_needed(endgame: &Endgame, dir: &Path, keep: bool) -> Option<crate::memory::Need> {
    let kept = |tier| keep && crate::output::table_path(endgame, tier, dir).exists();
    let solved = endgame.tiers().into_iter().filter(|&tier| !kept(tier));
    let largest = solved.max_by_key(|&tier| endgame.index_size(tier))?;
    let slots = endgame.index_size(largest);
    let pawns = endgame.materials()[largest as usize].pawns() > 0;
    // With pawns, a slice's solve, and the tier's exits marked a bit a slot.
    let (held, marks) = match pawns {
        true => (slots.min(crate::tier_codes::WHOLE_SLOTS), slots / 8),
        false => (slots, 0),
    };
    // The tables read are held, or cached, a byte a slot at most, within budgets.
    let read: u64 = endgame
        .tiers()
        .iter()
        .filter(|&&tier| tier != largest)
        .map(|&tier| endgame.index_size(tier))
        .sum();
    let budgets = read.min(crate::HELD_BUDGET as u64 + tables::DEFAULT_BUDGET_BYTES);
    Some(crate::memory::Need {
        what: format!("{} ({slots} slots)", table_name(endgame, largest)),
        bytes: held * solve_quarters_per_slot(pawns) / 4 + marks + budgets,
    })
}

/// Writes again the tables [`generate_tables`] made for `options`, once every
/// table of the run is solved, leaving their exits to a search: a DTZ solve
/// in the same run reads DTM's draws before that (see [`dtm_table`]).
/// Updates `summaries`.
pub fn finish_tables(
    options: &Options,
    write: &WriteOptions,
    progress: &Progress,
    summaries: &mut Vec<Summary>,
) -> anyhow::Result<()> {
    let spec = &games::chess::SPEC;
    let endgame = spec.game(options)?;
    let caps = (spec.capabilities)(&endgame);
    let mut store = Files::new(&endgame, &caps, write);
    store.summaries = std::mem::take(summaries);
    leave_exits(&endgame, &mut store, write, progress)?;
    *summaries = store.summaries;
    Ok(())
}

/// Writes every table of `endgame` in `store` again, leaving the wins and
/// losses captures and promotions give to a search (see [`crate::exits`]).
pub(crate) fn leave_exits(
    endgame: &Endgame,
    store: &mut Files<'_, Endgame>,
    write: &WriteOptions,
    progress: &Progress,
) -> anyhow::Result<()> {
    let reads = |tier| endgame.tiers_below(tier);
    let decide = |tier, codes: &dyn TierCodes, below: &crate::Finished| {
        progress.working_on(&table_name(endgame, tier));
        decided_by_exits(endgame, tier, codes, below, progress)
    };
    // DTZ's categories, a WDL50 table beside each.
    let wdl = wdl::of(endgame);
    let beside = |tier, codes: &dyn TierCodes, decided: &[u64]| match &wdl {
        Some(wdl) => wdl::write(wdl, tier, codes, decided, write).map(Some),
        None => Ok(None),
    };
    crate::exits::leave_exits(endgame, reads, store, write, decide, beside)
}

/// The file name of `tier`'s table, which progress lines name.
pub(crate) fn table_name(game: &Endgame, tier: u32) -> String {
    tables::file_name(game.id(), &game.variant(), &game.tier_name(tier))
}

/// Solves every tier in order, smallest material first, each reading the tiers
/// its captures and promotions lead to; each solved tier goes to `store` (a tier
/// it keeps is not solved). See [`crate::order`] for the codes held meanwhile.
/// A DTZ solve asks `dtm` for each tier's table under DTM, where it was made
/// before (see [`solve_tier_knowing`]).
pub fn solve_all(
    game: &Endgame,
    progress: &Progress,
    store: &mut impl Store,
    dtm: impl Fn(u32) -> Option<tables::Table>,
) -> anyhow::Result<()> {
    crate::solve_in_order(
        game,
        |tier, solved| {
            let table = (game.metric() == Metric::Dtz).then(|| dtm(tier)).flatten();
            progress.working_on(&table_name(game, tier));
            let pack_above = crate::tier_codes::WHOLE_SLOTS;
            let dtm = table.as_ref().map(Dtm::Table);
            solve_tier_packing(game, tier, solved, dtm, progress, pack_above)
        },
        |tier| game.tiers_below(tier),
        store,
        crate::HELD_BUDGET,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::due::PIECE;
    use crate::retrograde::{Pull, solve_retracting_tier, solve_scanned};
    use games::chess::Material;

    /// Solves every tier of `game` both ways, the dedicated solver's plies
    /// pulling where it finds it cheaper, at every ply and at none, and
    /// compares every slot.
    fn both_solvers_agree(game: &Endgame) {
        let progress = &Progress::hidden();
        let mut solved: Vec<Codes> = Vec::new();
        for tier in game.tiers() {
            let earlier = |board: &games::chess::Board| {
                let code = solved[game.tier_of(board) as usize].get(game.index(board));
                Value::from_code(game.value_kind(), code).unwrap()
            };
            let generic = solve_retracting_tier(game, game, tier, &earlier, progress);
            let dedicated = |pull| {
                let this = Tier::new(game, tier, &solved, None);
                let mut counts = scanned(game.index_size(tier) as usize, &this, progress);
                counts.pull = pull;
                solve_scanned(game, counts, &this, progress)
            };
            for pull in [Pull::WhenCheaper, Pull::Always, Pull::Never] {
                let dedicated = dedicated(pull);
                let differ = (0..generic.len()).find(|&s| generic.get(s) != dedicated.get(s));
                assert_eq!(
                    differ,
                    None,
                    "{} ({pull:?}): first differing slot",
                    game.tier_name(tier)
                );
            }
            solved.push(generic);
        }
    }

    /// The dedicated solver and the generic one give every slot of every tier the
    /// same code: every ending below KRvKN, KBvKN (mates rare and long), KQvKQ
    /// (the same pieces on both sides: either colour may be stored as White) and
    /// KBBvK (two identical pieces, one field for both).
    #[test]
    fn agrees_with_the_generic_solver() {
        for ending in ["KRvKN", "KBvKN", "KQvKQ", "KBBvK"] {
            both_solvers_agree(&Endgame::new(&Material::parse(ending).unwrap()));
        }
    }

    /// Under DTZ as well: the generic solver restarts the count at a capture
    /// through the game's moves, the dedicated one through its own scans.
    #[test]
    fn agrees_with_the_generic_solver_under_dtz() {
        for ending in ["KRvKN", "KQvKQ"] {
            let game = Endgame::new(&Material::parse(ending).unwrap());
            both_solvers_agree(&game.with_metric(Metric::Dtz));
        }
    }

    /// A DTZ solve given each tier's DTM codes, which spare the scan of every
    /// draw, gives the same codes as one without them, with pawns or without.
    #[test]
    fn dtz_is_the_same_with_the_dtm_codes_or_without() {
        let progress = Progress::hidden();
        for ending in ["KRvKN", "KPvKB"] {
            let game = Endgame::new(&Material::parse(ending).unwrap());
            let dtz = game.clone().with_metric(Metric::Dtz);
            let (mut dtm_codes, mut plain, mut knowing) = (Vec::new(), Vec::new(), Vec::new());
            for tier in game.tiers() {
                let codes = solve_tier(&game, tier, &mut dtm_codes, &progress);
                let without = solve_tier(&dtz, tier, &mut plain, &progress);
                let dtm = Some(Dtm::Codes(&codes));
                let with = solve_tier_knowing(&dtz, tier, &mut knowing, dtm, &progress);
                assert!(with == without, "{}", game.tier_name(tier));
                dtm_codes.push(codes);
                plain.push(without);
                knowing.push(with);
            }
        }
    }

    /// Plies told who wins each undecided slot (by the DTM codes) pull only
    /// the slots a ply's frontier can decide: the same codes as plies not
    /// told, whether every ply pulls or none does. (A pull that left out a
    /// slot its ply could decide would decide it later or never, and one
    /// that counted a slot down twice too early: the codes would differ.)
    #[test]
    fn dtz_plies_told_the_outcomes_decide_the_same() {
        use crate::retrograde::Pull;
        let progress = Progress::hidden();
        for ending in ["KRvKN", "KQvKR"] {
            let game = Endgame::new(&Material::parse(ending).unwrap());
            let dtz = game.clone().with_metric(Metric::Dtz);
            let (mut dtm_codes, mut dtz_codes) = (Vec::new(), Vec::new());
            for tier in game.tiers() {
                let dtm = solve_tier(&game, tier, &mut dtm_codes, &progress);
                let expected = solve_tier(&dtz, tier, &mut dtz_codes, &progress);
                let size = dtz.index_size(tier) as usize;
                let outcomes = Dtm::Codes(&dtm).outcomes(0..size as u64).unwrap();
                let told = Some(Told::Dtm(&outcomes));
                for pull in [Pull::Always, Pull::Never] {
                    let scans = Tier::new(&dtz, tier, &dtz_codes, told);
                    let mut counts = scanned(size, &scans, &progress);
                    counts.pull = pull;
                    assert!(scans.tells() && counts.told());
                    let parents = Tier::new(&dtz, tier, &dtz_codes, None);
                    let codes = solve_scanned(&dtz, counts, &parents, &progress);
                    assert!(codes == expected, "{} {pull:?}", game.tier_name(tier));
                }
                // Told a part at a time, of three pieces (the last part shorter;
                // KRvKN's 3.8 million slots make 308 parts).
                let scans = Tier::new(&dtz, tier, &dtz_codes, None);
                let dtm_told = Some(Dtm::Codes(&dtm));
                let counts = scanned_told(&scans, size, dtm_told, 3 * PIECE, &progress);
                assert!(counts.told());
                let codes = solve_scanned(&dtz, counts, &scans, &progress);
                assert!(codes == expected, "{} in parts", game.tier_name(tier));
                dtm_codes.push(dtm);
                dtz_codes.push(expected);
            }
        }
    }

    /// What a DTZ solve reads of a DTM table, a range of slots at a time, is
    /// what the table's codes read whole settle: on KPvK's tiers, written as a
    /// run writes them (two lanes, empty slots filled), slot by slot, over the
    /// whole tier, each slice of pawn placements and ranges that start and end
    /// in either lane.
    #[test]
    fn dtm_outcomes_read_from_a_table_are_those_of_its_codes() {
        let progress = Progress::hidden();
        let game = Endgame::new(&Material::parse("KPvK").unwrap());
        let dir = tempfile::tempdir().unwrap();
        let mut solved = Vec::new();
        for tier in game.tiers() {
            let codes = solve_tier(&game, tier, &mut solved, &progress);
            let took = std::time::Duration::ZERO;
            crate::write_tier(&game, tier, &codes, took, &WriteOptions::new(dir.path())).unwrap();
            let (table, _) = crate::output::open_tier(&game, tier, dir.path()).unwrap();
            let stored = table.read_codes().unwrap();
            let size = codes.len();
            let per_placement = game.placement_size(tier);
            let slices = game.placements(tier).into_iter().flat_map(|p| p.slices());
            let slices =
                slices.map(|p| p.start as u64 * per_placement..p.end as u64 * per_placement);
            let odd = [0..size, 1..size - 1, size / 3 + 1..size / 2, 7..8, 5..5];
            for range in odd.into_iter().chain(slices) {
                let read = Dtm::Table(&table).outcomes(range.clone()).unwrap();
                let whole = Dtm::Codes(&stored).outcomes(range.clone()).unwrap();
                for slot in range.clone() {
                    assert_eq!(read.get(slot), whole.get(slot), "{}", game.tier_name(tier));
                }
            }
            let read = Dtm::Table(&table).outcomes(0..size).unwrap();
            let draws = (0..size).filter(|&s| read.get(s) == Some(Known::Draw));
            assert!(draws.count() > 0, "{}: draws", game.tier_name(tier));
            solved.push(codes);
        }
    }

    /// Mutual zugzwangs as the table notes count them, against a count over
    /// every board of the ending: each placement whose positions with White
    /// and with Black to move are both legal, valued by `Game::index`. With
    /// pawns, every placement but none is its own left-right mirror, so the
    /// notes (up to the mirror) count half the boards; with the same pieces
    /// on both sides (KRvKR), the boards are counted by the lower slot of
    /// their two positions, as the notes count them.
    #[test]
    fn zugzwangs_match_a_count_over_every_board() {
        use games::chess::{Board, Color, Piece, Role, Square, Zugzwangs};
        let progress = Progress::hidden();
        let outcome = |value: Value| match value {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            _ => 0,
        };
        for (ending, roles, (full, half)) in [
            ("KPvK", [Role::Pawn, Role::King], (0, 80)),
            ("KPvKP", [Role::Pawn, Role::Pawn], (30, 212)),
            ("KRvKR", [Role::Rook, Role::Rook], (0, 0)),
        ] {
            let game = Endgame::new(&Material::parse(ending).unwrap());
            let mut solved: Vec<Codes> = Vec::new();
            for tier in game.tiers() {
                let codes = solve_tier(&game, tier, &mut solved, &progress);
                solved.push(codes);
            }
            let tier = game.tiers().len() as u32 - 1;
            let codes = &solved[tier as usize];
            let noted = game.zugzwangs(tier, &|slot| codes.get(slot));
            assert_eq!((noted.full, noted.half), (full, half), "{ending}");
            let value = |board: &Board| {
                let code = solved[game.tier_of(board) as usize].get(game.index(board));
                outcome(Value::from_code(game.value_kind(), code).unwrap())
            };
            let pieces = [
                Piece {
                    color: Color::White,
                    role: Role::King,
                },
                Piece {
                    color: Color::Black,
                    role: Role::King,
                },
                Piece {
                    color: Color::White,
                    role: roles[0],
                },
                Piece {
                    color: Color::Black,
                    role: roles[1],
                },
            ];
            let count = if roles[1] == Role::King { 3 } else { 4 };
            let (mut boards, mut lower_slots) =
                (Zugzwangs::default(), std::collections::HashSet::new());
            let mut squares = [0u8; 4];
            'placements: for n in 0..64u32.pow(count as u32) {
                for (i, sq) in squares.iter_mut().enumerate().take(count) {
                    *sq = (n / 64u32.pow(i as u32) % 64) as u8;
                }
                let mut board = Board::empty(Color::White);
                for i in 0..count {
                    let sq = Square::new(squares[i]);
                    let pawn = pieces[i].role == Role::Pawn;
                    if board.piece_at(sq).is_some() || pawn && !(8..56).contains(&squares[i]) {
                        continue 'placements;
                    }
                    board.set(sq, Some(pieces[i]));
                }
                let mut black = board.clone();
                black.turn = Color::Black;
                if board.check_legal().is_err() || black.check_legal().is_err() {
                    continue;
                }
                let kind = match value(&board) + value(&black) {
                    -2 => &mut boards.full,
                    -1 => &mut boards.half,
                    _ => continue,
                };
                *kind += 1;
                lower_slots.insert(game.index(&board).min(game.index(&black)));
            }
            match game.both_views(tier) {
                true => assert_eq!(lower_slots.len() as u64, full + half, "{ending}"),
                false => assert_eq!((boards.full, boards.half), (2 * full, 2 * half), "{ending}"),
            }
        }
    }

    /// The same on every 3- and 4-piece pawnless ending (about 2 minutes).
    #[test]
    #[ignore]
    fn agrees_with_the_generic_solver_on_every_four_piece_ending() {
        both_solvers_agree(&Endgame::of_all(&Material::all_up_to(4)));
    }
}
