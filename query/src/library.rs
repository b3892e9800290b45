//! Where queries find their tables: a folder, and the tables opened from it,
//! shared by every query of a long-running process; and the games built from
//! their options with the map of their tables, kept so that a query neither
//! builds its game nor lists its tables again.

use crate::error::QueryError;
use crate::handle::{GameHandle, Kept};
use crate::tablebase::{TableCache, TableMap, Tablebase};
use games::registry::{self, SpecVisitor};
use games::spec::{Options, Spec};
use games::{Game, GameError};
use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tables::BlockCache;

/// The most games kept built at once; past it, the kept ones are let go.
const MAX_GAMES: usize = 256;

/// What is kept per game and set of options: by game id, each set of
/// completed options with its value (looked up without copying the options),
/// at most [`MAX_GAMES`] in all.
#[derive(Debug)]
struct KeptBy<T>(Mutex<HashMap<&'static str, Vec<(Options, T)>>>);

impl<T> Default for KeptBy<T> {
    fn default() -> Self {
        KeptBy(Mutex::default())
    }
}

impl<T: Clone> KeptBy<T> {
    /// The value kept for game `id` and `options`.
    fn get(&self, id: &str, options: &Options) -> Option<T> {
        let kept = self.lock();
        let (_, value) = kept.get(id)?.iter().find(|(o, _)| o == options)?;
        Some(value.clone())
    }

    /// Keeps `value` for game `id` and `options`. Many option sets, one
    /// request each (a client walking a range), let every kept value go
    /// rather than grow past [`MAX_GAMES`].
    fn keep(&self, id: &'static str, options: &Options, value: T) {
        let mut kept = self.lock();
        if kept.values().map(Vec::len).sum::<usize>() >= MAX_GAMES {
            kept.clear();
        }
        kept.entry(id).or_default().push((options.clone(), value));
    }

    /// How many values are kept.
    fn len(&self) -> usize {
        self.lock().values().map(Vec::len).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<&'static str, Vec<(Options, T)>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The most bytes a page view lists by default (its moves, each with the
/// position it leads to): a 26x300 Northcott board's 7,748 moves of 7.8 KB each
/// would be 62 MB.
pub const DEFAULT_MAX_VIEW: usize = 8 << 20;

/// A game built for one set of options, with the map of its tables in the
/// library's folder: built once and kept by the [`Library`].
#[derive(Debug)]
pub struct Loaded<G> {
    pub game: G,
    pub tables: TableMap,
}

/// A folder of tables and the ones already open.
#[derive(Debug, Clone)]
pub struct Library {
    /// Shared, not copied, by each request's handle.
    pub dir: Arc<Path>,
    pub cache: Arc<TableCache>,
    /// Each game as built ([`Loaded`]; its type forgotten, for typed use
    /// by [`Library::game`]).
    games: Arc<KeptBy<Arc<dyn Any + Send + Sync>>>,
    handles: Arc<KeptBy<Arc<dyn GameHandle>>>,
    /// The most bytes a page view's moves may take; a view that would take
    /// more answers without them, saying why.
    pub max_view: usize,
    /// The files' digests worked out so far ([`crate::files`]).
    pub digests: Arc<crate::files::Digests>,
}

impl Library {
    /// The tables in `dir`, their blocks in the process-wide cache.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Library {
            dir: Arc::from(dir.as_ref()),
            cache: Arc::default(),
            games: Arc::default(),
            handles: Arc::default(),
            max_view: DEFAULT_MAX_VIEW,
            digests: Arc::default(),
        }
    }

    /// The tables in `dir`, with a block cache of its own of `budget` bytes.
    pub fn with_budget(dir: impl AsRef<Path>, budget: u64) -> Self {
        Library {
            dir: Arc::from(dir.as_ref()),
            cache: Arc::new(TableCache::new(BlockCache::new(budget))),
            games: Arc::default(),
            handles: Arc::default(),
            max_view: DEFAULT_MAX_VIEW,
            digests: Arc::default(),
        }
    }

    /// A game's tables in this folder.
    pub fn tablebase<'g, G: Game>(&self, game: &'g G) -> Tablebase<'g, G> {
        Tablebase::with_cache(game, &self.dir, Arc::clone(&self.cache))
    }

    /// A kept game's tables, through the map kept with it.
    pub fn tables<'g, G: Game>(&self, loaded: &'g Loaded<G>) -> Tablebase<'g, G> {
        Tablebase::kept(&loaded.game, &loaded.tables, Arc::clone(&self.cache))
    }

    /// The game of `spec` for completed `options` (see [`games::spec::Entry::complete`])
    /// with the map of its tables, built on first use and kept.
    pub fn game<G: Game>(
        &self,
        spec: &'static Spec<G>,
        options: &Options,
    ) -> Result<Arc<Loaded<G>>, GameError> {
        let id = spec.entry.id;
        let kept = self.games.get(id, options);
        if let Some(loaded) = kept.and_then(|g| g.downcast::<Loaded<G>>().ok()) {
            return Ok(loaded);
        }
        let game = (spec.build)(options)?;
        let tables = TableMap::new(&game, &self.dir);
        let loaded = Arc::new(Loaded { game, tables });
        self.games.keep(id, options, Arc::clone(&loaded) as _);
        Ok(loaded)
    }

    /// The handle of game `id` for completed `options` (see
    /// [`games::spec::Entry::complete`]): built on first use and kept, its game
    /// shared with [`Library::game`].
    pub fn open(&self, id: &str, options: &Options) -> Result<Arc<dyn GameHandle>, QueryError> {
        if let Some(handle) = self.handles.get(id, options) {
            return Ok(handle);
        }
        struct Open<'a>(&'a Library, &'a Options);
        impl SpecVisitor for Open<'_> {
            type Output = Result<Arc<dyn GameHandle>, GameError>;
            fn visit<G: Game>(self, spec: &'static Spec<G>) -> Self::Output {
                let loaded = self.0.game(spec, self.1)?;
                let options = self.1.clone();
                Ok(Arc::new(Kept {
                    spec,
                    options,
                    loaded,
                }))
            }
        }
        let handle = registry::with_spec(id, Open(self, options))??;
        self.handles
            .keep(handle.entry().id, options, Arc::clone(&handle));
        Ok(handle)
    }

    /// The handle of game `id` with `options`, where one is kept built
    /// already: never builds one.
    pub fn kept(&self, id: &str, options: &Options) -> Option<Arc<dyn GameHandle>> {
        self.handles.get(id, options)
    }

    /// How many games are kept built.
    pub fn games_kept(&self) -> usize {
        self.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client asking for ever new options cannot make the library keep more
    /// than `MAX_GAMES` games; the same options find the game already built.
    #[test]
    fn kept_games_are_bounded_and_found_again() {
        let library = Library::new(std::env::temp_dir());
        let spec = &games::nim::SUBTRACTION;
        let options = |k: u64| {
            let given = Options::with(games::spec::Purpose::Query, [("max-take", &*k.to_string())]);
            spec.entry.complete(&given).unwrap()
        };
        for k in 1..=3 * MAX_GAMES as u64 {
            library.game(spec, &options(k)).unwrap();
            assert!(library.games_kept() <= MAX_GAMES);
        }
        let first = library.game(spec, &options(5)).unwrap();
        let again = library.game(spec, &options(5)).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
    }

    /// A handle is kept per set of options, found again for the same options,
    /// bounded like the games, and shares its game with [`Library::game`].
    #[test]
    fn handles_are_kept_bounded_and_share_their_game() {
        let library = Library::new(std::env::temp_dir());
        let spec = &games::nim::SUBTRACTION;
        let options = |k: u64| {
            let given = Options::with(games::spec::Purpose::Query, [("max-take", &*k.to_string())]);
            spec.entry.complete(&given).unwrap()
        };
        let first = library.open("subtraction", &options(4)).unwrap();
        let again = library.open("subtraction", &options(4)).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(first.entry().id, "subtraction");
        let kept = library.games_kept();
        library.game(spec, &options(4)).unwrap();
        assert_eq!(
            library.games_kept(),
            kept,
            "the handle's game is the one kept"
        );
        for k in 1..=3 * MAX_GAMES as u64 {
            library.open("subtraction", &options(k)).unwrap();
            assert!(library.handles.len() <= MAX_GAMES);
        }
        let unknown = library.open("go", &Options::query()).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown game 'go'"),
            "{unknown}"
        );
    }
}
