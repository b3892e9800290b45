//! Pawnless chess: kings, queens, rooks, bishops and knights; no castling, no en
//! passant. Boards, legal moves, FEN reading with the checks a tablebase needs, and
//! moves in UCI and SAN. The ground for the endgame tables of the chess issue;
//! `tests` compare the move generator with shakmaty's on random positions.

use crate::game::GameError;
use std::fmt;

/// A square, 0 = a1, 7 = h1, 63 = h8.
pub type Square = u8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Role {
    /// The letter in FEN and SAN (upper case).
    pub fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
        }
    }

    /// Every role, in the order of their numbers.
    pub const ALL: [Role; 5] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ];

    fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// A byte from 1 to 10 naming the piece.
    fn code(self) -> u8 {
        1 + self.color as u8 * 5 + self.role as u8
    }

    fn from_code(code: u8) -> Option<Piece> {
        let i = code.checked_sub(1)?;
        Some(Piece {
            color: if i < 5 { Color::White } else { Color::Black },
            role: Role::ALL[usize::from(i % 5)],
        })
    }
}

/// A move: the piece on `from` goes to `to`, capturing what stands there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub role: Role,
    pub capture: Option<Role>,
}

/// A position: the board and the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// One byte per square: 0 when empty, else [`Piece::code`].
    squares: [u8; 64],
    /// The occupied squares as bits, kept with `squares`: walking the pieces
    /// visits only these.
    occupied: u64,
    pub turn: Color,
}

pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// The file and rank steps of a knight and of a king.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The square `(df, dr)` away from `sq`, if it is on the board.
fn step(sq: Square, (df, dr): (i8, i8)) -> Option<Square> {
    let file = (sq % 8) as i8 + df;
    let rank = (sq / 8) as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then_some((rank * 8 + file) as Square)
}

/// For every two squares on a line, the squares strictly between them, as bits.
fn between() -> &'static [[u64; 64]; 64] {
    static BETWEEN: std::sync::OnceLock<Box<[[u64; 64]; 64]>> = std::sync::OnceLock::new();
    BETWEEN.get_or_init(|| {
        let mut table = Box::new([[0u64; 64]; 64]);
        for from in 0..64u8 {
            for direction in ORTHOGONAL.iter().chain(&DIAGONAL) {
                let mut bits = 0u64;
                let mut at = from;
                while let Some(next) = step(at, *direction) {
                    table[from as usize][next as usize] = bits;
                    bits |= 1 << next;
                    at = next;
                }
            }
        }
        table
    })
}

impl Board {
    /// An empty board with `turn` to move.
    pub fn empty(turn: Color) -> Board {
        Board {
            squares: [0; 64],
            occupied: 0,
            turn,
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.squares[sq as usize])
    }

    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq as usize] = piece.map_or(0, Piece::code);
        match piece {
            Some(_) => self.occupied |= 1 << sq,
            None => self.occupied &= !(1 << sq),
        }
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occupied;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let sq = bits.trailing_zeros() as Square;
            bits &= bits - 1;
            Some((sq, self.piece_at(sq).expect("occupied")))
        })
    }

    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(sq, _)| sq)
    }

    /// The squares a piece of `role` on `from` attacks, as bits.
    fn targets(&self, from: Square, role: Role) -> u64 {
        let leaper = |steps: &[(i8, i8)]| {
            steps
                .iter()
                .filter_map(|&d| step(from, d))
                .fold(0u64, |bits, sq| bits | 1 << sq)
        };
        let slider = |dirs: &[(i8, i8)]| {
            let mut bits = 0u64;
            for &d in dirs {
                let mut sq = from;
                while let Some(next) = step(sq, d) {
                    bits |= 1 << next;
                    if self.occupied & (1 << next) != 0 {
                        break;
                    }
                    sq = next;
                }
            }
            bits
        };
        match role {
            Role::King => leaper(&KING_STEPS),
            Role::Knight => leaper(&KNIGHT_STEPS),
            Role::Rook => slider(&ORTHOGONAL),
            Role::Bishop => slider(&DIAGONAL),
            Role::Queen => slider(&ORTHOGONAL) | slider(&DIAGONAL),
        }
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        self.pieces()
            .any(|(from, p)| p.color == by && self.attacks(from, p.role, sq))
    }

    /// Whether a piece of `role` on `from` attacks `sq` (line of sight checked).
    fn attacks(&self, from: Square, role: Role, sq: Square) -> bool {
        let (df, dr) = (
            (sq % 8) as i8 - (from % 8) as i8,
            (sq / 8) as i8 - (from / 8) as i8,
        );
        let line = match role {
            Role::King => return from != sq && df.abs() <= 1 && dr.abs() <= 1,
            Role::Knight => return df.abs() * dr.abs() == 2,
            Role::Rook => df == 0 || dr == 0,
            Role::Bishop => df.abs() == dr.abs(),
            Role::Queen => df == 0 || dr == 0 || df.abs() == dr.abs(),
        };
        line && from != sq && between()[from as usize][sq as usize] & self.occupied == 0
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king(self.turn)
            .is_some_and(|k| self.attacked(k, self.turn.other()))
    }

    /// Makes a move (assumed legal) and passes the turn.
    pub fn play(&self, mv: &Move) -> Board {
        let mut after = self.clone();
        after.set(mv.to, self.piece_at(mv.from));
        after.set(mv.from, None);
        after.turn = self.turn.other();
        after
    }

    /// Every legal move, by origin square then destination square.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        self.each_legal_move(|mv| {
            moves.push(mv);
            true
        });
        moves
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut found = false;
        self.each_legal_move(|_| {
            found = true;
            false
        });
        found
    }

    /// Calls `visit` with each legal move in order until it returns false.
    fn each_legal_move(&self, mut visit: impl FnMut(Move) -> bool) {
        for (from, piece) in self.pieces().filter(|(_, p)| p.color == self.turn) {
            let mut targets = self.targets(from, piece.role);
            while targets != 0 {
                let to = targets.trailing_zeros() as Square;
                targets &= targets - 1;
                let target = self.piece_at(to);
                if target.is_some_and(|t| t.color == self.turn || t.role == Role::King) {
                    continue;
                }
                let mv = Move {
                    from,
                    to,
                    role: piece.role,
                    capture: target.map(|t| t.role),
                };
                let after = self.play(&mv);
                let own_king = after.king(self.turn).expect("the mover has a king");
                if !after.attacked(own_king, after.turn) && !visit(mv) {
                    return;
                }
            }
        }
    }

    /// The positions one quiet move before this one: a piece of the side that just
    /// moved steps back to an empty square it could have come from, and the side
    /// then not to move (the one to move now) is not in check. Captures are not
    /// undone: they lead back to more material. Only pieces whose role passes
    /// `roles` are moved back.
    pub fn unmoves(&self, roles: impl Fn(Role) -> bool) -> Vec<Board> {
        let mover = self.turn.other();
        let mut parents = Vec::with_capacity(32);
        for (to, piece) in self
            .pieces()
            .filter(|(_, p)| p.color == mover && roles(p.role))
        {
            let mut froms = self.targets(to, piece.role) & !self.occupied;
            while froms != 0 {
                let from = froms.trailing_zeros() as Square;
                froms &= froms - 1;
                let mut parent = self.clone();
                parent.set(from, Some(piece));
                parent.set(to, None);
                parent.turn = mover;
                let waiting = parent.king(self.turn).expect("each side has a king");
                if !parent.attacked(waiting, mover) {
                    parents.push(parent);
                }
            }
        }
        parents
    }

    /// Reads the pieces and the side to move of a FEN, whatever they are: a board
    /// being edited may lack a king. Pawns, castling rights and an en passant
    /// square are refused.
    pub fn sketch(fen: &str) -> Result<Board, GameError> {
        let bad = |reason: String| GameError::position(fen, reason);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(bad(
                "a FEN has 2 to 6 fields: board, side to move, castling, en passant, counters"
                    .into(),
            ));
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(bad(format!("side to move is '{other}'; use 'w' or 'b'"))),
        };
        let mut board = Board::empty(turn);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(bad(format!("the board has {} ranks, not 8", ranks.len())));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    file += n as u8;
                    if file > 8 {
                        return Err(bad(format!("rank {} has more than 8 squares", rank + 1)));
                    }
                } else if c == 'p' || c == 'P' {
                    return Err(bad(
                        "pawns are not covered: only kings, queens, rooks, bishops and knights"
                            .into(),
                    ));
                } else if let Some(role) = Role::from_letter(c) {
                    if file >= 8 {
                        return Err(bad(format!("rank {} has more than 8 squares", rank + 1)));
                    }
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    board.set(rank * 8 + file, Some(Piece { color, role }));
                    file += 1;
                } else {
                    return Err(bad(format!(
                        "'{c}' on rank {} is not a piece or a count",
                        rank + 1
                    )));
                }
            }
            if file != 8 {
                return Err(bad(format!("rank {} has {file} squares, not 8", rank + 1)));
            }
        }
        if let Some(&castling) = fields.get(2).filter(|&&c| c != "-") {
            return Err(bad(format!(
                "castling rights '{castling}' are not covered; use '-'"
            )));
        }
        if let Some(&ep) = fields.get(3).filter(|&&e| e != "-") {
            return Err(bad(format!(
                "en passant square '{ep}' is impossible without pawns; use '-'"
            )));
        }
        if let Some(counter) = fields.iter().skip(4).find(|c| c.parse::<u32>().is_err()) {
            return Err(bad(format!("move counter '{counter}' is not a number")));
        }
        Ok(board)
    }

    /// Reads a FEN as [`Board::sketch`] does, then refuses what no legal position
    /// has: a side without exactly one king, kings side by side, the side not to
    /// move in check.
    pub fn from_fen(fen: &str) -> Result<Board, GameError> {
        let board = Board::sketch(fen)?;
        let bad = |reason: String| GameError::position(fen, reason);
        let turn = board.turn;
        for color in [Color::White, Color::Black] {
            let kings = board
                .pieces()
                .filter(|(_, p)| p.color == color && p.role == Role::King)
                .count();
            if kings != 1 {
                return Err(bad(format!(
                    "{color:?} has {kings} kings; each side needs exactly one"
                )));
            }
        }
        let (wk, bk) = (
            board.king(Color::White).unwrap(),
            board.king(Color::Black).unwrap(),
        );
        if KING_STEPS.iter().any(|&d| step(wk, d) == Some(bk)) {
            return Err(bad("the kings stand next to each other".into()));
        }
        if board.attacked(board.king(turn.other()).unwrap(), turn) {
            return Err(bad(format!(
                "{:?} is not to move but is in check",
                turn.other()
            )));
        }
        Ok(board)
    }

    /// The FEN, with empty castling and en passant fields and counters `0 1`.
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(rank * 8 + file) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = p.role.letter();
                        out.push(if p.color == Color::White {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        format!("{out} {side} - - 0 1")
    }

    /// The move in UCI: `e2e4`.
    pub fn uci(mv: &Move) -> String {
        format!("{}{}", square_name(mv.from), square_name(mv.to))
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
                let same_file = rivals.iter().any(|m| m.from % 8 == mv.from % 8);
                let same_rank = rivals.iter().any(|m| m.from / 8 == mv.from / 8);
                let name = square_name(mv.from);
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
        out.push_str(&square_name(mv.to));
        let after = self.play(mv);
        if after.in_check() {
            out.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        out
    }
}

impl Board {
    /// The board as text from `side`'s side: White's has rank 8 at the top and
    /// the a-file on the left, Black's the other way round. White's pieces are
    /// capitals.
    pub fn drawn_from(&self, side: Color) -> String {
        let white = side == Color::White;
        let ranks: Vec<u8> = if white {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        let files: Vec<u8> = if white {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let mut out = String::new();
        for &rank in &ranks {
            out.push_str(&format!("{} ", rank + 1));
            for &file in &files {
                let c = match self.piece_at(rank * 8 + file) {
                    None => '.',
                    Some(p) if p.color == Color::White => p.role.letter(),
                    Some(p) => p.role.letter().to_ascii_lowercase(),
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for &file in &files {
            out.push(' ');
            out.push((b'a' + file) as char);
        }
        out
    }
}

impl fmt::Display for Board {
    /// The board from White's side, rank 8 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.drawn_from(Color::White))
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
            ("8/8/8/8/8/2k5/P7/KQ6 w - - 0 1", "pawns"),
            ("8/8/8/8/8/8/1k6/KQ6 w - - 0 1", "next to each other"),
            (
                "8/8/8/8/8/1Qk5/8/K7 w - - 0 1",
                "Black is not to move but is in check",
            ),
            ("8/8/8/8/8/2k5/8/Q7 w - - 0 1", "White has 0 kings"),
            ("8/8/8/8/8/2k5/8/K2R3R w K - 0 1", "castling"),
            ("8/8/8/8/8/2k5/8/KQ6 w - e3 0 1", "en passant"),
            ("8/8/8/8/8/2k5/8/KQ6 w - - x 1", "counter"),
            ("8/8/8/8/8/2k5/8/KZ6 w - - 0 1", "'Z'"),
        ] {
            let err = Board::from_fen(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

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
