//! Queries by game identifier, for the command line and the HTTP server: each
//! builds the game from the registry and runs the generic code on it.

use crate::answer::{
    Beside, ErrorAnswer, GameInfo, GameList, OptionInfo, PositionAnswer, TableStatus, ToolInfo,
};
use crate::error::QueryError;
use crate::library::Library;
use crate::oracle::{Oracle, parse_captured};
use games::registry::{self, SpecVisitor};
use games::spec::{Options, Purpose, Scope, Spec, Values};
use games::{Game, GameError};
use std::collections::BTreeMap;

/// The answer for one position of game `id` with its completed `options`
/// (see [`options`]); with `captured` (`M,O`), also who wins the whole game.
pub fn probe(
    library: &Library,
    id: &str,
    options: &Options,
    position: &str,
    captured: Option<&str>,
) -> Result<PositionAnswer, QueryError> {
    struct Probe<'a>(&'a str, Option<[u64; 2]>);
    impl Ask for Probe<'_> {
        type Output = Result<PositionAnswer, QueryError>;
        fn ask<G: Game>(self, oracle: &Oracle<G>) -> Self::Output {
            oracle.answer_text(self.0, self.1)
        }
    }
    let captured = captured.map(parse_captured).transpose()?;
    with_oracle(library, id, options, Probe(position, captured))?
}

/// The position written `text` in every other measure of game `id` than its
/// `options` choose (chess: DTZ beside DTM), where that measure's tables hold
/// it: one probe per measure.
pub fn beside(library: &Library, id: &str, options: &Options, text: &str) -> Vec<Beside> {
    struct Measure<'a>(&'a str, &'static str, &'static str);
    impl Ask for Measure<'_> {
        type Output = Option<Beside>;
        fn ask<G: Game>(self, oracle: &Oracle<G>) -> Self::Output {
            crate::view::beside(oracle, self.0, self.1, self.2)
        }
    }
    let Ok(entry) = registry::entry(id) else {
        return Vec::new();
    };
    let measures = entry.options.iter().filter(|o| o.scope == Scope::Measure);
    let others = measures.flat_map(|option| {
        let words = match option.values {
            Values::Choice(words) => words,
            _ => &[],
        };
        words
            .iter()
            .filter(|&&word| options.get(option.name) != Some(word))
            .map(|&word| (option.name, word))
    });
    others
        .filter_map(|(name, word)| {
            let mut other = options.clone();
            other.set(name, word);
            with_oracle(library, id, &other, Measure(text, name, word))
                .ok()
                .flatten()
        })
        .collect()
}

/// Runs `ask` with the oracle of game `id` for its completed `options` (see
/// [`options`]). The game is built once per set of options and kept by the
/// library.
pub fn with_oracle<T>(
    library: &Library,
    id: &str,
    options: &Options,
    ask: impl Ask<Output = T>,
) -> Result<T, QueryError> {
    struct Run<'a, A>(&'a Library, &'a Options, A);
    impl<A: Ask> SpecVisitor for Run<'_, A> {
        type Output = Result<A::Output, QueryError>;
        fn visit<G: Game>(self, spec: &'static Spec<G>) -> Self::Output {
            let Run(library, options, ask) = self;
            let loaded = library.game(spec, options)?;
            Ok(ask.ask(&Oracle::of(spec, &loaded, library)))
        }
    }
    registry::with_spec(id, Run(library, options, ask))?
}

/// A question any game's oracle answers (a generic closure, which Rust has not).
pub trait Ask {
    type Output;
    fn ask<G: Game>(self, oracle: &Oracle<G>) -> Self::Output;
}

/// The error answer for a position that could not be answered.
pub fn error_answer(position: &str, error: &impl std::fmt::Display) -> ErrorAnswer {
    // An error never echoes more than the longest position a server answers.
    let end = (0..=position.len().min(ERROR_ECHO))
        .rev()
        .find(|&i| position.is_char_boundary(i))
        .unwrap_or(0);
    ErrorAnswer {
        position: position[..end].to_string(),
        error: error.to_string(),
    }
}

/// The most bytes of a position an error answer repeats.
pub const ERROR_ECHO: usize = 8 << 10;

/// Every game with its options, start and tables, and whether each table is in
/// the folder.
pub fn games(library: &Library) -> GameList {
    struct Describe;
    impl Ask for Describe {
        type Output = GameInfo;
        fn ask<G: Game>(self, oracle: &Oracle<G>) -> GameInfo {
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
                    })
                    .collect(),
                tables,
            }
        }
    }
    let games = registry::entries()
        .iter()
        .filter_map(|e| {
            let options = options(e.id, &BTreeMap::new()).ok()?;
            with_oracle(library, e.id, &options, Describe).ok()
        })
        .collect();
    GameList { games }
}

/// The completed options of game `id` from name/value pairs (HTTP query
/// parameters, where `_` may stand for `-`: `max_take`): checked against the
/// options the game has, defaults filled in.
pub fn options(id: &str, pairs: &BTreeMap<String, String>) -> Result<Options, GameError> {
    let entry = registry::entry(id)?;
    let names: Vec<String> = pairs.keys().map(|n| n.replace('_', "-")).collect();
    let given = Options::with(
        Purpose::Query,
        names
            .iter()
            .zip(pairs.values())
            .map(|(n, v)| (n.as_str(), v.as_str())),
    );
    entry.complete(&given)
}
