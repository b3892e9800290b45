//! A position's value and every legal move with the value it gives the mover,
//! best first. Every answer is built by valuing each child: from the tables, or
//! from an exact solver for games that keep none.

use crate::error::QueryError;
use crate::tablebase::Tablebase;
use games::{Game, Value};

/// One legal move and what it is worth to the player making it.
#[derive(Debug, Clone)]
pub struct MoveValue<G: Game> {
    pub mv: G::Move,
    pub text: String,
    /// The position after the move, from the next mover's point of view.
    pub after: G::Position,
    /// The value for the player making the move, counted from the probed position.
    pub value: Value,
    /// False when the player moves again (dots-and-boxes).
    pub turn_passes: bool,
    /// What the move itself scores (score games).
    pub gain: i64,
    /// The limit of the count of plies the move restarts, if it restarts one.
    pub reset: Option<u16>,
}

/// A probed position with its value and every move, best first.
#[derive(Debug, Clone)]
pub struct Probe<G: Game> {
    pub position: G::Position,
    pub value: Value,
    pub moves: Vec<MoveValue<G>>,
}

impl<G: Game> Probe<G> {
    /// The moves that keep the position's value (all the perfect moves).
    pub fn best_moves(&self) -> impl Iterator<Item = &MoveValue<G>> {
        self.moves.iter().filter(move |m| m.value == self.value)
    }
}

/// Every move of `position` valued by `value_of` (the value of the position after
/// it, for whoever moves there), best first; the position's value is its end
/// value where the game is over, otherwise the best move's.
pub fn valued<G: Game>(
    game: &G,
    position: &G::Position,
    value_of: impl Fn(&G::Position) -> Result<Value, QueryError>,
) -> Result<Probe<G>, QueryError> {
    let legal = game.moves(position);
    let mut moves = Vec::with_capacity(legal.len());
    for mv in legal {
        let child = game.play(position, &mv);
        let value = child.value_for_mover(value_of(&child.position)?);
        let text = game.write_move(position, &mv);
        moves.push(MoveValue {
            mv,
            text,
            after: child.position,
            value,
            turn_passes: child.turn_passes,
            gain: child.gain,
            reset: child.reset,
        });
    }
    // Best first; among equals, the order in which moves are generated.
    moves.sort_by(|a, b| b.value.cmp_for_mover(a.value));
    let value = match (game.end_value(position), moves.first()) {
        (Some(v), _) => v,
        (None, Some(best)) => best.value,
        (None, None) => {
            return Err(QueryError::Internal(format!(
                "{}: {} has no move and is not over: a rules error",
                game.id(),
                game.write_position(position)
            )));
        }
    };
    Ok(Probe {
        position: position.clone(),
        value,
        moves,
    })
}

/// Probes one position in the tables: every child looked up, and the stored value
/// of the position checked against the best move.
pub fn probe<G: Game>(tb: &Tablebase<G>, position: &G::Position) -> Result<Probe<G>, QueryError> {
    tb.covers(position)?;
    probe_covered(tb, position)
}

/// [`probe`] for a position the tables are known to cover.
pub fn probe_covered<G: Game>(
    tb: &Tablebase<G>,
    position: &G::Position,
) -> Result<Probe<G>, QueryError> {
    let game = tb.game();
    let answer = valued(game, position, |child| tb.value(child))?;
    let stored = tb.covered_value(position)?;
    if stored != answer.value {
        return Err(QueryError::WrongTable {
            path: tb.path(game.tier_of(position)),
            problem: format!(
                "stores {stored} for {} but its moves give {}",
                game.write_position(position),
                answer.value
            ),
        });
    }
    Ok(answer)
}

/// Parses and probes a position given as text (`start` for the start position).
pub fn probe_text<G: Game>(tb: &Tablebase<G>, text: &str) -> Result<Probe<G>, QueryError> {
    let position = games::read_position(tb.game(), text)?;
    probe(tb, &position)
}
