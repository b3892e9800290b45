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
        Negamax {
            game,
            memo: HashMap::new(),
        }
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

/// What bounded search has learnt about a position.
#[derive(Debug, Clone, Copy)]
enum Known {
    /// Won or lost in this many plies.
    Decided(Value),
    /// Neither won nor lost within this many plies.
    OpenTo(u16),
}

/// Win/loss proofs by depth-bounded negamax, for games with cycles: a position is a
/// win in `n` when some move leads to a loss in `n - 1`, and a loss in `n` when every
/// move leads to a win in at most `n - 1`. What is decided within the bound is exact;
/// the rest is "no result within the bound". Memo keyed by position.
#[derive(Debug)]
pub struct BoundedSearch<'g, G: Game> {
    game: &'g G,
    memo: HashMap<G::Position, Known>,
}

impl<'g, G: Game> BoundedSearch<'g, G> {
    pub fn new(game: &'g G) -> Self {
        BoundedSearch {
            game,
            memo: HashMap::new(),
        }
    }

    /// The exact win or loss if the game ends within `depth` plies under perfect
    /// play, otherwise `None`.
    pub fn within(&mut self, position: &G::Position, depth: u16) -> Option<Value> {
        match self.memo.get(position) {
            Some(Known::Decided(v)) => return v.distance().filter(|&n| n <= depth).map(|_| *v),
            Some(Known::OpenTo(d)) if *d >= depth => return None,
            _ => {}
        }
        let result = self.search(position, depth);
        let known = match result {
            Some(v) => Known::Decided(v),
            None => Known::OpenTo(depth),
        };
        self.memo.insert(position.clone(), known);
        result
    }

    fn search(&mut self, position: &G::Position, depth: u16) -> Option<Value> {
        let game = self.game;
        if let Some(v) = game.end_value(position) {
            return v.distance().filter(|&n| n <= depth).map(|_| v);
        }
        if depth == 0 {
            return None;
        }
        let mut slowest_loss: Option<Value> = Some(Value::Loss(0));
        let mut fastest_win: Option<Value> = None;
        for mv in game.moves(position) {
            let child = game.play(position, &mv);
            match self
                .within(&child.position, depth - 1)
                .map(|v| child.value_for_mover(v))
            {
                Some(v @ Value::Win(_)) => fastest_win = Some(fastest_win.map_or(v, |w| w.best(v))),
                Some(v @ Value::Loss(_)) => slowest_loss = slowest_loss.map(|l| l.best(v)),
                _ => slowest_loss = None,
            }
        }
        fastest_win.or(slowest_loss)
    }

    /// The value with draws read as "no result within `bound` plies".
    pub fn value(&mut self, position: &G::Position, bound: u16) -> Value {
        self.within(position, bound).unwrap_or(Value::Draw)
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
    fn bounded_search_agrees_with_negamax_on_an_acyclic_game() {
        let mut exact = Negamax::new(&Euler);
        let mut bounded = BoundedSearch::new(&Euler);
        for board in (0..=u16::MAX).step_by(97) {
            let v = exact.value(&board);
            assert_eq!(bounded.value(&board, 16), v, "{board:#x}");
            let n = v.distance().unwrap();
            if n > 0 {
                assert_eq!(
                    bounded.within(&board, n - 1),
                    None,
                    "{board:#x} decided too early"
                );
            }
        }
    }

    #[test]
    fn one_free_cell_is_a_loss_in_one() {
        let mut search = Negamax::new(&Euler);
        assert_eq!(search.value(&(u16::MAX - 1)), Value::Loss(1));
        // Two free cells side by side on an edge: cover one, leave the last to the opponent.
        assert_eq!(search.value(&(u16::MAX - 0b11)), Value::Win(2));
    }
}
