//! What shows a game to people and programs: a board drawn as text or as a
//! picture with clickable places, values in the game's own words, a record
//! format, a position editor, other names of moves, other distance units.

use crate::game::{Game, GameError};
use crate::value::Value;

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
    /// The board seen from the other side (chess: Black at the bottom), where
    /// the picture [flips](Picture::flips).
    pub flipped: bool,
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

    /// Whether the board can be drawn from the other side ([`Marks::flipped`]).
    fn flips(&self) -> bool {
        false
    }
}

/// Values in the game's own words, for people: `White mates in 6`.
pub trait Wording<G: Game>: Sync {
    /// The value of `position` for its player to move.
    fn say(&self, position: &G::Position, value: Value) -> String;

    /// A move's value for its player, short, where the game words it its own
    /// way (chess in DTZ: `win, DTZ 9`), with `outcome`, what the game's clock
    /// makes of it where the measure counts the clock (`cursed win, DTZ 9`
    /// with 95 on it); by default as plies or [`DistanceUnits`] say it.
    fn say_move(&self, _value: Value, _outcome: Option<Outcome>) -> Option<String> {
        None
    }

    /// The names of the side to move in `position` and of the other side
    /// (chess: `White`, `Black`), where the game's sides have names; the page
    /// otherwise says the first and the second player.
    fn sides(&self, _position: &G::Position) -> Option<[&'static str; 2]> {
        None
    }
}

/// A game record format for lines of play (chess: PGN).
pub trait Record<G: Game>: Sync {
    /// The format's name, e.g. `pgn`.
    fn format(&self) -> &'static str;
    /// The line `moves` from `start`, which has the counts `counts` (where
    /// the game has a clock), in that format.
    fn record(&self, start: &G::Position, counts: Counts, moves: &[G::Move]) -> String;
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
    /// A picture of the tool (SVG) for the editor's palette, drawn as the
    /// board draws what it puts there (chess: the piece); none where its
    /// label says it.
    fn picture(&self, _tool: &str) -> Option<String> {
        None
    }
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

/// The counts a position's text carries beside the position itself (chess: a
/// FEN's halfmove clock and move number). The tables hold neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// The count a rule reads (chess: plies since a capture or pawn move).
    pub clock: u16,
    /// The number of the move about to be made, from 1.
    pub number: u32,
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            clock: 0,
            number: 1,
        }
    }
}

/// A count that a position's text carries beside the position itself: the
/// tables do not hold it, but it decides what a value comes to (chess: the
/// halfmove clock, which the 50-move rule reads with DTZ), with the number of
/// the move it counts toward.
pub trait Clock<G: Game>: Sync {
    /// What the count is called, e.g. `halfmove clock`.
    fn name(&self) -> &'static str;
    /// The most the count may be: where it reaches this, the rule ends the
    /// game, in the measures that count it.
    fn most(&self) -> u16;
    /// The counts `text` gives (0 and 1 where it gives none; the clock at most
    /// `u16::MAX`), or why they are not counts; `text` is a position the game
    /// reads. Every tool reads a position's counts here, by this one rule.
    fn read(&self, text: &str) -> Result<Counts, GameError>;
    /// `text`, a position as the game writes it, with the counts `counts`.
    fn write(&self, text: &str, counts: Counts) -> String;
    /// Whether `mv` sets the count back to 0 (chess: a capture or a pawn
    /// move); any other move adds one.
    fn restarts(&self, position: &G::Position, mv: &G::Move) -> bool;
    /// Whether a move from `position` ends a round, so the next one has the
    /// next number (chess: Black's moves).
    fn ends_round(&self, position: &G::Position) -> bool;
    /// Whether the values of this measure count the rule (chess: DTZ does,
    /// DTM does not).
    fn ruled(&self) -> bool;
    /// What `value` comes to for its player with `count` already on the clock,
    /// where the game counts that value under the clock's rule (chess: DTZ,
    /// not DTM) and it is won or lost.
    fn verdict(&self, value: Value, count: u16) -> Option<Verdict>;

    /// The counts after `mv` from `position`, where `counts` were before it.
    fn after(&self, position: &G::Position, mv: &G::Move, counts: Counts) -> Counts {
        Counts {
            clock: match self.restarts(position, mv) {
                true => 0,
                false => counts.clock.saturating_add(1),
            },
            number: counts
                .number
                .saturating_add(u32::from(self.ends_round(position))),
        }
    }

    /// Whether the rule ends the game at `counts` (it does not where the
    /// measure ignores it).
    fn rule_ends(&self, counts: Counts) -> bool {
        self.ruled() && counts.clock >= self.most()
    }
}

/// What a value comes to under a rule that counts moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// In the game's words, e.g. `a cursed win: the 50-move rule draws it`.
    pub said: String,
}

/// An outcome for the player to move where a count of moves may spoil a win
/// or save a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Loss,
    /// Lost but for the count: the rule draws it.
    BlessedLoss,
    Draw,
    /// Won but for the count: the rule draws it.
    CursedWin,
    Win,
}

impl Outcome {
    /// Its name, as the lichess tablebase writes it: `cursed-win`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::BlessedLoss => "blessed-loss",
            Outcome::Draw => "draw",
            Outcome::CursedWin => "cursed-win",
            Outcome::Win => "win",
        }
    }
}
