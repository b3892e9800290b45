//! Squares: a1 to h8, numbered 0 to 63 rank by rank, with their names in
//! algebraic notation, and sets of squares as 64-bit masks.

use std::fmt;
use std::str::FromStr;

/// A square of the board: 0 is a1, 7 is h1, 63 is h8.
///
/// ```
/// use games::chess::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!((e4.file(), e4.rank(), e4.index()), (4, 3, 28));
/// assert_eq!(e4.to_string(), "e4");
/// assert!("i9".parse::<Square>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

/// A square name that is not one of a1 to h8.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square: a1 to h8")]
pub struct SquareError(pub String);

impl Square {
    /// The square numbered `index` (0 to 63).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = the first), both 0 to 7.
    #[inline]
    pub const fn at(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    /// The lowest square of a non-empty mask.
    #[inline]
    pub fn first(mask: u64) -> Square {
        Square(mask.trailing_zeros() as u8)
    }

    /// The highest square of a non-empty mask.
    #[inline]
    pub fn last(mask: u64) -> Square {
        Square(63 - mask.leading_zeros() as u8)
    }

    /// The squares of a mask, a1 first.
    #[inline]
    pub fn all_of(mut mask: u64) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let sq = Square::first(mask);
                mask &= mask - 1;
                sq
            })
        })
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square's number, 0 to 63, for indexing tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's number as a byte.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The square as a one-bit mask.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The rank, 0 (the first) to 7 (the eighth).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square on the same file, rank mirrored (a1 <-> a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square on the same rank, file mirrored (a1 <-> h1).
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// The square `(df, dr)` files and ranks away, if it is on the board.
    #[inline]
    pub fn offset(self, (df, dr): (i8, i8)) -> Option<Square> {
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
        ((0..8).contains(&file) && (0..8).contains(&rank))
            .then(|| Square::at(file as u8, rank as u8))
    }

    /// The square's name (`e4`), added to `out` without formatting machinery:
    /// answers write several per move.
    #[inline]
    pub fn push_name(self, out: &mut String) {
        out.push(char::from(b'a' + self.file()));
        out.push(char::from(b'1' + self.rank()));
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(char::from(b'a' + self.file()))?;
        f.write_char(char::from(b'1' + self.rank()))
    }
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(text: &str) -> Result<Square, SquareError> {
        match text.as_bytes() {
            &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Ok(Square::at(file - b'a', rank - b'1')),
            _ => Err(SquareError(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_masks_list_their_squares() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::at(sq.file(), sq.rank()), sq);
            assert_eq!(sq.flip_rank().flip_rank(), sq);
        }
        for bad in ["", "a", "a9", "i1", "a10", "A1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        let mask = Square::at(0, 0).bit() | Square::at(7, 7).bit() | Square::at(4, 3).bit();
        let names: Vec<String> = Square::all_of(mask).map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "e4", "h8"]);
        assert_eq!(Square::last(mask), Square::at(7, 7));
        assert_eq!(Square::at(0, 0).offset((-1, 0)), None);
        assert_eq!(Square::at(0, 0).offset((1, 2)), Some(Square::at(1, 2)));
    }
}
