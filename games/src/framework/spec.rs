//! The words a game describes itself with: its options (what they select, the
//! values they take, their defaults), why they are read, its entry (id,
//! description, notation, what `tbgen all` makes) and its [`Spec`] (how to
//! build it and what it can do). Every game module fills one in; the
//! [`crate::registry`] lists them.

use crate::capability::Capabilities;
use crate::game::{Game, GameError};

/// What a game's option selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A variant of the game (a board size, a rule set): every tool takes it.
    Variant,
    /// A variant that measures the same positions another way (chess: distance
    /// to mate or to the next capture or pawn move): every tool takes it, and
    /// the page shows the other measures' values beside the chosen one's where
    /// their tables are present.
    Measure,
    /// Which of the game's tables to make: `tbgen` only; the query side reads
    /// whichever tables are present.
    Tables,
    /// How a game is played out, which the tables do not depend on (Abapa's
    /// endless-play rule): `tbquery play` only.
    Play,
}

impl Scope {
    /// Whether the option picks a variant, one set of tables per value.
    pub fn is_variant(self) -> bool {
        matches!(self, Scope::Variant | Scope::Measure)
    }
}

/// The values an option accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in this range, ends included.
    Range(u64, u64),
    /// Text the game reads itself, described for help, e.g. `ROWSxCOLUMNS`.
    Text(&'static str),
    /// A switch, on when given (`--misere`): held as `yes` or `no`.
    Flag,
}

/// One option of a game, e.g. dots-and-boxes' `--size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The long flag without dashes, e.g. `max-take`; for a positional option,
    /// its name in help.
    pub name: &'static str,
    pub help: &'static str,
    pub scope: Scope,
    pub values: Values,
    /// The value when none is given; `None` leaves the choice to the game.
    pub default: Option<&'static str>,
    /// Given without a flag, as many as wanted (chess materials).
    pub positional: bool,
}

impl OptionSpec {
    /// The accepted values, for help and errors, e.g. `1 to 24`.
    pub fn describe_values(&self) -> String {
        match self.values {
            Values::Choice(words) => words.join(" | "),
            Values::Range(low, high) => format!("{low} to {high}"),
            Values::Text(shape) => shape.to_string(),
            Values::Flag => "a switch; yes or no in the API".to_string(),
        }
    }

    /// The value when none is given, for `purpose`: making tables, a measure
    /// takes every value it has (`tbgen chess KRBvKR` makes DTM and DTZ),
    /// since each answers what the others cannot.
    pub fn default_for(&self, purpose: Purpose) -> Option<String> {
        match (purpose, self.scope, self.values) {
            (Purpose::Generate, Scope::Measure, Values::Choice(all)) => Some(all.join(",")),
            _ => self.default.map(str::to_string),
        }
    }

    /// Checks one value, naming the option and its limits when it is refused.
    pub fn check(&self, game: &str, value: &str) -> Result<(), GameError> {
        let refuse = |why: String| GameError::option(self.name, value, format!("{game} {why}"));
        match self.values {
            Values::Choice(words) if !words.contains(&value) => {
                Err(refuse(format!("takes {}", words.join(" or "))))
            }
            Values::Flag if !["yes", "no"].contains(&value) => {
                Err(refuse("is a switch: yes or no".to_string()))
            }
            Values::Range(low, high) => match value.trim().parse::<u64>() {
                Ok(n) if (low..=high).contains(&n) => Ok(()),
                _ => Err(refuse(format!("takes a whole number from {low} to {high}"))),
            },
            _ => Ok(()),
        }
    }
}

/// Why options are being read: to answer queries or to make tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Purpose {
    /// Answering: the game reaches every table it may have.
    #[default]
    Query,
    /// Generating: the game holds the tables the options ask for.
    Generate,
    /// Playing a game out: as answering, with the play options too.
    Play,
}

/// The options given for one game, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Options {
    pub purpose: Purpose,
    values: Vec<(String, String)>,
}

impl Options {
    /// No options, for answering queries.
    pub fn query() -> Options {
        Options::default()
    }

    /// No options, for making tables.
    pub fn generate() -> Options {
        Options {
            purpose: Purpose::Generate,
            values: Vec::new(),
        }
    }

    /// These options, for `purpose`.
    pub fn with<'a>(
        purpose: Purpose,
        values: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Options {
        let mut options = Options {
            purpose,
            values: Vec::new(),
        };
        for (name, value) in values {
            options.set(name, value);
        }
        options
    }

    /// The value of option `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets option `name`, replacing any earlier value.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.values.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.values.push((name.to_string(), value.to_string())),
        }
    }

    /// Every option given, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number option `name`, already checked against its range.
    pub fn number(&self, name: &str) -> Option<u64> {
        self.get(name).and_then(|v| v.trim().parse().ok())
    }
}

/// What a game's commands take beyond the common arguments: data, so that the
/// tools offer them before any game is built.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extras {
    /// `--captured M,O`: a score game played for a fixed total, whose answers
    /// can say who wins the whole game from what each side has taken (the
    /// game's [`crate::capability::WholeGame`]).
    pub whole_game: bool,
    /// Play may search beyond the tables (score games with cycles: the net
    /// score so far, the tables as exact values where a line reaches them).
    pub search_beyond_tables: bool,
    /// `--counted`: a position is a list of numbers that may also be given as
    /// a count followed by that many numbers, as programming tasks write their
    /// input.
    pub counted_input: bool,
}

impl Extras {
    /// Nothing beyond the common arguments.
    pub const NONE: Extras = Extras {
        whole_game: false,
        search_beyond_tables: false,
        counted_input: false,
    };
    /// Positions that may be given counted.
    pub const COUNTED: Extras = Extras {
        counted_input: true,
        ..Extras::NONE
    };
}

/// A game as data: what the tools list, offer and document.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The identifier on the command line, in file names and URLs.
    pub id: &'static str,
    /// One line: what the game is.
    pub about: &'static str,
    /// How positions and moves are written, with an example.
    pub notation: &'static str,
    /// What its commands take beyond the common arguments.
    pub extras: Extras,
    pub options: &'static [OptionSpec],
    /// The tables `tbgen all` makes, as option sets; a comma-separated value of
    /// a variant option makes one set of tables per value.
    pub all: &'static [&'static [(&'static str, &'static str)]],
}

impl Entry {
    /// The option called `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The options a tool with `purpose` offers.
    pub fn options_for(&self, purpose: Purpose) -> impl Iterator<Item = &'static OptionSpec> {
        self.options.iter().filter(move |o| match o.scope {
            Scope::Variant | Scope::Measure => true,
            Scope::Tables => purpose == Purpose::Generate,
            Scope::Play => purpose == Purpose::Play,
        })
    }

    /// Checks `given` against the options this game has for its purpose, and
    /// fills in the defaults.
    pub fn complete(&self, given: &Options) -> Result<Options, GameError> {
        let mut options = Options {
            purpose: given.purpose,
            values: Vec::new(),
        };
        for (name, value) in given.iter() {
            let spec = self
                .options_for(given.purpose)
                .find(|o| o.name == name)
                .ok_or_else(|| self.no_such_option(name, value, given.purpose))?;
            spec.check(self.id, value)?;
            options.set(name, value);
        }
        for spec in self.options_for(given.purpose) {
            if let (None, Some(default)) = (options.get(spec.name), spec.default) {
                options.set(spec.name, default);
            }
        }
        Ok(options)
    }

    fn no_such_option(&self, name: &str, value: &str, purpose: Purpose) -> GameError {
        let names: Vec<String> = self
            .options_for(purpose)
            .map(|o| format!("--{}", o.name))
            .collect();
        let has = if names.is_empty() {
            "no options".to_string()
        } else {
            format!("only {}", names.join(", "))
        };
        GameError::option(
            name,
            value,
            format!("{} has no option --{name}; it has {has}", self.id),
        )
    }
}

/// A game as the tools use it: its entry, how to build it from options, and its
/// capabilities.
pub struct Spec<G: Game> {
    pub entry: Entry,
    /// The game for checked, completed options.
    pub build: fn(&Options) -> Result<G, GameError>,
    pub capabilities: for<'a> fn(&'a G) -> Capabilities<'a, G>,
    /// The options that make the table of `tier` (variant and table options),
    /// for the hint naming the command that makes a missing table.
    pub generate_options: fn(&G, u32) -> Vec<(&'static str, String)>,
}

impl<G: Game> std::fmt::Debug for Spec<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spec").field("entry", &self.entry).finish()
    }
}

impl<G: Game> Spec<G> {
    /// Checks `options`, fills in the defaults and builds the game.
    pub fn game(&self, options: &Options) -> Result<G, GameError> {
        (self.build)(&self.entry.complete(options)?)
    }
}

/// Code that works with any game: [`crate::registry::with_game`] calls `visit` with the game's
/// spec and the game built from the options.
pub trait Visitor {
    type Output;
    fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> Self::Output;
}

/// The generate options of a single-variant, single-tier game: none.
pub fn no_generate_options<G>(_game: &G, _tier: u32) -> Vec<(&'static str, String)> {
    Vec::new()
}
