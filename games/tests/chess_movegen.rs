//! Our move generator against shakmaty's, on random positions with and without
//! pawns, en passant squares among them: the same legal moves (UCI), the same SAN
//! with check and mate marks, the same checks, and the same FEN (en passant
//! square included) before and after every move.

use games::chess::Board;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, PositionErrorKinds};

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

/// A FEN with both kings and 1-3 other pieces on random squares (pawns on ranks
/// 2 to 7); in about a third of them, a pawn that has just stepped two squares,
/// with the en passant square named.
fn random_fen(rng: &mut Random) -> String {
    let mut squares = [None; 64];
    let white = rng.below(2) == 0;
    let mut ep = "-".to_string();
    if rng.below(3) == 0 {
        // The opponent's pawn beside which the mover may take: White to move
        // takes a black pawn on the fifth rank, Black a white one on the fourth.
        let file = rng.below(8) as usize;
        let (rank, passed, from, pawn) = match white {
            true => (4, 5, 6, 'p'),
            false => (3, 2, 1, 'P'),
        };
        squares[rank * 8 + file] = Some(pawn);
        // Mostly with a pawn of the mover beside it, to take.
        if rng.below(4) != 0 {
            let beside = match file {
                0 => 1,
                7 => 6,
                _ if rng.below(2) == 0 => file - 1,
                _ => file + 1,
            };
            squares[rank * 8 + beside] = Some(if white { 'P' } else { 'p' });
        }
        squares[passed * 8 + file] = Some('.');
        squares[from * 8 + file] = Some('.');
        ep = format!("{}{}", (b'a' + file as u8) as char, passed + 1);
    }
    let mut place = |rng: &mut Random, c: char| loop {
        let sq = rng.below(64) as usize;
        let pawn_on_edge = matches!(c, 'P' | 'p') && !(8..56).contains(&sq);
        if squares[sq].is_none() && !pawn_on_edge {
            squares[sq] = Some(c);
            break;
        }
    };
    place(rng, 'K');
    place(rng, 'k');
    for _ in 0..1 + rng.below(3) {
        let c = b"QRBNPPqrbnpp"[rng.below(12) as usize] as char;
        place(rng, c);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None | Some('.') => empty += 1,
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
    let side = if white { 'w' } else { 'b' };
    format!("{fen} {side} - {ep} 0 1")
}

/// shakmaty's position of a FEN we read. Checks no legal move could give (two
/// sliders on one line) are still positions a table holds, and lichess drops
/// castling rights whose king or rook has left and an en passant square no
/// pawn can take on: shakmaty refuses each unless told to pass it by (its
/// refusal carries the position, hence large).
#[allow(clippy::result_large_err)]
fn shakmaty_position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_invalid_castling_rights())
        .or_else(|e| e.ignore_impossible_check())
        .or_else(|e| e.ignore_invalid_ep_square())
        .unwrap_or_else(|e| panic!("{fen}: we accept it, shakmaty says {e}"))
}

/// The first four fields of a FEN: board, side, castling, en passant.
fn placement(fen: &str) -> String {
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn legal_moves_san_and_checks_match_shakmaty() {
    let mut rng = Random(0x2545_F491_4F6C_DD1D);
    let (mut compared, mut with_pawns, mut en_passant) = (0, 0, 0);
    for _ in 0..20_000 {
        let fen = random_fen(&mut rng);
        let Ok(ours) = Board::from_fen(&fen) else {
            continue;
        };
        let theirs = shakmaty_position(&fen);
        let their_fen = |position: &Chess| {
            Fen::from_position(position.clone(), EnPassantMode::Legal).to_string()
        };
        assert_eq!(
            placement(&ours.fen()),
            placement(&their_fen(&theirs)),
            "{fen}"
        );
        assert_eq!(
            ours.insufficient_material(),
            theirs.is_insufficient_material(),
            "{fen}: insufficient material"
        );
        // The moves that change the material, found apart from the others.
        let changing = |m: &&games::chess::Move| m.capture.is_some() || m.promotion.is_some();
        let all = ours.legal_moves();
        assert_eq!(
            ours.legal_exits(),
            all.iter().filter(changing).cloned().collect::<Vec<_>>(),
            "{fen}: captures and promotions"
        );
        let their_exits = theirs
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture() || m.is_promotion())
            .count();
        assert_eq!(ours.legal_exits().len(), their_exits, "{fen}: exits");
        for (mv, theirs_after) in ours.legal_moves().iter().map(|m| {
            let uci = Board::uci(m);
            let theirs_move = theirs
                .legal_moves()
                .into_iter()
                .find(|t| t.to_uci(CastlingMode::Standard).to_string() == uci)
                .unwrap_or_else(|| panic!("{fen}: shakmaty has no {uci}"));
            (m, theirs.clone().play(&theirs_move).unwrap())
        }) {
            let after = placement(&ours.play(mv).fen());
            assert_eq!(
                after,
                placement(&their_fen(&theirs_after)),
                "{fen} {}",
                Board::uci(mv)
            );
        }
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
        with_pawns += usize::from(fen.split(' ').next().unwrap().contains(['P', 'p']));
        en_passant += usize::from(ours.ep_square().is_some());
    }
    assert!(compared > 10_000, "only {compared} legal positions");
    assert!(with_pawns > 3_000, "only {with_pawns} positions with pawns");
    assert!(
        en_passant > 300,
        "only {en_passant} positions with en passant"
    );
}

/// Insufficient material as shakmaty (and so lichess) has it, on the cases
/// where it turns: a lone minor piece, bishops on one colour or on both, a
/// knight against a piece.
#[test]
fn insufficient_material_matches_shakmaty() {
    let fens = [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/NN2K3 w - - 0 1",
        "8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1",
        "8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1",
        "8/8/3n4/4k3/8/8/8/1N2K3 w - - 0 1",
        "8/8/3q4/4k3/8/8/8/1N2K3 w - - 0 1",
        "8/8/3b4/4k3/8/8/8/1N2K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1B1BK3 w - - 0 1",
        "8/8/8/4k3/8/8/8/1BB1K3 w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    ];
    let mut insufficient = 0;
    for fen in fens {
        let ours = Board::from_fen(fen).unwrap();
        let theirs: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(
            ours.insufficient_material(),
            theirs.is_insufficient_material(),
            "{fen}"
        );
        insufficient += usize::from(ours.insufficient_material());
    }
    assert_eq!(insufficient, 5);
}

/// An en passant square no double step can have left (wrong rank for the side
/// to move, no pawn in front of it, it or the square behind occupied) is
/// refused with a reason, as shakmaty refuses it; a possible one is read.
#[test]
fn impossible_en_passant_squares_are_refused_as_shakmaty_refuses_them() {
    let mut rng = Random(0x9E37_79B9_7F4A_7C15);
    let (mut refused, mut read) = (0, 0);
    for _ in 0..2_000 {
        let fen = random_fen(&mut rng);
        let fields: Vec<&str> = fen.split(' ').collect();
        for file in b'a'..=b'h' {
            for rank in ['3', '4', '6'] {
                let ep = format!("{}{rank}", file as char);
                let fen = format!("{} {} - {ep} 0 1", fields[0], fields[1]);
                let ours = Board::sketch(&fen);
                let theirs = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position::<Chess>(CastlingMode::Standard)
                    .err()
                    .is_some_and(|e| e.kinds().contains(PositionErrorKinds::INVALID_EP_SQUARE));
                let ours_refused = matches!(
                    ours,
                    Err(games::chess::FenError::ImpossibleEnPassant { .. })
                );
                assert_eq!(ours_refused, theirs, "{fen}: {ours:?}");
                match ours_refused {
                    true => refused += 1,
                    false => read += 1,
                }
            }
        }
    }
    assert!(
        refused > 40_000 && read > 500,
        "{refused} refused, {read} read"
    );
}

/// A FEN with kings and rooks mostly at home, 0-3 other pieces anywhere, and
/// every castling right named (the ones whose king or rook has left dropped by
/// the reader).
fn castling_fen(rng: &mut Random) -> String {
    let mut squares = [None; 64];
    let homes = [
        (4, 'K'),
        (60, 'k'),
        (0, 'R'),
        (7, 'R'),
        (56, 'r'),
        (63, 'r'),
    ];
    for (sq, c) in homes {
        if rng.below(4) != 0 {
            squares[sq] = Some(c);
        }
    }
    let missing: Vec<char> = ['K', 'k']
        .into_iter()
        .filter(|king| !squares.contains(&Some(*king)))
        .collect();
    let mut place = |rng: &mut Random, c: char| loop {
        let sq = rng.below(64) as usize;
        let pawn_on_edge = matches!(c, 'P' | 'p') && !(8..56).contains(&sq);
        if squares[sq].is_none() && !pawn_on_edge {
            squares[sq] = Some(c);
            break;
        }
    };
    for king in missing {
        place(rng, king);
    }
    for _ in 0..rng.below(4) {
        let c = b"QRBNPPqrbnpp"[rng.below(12) as usize] as char;
        place(rng, c);
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let row: String = (0..8)
                .map(|file| squares[rank * 8 + file].unwrap_or('1'))
                .collect();
            (1..=8)
                .rev()
                .fold(row, |row, n| row.replace(&"1".repeat(n), &n.to_string()))
        })
        .collect();
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    format!("{} {side} KQkq - 0 1", ranks.join("/"))
}

/// Castling as lichess reads it: rights whose king or rook has left dropped,
/// the legal castling moves (UCI and SAN) beside the others, and the rights
/// left after every move, all as shakmaty has them.
#[test]
fn castling_matches_shakmaty() {
    use games::chess::Rights;
    let mut rng = Random(0x1234_5678_9ABC_DEF1);
    let (mut compared, mut castles) = (0, 0);
    for _ in 0..20_000 {
        let fen = castling_fen(&mut rng);
        let Ok(ours) = Board::from_fen(&games::chess::without_field(&fen, 2)) else {
            continue;
        };
        let theirs = shakmaty_position(&fen);
        let rights = Rights::of_fen(&fen).unwrap().valid_on(&ours);
        let their_rights = |position: &Chess| {
            let fen = Fen::from_position(position.clone(), EnPassantMode::Legal).to_string();
            fen.split(' ').nth(2).unwrap().to_string()
        };
        assert_eq!(rights.fen(), their_rights(&theirs), "{fen}");
        let mut our_moves: Vec<(String, String, String)> = ours
            .legal_moves()
            .iter()
            .map(|m| (Board::uci(m), ours.san(m), rights.after_move(m).fen()))
            .chain(rights.castles(&ours).into_iter().map(|c| {
                castles += 1;
                (c.uci(), c.san(&ours), rights.after_castle(c).fen())
            }))
            .collect();
        let mut their_moves: Vec<(String, String, String)> = theirs
            .legal_moves()
            .iter()
            .map(|m| {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                let after = theirs.clone().play(m).unwrap();
                let san = SanPlus::from_move(theirs.clone(), m).to_string();
                (uci, san, their_rights(&after))
            })
            .collect();
        our_moves.sort();
        their_moves.sort();
        assert_eq!(our_moves, their_moves, "{fen}");
        assert_eq!(rights.can_move(&ours), !their_moves.is_empty(), "{fen}");
        compared += 1;
    }
    assert!(compared > 10_000, "only {compared} legal positions");
    assert!(castles > 5_000, "only {castles} castling moves");
}
