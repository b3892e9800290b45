//! Our pawnless move generator against shakmaty's, on random positions: the same
//! legal moves (UCI), the same SAN with check and mate marks, the same checks.

use games::chess::Board;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A FEN with both kings and 1-3 other pieces on random squares.
fn random_fen(rng: &mut Random) -> String {
    let mut squares = [None; 64];
    let mut place = |rng: &mut Random, c: char| loop {
        let sq = rng.below(64) as usize;
        if squares[sq].is_none() {
            squares[sq] = Some(c);
            break;
        }
    };
    place(rng, 'K');
    place(rng, 'k');
    for _ in 0..1 + rng.below(3) {
        let c = b"QRBNqrbn"[rng.below(8) as usize] as char;
        place(rng, c);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    format!("{fen} {side} - - 0 1")
}

#[test]
fn legal_moves_san_and_checks_match_shakmaty() {
    let mut rng = Random(0x2545_F491_4F6C_DD1D);
    let mut compared = 0;
    for _ in 0..20_000 {
        let fen = random_fen(&mut rng);
        let Ok(ours) = Board::from_fen(&fen) else {
            continue;
        };
        // Checks no legal move could give (two sliders on one line) are still
        // positions a table holds; shakmaty refuses them unless told.
        let theirs: Chess = match fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
        {
            Ok(position) => position,
            Err(e) => e
                .ignore_impossible_check()
                .unwrap_or_else(|e| panic!("{fen}: we accept it, shakmaty says {e}")),
        };
        let mut our_moves: Vec<(String, String)> = ours
            .legal_moves()
            .iter()
            .map(|m| (Board::uci(m), ours.san(m)))
            .collect();
        let mut their_moves: Vec<(String, String)> = theirs
            .legal_moves()
            .iter()
            .map(|m| {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                (uci, SanPlus::from_move(theirs.clone(), m).to_string())
            })
            .collect();
        our_moves.sort();
        their_moves.sort();
        assert_eq!(our_moves, their_moves, "{fen}");
        assert_eq!(ours.in_check(), theirs.is_check(), "{fen}");
        compared += 1;
    }
    assert!(compared > 10_000, "only {compared} legal positions");
}
