//! Search for score games where the tables do not reach (Abapa with many seeds):
//! alpha-beta on the net score, the game cut at the search horizon counting 0,
//! and the tables as exact values as soon as a line of play reaches them.

use crate::error::QueryError;
use crate::oracle::Oracle;
use games::{Game, Value};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The deepest search tried.
const MAX_DEPTH: u32 = 40;

/// Beyond any score: windows stay far from overflow.
const INFINITE: i64 = 1 << 60;

/// A time-bounded searcher.
#[derive(Debug)]
pub struct Engine<'a, 'g, G: Game> {
    oracle: &'a Oracle<'g, G>,
    /// Tiers whose tables are in the folder.
    present: HashSet<u32>,
    budget: Duration,
}

/// What the engine decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice<M> {
    pub mv: M,
    /// Net score the move is worth to the mover (exact when `depth` is None).
    pub score: i64,
    /// Plies searched; None when the tables answered exactly.
    pub depth: Option<u32>,
}

impl<'a, 'g, G: Game> Engine<'a, 'g, G> {
    pub fn new(oracle: &'a Oracle<'g, G>, budget: Duration) -> Self {
        let present = oracle
            .game
            .tiers()
            .into_iter()
            .filter(|&t| oracle.tb.has_table(t))
            .collect();
        Engine {
            oracle,
            present,
            budget,
        }
    }

    /// The most the tables reach, for reports: the largest tier present.
    pub fn reach(&self) -> Option<String> {
        let game = self.oracle.game;
        let largest = self.present.iter().max()?;
        Some(game.tier_name(*largest))
    }

    fn exact(&self, position: &G::Position) -> Result<Option<i64>, QueryError> {
        let game = self.oracle.game;
        if game.coverage(position).is_err() || !self.present.contains(&game.tier_of(position)) {
            return Ok(None);
        }
        match self.oracle.tb.value(position)? {
            Value::Score(s) => Ok(Some(s)),
            other => unreachable!("search runs on score games, not {other}"),
        }
    }

    /// The best move: exact from the tables where they reach, otherwise by
    /// iterative deepening until the time budget is spent. The position must
    /// have a move.
    pub fn choose(&self, position: &G::Position) -> Result<Choice<G::Move>, QueryError> {
        let game = self.oracle.game;
        let moves = game.moves(position);
        if self.exact(position)?.is_some() {
            let best = crate::probe(&self.oracle.tb, position)?
                .moves
                .swap_remove(0);
            let Value::Score(score) = best.value else {
                unreachable!("search runs on score games")
            };
            return Ok(Choice {
                mv: best.mv,
                score,
                depth: None,
            });
        }
        let started = Instant::now();
        let mut best = Choice {
            mv: moves[0].clone(),
            score: 0,
            depth: Some(0),
        };
        for depth in 1..=MAX_DEPTH {
            let mut alpha = -INFINITE;
            let mut choice = best.clone();
            // The previous best first: it makes the cut-offs.
            let mut ordered = moves.clone();
            ordered.sort_by_key(|m| *m != best.mv);
            for mv in ordered {
                let child = game.play(position, &mv);
                let score = self.through(&child, depth - 1, alpha, INFINITE)?;
                if score > alpha {
                    alpha = score;
                    choice = Choice {
                        mv,
                        score,
                        depth: Some(depth),
                    };
                }
            }
            best = choice;
            // Each ply costs a few times the last: stop before overrunning.
            if started.elapsed() * 4 > self.budget {
                break;
            }
        }
        Ok(best)
    }

    /// The score for the mover of a move leading to `child`, searched within the
    /// mover's window `alpha..beta`.
    fn through(
        &self,
        child: &games::Child<G::Position>,
        depth: u32,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, QueryError> {
        Ok(if child.turn_passes {
            child.gain
                - self.search(
                    &child.position,
                    depth,
                    child.gain - beta,
                    child.gain - alpha,
                )?
        } else {
            child.gain
                + self.search(
                    &child.position,
                    depth,
                    alpha - child.gain,
                    beta - child.gain,
                )?
        })
    }

    /// Negamax with alpha-beta: net score for the mover within `depth` plies,
    /// the game cut there counting 0.
    fn search(
        &self,
        position: &G::Position,
        depth: u32,
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, QueryError> {
        if let Some(exact) = self.exact(position)? {
            return Ok(exact);
        }
        let game = self.oracle.game;
        if let Some(Value::Score(end)) = game.end_value(position) {
            return Ok(end);
        }
        if depth == 0 {
            return Ok(0);
        }
        let mut children: Vec<_> = game
            .moves(position)
            .iter()
            .map(|mv| game.play(position, mv))
            .collect();
        // Moves that score first.
        children.sort_by_key(|c| -c.gain);
        let mut best = -INFINITE;
        for child in children {
            let score = self.through(&child, depth - 1, alpha, beta)?;
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}
