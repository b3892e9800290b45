//! FEN: reading a board (a text that is not a FEN is a [`FenError`]; a FEN of a
//! board no game can reach is an [`IllegalPosition`]) and writing one.

use super::attacks::attacks;
use super::board::Board;
use super::piece::{Color, Piece, Role};
use super::square::Square;

/// A text that is not a FEN this project reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("a FEN has 2 to 6 fields: board, side to move, castling, en passant, counters")]
    Fields,
    #[error("side to move is '{0}'; use 'w' or 'b'")]
    Turn(String),
    #[error("the board has {0} ranks, not 8")]
    Ranks(usize),
    #[error("rank {0} has more than 8 squares")]
    LongRank(u8),
    #[error("rank {rank} has {squares} squares, not 8")]
    ShortRank { rank: u8, squares: u8 },
    #[error("'{letter}' on rank {rank} is not a piece or a count")]
    Letter { letter: char, rank: u8 },
    #[error("castling rights '{0}' are not covered; use '-'")]
    Castling(String),
    #[error("castling rights '{0}' are not FEN's: some of KQkq, in that order, or '-'")]
    CastlingField(String),
    #[error("en passant square '{0}' is not a square: a1 to h8, or '-'")]
    EnPassant(String),
    #[error("en passant square {square} is impossible: {why}")]
    ImpossibleEnPassant { square: String, why: &'static str },
    #[error("move counter '{0}' is not a number")]
    Counter(String),
}

/// A FEN read well whose board no game of chess can reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalPosition {
    #[error("{} has {kings} kings; each side needs exactly one", .color.name())]
    Kings { color: Color, kings: usize },
    #[error("the kings stand next to each other")]
    KingsTouch,
    #[error("{} is not to move but is in check", .0.name())]
    WaitingInCheck(Color),
    #[error("a pawn stands on {0}: pawns never stand on the first or last rank")]
    PawnOnEdge(Square),
}

/// Why a FEN is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Illegal(#[from] IllegalPosition),
}

/// `fen` with its field `index` (0: the pieces, 2: the castling rights, 3: the
/// en passant square) written `-`, where it has one; its fields apart by one
/// space.
pub fn without_field(fen: &str, index: usize) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if let Some(field) = fields.get_mut(index) {
        *field = "-";
    }
    fields.join(" ")
}

impl Board {
    /// Reads the pieces, the side to move and the en passant square of a FEN,
    /// whatever they are: a board being edited may lack a king. Castling rights
    /// are refused; an en passant square is kept only where a legal capture uses
    /// it.
    pub fn sketch(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(FenError::Fields);
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        let mut board = Board::empty(turn);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::Ranks(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    file += n as u8;
                    if file > 8 {
                        return Err(FenError::LongRank(rank + 1));
                    }
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file >= 8 {
                        return Err(FenError::LongRank(rank + 1));
                    }
                    board.set(Square::at(file, rank), Some(piece));
                    file += 1;
                } else {
                    return Err(FenError::Letter {
                        letter: c,
                        rank: rank + 1,
                    });
                }
            }
            if file != 8 {
                return Err(FenError::ShortRank {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        if let Some(&castling) = fields.get(2).filter(|&&c| c != "-") {
            return Err(FenError::Castling(castling.to_string()));
        }
        let ep = match fields.get(3).filter(|&&e| e != "-") {
            Some(ep) => Some(
                ep.parse::<Square>()
                    .map_err(|_| FenError::EnPassant(ep.to_string()))?,
            ),
            None => None,
        };
        if let Some(counter) = fields.iter().skip(4).find(|c| c.parse::<u32>().is_err()) {
            return Err(FenError::Counter(counter.to_string()));
        }
        if let Some(square) = ep {
            if let Some(why) = board.ep_impossible(square) {
                let square = square.to_string();
                return Err(FenError::ImpossibleEnPassant { square, why });
            }
        }
        if ep.is_some() && board.king(board.turn).is_some() {
            board.set_ep_square(ep);
        }
        Ok(board)
    }

    /// Reads a FEN as the position editor takes it: as [`Board::sketch`] does,
    /// with any castling rights dropped, so that a board pasted with them is
    /// drawn, and edited into one the tables hold, rather than refused whole.
    pub fn sketch_without_castling(fen: &str) -> Result<Board, FenError> {
        Board::sketch(&without_field(fen, 2))
    }

    /// Why no double step can have left `square` to capture en passant on,
    /// where none can: it is on the wrong rank for the side to move, no pawn
    /// of the other side stands in front of it, or it or the square the pawn
    /// came from is occupied. A possible square that no pawn can capture on
    /// is dropped, not refused, as FEN writers that name every double step's
    /// square give it.
    pub fn ep_impossible(&self, square: Square) -> Option<&'static str> {
        let (rank, ahead, behind) = match self.turn {
            Color::White => (5, 4, 6),
            Color::Black => (2, 3, 1),
        };
        let mover = self.turn.other();
        let at = |rank| self.piece_at(Square::at(square.file(), rank));
        if square.rank() != rank {
            return Some(match self.turn {
                Color::White => "with White to move it must be on the sixth rank",
                Color::Black => "with Black to move it must be on the third rank",
            });
        }
        if at(ahead)
            != Some(Piece {
                color: mover,
                role: Role::Pawn,
            })
        {
            return Some("no pawn that could have made the double step stands in front of it");
        }
        if at(rank).is_some() || at(behind).is_some() {
            return Some("it or the square the pawn came from is occupied");
        }
        None
    }

    /// Reads a FEN as [`Board::sketch`] does, then refuses what no legal position
    /// has: a side without exactly one king, kings side by side, the side not to
    /// move in check.
    pub fn from_fen(fen: &str) -> Result<Board, PositionError> {
        let board = Board::sketch(fen)?;
        board.check_legal()?;
        Ok(board)
    }

    /// Whether a board is a position of a game: one king a side, apart, and the
    /// side not to move not in check.
    pub fn check_legal(&self) -> Result<(), IllegalPosition> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .pieces()
                .filter(|(_, p)| p.color == color && p.role == Role::King)
                .count();
            if kings != 1 {
                return Err(IllegalPosition::Kings { color, kings });
            }
        }
        let king = |color| self.king(color).expect("one king a side");
        let (white, black) = (king(Color::White), king(Color::Black));
        if attacks().king(white) & black.bit() != 0 {
            return Err(IllegalPosition::KingsTouch);
        }
        let waiting = self.turn.other();
        if self.attacked(king(waiting), self.turn) {
            return Err(IllegalPosition::WaitingInCheck(waiting));
        }
        let edge = self
            .pieces()
            .find(|(sq, p)| p.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7));
        if let Some((sq, _)) = edge {
            return Err(IllegalPosition::PawnOnEdge(sq));
        }
        Ok(())
    }

    /// The FEN, with an empty castling field, the en passant square where a
    /// legal capture uses it, and counters `0 1`.
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                match self.piece_at(Square::at(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.turn == Color::White {
            " w - "
        } else {
            " b - "
        });
        match self.ep_square() {
            Some(square) => square.push_name(&mut out),
            None => out.push('-'),
        }
        out.push_str(" 0 1");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trips_and_bad_fens_say_why() {
        let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        assert_eq!(board.fen(), fen);
        assert_eq!(Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w").unwrap(), board);
        for (bad, why) in [
            ("8/8/8/8/8/2k5/8/KQ6 x - - 0 1", "side to move"),
            ("8/8/8/8/8/2k5/8/KQ5 w - - 0 1", "rank 1 has 7 squares"),
            ("8/8/8/8/8/2k5/8/KQ5P w - - 0 1", "a pawn stands on h1"),
            ("8/8/8/8/8/8/1k6/KQ6 w - - 0 1", "next to each other"),
            (
                "8/8/8/8/8/1Qk5/8/K7 w - - 0 1",
                "Black is not to move but is in check",
            ),
            ("8/8/8/8/8/2k5/8/Q7 w - - 0 1", "White has 0 kings"),
            ("8/8/8/8/8/2k5/8/K2R3R w K - 0 1", "castling"),
            ("8/8/8/8/8/2k5/8/KQ6 w - e9 0 1", "en passant"),
            ("8/8/8/8/3Pp3/8/8/K1k5 w - d3 0 1", "sixth rank"),
            ("8/8/8/8/3Pp3/8/8/K1k5 b - c3 0 1", "no pawn"),
            (
                "8/8/8/8/3Pp3/8/3N4/K1k5 b - d3 0 1",
                "square the pawn came from",
            ),
            (
                "8/8/8/8/3Pp3/3n4/8/K1k5 b - d3 0 1",
                "square the pawn came from",
            ),
            ("8/8/8/8/8/2k5/8/KQ6 w - - x 1", "counter"),
            ("8/8/8/8/8/2k5/8/KZ6 w - - 0 1", "'Z'"),
        ] {
            let err = Board::from_fen(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn syntax_and_legality_are_told_apart() {
        assert!(matches!(
            Board::from_fen("8/8/8/8/8/2k5/8/KQ5 w"),
            Err(PositionError::Fen(FenError::ShortRank {
                rank: 1,
                squares: 7
            }))
        ));
        assert!(matches!(
            Board::from_fen("8/8/8/8/8/8/1k6/KQ6 w"),
            Err(PositionError::Illegal(IllegalPosition::KingsTouch))
        ));
        // A board being edited may be illegal, never unreadable.
        assert!(Board::sketch("8/8/8/8/8/8/1k6/KQ6 w").is_ok());
    }
}
