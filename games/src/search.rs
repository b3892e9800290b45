//! Live search that reads no table: the independent check every table is verified
//! against, and the engine for positions beyond the tables.

use crate::game::{Game, value_from_children};
use crate::value::Value;
use std::collections::HashMap;

/// Exact values of an acyclic game by negamax with a memo keyed by position (not by
/// table index, so an indexing bug cannot hide behind itself).
#[derive(Debug)]
pub struct Negamax<'g, G: Game> {
    game: &'g G,
    memo: HashMap<G::Position, Value>,
}

impl<'g, G: Game> Negamax<'g, G> {
    pub fn new(game: &'g G) -> Self {
        Negamax { game, memo: HashMap::new() }
    }

    /// The value of `position` for the player to move. The game must be acyclic:
    /// the recursion follows every line of play to its end.
    pub fn value(&mut self, position: &G::Position) -> Value {
        if let Some(&v) = self.memo.get(position) {
            return v;
        }
        let game = self.game;
        let v = value_from_children(game, position, |child| self.value(child));
        self.memo.insert(position.clone(), v);
        v
    }

    /// How many positions the memo holds.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::euler::Euler;

    #[test]
    fn euler_first_player_loses() {
        let mut search = Negamax::new(&Euler);
        let v = search.value(&0);
        assert!(matches!(v, Value::Loss(_)), "{v}");
    }

    #[test]
    fn one_free_cell_is_a_loss_in_one() {
        let mut search = Negamax::new(&Euler);
        assert_eq!(search.value(&(u16::MAX - 1)), Value::Loss(1));
        // Two free cells side by side on an edge: cover one, leave the last to the opponent.
        assert_eq!(search.value(&(u16::MAX - 0b11)), Value::Win(2));
    }
}
