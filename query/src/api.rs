//! Queries by game identifier, for the command line and the HTTP server: each
//! builds the game from the registry and runs the generic code on it.

use crate::answer::{
    ErrorAnswer, GameInfo, GameList, OptionInfo, PositionAnswer, TableStatus, ToolInfo,
};
use crate::error::QueryError;
use crate::library::Library;
use crate::oracle::{Oracle, parse_captured};
use games::registry;
use games::spec::{Options, Purpose, Spec, Values, Visitor};
use games::{Game, GameError};

/// The answer for one position of game `id`; with `captured` (`M,O`), also who
/// wins the whole game.
pub fn probe(
    library: &Library,
    id: &str,
    options: &Options,
    position: &str,
    captured: Option<&str>,
) -> Result<PositionAnswer, QueryError> {
    struct Probe<'a> {
        library: &'a Library,
        position: &'a str,
        captured: Option<[u64; 2]>,
    }
    impl Visitor for Probe<'_> {
        type Output = Result<PositionAnswer, QueryError>;
        fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> Self::Output {
            Oracle::new(spec, game, self.library).answer_text(self.position, self.captured)
        }
    }
    let captured = captured.map(parse_captured).transpose()?;
    let visitor = Probe {
        library,
        position,
        captured,
    };
    registry::with_game(id, options, visitor)?
}

/// Runs `ask` with the oracle of game `id` built from `options`: what every
/// per-game request of the page does.
pub fn with_oracle<T>(
    library: &Library,
    id: &str,
    options: &Options,
    ask: impl Ask<Output = T>,
) -> Result<T, QueryError> {
    struct Run<'a, A>(&'a Library, A);
    impl<A: Ask> Visitor for Run<'_, A> {
        type Output = A::Output;
        fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> A::Output {
            self.1.ask(&Oracle::new(spec, game, self.0))
        }
    }
    Ok(registry::with_game(id, options, Run(library, ask))?)
}

/// A question any game's oracle answers (a generic closure, which Rust has not).
pub trait Ask {
    type Output;
    fn ask<G: Game>(self, oracle: &Oracle<G>) -> Self::Output;
}

/// The error answer for a position that could not be answered.
pub fn error_answer(position: &str, error: &QueryError) -> ErrorAnswer {
    ErrorAnswer {
        position: position.to_string(),
        error: error.to_string(),
    }
}

/// Every game with its options, start and tables, and whether each table is in
/// the folder.
pub fn games(library: &Library) -> GameList {
    struct Describe<'a>(&'a Library);
    impl Visitor for Describe<'_> {
        type Output = GameInfo;
        fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> GameInfo {
            let oracle = Oracle::new(spec, game, self.0);
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
                        }
                    })
                    .collect(),
            };
            let entry = &spec.entry;
            GameInfo {
                game: entry.id.to_string(),
                about: entry.about.to_string(),
                notation: entry.notation.to_string(),
                variant: game.variant(),
                value: game.value_kind().tag().to_string(),
                start: game.write_position(&game.start()),
                tools: oracle
                    .caps
                    .editing
                    .map(|e| e.tools())
                    .unwrap_or_default()
                    .into_iter()
                    .map(|tool| ToolInfo {
                        id: tool.id.to_string(),
                        label: tool.label.to_string(),
                        on_board: tool.on_board,
                    })
                    .collect(),
                record: oracle.caps.record.map(|r| r.format().to_string()),
                search: oracle.caps.search_beyond_tables,
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
                    })
                    .collect(),
                tables,
            }
        }
    }
    let games = registry::entries()
        .iter()
        .filter_map(|e| registry::with_game(e.id, &Options::query(), Describe(library)).ok())
        .collect();
    GameList { games }
}

/// Options for `id` from name/value pairs (HTTP query parameters, where `_` may
/// stand for `-`: `max_take`), refusing any the game does not have.
pub fn options(id: &str, pairs: &[(String, String)]) -> Result<Options, GameError> {
    let entry = registry::entry(id)?;
    let names: Vec<String> = pairs.iter().map(|(n, _)| n.replace('_', "-")).collect();
    let options = Options::with(
        Purpose::Query,
        names
            .iter()
            .zip(pairs)
            .map(|(n, (_, v))| (n.as_str(), v.as_str())),
    );
    entry.complete(&options)?;
    Ok(options)
}
