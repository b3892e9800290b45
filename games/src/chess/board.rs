//! The board: pieces on squares, the side to move and an en passant square,
//! legal moves from the attack bitboards of [`mod@super::attacks`] (pawn pushes,
//! captures, promotions and en passant included), and quiet un-moves of pieces.
//! No castling (see [`super::castling`] for the positions the tables do not
//! hold). `tests/chess_movegen.rs` compares the moves with shakmaty's on
//! random positions.

use super::attacks::attacks;
use super::piece::{Color, Piece, Role};
use super::square::Square;
use std::fmt;

/// A move: the piece on `from` goes to `to`, capturing what stands there (or,
/// en passant, the pawn that just passed `to`), and a pawn reaching the last
/// rank becomes `promotion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub role: Role,
    pub capture: Option<Role>,
    pub promotion: Option<Role>,
    pub en_passant: bool,
}

impl Move {
    /// Whether the move resets the 50-move count: a capture or a pawn move.
    pub fn is_zeroing(&self) -> bool {
        self.capture.is_some() || self.role == Role::Pawn
    }
}

/// What a pawn may become on the last rank, in the order moves list them.
const PROMOTIONS: [Option<Role>; 4] = [
    Some(Role::Queen),
    Some(Role::Rook),
    Some(Role::Bishop),
    Some(Role::Knight),
];

/// A position: the board and the side to move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// One byte per square: 0 when empty, else [`Piece::code`].
    squares: [u8; 64],
    /// The occupied squares as bits, kept with `squares`: walking the pieces
    /// visits only these.
    occupied: u64,
    pub turn: Color,
    /// The square a pawn just passed with a double step, kept only where the
    /// side to move can capture on it legally.
    ep: Option<Square>,
}

impl Board {
    /// An empty board with `turn` to move.
    pub fn empty(turn: Color) -> Board {
        Board {
            squares: [0; 64],
            occupied: 0,
            turn,
            ep: None,
        }
    }

    /// The en passant square: where the side to move may capture a pawn that
    /// just stepped past it.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Sets the en passant square as a FEN names it, kept only where a legal
    /// capture uses it (a FEN naming another is the position without one).
    pub fn set_ep_square(&mut self, ep: Option<Square>) {
        self.ep = ep;
        if ep.is_some() && !self.legal_moves().iter().any(|m| m.en_passant) {
            self.ep = None;
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.squares[sq.index()])
    }

    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq.index()] = piece.map_or(0, Piece::code);
        match piece {
            Some(_) => self.occupied |= sq.bit(),
            None => self.occupied &= !sq.bit(),
        }
    }

    /// The occupied squares as a mask.
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all_of(self.occupied).map(|sq| (sq, self.piece_at(sq).expect("occupied")))
    }

    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(sq, _)| sq)
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        let attacks = attacks();
        self.pieces().any(|(from, p)| {
            p.color == by
                && match p.role {
                    Role::Pawn => attacks.pawn(by, from) & sq.bit() != 0,
                    role => attacks.hits(role, from, sq, self.occupied),
                }
        })
    }

    /// Whether neither side has the material to mate, whatever the other plays:
    /// no pawn, rook or queen, and either a lone knight against a bare king (or
    /// one with only a minor piece), or bishops all on squares of one colour and
    /// no knight. The same test as shakmaty's, which lichess answers with.
    pub fn insufficient_material(&self) -> bool {
        [Color::White, Color::Black]
            .into_iter()
            .all(|color| self.cannot_mate(color))
    }

    /// Whether `color` alone has too little to mate (see [`Board::insufficient_material`]).
    fn cannot_mate(&self, color: Color) -> bool {
        let mine = |role: Role| {
            self.pieces()
                .filter(|(_, p)| p.color == color && p.role == role)
                .count()
        };
        if mine(Role::Pawn) + mine(Role::Rook) + mine(Role::Queen) > 0 {
            return false;
        }
        let knights = mine(Role::Knight);
        if knights > 0 {
            let others_theirs = self
                .pieces()
                .filter(|(_, p)| p.color != color && !matches!(p.role, Role::King | Role::Queen))
                .count();
            return knights == 1 && mine(Role::Bishop) == 0 && others_theirs == 0;
        }
        if mine(Role::Bishop) == 0 {
            return true;
        }
        let bishops = self.pieces().filter(|(_, p)| p.role == Role::Bishop);
        let shades = bishops.fold(0u8, |seen, (sq, _)| {
            seen | 1 << ((sq.file() + sq.rank()) % 2)
        });
        let any_pawn_or_knight = self
            .pieces()
            .any(|(_, p)| matches!(p.role, Role::Pawn | Role::Knight));
        shades != 0b11 && !any_pawn_or_knight
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king(self.turn)
            .is_some_and(|k| self.attacked(k, self.turn.other()))
    }

    /// Makes a move (assumed legal) and passes the turn.
    pub fn play(&self, mv: &Move) -> Board {
        let mut after = self.placed(mv);
        after.turn = self.turn.other();
        if mv.role == Role::Pawn && mv.from.rank().abs_diff(mv.to.rank()) == 2 {
            let passed = Square::at(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2);
            after.set_ep_square(Some(passed));
        }
        after
    }

    /// The pieces after `mv`, the same side to move, no en passant square.
    fn placed(&self, mv: &Move) -> Board {
        let mut after = self.clone();
        after.ep = None;
        let moved = Piece {
            color: self.turn,
            role: mv.promotion.unwrap_or(mv.role),
        };
        after.set(mv.from, None);
        after.set(mv.to, Some(moved));
        if mv.en_passant {
            after.set(Square::at(mv.to.file(), mv.from.rank()), None);
        }
        after
    }

    /// Every legal move, by origin square then destination square.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        self.each_legal_move(false, |mv| {
            moves.push(mv);
            true
        });
        moves
    }

    /// Every legal capture and promotion, in the order of [`Board::legal_moves`]:
    /// the moves that change the material.
    pub fn legal_exits(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.each_legal_move(true, |mv| {
            moves.push(mv);
            true
        });
        moves
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut found = false;
        self.each_legal_move(false, |_| {
            found = true;
            false
        });
        found
    }

    /// The squares a piece of the side to move on `from` may go to, legal or
    /// not for its king, own pieces' squares included (the caller skips them):
    /// a pawn's pushes and captures (the en passant square included), another
    /// piece's targets.
    fn reach(&self, from: Square, role: Role) -> u64 {
        let attacks = attacks();
        if role != Role::Pawn {
            return attacks.targets(role, from, self.occupied);
        }
        let forward = self.turn.forward();
        let takes = self.occupied | self.ep.map_or(0, Square::bit);
        let mut reach = attacks.pawn(self.turn, from) & takes;
        if let Some(one) = from
            .offset((0, forward))
            .filter(|s| self.piece_at(*s).is_none())
        {
            reach |= one.bit();
            let start = if self.turn == Color::White { 1 } else { 6 };
            if let Some(two) = one.offset((0, forward)).filter(|_| from.rank() == start) {
                reach |= two.bit() & !self.occupied;
            }
        }
        reach
    }

    /// Calls `visit` with each legal move in order until it returns false: by
    /// origin square, then destination square, then promotion (Q, R, B, N);
    /// only captures and promotions where `exits_only`.
    fn each_legal_move(&self, exits_only: bool, mut visit: impl FnMut(Move) -> bool) {
        const LAST_RANKS: u64 = 0xff00_0000_0000_00ff;
        let exits = self.occupied | self.ep.map_or(0, Square::bit);
        for (from, piece) in self.pieces().filter(|(_, p)| p.color == self.turn) {
            let mut reach = self.reach(from, piece.role);
            if exits_only {
                reach &= match piece.role {
                    Role::Pawn => exits | LAST_RANKS,
                    _ => self.occupied,
                };
            }
            for to in Square::all_of(reach) {
                let target = self.piece_at(to);
                if target.is_some_and(|t| t.color == self.turn || t.role == Role::King) {
                    continue;
                }
                let pawn = piece.role == Role::Pawn;
                let en_passant = pawn && Some(to) == self.ep && target.is_none();
                let last_rank = pawn && (to.rank() == 0 || to.rank() == 7);
                let promotions: &[Option<Role>] = match last_rank {
                    true => &PROMOTIONS,
                    false => &[None],
                };
                for &promotion in promotions {
                    let mv = Move {
                        from,
                        to,
                        role: piece.role,
                        capture: target.map(|t| t.role).or(en_passant.then_some(Role::Pawn)),
                        promotion,
                        en_passant,
                    };
                    let after = self.placed(&mv);
                    let own_king = after.king(self.turn).expect("the mover has a king");
                    if !after.attacked(own_king, self.turn.other()) && !visit(mv) {
                        return;
                    }
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
        let attacks = attacks();
        let mover = self.turn.other();
        let mut parents = Vec::with_capacity(32);
        for (to, piece) in self
            .pieces()
            .filter(|(_, p)| p.color == mover && p.role != Role::Pawn && roles(p.role))
        {
            let froms = attacks.targets(piece.role, to, self.occupied) & !self.occupied;
            for from in Square::all_of(froms) {
                let mut parent = self.clone();
                parent.set(from, Some(piece));
                parent.set(to, None);
                parent.turn = mover;
                parent.ep = None;
                let waiting = parent.king(self.turn).expect("each side has a king");
                if !parent.attacked(waiting, mover) {
                    parents.push(parent);
                }
            }
        }
        parents
    }

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
                out.push(' ');
                out.push(
                    self.piece_at(Square::at(file, rank))
                        .map_or('.', Piece::fen_char),
                );
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
