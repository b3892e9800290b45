//! The interface every game implements: rules, notation and a dense index per tier.

use crate::value::{Value, ValueKind};
use std::fmt::Debug;
use std::hash::Hash;

/// A position refused by a game: what is wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("unknown game '{id}'; known games: {known}")]
    UnknownGame { id: String, known: String },
    #[error("bad position '{text}': {reason}")]
    BadPosition { text: String, reason: String },
    #[error("bad move '{text}': {reason}")]
    BadMove { text: String, reason: String },
    #[error("bad variant '{text}': {reason}")]
    BadVariant { text: String, reason: String },
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
}

/// What a move leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child<P> {
    /// The position after the move, seen from whoever moves next.
    pub position: P,
    /// False when the mover moves again (dots-and-boxes after completing a box).
    pub turn_passes: bool,
    /// What the move itself scores for the mover (score games; 0 otherwise).
    pub gain: i16,
}

impl<P> Child<P> {
    /// An ordinary move: the turn passes and nothing is scored.
    pub fn passing(position: P) -> Self {
        Child {
            position,
            turn_passes: true,
            gain: 0,
        }
    }

    /// The value the mover gets by this move, given the value of the child.
    pub fn value_for_mover(&self, child_value: Value) -> Value {
        Value::through(child_value, self.turn_passes, self.gain)
    }
}

/// What a closed formula says about a position of any size (impartial games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula<M> {
    pub mover_wins: bool,
    /// The xor of the Grundy values of the position's parts.
    pub nim_sum: u64,
    /// Every winning move (none when the mover loses).
    pub winning_moves: Vec<M>,
}

/// A two-player game with perfect information, as the solvers and the query side
/// see it. Positions are stored from the point of view of the player to move.
///
/// Positions are split into tiers (one table file each); inside a tier, `index`
/// maps a position to `0..index_size(tier)` and `position_at` maps back. Symmetric
/// positions may share an index: `index` then folds them into one class.
pub trait Game: Send + Sync {
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    type Move: Clone + Eq + Debug + Send + Sync;

    /// The game's identifier on the command line and in file names, e.g. `euler`.
    fn id(&self) -> &'static str;

    /// Variant parameters as text, e.g. a board size; empty when there are none.
    fn variant(&self) -> String {
        String::new()
    }

    /// The command-line flags that select this variant, e.g. `--size 3x4`; empty
    /// when there are none.
    fn variant_flags(&self) -> String {
        String::new()
    }

    /// The tiers a user means by `name`: the tier of that name (chess: the
    /// material, with every material its captures lead to).
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

    /// For games with cycles whose tables run too deep for live search (chess): how
    /// many plies verification searches. None: the table's longest distance and a
    /// margin.
    fn search_plies(&self) -> Option<u16> {
        None
    }

    /// The `tbgen` arguments after the game's name that generate `tier`'s table
    /// (chess: the material); by default the variant's flags.
    fn generate_args(&self, _tier: u32) -> String {
        self.variant_flags()
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

    fn tier_of(&self, _position: &Self::Position) -> u32 {
        0
    }

    /// The number of index slots in a tier.
    fn index_size(&self, tier: u32) -> u64;

    /// The slot of a position inside its tier.
    fn index(&self, position: &Self::Position) -> u64;

    /// The position stored at a slot (the class representative where symmetries
    /// are folded), or `None` when the slot holds no legal position.
    fn position_at(&self, tier: u32, index: u64) -> Option<Self::Position>;

    /// How many positions the slot stands for: more than 1 where symmetric
    /// positions are folded into one slot.
    fn class_size(&self, _tier: u32, _index: u64) -> u64 {
        1
    }

    /// Whether play can return to a position (solved by retrograde analysis, and
    /// checked by depth-bounded search rather than plain negamax).
    fn has_cycles(&self) -> bool {
        false
    }

    /// Whether the tables hold `position`: games answered by a formula accept
    /// positions of any size, and the tables cover only the small ones.
    fn covered(&self, _position: &Self::Position) -> bool {
        true
    }

    /// Why the tables do not hold a position that `covered` refuses.
    fn beyond_tables(&self, _position: &Self::Position) -> String {
        "beyond the tables".to_string()
    }

    /// The key live search remembers a position by: the position itself, or a
    /// simple canonical form where parts are interchangeable (heaps, columns), so
    /// that search does not repeat itself for every ordering.
    fn search_key(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// The closed formula's answer, for games that have one.
    fn formula(&self, _position: &Self::Position) -> Option<Formula<Self::Move>> {
        None
    }

    /// The position a game starts from, where there is one.
    fn start(&self) -> Option<Self::Position> {
        None
    }

    /// Every legal move, in a fixed order.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// Makes a legal move.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Child<Self::Position>;

    /// The value of a position where the game is over, `None` while it goes on.
    fn end_value(&self, position: &Self::Position) -> Option<Value>;

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
            .ok_or_else(|| {
                let legal: Vec<String> =
                    moves.iter().map(|m| self.write_move(position, m)).collect();
                let hint = if legal.is_empty() {
                    "there is no legal move here".to_string()
                } else {
                    format!("not a legal move here; legal moves: {}", legal.join(" "))
                };
                GameError::bad_move(text, hint)
            })
    }

    /// A board drawing for people, several lines; defaults to the notation.
    fn draw(&self, position: &Self::Position) -> String {
        self.write_position(position)
    }

    /// Other names of a move for machine use, as (notation, text): chess gives
    /// `("uci", "e2e4")` beside its SAN.
    fn move_aliases(
        &self,
        _position: &Self::Position,
        _mv: &Self::Move,
    ) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// A win or loss counted in moves the way players of this game count them
    /// (chess: the winner's moves to mate), where that differs from plies.
    fn distance_in_moves(&self, _value: Value) -> Option<u16> {
        None
    }

    /// The places (dots-and-boxes: boxes) that `mv` scores, for games where a
    /// player owns what they score; empty by default.
    fn scored_places(&self, _position: &Self::Position, _mv: &Self::Move) -> Vec<usize> {
        Vec::new()
    }

    /// The board drawn with `owner(place)` marked in each scored place; defaults
    /// to `draw`.
    fn draw_owned(&self, position: &Self::Position, _owner: &dyn Fn(usize) -> char) -> String {
        self.draw(position)
    }
}

/// A game whose moves always lead to a strictly higher layer (Euler: covered cells),
/// so it can be solved layer by layer from the last one, each layer in parallel.
pub trait Layered: Game {
    /// The number of layers; layers are `0..layers()`.
    fn layers(&self, tier: u32) -> u32;

    /// The layer of the position at an index slot.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32;
}

/// A game whose predecessors can be generated by un-moves, so retrograde analysis
/// needs no stored reverse graph (chess: memory per position stays a few bytes).
pub trait Retract: Game {
    /// Calls `visit` with the slot of every stored position of `tier` that has a
    /// move to `position` (a position of `tier`), once per such move. Moves into
    /// the tier from other tiers are not included.
    fn predecessors(&self, tier: u32, position: &Self::Position, visit: &mut dyn FnMut(u64));
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
