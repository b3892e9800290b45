//! Answers for games with a closed formula: from the tables where they cover the
//! position (with distances), otherwise from the formula (who wins and every
//! winning move, no distance).

use crate::error::QueryError;
use crate::probe::{Probe, probe};
use crate::tablebase::Tablebase;
use games::{Formula, Game};
use serde_json::{Value as Json, json};

/// Where an answer came from.
#[derive(Debug)]
pub enum Answer<G: Game> {
    Table(Probe<G>),
    /// The formula's answer, with why the tables were not used.
    Formula(G::Position, Formula<G::Move>, &'static str),
}

/// Probes the tables where they hold the position; answers by the formula where
/// they do not, or where the table has not been generated.
pub fn answer<G: Game>(tb: &Tablebase<G>, position: G::Position) -> Result<Answer<G>, QueryError> {
    let game = tb.game();
    let reason = if game.covered(&position) {
        match probe(tb, &position) {
            Ok(answer) => return Ok(Answer::Table(answer)),
            Err(QueryError::MissingTable { .. }) if game.formula(&position).is_some() => {
                "the table is not generated"
            }
            Err(e) => return Err(e),
        }
    } else {
        "beyond the tables"
    };
    match game.formula(&position) {
        Some(formula) => Ok(Answer::Formula(position, formula, reason)),
        None => Err(QueryError::Input(games::GameError::position(
            &game.write_position(&position),
            game.beyond_tables(&position),
        ))),
    }
}

impl<G: Game> Answer<G> {
    pub fn to_json(&self, game: &G) -> Json {
        match self {
            Answer::Table(probe) => probe.to_json(game),
            Answer::Formula(position, formula, reason) => {
                let mut object = json!({
                    "game": game.id(),
                    "position": game.write_position(position),
                    "source": "formula",
                    "why": reason,
                    "value": if formula.mover_wins { "win" } else { "loss" },
                    "nim_sum": formula.nim_sum,
                    "winning_moves": formula
                        .winning_moves
                        .iter()
                        .map(|m| game.write_move(position, m))
                        .collect::<Vec<_>>(),
                });
                let variant = game.variant();
                if !variant.is_empty() {
                    object["variant"] = json!(variant);
                }
                object
            }
        }
    }

    pub fn to_text(&self, game: &G) -> String {
        match self {
            Answer::Table(probe) => probe.to_text(game),
            Answer::Formula(position, formula, reason) => {
                let moves: Vec<String> = formula
                    .winning_moves
                    .iter()
                    .map(|m| game.write_move(position, m))
                    .collect();
                let verdict = if formula.mover_wins {
                    format!("win ({} winning moves: {})", moves.len(), moves.join(" "))
                } else {
                    "loss (no winning move)".to_string()
                };
                format!(
                    "{} {}\nby formula ({reason}): nim-sum {}\nvalue: {verdict}\n",
                    game.id(),
                    game.write_position(position),
                    formula.nim_sum
                )
            }
        }
    }
}
