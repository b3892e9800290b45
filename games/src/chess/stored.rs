//! Where a pawnless table stores its positions: each side to move in a
//! [`FileIndex`] of its own, whose leading piece and order of the others the
//! writer weighs per side (the order that compresses a side best is rarely
//! the solver's, and rarely the other side's: `docs/file-format.md`). A
//! table names its order by the pieces of each side's index in FEN letters,
//! White to move's then Black to move's (`RKBkr/krKRB`); where both sides
//! have the same pieces, Black to move's positions are stored as White to
//! move's with the colours swapped, and the second name is `-`. A side to
//! move the table leaves (its positions valued by a search of their moves)
//! is named by nothing (`RKBkr/`).

use super::attacks::attacks;
use super::file_index::{FileIndex, MOST, set_rank};
use super::game::Endgame;
use super::index::{Layout, Settled, canonizing, choose, transforms};
use super::material::MAX_PIECES;
use super::piece::{Color, Piece, Role};
use super::square::Square;
use crate::game::Game;
use std::sync::Arc;
use tables::Spelling;

/// The places of one pawnless tier's table: see the module.
#[derive(Debug, Clone)]
pub struct Stored {
    game: Endgame,
    tier: u32,
    /// The index of each side to move, White's then Black's; none for a side
    /// not stored (Black's, where White's holds both; either, while the
    /// writer weighs the other).
    sides: [Option<FileIndex>; 2],
    /// Whether Black to move's positions are stored as White to move's, the
    /// colours swapped.
    swapped: bool,
}

impl Stored {
    /// The order named `name` (see the module) of `tier`'s table.
    pub fn named(game: &Endgame, tier: u32, name: &str) -> Result<Stored, String> {
        let (white, black) = name
            .split_once('/')
            .ok_or_else(|| format!("'{name}' is not two sides' orders"))?;
        let side = |letters: &str, turn: Color| -> Result<Option<FileIndex>, String> {
            let other = turn == Color::Black && game.both_views(tier);
            match (other, letters) {
                (true, "-") => return Ok(None),
                (true, _) => return Err("Black to move is stored as White to move".into()),
                (false, "-") => return Err(format!("{turn:?} to move is stored")),
                // A side the table leaves.
                (false, "") => return Ok(None),
                (false, _) => {}
            }
            let pieces = letters
                .chars()
                .map(Piece::from_fen_char)
                .collect::<Option<Vec<Piece>>>()
                .ok_or_else(|| format!("'{letters}' is not a list of pieces"))?;
            if sorted(&pieces) != sorted(&pieces_of(game, tier)) {
                return Err(format!(
                    "'{letters}' are not the pieces of {}",
                    game.tier_name(tier)
                ));
            }
            FileIndex::new(&pieces)
                .map(Some)
                .map_err(|e| format!("'{letters}': {e}"))
        };
        let sides = [side(white, Color::White)?, side(black, Color::Black)?];
        if sides.iter().all(Option::is_none) {
            return Err(format!("'{name}' stores neither side to move"));
        }
        Ok(Stored {
            game: game.clone(),
            tier,
            sides,
            swapped: game.both_views(tier),
        })
    }

    /// The order of `tier`'s table that `weigh` finds smallest, and its name;
    /// none for a tier with pawns, or where the side `left` (none stored) is
    /// folded into the other. For each side to move stored: first the leader,
    /// each piece alone of its kind tried ahead of the others in the
    /// ending's order; then, slowest first, the kind that follows, each left
    /// tried next with the rest in the ending's order: 14 orders a side of
    /// five pieces each alone of its kind, of the 120 there are.
    pub fn weighed(
        game: &Endgame,
        tier: u32,
        left: Option<Color>,
        weigh: &dyn Fn(Arc<dyn Spelling>) -> u64,
    ) -> Option<(String, Stored)> {
        let swapped = game.both_views(tier);
        if game.placements(tier).is_some() || (swapped && left.is_some()) {
            return None;
        }
        let pieces = pieces_of(game, tier);
        let mut kept: [Option<FileIndex>; 2] = [None, None];
        for turn in [Color::White, Color::Black] {
            if (swapped && turn == Color::Black) || left == Some(turn) {
                continue;
            }
            let alone = |sides: [Option<FileIndex>; 2]| Stored {
                game: game.clone(),
                tier,
                sides,
                swapped: false,
            };
            let bytes = |order: &[Piece]| {
                let index = FileIndex::new(order).expect("like pieces kept together");
                let mut sides = [None, None];
                sides[turn as usize] = Some(index);
                weigh(Arc::new(alone(sides)))
            };
            let best = best_order(&pieces, bytes);
            kept[turn as usize] = Some(FileIndex::new(&best).expect("a weighed order"));
        }
        let stored = Stored {
            game: game.clone(),
            tier,
            sides: kept,
            swapped,
        };
        Some((stored.name(), stored))
    }

    /// The name a table's header gives this order: `-` for Black to move
    /// stored as White to move, nothing for a side the table leaves.
    pub fn name(&self) -> String {
        let side = |index: &Option<FileIndex>| match index {
            Some(index) => index.pieces().map(Piece::fen_char).collect(),
            None if self.swapped => "-".to_string(),
            None => String::new(),
        };
        format!("{}/{}", side(&self.sides[0]), side(&self.sides[1]))
    }

    /// The places of White to move's positions, which come first.
    fn white_places(&self) -> u64 {
        self.sides[0].as_ref().map_or(0, FileIndex::size)
    }
}

impl Spelling for Stored {
    fn places(&self) -> u64 {
        self.sides.iter().flatten().map(FileIndex::size).sum()
    }

    fn place(&self, slot: u64) -> u64 {
        let Some(mut layout) = self.game.layout_at(self.tier, slot) else {
            return 0;
        };
        if self.swapped && layout.turn == Color::Black {
            layout = layout.mirrored();
        }
        let (start, index) = match layout.turn {
            Color::White => (0, &self.sides[0]),
            Color::Black => (self.white_places(), &self.sides[1]),
        };
        let Some(index) = index else {
            return start;
        };
        // The squares in the index's order: each kind's in increasing
        // order, as the layout sorts them.
        let mut squares = [0u8; MOST];
        let mut taken = 0u64;
        for (at, piece) in index.pieces().enumerate() {
            let square = match piece.role {
                Role::King => layout.kings[piece.color as usize],
                role => {
                    let kind = piece.color as u8 * 8 + role as u8;
                    let before = index.pieces().take(at).filter(|&p| p == piece).count();
                    let mut same = layout.others[..layout.count].iter().filter(|o| o.0 == kind);
                    match same.nth(before) {
                        Some(&(_, square)) => square,
                        None => return start,
                    }
                }
            };
            squares[at] = square.number();
            taken |= square.bit();
        }
        // A slot whose pieces share a square holds no position.
        if taken.count_ones() as usize != layout.count + 2 {
            return start;
        }
        start + index.index_of_squares(&squares)
    }

    fn slot(&self, place: u64) -> Option<u64> {
        let (turn, at) = self.side_of(place);
        let index = self.sides[turn as usize].as_ref()?;
        let pieces: Vec<Piece> = index.pieces().collect();
        self.slot_of(turn, &pieces, &index.squares_at(at)?)
    }

    fn slots_of(&self, start: u64, end: u64, slots: &mut Vec<Option<u64>>) {
        slots.clear();
        let white = self.white_places();
        for (turn, from, to) in [
            (Color::White, start.min(white), end.min(white)),
            (
                Color::Black,
                start.max(white) - white,
                end.max(white) - white,
            ),
        ] {
            let Some(index) = self.sides[turn as usize].as_ref().filter(|_| from < to) else {
                continue;
            };
            let pieces: Vec<Piece> = index.pieces().collect();
            let spell = Spell::new(&self.game, self.tier, &pieces);
            index.walk(from, to, |squares| {
                slots.push(squares.and_then(|squares| {
                    spell
                        .slot(squares, turn)
                        .or_else(|| self.slot_of(turn, &pieces, squares))
                }));
            });
        }
    }
}

impl Stored {
    /// The side to move of `place`, and its place among that side's.
    fn side_of(&self, place: u64) -> (Color, u64) {
        match place.checked_sub(self.white_places()) {
            None => (Color::White, place),
            Some(at) => (Color::Black, at),
        }
    }

    /// The solver's slot of `pieces` on `squares` with `turn` to move, or
    /// none where the kings stand side by side.
    #[inline]
    fn slot_of(&self, turn: Color, pieces: &[Piece], squares: &[u8; MOST]) -> Option<u64> {
        let mut layout = Layout {
            kings: [Square::default(); 2],
            others: [(0, Square::default()); MAX_PIECES - 2],
            count: 0,
            turn,
        };
        for (piece, &square) in pieces.iter().zip(squares) {
            let square = Square::new(square);
            match piece.role {
                Role::King => layout.kings[piece.color as usize] = square,
                role => {
                    layout.others[layout.count] = (piece.color as u8 * 8 + role as u8, square);
                    layout.count += 1;
                }
            }
        }
        if attacks().king(layout.kings[0]) & layout.kings[1].bit() != 0 {
            return None;
        }
        Some(self.game.slot_of_layout(self.tier, false, &layout))
    }
}

/// How the solver spells the slot of a position a file index gives as its
/// pieces' squares, without building the position: where one symmetry alone
/// brings the kings to a canonical pair (all but the pairs both on the long
/// diagonal, and kings side by side, which none does), the kings settle
/// under it ([`Settled`]) and the slot is arithmetic on each kind's rank of
/// its squares under it. A writer turns every place of a table into its
/// slot; this is most of them, at a few lookups each.
#[derive(Debug)]
struct Spell {
    /// Where White's and Black's kings stand in the squares.
    kings: [usize; 2],
    /// The solver's runs of like pieces in its order, each as where its
    /// pieces stand in the squares and how many there are.
    runs: [([usize; 3], usize); MAX_PIECES - 2],
    count: usize,
    /// The slots of the tier whose kings settle (none in a tier whose
    /// colours swap: every slot of it is found the long way).
    settled: Settled,
}

impl Spell {
    /// The spelling of `tier`'s positions given as the squares of `pieces`,
    /// in that order.
    fn new(game: &Endgame, tier: u32, pieces: &[Piece]) -> Spell {
        let mut spell = Spell {
            kings: [0; 2],
            runs: [([0; 3], 0); MAX_PIECES - 2],
            count: 0,
            settled: game.settled(tier),
        };
        let kind = |piece: &Piece| piece.color as u8 * 8 + piece.role as u8;
        for (at, piece) in pieces.iter().enumerate() {
            if piece.role == Role::King {
                spell.kings[piece.color as usize] = at;
            }
        }
        let template = game.template(tier, 0);
        for (start, _) in template.groups() {
            let code = template.others[start].0;
            let run = &mut spell.runs[spell.count];
            for (at, _) in pieces.iter().enumerate().filter(|(_, p)| kind(p) == code) {
                run.0[run.1] = at;
                run.1 += 1;
            }
            spell.count += 1;
        }
        spell
    }

    /// The solver's slot of the position whose pieces stand on `squares`
    /// with `turn` to move; none where it is found the long way (and where
    /// the kings stand side by side).
    #[inline]
    fn slot(&self, squares: &[u8; MOST], turn: Color) -> Option<u64> {
        let [wk, bk] = self.kings.map(|at| usize::from(squares[at]));
        let mask = canonizing()[wk * 64 + bk];
        if mask.count_ones() != 1 {
            return None;
        }
        let map = &transforms()[mask.trailing_zeros() as usize];
        let mut field = 0;
        for &(ats, len) in &self.runs[..self.count] {
            let mut set = [0u8; 3];
            for (to, &at) in set.iter_mut().zip(&ats[..len]) {
                *to = map[usize::from(squares[at])].number();
            }
            field = field * choose(64, len) + set_rank(&mut set[..len]);
        }
        self.settled.slot([map[wk], map[bk]], field, turn)
    }
}

/// Every piece of `tier`, kings included, White's then Black's, each side
/// king first and then as the material lists them.
fn pieces_of(game: &Endgame, tier: u32) -> Vec<Piece> {
    let material = &game.tiers[tier as usize];
    [
        (Color::White, &material.white),
        (Color::Black, &material.black),
    ]
    .into_iter()
    .flat_map(|(color, roles)| {
        std::iter::once(Role::King)
            .chain(roles.iter().copied())
            .map(move |role| Piece { color, role })
    })
    .collect()
}

/// Pieces as a multiset: their colours and roles, sorted.
fn sorted(pieces: &[Piece]) -> Vec<(u8, u8)> {
    let mut keys: Vec<(u8, u8)> = (pieces.iter())
        .map(|p| (p.color as u8, p.role as u8))
        .collect();
    keys.sort_unstable();
    keys
}

/// The order of `pieces` (like pieces together) that `bytes` finds
/// smallest by the search [`Stored::weighed`] describes.
fn best_order(pieces: &[Piece], bytes: impl Fn(&[Piece]) -> u64) -> Vec<Piece> {
    // Kinds with their counts, in the ending's order.
    let mut kinds: Vec<(Piece, usize)> = Vec::new();
    for &piece in pieces {
        match kinds.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, count)) => *count += 1,
            None => kinds.push((piece, 1)),
        }
    }
    let spelled = |order: &[(Piece, usize)]| -> Vec<Piece> {
        order
            .iter()
            .flat_map(|&(piece, count)| std::iter::repeat_n(piece, count))
            .collect()
    };
    let with_rest = |prefix: &[(Piece, usize)]| -> Vec<Piece> {
        let rest = kinds.iter().filter(|k| !prefix.contains(k)).copied();
        spelled(&prefix.iter().copied().chain(rest).collect::<Vec<_>>())
    };
    let least = |tries: Vec<Vec<(Piece, usize)>>| -> Vec<(Piece, usize)> {
        tries
            .into_iter()
            .map(|prefix| (bytes(&with_rest(&prefix)), prefix))
            .min_by_key(|(weight, _)| *weight)
            .map(|(_, prefix)| prefix)
            .expect("an order to try")
    };
    let leaders = kinds.iter().filter(|&&(_, count)| count == 1);
    let mut prefix = least(leaders.map(|&kind| vec![kind]).collect());
    while prefix.len() + 1 < kinds.len() {
        let next = kinds.iter().filter(|k| !prefix.contains(k));
        prefix = least(
            next.map(|&kind| prefix.iter().copied().chain([kind]).collect())
                .collect(),
        );
    }
    with_rest(&prefix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Material;

    /// Every position of the tier at the place its slot gives, and back:
    /// each slot that holds a position has a place of its own, whose slot
    /// it is, and every place that gives a slot gives one that holds a
    /// position or none (the side not to move in check).
    fn round_trip(ending: &str, name: &str) {
        let game = Endgame::new(&Material::parse(ending).unwrap());
        let tier = game.named_tiers(ending).unwrap().pop().unwrap();
        let stored = Stored::named(&game, tier, name).unwrap();
        assert_eq!(stored.name(), name);
        let mut seen = vec![false; stored.places() as usize];
        let mut positions = 0;
        for slot in 0..game.index_size(tier) {
            // Lane 0 is White to move; a side left has no place.
            let left = !stored.swapped && stored.sides[slot as usize % 2].is_none();
            if left || game.position_at(tier, slot).is_none() {
                continue;
            }
            positions += 1;
            let place = stored.place(slot);
            assert!(
                !std::mem::replace(&mut seen[place as usize], true),
                "{slot}"
            );
            assert_eq!(stored.slot(place), Some(slot), "{ending} slot {slot}");
        }
        let held = (0..stored.places())
            .filter_map(|place| stored.slot(place))
            .filter(|&slot| game.position_at(tier, slot).is_some())
            .count();
        assert_eq!(held, positions, "{ending}");
        // Walked a block at a time, across the two sides too, the same.
        let places = stored.places();
        let middle = stored.white_places();
        for (start, end) in [
            (0, places),
            (middle.saturating_sub(99), (middle + 99).min(places)),
        ] {
            let mut walked = Vec::new();
            stored.slots_of(start, end, &mut walked);
            let each: Vec<_> = (start..end).map(|place| stored.slot(place)).collect();
            assert_eq!(walked, each, "{ending} {start}..{end}");
        }
    }

    #[test]
    fn every_position_has_a_place_of_its_own_and_back() {
        round_trip("KRvK", "RKk/kKR");
        round_trip("KRvK", "KkR/kRK");
        // Black to move stored as White to move, the colours swapped.
        round_trip("KRvKR", "rKRk/-");
        round_trip("KNNvK", "kKNN/KNNk");
        round_trip("KNvKB", "bkKN/NKbk");
        // One side to move left.
        round_trip("KRvK", "RKk/");
        round_trip("KNvKB", "/NKbk");
    }

    #[test]
    fn names_that_do_not_fit_the_tier_are_refused() {
        let game = Endgame::new(&Material::parse("KRvK").unwrap());
        let tier = game.named_tiers("KRvK").unwrap().pop().unwrap();
        for name in [
            "RKk", "RKk/kKQ", "RKk/kK", "RKkx/kKR", "RKk/-", "RRKk/kKR", "/",
        ] {
            assert!(Stored::named(&game, tier, name).is_err(), "{name}");
        }
        let game = Endgame::new(&Material::parse("KRvKR").unwrap());
        let tier = game.named_tiers("KRvKR").unwrap().pop().unwrap();
        for name in ["rKRk/rKRk", "rKRk", "rKRk/"] {
            assert!(Stored::named(&game, tier, name).is_err(), "{name}");
        }
    }

    #[test]
    fn the_search_keeps_the_order_weighed_smallest() {
        let pieces: Vec<Piece> = "KRBkr"
            .chars()
            .map(|c| Piece::from_fen_char(c).unwrap())
            .collect();
        // Smallest where the black rook leads and the bishop comes last.
        let weight = |order: &[Piece]| {
            let at = |c| order.iter().position(|p| p.fen_char() == c).unwrap() as u64;
            at('r') * 10 + (4 - at('B'))
        };
        let best: String = best_order(&pieces, weight)
            .into_iter()
            .map(Piece::fen_char)
            .collect();
        assert_eq!(best.chars().next(), Some('r'));
        assert_eq!(best.chars().last(), Some('B'));
    }
}
