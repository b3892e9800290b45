//! The index of an ending with pawns. Pawns break every symmetry but the
//! left-right mirror, and they never move back, so a slot is spelled pawns
//! first: the placement of the pawns (one of the placements that the mirror
//! leaves as small as they are), then the kings (any two squares apart), then
//! the other pieces as in pawnless endings, then the side to move. Placements
//! are numbered most advanced first, so that every pawn move leads to a lower
//! placement: the solver takes the placements of one advancement together, a
//! slice of consecutive slots, after every slice its pawn moves reach.

use super::index::{Layout, choose};
use super::piece::Color;
use super::square::Square;
use std::sync::OnceLock;

/// A white pawn and a black pawn as [`Layout`] writes their kinds.
pub const WHITE_PAWN: u8 = 5;
pub const BLACK_PAWN: u8 = 8 + 5;

/// The squares a pawn may stand on, a2 to h7, numbered from 0.
const PAWN_SQUARES: u64 = 48;

/// The most pawns of one colour an ending may have.
const MOST_PAWNS: usize = 3;

/// The king pairs of an ending with pawns: any two squares not next to each
/// other, and the rank of each pair by `white * 64 + black` (`u16::MAX`: none).
#[derive(Debug)]
pub(super) struct FreePairs(pub(super) Vec<(Square, Square)>, pub(super) Vec<u16>);

/// The 3,612 king pairs of endings with pawns.
pub(super) fn free_pairs() -> &'static FreePairs {
    static PAIRS: OnceLock<FreePairs> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut pairs = Vec::new();
        let mut rank_of = vec![u16::MAX; 64 * 64];
        for wk in Square::all() {
            for bk in Square::all() {
                if wk.file().abs_diff(bk.file()) > 1 || wk.rank().abs_diff(bk.rank()) > 1 {
                    rank_of[wk.index() * 64 + bk.index()] = pairs.len() as u16;
                    pairs.push((wk, bk));
                }
            }
        }
        FreePairs(pairs, rank_of)
    })
}

/// The rank of a set of pawn squares (ascending) among the sets of its size.
fn pawn_set_rank(squares: impl Iterator<Item = Square>) -> u64 {
    squares.enumerate().fold(0, |rank, (i, sq)| {
        rank + choose(u64::from(sq.number()) - 8, i + 1)
    })
}

/// The pawns of a position: each colour's squares, ascending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pawns {
    pub squares: [[Square; MOST_PAWNS]; 2],
    pub counts: [usize; 2],
}

impl Pawns {
    /// The pawns of a layout (its others in order).
    pub fn of(layout: &Layout) -> Pawns {
        let mut pawns = Pawns {
            squares: [[Square::default(); MOST_PAWNS]; 2],
            counts: [0; 2],
        };
        for &(kind, sq) in &layout.others[..layout.count] {
            let side = match kind {
                WHITE_PAWN => 0,
                BLACK_PAWN => 1,
                _ => continue,
            };
            pawns.squares[side][pawns.counts[side]] = sq;
            pawns.counts[side] += 1;
        }
        pawns
    }

    pub(super) fn side(&self, color: Color) -> &[Square] {
        &self.squares[color as usize][..self.counts[color as usize]]
    }

    /// How far the pawns have come, in steps from their starting rank.
    fn advancement(&self) -> u32 {
        let white = self
            .side(Color::White)
            .iter()
            .map(|sq| u32::from(sq.rank()) - 1);
        let black = self
            .side(Color::Black)
            .iter()
            .map(|sq| 6 - u32::from(sq.rank()));
        white.chain(black).sum()
    }

    /// A number of its own for every placement of this many pawns of each colour.
    fn code(&self, black_sets: u64) -> u64 {
        let white = pawn_set_rank(self.side(Color::White).iter().copied());
        white * black_sets + pawn_set_rank(self.side(Color::Black).iter().copied())
    }
}

/// The placements of an ending's pawns, in solving order.
#[derive(Debug)]
pub struct Placements {
    /// How many sets the black pawns' squares can be: C(48, black pawns).
    black_sets: u64,
    /// Each placement the mirror leaves as small as it is, most advanced first.
    list: Vec<Pawns>,
    /// By [`Pawns::code`]: the placement's number in `list`, `u32::MAX` where the
    /// mirror makes it smaller or two pawns share a square.
    number: Vec<u32>,
    /// Where each advancement's placements start in `list`, and the end.
    bounds: Vec<usize>,
}

/// The placements of `white` white and `black` black pawns, made once.
pub(super) fn placements(white: usize, black: usize) -> &'static Placements {
    static ALL: [[OnceLock<Placements>; MOST_PAWNS + 1]; MOST_PAWNS + 1] =
        [const { [const { OnceLock::new() }; MOST_PAWNS + 1] }; MOST_PAWNS + 1];
    ALL[white][black].get_or_init(|| Placements::new(white, black))
}

/// Every ascending set of `k` pawn squares.
fn pawn_sets(k: usize) -> Vec<[Square; MOST_PAWNS]> {
    let squares: Vec<Square> = (8..56).map(Square::new).collect();
    let mut sets = vec![[Square::default(); MOST_PAWNS]];
    for i in 0..k {
        sets = sets
            .into_iter()
            .flat_map(|set| {
                let after = if i == 0 { 0 } else { set[i - 1].index() - 7 };
                squares[after..].iter().map(move |&sq| {
                    let mut next = set;
                    next[i] = sq;
                    next
                })
            })
            .collect();
    }
    sets
}

impl Placements {
    fn new(white: usize, black: usize) -> Placements {
        let black_sets = choose(PAWN_SQUARES, black);
        let mut list = Vec::new();
        for w in pawn_sets(white) {
            for b in pawn_sets(black) {
                let pawns = Pawns {
                    squares: [w, b],
                    counts: [white, black],
                };
                let apart = pawns
                    .side(Color::White)
                    .iter()
                    .all(|sq| !pawns.side(Color::Black).contains(sq));
                if apart && pawns.code(black_sets) <= pawns.mirrored().code(black_sets) {
                    list.push(pawns);
                }
            }
        }
        list.sort_by_key(|p| (std::cmp::Reverse(p.advancement()), p.code(black_sets)));
        let mut number = vec![u32::MAX; (choose(PAWN_SQUARES, white) * black_sets) as usize];
        for (i, pawns) in list.iter().enumerate() {
            number[pawns.code(black_sets) as usize] = i as u32;
        }
        let mut bounds: Vec<usize> = (0..list.len())
            .filter(|&i| i == 0 || list[i - 1].advancement() != list[i].advancement())
            .collect();
        bounds.push(list.len());
        Placements {
            black_sets,
            list,
            number,
            bounds,
        }
    }

    /// How many placements there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none (never: every ending with pawns has some).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The placement numbered `i`.
    pub fn get(&self, i: usize) -> Option<&Pawns> {
        self.list.get(i)
    }

    /// Whether the placement numbered `i` is its own mirror image.
    pub fn is_symmetric(&self, i: usize) -> bool {
        let pawns = &self.list[i];
        pawns.mirrored() == *pawns
    }

    /// The number of a placement, if the mirror leaves it as small as it is.
    pub fn number(&self, pawns: &Pawns) -> Option<u64> {
        match self.number[pawns.code(self.black_sets) as usize] {
            u32::MAX => None,
            n => Some(u64::from(n)),
        }
    }

    /// The placements of each advancement, most advanced first, as ranges of
    /// placement numbers: every pawn move leads from one to an earlier one.
    pub fn slices(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.bounds.windows(2).map(|w| w[0]..w[1])
    }
}

impl Pawns {
    /// The placement mirrored left to right.
    fn mirrored(&self) -> Pawns {
        let mut mirror = *self;
        for side in 0..2 {
            let squares = &mut mirror.squares[side][..self.counts[side]];
            squares.iter_mut().for_each(|sq| *sq = sq.flip_file());
            squares.sort();
        }
        mirror
    }
}

/// A slot of a tier with pawns from its parts, as un-moves need it: the pawns
/// stay, so only the kings or one piece's square change.
#[derive(Debug, Clone, Copy)]
pub struct PawnSlots {
    /// How many numbers the squares of the pieces other than kings and pawns can be.
    radix: u64,
    /// The king pairs, looked up once rather than on every slot.
    pairs: &'static FreePairs,
}

impl PawnSlots {
    /// The slots of a tier whose pieces other than kings and pawns can stand
    /// on `radix` numbers of squares.
    pub(super) fn new(radix: u64) -> PawnSlots {
        PawnSlots {
            radix,
            pairs: free_pairs(),
        }
    }

    /// The slot of the position with the pawns of placement number `placement`,
    /// these kings, the other pieces on `squares` (as [`Layout::squares`] spells
    /// them without the pawns) and side to move; None where the kings touch.
    #[inline]
    pub fn slot(
        &self,
        placement: u64,
        kings: [Square; 2],
        squares: u64,
        turn: Color,
    ) -> Option<u64> {
        let pair = match self.pairs.1[kings[0].index() * 64 + kings[1].index()] {
            u16::MAX => return None,
            pair => u64::from(pair),
        };
        let slot = (placement * self.pairs.0.len() as u64 + pair) * self.radix + squares;
        Some(slot * 2 + u64::from(turn == Color::Black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Endgame;

    #[test]
    fn placements_are_halved_by_the_mirror_and_ordered_by_advancement() {
        assert_eq!(free_pairs().0.len(), 3612);
        let one = placements(1, 0);
        assert_eq!(one.len(), 24);
        // The seventh rank first, the second last; six advancements.
        assert_eq!(one.get(0).unwrap().squares[0][0].to_string(), "a7");
        assert_eq!(one.slices().count(), 6);
        // A white pawn and a black pawn: 48 * 47 placements, half of them kept.
        assert_eq!(placements(1, 1).len(), 48 * 47 / 2);
        // Two white pawns: the mirror keeps one of each pair and the placements
        // it leaves as they are (both pawns on mirrored files of one rank pair).
        let two = placements(2, 0);
        let symmetric = 4 * 6;
        assert_eq!(two.len(), (1128 - symmetric) / 2 + symmetric);
        for (i, pawns) in two.list.iter().enumerate() {
            assert_eq!(two.number(pawns), Some(i as u64));
        }
    }

    /// Every `step`th slot of `name` that holds a position indexes back to
    /// itself, and so do its mirror image and, seen from the other side (colours
    /// swapped, board flipped), the same position; returns how many held one.
    fn pawn_slots_index_back(name: &str, step: usize) -> usize {
        use crate::Game;
        use crate::chess::{Board, Material};
        let game = Endgame::new(&Material::parse(name).unwrap());
        let tier = game.tiers().len() as u32 - 1;
        assert_eq!(game.tier_name(tier), name);
        let mut legal = 0;
        for slot in (0..game.index_size(tier)).step_by(step) {
            let Some(board) = game.position_at(tier, slot) else {
                continue;
            };
            legal += 1;
            assert_eq!(game.index(&board), slot, "{}", board.fen());
            let mut mirror = Board::empty(board.turn);
            for (sq, p) in board.pieces() {
                mirror.set(sq.flip_file(), Some(p));
            }
            assert_eq!(game.index(&mirror), slot, "{}", mirror.fen());
            let other_side = crate::chess::index::mirrored(&board);
            if !game.both_views(tier) && Material::of(&other_side) != Material::of(&board) {
                assert_eq!(game.index(&other_side), slot, "{}", other_side.fen());
            }
        }
        legal
    }

    #[test]
    fn pawn_slots_index_back_from_either_side_and_the_mirror() {
        // Every legal KPvK position with the pawn on files a-d, either side to
        // move: kings apart and off the pawn, Black's king not left in check.
        assert_eq!(pawn_slots_index_back("KPvK", 1), 165_676);
        assert!(pawn_slots_index_back("KPvKP", 7) > 500_000);
        assert!(pawn_slots_index_back("KRPvKR", 4_999) > 50_000);
        assert!(pawn_slots_index_back("KPPvKP", 997) > 50_000);
        assert!(pawn_slots_index_back("KQvKPP", 997) > 50_000);
    }
}
