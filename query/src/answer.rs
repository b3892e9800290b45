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
    Score {
        #[serde(with = "crate::exact::signed")]
        score: i64,
    },
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
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::exact::optional"
    )]
    pub nim_sum: Option<u64>,
    /// Formula answers of heap games: each heap's Grundy value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::exact::optional::list"
    )]
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

/// The position after an editor's tool was used (`/api/v1/{game}/edit`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditAnswer {
    pub position: String,
}

/// The computer's move (`/api/v1/{game}/computer`): the move made, and why it
/// was chosen, in words.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComputerAnswer {
    #[serde(rename = "move")]
    pub mv: MoveView,
    pub note: String,
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
    /// For an option that is one of a few words, the words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Whether it chooses what the values count (chess: `metric`), each
    /// choice with tables of its own for the same positions.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub measure: bool,
}

/// A table file a game reads, and whether it is in the folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableStatus {
    pub tier: String,
    pub file: String,
    pub present: bool,
    /// The heading the table is listed under, where the game groups its many
    /// tables (chess: `4 pieces`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
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
    /// How many of the game's table files are in the folder, of every
    /// variant (dots-and-boxes' sizes, chess's DTZ beside its DTM).
    #[serde(default)]
    pub made: usize,
    /// The position editor's tools; none where positions are edited as text only.
    #[serde(default)]
    pub tools: Vec<ToolInfo>,
    /// The record format lines can be given in (chess: `pgn`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// Whether the computer searches beyond the tables (Abapa): the computer
    /// call then takes `algorithm` and `depth`.
    #[serde(default)]
    pub search: bool,
    /// Whether its board can be seen from the other side (`flip=yes`).
    #[serde(default)]
    pub flips: bool,
}

/// A tool of the position editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub id: String,
    pub label: String,
    /// Used on a place of the board; otherwise on the whole position.
    pub on_board: bool,
    /// Its picture (SVG) for the palette, where the game draws one (chess:
    /// the piece it puts down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
}

/// That the server answers (`/health`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Health {
    /// Always `ok`: an answer at all is the news.
    pub status: &'static str,
}

/// Every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameList {
    pub games: Vec<GameInfo>,
}

/// One legal move as the page shows and makes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveView {
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after the move, from the next mover's side.
    pub position: String,
    /// The ways to make the move by clicking: steps of places (see `Picture`).
    pub places: Vec<Vec<Vec<String>>>,
    /// The places to mark as the last move on the board it leads to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub landed: Vec<String>,
    /// The places the move scores (dots-and-boxes boxes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scored: Vec<String>,
    /// What the move itself scores (score games).
    #[serde(default)]
    pub gain: i64,
    /// Whether the mover moves again.
    #[serde(default)]
    pub moves_again: bool,
    /// The move's value for its player in words, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// What that value comes to under the game's clock (chess: DTZ with the
    /// halfmove clock), where the game counts it so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictView>,
}

/// A value under a rule that counts moves (chess: the 50-move rule).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictView {
    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`, for the player
    /// to move, as the lichess tablebase names them.
    pub outcome: String,
    pub said: String,
}

impl From<games::capability::Verdict> for VerdictView {
    fn from(verdict: games::capability::Verdict) -> Self {
        VerdictView {
            outcome: verdict.outcome.name().to_string(),
            said: verdict.said,
        }
    }
}

/// The count a position's text carries beside the position (chess: the
/// halfmove clock), which the page's editor sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    pub name: String,
    pub count: u16,
    /// The most the editor sets it to.
    pub most: u16,
}

/// A position valued in another measure of the same game (chess: DTZ beside
/// DTM), from that measure's tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Beside {
    /// The option and the value that choose the measure: `metric`, `dtz`.
    pub option: String,
    pub value: String,
    /// The position's value in that measure, in the game's words.
    pub said: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictView>,
    /// Every move valued in that measure, best first in it.
    pub moves: Vec<BesideMove>,
}

/// A move valued in another measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BesideMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub said: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictView>,
}

/// Everything the page shows of a position: the board, the answer (or why there
/// is none), the value in words, and every move it can make by clicking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub game: String,
    pub position: String,
    /// The board as an SVG document.
    pub board: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<PositionAnswer>,
    /// Why the position has no answer (an illegal position while editing, a
    /// table missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The value for the player to move in the game's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// What the value comes to under the game's clock, where it counts so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictView>,
    /// The count the position carries, for games with a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// Whether the game is over here.
    pub over: bool,
    /// The names of the side to move and of the other, where the game's sides
    /// have names (chess: `["Black", "White"]` with Black to move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<[String; 2]>,
    pub moves: Vec<MoveView>,
    /// The position in the game's other measures, where their tables are
    /// present.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beside: Vec<Beside>,
    /// Whether the text is no position of the game (a board being edited):
    /// the server answers such a view with 400, as every route answers a bad
    /// position, its body still the board as far as it can be drawn.
    #[serde(skip)]
    pub refused: bool,
}

/// One ply of a line of perfect play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineStep {
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after the move.
    pub position: String,
    /// The move's value for the player making it.
    #[serde(flatten)]
    pub value: Valuation,
}

/// The line of perfect play from a position to the end of the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineAnswer {
    pub game: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    pub position: String,
    pub line: Vec<LineStep>,
    /// Why the line stops: the game is over, a position repeats, or the bound.
    pub end: String,
}

/// One table's figures: counts, the longest distance, and how many positions
/// hold each value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableStats {
    pub tier: String,
    pub file: String,
    pub present: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<crate::info::TableSummary>,
    /// `(value, positions)`: `win 3`, `loss 0`, `draw`, or a score `+2`.
    #[serde(default)]
    pub histogram: Vec<(String, u64)>,
    /// Why a table in the folder could not be read (damaged, another
    /// table's): the other tables are answered all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The other tables its moves lead to, which making it needs and its
    /// answers read (chess: the endings its captures and promotions reach).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
}

/// A game's tables and their figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsAnswer {
    pub game: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    pub tables: Vec<TableStats>,
}

/// One ply of a game played, as `play --transcript` writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyRecord {
    /// From 1.
    pub ply: u32,
    /// `first` or `second`.
    pub player: String,
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after the move.
    pub position: String,
    /// The move's value for the player making it, where known exactly.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Valuation>,
}

/// How a game played ended, the last line of `play --transcript`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// `first`, `second`, `draw`, or `abandoned` where a person quit.
    pub result: String,
    pub plies: u32,
    /// Why the game ended, in words.
    pub reason: String,
    /// Score games: what the first and the second player took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[i64; 2]>,
    /// What was left on the board and shared evenly when play went round for ever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<u64>,
}
