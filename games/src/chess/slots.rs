//! Where each position of an ending is stored: the slot of a layout and the
//! layout at a slot, for pawnless tiers (the king pairs and symmetries of
//! [`super::index`]) and tiers with pawns (the placements of
//! [`super::pawns`]); the tiers a capture leads to; the images a slot's
//! symmetries make of a board.

use super::board::Board;
use super::game::Endgame;
use super::index::{Layout, Settled, Walk, canonizing, king_pairs, mirrored, transforms};
use super::material::MAX_PIECES;
use super::pawns::{BLACK_PAWN, PawnSlots, Pawns, Placements, WHITE_PAWN, free_pairs, placements};
use super::piece::{Color, is_pawn};
use super::square::Square;

impl Endgame {
    /// Every distinct board that the slot's symmetries (and the colour swap, with
    /// equal material) make of `board`.
    pub(super) fn images(&self, tier: u32, board: &Board) -> Vec<Board> {
        let views: &[bool] = match self.both_views(tier) {
            true => &[false, true],
            false => &[false],
        };
        // Pawns leave the identity and the left-right mirror, the first two.
        let symmetries = match self.placements(tier) {
            Some(_) => &transforms()[..2],
            None => &transforms()[..],
        };
        let mut images: Vec<Board> = Vec::with_capacity(16);
        for &swap in views {
            let seen = if swap { mirrored(board) } else { board.clone() };
            for t in symmetries {
                let mut image = Board::empty(seen.turn);
                for (sq, p) in seen.pieces() {
                    image.set(t[sq.index()], Some(p));
                }
                if !images.contains(&image) {
                    images.push(image);
                }
            }
        }
        images
    }

    /// The slot of a board of `tier` (seen with the colours swapped when `swap`).
    pub(super) fn slot_in(&self, tier: u32, swap: bool, board: &Board) -> u64 {
        self.slot_of_layout(tier, swap, &Layout::of(board))
    }

    /// Whether either colour may be stored as White: the same pieces on both
    /// sides, and no pawns (a tier with pawns stores both views apart).
    #[inline]
    pub fn both_views(&self, tier: u32) -> bool {
        let (key, swapped) = self.keys[tier as usize];
        key == swapped && self.placements(tier).is_none()
    }

    /// The slot of a position of `tier`, mirrored first when `swap`: the smallest
    /// over the symmetries that bring the kings to a canonical pair, and over the
    /// colour swap when both sides have the same pieces.
    pub fn slot_of_layout(&self, tier: u32, swap: bool, layout: &Layout) -> u64 {
        if let Some(placements) = self.placements(tier) {
            let seen = if swap {
                layout.mirrored()
            } else {
                layout.in_order()
            };
            return Self::pawn_slot_of_layout(placements, &seen);
        }
        if !swap {
            let sorted = layout.in_order();
            let settled = self.settled(tier);
            if let Some(slot) = settled.slot(sorted.kings, sorted.squares(), sorted.turn) {
                return slot;
            }
        }
        let mirror = layout.mirrored();
        let views: &[&Layout] = match (self.both_views(tier), swap) {
            (true, _) => &[layout, &mirror],
            (false, false) => &[layout],
            (false, true) => &[&mirror],
        };
        views
            .iter()
            .flat_map(|layout| {
                let mask = canonizing()[layout.kings[0].index() * 64 + layout.kings[1].index()];
                (0..8)
                    .filter(move |t| mask & 1 << t != 0)
                    .filter_map(move |t| layout.slot_under(&transforms()[t]))
            })
            .min()
            .expect("some symmetry brings the kings to a canonical pair")
    }

    /// The slot of a board of `tier` stored as it stands (what `position_at`
    /// returns), or None for any other board.
    pub(super) fn stored_slot(&self, tier: u32, board: &Board) -> Option<u64> {
        self.stored_slot_of(tier, &Layout::of(board))
    }

    /// The slot of a position of `tier` if it is stored as it stands (its own
    /// slot, not a symmetric one's), else None.
    #[inline]
    pub fn stored_slot_of(&self, tier: u32, layout: &Layout) -> Option<u64> {
        if let Some(placements) = self.placements(tier) {
            let layout = layout.in_order();
            let slot = Self::pawn_slot(placements, &layout)?;
            return (slot == Self::pawn_slot_of_layout(placements, &layout)).then_some(slot);
        }
        let slot = layout.slot_under(&transforms()[0])?;
        if self.kings_settle(tier, layout.kings) {
            return Some(slot);
        }
        (slot == self.slot_of_layout(tier, false, layout)).then_some(slot)
    }

    /// Whether every position of `tier` with these kings is stored as it stands
    /// (see [`Settled`]).
    #[inline]
    pub fn kings_settle(&self, tier: u32, kings: [Square; 2]) -> bool {
        self.settled(tier).slot(kings, 0, Color::White).is_some()
    }

    /// How many numbers the squares of `tier`'s pieces other than the kings and
    /// pawns can be: 64 for each lone piece, C(64, k) for each kind of which it
    /// has k.
    pub(super) fn squares_radix(&self, tier: u32) -> u64 {
        self.template(tier, 0).squares_radix()
    }

    /// A layout with `tier`'s pieces other than the kings and pawns, their
    /// kinds set and their squares not, and the side to move of `slot`.
    #[inline]
    pub(super) fn template(&self, tier: u32, slot: u64) -> Layout {
        let turn = match slot % 2 {
            0 => Color::White,
            _ => Color::Black,
        };
        Layout {
            turn,
            ..self.shapes[tier as usize].1
        }
    }

    /// [`Endgame::template`], made.
    pub(super) fn pieces_of(&self, tier: u32) -> Layout {
        let mut layout = Layout {
            kings: [Square::default(); 2],
            others: [(0, Square::default()); MAX_PIECES - 2],
            count: 0,
            turn: Color::White,
        };
        for kind in self.kinds(tier).filter(|&kind| !is_pawn(kind)) {
            layout.others[layout.count].0 = kind;
            layout.count += 1;
        }
        layout
    }

    /// The fields of an entry of a lane (one side to move) of `tier`, as its
    /// slots spell them, the slowest first: the placement of the pawns (a
    /// tier with pawns), the king pair, then one per kind of other piece.
    pub(super) fn digits(&self, tier: u32) -> Vec<u64> {
        let kings = match self.placements(tier) {
            Some(placements) => vec![placements.len() as u64, free_pairs().0.len() as u64],
            None => vec![king_pairs().0.len() as u64],
        };
        kings
            .into_iter()
            .chain(self.template(tier, 0).squares_radices())
            .collect()
    }

    /// How many slots `tier` has.
    pub(super) fn slots(&self, tier: u32) -> u64 {
        match self.placements(tier) {
            Some(placements) => placements.len() as u64 * self.placement_size(tier),
            None => king_pairs().0.len() as u64 * self.squares_radix(tier) * 2,
        }
    }

    /// How `tier` spells the slots of positions stored as they stand.
    #[inline]
    pub fn settled(&self, tier: u32) -> Settled {
        self.settled[tier as usize]
    }

    /// [`Endgame::settled`], made.
    pub(super) fn settles(&self, tier: u32) -> Settled {
        Settled::new(
            self.both_views(tier),
            self.placements(tier).is_some(),
            self.squares_radix(tier),
        )
    }

    /// Whether the kings stand on one of the 462 canonical pairs.
    #[inline]
    pub fn canonical_kings(kings: [Square; 2]) -> bool {
        king_pairs().1[kings[0].index() * 64 + kings[1].index()] != u16::MAX
    }

    /// The position at a slot of `tier` as its slot spells it: kings on a canonical
    /// pair, the other pieces on their squares; None where the king pair is out of
    /// range. Whether it is legal and stored as it stands is not checked.
    #[inline]
    pub fn layout_at(&self, tier: u32, slot: u64) -> Option<Layout> {
        if let Some(placements) = self.placements(tier) {
            return self.pawn_layout_at(tier, placements, slot);
        }
        let mut layout = self.template(tier, slot);
        let radix = layout.squares_radix();
        layout.set_squares(slot / 2 % radix);
        let (wk, bk) = *king_pairs().0.get((slot / 2 / radix) as usize)?;
        layout.kings = [wk, bk];
        Some(layout)
    }

    /// The layouts of the slots of a pawnless `tier` from `slot` on, in order
    /// (see [`Walk`]).
    pub fn walk(&self, tier: u32, slot: u64) -> Walk {
        assert!(
            self.placements(tier).is_none(),
            "a walk is over pawnless slots"
        );
        Walk::new(self.template(tier, slot), slot)
    }

    /// The colour and role (`colour * 8 + role`) of each piece other than the
    /// kings, in the order a slot of `tier` spells them.
    fn kinds(&self, tier: u32) -> impl Iterator<Item = u8> + '_ {
        let material = &self.tiers[tier as usize];
        let white = material.white.iter().map(|&r| r as u8);
        white.chain(material.black.iter().map(|&r| 8 + r as u8))
    }

    /// For each piece other than the kings, in slot order, the tier its capture
    /// leads to and whether the colours are swapped there.
    pub fn capture_tiers(&self, tier: u32) -> Vec<(u32, bool)> {
        let counts = self.keys[tier as usize].0;
        self.kinds(tier)
            .map(|kind| {
                let mut after = counts;
                after[usize::from(kind / 8) * 6 + usize::from(kind % 8)] -= 1;
                self.tier_of_counts(after)
                    .expect("every material a capture leads to is an ending of the set")
            })
            .collect()
    }

    /// The tiers the captures and promotions of `tier` lead to, each once.
    pub fn tiers_below(&self, tier: u32) -> Vec<u32> {
        self.tiers[tier as usize]
            .successors()
            .iter()
            .map(|m| {
                let below = self.tiers.iter().position(|t| t == m);
                below.expect("every material a move leads to is an ending of the set") as u32
            })
            .collect()
    }

    /// The tiers `tier`'s moves lead to only by a promotion: a pawn ending's
    /// slices where no pawn stands on its seventh rank read none of them.
    pub fn tiers_only_promoted_to(&self, tier: u32) -> Vec<u32> {
        let captured = self.capture_tiers(tier);
        let below = self.tiers_below(tier).into_iter();
        below
            .filter(|&t| captured.iter().all(|&(c, _)| c != t))
            .collect()
    }

    /// The tier of a position's material and its slot there (a capture's result).
    pub fn locate(&self, layout: &Layout) -> (u32, u64) {
        let (tier, swap) = self
            .tier_of_counts(layout.counts())
            .expect("a material of this ending");
        (tier, self.slot_of_layout(tier, swap, layout))
    }
}

impl Endgame {
    /// The pawn placements of `tier`; None for a tier without pawns.
    #[inline]
    pub fn placements(&self, tier: u32) -> Option<&'static Placements> {
        self.shapes[tier as usize].0
    }

    /// [`Endgame::placements`], found.
    pub(super) fn placements_of(&self, tier: u32) -> Option<&'static Placements> {
        let material = &self.tiers[tier as usize];
        let [white, black] = [Color::White, Color::Black].map(|c| material.pawns_of(c));
        (white + black > 0).then(|| placements(white, black))
    }

    /// How many slots one placement of `tier`'s pawns spans: the king pairs,
    /// the other pieces' squares and the side to move.
    #[inline]
    pub fn placement_size(&self, tier: u32) -> u64 {
        free_pairs().0.len() as u64 * self.squares_radix(tier) * 2
    }

    /// How `tier`'s slots are spelled from their parts (a tier with pawns).
    pub fn pawn_slots(&self, tier: u32) -> PawnSlots {
        PawnSlots::new(self.squares_radix(tier))
    }

    /// The slot of a position of a tier with pawns, as it stands, if its
    /// placement of pawns is one the tier stores and its kings are apart.
    #[inline]
    pub(super) fn pawn_slot(placements: &Placements, layout: &Layout) -> Option<u64> {
        let placement = placements.number(&Pawns::of(layout))?;
        let [wk, bk] = layout.kings;
        let pair = match free_pairs().1[wk.index() * 64 + bk.index()] {
            u16::MAX => return None,
            pair => u64::from(pair),
        };
        let pieces = layout.without_pawns();
        let squares = pieces.squares();
        let slot =
            (placement * free_pairs().0.len() as u64 + pair) * pieces.squares_radix() + squares;
        Some(slot * 2 + u64::from(layout.turn == Color::Black))
    }

    /// The slot of a position of a tier with pawns: its own or its mirror
    /// image's, whichever is stored (the smaller where both are).
    #[inline]
    pub(super) fn pawn_slot_of_layout(placements: &Placements, layout: &Layout) -> u64 {
        let mirror = layout.file_mirrored();
        [layout, &mirror]
            .into_iter()
            .filter_map(|image| Self::pawn_slot(placements, image))
            .min()
            .expect("the mirror stores one of a placement and its image")
    }

    /// The position at a slot of a tier with pawns as the slot spells it.
    pub(super) fn pawn_layout_at(
        &self,
        tier: u32,
        placements: &Placements,
        slot: u64,
    ) -> Option<Layout> {
        let mut layout = self.template(tier, slot);
        let radix = layout.squares_radix();
        layout.set_squares(slot / 2 % radix);
        let pairs = free_pairs().0.len() as u64;
        let (wk, bk) = free_pairs().0[(slot / 2 / radix % pairs) as usize];
        layout.kings = [wk, bk];
        let pawns = placements.get((slot / 2 / radix / pairs) as usize)?;
        for (color, kind) in [(Color::White, WHITE_PAWN), (Color::Black, BLACK_PAWN)] {
            for &sq in pawns.side(color) {
                layout.others[layout.count] = (kind, sq);
                layout.count += 1;
            }
        }
        Some(layout.in_order())
    }
}
