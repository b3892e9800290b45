//! What only some games have, each a small trait of its own: a closed formula,
//! exact values on demand, a board drawing, other names for moves, distances in
//! other units, the whole-game verdict of a score game, and what the solvers and
//! checks need (layer order, un-moves, header notes, a reference solver). A game's
//! registry entry says which it has ([`Capabilities`]); tools never ask a game
//! for a capability it does not list.

use crate::game::{Game, GameError};
use crate::value::Value;

/// What a closed formula says about a position of any size (impartial games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula<M> {
    pub mover_wins: bool,
    /// The xor of the Grundy values of the position's parts; `None` where the
    /// formula is not one of Grundy values (Wythoff's pairs, Fibonacci Nim).
    pub nim_sum: Option<u64>,
    /// The Grundy value of each part, where parts have values of their own
    /// (heap games by Grundy values); `None` where the formula needs no such list.
    pub part_values: Option<Vec<u64>>,
    /// Every winning move (none when the mover loses).
    pub winning_moves: Vec<M>,
}

impl<M> Formula<M> {
    /// A formula that knows the winning moves and no Grundy values: the mover
    /// wins exactly when there is one (Wythoff's game, End-Nim).
    pub fn by_winning_moves(winning_moves: Vec<M>) -> Self {
        Formula {
            mover_wins: !winning_moves.is_empty(),
            nim_sum: None,
            part_values: None,
            winning_moves,
        }
    }
}

/// A closed formula: who wins a position of any size, and every winning move;
/// and a measure of the play left, so that the computer can play from the
/// formula alone: the winner takes the winning move that leaves the least, the
/// loser the move that leaves the most (it holds out as long as the measure can
/// tell).
pub trait ClosedForm<G: Game>: Sync {
    /// The formula's answer, or why the formula cannot answer this position.
    fn formula(&self, position: &G::Position) -> Result<Formula<G::Move>, GameError>;

    /// What the measure counts, in words: `stones left`.
    fn measure(&self) -> &'static str;

    /// The play left in `position` by the measure.
    fn left(&self, position: &G::Position) -> u64;

    /// The move that leaves the most by the measure, for games with too many
    /// moves to list (Nim heaps of any size); `None`: every move is compared.
    fn longest_move(&self, _position: &G::Position) -> Option<G::Move> {
        None
    }
}

/// Exact values computed on demand for any position (pick from the ends: dynamic
/// programming over the numbers left), for games that keep no tables.
pub trait Exact<G: Game>: Sync {
    fn value(&self, position: &G::Position) -> Value;
}

/// Whose side a board is seen from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player to move.
    Mover,
    /// The other player, waiting.
    Opponent,
}

/// A board drawn as text, for the terminal.
pub trait Drawing<G: Game>: Sync {
    /// Several lines, from the mover's side.
    fn draw(&self, position: &G::Position) -> String;

    /// The board as `side` sees it, scored places marked by `owner` (a person
    /// playing the second player keeps seeing their own pits at the bottom);
    /// by default as [`Drawing::draw_owned`] draws it, for boards that look the
    /// same from either side.
    fn draw_from(
        &self,
        position: &G::Position,
        _side: Side,
        owner: &dyn Fn(usize) -> char,
    ) -> String {
        self.draw_owned(position, owner)
    }

    /// The places (dots-and-boxes: boxes) that `mv` scores, for games where a
    /// player owns what they score.
    fn scored_places(&self, _position: &G::Position, _mv: &G::Move) -> Vec<usize> {
        Vec::new()
    }

    /// The board with `owner(place)` marked in each scored place.
    fn draw_owned(&self, position: &G::Position, _owner: &dyn Fn(usize) -> char) -> String {
        self.draw(position)
    }
}

/// What a page marks on a board besides the position itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Scored places (dots-and-boxes boxes) and who scored them: 1 the first
    /// player, 2 the second.
    pub owners: Vec<(String, u8)>,
    /// What the player to move and the opponent have taken so far.
    pub taken: Option<[i64; 2]>,
    /// The places of the move that led here.
    pub last: Vec<String>,
}

/// One way to make a move by clicking: steps in order, each a set of places
/// clicked in any order (chess: the piece's square, then its target; Euler: the
/// cells a nail covers).
pub type Clicks = Vec<Vec<String>>;

/// A move made by clicking `places` in any order, in one step.
pub fn one_step(places: Vec<String>) -> Vec<Clicks> {
    vec![vec![places]]
}

/// The board as a picture for a page: SVG whose clickable places carry
/// `data-place`, and for every move the places a player clicks to make it.
pub trait Picture<G: Game>: Sync {
    /// The board as an SVG document.
    fn svg(&self, position: &G::Position, marks: &Marks) -> String;

    /// The ways to make `mv` by clicking; several where the same move can be
    /// clicked in several ways (Kayles: counting pins from either end).
    fn places(&self, position: &G::Position, mv: &G::Move) -> Vec<Clicks>;

    /// The places to mark on the board `mv` leads to, named as that board names
    /// them: by default the places clicked to make it. Abapa names them again,
    /// since the sower's row is the opponent's on the next board.
    fn landed(&self, position: &G::Position, mv: &G::Move) -> Vec<String> {
        self.places(position, mv)
            .into_iter()
            .next()
            .map(|clicks| clicks.into_iter().flatten().collect())
            .unwrap_or_default()
    }

    /// The places `mv` scores (dots-and-boxes: the boxes it completes).
    fn scored(&self, _position: &G::Position, _mv: &G::Move) -> Vec<String> {
        Vec::new()
    }

    /// Whether moves are made on this board by clicking: false where it is
    /// drawn as numbers only (heaps too large to draw), so that its moves are
    /// not listed one by one.
    fn clickable(&self, _position: &G::Position) -> bool {
        true
    }
}

/// Values in the game's own words, for people: `White mates in 6`.
pub trait Wording<G: Game>: Sync {
    /// The value of `position` for its player to move.
    fn say(&self, position: &G::Position, value: Value) -> String;
}

/// A game record format for lines of play (chess: PGN).
pub trait Record<G: Game>: Sync {
    /// The format's name, e.g. `pgn`.
    fn format(&self) -> &'static str;
    /// The line `moves` from `start`, in that format.
    fn record(&self, start: &G::Position, moves: &[G::Move]) -> String;
}

/// A tool of a position editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    pub id: &'static str,
    pub label: &'static str,
    /// Used on a place of the board (a piece on a square); otherwise on the whole
    /// position (the side to move, a new heap).
    pub on_board: bool,
}

impl Tool {
    pub const fn on_board(id: &'static str, label: &'static str) -> Tool {
        Tool {
            id,
            label,
            on_board: true,
        }
    }

    pub const fn whole(id: &'static str, label: &'static str) -> Tool {
        Tool {
            id,
            label,
            on_board: false,
        }
    }
}

/// An editor for positions, working on their text: a position being edited may
/// be illegal for a while (a chess board without its kings).
pub trait Editing<G: Game>: Sync {
    /// The editor's tools.
    fn tools(&self) -> Vec<Tool>;
    /// The text after using `tool` on `place` of the position written `text`.
    fn edit(&self, text: &str, place: &str, tool: &str) -> Result<String, GameError>;
    /// The board of a position being edited, legal or not.
    fn sketch(&self, text: &str) -> Result<String, GameError>;
}

/// Another name of every move, for machine use: chess gives UCI beside SAN.
/// Answers carry it, and a move typed that way is understood.
pub trait MoveAliases<G: Game>: Sync {
    /// The move in UCI, e.g. `e2e4`.
    fn uci(&self, position: &G::Position, mv: &G::Move) -> String;
}

/// Distances the way players of the game count them, where that differs from
/// plies (chess: the winner's moves to mate).
pub trait DistanceUnits: Sync {
    /// The unit's name in answers, e.g. `moves`.
    fn unit(&self) -> &'static str;
    /// A win or loss in the game's own unit.
    fn in_units(&self, value: Value) -> Option<u16>;
    /// The value in the game's own words, e.g. `mate in 6 (11 plies)`.
    fn say(&self, value: Value) -> String;
}

/// A score game played for a fixed total (Abapa's 48 seeds): who wins the whole
/// game, given what each side has already taken.
pub trait WholeGame<G: Game>: Sync {
    /// What a whole game is played for.
    fn total(&self) -> u64;
    /// What is still on the board, to be won.
    fn left(&self, position: &G::Position) -> u64;

    /// Whether the game ends as soon as a side has taken more than half
    /// (Abapa: 25 seeds), rather than when the board is played out.
    fn ends_at_majority(&self) -> bool {
        false
    }

    /// What each side, mover and opponent, takes of what is left when play goes
    /// round for ever; `None`: it is shared evenly, as the tables count it.
    fn endless_split(&self, _position: &G::Position) -> Option<[u64; 2]> {
        None
    }
}

/// A game whose moves always lead to a strictly higher layer (Euler: covered
/// cells), so it can be solved layer by layer from the last one.
pub trait Layered<G: Game>: Sync {
    /// The number of layers; layers are `0..layers()`.
    fn layers(&self, tier: u32) -> u32;

    /// The layer of the position at an index slot.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32;
}

/// A game whose predecessors can be generated by un-moves, so retrograde analysis
/// needs no stored reverse graph (chess: memory per position stays a few bytes).
pub trait Retract<G: Game>: Sync {
    /// Calls `visit` with the slot of every stored position of `tier` that has a
    /// move to `position` (a position of `tier`), once per such move. Moves into
    /// the tier from other tiers are not included.
    fn predecessors(&self, tier: u32, position: &G::Position, visit: &mut dyn FnMut(u64));
}

/// Figures of a solved tier worth keeping in its table header, beyond the counts
/// every table has (chess: per side to move).
pub trait TableNotes<G: Game>: Sync {
    fn notes(&self, tier: u32, code: &dyn Fn(u64) -> u16) -> Vec<(String, String)>;
}

/// A solver written apart from the table solver, to check it (Abapa: value
/// iteration by forward moves only).
pub trait Reference<G: Game>: Sync {
    /// What the solver is, for reports, e.g. `value iteration`.
    fn name(&self) -> &'static str;
    /// The tiers checked when the user names none, where checking them all takes
    /// too long.
    fn default_tiers(&self, present: &[u32]) -> Vec<u32> {
        present.to_vec()
    }
    /// The value of every slot of every tier in `tiers` (which holds, with each
    /// tier, every tier its moves lead to), `None` where a slot holds no position.
    fn solve(&self, tiers: &[u32]) -> Vec<Vec<Option<Value>>>;
}

/// Positions drawn at random, for checking games that keep no table.
pub trait Sampler<G: Game>: Sync {
    fn sample(&self, seed: u64) -> G::Position;
}

/// How a game's tables are made.
pub enum Solver<'a, G: Game> {
    /// Level-by-level dynamic programming (acyclic games).
    Layered(&'a dyn Layered<G>),
    /// Retrograde analysis over a reverse graph built from the moves.
    Retrograde,
    /// Retrograde analysis by un-moves, tier by tier, each reading the tiers its
    /// moves leave to.
    Retracting(&'a dyn Retract<G>),
    /// A solver of the generator's own for this game.
    Dedicated(Dedicated),
    /// The game keeps no tables.
    None,
}

/// The generator's dedicated solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dedicated {
    /// Dots-and-boxes: one byte per edge mask, waves of blocks, vector code.
    DotsWaves,
    /// Abapa: score retrograde over every threshold in one sweep per tier.
    AbapaThresholds,
    /// Pawnless chess: retrograde analysis on slots, moves and un-moves from
    /// attack bitboards, no boards built.
    ChessUnmoves,
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
    /// Whether play may search beyond the tables (score games with cycles: the
    /// net score so far, the tables as exact values where a line reaches them).
    pub search_beyond_tables: bool,
    /// Whether a position is a list of numbers that may also be given as a
    /// count followed by that many numbers (`probe --counted`), as programming
    /// tasks write their input.
    pub counted_input: bool,
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
            search_beyond_tables: false,
            counted_input: false,
        }
    }
}

impl<G: Game> std::fmt::Debug for Solver<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Solver::Layered(_) => f.write_str("Layered"),
            Solver::Retrograde => f.write_str("Retrograde"),
            Solver::Retracting(_) => f.write_str("Retracting"),
            Solver::Dedicated(d) => write!(f, "Dedicated({d:?})"),
            Solver::None => f.write_str("None"),
        }
    }
}

impl<G: Game> std::fmt::Debug for Check<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Check::LiveSearch => f.write_str("LiveSearch"),
            Check::MateSearch { plies } => write!(f, "MateSearch({plies})"),
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
            .field("search_beyond_tables", &self.search_beyond_tables)
            .field("counted_input", &self.counted_input)
            .finish_non_exhaustive()
    }
}
