//! Attack bitboards: the squares each piece reaches from each square, leapers
//! outright and sliders ray by ray, stopped by the first occupied square.

use super::piece::{Color, Role};
use super::square::Square;
use std::sync::OnceLock;

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

/// File and rank steps of the eight directions: 0-3 raise the square number.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];
const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

/// Attack sets of every square.
#[derive(Debug)]
pub struct Attacks {
    king: [u64; 64],
    /// The two squares a pawn of each colour attacks, diagonally forward.
    pawn: [[u64; 64]; 2],
    knight: [u64; 64],
    /// `rays[d][sq]`: the squares from `sq` to the edge in direction `d`.
    rays: [[u64; 64]; 8],
    /// The rook's and the bishop's lines from each square on an empty board.
    orthogonal: [u64; 64],
    diagonal: [u64; 64],
    /// The squares strictly between two squares on a line (0 off a line).
    between: Box<[[u64; 64]; 64]>,
}

/// The attack sets, built once.
pub fn attacks() -> &'static Attacks {
    static ATTACKS: OnceLock<Attacks> = OnceLock::new();
    ATTACKS.get_or_init(|| {
        let leaper = |sq: Square, steps: &[(i8, i8)]| {
            steps
                .iter()
                .filter_map(|&d| sq.offset(d))
                .fold(0u64, |bits, to| bits | to.bit())
        };
        let rays: [[u64; 64]; 8] = std::array::from_fn(|d| {
            std::array::from_fn(|sq| {
                let mut bits = 0u64;
                let mut at = Square::new(sq as u8);
                while let Some(next) = at.offset(DIRECTIONS[d]) {
                    bits |= next.bit();
                    at = next;
                }
                bits
            })
        });
        let lines = |directions: [usize; 4]| -> [u64; 64] {
            std::array::from_fn(|sq| directions.iter().fold(0, |bits, &d| bits | rays[d][sq]))
        };
        let mut between = Box::new([[0u64; 64]; 64]);
        for ray in &rays {
            for from in 0..64 {
                for to in Square::all_of(ray[from]) {
                    // The ray from `from` less the ray from `to` and `to` itself.
                    between[from][to.index()] = ray[from] & !ray[to.index()] & !to.bit();
                }
            }
        }
        Attacks {
            king: std::array::from_fn(|sq| leaper(Square::new(sq as u8), &KING_STEPS)),
            pawn: [Color::White, Color::Black].map(|color| {
                let steps = [(-1, color.forward()), (1, color.forward())];
                std::array::from_fn(|sq| leaper(Square::new(sq as u8), &steps))
            }),
            knight: std::array::from_fn(|sq| leaper(Square::new(sq as u8), &KNIGHT_STEPS)),
            orthogonal: lines(ORTHOGONAL),
            diagonal: lines(DIAGONAL),
            between,
            rays,
        }
    })
}

impl Attacks {
    /// The squares a slider on `sq` reaches along `directions`, up to and
    /// including the first occupied square of each.
    ///
    /// Without a branch: a ray that meets nothing stops at the corner it runs
    /// to (h8 for the directions that raise the square number, a1 for the
    /// others), whose own ray that way is empty. Which side of a blocker a
    /// ray is, is a guess a processor gets wrong half the time.
    #[inline(always)]
    fn slide(&self, sq: Square, occupied: u64, directions: &[usize]) -> u64 {
        directions.iter().fold(0u64, |bits, &d| {
            let ray = self.rays[d][sq.index()];
            let blockers = ray & occupied;
            let stop = match d < 4 {
                true => Square::first(blockers | 1 << 63),
                false => Square::last(blockers | 1),
            };
            bits | (ray ^ self.rays[d][stop.index()])
        })
    }

    /// The squares a king on `sq` attacks.
    #[inline(always)]
    pub fn king(&self, sq: Square) -> u64 {
        self.king[sq.index()]
    }

    /// The squares a pawn of `color` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, color: Color, sq: Square) -> u64 {
        self.pawn[color as usize][sq.index()]
    }

    /// The squares strictly between two squares on one line; 0 where they are
    /// not on one line.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> u64 {
        self.between[a.index()][b.index()]
    }

    /// The squares a slider of `role` would reach from `sq` on an empty board
    /// (none for a king or a knight).
    #[inline(always)]
    pub fn lines(&self, role: Role, sq: Square) -> u64 {
        match role {
            Role::Rook => self.orthogonal[sq.index()],
            Role::Bishop => self.diagonal[sq.index()],
            Role::Queen => self.orthogonal[sq.index()] | self.diagonal[sq.index()],
            Role::King | Role::Knight | Role::Pawn => 0,
        }
    }

    /// Whether a piece of `role` on `from` attacks `sq`: on its line, with
    /// nothing of `occupied` between. A pawn's attacks depend on its colour:
    /// [`Attacks::pawn`]; here it attacks nothing.
    #[inline(always)]
    pub fn hits(&self, role: Role, from: Square, sq: Square, occupied: u64) -> bool {
        match role {
            Role::King => self.king[from.index()] & sq.bit() != 0,
            Role::Knight => self.knight[from.index()] & sq.bit() != 0,
            Role::Pawn => false,
            _ => {
                self.lines(role, from) & sq.bit() != 0
                    && self.between[from.index()][sq.index()] & occupied == 0
            }
        }
    }

    /// The squares a piece of `role` on `sq` attacks, sliders stopped by
    /// `occupied` (none for a pawn, whose attacks depend on its colour:
    /// [`Attacks::pawn`]).
    #[inline(always)]
    pub fn targets(&self, role: Role, sq: Square, occupied: u64) -> u64 {
        match role {
            Role::Pawn => 0,
            Role::King => self.king[sq.index()],
            Role::Knight => self.knight[sq.index()],
            Role::Rook => self.slide(sq, occupied, &ORTHOGONAL),
            Role::Bishop => self.slide(sq, occupied, &DIAGONAL),
            Role::Queen => {
                self.slide(sq, occupied, &ORTHOGONAL) | self.slide(sq, occupied, &DIAGONAL)
            }
        }
    }

    /// The squares a piece of `color` and `role` on `sq` attacks, pawns included.
    #[inline(always)]
    pub fn of(&self, color: Color, role: Role, sq: Square, occupied: u64) -> u64 {
        match role {
            Role::Pawn => self.pawn(color, sq),
            _ => self.targets(role, sq, occupied),
        }
    }

    /// Whether a piece of `color` and `role` on `from` attacks `sq`, pawns included.
    #[inline(always)]
    pub fn hits_by(
        &self,
        color: Color,
        role: Role,
        from: Square,
        sq: Square,
        occupied: u64,
    ) -> bool {
        match role {
            Role::Pawn => self.pawn(color, from) & sq.bit() != 0,
            _ => self.hits(role, from, sq, occupied),
        }
    }
}
