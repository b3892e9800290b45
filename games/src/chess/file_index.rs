//! An index for storing one side to move of a pawnless ending, apart from the
//! solver's: one piece of the ending (the leader) is brought by the board's
//! symmetries into the a1-d1-d4 triangle, and the other pieces follow in a
//! chosen order, each kind numbered by its squares on the whole board (two
//! or three like pieces as a set), so that a place whose pieces share a
//! square holds no position. Which piece leads and in what order the others
//! follow changes how well a table compresses, and numbering on the whole
//! board keeps a piece's step from one square to the next the same step of
//! place whatever stands before it, which zstd finds again: on KRBvKR's
//! tables, 0.82 of the bytes of the solver's order under DTM, where ranks
//! among the squares left gave 0.86 (`docs/file-format.md`). Pawnless
//! tables store each side to move in one ([`super::Stored`]).

use super::board::Board;
use super::index::{choose, sort_small, transforms};
use super::piece::{Color, Piece, Role};
use super::square::Square;

/// The most pieces a file index places.
pub const MOST: usize = 7;

/// The 10 squares of the a1-d1-d4 triangle, in the order of their numbers.
const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// The triangle's squares as a set, a bit a square.
const TRIANGLE_SET: u64 = {
    let mut set = 0;
    let mut i = 0;
    while i < TRIANGLE.len() {
        set |= 1 << TRIANGLE[i];
        i += 1;
    }
    set
};

/// Why a list of pieces cannot spell a file index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileIndexError {
    #[error("a file index is for endings without pawns")]
    Pawns,
    #[error("the leading piece must be the only one of its kind")]
    LeaderNotUnique,
    #[error("like pieces must stand together in the order")]
    LikeApart,
    #[error("{0} pieces: a file index takes 2 to 7")]
    Count(usize),
    #[error("{0} like pieces: a file index takes at most 3")]
    Like(usize),
}

/// The order of one side to move's positions in a table: see the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIndex {
    /// Kinds of piece in the order they are placed, with how many of each:
    /// the leader first, alone.
    groups: Vec<(Piece, usize)>,
    /// Where each group's squares start in a list of the pieces' squares.
    starts: Vec<usize>,
    /// How many values each group's field takes: the leader's 10 squares
    /// of the triangle, then for each kind its sets among the squares left.
    radices: Vec<u64>,
    /// How many pieces it places.
    count: usize,
}

impl FileIndex {
    /// The index that places `pieces` in this order, the first leading.
    pub fn new(pieces: &[Piece]) -> Result<FileIndex, FileIndexError> {
        if !(2..=MOST).contains(&pieces.len()) {
            return Err(FileIndexError::Count(pieces.len()));
        }
        if pieces.iter().any(|p| p.role == Role::Pawn) {
            return Err(FileIndexError::Pawns);
        }
        let mut groups: Vec<(Piece, usize)> = Vec::new();
        for &piece in pieces {
            if groups.last().is_some_and(|&(last, _)| last == piece) {
                groups.last_mut().expect("a group").1 += 1;
            } else if groups.iter().any(|&(p, _)| p == piece) {
                return Err(FileIndexError::LikeApart);
            } else {
                groups.push((piece, 1));
            }
        }
        if let Some(&(_, many)) = groups.iter().find(|&&(_, count)| count > 3) {
            return Err(FileIndexError::Like(many));
        }
        if groups[0].1 != 1 {
            return Err(FileIndexError::LeaderNotUnique);
        }
        let mut radices = vec![TRIANGLE.len() as u64];
        for &(_, count) in &groups[1..] {
            radices.push(choose(64, count));
        }
        let starts = groups
            .iter()
            .scan(0, |start, &(_, count)| {
                let at = *start;
                *start += count;
                Some(at)
            })
            .collect();
        Ok(FileIndex {
            groups,
            starts,
            radices,
            count: pieces.len(),
        })
    }

    /// How many places a side to move takes, empty ones (no legal position,
    /// or a position stored under another symmetry) included.
    pub fn size(&self) -> u64 {
        self.radices.iter().product()
    }

    /// The pieces in the order they are placed.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.groups
            .iter()
            .flat_map(|&(piece, count)| std::iter::repeat_n(piece, count))
    }

    /// The place of `board`'s position (its side to move aside), or None
    /// where its pieces are not this index's.
    pub fn index_of(&self, board: &Board) -> Option<u64> {
        Some(self.index_of_squares(&self.squares_of(board)?))
    }

    /// The place of the position whose pieces, in the order of
    /// [`FileIndex::pieces`], stand on `squares` (on squares of their own):
    /// the least over the one or two symmetries that bring the leader into
    /// the triangle.
    #[inline]
    pub fn index_of_squares(&self, squares: &[u8; MOST]) -> u64 {
        let leader = squares[0];
        (0..8)
            .filter(|&t| TRIANGLE_SET >> transforms()[t][usize::from(leader)].number() & 1 != 0)
            .map(|t| {
                let map = &transforms()[t];
                let mut moved = [0u8; MOST];
                for (to, &from) in moved.iter_mut().zip(&squares[..self.count]) {
                    *to = map[usize::from(from)].number();
                }
                self.place_of(&moved)
            })
            .min()
            .expect("a symmetry brings any square into the triangle")
    }

    /// The position at `place` with `turn` to move, or None where the place
    /// is empty: two pieces on a square, or its squares stored under another
    /// symmetry. The position may still be illegal (kings side by side, the
    /// side not to move in check); the caller asks the rules.
    pub fn board_at(&self, place: u64, turn: Color) -> Option<Board> {
        let squares = self.squares_at(place)?;
        let mut board = Board::empty(turn);
        for (piece, &square) in self.pieces().zip(&squares) {
            board.set(Square::new(square), Some(piece));
        }
        Some(board)
    }

    /// Calls `visit` with the squares at each place of `start..end` in turn,
    /// as [`FileIndex::squares_at`] gives them: a walk that counts the
    /// places up as an odometer and places again only the groups whose
    /// digit changed, without a division a place.
    pub fn walk(&self, start: u64, end: u64, mut visit: impl FnMut(Option<&[u8; MOST]>)) {
        let end = end.min(self.size());
        if start >= end {
            return;
        }
        let groups = self.groups.len();
        let mut digits = [0u64; MOST];
        let mut rest = start;
        for (digit, &radix) in digits[..groups].iter_mut().zip(&self.radices).rev() {
            *digit = rest % radix;
            rest /= radix;
        }
        let mut squares = [0u8; MOST];
        // Each group's squares as a set: the place is empty where they meet.
        let mut sets = [0u64; MOST];
        let place_group =
            |g: usize, digit: u64, squares: &mut [u8; MOST], sets: &mut [u64; MOST]| {
                let (first, count) = (self.starts[g], self.groups[g].1);
                let group = &mut squares[first..first + count];
                match (g, count) {
                    (0, _) => group[0] = TRIANGLE[digit as usize],
                    (_, 1) => group[0] = digit as u8,
                    _ => unrank(digit, group),
                }
                sets[g] = group.iter().fold(0, |set, &s| set | 1 << s);
            };
        for (g, &digit) in digits[..groups].iter().enumerate() {
            place_group(g, digit, &mut squares, &mut sets);
        }
        for _ in start..end {
            let taken = sets[..groups].iter().fold(0, |all, &set| all | set);
            let apart = taken.count_ones() as usize == self.count;
            let held = apart && (!DIAGONAL.contains(&squares[0]) || self.least(&squares, &digits));
            visit(held.then_some(&squares));
            for g in (0..groups).rev() {
                digits[g] += 1;
                let carry = digits[g] == self.radices[g];
                if carry {
                    digits[g] = 0;
                }
                place_group(g, digits[g], &mut squares, &mut sets);
                if !carry {
                    break;
                }
            }
        }
    }

    /// Whether the place whose squares (a leader on the long diagonal) are
    /// `squares` and whose groups' digits are `digits` is the lesser of its
    /// position's two places: the leader stays where it is when the board
    /// is reflected in the diagonal, so the first group whose rank the
    /// reflection changes decides.
    #[inline]
    fn least(&self, squares: &[u8; MOST], digits: &[u64; MOST]) -> bool {
        for (g, &(_, count)) in self.groups.iter().enumerate().skip(1) {
            let mut group = [0u8; 3];
            let start = self.starts[g];
            for (to, &from) in group.iter_mut().zip(&squares[start..start + count]) {
                *to = (from % 8) * 8 + from / 8;
            }
            let rank = set_rank(&mut group[..count]);
            if rank != digits[g] {
                return rank > digits[g];
            }
        }
        true
    }

    /// The squares of the pieces at `place`, in the order of
    /// [`FileIndex::pieces`] (like pieces in increasing order), or None
    /// where the place is empty (see [`FileIndex::board_at`]).
    #[inline]
    pub fn squares_at(&self, place: u64) -> Option<[u8; MOST]> {
        let mut squares = None;
        self.walk(place, place.saturating_add(1), |held| {
            squares = held.copied()
        });
        squares
    }

    /// The squares of `board`'s pieces, group after group in this index's
    /// order; None if the pieces differ.
    fn squares_of(&self, board: &Board) -> Option<[u8; MOST]> {
        let mut squares = [0u8; MOST];
        let mut filled = [0usize; MOST];
        let mut seen = 0;
        for (square, piece) in board.pieces() {
            let group = self.groups.iter().position(|&(p, _)| p == piece)?;
            if filled[group] == self.groups[group].1 {
                return None;
            }
            squares[self.starts[group] + filled[group]] = square.number();
            filled[group] += 1;
            seen += 1;
        }
        (seen == self.count).then_some(squares)
    }

    /// The place of squares (as [`FileIndex::squares_of`] lists them) whose
    /// leader is in the triangle.
    fn place_of(&self, squares: &[u8; MOST]) -> u64 {
        let leader = squares[0];
        let mut place = TRIANGLE
            .iter()
            .position(|&s| s == leader)
            .expect("in the triangle") as u64;
        for (g, &(_, count)) in self.groups.iter().enumerate().skip(1) {
            let mut group = [0u8; 3];
            group[..count].copy_from_slice(&squares[self.starts[g]..self.starts[g] + count]);
            place = place * self.radices[g] + set_rank(&mut group[..count]);
        }
        place
    }
}

/// The rank of a set of at most three squares among the sets of its size
/// (the combinatorial number system; a lone square ranks as itself),
/// sorting them in place.
#[inline]
pub(super) fn set_rank(set: &mut [u8]) -> u64 {
    sort_small(set);
    (set.iter().enumerate())
        .map(|(i, &square)| choose(u64::from(square), i + 1))
        .sum()
}

/// The squares of the long diagonal in the triangle.
const DIAGONAL: [u8; 4] = [0, 9, 18, 27];

/// The set of rank `rank` among sets of `set.len()` squares (the
/// combinatorial number system), in increasing order, into `set`.
fn unrank(mut rank: u64, set: &mut [u8]) {
    for i in (0..set.len()).rev() {
        let mut r = i as u64;
        while choose(r + 1, i + 1) <= rank {
            r += 1;
        }
        rank -= choose(r, i + 1);
        set[i] = r as u8;
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn piece(c: char) -> Piece {
        Piece::from_fen_char(c).expect("a FEN letter")
    }

    fn index(pieces: &str) -> FileIndex {
        FileIndex::new(&pieces.chars().map(piece).collect::<Vec<_>>()).expect("an index")
    }

    /// Every place holds its own position or is empty, its images all lead
    /// back to it, and (for `walk`) every placement of the pieces reaches a
    /// held place: as many of them as there are held places.
    fn check_every_place(file: &FileIndex, walk_all: bool) {
        let mut held = 0u64;
        for place in 0..file.size() {
            if let Some(board) = file.board_at(place, Color::White) {
                held += 1;
                assert_eq!(file.index_of(&board), Some(place));
                for t in 0..8 {
                    let mut image = Board::empty(Color::White);
                    for (square, p) in board.pieces() {
                        image.set(transforms()[t][square.index()], Some(p));
                    }
                    assert_eq!(file.index_of(&image), Some(place), "symmetry {t}");
                }
            }
        }
        if !walk_all {
            return;
        }
        let mut least = std::collections::HashSet::new();
        let pieces: Vec<Piece> = file.pieces().collect();
        let mut squares = vec![0u8; pieces.len()];
        fn walk(
            i: usize,
            squares: &mut Vec<u8>,
            pieces: &[Piece],
            file: &FileIndex,
            least: &mut std::collections::HashSet<u64>,
        ) {
            if i == squares.len() {
                let mut board = Board::empty(Color::White);
                for (k, &s) in squares.iter().enumerate() {
                    board.set(Square::new(s), Some(pieces[k]));
                }
                least.insert(file.index_of(&board).expect("its pieces"));
                return;
            }
            for s in 0..64 {
                if !squares[..i].contains(&s) {
                    squares[i] = s;
                    walk(i + 1, squares, pieces, file, least);
                }
            }
        }
        walk(0, &mut squares, &pieces, file, &mut least);
        assert_eq!(least.len() as u64, held);
    }

    #[test]
    fn every_place_of_small_endings_holds_one_position() {
        for pieces in ["Kk", "KRk", "RKk", "kKR", "RNN"] {
            check_every_place(&index(pieces), true);
        }
        check_every_place(&index("kNNN"), false);
    }

    /// A walk from any place goes on as the walk from the first does, and
    /// each place it holds leads back to itself from its squares.
    #[test]
    fn a_walk_from_anywhere_gives_each_place_its_own_squares() {
        for pieces in ["KRk", "kKR", "RNN", "KNNk"] {
            let file = index(pieces);
            let size = file.size();
            let mut whole = Vec::new();
            file.walk(0, size, |squares| whole.push(squares.copied()));
            assert_eq!(whole.len() as u64, size);
            for (place, squares) in whole.iter().enumerate() {
                if let Some(squares) = squares {
                    assert_eq!(file.index_of_squares(squares), place as u64, "{pieces}");
                }
            }
            for start in [1, 63, 641, size / 3, size - 1] {
                let mut part = Vec::new();
                file.walk(start, size, |squares| part.push(squares.copied()));
                assert_eq!(part, whole[start as usize..], "{pieces} from {start}");
                assert_eq!(file.squares_at(start), whole[start as usize]);
            }
        }
    }

    #[test]
    fn sizes_count_the_triangle_and_the_squares_of_the_board() {
        assert_eq!(index("KRkb").size(), 10 * 64 * 64 * 64);
        assert_eq!(index("kRRK").size(), 10 * (64 * 63 / 2) * 64);
        assert_eq!(index("Kk").size(), 10 * 64);
    }

    #[test]
    fn lists_that_cannot_lead_are_refused() {
        let list = |s: &str| s.chars().map(piece).collect::<Vec<_>>();
        assert_eq!(
            FileIndex::new(&list("RRKk")),
            Err(FileIndexError::LeaderNotUnique)
        );
        assert_eq!(
            FileIndex::new(&list("KRkR")),
            Err(FileIndexError::LikeApart)
        );
        assert_eq!(FileIndex::new(&list("KPk")), Err(FileIndexError::Pawns));
        assert_eq!(FileIndex::new(&list("K")), Err(FileIndexError::Count(1)));
    }

    #[test]
    fn a_position_and_its_images_share_a_place() {
        let file = index("kRbK");
        let fen_board = |squares: [(u8, char); 4]| {
            let mut board = Board::empty(Color::Black);
            for (s, c) in squares {
                board.set(Square::new(s), Some(piece(c)));
            }
            board
        };
        let board = fen_board([(60, 'k'), (0, 'R'), (34, 'b'), (4, 'K')]);
        let place = file.index_of(&board).expect("its pieces");
        let back = file.board_at(place, Color::Black).expect("held");
        assert_eq!(file.index_of(&back), Some(place));
        // Another ending's pieces have no place here.
        assert_eq!(index("KRk").index_of(&board), None);
    }
}
