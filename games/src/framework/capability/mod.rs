//! What only some games have, each a small trait of its own: a closed formula,
//! exact values on demand, a board drawing, other names for moves, distances in
//! other units, the whole-game verdict of a score game, and what the solvers and
//! checks need (layer order, un-moves, header notes, a reference solver). A game's
//! registry entry says which it has ([`Capabilities`]); tools never ask a game
//! for a capability it does not list.
//!
//! The traits are grouped by who uses them: [`answering`] (the oracle),
//! [`showing`] (the text, page and API renderers) and [`solving`] (the solvers
//! and checks); all are re-exported here.

pub mod answering;
pub mod showing;
pub mod solving;

pub use answering::{ClosedForm, Exact, Formula, WholeGame};
pub use showing::{
    Clicks, Clock, Counts, DistanceUnits, Drawing, Editing, Marks, MoveAliases, Outcome, Picture,
    Record, Side, Tool, Verdict, Wording, one_step,
};
pub use solving::{Layered, Reference, Retract, Sampler, TableNotes};

use crate::game::Game;

/// How a game's tables are made.
pub enum Solver<'a, G: Game> {
    /// Level-by-level dynamic programming (acyclic games).
    Layered(&'a dyn Layered<G>),
    /// Retrograde analysis over a reverse graph built from the moves.
    Retrograde,
    /// Retrograde analysis by un-moves, tier by tier, each reading the tiers its
    /// moves leave to.
    Retracting(&'a dyn Retract<G>),
    /// A solver of the generator's own for this game, which the generator
    /// finds by the game's id.
    Dedicated,
    /// The game keeps no tables.
    None,
}

/// What `tbquery verify` checks.
pub enum Check<'a, G: Game> {
    /// Sampled slots against live search that reads no table: exact negamax
    /// (acyclic win/loss games), alpha-beta (acyclic score games), or proofs of
    /// wins and losses within a bound (games with cycles).
    LiveSearch,
    /// Sampled slots against mate search to this many plies (games with cycles
    /// too deep for bounded search).
    MateSearch { plies: u16 },
    /// Sampled slots against mate search to this many plies, for tables whose
    /// distances count plies to something that comes no later than the end
    /// (chess DTZ: the next capture or pawn move): a mate found within `n`
    /// plies must be stored as a win or loss in at most `n`, and a stored draw
    /// must have none.
    MateBound { plies: u16 },
    /// Every slot recomputed from its moves and the stored values after them.
    Consistency,
    /// Every slot against the closed formula.
    Formula,
    /// Every slot against a solver written apart.
    Reference(&'a dyn Reference<G>),
    /// Sampled positions: the exact values on demand against alpha-beta search.
    ExactAgainstSearch(&'a dyn Sampler<G>),
}

/// Everything a game offers beyond the [`Game`] trait.
pub struct Capabilities<'a, G: Game> {
    pub solver: Solver<'a, G>,
    pub checks: Vec<Check<'a, G>>,
    pub formula: Option<&'a dyn ClosedForm<G>>,
    pub exact: Option<&'a dyn Exact<G>>,
    pub drawing: Option<&'a dyn Drawing<G>>,
    pub aliases: Option<&'a dyn MoveAliases<G>>,
    pub units: Option<&'a dyn DistanceUnits>,
    pub whole_game: Option<&'a dyn WholeGame<G>>,
    pub notes: Option<&'a dyn TableNotes<G>>,
    pub picture: Option<&'a dyn Picture<G>>,
    pub wording: Option<&'a dyn Wording<G>>,
    pub record: Option<&'a dyn Record<G>>,
    pub editing: Option<&'a dyn Editing<G>>,
    /// A count the position's text carries that decides what a value comes to
    /// (chess: the halfmove clock of the 50-move rule).
    pub clock: Option<&'a dyn Clock<G>>,
}

impl<'a, G: Game> Capabilities<'a, G> {
    /// A game solved by `solver` and checked by `checks`, with nothing more.
    pub fn new(solver: Solver<'a, G>, checks: Vec<Check<'a, G>>) -> Self {
        Capabilities {
            solver,
            checks,
            formula: None,
            exact: None,
            drawing: None,
            aliases: None,
            units: None,
            whole_game: None,
            notes: None,
            picture: None,
            wording: None,
            record: None,
            editing: None,
            clock: None,
        }
    }
}

impl<G: Game> std::fmt::Debug for Solver<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Solver::Layered(_) => f.write_str("Layered"),
            Solver::Retrograde => f.write_str("Retrograde"),
            Solver::Retracting(_) => f.write_str("Retracting"),
            Solver::Dedicated => f.write_str("Dedicated"),
            Solver::None => f.write_str("None"),
        }
    }
}

impl<G: Game> std::fmt::Debug for Check<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Check::LiveSearch => f.write_str("LiveSearch"),
            Check::MateSearch { plies } => write!(f, "MateSearch({plies})"),
            Check::MateBound { plies } => write!(f, "MateBound({plies})"),
            Check::Consistency => f.write_str("Consistency"),
            Check::Formula => f.write_str("Formula"),
            Check::Reference(r) => write!(f, "Reference({})", r.name()),
            Check::ExactAgainstSearch(_) => f.write_str("ExactAgainstSearch"),
        }
    }
}

impl<G: Game> std::fmt::Debug for Capabilities<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capabilities")
            .field("solver", &self.solver)
            .field("checks", &self.checks)
            .field("formula", &self.formula.is_some())
            .field("exact", &self.exact.is_some())
            .field("drawing", &self.drawing.is_some())
            .field("aliases", &self.aliases.is_some())
            .field("units", &self.units.is_some())
            .field("whole_game", &self.whole_game.is_some())
            .field("notes", &self.notes.is_some())
            .field("picture", &self.picture.is_some())
            .field("wording", &self.wording.is_some())
            .field("record", &self.record.is_some())
            .field("editing", &self.editing.is_some())
            .field("clock", &self.clock.is_some())
            .finish_non_exhaustive()
    }
}
