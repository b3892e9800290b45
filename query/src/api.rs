//! Queries by game identifier, for the command line and the HTTP server: each
//! builds the game from the registry and runs the generic code on it.

use crate::error::QueryError;
use crate::formula::answer;
use crate::tablebase::{TableCache, Tablebase};
use games::{Game, Variant, Visitor, with_game};
use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a query finds its tables.
#[derive(Debug, Clone)]
pub struct Source {
    pub dir: PathBuf,
    pub cache: Arc<TableCache>,
}

impl Source {
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Source {
            dir: dir.as_ref().to_path_buf(),
            cache: Arc::default(),
        }
    }

    pub fn tablebase<'g, G: Game>(&self, game: &'g G) -> Tablebase<'g, G> {
        Tablebase::with_cache(game, &self.dir, Arc::clone(&self.cache))
    }
}

/// The JSON answer for one position of game `id`.
pub fn probe_json(
    source: &Source,
    id: &str,
    variant: &Variant,
    position: &str,
) -> Result<Json, QueryError> {
    if games::registry::SEQUENCE_IDS.contains(&id) {
        no_variant(id, variant)?;
    }
    if let Some(answer) = crate::sequences::probe_json(source, id, position) {
        return answer;
    }
    struct ProbeJson<'a>(&'a Source, &'a str);
    impl Visitor for ProbeJson<'_> {
        type Output = Result<Json, QueryError>;
        fn visit<G: Game>(self, game: &G) -> Self::Output {
            let tb = self.0.tablebase(game);
            let position = game.parse_position(self.1)?;
            Ok(answer(&tb, position)?.to_json(game))
        }
    }
    with_game(id, variant, ProbeJson(source, position))?
}

/// The JSON error object for a position that could not be answered.
pub fn error_json(position: &str, error: &QueryError) -> Json {
    json!({ "position": position, "error": error.to_string() })
}

/// Every game with its tables and whether each is present in the folder.
pub fn games_json(source: &Source) -> Json {
    struct Listing<'a>(&'a Source);
    impl Visitor for Listing<'_> {
        type Output = Json;
        fn visit<G: Game>(self, game: &G) -> Json {
            let tb = self.0.tablebase(game);
            let tables: Vec<Json> = game
                .tiers()
                .into_iter()
                .map(|tier| {
                    let path = tb.path(tier);
                    json!({
                        "tier": game.tier_name(tier),
                        "file": path.file_name().map(|n| n.to_string_lossy().into_owned()),
                        "present": path.exists(),
                    })
                })
                .collect();
            json!({
                "game": game.id(),
                "variant": game.variant(),
                "value": game.value_kind().tag(),
                "start": game.start().map(|p| game.write_position(&p)),
                "tables": tables,
            })
        }
    }
    let games: Vec<Json> = games::GAME_IDS
        .iter()
        .filter_map(|id| with_game(id, &Variant::default(), Listing(source)).ok())
        .collect();
    json!({ "games": games })
}

/// Sequence games take no size, rules or move limit.
pub fn no_variant(id: &str, variant: &Variant) -> Result<(), QueryError> {
    match [&variant.size, &variant.rules, &variant.max_take]
        .into_iter()
        .flatten()
        .next()
    {
        None => Ok(()),
        Some(given) => Err(QueryError::Input(games::GameError::variant(
            given,
            format!("{id} has no variants"),
        ))),
    }
}
