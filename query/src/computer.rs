//! The computer's move: perfect play from exact values (win fastest, lose
//! slowest, and among equal moves the one that leaves the opponent the most
//! ways to go wrong), from a closed formula, or by search beyond both; at a
//! level below perfect, now and then a deliberate mistake; and the words that
//! say why it chose as it did. `play`, the page and the HTTP API all ask here.

use crate::answer::Valuation;
use crate::engine::{Choice, Engine};
use crate::error::QueryError;
use crate::oracle::{Known, Oracle};
use crate::probe::{MoveValue, Probe};
use crate::render;
use games::{Game, GameError, Value};
use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// The level at which the computer makes no mistake.
pub const PERFECT: u8 = 10;

/// How the computer chose a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// From exact values: the move's value for the computer, and how many of
    /// the opponent's replies make it worse for them.
    Exact { value: Value, mistakes: usize },
    /// A move the formula says wins: of those, the one that leaves the least by
    /// the formula's measure (named), `left` after it.
    FormulaWins { measure: &'static str, left: u64 },
    /// The formula says every move loses: the one that leaves the most.
    FormulaLoses { measure: &'static str, left: u64 },
    /// Search where nothing exact reaches.
    Search(Choice<()>),
    /// A deliberate mistake, below the perfect level.
    Mistake { level: u8 },
}

/// The computer's move at `level`: perfect, or now and then a deliberate
/// mistake.
pub fn computer_turn<G: Game>(
    oracle: &Oracle<G>,
    engine: Option<&Engine<G>>,
    position: &G::Position,
    level: u8,
    rng: &mut StdRng,
) -> Result<(G::Move, Reason), QueryError> {
    let level = level.min(PERFECT);
    if rng.random_ratio(u32::from(PERFECT - level), u32::from(PERFECT)) {
        if let Some(mv) = mistake(oracle, engine, position, rng)? {
            return Ok((mv, Reason::Mistake { level }));
        }
    }
    computer_move(oracle, engine, position)
}

/// A move worse than the best, chosen at random, where there is one: from
/// exact values, one that gives something away; from a formula, one that
/// throws a win away; beyond both, any move.
fn mistake<G: Game>(
    oracle: &Oracle<G>,
    engine: Option<&Engine<G>>,
    position: &G::Position,
    rng: &mut StdRng,
) -> Result<Option<G::Move>, QueryError> {
    let game = oracle.game;
    match oracle.answer(position) {
        Ok(Known::Valued { probe, .. }) => {
            let worse: Vec<&MoveValue<G>> = probe
                .moves
                .iter()
                .filter(|m| probe.value.better_than(m.value))
                .collect();
            Ok(worse.choose(rng).map(|m| m.mv.clone()))
        }
        Ok(Known::Formula { formula, .. }) if formula.mover_wins => {
            let closed = oracle
                .caps
                .formula
                .expect("formula answers come from a formula");
            // Games with too many moves to list name one that keeps the most.
            if let Some(mv) = closed.longest_move(position) {
                return Ok((!formula.winning_moves.contains(&mv)).then_some(mv));
            }
            let losing: Vec<G::Move> = game
                .moves(position)
                .into_iter()
                .filter(|m| !formula.winning_moves.contains(m))
                .collect();
            Ok(losing.choose(rng).cloned())
        }
        Ok(Known::Formula { .. }) => Ok(None),
        Err(QueryError::Input(_) | QueryError::MissingTable { .. }) if engine.is_some() => {
            Ok(game.moves(position).choose(rng).cloned())
        }
        Err(e) => Err(e),
    }
}

/// The computer's perfect move from `position`: from the tables, the formula
/// or the exact solver, searched beyond them where the game allows it.
pub fn computer_move<G: Game>(
    oracle: &Oracle<G>,
    engine: Option<&Engine<G>>,
    position: &G::Position,
) -> Result<(G::Move, Reason), QueryError> {
    let known = match oracle.answer(position) {
        Ok(known) => known,
        Err(QueryError::Input(_) | QueryError::MissingTable { .. }) if engine.is_some() => {
            let choice = engine.expect("checked").choose(position)?;
            let Choice {
                mv,
                score,
                depth,
                nodes,
                algorithm,
            } = choice;
            let reason = Reason::Search(Choice {
                mv: (),
                score,
                depth,
                nodes,
                algorithm,
            });
            return Ok((mv, reason));
        }
        Err(e) => return Err(e),
    };
    match known {
        Known::Valued { probe, .. } => {
            let (best, mistakes) = computer_choice(oracle, &probe)?;
            let reason = Reason::Exact {
                value: best.value,
                mistakes,
            };
            Ok((best.mv.clone(), reason))
        }
        Known::Formula { formula, .. } => formula_move(oracle, position, &formula.winning_moves),
    }
}

/// The computer's move by a closed formula: the winning move that leaves the
/// least play by the formula's measure, or where every move loses, the one that
/// leaves the most.
pub fn formula_move<G: Game>(
    oracle: &Oracle<G>,
    position: &G::Position,
    winning: &[G::Move],
) -> Result<(G::Move, Reason), QueryError> {
    let game = oracle.game;
    let closed = oracle
        .caps
        .formula
        .expect("formula answers come from a formula");
    let left = |mv: &G::Move| closed.left(&game.play(position, mv).position);
    let measure = closed.measure();
    if let Some(mv) = winning.iter().min_by_key(|mv| left(mv)) {
        let left = left(mv);
        return Ok((mv.clone(), Reason::FormulaWins { measure, left }));
    }
    let longest = closed
        .longest_move(position)
        .or_else(|| game.moves(position).into_iter().max_by_key(|mv| left(mv)))
        .ok_or_else(|| {
            QueryError::Input(GameError::position(
                &game.write_position(position),
                "no move here",
            ))
        })?;
    let left = left(&longest);
    Ok((longest, Reason::FormulaLoses { measure, left }))
}

/// What the computer says of its move, for `them` (who it plays for).
pub fn explain<G: Game>(
    oracle: &Oracle<G>,
    reason: &Reason,
    them: &str,
    to_a_person: bool,
) -> String {
    match reason {
        Reason::Exact { value, mistakes } => {
            let mut note = format!(
                "{} for {them}",
                render::value_words(oracle, Valuation::of(*value))
            );
            if oracle.spec.entry.extras.search_beyond_tables {
                note.push_str(", exact, from the tables");
            }
            if *mistakes > 0 && to_a_person {
                note.push_str(&format!(
                    "; {mistakes} of your replies make it worse for you"
                ));
            }
            note
        }
        Reason::FormulaWins { measure, left } => {
            format!("a winning move by the formula, the fastest by {measure}: {left} after it")
        }
        Reason::FormulaLoses { measure, left } => format!(
            "every move loses by the formula; this one holds out longest by {measure}: {left} after it"
        ),
        Reason::Search(choice) => match choice.depth {
            None => format!("{:+} for {them}, exact, from the tables", choice.score),
            Some(depth) => format!(
                "{:+} for {them}, {} to {depth} plies, {} positions",
                choice.score,
                choice.algorithm.name(),
                choice.nodes
            ),
        },
        Reason::Mistake { level } => format!("a deliberate mistake, at level {level}"),
    }
}

/// The computer's move from an exact answer: one that keeps the position's value
/// (win fastest, lose slowest), and among those the one that leaves the opponent
/// the most replies worse than their best, so a drawn game gives the other side
/// the most ways to go wrong. Returns the move and that number of replies.
pub fn computer_choice<'a, G: Game>(
    oracle: &Oracle<G>,
    answer: &'a Probe<G>,
) -> Result<(&'a MoveValue<G>, usize), QueryError> {
    let mut choice = None;
    for candidate in answer.best_moves() {
        let mistakes = match oracle.answer(&candidate.after)? {
            Known::Valued { probe: reply, .. } => reply
                .moves
                .iter()
                .filter(|r| reply.value.better_than(r.value))
                .count(),
            Known::Formula { .. } => 0,
        };
        if choice.is_none_or(|(_, most)| mistakes > most) {
            choice = Some((candidate, mistakes));
        }
    }
    choice.ok_or_else(|| {
        QueryError::Input(GameError::position(
            &oracle.game.write_position(&answer.position),
            "no move here",
        ))
    })
}
