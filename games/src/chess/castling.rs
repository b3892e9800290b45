//! Castling rights and castling moves of standard chess, for the positions the
//! tables do not hold: a FEN with rights is answered as lichess answers it,
//! each move listed and valued where it leaves no right. The board itself
//! never castles ([`super::board`]); the solver has no use for it.

use super::board::{Board, Move};
use super::fen::FenError;
use super::piece::{Color, Piece, Role};
use super::square::Square;

/// A castling move: `color`'s king two squares towards the rook, the rook over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Castle {
    pub color: Color,
    /// Queen side (`O-O-O`), else king side.
    pub long: bool,
}

impl Castle {
    const ALL: [Castle; 4] = [
        Castle::new(Color::White, false),
        Castle::new(Color::White, true),
        Castle::new(Color::Black, false),
        Castle::new(Color::Black, true),
    ];

    const fn new(color: Color, long: bool) -> Castle {
        Castle { color, long }
    }

    /// The right's bit in [`Rights`], in FEN's order `KQkq`.
    fn bit(self) -> u8 {
        1 << (2 * self.color as u8 + self.long as u8)
    }

    fn square(self, file: u8) -> Square {
        Square::at(file, if self.color == Color::White { 0 } else { 7 })
    }

    pub fn king_from(self) -> Square {
        self.square(4)
    }

    pub fn king_to(self) -> Square {
        self.square(if self.long { 2 } else { 6 })
    }

    pub fn rook_from(self) -> Square {
        self.square(if self.long { 0 } else { 7 })
    }

    pub fn rook_to(self) -> Square {
        self.square(if self.long { 3 } else { 5 })
    }

    /// In UCI, as the king's two-square step: `e1g1`.
    pub fn uci(self) -> String {
        format!("{}{}", self.king_from(), self.king_to())
    }

    /// In SAN, with `+` for check and `#` for mate: `O-O`, `O-O-O+`.
    pub fn san(self, board: &Board) -> String {
        let after = self.play(board);
        let mut out = String::from(if self.long { "O-O-O" } else { "O-O" });
        if after.in_check() {
            out.push(if after.has_legal_move() { '+' } else { '#' });
        }
        out
    }

    /// The position after castling (assumed legal), the turn passed.
    pub fn play(self, board: &Board) -> Board {
        let mut after = board.clone();
        let piece = |role| {
            Some(Piece {
                color: self.color,
                role,
            })
        };
        after.set(self.king_from(), None);
        after.set(self.rook_from(), None);
        after.set(self.king_to(), piece(Role::King));
        after.set(self.rook_to(), piece(Role::Rook));
        after.turn = self.color.other();
        after.set_ep_square(None);
        after
    }

    /// Whether the side to move of `board` may castle so, given the right:
    /// king and rook at home, the squares between them empty, and the king
    /// not in check nor passing or landing on an attacked square.
    fn legal_on(self, board: &Board) -> bool {
        let between = match self.long {
            true => [1, 2, 3].as_slice(),
            false => [5, 6].as_slice(),
        };
        let passed = match self.long {
            true => [4, 3, 2],
            false => [4, 5, 6],
        };
        let enemy = self.color.other();
        self.color == board.turn
            && self.at_home(board)
            && between
                .iter()
                .all(|&f| board.piece_at(self.square(f)).is_none())
            && passed
                .iter()
                .all(|&f| !board.attacked(self.square(f), enemy))
    }

    /// Whether the king and the rook stand where the right needs them.
    fn at_home(self, board: &Board) -> bool {
        let own = |role| {
            Some(Piece {
                color: self.color,
                role,
            })
        };
        board.piece_at(self.king_from()) == own(Role::King)
            && board.piece_at(self.rook_from()) == own(Role::Rook)
    }
}

/// The castling rights of a position, as FEN's third field names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rights(u8);

impl Rights {
    /// Reads FEN's castling field (`-`, or some of `KQkq` in that order);
    /// Chess960's file letters are not read.
    pub fn read(field: &str) -> Result<Rights, FenError> {
        if field == "-" {
            return Ok(Rights(0));
        }
        if field.is_empty() {
            return Err(FenError::CastlingField(field.to_string()));
        }
        let mut bits = 0u8;
        let mut last = None;
        for c in field.chars() {
            let castle = match c {
                'K' => Castle::ALL[0],
                'Q' => Castle::ALL[1],
                'k' => Castle::ALL[2],
                'q' => Castle::ALL[3],
                _ => return Err(FenError::CastlingField(field.to_string())),
            };
            if last.is_some_and(|l| l >= castle.bit()) {
                return Err(FenError::CastlingField(field.to_string()));
            }
            last = Some(castle.bit());
            bits |= castle.bit();
        }
        Ok(Rights(bits))
    }

    /// The rights of a FEN: its third field, none where it has no such field.
    pub fn of_fen(fen: &str) -> Result<Rights, FenError> {
        fen.split_whitespace()
            .nth(2)
            .map_or(Ok(Rights(0)), Rights::read)
    }

    /// Whether no side may castle.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights whose king and rook stand at home on `board`: lichess drops
    /// the others, as shakmaty's `ignore_invalid_castling_rights` does.
    pub fn valid_on(self, board: &Board) -> Rights {
        self.keep(|c| c.at_home(board))
    }

    fn keep(self, keep: impl Fn(Castle) -> bool) -> Rights {
        let kept = Castle::ALL
            .into_iter()
            .filter(|&c| self.0 & c.bit() != 0 && keep(c));
        Rights(kept.fold(0, |bits, c| bits | c.bit()))
    }

    /// The legal castling moves of the side to move.
    pub fn castles(self, board: &Board) -> Vec<Castle> {
        let castles = Castle::ALL.into_iter();
        castles
            .filter(|&c| self.0 & c.bit() != 0 && c.legal_on(board))
            .collect()
    }

    /// The rights left after `mv`: a king's move loses both of its side's, a
    /// move from or onto a rook's home square the right of that rook.
    pub fn after_move(self, mv: &Move) -> Rights {
        self.keep(|c| {
            let touched = [c.rook_from(), c.king_from()];
            !touched.contains(&mv.from) && !touched.contains(&mv.to)
        })
    }

    /// The rights left after castling: none for the side that castled.
    pub fn after_castle(self, castle: Castle) -> Rights {
        self.keep(|c| c.color != castle.color)
    }

    /// The rights as FEN's third field writes them: `KQkq`, `-` for none.
    pub fn fen(self) -> String {
        let names = Castle::ALL.into_iter().zip(['K', 'Q', 'k', 'q']);
        let named: String = names
            .filter(|(c, _)| self.0 & c.bit() != 0)
            .map(|(_, name)| name)
            .collect();
        if named.is_empty() { "-".into() } else { named }
    }

    /// Whether the side to move has a legal move, castling included.
    pub fn can_move(self, board: &Board) -> bool {
        board.has_legal_move() || !self.castles(board).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_read_as_fen_writes_them() {
        assert_eq!(Rights::read("-").unwrap(), Rights(0));
        assert_eq!(Rights::read("KQkq").unwrap(), Rights(15));
        assert_eq!(Rights::read("Qk").unwrap(), Rights(0b0110));
        for bad in ["", "KK", "qK", "A", "Kx"] {
            assert!(Rights::read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn castles_need_empty_and_safe_squares() {
        let board = |fen| Board::from_fen(fen).unwrap();
        let all = Rights::read("KQkq").unwrap();
        let free = board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert_eq!(all.castles(&free).len(), 2);
        // A bishop on a6 sees f1: no short castling; b1 may be attacked.
        let f1 = board("r3k2r/8/b7/8/8/8/8/R3K2R w - - 0 1");
        let names: Vec<_> = all.castles(&f1).iter().map(|c| c.san(&f1)).collect();
        assert_eq!(names, ["O-O-O"]);
        let b1 = board("r3k2r/8/8/8/8/8/8/Rn2K2R w - - 0 1");
        assert_eq!(all.castles(&b1).len(), 1);
        let castled = Castle::new(Color::White, false).play(&free);
        assert_eq!(
            castled.fen(),
            board("r3k2r/8/8/8/8/8/8/R4RK1 b - - 0 1").fen()
        );
        let rook_moved = free
            .legal_moves()
            .into_iter()
            .find(|m| Board::uci(m) == "h1h8")
            .unwrap();
        assert_eq!(all.after_move(&rook_moved), Rights(0b1010));
    }
}
