//! One long-lived handle per game and set of options: the game built once,
//! with the map of its tables, behind one object-safe trait that the command
//! line, every route and the batch endpoint call into. The concrete game is
//! forgotten here, once: [`Library::open`] finds the game's spec by id and
//! keeps a [`Kept`] of it; everything after is a method call.

use crate::answer::{
    Beside, ComputerAnswer, EditAnswer, GameInfo, LineAnswer, MoveView, OptionInfo, PositionAnswer,
    StatsAnswer, TableStatus, ToolInfo, View,
};
use crate::computer;
use crate::engine::{self, Engine};
use crate::error::QueryError;
use crate::library::{Library, Loaded};
use crate::oracle::{Oracle, Read};
use crate::play::{Ending, Settings};
use crate::render;
use crate::verify::{Report, Selection};
use crate::view;
use games::Game;
use games::capability::Marks;
use games::progress::Progress;
use games::spec::{Entry, Options, Purpose, Scope, Spec, Values};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// Everything the tools ask of one game with one set of options. Each method
/// answers from the game's tables in `library`'s folder (the library that
/// keeps this handle), or from its formula or search where the game has one.
pub trait GameHandle: Send + Sync + std::fmt::Debug {
    /// The game's entry in the registry.
    fn entry(&self) -> &'static Entry;

    /// The position written `text`: its value and every move valued; with
    /// `captured` (what the mover and the opponent have taken), also who wins
    /// the whole game.
    fn probe(
        &self,
        library: &Library,
        text: &str,
        captured: Option<[u64; 2]>,
    ) -> Result<PositionAnswer, QueryError>;

    /// The probe of `text` as the command line writes it, with the game's
    /// other measures beside it (chess: DTZ beside DTM), the position and its
    /// clock read once for all of them.
    fn probe_text(
        &self,
        library: &Library,
        text: &str,
        captured: Option<[u64; 2]>,
    ) -> Result<String, QueryError>;

    /// The game with its options, start and tables, and whether each table is
    /// in the folder.
    fn describe(&self, library: &Library) -> GameInfo;

    /// What the formula's answer about `text` weighs
    /// ([`games::capability::ClosedForm::weight`]); `None` for a game with no
    /// formula (a table's lookups cost about the same for every position),
    /// or where `text` is no position.
    fn weight(&self, library: &Library, text: &str) -> Option<u64>;

    /// What the page shows of `text`, with the `marks` it keeps.
    fn view(&self, library: &Library, text: &str, marks: &Marks) -> View;

    /// The line of perfect play from `text`, at most `plies` long.
    fn line(&self, library: &Library, text: &str, plies: usize) -> Result<LineAnswer, QueryError>;

    /// The same line in the game's record format (chess: PGN).
    fn record(&self, library: &Library, text: &str, plies: usize) -> Result<String, QueryError>;

    /// `line` as the command line writes it, each value in the game's words
    /// (e.g. `mate in 6 (11 plies)`).
    fn line_text(&self, library: &Library, line: &LineAnswer) -> String;

    /// What the tables hold: every table's statistics, or `tier`'s alone.
    fn stats(&self, library: &Library, tier: Option<&str>) -> Result<StatsAnswer, QueryError>;

    /// The position after the editor's `tool` is used on `place`.
    fn edit(
        &self,
        library: &Library,
        text: &str,
        place: &str,
        tool: &str,
    ) -> Result<EditAnswer, QueryError>;

    /// `typed`, a move in the game's notation, made from `text`.
    fn typed_move(
        &self,
        library: &Library,
        text: &str,
        typed: &str,
    ) -> Result<MoveView, QueryError>;

    /// The computer's move from `text` at `level`, its random choices from
    /// `seed`, searching within `limits` where the game searches.
    fn computer(
        &self,
        library: &Library,
        text: &str,
        limits: engine::Limits,
        level: u8,
        seed: u64,
    ) -> Result<ComputerAnswer, QueryError>;

    /// A game in the terminal from `from` (the start when none), as
    /// [`crate::play::play`] plays it.
    fn play(
        &self,
        library: &Library,
        from: Option<&str>,
        settings: Settings,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        transcript: Option<&mut dyn Write>,
    ) -> Result<Ending, QueryError>;

    /// Every check the game lists, on `table` and the tables its moves lead
    /// to, or on every table present, saying how far it is on `progress`.
    fn verify(
        &self,
        library: &Library,
        selection: Selection,
        table: Option<&str>,
        progress: &Progress,
    ) -> Result<Report, QueryError>;
}

/// A game the library keeps: its spec, and the game built for one set of
/// options (`options`, completed) with the map of its tables.
pub struct Kept<G: Game> {
    pub spec: &'static Spec<G>,
    pub options: Options,
    pub loaded: Arc<Loaded<G>>,
}

impl<G: Game> std::fmt::Debug for Kept<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept")
            .field("game", &self.spec.entry.id)
            .field("variant", &self.loaded.game.variant())
            .finish_non_exhaustive()
    }
}

impl<G: Game> Kept<G> {
    /// The game's oracle, its tables through `library`'s open tables.
    fn oracle<'a>(&'a self, library: &Library) -> Oracle<'a, G> {
        Oracle::of(self.spec, &self.loaded, library)
    }

    /// The position `read` valued in every other measure of the game than
    /// this handle's options choose (chess: DTZ beside DTM), where that
    /// measure's tables hold it: the same game built with other options, so
    /// the position read once serves them all.
    fn beside(&self, library: &Library, read: &Read<G>) -> Vec<Beside> {
        let measures = self.spec.entry.options.iter();
        let others = measures
            .filter(|option| option.scope == Scope::Measure)
            .flat_map(|option| {
                let words = match option.values {
                    Values::Choice(words) => words,
                    _ => &[],
                };
                words
                    .iter()
                    .filter(|&&word| self.options.get(option.name) != Some(word))
                    .map(|&word| (option.name, word))
            });
        others
            .filter_map(|(name, word)| {
                let mut other = self.options.clone();
                other.set(name, word);
                let loaded = library.game(self.spec, &other).ok()?;
                let oracle = Oracle::of(self.spec, &loaded, library);
                view::beside(&oracle, read, name, word)
            })
            .collect()
    }
}

impl<G: Game> GameHandle for Kept<G> {
    fn entry(&self) -> &'static Entry {
        &self.spec.entry
    }

    fn probe(
        &self,
        library: &Library,
        text: &str,
        captured: Option<[u64; 2]>,
    ) -> Result<PositionAnswer, QueryError> {
        self.oracle(library).answer_text(text, captured)
    }

    fn probe_text(
        &self,
        library: &Library,
        text: &str,
        captured: Option<[u64; 2]>,
    ) -> Result<String, QueryError> {
        let oracle = self.oracle(library);
        let read = oracle.read_counted(text)?;
        let answer = oracle.answer_read(&read, captured)?;
        let beside = self.beside(library, &read);
        Ok(render::position(&oracle, &answer, &read.position, &beside))
    }

    fn describe(&self, library: &Library) -> GameInfo {
        describe(&self.oracle(library))
    }

    fn weight(&self, library: &Library, text: &str) -> Option<u64> {
        let oracle = self.oracle(library);
        let closed = oracle.caps.formula?;
        Some(closed.weight(&oracle.read_counted(text).ok()?.position))
    }

    fn view(&self, library: &Library, text: &str, marks: &Marks) -> View {
        view::view(&self.oracle(library), text, marks, |read| {
            self.beside(library, read)
        })
    }

    fn line(&self, library: &Library, text: &str, plies: usize) -> Result<LineAnswer, QueryError> {
        Ok(view::line(&self.oracle(library), text, plies)?.answer)
    }

    fn record(&self, library: &Library, text: &str, plies: usize) -> Result<String, QueryError> {
        view::record(&self.oracle(library), text, plies)
    }

    fn line_text(&self, library: &Library, line: &LineAnswer) -> String {
        render::line(&self.oracle(library), line)
    }

    fn stats(&self, library: &Library, tier: Option<&str>) -> Result<StatsAnswer, QueryError> {
        view::stats(&self.oracle(library), tier)
    }

    fn edit(
        &self,
        library: &Library,
        text: &str,
        place: &str,
        tool: &str,
    ) -> Result<EditAnswer, QueryError> {
        let position = view::edit(&self.oracle(library), text, place, tool)?;
        Ok(EditAnswer { position })
    }

    fn typed_move(
        &self,
        library: &Library,
        text: &str,
        typed: &str,
    ) -> Result<MoveView, QueryError> {
        view::typed_move(&self.oracle(library), text, typed)
    }

    fn computer(
        &self,
        library: &Library,
        text: &str,
        limits: engine::Limits,
        level: u8,
        seed: u64,
    ) -> Result<ComputerAnswer, QueryError> {
        let oracle = self.oracle(library);
        let position = oracle.read(text)?;
        let searches = self.spec.entry.extras.search_beyond_tables;
        let engine = searches.then(|| Engine::new(&oracle, limits));
        let mut rng: rand::rngs::StdRng = rand::SeedableRng::seed_from_u64(seed);
        let (mv, reason) =
            computer::computer_turn(&oracle, engine.as_ref(), &position, level, &mut rng)?;
        let note = computer::explain(&oracle, &reason, "the computer", true);
        let made = oracle.game.write_move(&position, &mv);
        let view = view::typed_move(&oracle, text, &made)?;
        Ok(ComputerAnswer { mv: view, note })
    }

    fn play(
        &self,
        library: &Library,
        from: Option<&str>,
        settings: Settings,
        mut input: &mut dyn BufRead,
        mut out: &mut dyn Write,
        transcript: Option<&mut dyn Write>,
    ) -> Result<Ending, QueryError> {
        let oracle = self.oracle(library);
        let start = match from {
            Some(text) => oracle.read(text)?,
            None => oracle.game.start(),
        };
        crate::play::play(&oracle, start, settings, &mut input, &mut out, transcript)
    }

    fn verify(
        &self,
        library: &Library,
        selection: Selection,
        table: Option<&str>,
        progress: &Progress,
    ) -> Result<Report, QueryError> {
        crate::verify::verify_showing(&self.oracle(library), selection, table, progress)
    }
}

/// The game of `oracle` with its options, start and tables, and whether each
/// table is in the folder.
fn describe<G: Game>(oracle: &Oracle<G>) -> GameInfo {
    let (spec, game) = (oracle.spec, oracle.game);
    let tables = match oracle.has_tables() {
        false => Vec::new(),
        true => game
            .tiers()
            .into_iter()
            // Boards too large for any table (Northcott 8x8) have none.
            .filter(|&tier| {
                game.position_at(tier, 0)
                    .is_none_or(|first| game.coverage(&first).is_ok())
            })
            .map(|tier| {
                let path = oracle.tb.path(tier);
                TableStatus {
                    tier: game.tier_name(tier),
                    file: path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    present: path.is_file(),
                    group: game.tier_group(tier),
                }
            })
            .collect(),
    };
    let entry = &spec.entry;
    GameInfo {
        // Counted over the whole folder by the game list.
        made: 0,
        game: entry.id.to_string(),
        about: entry.about.to_string(),
        notation: entry.notation.to_string(),
        variant: game.variant(),
        value: game.value_kind().tag().to_string(),
        start: game.write_position(&game.start()),
        tools: oracle
            .caps
            .editing
            .map(|e| {
                let tools = e.tools().into_iter();
                tools
                    .map(|tool| ToolInfo {
                        id: tool.id.to_string(),
                        label: tool.label.to_string(),
                        on_board: tool.on_board,
                        picture: e.picture(tool.id),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        record: oracle.caps.record.map(|r| r.format().to_string()),
        search: entry.extras.search_beyond_tables,
        flips: oracle.caps.picture.is_some_and(|p| p.flips()),
        options: entry
            .options_for(Purpose::Query)
            .map(|o| OptionInfo {
                name: o.name.to_string(),
                help: o.help.to_string(),
                values: o.describe_values(),
                choices: match o.values {
                    Values::Choice(words) => words.iter().map(|w| w.to_string()).collect(),
                    Values::Flag => vec!["no".to_string(), "yes".to_string()],
                    _ => Vec::new(),
                },
                default: o.default.map(str::to_string),
                measure: o.scope == Scope::Measure,
            })
            .collect(),
        tables,
    }
}
