//! Queries by game identifier, for the command line and the HTTP server: each
//! opens the game's handle in the library (built once per set of options and
//! kept) and asks it.

use crate::answer::{ErrorAnswer, GameList, PositionAnswer};
use crate::error::QueryError;
use crate::library::Library;
use crate::oracle::parse_captured;
use games::GameError;
use games::registry;
use games::spec::{Options, Purpose};
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
    let captured = captured.map(parse_captured).transpose()?;
    library
        .open(id, options)?
        .probe(library, position, captured)
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
    let made = tables_made(&library.dir);
    let games = registry::entries()
        .iter()
        .filter_map(|e| {
            let options = options(e.id, &BTreeMap::new()).ok()?;
            let mut info = library.open(e.id, &options).ok()?.describe(library);
            info.made = made.iter().filter(|&&owner| owner == e.id).count();
            Some(info)
        })
        .collect();
    GameList { games }
}

/// The game of each table file in `dir` (see [`owner`]).
fn tables_made(dir: &std::path::Path) -> Vec<&'static str> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| owner(&entry.ok()?.file_name().into_string().ok()?))
        .collect()
}

/// The game of a table file by its name: a game's id, then its variant and
/// tier after dashes; the longest id that fits is the game (`nim-misere.tb`
/// is Misère Nim's, not Nim's).
pub fn owner(name: &str) -> Option<&'static str> {
    let stem = name.strip_suffix(".tb")?;
    registry::entries()
        .iter()
        .map(|e| e.id)
        .filter(|id| {
            stem.strip_prefix(id)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
        })
        .max_by_key(|id| id.len())
}

/// Every table file in the folder with its size and SHA-256.
pub fn table_files(library: &Library) -> Result<crate::files::TableFiles, QueryError> {
    library.digests.list(&library.dir, owner)
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
