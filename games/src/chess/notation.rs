//! Moves in the notations players and programs use: SAN (`Qb7#`, `Rxa8+`,
//! `Nbd7`) and UCI (`e2e4`).

use super::board::{Board, Move};
use super::piece::Role;

impl Board {
    /// The move in UCI: `e2e4`.
    pub fn uci(mv: &Move) -> String {
        format!("{}{}", mv.from, mv.to)
    }

    /// The move in SAN, with `+` for check and `#` for mate: `Qb7#`, `Rxa8+`,
    /// `Nbd7` where two knights could go to d7.
    pub fn san(&self, mv: &Move) -> String {
        let mut out = String::from(mv.role.letter());
        if mv.role != Role::King {
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
        out.push_str(&mv.to.to_string());
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
}
