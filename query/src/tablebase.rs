//! A game's tables in a folder, opened on first use and kept open.

use crate::error::QueryError;
use games::spec::Spec;
use games::{Game, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tables::{Access, BlockCache, Codes, Exits, FileIdentity, Speller, Table, file_name};

/// Open tables shared by every query of a long-running process (the server), so a
/// file is checked once and its decompressed blocks are shared. Blocks are read,
/// not mapped ([`Access::Read`]): a file overwritten in place while served gives
/// errors for the blocks that changed, never a crash. A table replaced on disk
/// (tbgen renames a new file into place) or changed in place is opened again on
/// its first use after [`RECHECK`]; queries still holding the old one keep its
/// open file.
#[derive(Debug)]
pub struct TableCache {
    open: Mutex<HashMap<PathBuf, Kept>>,
    blocks: BlockCache,
}

/// How long an open table is used before its file is looked at again: a
/// `stat` per use would be a twentieth of a served probe's time.
pub const RECHECK: Duration = Duration::from_secs(1);

/// An open table, and when its file was last seen to be the one opened.
#[derive(Debug)]
struct Kept {
    table: Arc<Table>,
    seen: Instant,
}

impl Default for TableCache {
    fn default() -> Self {
        TableCache::new(BlockCache::shared())
    }
}

impl TableCache {
    /// Open tables whose blocks are kept in `blocks`.
    pub fn new(blocks: BlockCache) -> Self {
        TableCache {
            open: Mutex::default(),
            blocks,
        }
    }

    /// The decompressed blocks of every table opened here.
    pub fn blocks(&self) -> &BlockCache {
        &self.blocks
    }

    /// How many tables are open.
    pub fn open_tables(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Kept>> {
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The table at `path`, opened again if the file is not the one opened before
    /// (replaced, or changed in place) when last looked at more than
    /// [`RECHECK`] ago; none if there is no file. No lock is held while a file
    /// is looked at or opened.
    pub(crate) fn get_or_open(
        &self,
        path: &Path,
        speller: Speller<'_>,
    ) -> Result<Option<Arc<Table>>, tables::TableError> {
        if let Some(kept) = self.lock().get(path)
            && kept.seen.elapsed() < RECHECK
        {
            return Ok(Some(Arc::clone(&kept.table)));
        }
        let seen = Instant::now();
        let now = match std::fs::metadata(path) {
            Ok(meta) => FileIdentity::of(&meta),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(_) => {
                return Table::open_with(path, self.blocks.clone(), Access::Read)
                    .and_then(|t| t.spelled_by(speller))
                    .map(|t| Some(Arc::new(t)));
            }
        };
        if let Some(kept) = self.lock().get_mut(path)
            && kept.table.identity() == now
        {
            kept.seen = seen;
            return Ok(Some(Arc::clone(&kept.table)));
        }
        let table = Table::open_with(path, self.blocks.clone(), Access::Read)?;
        let table = Arc::new(table.spelled_by(speller)?);
        let kept = Kept {
            table: Arc::clone(&table),
            seen,
        };
        self.lock().insert(path.to_path_buf(), kept);
        Ok(Some(table))
    }
}

/// Looks up values of a game's positions in its table files.
///
/// ```
/// use games::{euler::Euler, Value};
/// use query::Tablebase;
/// # let dir = tempfile::tempdir().unwrap();
/// # let write = generator::WriteOptions::new(dir.path());
/// # let options = games::Options::generate();
/// # generator::generate_game("euler", &options, &write, &generator::Progress::hidden()).unwrap();
/// // `dir` holds the tables `tbgen euler --dir ...` wrote.
/// let tb = Tablebase::new(&Euler, dir.path());
/// let one_cell_left = 0xffff ^ 1;
/// assert_eq!(tb.value(&one_cell_left).unwrap(), Value::Loss(1));
/// ```
#[derive(Debug)]
pub struct Tablebase<'g, G: Game> {
    game: &'g G,
    /// Where the tables are: kept with the game by a [`crate::Library`], or
    /// made for this tablebase alone.
    map: Cow<'g, TableMap>,
    /// Beside each of the map's tiers, its table once opened.
    tables: Vec<OnceLock<Arc<Table>>>,
    cache: Option<Arc<TableCache>>,
    spec: Option<&'static Spec<G>>,
}

/// Where a game's tables are: the folder, the game's tiers (sorted), and each
/// tier's file, spelled on first use. A [`crate::Library`] keeps one with each
/// game it keeps, so a request neither lists the tiers again nor spells a
/// file name again.
#[derive(Debug, Clone)]
pub struct TableMap {
    dir: PathBuf,
    tiers: Vec<u32>,
    paths: Vec<OnceLock<PathBuf>>,
}

impl TableMap {
    /// The tables of `game` in `dir`.
    pub fn new<G: Game>(game: &G, dir: impl AsRef<Path>) -> TableMap {
        let mut tiers = game.tiers();
        tiers.sort_unstable();
        tiers.dedup();
        TableMap {
            dir: dir.as_ref().to_path_buf(),
            paths: tiers.iter().map(|_| OnceLock::new()).collect(),
            tiers,
        }
    }

    /// Where `tier` stands among the tiers, if it is one.
    fn at(&self, tier: u32) -> Option<usize> {
        // Most games number their tiers from 0 up.
        match self.tiers.get(tier as usize) {
            Some(&t) if t == tier => Some(tier as usize),
            _ => self.tiers.binary_search(&tier).ok(),
        }
    }

    /// The file of `game`'s `tier`.
    fn path<G: Game>(&self, game: &G, tier: u32) -> Cow<'_, Path> {
        let spell = || {
            self.dir
                .join(file_name(game.id(), &game.variant(), &game.tier_name(tier)))
        };
        match self.at(tier) {
            Some(at) => Cow::Borrowed(self.paths[at].get_or_init(spell)),
            None => Cow::Owned(spell()),
        }
    }
}

impl<'g, G: Game> Tablebase<'g, G> {
    pub fn new(game: &'g G, dir: impl AsRef<Path>) -> Self {
        Self::on(game, Cow::Owned(TableMap::new(game, dir)))
    }

    /// The tables of `game` where `map` says they are.
    fn on(game: &'g G, map: Cow<'g, TableMap>) -> Self {
        Tablebase {
            game,
            tables: map.tiers.iter().map(|_| OnceLock::new()).collect(),
            map,
            cache: None,
            spec: None,
        }
    }

    /// The tables of `game` where the kept `map` says they are, opened through
    /// `cache`.
    pub fn kept(game: &'g G, map: &'g TableMap, cache: Arc<TableCache>) -> Self {
        Tablebase {
            cache: Some(cache),
            ..Self::on(game, Cow::Borrowed(map))
        }
    }

    /// The same, naming in its hints the exact `tbgen` command for a missing
    /// table, as `spec` gives it.
    pub fn with_spec(self, spec: &'static Spec<G>) -> Self {
        Tablebase {
            spec: Some(spec),
            ..self
        }
    }

    /// A tablebase that takes its open tables from (and adds them to) `cache`.
    pub fn with_cache(game: &'g G, dir: impl AsRef<Path>, cache: Arc<TableCache>) -> Self {
        Tablebase {
            cache: Some(cache),
            ..Tablebase::new(game, dir)
        }
    }

    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The folder the tables are read from.
    pub fn dir(&self) -> &Path {
        &self.map.dir
    }

    /// Where the table of a tier is expected.
    pub fn path(&self, tier: u32) -> PathBuf {
        self.map.path(self.game, tier).into_owned()
    }

    /// The open table of a tier, opening and checking it on first use.
    pub fn table(&self, tier: u32) -> Result<&Table, QueryError> {
        let at = self
            .map
            .at(tier)
            .unwrap_or_else(|| panic!("{}: unknown tier {tier}", self.game.id()));
        let slot = &self.tables[at];
        if let Some(table) = slot.get() {
            return Ok(table);
        }
        let table = self.open(tier)?;
        Ok(slot.get_or_init(|| table))
    }

    fn open(&self, tier: u32) -> Result<Arc<Table>, QueryError> {
        let path = self.map.path(self.game, tier);
        let speller = |name: &str| self.game.table_spelling(tier, name);
        let table = match &self.cache {
            Some(cache) => cache.get_or_open(&path, &speller)?,
            // A file that cannot be looked at (a symbolic link loop, a folder
            // not readable) is opened, so that its error is the one said.
            None if path.try_exists().is_ok_and(|e| !e) => None,
            None => Some(Arc::new(Table::open(&path)?.spelled_by(&speller)?)),
        };
        let Some(table) = table else {
            return Err(QueryError::MissingTable {
                path: path.into_owned(),
                command: self.generate_command(tier),
            });
        };
        let header = table.header();
        let game = self.game;
        let (variant, tier_name) = (game.variant(), game.tier_name(tier));
        let expected = [
            ("game", game.id(), header.game.as_str()),
            ("variant", &variant, &header.variant),
            ("tier", &tier_name, &header.tier),
            ("value encoding", game.value_kind().tag(), &header.encoding),
        ];
        let wrong = |what: &str, want: &dyn std::fmt::Display, found: &dyn std::fmt::Display| {
            QueryError::WrongTable {
                path: path.to_path_buf(),
                problem: format!("table's {what} is '{found}', expected '{want}'"),
            }
        };
        if let Some((what, want, found)) = expected.into_iter().find(|(_, w, f)| w != f) {
            return Err(wrong(what, &want, &found));
        }
        if header.index_size != game.index_size(tier) {
            return Err(wrong(
                "index size",
                &game.index_size(tier),
                &header.index_size,
            ));
        }
        Ok(table)
    }

    /// The command that generates a tier's table.
    pub fn generate_command(&self, tier: u32) -> String {
        let mut command = format!("tbgen {}", self.game.id());
        if let Some(spec) = self.spec {
            for (name, value) in (spec.generate_options)(self.game, tier) {
                match spec.entry.option(name) {
                    Some(option) if option.positional => command.push_str(&format!(" {value}")),
                    _ => command.push_str(&format!(" --{name} {value}")),
                }
            }
        }
        format!("{command} --dir {}", self.map.dir.display())
    }

    /// The value of a position the tables do not hold as it stands, from the
    /// values of its moves (which they do hold, or value the same way).
    fn value_through_moves(&self, position: &G::Position) -> Result<Value, QueryError> {
        let game = self.game;
        if let Some(end) = game.end_value(position) {
            return Ok(end);
        }
        let mut best: Option<Value> = None;
        for mv in game.moves(position) {
            let child = game.play(position, &mv);
            let value = child.value_for_mover(self.covered_value(&child.position)?);
            best = Some(best.map_or(value, |b| b.best(value)));
        }
        best.ok_or_else(|| {
            QueryError::Internal(format!(
                "{}: {} has no move and is not over: a rules error",
                game.id(),
                game.write_position(position)
            ))
        })
    }

    /// Whether a tier's table file is in the folder.
    pub fn has_table(&self, tier: u32) -> bool {
        self.path(tier).is_file()
    }

    /// The stored value of a position.
    pub fn value(&self, position: &G::Position) -> Result<Value, QueryError> {
        self.covers(position)?;
        self.covered_value(position)
    }

    /// Whether the tables hold `position`; if not, why.
    pub fn covers(&self, position: &G::Position) -> Result<(), QueryError> {
        self.game.coverage(position).map_err(|reason| {
            let text = self.game.write_position(position);
            QueryError::Input(games::GameError::beyond_tables(&text, reason))
        })
    }

    /// The code of every slot of `tier` as the game values it: a table that
    /// leaves its exits to a search ([`Exits::Searched`]) has them searched for
    /// every position, and the positions of a lane it leaves are valued by a
    /// search of their moves (slots without one keep what the table stores).
    /// A byte a slot where the codes allow it ([`Codes`]): a six-piece
    /// tier of 15.5 billion slots takes 15.5 GB, not 31.
    pub fn codes_of_tier(&self, tier: u32) -> Result<Codes, QueryError> {
        let table = self.table(tier)?;
        let mut codes = table.read_codes()?;
        let header = table.header();
        if header.exits == Exits::Stored && header.lane_left.is_none() {
            return Ok(codes);
        }
        let game = self.game;
        let failed = OnceLock::new();
        codes.update(|slot, code| {
            // After an error the rest are left as read: the read has failed.
            if failed.get().is_some() {
                return code;
            }
            let valued = || {
                let Some(position) = game.position_at(tier, slot) else {
                    return Ok(code);
                };
                if !header.holds(slot) {
                    return Ok(self.value_through_moves(&position)?.code());
                }
                // A slot marked empty stays so: `verify` names it.
                let Some(stored) = Value::from_code(game.value_kind(), code) else {
                    return Ok(code);
                };
                let value = match header.exits {
                    Exits::Stored => stored,
                    Exits::Searched => self.searched(&position, stored)?,
                };
                Ok::<_, QueryError>(value.code())
            };
            valued().unwrap_or_else(|e| {
                let _ = failed.set(e);
                code
            })
        });
        match failed.into_inner() {
            Some(e) => Err(e),
            None => Ok(codes),
        }
    }

    /// The stored value of a position the tables are known to cover.
    pub fn covered_value(&self, position: &G::Position) -> Result<Value, QueryError> {
        if !self.game.stored(position) {
            return self.value_through_moves(position);
        }
        let (tier, index) = self.game.locate(position);
        let table = self.table(tier)?;
        if !table.header().holds(index) {
            return self.value_through_moves(position);
        }
        let code = table.get(index)?;
        let stored = Value::from_code(self.game.value_kind(), code).ok_or_else(|| {
            QueryError::WrongTable {
                path: table.path().to_path_buf(),
                problem: format!(
                    "slot {index} is marked as holding no position, but {} is legal",
                    self.game.write_position(position)
                ),
            }
        })?;
        match table.header().exits {
            Exits::Stored => Ok(stored),
            Exits::Searched => self.searched(position, stored),
        }
    }

    /// The value of a position whose table leaves its exits to a search and
    /// stores `stored` for it: the better of that bound and the best move out
    /// of the tier.
    fn searched(&self, position: &G::Position, stored: Value) -> Result<Value, QueryError> {
        let exits = games::value_of_exits(self.game, position, |child| self.covered_value(child))?;
        Ok(exits.map_or(stored, |best| stored.best(best)))
    }
}
