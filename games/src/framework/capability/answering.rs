//! What answers beyond the tables: a closed formula for positions of any size,
//! exact values on demand, and the whole-game verdict of a score game.

use crate::game::{Game, GameError};
use crate::value::Value;

/// What a closed formula says about a position of any size (impartial games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula<M> {
    pub mover_wins: bool,
    /// The xor of the Grundy values of the position's parts; `None` where the
    /// formula is not one of Grundy values (Wythoff's pairs, Fibonacci Nim).
    pub nim_sum: Option<u64>,
    /// The Grundy value of each part, where parts have values of their own
    /// (heap games by Grundy values); `None` where the formula needs no such list.
    pub part_values: Option<Vec<u64>>,
    /// Every winning move (none when the mover loses).
    pub winning_moves: Vec<M>,
}

impl<M> Formula<M> {
    /// A formula that knows the winning moves and no Grundy values: the mover
    /// wins exactly when there is one (Wythoff's game, End-Nim).
    pub fn by_winning_moves(winning_moves: Vec<M>) -> Self {
        Formula {
            mover_wins: !winning_moves.is_empty(),
            nim_sum: None,
            part_values: None,
            winning_moves,
        }
    }
}

/// A closed formula: who wins a position of any size, and every winning move;
/// and a measure of the play left, so that the computer can play from the
/// formula alone: the winner takes the winning move that leaves the least, the
/// loser the move that leaves the most (it holds out as long as the measure can
/// tell).
pub trait ClosedForm<G: Game>: Sync {
    /// The formula's answer, or why the formula cannot answer this position.
    fn formula(&self, position: &G::Position) -> Result<Formula<G::Move>, GameError>;

    /// What the measure counts, in words: `stones left`.
    fn measure(&self) -> &'static str;

    /// The play left in `position` by the measure.
    fn left(&self, position: &G::Position) -> u64;

    /// The move that leaves the most by the measure, for games with too many
    /// moves to list (Nim heaps of any size); `None`: every move is compared.
    fn longest_move(&self, _position: &G::Position) -> Option<G::Move> {
        None
    }

    /// What one answer of the formula weighs at `position`, with the
    /// computer's choice from it: about how many moves, parts or cells it
    /// looks at, known before any is looked at. A line's budget and the
    /// server's choice of thread count in it. The default, 1: a formula whose
    /// work hardly grows with the position (Nim's xor over its heaps).
    fn weight(&self, _position: &G::Position) -> u64 {
        1
    }
}

/// Exact values computed on demand for any position (pick from the ends: dynamic
/// programming over the numbers left), for games that keep no tables.
pub trait Exact<G: Game>: Sync {
    fn value(&self, position: &G::Position) -> Value;
}

/// A score game played for a fixed total (Abapa's 48 seeds): who wins the whole
/// game, given what each side has already taken.
pub trait WholeGame<G: Game>: Sync {
    /// What a whole game is played for.
    fn total(&self) -> u64;
    /// What is still on the board, to be won.
    fn left(&self, position: &G::Position) -> u64;

    /// Whether the game ends as soon as a side has taken more than half
    /// (Abapa: 25 seeds), rather than when the board is played out.
    fn ends_at_majority(&self) -> bool {
        false
    }

    /// What each side, mover and opponent, takes of what is left when play goes
    /// round for ever; `None`: it is shared evenly, as the tables count it.
    fn endless_split(&self, _position: &G::Position) -> Option<[u64; 2]> {
        None
    }
}
