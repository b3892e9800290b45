//! An index for storing one side to move of a pawnless ending, apart from the
//! solver's: one piece of the ending (the leader) is brought by the board's
//! symmetries into the a1-d1-d4 triangle, and the other pieces follow in a
//! chosen order, each kind ranked among the squares the pieces before it
//! leave free (two or three like pieces as a set). Which piece leads and in
//! what order the others follow changes how well a table compresses: on
//! KRvKB's WDL50 values, the best of them took 0.64 of the bytes of the best
//! order of the solver's fields (zstd level 9; `docs/file-format.md`). No
//! table is stored in it yet.

use super::board::Board;
use super::index::{choose, transforms};
use super::piece::{Color, Piece, Role};
use super::square::Square;

/// The most pieces a file index places.
const MOST: usize = 7;

/// The 10 squares of the a1-d1-d4 triangle, in the order of their numbers.
const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

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
        let mut free = 63;
        let mut radices = vec![TRIANGLE.len() as u64];
        for &(_, count) in &groups[1..] {
            radices.push(choose(free, count));
            free -= count as u64;
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
        let squares = self.squares_of(board)?;
        let count = self.count;
        (0..8)
            .filter(|&t| TRIANGLE.contains(&transforms()[t][usize::from(squares[0])].number()))
            .map(|t| {
                let map = &transforms()[t];
                let mut moved = [0u8; MOST];
                for (to, &from) in moved.iter_mut().zip(&squares[..count]) {
                    *to = map[usize::from(from)].number();
                }
                self.place_of(&moved)
            })
            .min()
    }

    /// The position at `place` with `turn` to move, or None where the place
    /// is empty: its squares stored under another symmetry. The position
    /// may still be illegal (kings side by side, the side not to move in
    /// check); the caller asks the rules.
    pub fn board_at(&self, place: u64, turn: Color) -> Option<Board> {
        if place >= self.size() {
            return None;
        }
        let mut rest = place;
        let mut digits = [0u64; MOST];
        for (digit, &radix) in digits.iter_mut().zip(&self.radices).rev() {
            *digit = rest % radix;
            rest /= radix;
        }
        let leader = Square::new(TRIANGLE[digits[0] as usize]);
        let mut taken = 1u64 << leader.number();
        let mut board = Board::empty(turn);
        board.set(leader, Some(self.groups[0].0));
        for (&(piece, count), &digit) in self.groups[1..].iter().zip(&digits[1..]) {
            // A group's ranks count the squares free before it.
            let squares: Vec<Square> = unrank(digit, count)
                .into_iter()
                .map(|free_rank| nth_free(taken, free_rank))
                .collect();
            for square in squares {
                taken |= 1 << square.number();
                board.set(square, Some(piece));
            }
        }
        // Only the least place of a position's symmetries holds it.
        (self.index_of(&board) == Some(place)).then_some(board)
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
        let mut taken = 1u64 << leader;
        for (g, &(_, count)) in self.groups.iter().enumerate().skip(1) {
            let group = &squares[self.starts[g]..self.starts[g] + count];
            // Each square's rank among the squares free before the group.
            let mut free_ranks = [0u64; 3];
            for (rank, &s) in free_ranks.iter_mut().zip(group) {
                let below = taken & ((1u64 << s) - 1);
                *rank = u64::from(s) - u64::from(below.count_ones());
            }
            let free_ranks = &mut free_ranks[..count];
            free_ranks.sort_unstable();
            let rank: u64 = free_ranks
                .iter()
                .enumerate()
                .map(|(i, &r)| choose(r, i + 1))
                .sum();
            place = place * self.radices[g] + rank;
            for &s in group {
                taken |= 1 << s;
            }
        }
        place
    }
}

/// The `count` free ranks, ascending, of the set of rank `rank` among sets of
/// `count` (the combinatorial number system).
fn unrank(mut rank: u64, count: usize) -> Vec<u64> {
    let mut ranks = vec![0; count];
    for i in (0..count).rev() {
        let mut r = i as u64;
        while choose(r + 1, i + 1) <= rank {
            r += 1;
        }
        rank -= choose(r, i + 1);
        ranks[i] = r;
    }
    ranks
}

/// The `n`th square (from 0) not in `taken`.
fn nth_free(taken: u64, n: u64) -> Square {
    let mut left = n;
    for s in 0..64u8 {
        if taken & (1 << s) == 0 {
            if left == 0 {
                return Square::new(s);
            }
            left -= 1;
        }
    }
    unreachable!("fewer than 64 pieces")
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

    #[test]
    fn sizes_count_the_triangle_and_the_squares_left() {
        assert_eq!(index("KRkb").size(), 10 * 63 * 62 * 61);
        assert_eq!(index("kRRK").size(), 10 * (63 * 62 / 2) * 61);
        assert_eq!(index("Kk").size(), 10 * 63);
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
