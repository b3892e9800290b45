//! Moves in the notations players and programs use: SAN (`Qb7#`, `Rxa8+`,
//! `Nbd7`) and UCI (`e2e4`).

use super::board::{Board, Move};
use super::piece::{Piece, Role};
use super::square::Square;

impl Board {
    /// The move in UCI: `e2e4`, `e7e8q`.
    pub fn uci(mv: &Move) -> String {
        let mut out = String::with_capacity(5);
        mv.from.push_name(&mut out);
        mv.to.push_name(&mut out);
        if let Some(role) = mv.promotion {
            out.push(role.letter().to_ascii_lowercase());
        }
        out
    }

    /// The move in SAN, with `+` for check and `#` for mate: `Qb7#`, `Rxa8+`,
    /// `Nbd7` where two knights could go to d7, `exd6`, `e8=Q+`.
    pub fn san(&self, mv: &Move) -> String {
        let mut out = String::with_capacity(8);
        match mv.role {
            Role::Pawn if mv.capture.is_some() => out.push(char::from(b'a' + mv.from.file())),
            Role::Pawn => {}
            role => out.push(role.letter()),
        }
        let twin =
            |(at, p): (Square, Piece)| p.color == self.turn && p.role == mv.role && at != mv.from;
        // Only a second piece of the same kind can make a move ambiguous: most
        // endings have none, and need no move generation here.
        if !matches!(mv.role, Role::King | Role::Pawn) && self.pieces().any(twin) {
            let rivals: Vec<Move> = self
                .legal_moves()
                .into_iter()
                .filter(|m| m.role == mv.role && m.to == mv.to && m.from != mv.from)
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|m| m.from.file() == mv.from.file());
                let same_rank = rivals.iter().any(|m| m.from.rank() == mv.from.rank());
                let name = mv.from.to_string();
                if !same_file {
                    out.push_str(&name[..1]);
                } else if !same_rank {
                    out.push_str(&name[1..]);
                } else {
                    out.push_str(&name);
                }
            }
        }
        if mv.capture.is_some() {
            out.push('x');
        }
        mv.to.push_name(&mut out);
        if let Some(role) = mv.promotion {
            out.push('=');
            out.push(role.letter());
        }
        let after = self.play(mv);
        if after.in_check() {
            out.push(if after.has_legal_move() { '+' } else { '#' });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_stalemate_and_san() {
        // With the king on b6 guarding a7 and b7, Qc8 mates the king on a8.
        let board = Board::from_fen("k7/8/1K6/8/8/8/2Q5/8 w - - 0 1").unwrap();
        let find = |uci: &str| {
            board
                .legal_moves()
                .into_iter()
                .find(|m| Board::uci(m) == uci)
                .unwrap()
        };
        assert_eq!(board.san(&find("c2c8")), "Qc8#");
        let mate = board.play(&find("c2c8"));
        assert!(mate.in_check() && mate.legal_moves().is_empty());
        let stalemate = Board::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(!stalemate.in_check() && stalemate.legal_moves().is_empty());

        let rooks = Board::from_fen("k7/n7/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        let san = |uci: &str| {
            let mv = rooks
                .legal_moves()
                .into_iter()
                .find(|m| Board::uci(m) == uci)
                .unwrap();
            rooks.san(&mv)
        };
        assert_eq!((san("a1d1"), san("h1d1")), ("Rad1".into(), "Rhd1".into()));
        assert_eq!(san("a1a7"), "Rxa7+");
        assert_eq!(san("e2e3"), "Ke3");
    }

    #[test]
    fn pawns_push_capture_promote_and_take_en_passant() {
        let board = Board::from_fen("1r5k/2P5/8/3Pp3/8/8/8/K7 w - e6 0 1").unwrap();
        let mut moves: Vec<(String, String)> = board
            .legal_moves()
            .iter()
            .map(|m| (Board::uci(m), board.san(m)))
            .collect();
        moves.retain(|(uci, _)| !uci.starts_with("a1"));
        moves.sort();
        let expected = [
            ("c7b8b", "cxb8=B"),
            ("c7b8n", "cxb8=N"),
            ("c7b8q", "cxb8=Q+"),
            ("c7b8r", "cxb8=R+"),
            ("c7c8b", "c8=B"),
            ("c7c8n", "c8=N"),
            ("c7c8q", "c8=Q+"),
            ("c7c8r", "c8=R+"),
            ("d5d6", "d6"),
            ("d5e6", "dxe6"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(u, s)| (u.to_string(), s.to_string()))
            .collect();
        assert_eq!(moves, expected);
        // En passant takes the pawn that passed, and the square is gone after.
        let ep = board
            .legal_moves()
            .into_iter()
            .find(|m| m.en_passant)
            .unwrap();
        assert_eq!(board.play(&ep).fen(), "1r5k/2P5/4P3/8/8/8/8/K7 b - - 0 1");
        // A double step keeps its square only where a capture may use it.
        let push = |fen: &str, uci: &str| {
            let board = Board::from_fen(fen).unwrap();
            let mv = board
                .legal_moves()
                .into_iter()
                .find(|m| Board::uci(m) == uci)
                .unwrap();
            board.play(&mv).fen()
        };
        assert_eq!(
            push("7k/8/8/3p4/8/8/4P3/K7 w - - 0 1", "e2e4"),
            "7k/8/8/3p4/4P3/8/8/K7 b - - 0 1"
        );
        assert_eq!(
            push("7k/8/8/8/3p4/8/4P3/K7 w - - 0 1", "e2e4"),
            "7k/8/8/8/3pP3/8/8/K7 b - e3 0 1"
        );
        // Pinned along the rank, the capturing pawn may not take en passant.
        let pinned = Board::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert_eq!(pinned.ep_square(), None);
        assert!(pinned.fen().contains(" w - - "));
    }
}
