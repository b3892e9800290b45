//! Every answer `tbquery` gives, as types: the text output, `--json`, the HTTP API
//! and the web page all render these. The README's "JSON answers" section is their
//! schema.

use games::Value;
use serde::{Deserialize, Serialize};

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Looked up in the game's tables.
    Table,
    /// Computed by the game's closed formula or exact on-demand solver.
    Formula,
    /// Found by search beyond the tables (play only): not proven exact.
    Search,
}

/// Who wins with perfect play, for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// A value as answers give it: an outcome with its distance, or a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Valuation {
    /// Score games: the best net score the mover can still secure.
    Score { score: i64 },
    /// Win/loss/draw games: `distance` is in plies, `null` for a draw and where a
    /// formula knows who wins but not how fast.
    Outcome {
        value: Outcome,
        distance: Option<u16>,
    },
}

impl Valuation {
    pub fn of(value: Value) -> Valuation {
        let outcome = |value, distance| Valuation::Outcome { value, distance };
        match value {
            Value::Win(n) => outcome(Outcome::Win, Some(n)),
            Value::Loss(n) => outcome(Outcome::Loss, Some(n)),
            Value::Draw => outcome(Outcome::Draw, None),
            Value::Score(score) => Valuation::Score { score },
        }
    }

    /// A formula's verdict: who wins, no distance.
    pub fn verdict(mover_wins: bool) -> Valuation {
        Valuation::Outcome {
            value: if mover_wins {
                Outcome::Win
            } else {
                Outcome::Loss
            },
            distance: None,
        }
    }

    /// The exact value, where the answer carries one.
    pub fn value(self) -> Option<Value> {
        match self {
            Valuation::Score { score } => Some(Value::Score(score)),
            Valuation::Outcome {
                value: Outcome::Draw,
                ..
            } => Some(Value::Draw),
            Valuation::Outcome {
                value: Outcome::Win,
                distance: Some(n),
            } => Some(Value::Win(n)),
            Valuation::Outcome {
                value: Outcome::Loss,
                distance: Some(n),
            } => Some(Value::Loss(n)),
            Valuation::Outcome { distance: None, .. } => None,
        }
    }
}

/// One legal move and what it is worth to the player making it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAnswer {
    #[serde(rename = "move")]
    pub mv: String,
    /// The move in UCI, for games that name moves that way too (chess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
    /// The position after the move, from the next mover's side.
    pub position: String,
    /// The value for the player making the move, counted from the probed position.
    #[serde(flatten)]
    pub value: Valuation,
    /// The distance in the game's own unit (chess: moves to mate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtm_moves: Option<u16>,
    /// What the move itself scores (score games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gain: Option<i64>,
    /// Whether the player keeps the turn (dots-and-boxes after a box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_again: Option<bool>,
}

/// Who wins a whole score game, given what each side has already taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WholeGame {
    /// Taken so far by the mover and the opponent.
    pub captured: [u64; 2],
    /// The totals under perfect play (endless play shares what is left evenly,
    /// so a total may end in a half).
    #[serde(rename = "final")]
    pub totals: [f64; 2],
    /// `mover`, `opponent` or `draw`.
    pub winner: String,
}

/// A position's value and every move with its value, best first; or, where a
/// formula answers, who wins and every winning move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionAnswer {
    pub game: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    pub position: String,
    pub source: Source,
    /// Why the tables did not answer (formula answers of games with tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(flatten)]
    pub value: Valuation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtm_moves: Option<u16>,
    /// Formula answers: the xor of the parts' Grundy values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nim_sum: Option<u64>,
    /// Formula answers of heap games: each heap's Grundy value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap_values: Option<Vec<u64>>,
    /// Formula answers: every winning move (empty when the mover loses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_moves: Option<Vec<String>>,
    /// Every legal move, best first (not in formula answers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveAnswer>>,
    /// With `--captured`: who wins the whole game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_game: Option<WholeGame>,
}

/// A position or request that could not be answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorAnswer {
    pub position: String,
    pub error: String,
}

/// One option of a game, as `tbquery games` and `/api/v1/games` list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionInfo {
    pub name: String,
    pub help: String,
    /// The values it takes, e.g. `1 to 24` or `default | thesis`.
    pub values: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// A table file a game reads, and whether it is in the folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableStatus {
    pub tier: String,
    pub file: String,
    pub present: bool,
}

/// A game, as `tbquery games` and `/api/v1/games` list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    pub game: String,
    pub about: String,
    /// How positions and moves are written.
    pub notation: String,
    /// The variant listed (the default one).
    #[serde(default)]
    pub variant: String,
    /// The value encoding: `wld16` (win/loss/draw) or `score16`.
    pub value: String,
    /// The start position (`start` in a query means it).
    pub start: String,
    pub options: Vec<OptionInfo>,
    /// The tables of the default variant (none for games that keep none).
    pub tables: Vec<TableStatus>,
}

/// Every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameList {
    pub games: Vec<GameInfo>,
}
