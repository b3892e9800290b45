//! A position's value and every legal move with the value it gives the mover,
//! best first. Every answer is built by looking up each child in the tables.

use crate::error::QueryError;
use crate::tablebase::Tablebase;
use games::{Game, Value, ValueKind};
use serde_json::{Map, Value as Json, json};

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
    pub gain: i16,
}

/// A probed position with its value and every move, best first.
#[derive(Debug, Clone)]
pub struct Probe<G: Game> {
    pub position: G::Position,
    pub value: Value,
    pub moves: Vec<MoveValue<G>>,
}

/// Probes one position: the end value where the game is over, otherwise the best
/// over all moves, each child looked up in the tables. Also checks that the stored
/// value of the position agrees with the best move.
pub fn probe<G: Game>(tb: &Tablebase<G>, position: &G::Position) -> Result<Probe<G>, QueryError> {
    let game = tb.game();
    let mut moves = Vec::new();
    for mv in game.moves(position) {
        let child = game.play(position, &mv);
        let value = child.value_for_mover(tb.value(&child.position)?);
        let text = game.write_move(position, &mv);
        moves.push(MoveValue {
            mv,
            text,
            after: child.position,
            value,
            turn_passes: child.turn_passes,
            gain: child.gain,
        });
    }
    // Best first; among equals, the order in which moves are generated.
    moves.sort_by(|a, b| b.value.cmp_for_mover(a.value));
    let value = match game.end_value(position) {
        Some(v) => v,
        None => moves
            .first()
            .map(|m| m.value)
            .expect("a position that is not over has a move"),
    };
    let stored = tb.value(position)?;
    if stored != value {
        return Err(QueryError::WrongTable {
            path: tb.path(game.tier_of(position)),
            problem: format!(
                "stores {stored} for {} but its moves give {value}",
                game.write_position(position)
            ),
        });
    }
    if let Some(formula) = game.formula(position)
        && formula.mover_wins != matches!(value, Value::Win(_))
    {
        return Err(QueryError::WrongTable {
            path: tb.path(game.tier_of(position)),
            problem: format!(
                "gives {value} for {} but the formula says the mover {}",
                game.write_position(position),
                if formula.mover_wins { "wins" } else { "loses" }
            ),
        });
    }
    Ok(Probe {
        position: position.clone(),
        value,
        moves,
    })
}

/// Parses and probes a position given as text.
pub fn probe_text<G: Game>(tb: &Tablebase<G>, text: &str) -> Result<Probe<G>, QueryError> {
    let position = tb.game().parse_position(text)?;
    probe(tb, &position)
}

/// Adds a value's fields: `value` and `distance` for win/loss/draw games, `score`
/// for score games.
fn put_value(object: &mut Map<String, Json>, kind: ValueKind, value: Value) {
    match kind {
        ValueKind::WinLossDraw => {
            object.insert("value".into(), json!(value.outcome()));
            object.insert("distance".into(), json!(value.distance()));
        }
        ValueKind::Score => {
            let Value::Score(s) = value else {
                unreachable!("score game with value {value}")
            };
            object.insert("score".into(), json!(s));
        }
    }
}

impl<G: Game> Probe<G> {
    /// The JSON answer shared by `probe --json` and the HTTP API.
    pub fn to_json(&self, game: &G) -> Json {
        let kind = game.value_kind();
        let mut object = Map::new();
        object.insert("game".into(), json!(game.id()));
        let variant = game.variant();
        if !variant.is_empty() {
            object.insert("variant".into(), json!(variant));
        }
        object.insert(
            "position".into(),
            json!(game.write_position(&self.position)),
        );
        object.insert("source".into(), json!("table"));
        put_value(&mut object, kind, self.value);
        if let Some(moves) = game.distance_in_moves(self.value) {
            object.insert("dtm_moves".into(), json!(moves));
        }
        let moves: Vec<Json> = self
            .moves
            .iter()
            .map(|m| {
                let mut entry = Map::new();
                entry.insert("move".into(), json!(m.text));
                for (notation, text) in game.move_aliases(&self.position, &m.mv) {
                    entry.insert(notation.into(), json!(text));
                }
                entry.insert("position".into(), json!(game.write_position(&m.after)));
                put_value(&mut entry, kind, m.value);
                if let Some(moves) = game.distance_in_moves(m.value) {
                    entry.insert("dtm_moves".into(), json!(moves));
                }
                if kind == ValueKind::Score {
                    entry.insert("gain".into(), json!(m.gain));
                    entry.insert("moves_again".into(), json!(!m.turn_passes));
                } else if !m.turn_passes {
                    entry.insert("moves_again".into(), json!(true));
                }
                Json::Object(entry)
            })
            .collect();
        object.insert("moves".into(), Json::Array(moves));
        Json::Object(object)
    }

    /// The human-readable answer of `probe`.
    pub fn to_text(&self, game: &G) -> String {
        let mut out = format!("{} {}\n", game.id(), game.write_position(&self.position));
        out.push_str(&game.draw(&self.position));
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("value: {}\n", self.value));
        if self.moves.is_empty() {
            out.push_str("no moves: the game is over\n");
            return out;
        }
        out.push_str(&format!("{} moves, best first:\n", self.moves.len()));
        let width = self.moves.iter().map(|m| m.text.len()).max().unwrap_or(0);
        for m in &self.moves {
            let again = if m.turn_passes { "" } else { " (moves again)" };
            out.push_str(&format!(
                "  {:width$}  {:<12} -> {}{again}\n",
                m.text,
                m.value.to_string(),
                game.write_position(&m.after)
            ));
        }
        out
    }

    /// The moves that keep the position's value (all the perfect moves).
    pub fn best_moves(&self) -> impl Iterator<Item = &MoveValue<G>> {
        self.moves.iter().filter(move |m| m.value == self.value)
    }
}
