//! The index of a chess ending: a dense map between positions and slots
//! `0..index_size`. The 8 symmetries of the board bring White's king into the
//! a1-d1-d4 triangle, leaving 462 king pairs; the other pieces add one field
//! per kind, the rank of the set of their squares (a lone piece's square); the
//! side to move is the lowest bit. A [`Layout`] is a position reduced to what
//! its slot depends on, which the dedicated solver works on without boards.

use super::board::Board;
use super::material::{Counts, MAX_PIECES, count_at};
use super::piece::{Color, Piece, Role};
use super::square::Square;
use std::sync::OnceLock;

/// Sorts a few items (the non-king pieces, at most three; a set of like
/// pieces' squares) without a general sort's setup.
#[inline]
pub(super) fn sort_small<T: PartialOrd>(items: &mut [T]) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// How many sets of `k` squares there are: C(64, k).
#[inline]
fn sets_of(k: usize) -> u64 {
    choose(64, k)
}

/// C(n, k) for the few identical pieces an ending has (k at most 3).
#[inline]
pub(super) fn choose(n: u64, k: usize) -> u64 {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        _ => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
    }
}

/// The rank of a set of squares, ascending, among the sets of its size: the
/// combinatorial number system, sum of C(square_i, i + 1). One square ranks as itself.
#[inline]
fn set_rank(group: &[(u8, Square)]) -> u64 {
    group.iter().enumerate().fold(0, |rank, (i, &(_, sq))| {
        rank + choose(u64::from(sq.number()), i + 1)
    })
}

/// Every set of 2 and of 3 squares, ascending, in the order of their ranks.
fn sets() -> &'static [Vec<[Square; 3]>; 2] {
    static SETS: OnceLock<[Vec<[Square; 3]>; 2]> = OnceLock::new();
    SETS.get_or_init(|| {
        let pairs = (1..64u8)
            .flat_map(|b| (0..b).map(move |a| [a, b, 0].map(Square::new)))
            .collect();
        let triples = (2..64u8)
            .flat_map(|c| (1..c).flat_map(move |b| (0..b).map(move |a| [a, b, c].map(Square::new))))
            .collect();
        [pairs, triples]
    })
}

/// The 8 symmetries of the board as square maps.
#[inline]
pub(super) fn transforms() -> &'static [[Square; 64]; 8] {
    static MAPS: OnceLock<[[Square; 64]; 8]> = OnceLock::new();
    MAPS.get_or_init(|| {
        std::array::from_fn(|t| {
            std::array::from_fn(|sq| {
                let (mut f, mut r) = (sq as u8 % 8, sq as u8 / 8);
                if t & 1 != 0 {
                    f = 7 - f;
                }
                if t & 2 != 0 {
                    r = 7 - r;
                }
                if t & 4 != 0 {
                    std::mem::swap(&mut f, &mut r);
                }
                Square::at(f, r)
            })
        })
    })
}

/// The canonical king pairs, and the rank of every (white king, black king) pair
/// (`u16::MAX` where not canonical), indexed `white * 64 + black`.
pub(super) struct KingPairs(pub(super) Vec<(Square, Square)>, pub(super) Vec<u16>);

/// The 462 king pairs: White's king in the a1-d1-d4 triangle, and when it is on the
/// diagonal, Black's king on or below the diagonal; kings apart.
#[inline]
pub(super) fn king_pairs() -> &'static KingPairs {
    static PAIRS: OnceLock<KingPairs> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut pairs = Vec::new();
        let mut rank_of = vec![u16::MAX; 64 * 64];
        for wk in Square::all() {
            let (wf, wr) = (wk.file(), wk.rank());
            if !(wr <= wf && wf <= 3) {
                continue;
            }
            for bk in Square::all() {
                let (bf, br) = (bk.file(), bk.rank());
                let apart = wf.abs_diff(bf) > 1 || wr.abs_diff(br) > 1;
                if apart && (wf != wr || br <= bf) {
                    rank_of[wk.index() * 64 + bk.index()] = pairs.len() as u16;
                    pairs.push((wk, bk));
                }
            }
        }
        KingPairs(pairs, rank_of)
    })
}

/// For every (white king, black king) pair, indexed `white * 64 + black`, the
/// symmetries (bit `t` for `transforms()[t]`) that bring it to a canonical pair:
/// one for most pairs, two or more where a king stands on the long diagonal, so a
/// slot is looked for under those alone.
#[inline]
pub(super) fn canonizing() -> &'static [u8] {
    static MASKS: OnceLock<Vec<u8>> = OnceLock::new();
    MASKS.get_or_init(|| {
        let ranks = &king_pairs().1;
        (0..64 * 64)
            .map(|pair| {
                let (wk, bk) = (pair / 64, pair % 64);
                (0..8).fold(0, |mask, t| {
                    let map = &transforms()[t];
                    let image = map[wk].index() * 64 + map[bk].index();
                    match ranks[image] {
                        u16::MAX => mask,
                        _ => mask | 1 << t,
                    }
                })
            })
            .collect()
    })
}

/// A position reduced to what its slot depends on: the kings (White's, Black's),
/// the other pieces as `(colour * 8 + role, square)` sorted, and the side to move.
/// The dedicated solver works on these, never building a [`Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub kings: [Square; 2],
    pub others: [(u8, Square); MAX_PIECES - 2],
    pub count: usize,
    pub turn: Color,
}

impl Layout {
    /// The kings, other pieces and side to move of a board.
    pub fn of(board: &Board) -> Layout {
        let mut layout = Layout {
            kings: [Square::default(); 2],
            others: [(0, Square::default()); MAX_PIECES - 2],
            count: 0,
            turn: board.turn,
        };
        for (sq, p) in board.pieces() {
            if p.role == Role::King {
                layout.kings[p.color as usize] = sq;
            } else {
                layout.others[layout.count] = (p.color as u8 * 8 + p.role as u8, sq);
                layout.count += 1;
            }
        }
        sort_small(&mut layout.others[..layout.count]);
        layout
    }

    /// The board of this layout, no en passant right; None where two pieces
    /// share a square.
    pub fn board(&self) -> Option<Board> {
        let mut board = Board::empty(self.turn);
        let kings = [Color::White, Color::Black].map(|color| Piece {
            color,
            role: Role::King,
        });
        let others = self.others[..self.count].iter().map(|&(kind, sq)| {
            let color = [Color::White, Color::Black][usize::from(kind / 8)];
            let role = Role::ALL[usize::from(kind % 8)];
            (sq, Piece { color, role })
        });
        for (sq, piece) in self.kings.into_iter().zip(kings).chain(others) {
            if board.piece_at(sq).is_some() {
                return None;
            }
            board.set(sq, Some(piece));
        }
        Some(board)
    }

    /// The same position with the other pieces in order (by kind, then square),
    /// as [`Layout::squares`] reads them.
    #[inline]
    pub fn in_order(mut self) -> Layout {
        sort_small(&mut self.others[..self.count]);
        self
    }

    /// The same position with the colours swapped and the ranks flipped.
    #[inline]
    pub fn mirrored(&self) -> Layout {
        let mut mirror = Layout {
            kings: [self.kings[1].flip_rank(), self.kings[0].flip_rank()],
            turn: self.turn.other(),
            ..*self
        };
        for piece in &mut mirror.others[..self.count] {
            *piece = (piece.0 ^ 8, piece.1.flip_rank());
        }
        sort_small(&mut mirror.others[..self.count]);
        mirror
    }

    /// The same position mirrored left to right (a1 <-> h1), the one symmetry
    /// pawns leave.
    #[inline]
    pub fn file_mirrored(&self) -> Layout {
        let mut mirror = Layout {
            kings: self.kings.map(Square::flip_file),
            ..*self
        };
        for piece in &mut mirror.others[..self.count] {
            piece.1 = piece.1.flip_file();
        }
        sort_small(&mut mirror.others[..self.count]);
        mirror
    }

    /// The same position without its pawns.
    #[inline]
    pub fn without_pawns(&self) -> Layout {
        let mut pieces = *self;
        pieces.count = 0;
        for &piece in &self.others[..self.count] {
            if piece.0 % 8 != Role::Pawn as u8 {
                pieces.others[pieces.count] = piece;
                pieces.count += 1;
            }
        }
        pieces.others[pieces.count..].fill((0, Square::default()));
        pieces
    }

    /// The runs of identical pieces among the others, as (first, length).
    #[inline]
    pub(super) fn groups(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            (start < self.count).then(|| {
                let kind = self.others[start].0;
                let len = self.others[start..self.count]
                    .iter()
                    .take_while(|p| p.0 == kind)
                    .count();
                start += len;
                (start - len, len)
            })
        })
    }

    /// The squares of the pieces other than the kings as one number, how a slot
    /// spells them: one field per kind of piece, the first highest, each the
    /// rank of the set of its pieces' squares (a lone piece's square itself).
    /// The pieces must be in order ([`Layout::of`] has them so).
    #[inline]
    pub fn squares(&self) -> u64 {
        self.groups().fold(0, |field, (start, len)| {
            field * sets_of(len) + set_rank(&self.others[start..start + len])
        })
    }

    /// How many numbers [`Layout::squares`] can give for these pieces.
    #[inline]
    pub fn squares_radix(&self) -> u64 {
        self.groups().map(|(_, len)| sets_of(len)).product()
    }

    /// The radix of each field of [`Layout::squares`], the first highest.
    pub fn squares_radices(&self) -> impl Iterator<Item = u64> + '_ {
        self.groups().map(|(_, len)| sets_of(len))
    }

    /// What one step of a lone piece's square (`others[i]`, see
    /// [`Layout::unique`]) adds to [`Layout::squares`].
    #[inline]
    pub fn weight(&self, i: usize) -> u64 {
        self.groups()
            .filter(|&(start, _)| start > i)
            .map(|(_, len)| sets_of(len))
            .product()
    }

    /// Puts the pieces on the squares `field` spells (as [`Layout::squares`]
    /// gives it), their kinds already set.
    #[inline]
    pub(super) fn set_squares(&mut self, mut field: u64) {
        let mut groups = [(0, 0); MAX_PIECES - 2];
        let mut n = 0;
        for group in self.groups() {
            groups[n] = group;
            n += 1;
        }
        for &group in groups[..n].iter().rev() {
            let radix = sets_of(group.1);
            self.place_group(group, field % radix);
            field /= radix;
        }
    }

    /// Puts the run of identical pieces `(first, length)` on the set of squares
    /// of rank `rank` (a lone piece on square `rank`).
    #[inline]
    fn place_group(&mut self, (start, len): (usize, usize), rank: u64) {
        let squares = match len {
            1 => [
                Square::new(rank as u8),
                Square::default(),
                Square::default(),
            ],
            _ => sets()[len - 2][rank as usize],
        };
        for (piece, sq) in self.others[start..start + len].iter_mut().zip(squares) {
            piece.1 = sq;
        }
    }

    /// Whether no other piece has the colour and role of `others[i]` (pieces
    /// of one kind are next to each other, in order of their squares).
    #[inline]
    pub fn unique(&self, i: usize) -> bool {
        let kind = self.others[i].0;
        (i == 0 || self.others[i - 1].0 != kind)
            && (i + 1 >= self.count || self.others[i + 1].0 != kind)
    }

    /// The kings' squares under symmetry `t`, the cheap first look at an image.
    #[inline]
    pub fn kings_under(&self, t: usize) -> [Square; 2] {
        let map = &transforms()[t];
        self.kings.map(|k| map[k.index()])
    }

    /// The position under symmetry `t` (0 to 7; 0 leaves it as it is).
    #[inline]
    pub fn transformed(&self, t: usize) -> Layout {
        let map = &transforms()[t];
        let mut image = Layout {
            kings: self.kings.map(|k| map[k.index()]),
            ..*self
        };
        for piece in &mut image.others[..self.count] {
            piece.1 = map[piece.1.index()];
        }
        sort_small(&mut image.others[..self.count]);
        image
    }

    /// The pieces' colours and roles as counts (kings included), as [`Counts`] has them.
    pub(super) fn counts(&self) -> Counts {
        let mut counts: Counts = [0; 12];
        counts[count_at(Color::White, Role::King)] = 1;
        counts[count_at(Color::Black, Role::King)] = 1;
        for &(kind, _) in &self.others[..self.count] {
            counts[usize::from(kind / 8) * 6 + usize::from(kind % 8)] += 1;
        }
        counts
    }
}

/// The slots of one tier whose kings settle: a canonical pair not both on the
/// long diagonal (then only the identity brings them to a canonical pair), in a
/// tier whose colours cannot swap. Every position with such kings is stored as
/// it stands, so its slot is arithmetic alone, as un-moves need it.
#[derive(Debug, Clone, Copy)]
pub struct Settled {
    /// Each king pair's rank, by white king * 64 + black king (`u16::MAX`: not canonical).
    ranks: &'static [u16],
    both_views: bool,
    /// Whether the tier has pawns: its slots are spelled otherwise, and never settle.
    pawns: bool,
    /// How many numbers the other pieces' squares can be (see [`Layout::squares`]).
    radix: u64,
}

impl Settled {
    /// How a tier spells its settled slots: its pieces' squares can be `radix`
    /// numbers; it may store either colour as White (`both_views`), or has
    /// `pawns`.
    pub(super) fn new(both_views: bool, pawns: bool, radix: u64) -> Settled {
        Settled {
            ranks: &king_pairs().1,
            both_views,
            pawns,
            radix,
        }
    }

    /// The slot of the position with these kings, other pieces on `squares` (as
    /// [`Layout::squares`] spells them) and side to move, if its kings settle.
    #[inline]
    pub fn slot(&self, kings: [Square; 2], squares: u64, turn: Color) -> Option<u64> {
        let rank = self.ranks[kings[0].index() * 64 + kings[1].index()];
        let folds = self.both_views || self.pawns;
        let settles =
            rank != u16::MAX && !folds && !(on_diagonal(kings[0]) && on_diagonal(kings[1]));
        settles
            .then(|| (u64::from(rank) * self.radix + squares) * 2 + u64::from(turn == Color::Black))
    }
}

/// The layouts of a pawnless tier's slots one after another from a first
/// slot, as a scan over a run of slots reads them: each step turns the side to
/// move, or moves the last field on by one as counting does, instead of
/// spelling each slot anew as [`super::Endgame::layout_at`] does.
#[derive(Debug, Clone)]
pub struct Walk {
    layout: Layout,
    /// The runs of identical pieces as (first, length), the last varying fastest,
    /// with each run's field and how many numbers the field can be.
    groups: [(usize, usize); MAX_PIECES - 2],
    fields: [u64; MAX_PIECES - 2],
    radices: [u64; MAX_PIECES - 2],
    runs: usize,
    /// The king pair's rank; past the last, the walk is over.
    pair: usize,
}

impl Walk {
    /// The walk from `slot` of the tier whose pieces `layout` holds (its
    /// template: kinds set, squares not).
    pub(super) fn new(layout: Layout, slot: u64) -> Walk {
        let mut walk = Walk {
            layout,
            groups: [(0, 0); MAX_PIECES - 2],
            fields: [0; MAX_PIECES - 2],
            radices: [0; MAX_PIECES - 2],
            runs: 0,
            pair: 0,
        };
        for (start, len) in layout.groups() {
            walk.groups[walk.runs] = (start, len);
            walk.radices[walk.runs] = sets_of(len);
            walk.runs += 1;
        }
        let mut field = slot / 2;
        for g in (0..walk.runs).rev() {
            walk.fields[g] = field % walk.radices[g];
            field /= walk.radices[g];
            walk.place(g);
        }
        walk.pair = field as usize;
        walk
    }

    /// Puts the pieces of run `g` on the squares its field spells.
    #[inline]
    fn place(&mut self, g: usize) {
        self.layout.place_group(self.groups[g], self.fields[g]);
    }
}

impl Iterator for Walk {
    type Item = Layout;

    #[inline]
    fn next(&mut self) -> Option<Layout> {
        let pairs = &king_pairs().0;
        let &(wk, bk) = pairs.get(self.pair)?;
        let current = Layout {
            kings: [wk, bk],
            ..self.layout
        };
        if self.layout.turn == Color::White {
            self.layout.turn = Color::Black;
            return Some(current);
        }
        self.layout.turn = Color::White;
        for g in (0..self.runs).rev() {
            self.fields[g] += 1;
            let carry = self.fields[g] == self.radices[g];
            if carry {
                self.fields[g] = 0;
            }
            self.place(g);
            if !carry {
                return Some(current);
            }
        }
        self.pair += 1;
        Some(current)
    }
}

/// Whether a square is on the a1-h8 diagonal, where a king's square is left
/// as it is by two of the symmetries.
fn on_diagonal(sq: Square) -> bool {
    sq.rank() == sq.file()
}

impl Layout {
    /// The slot of a normalized position (pawnless) under one symmetry, if its
    /// kings land on a canonical pair. Identical pieces are ordered by square after the symmetry.
    #[inline]
    pub(super) fn slot_under(&self, t: &[Square; 64]) -> Option<u64> {
        let layout = self;
        let [wk, bk] = layout.kings;
        let pair = king_pairs().1[t[wk.index()].index() * 64 + t[bk.index()].index()];
        if pair == u16::MAX {
            return None;
        }
        let mut image = *layout;
        for piece in &mut image.others[..layout.count] {
            piece.1 = t[piece.1.index()];
        }
        let image = image.in_order();
        let slot = u64::from(pair) * image.squares_radix() + image.squares();
        Some(slot * 2 + u64::from(layout.turn == Color::Black))
    }
}

/// The board with the colours swapped and the ranks flipped, the other side to move:
/// the same position seen from the other side.
pub(crate) fn mirrored(board: &Board) -> Board {
    let mut mirror = Board::empty(board.turn.other());
    for (sq, p) in board.pieces() {
        let piece = Piece {
            color: p.color.other(),
            role: p.role,
        };
        mirror.set(sq.flip_rank(), Some(piece));
    }
    mirror
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::chess::{Endgame, Material};

    #[test]
    fn a_walk_spells_every_slot_as_layout_at_does() {
        for name in ["KRvK", "KBBvK", "KRBvKR", "KNNvKB", "KQvKQ"] {
            let game = Endgame::new(&Material::parse(name).unwrap());
            let tier = *game.tiers().last().unwrap();
            let size = game.index_size(tier);
            assert!(size > 4096);
            for start in [0, 1, 4095, size / 3, size - 130] {
                let walked: Vec<Layout> = game.walk(tier, start).take(3000).collect();
                let spelled: Vec<Layout> = (start..size.min(start + 3000))
                    .map(|slot| game.layout_at(tier, slot).unwrap())
                    .collect();
                assert_eq!(walked, spelled, "{name} from slot {start}");
            }
        }
    }

    #[test]
    fn there_are_462_king_pairs() {
        assert_eq!(king_pairs().0.len(), 462);
    }

    /// Every ending of up to 5 pieces is found by its piece counts, either
    /// colour stronger; a board of other material, or of more pieces than a
    /// count's four bits hold, is no tier.
    #[test]
    fn every_tier_is_found_by_its_counts() {
        let game = Endgame::of_all(&Material::all_with_pawns_up_to(5));
        for (tier, material) in game.materials().iter().enumerate() {
            let tier = tier as u32;
            let found = (0..game.index_size(tier))
                .find_map(|slot| game.position_at(tier, slot))
                .expect("a tier holds a position");
            assert_eq!(game.tier_of(&found), tier, "{material}");
            let counts = Layout::of(&found).counts();
            let mut swapped = counts;
            swapped[..6].copy_from_slice(&counts[6..]);
            swapped[6..].copy_from_slice(&counts[..6]);
            let colours_swap = counts != swapped;
            assert_eq!(
                game.tier_of_counts(swapped),
                Some((tier, colours_swap)),
                "{material}"
            );
        }
        let mut many = [0u8; 12];
        many[0] = 1;
        many[6] = 1;
        many[4] = 16;
        assert_eq!(game.tier_of_counts(many), None);
        many[4] = 2;
        many[1] = 2;
        assert_eq!(game.tier_of_counts(many), None, "KQQPPvK: six pieces");
        // Kings and 16 white knights: counted four bits a count, the
        // knights would carry into the bishops' count, KBvK's key.
        let mut crowded = Board::empty(Color::White);
        let piece = |color, role| Some(Piece { color, role });
        crowded.set(Square::new(0), piece(Color::White, Role::King));
        crowded.set(Square::new(63), piece(Color::Black, Role::King));
        for at in 16..32 {
            crowded.set(Square::new(at), piece(Color::White, Role::Knight));
        }
        assert_eq!(game.find_tier(&crowded), None);
        crowded.set(Square::new(16), None);
        assert_eq!(game.find_tier(&crowded), None, "15 knights");
    }

    /// Every `step`th slot of `name` that holds a position indexes back to itself,
    /// and so do its 8 symmetric images; returns how many held one.
    fn slots_index_back(name: &str, step: usize) -> usize {
        let game = Endgame::new(&Material::parse(name).unwrap());
        let tier = game.tiers().len() as u32 - 1;
        let mut legal = 0;
        for index in (0..game.index_size(tier)).step_by(step) {
            if let Some(board) = game.position_at(tier, index) {
                legal += 1;
                assert_eq!(game.index(&board), index);
                for t in transforms() {
                    let mut image = Board::empty(board.turn);
                    for (sq, p) in board.pieces() {
                        image.set(t[sq.index()], Some(p));
                    }
                    assert_eq!(game.index(&image), index, "{}", board.fen());
                }
            }
        }
        legal
    }

    #[test]
    fn every_slot_indexes_back_and_symmetric_boards_share_it() {
        assert!(slots_index_back("KRvK", 1) > 20_000);
        // Every KBBvK position of either side to move, as the tables count them.
        assert_eq!(slots_index_back("KBBvK", 1), 1_489_788);
        assert!(slots_index_back("KNNNvK", 101) > 250_000);
        assert!(slots_index_back("KRRvKN", 997) > 70_000);
        // Six pieces: two pairs of identical ones, and four different pieces
        // whose 15.5 billion slots are past what 32 bits count.
        assert!(slots_index_back("KRRvKRR", 250_007) > 3_000);
        assert!(slots_index_back("KRBvKRN", 4_000_037) > 2_000);
    }

    /// Identical pieces take one field, the rank of their set of squares: C(64, k)
    /// numbers where k of them stand, not 64^k.
    #[test]
    fn identical_pieces_are_stored_once_per_set_of_squares() {
        let size = |name: &str| {
            let game = Endgame::new(&Material::parse(name).unwrap());
            game.index_size(game.tiers().len() as u32 - 1)
        };
        assert_eq!(size("KRvK"), 462 * 64 * 2);
        assert_eq!(size("KBBvK"), 462 * 2016 * 2);
        assert_eq!(size("KNNNvK"), 462 * 41_664 * 2);
        assert_eq!(size("KRRvKN"), 462 * 2016 * 64 * 2);
        assert_eq!(size("KQRvKB"), 462 * 64 * 64 * 64 * 2);
        for (k, all) in sets().iter().enumerate() {
            assert_eq!(all.len() as u64, sets_of(k + 2));
            for (rank, squares) in all.iter().enumerate() {
                let group: Vec<(u8, Square)> = squares[..k + 2].iter().map(|&sq| (0, sq)).collect();
                assert!(group.windows(2).all(|w| w[0].1 < w[1].1));
                assert_eq!(set_rank(&group), rank as u64);
            }
        }
    }

    #[test]
    fn equal_material_folds_the_colour_swap_too() {
        let game = Endgame::new(&Material::parse("KRvKR").unwrap());
        let tier = game
            .tiers()
            .into_iter()
            .find(|&t| game.tier_name(t) == "KRvKR")
            .unwrap();
        let mut seen = 0;
        for index in (0..game.index_size(tier)).step_by(997) {
            let Some(board) = game.position_at(tier, index) else {
                continue;
            };
            seen += 1;
            assert_eq!(game.index(&board), index);
            // Colours swapped, board flipped, the other side to move: same slot.
            assert_eq!(game.index(&mirrored(&board)), index, "{}", board.fen());
        }
        assert!(seen > 1_000, "{seen}");
    }
}
