//! Search for score games where the tables do not reach (Abapa with many seeds):
//! the net score searched to a depth, the game cut at the horizon counting 0,
//! and the tables read as exact values as soon as a line of play reaches them.
//! Three algorithms, which agree on every score at the same depth and differ in
//! the positions they visit: minimax (each side's own view), negamax (one view,
//! the mover's) and alpha-beta (negamax that skips what cannot matter).

use crate::error::QueryError;
use crate::oracle::Oracle;
use games::{Child, Game, Value};
use std::cell::Cell;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The deepest search tried.
pub const MAX_DEPTH: u32 = 40;

/// Beyond any score: windows stay far from overflow.
const INFINITE: i64 = 1 << 60;

/// How the engine searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Algorithm {
    /// Each side maximises its own score: the first player's score, maximised
    /// on its turns and minimised on the other's.
    Minimax,
    /// The mover's net score, negated at every change of turn.
    Negamax,
    /// Negamax with alpha-beta cut-offs, scoring moves first.
    #[default]
    #[value(name = "alphabeta", alias = "alpha-beta")]
    AlphaBeta,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alpha-beta",
        }
    }
}

/// What bounds a search: a fixed depth, or deepening until the time is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub algorithm: Algorithm,
    /// Search exactly this many plies; `None`: deepen while time is left.
    pub depth: Option<u32>,
    pub think: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            algorithm: Algorithm::AlphaBeta,
            depth: None,
            think: Duration::from_secs(2),
        }
    }
}

/// A searcher over one game's tables.
#[derive(Debug)]
pub struct Engine<'a, 'g, G: Game> {
    oracle: &'a Oracle<'g, G>,
    /// Tiers whose tables are in the folder.
    present: HashSet<u32>,
    limits: Limits,
    nodes: Cell<u64>,
}

/// What the engine decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice<M> {
    pub mv: M,
    /// Net score the move is worth to the mover (exact when `depth` is None).
    pub score: i64,
    /// Plies searched; None when the tables answered exactly.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: u64,
    pub algorithm: Algorithm,
}

impl<'a, 'g, G: Game> Engine<'a, 'g, G> {
    pub fn new(oracle: &'a Oracle<'g, G>, limits: Limits) -> Self {
        let present = oracle
            .game
            .tiers()
            .into_iter()
            .filter(|&t| oracle.tb.has_table(t))
            .collect();
        Engine {
            oracle,
            present,
            limits,
            nodes: Cell::new(0),
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

    /// The best move: exact from the tables where they reach, otherwise searched
    /// to the fixed depth, or deepened until the time is spent. The position
    /// must have a move.
    pub fn choose(&self, position: &G::Position) -> Result<Choice<G::Move>, QueryError> {
        let game = self.oracle.game;
        let algorithm = self.limits.algorithm;
        self.nodes.set(0);
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
                nodes: 1,
                algorithm,
            });
        }
        let moves = game.moves(position);
        let started = Instant::now();
        let mut best: Option<(G::Move, i64, u32)> = None;
        let depths = match self.limits.depth {
            Some(d) => d.max(1)..=d.max(1),
            None => 1..=MAX_DEPTH,
        };
        for depth in depths {
            let mut choice: Option<(G::Move, i64)> = None;
            // The previous best first: it makes alpha-beta's cut-offs.
            let mut ordered = moves.clone();
            if let Some((previous, _, _)) = &best {
                ordered.sort_by_key(|m| m != previous);
            }
            for mv in ordered {
                let child = game.play(position, &mv);
                let alpha = choice.as_ref().map_or(-INFINITE, |c| c.1);
                let score = self.score_move(&child, depth - 1, alpha)?;
                if choice.as_ref().is_none_or(|c| score > c.1) {
                    choice = Some((mv, score));
                }
            }
            let (mv, score) = choice.expect("the position has a move");
            best = Some((mv, score, depth));
            // Each ply costs a few times the last: stop before overrunning.
            if self.limits.depth.is_none() && started.elapsed() * 4 > self.limits.think {
                break;
            }
        }
        let (mv, score, depth) = best.expect("at least one depth is searched");
        Ok(Choice {
            mv,
            score,
            depth: Some(depth),
            nodes: self.nodes.get(),
            algorithm,
        })
    }

    /// The mover's net score for a move leading to `child`, `depth` plies below.
    fn score_move(
        &self,
        child: &Child<G::Position>,
        depth: u32,
        alpha: i64,
    ) -> Result<i64, QueryError> {
        match self.limits.algorithm {
            Algorithm::AlphaBeta => self.through(child, depth, alpha, INFINITE),
            Algorithm::Negamax => self.through(child, depth, -INFINITE, INFINITE),
            Algorithm::Minimax => {
                // The root mover's score; the child's mover is the root's
                // opponent unless the mover moves again.
                let root_moves = !child.turn_passes;
                Ok(child.gain + self.minimax(&child.position, depth, root_moves)?)
            }
        }
    }

    /// The score for the mover of a move leading to `child`, searched within the
    /// mover's window `alpha..beta`.
    fn through(
        &self,
        child: &Child<G::Position>,
        depth: u32,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, QueryError> {
        Ok(if child.turn_passes {
            child.gain
                - self.negamax(
                    &child.position,
                    depth,
                    child.gain - beta,
                    child.gain - alpha,
                )?
        } else {
            child.gain
                + self.negamax(
                    &child.position,
                    depth,
                    alpha - child.gain,
                    beta - child.gain,
                )?
        })
    }

    /// The value of a position known without searching it: exact from the
    /// tables, the end of the game, or 0 at the horizon.
    fn leaf(&self, position: &G::Position, depth: u32) -> Result<Option<i64>, QueryError> {
        self.nodes.set(self.nodes.get() + 1);
        if let Some(exact) = self.exact(position)? {
            return Ok(Some(exact));
        }
        if let Some(Value::Score(end)) = self.oracle.game.end_value(position) {
            return Ok(Some(end));
        }
        Ok((depth == 0).then_some(0))
    }

    /// Negamax: net score for the mover within `depth` plies; with a window
    /// narrower than everything, alpha-beta.
    fn negamax(
        &self,
        position: &G::Position,
        depth: u32,
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, QueryError> {
        if let Some(known) = self.leaf(position, depth)? {
            return Ok(known);
        }
        let game = self.oracle.game;
        let mut children: Vec<_> = game
            .moves(position)
            .iter()
            .map(|mv| game.play(position, mv))
            .collect();
        let pruning = self.limits.algorithm == Algorithm::AlphaBeta;
        if pruning {
            // Moves that score first.
            children.sort_by_key(|c| -c.gain);
        }
        let mut best = -INFINITE;
        for child in children {
            let score = self.through(&child, depth - 1, alpha, beta)?;
            best = best.max(score);
            if pruning {
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(best)
    }

    /// Minimax: the score of the player who moves at the root, within `depth`
    /// plies; `root_moves` says whether that player moves at `position`.
    fn minimax(
        &self,
        position: &G::Position,
        depth: u32,
        root_moves: bool,
    ) -> Result<i64, QueryError> {
        if let Some(known) = self.leaf(position, depth)? {
            // Known values are the mover's.
            return Ok(if root_moves { known } else { -known });
        }
        let game = self.oracle.game;
        let mut best: Option<i64> = None;
        for mv in game.moves(position) {
            let child = game.play(position, &mv);
            let gain = if root_moves { child.gain } else { -child.gain };
            let next_root_moves = root_moves != child.turn_passes;
            let score = gain + self.minimax(&child.position, depth - 1, next_root_moves)?;
            best = Some(match best {
                None => score,
                Some(b) if root_moves => b.max(score),
                Some(b) => b.min(score),
            });
        }
        Ok(best.expect("a position that is not over has a move"))
    }
}
