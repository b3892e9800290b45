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
        let key = self.game.search_key(position);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let game = self.game;
        let v = value_from_children(game, position, |child| self.value(child));
        self.memo.insert(key, v);
        v
    }

    /// How many positions the memo holds.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }
}

/// Exact scores of an acyclic score game (dots-and-boxes) by fail-soft alpha-beta
/// with a transposition table of proven bounds, keyed by position. Moves that score
/// are tried first. Written independently of the table solvers, to check them.
#[derive(Debug)]
pub struct AlphaBeta<'g, G: Game> {
    game: &'g G,
    /// Proven `(lower, upper)` bounds on each searched position's score.
    bounds: HashMap<G::Position, (i64, i64)>,
}

/// Beyond any score a game can reach.
const INFINITE: i64 = 1 << 62;

impl<'g, G: Game> AlphaBeta<'g, G> {
    pub fn new(game: &'g G) -> Self {
        AlphaBeta {
            game,
            bounds: HashMap::new(),
        }
    }

    /// The exact score of `position` for the player to move.
    pub fn value(&mut self, position: &G::Position) -> Value {
        Value::Score(self.search(position, -INFINITE, INFINITE))
    }

    /// How many positions the transposition table holds.
    pub fn table_len(&self) -> usize {
        self.bounds.len()
    }

    /// A score `s` with `s <= alpha` meaning "at most `s`", `s >= beta` "at least
    /// `s`", and otherwise exact.
    fn search(&mut self, position: &G::Position, alpha: i64, beta: i64) -> i64 {
        let game = self.game;
        if let Some(end) = game.end_value(position) {
            let Value::Score(s) = end else {
                panic!("{}: alpha-beta needs a score game", game.id())
            };
            return s;
        }
        let (lower, upper) = self
            .bounds
            .get(position)
            .copied()
            .unwrap_or((-INFINITE, INFINITE));
        if lower == upper || lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let (alpha, beta) = (alpha.max(lower), beta.min(upper));
        let mut children: Vec<_> = game
            .moves(position)
            .iter()
            .map(|mv| game.play(position, mv))
            .collect();
        children.sort_by_key(|c| -c.gain);
        let mut best = -INFINITE;
        let mut floor = alpha;
        for child in children {
            let gain = child.gain;
            let score = if child.turn_passes {
                gain - self.search(&child.position, gain - beta, gain - floor)
            } else {
                gain + self.search(&child.position, floor - gain, beta - gain)
            };
            best = best.max(score);
            floor = floor.max(score);
            if floor >= beta {
                break;
            }
        }
        let known = if best <= alpha {
            (lower, upper.min(best))
        } else if best >= beta {
            (lower.max(best), upper)
        } else {
            (best, best)
        };
        self.bounds.insert(position.clone(), known);
        best
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
        let key = self.game.search_key(position);
        match self.memo.get(&key) {
            Some(Known::Decided(v)) => return v.distance().filter(|&n| n <= depth).map(|_| *v),
            Some(Known::OpenTo(d)) if *d >= depth => return None,
            _ => {}
        }
        let result = self.search(position, depth);
        let known = match result {
            Some(v) => Known::Decided(v),
            None => Known::OpenTo(depth),
        };
        self.memo.insert(key, known);
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

/// What mate search has learnt about one question (can the mover force a win,
/// must the mover lose) of one position.
#[derive(Debug, Clone, Copy)]
struct Answered {
    /// The fewest plies within which the answer is known to be yes.
    yes_from: u16,
    /// The most plies within which the answer is known to be no.
    no_to: Option<u16>,
}

impl Default for Answered {
    fn default() -> Self {
        Answered {
            yes_from: u16::MAX,
            no_to: None,
        }
    }
}

impl Answered {
    fn known(&self, depth: u16) -> Option<bool> {
        if self.yes_from <= depth {
            Some(true)
        } else if self.no_to.is_some_and(|n| n >= depth) {
            Some(false)
        } else {
            None
        }
    }

    fn learn(&mut self, depth: u16, yes: bool) {
        if yes {
            self.yes_from = self.yes_from.min(depth);
        } else {
            self.no_to = Some(self.no_to.map_or(depth, |n| n.max(depth)));
        }
    }
}

/// Mate search for games with cycles whose turn always passes (chess): can the
/// mover force a win within `d` plies, must it lose within `d` plies, by AND/OR
/// search that stops at the first move settling the question. A win in `n` is
/// proven by finding it within `n` plies and not within `n - 2`; a loss likewise.
/// Memo keyed by position, per question.
#[derive(Debug)]
pub struct MateSearch<'g, G: Game> {
    game: &'g G,
    memo: HashMap<G::Position, [Answered; 2]>,
}

const WINS: usize = 0;
const LOSES: usize = 1;

/// The most positions a mate search remembers (about 100 bytes each for
/// chess) before it forgets them all: a verification samples thousands of
/// positions, each searched 7 plies deep, and must not keep all it saw.
const MATE_MEMO: usize = 1 << 20;

impl<'g, G: Game> MateSearch<'g, G> {
    pub fn new(game: &'g G) -> Self {
        MateSearch {
            game,
            memo: HashMap::new(),
        }
    }

    /// Whether the mover can force a win within `depth` plies.
    pub fn wins_within(&mut self, position: &G::Position, depth: u16) -> bool {
        self.ask(position, depth, WINS)
    }

    /// Whether the mover loses within `depth` plies whatever it plays.
    pub fn loses_within(&mut self, position: &G::Position, depth: u16) -> bool {
        self.ask(position, depth, LOSES)
    }

    fn ask(&mut self, position: &G::Position, depth: u16, question: usize) -> bool {
        let key = self.game.search_key(position);
        if let Some(known) = self.memo.get(&key).and_then(|a| a[question].known(depth)) {
            return known;
        }
        let answer = self.search(position, depth, question);
        // A bounded memory: what the memo forgets is searched again if asked.
        if self.memo.len() >= MATE_MEMO {
            self.memo.clear();
        }
        self.memo.entry(key).or_default()[question].learn(depth, answer);
        answer
    }

    fn search(&mut self, position: &G::Position, depth: u16, question: usize) -> bool {
        let game = self.game;
        if let Some(end) = game.end_value(position) {
            return match end {
                Value::Win(n) => question == WINS && n <= depth,
                Value::Loss(n) => question == LOSES && n <= depth,
                _ => false,
            };
        }
        // A win needs a move; a loss needs the opponent to move and win after it.
        if depth < 1 + question as u16 {
            return false;
        }
        let moves = game.moves(position);
        let mut child_answers = moves.iter().map(|mv| {
            let child = game.play(position, mv);
            assert!(
                child.turn_passes,
                "{}: mate search needs the turn to pass",
                game.id()
            );
            child.position
        });
        if question == WINS {
            child_answers.any(|child| self.loses_within(&child, depth - 1))
        } else {
            child_answers.all(|child| self.wins_within(&child, depth - 1))
        }
    }

    /// The exact value if the game ends within `limit` plies, otherwise `None`.
    pub fn value_within(&mut self, position: &G::Position, limit: u16) -> Option<Value> {
        (0..=limit).find_map(|n| {
            if self.wins_within(position, n) {
                Some(Value::Win(n))
            } else if self.loses_within(position, n) {
                Some(Value::Loss(n))
            } else {
                None
            }
        })
    }

    /// What search says of a position the table says is `stored`: a stored win or
    /// loss in `n` within `limit` is confirmed by a proof in `n` plies and none in
    /// `n - 2`; otherwise the search runs to `limit` (None: nothing within it).
    pub fn check(
        &mut self,
        position: &G::Position,
        stored: Option<Value>,
        limit: u16,
    ) -> Option<Value> {
        let shorter = |n: u16| n.checked_sub(2);
        match stored {
            Some(Value::Win(n)) if n <= limit => {
                let proven = self.wins_within(position, n)
                    && !shorter(n).is_some_and(|m| self.wins_within(position, m));
                if proven {
                    return stored;
                }
            }
            Some(Value::Loss(n)) if n <= limit => {
                let proven = self.loses_within(position, n)
                    && !shorter(n).is_some_and(|m| self.loses_within(position, m));
                if proven {
                    return stored;
                }
            }
            _ => {}
        }
        self.value_within(position, limit)
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
    fn alpha_beta_agrees_with_negamax_on_dots_and_boxes() {
        let dots = crate::dots::Dots::new(2, 2).unwrap();
        let mut exact = Negamax::new(&dots);
        let mut pruned = AlphaBeta::new(&dots);
        assert_eq!(pruned.value(&0), exact.value(&0));
        for drawn in (0..1u32 << 12).step_by(7) {
            // A fresh table for half of them: answers must not depend on history.
            let v = if drawn % 2 == 0 {
                pruned.value(&drawn)
            } else {
                AlphaBeta::new(&dots).value(&drawn)
            };
            assert_eq!(v, exact.value(&drawn), "{drawn:#b}");
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
