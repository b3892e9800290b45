//! The interface every game implements: rules, notation and a dense index per tier.
//! What only some games have (a formula, a board drawing, un-moves ...) lives in
//! the capability traits of [`crate::capability`], reached through the registry.

use crate::value::{Value, ValueKind};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;
use tables::Spelling;

/// A position, move, option or game refused: what is wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("unknown game '{}'{}; known games: {known}", shown(id), similar.as_ref().map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default())]
    UnknownGame {
        id: String,
        /// The known game most like `id`, if one is close.
        similar: Option<String>,
        known: String,
    },
    #[error("bad position '{}': {reason}", shown(text))]
    BadPosition { text: String, reason: String },
    #[error("bad move '{}': {reason}", shown(text))]
    BadMove { text: String, reason: String },
    #[error("bad variant '{}': {reason}", shown(text))]
    BadVariant { text: String, reason: String },
    #[error("'{}' is beyond the tables: {reason}", shown(text))]
    BeyondTables { text: String, reason: String },
    #[error("bad {option} '{}': {reason}", shown(value))]
    BadOption {
        option: String,
        value: String,
        reason: String,
    },
}

/// The most characters of an input an error message repeats.
const SHOWN: usize = 200;

/// `text` as an error message repeats it: whole up to [`SHOWN`] characters,
/// else its start and its length, so that a huge input never makes a huge
/// message.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(SHOWN) {
        None => text.into(),
        Some((end, _)) => format!("{}... ({} bytes)", &text[..end], text.len()).into(),
    }
}

impl GameError {
    pub fn position(text: &str, reason: impl Into<String>) -> Self {
        GameError::BadPosition {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
    pub fn bad_move(text: &str, reason: impl Into<String>) -> Self {
        GameError::BadMove {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
    pub fn variant(text: &str, reason: impl Into<String>) -> Self {
        GameError::BadVariant {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
    pub fn beyond_tables(text: &str, reason: impl Into<String>) -> Self {
        GameError::BeyondTables {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
    pub fn option(option: &str, value: &str, reason: impl Into<String>) -> Self {
        GameError::BadOption {
            option: option.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}

/// What a move leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child<P> {
    /// The position after the move, seen from whoever moves next.
    pub position: P,
    /// False when the mover moves again (dots-and-boxes after completing a box).
    pub turn_passes: bool,
    /// What the move itself scores for the mover (score games; 0 otherwise).
    pub gain: i64,
    /// Where the move restarts a count of plies that may run to a limit, the
    /// limit (chess under the 50-move rule: a capture or a pawn move, 100
    /// plies); the child then counts only by its outcome within it.
    pub reset: Option<u16>,
}

impl<P> Child<P> {
    /// An ordinary move: the turn passes, nothing is scored, no count restarts.
    pub fn passing(position: P) -> Self {
        Child {
            position,
            turn_passes: true,
            gain: 0,
            reset: None,
        }
    }

    /// The value the mover gets by this move, given the value of the child.
    pub fn value_for_mover(&self, child_value: Value) -> Value {
        let child_value = match self.reset {
            Some(limit) => child_value.restarted(limit),
            None => child_value,
        };
        Value::through(child_value, self.turn_passes, self.gain)
    }
}

/// A two-player game with perfect information, as the solvers and the query side
/// see it. Positions are stored from the point of view of the player to move.
///
/// Positions are split into tiers (one table file each); inside a tier, `index`
/// maps a position to `0..index_size(tier)` and `position_at` maps back. Symmetric
/// positions may share an index: `index` then folds them into one class.
pub trait Game: Send + Sync + 'static {
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    type Move: Clone + Eq + Debug + Send + Sync;

    /// The game's identifier on the command line and in file names, e.g. `euler`.
    fn id(&self) -> &'static str;

    /// The variant as it appears in file names and table headers, e.g. a board
    /// size; empty when the game has one variant only.
    fn variant(&self) -> String {
        String::new()
    }

    fn value_kind(&self) -> ValueKind;

    /// Every tier, in an order where a move only leads into the same tier or an
    /// earlier one.
    fn tiers(&self) -> Vec<u32> {
        vec![0]
    }

    /// The tier's name in file names and reports (empty for single-tier games).
    fn tier_name(&self, _tier: u32) -> String {
        String::new()
    }

    /// The heading a tier's table is listed under where a game has many
    /// (chess: `4 pieces`); by default they are listed together.
    fn tier_group(&self, _tier: u32) -> Option<String> {
        None
    }

    /// The tiers a user means by `name`: the tier of that name, with every tier
    /// its moves lead to where those have names of their own (chess: a material
    /// with every material its captures lead to).
    fn named_tiers(&self, name: &str) -> Result<Vec<u32>, GameError> {
        let tiers = self.tiers();
        tiers
            .iter()
            .find(|&&t| self.tier_name(t) == name)
            .map(|&t| vec![t])
            .ok_or_else(|| {
                let names: Vec<String> = tiers.iter().map(|&t| self.tier_name(t)).collect();
                GameError::variant(
                    name,
                    format!(
                        "{} has no table of that name; it has {}",
                        self.id(),
                        names.join(", ")
                    ),
                )
            })
    }

    fn tier_of(&self, _position: &Self::Position) -> u32 {
        0
    }

    /// The number of index slots in a tier.
    fn index_size(&self, tier: u32) -> u64;

    /// The slot of a position inside its tier (the position must be covered).
    fn index(&self, position: &Self::Position) -> u64;

    /// The tier and the slot of a covered position at once: where finding one
    /// finds most of the other (a chess position's material), a game says so
    /// here.
    fn locate(&self, position: &Self::Position) -> (u32, u64) {
        (self.tier_of(position), self.index(position))
    }

    /// The position stored at a slot (the class representative where symmetries
    /// are folded), or `None` when the slot holds no legal position.
    fn position_at(&self, tier: u32, index: u64) -> Option<Self::Position>;

    /// How many positions the slot stands for: more than 1 where symmetric
    /// positions are folded into one slot.
    fn class_size(&self, _tier: u32, _index: u64) -> u64 {
        1
    }

    /// How many lanes a table keeps the tier's slots in (slot `i` in lane
    /// `i % lanes`, the lanes apart): a game whose index varies a small field
    /// fastest, as chess does the side to move, stores the values of each
    /// setting of that field together, which compresses better.
    fn slot_lanes(&self, _tier: u32) -> u32 {
        1
    }

    /// The fields a lane's entry is spelled in, as the radices of a
    /// mixed-radix number, the slowest first (their product the lane's
    /// length: the tier's slots over [`Game::slot_lanes`], which must divide
    /// them): a table may store them in another order, the one that
    /// compresses best. Empty (the default): the entry is stored as it is.
    fn slot_digits(&self, _tier: u32) -> Vec<u64> {
        Vec::new()
    }

    /// Whether every move from a slot of one lane of `tier` (see
    /// [`Game::slot_lanes`]) leads to a slot of another lane or out of the
    /// tier, so that a table may leave a lane and a reader value its
    /// positions by a search of their moves (chess: the side to move, where
    /// the colours are not folded into one lane). False (the default): a
    /// table stores every lane.
    fn lanes_alternate(&self, _tier: u32) -> bool {
        false
    }

    /// An order of the game's own to store `tier`'s table in, where it has
    /// one ([`tables::Spelling`]), and its name: the game tries orders and
    /// keeps the one `weigh` (the compressed bytes of a sample of the blocks
    /// it would store) finds smallest; a table that leaves lane `left`
    /// gives its slots no place. None (the default): the table stores its
    /// slots by their fields ([`Game::slot_digits`]).
    fn spell_table(
        &self,
        _tier: u32,
        _left: Option<u32>,
        _weigh: &dyn Fn(Arc<dyn Spelling>) -> u64,
    ) -> Option<(String, Arc<dyn Spelling>)> {
        None
    }

    /// The order [`Game::spell_table`] named `name` for `tier`'s table, as a
    /// reader of that table needs it.
    fn table_spelling(&self, _tier: u32, name: &str) -> Result<Arc<dyn Spelling>, String> {
        Err(format!(
            "{} stores no table in an order named {name}",
            self.id()
        ))
    }

    /// Whether [`Game::position_at`] tells every slot that holds no position,
    /// so that its tables need not: they store whatever compresses best there,
    /// and a reader asks the game which slots are empty.
    fn derives_empty_slots(&self) -> bool {
        false
    }

    /// Another variant of this game, of the same tiers and index, whose tables
    /// hold `value` at every slot this variant's do: a table made beside that
    /// variant's leaves those slots to it (chess under DTZ names DTM's draws,
    /// since a position drawn without the 50-move rule is drawn with it).
    fn shares_value(&self) -> Option<(String, Value)> {
        None
    }

    /// Whether the tables hold `position`, and if not, why: games answered by a
    /// formula accept positions of any size, and the tables cover the small ones.
    fn coverage(&self, _position: &Self::Position) -> Result<(), String> {
        Ok(())
    }

    /// Whether the tables hold `position` as it stands. One they do not (a chess
    /// position whose side to move may capture en passant) is valued from its
    /// moves, whose positions they hold.
    fn stored(&self, _position: &Self::Position) -> bool {
        true
    }

    /// Whether play can return to a position (solved by retrograde analysis, and
    /// checked by depth-bounded search rather than plain negamax).
    fn has_cycles(&self) -> bool {
        false
    }

    /// The position a game starts from (for games without one, an example).
    fn start(&self) -> Self::Position;

    /// Every legal move, in a fixed order.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// Makes a legal move.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Child<Self::Position>;

    /// The positions after every legal move out of the position's tier (chess:
    /// a capture or a promotion), in a fixed order; none where the game is
    /// over. The default plays every move and keeps those whose position lies
    /// in another tier; a game may find them faster.
    fn exits(&self, position: &Self::Position) -> Vec<Child<Self::Position>> {
        if self.end_value(position).is_some() {
            return Vec::new();
        }
        let tier = self.tier_of(position);
        self.moves(position)
            .iter()
            .map(|mv| self.play(position, mv))
            .filter(|child| self.tier_of(&child.position) != tier)
            .collect()
    }

    /// The value of a position where the game is over, `None` while it goes on.
    fn end_value(&self, position: &Self::Position) -> Option<Value>;

    /// Why the game is over at `position`, in words for people: `checkmate`.
    fn why_over(&self, _position: &Self::Position) -> String {
        "no move is left".into()
    }

    /// The key live search remembers a position by: the position itself, or a
    /// simple canonical form where parts are interchangeable (heaps, columns), so
    /// that search does not repeat itself for every ordering.
    fn search_key(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    fn parse_position(&self, text: &str) -> Result<Self::Position, GameError>;

    fn write_position(&self, position: &Self::Position) -> String;

    fn write_move(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// Reads a move in this game's notation, accepting only legal moves.
    fn parse_move(&self, position: &Self::Position, text: &str) -> Result<Self::Move, GameError> {
        let wanted = text.trim().to_ascii_lowercase();
        let moves = self.moves(position);
        moves
            .iter()
            .find(|m| self.write_move(position, m).to_ascii_lowercase() == wanted)
            .cloned()
            .ok_or_else(|| illegal_move(self, position, &moves, text))
    }
}

/// The refusal of a move that is not legal here, listing the legal ones (the
/// first 40 where there are more).
pub fn illegal_move<G: Game + ?Sized>(
    game: &G,
    position: &G::Position,
    moves: &[G::Move],
    text: &str,
) -> GameError {
    const SHOWN: usize = 40;
    if moves.is_empty() {
        return GameError::bad_move(text, "there is no legal move here");
    }
    let legal: Vec<String> = moves
        .iter()
        .take(SHOWN)
        .map(|m| game.write_move(position, m))
        .collect();
    let more = match moves.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    GameError::bad_move(
        text,
        format!(
            "not a legal move here; legal moves: {}{more}",
            legal.join(" ")
        ),
    )
}

/// The word a user may type for a game's start position: `tbquery probe euler start`.
pub const START: &str = "start";

/// Reads a position, accepting `start` for the game's start position.
pub fn read_position<G: Game + ?Sized>(game: &G, text: &str) -> Result<G::Position, GameError> {
    if text.trim() == START {
        Ok(game.start())
    } else {
        game.parse_position(text)
    }
}

/// The value of a position given the values of the positions its moves lead to:
/// the end value where the game is over, otherwise the best over every move.
///
/// Panics if a position has neither a move nor an end value: that is a rules bug.
pub fn value_from_children<G: Game + ?Sized>(
    game: &G,
    position: &G::Position,
    mut child_value: impl FnMut(&G::Position) -> Value,
) -> Value {
    if let Some(v) = game.end_value(position) {
        return v;
    }
    game.moves(position)
        .iter()
        .map(|mv| {
            let child = game.play(position, mv);
            child.value_for_mover(child_value(&child.position))
        })
        .reduce(Value::best)
        .unwrap_or_else(|| {
            panic!(
                "{}: position {position:?} has no move and no end value",
                game.id()
            )
        })
}

/// The best value for the mover among the moves out of the position's tier
/// ([`Game::exits`]), each valued by `child_value`; none without such a move.
pub fn value_of_exits<G: Game + ?Sized, E>(
    game: &G,
    position: &G::Position,
    mut child_value: impl FnMut(&G::Position) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    let mut best: Option<Value> = None;
    for child in game.exits(position) {
        let value = child.value_for_mover(child_value(&child.position)?);
        best = Some(best.map_or(value, |b| b.best(value)));
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_repeats_a_huge_input_by_its_start() {
        let huge = "1 ".repeat(1 << 20);
        let said = GameError::beyond_tables(&huge, "too many to list").to_string();
        assert!(said.len() < 300, "{} bytes", said.len());
        assert!(
            said.contains("... (2097152 bytes)' is beyond the tables"),
            "{said}"
        );
        let small = GameError::position("3 4 5", "no such heap").to_string();
        assert_eq!(small, "bad position '3 4 5': no such heap");
    }
}
