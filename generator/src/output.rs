//! Turns solved values into a table file and a one-line summary.

use games::value::Tally;
use games::{Game, Value, ValueKind};
use rayon::prelude::*;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tables::{
    Codes, DEFAULT_BLOCK_ENTRIES, DEFAULT_LEVEL, Digits, Empty, Encoded, Exits, FAST_LEVEL, Frees,
    Header, Shared, Slack, Spelling, Stats, Table, TableError, Weigher, encode_table, file_name,
    format::NO_POSITION, write_table_spelled,
};

/// What was written, for the summary line.
#[derive(Debug, Clone)]
pub struct Summary {
    pub path: PathBuf,
    pub stats: Stats,
    pub bytes: u64,
    pub seconds: f64,
    /// A sound table already in the folder, kept rather than made again.
    pub kept: bool,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = &self.stats;
        write!(
            f,
            "{}: {} positions (win {}, loss {}, draw {}), longest {}, solved in {:.3} s, {} bytes",
            self.path.display(),
            s.positions,
            s.wins,
            s.losses,
            s.draws,
            s.longest,
            self.seconds,
            self.bytes
        )?;
        match self.kept {
            true => write!(f, ", kept (already made; --remake makes it again)"),
            false => Ok(()),
        }
    }
}

/// How many slots hold each code, and how many positions they stand for (slots
/// weighted by their class size).
struct Histogram {
    slots: Vec<u64>,
    positions: Vec<u64>,
}

/// Pieces the slots are split into for counting: a fixed number, so that nothing
/// depends on the number of threads.
const COUNT_PIECES: u64 = 64;

/// The fewest slots in a piece: each piece clears a histogram of every code (a
/// megabyte), which would cost a small table more than its counting.
const MIN_PIECE: u64 = 1 << 20;

impl Histogram {
    fn empty() -> Histogram {
        let codes = usize::from(u16::MAX) + 1;
        Histogram {
            slots: vec![0; codes],
            positions: vec![0; codes],
        }
    }

    /// How many slots hold each code but 0 (no position), as a header keeps them.
    fn codes(&self) -> Vec<(u16, u64)> {
        (1..self.slots.len())
            .filter(|&c| self.slots[c] > 0)
            .map(|c| (c as u16, self.slots[c]))
            .collect()
    }

    /// Counts the codes of `size` slots, in parallel.
    fn count(
        size: u64,
        code: &(impl Fn(u64) -> u16 + Sync),
        class_size: impl Fn(u64) -> u64 + Sync,
    ) -> Histogram {
        let piece = size.div_ceil(COUNT_PIECES).max(MIN_PIECE);
        (0..size.div_ceil(piece))
            .into_par_iter()
            .map(|p| {
                let mut h = Histogram::empty();
                for slot in p * piece..((p + 1) * piece).min(size) {
                    let c = usize::from(code(slot));
                    h.slots[c] += 1;
                    h.positions[c] += class_size(slot);
                }
                h
            })
            .reduce(Histogram::empty, |mut a, b| {
                a.slots.iter_mut().zip(&b.slots).for_each(|(x, y)| *x += y);
                a.positions
                    .iter_mut()
                    .zip(&b.positions)
                    .for_each(|(x, y)| *x += y);
                a
            })
    }
}

/// Counts wins, losses and draws (score games: by sign) and the longest distance
/// (score games: the largest absolute score) from how often each code occurs;
/// empty slots are skipped.
fn stats_from(kind: ValueKind, counts: &[u64]) -> Stats {
    let tally = Tally::of_counts(kind, counts);
    Stats {
        positions: tally.positions,
        wins: tally.wins,
        losses: tally.losses,
        draws: tally.draws,
        longest: tally.longest,
        ..Stats::default()
    }
}

/// Counts over every position a folded slot stands for, as header extras; none
/// where the game folds no symmetry.
fn unfolded_counts(slots: &Stats, all: &Stats) -> Vec<(String, String)> {
    if all.positions == slots.positions {
        return Vec::new();
    }
    vec![
        ("all positions".into(), all.positions.to_string()),
        ("all wins".into(), all.wins.to_string()),
        ("all losses".into(), all.losses.to_string()),
        ("all draws".into(), all.draws.to_string()),
    ]
}

/// For score games: how many slots hold each score, as one header extra.
fn score_counts(kind: ValueKind, counts: &[u64]) -> Option<(String, String)> {
    if kind != ValueKind::Score {
        return None;
    }
    let by_score = counts
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count > 0)
        .filter_map(
            |(code, &count)| match Value::from_code(kind, code as u16)? {
                Value::Score(s) => Some((s, count)),
                _ => None,
            },
        )
        .collect();
    Some(tables::ScoreCounts(by_score).to_extra())
}

/// Where a tier's table lives in `dir`.
pub fn table_path<G: Game>(game: &G, tier: u32, dir: &Path) -> PathBuf {
    dir.join(file_name(game.id(), &game.variant(), &game.tier_name(tier)))
}

/// Options for writing tables.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    pub dir: PathBuf,
    /// Record a solve time of 0 so that files are identical from run to run.
    pub reproducible: bool,
    /// zstd level; `None` picks one by table size.
    pub level: Option<i32>,
    /// Store each table in its game's own order where it has one
    /// ([`Game::spell_table`]), or in its fields' where that compresses
    /// better: smaller tables, written more slowly.
    pub game_order: bool,
    /// Leave one lane of each table that searches its exits, where the
    /// game's lanes alternate ([`Game::lanes_alternate`]): of the tables
    /// leaving each lane, the smaller is written. No value is then left to
    /// the table beside (a table that leaves a lane tells none).
    pub one_side: bool,
    /// Keep the sound tables already in the folder (a stopped run's, an
    /// earlier run's) instead of making them again.
    pub keep: bool,
    /// A first write, to be written again once every table of the run is
    /// solved (chess leaves its exits then): fast, at zstd level 1, and
    /// leaving nothing to the table beside, which may be written again first.
    pub draft: bool,
    /// The bytes of memory a run may count on; `None`: what the system says
    /// is available as it starts. A solve that needs more is refused before
    /// it begins.
    pub memory: Option<u64>,
}

impl WriteOptions {
    /// Options writing into `dir` with the level picked by size.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        WriteOptions {
            dir: dir.into(),
            reproducible: false,
            level: None,
            game_order: false,
            one_side: false,
            keep: false,
            draft: false,
            memory: None,
        }
    }

    /// The same options for a draft (see [`WriteOptions::draft`]).
    pub fn as_draft(&self) -> Self {
        WriteOptions {
            draft: true,
            ..self.clone()
        }
    }

    /// The zstd level of a table of `slots` slots.
    fn level(&self, slots: u64) -> i32 {
        match (self.draft, self.level) {
            (true, _) => DRAFT_LEVEL,
            (false, Some(level)) => level,
            (false, None) => level_for(slots),
        }
    }

    /// The values a block of a table of `slots` slots holds: see
    /// [`LARGE_BLOCK_ENTRIES`]. A draft keeps the smaller blocks: the solve
    /// reads it back a slot here and there.
    fn block_entries(&self, slots: u64) -> u32 {
        match !self.draft && slots > STRONG_LEVEL_SLOTS {
            true => LARGE_BLOCK_ENTRIES,
            false => DEFAULT_BLOCK_ENTRIES,
        }
    }
}

/// The values a block holds in a table of more than [`STRONG_LEVEL_SLOTS`]
/// slots, where the bytes are: over KRPvKR's chain, 65,536 instead of 32,768
/// take DTM from 143.3 to 139.0 MB and DTZ from 78.3 to 75.1 MB, and a cold
/// lookup decompresses twice as much (the KRBvKR FEN with its 16 moves, its
/// tables opened afresh, 0.32 -> 0.48 ms; the budget is 1 ms). A smaller
/// table keeps blocks of [`DEFAULT_BLOCK_ENTRIES`]: at most a few hundred
/// kilobytes whichever, it would gain little and pay the same.
const LARGE_BLOCK_ENTRIES: u32 = 1 << 16;

/// The zstd level of a draft: on KRBvKR a tenth of level 9's time.
const DRAFT_LEVEL: i32 = 1;

/// Tables up to this many slots get a strong zstd level (12: within 1% of level 19's
/// bytes over `tbgen all`, at twice its speed); larger ones a fast level, so that
/// big tables do not take longer to compress than to solve; larger ones also get
/// blocks of [`LARGE_BLOCK_ENTRIES`].
const STRONG_LEVEL_SLOTS: u64 = 1 << 20;

/// The zstd level for a table of `slots` slots.
fn level_for(slots: u64) -> i32 {
    if slots <= STRONG_LEVEL_SLOTS {
        DEFAULT_LEVEL
    } else {
        FAST_LEVEL
    }
}

/// Writes one solved tier and returns its summary.
pub fn write_tier<G: Game>(
    game: &G,
    tier: u32,
    codes: &Codes,
    elapsed: Duration,
    options: &WriteOptions,
) -> anyhow::Result<Summary> {
    let code = |slot: u64| codes.get(slot);
    write_tier_with(game, tier, &code, elapsed, options)
}

/// Writes one solved tier whose slot `i` has the code `code(i)`, and returns its
/// summary.
pub fn write_tier_with<G: Game>(
    game: &G,
    tier: u32,
    code: &(impl Fn(u64) -> u16 + Sync),
    elapsed: Duration,
    options: &WriteOptions,
) -> anyhow::Result<Summary> {
    write_tier_noting(game, tier, code, elapsed, options, Vec::new())
}

/// Like `write_tier_with`, with more header extras (name, value) to record.
pub fn write_tier_noting<G: Game>(
    game: &G,
    tier: u32,
    code: &(impl Fn(u64) -> u16 + Sync),
    elapsed: Duration,
    options: &WriteOptions,
    notes: Vec<(String, String)>,
) -> anyhow::Result<Summary> {
    let path = table_path(game, tier, &options.dir);
    let size = game.index_size(tier);
    let (mut stats, codes) = counted(game, tier, code, elapsed, options, notes);
    let empty = empty_slots(game, options.draft);
    // A table that fills its empty slots can no longer be counted from its
    // values; one that keeps them is, and spares its header the counts (a
    // table of thousands of codes would carry kilobytes of them). A draft
    // carries them for the table written after it.
    let beside = match options.draft {
        true => None,
        false => told_beside(game, tier, &options.dir, Exits::Stored)?,
    };
    if game.derives_empty_slots() || beside.is_some() {
        stats.codes = codes;
    }
    let header = Header {
        digits: fields(game, tier, options.draft),
        empty,
        shared: beside.as_ref().map(|(shared, _)| shared.clone()),
        ..header_of(game, tier, options, stats.clone())
    };
    let level = options.level(header.index_size);
    if let Some((shared, told)) = &beside {
        let wrong = (0..size).into_par_iter().find_any(|&slot| {
            told.tells(slot) && ![shared.code, NO_POSITION].contains(&code(slot))
        });
        if let Some(slot) = wrong {
            anyhow::bail!(
                "{}: slot {slot} holds code {} where the table beside holds {}: make both again",
                path.display(),
                code(slot),
                shared.code
            );
        }
    }
    let left = |slot: u64| beside.as_ref().is_some_and(|(_, told)| told.tells(slot));
    let slack = Slack {
        left,
        bounded: |_: u64| false,
        may_hold: |_: u64, _: u16| false,
    };
    let game_order = options.game_order && !options.draft;
    write_summed(
        game, tier, path, &header, code, slack, level, game_order, elapsed,
    )
}

/// Writes the final table of `tier` of `game`, whose slot `i` has the code
/// `code(i)`, from another table's values once they are final (chess: WDL50
/// from DTZ): its exits left to a search where `decided` says a move out of
/// the tier gives a slot's value, as [`write_leaving_exits`] leaves them,
/// both sides to move stored and nothing left to a table beside. No solve
/// reads it. Returns its summary.
pub(crate) fn write_final<G: Game>(
    game: &G,
    tier: u32,
    code: &(impl Fn(u64) -> u16 + Sync),
    decided: &[u64],
    elapsed: Duration,
    options: &WriteOptions,
    notes: Vec<(String, String)>,
) -> anyhow::Result<Summary> {
    let path = table_path(game, tier, &options.dir);
    let (mut stats, codes) = counted(game, tier, code, elapsed, options, notes);
    if game.derives_empty_slots() {
        stats.codes = codes;
    }
    let header = Header {
        digits: fields(game, tier, false),
        empty: empty_slots(game, false),
        exits: Exits::Searched,
        ..header_of(game, tier, options, stats.clone())
    };
    let kind = game.value_kind();
    let slack = Slack {
        left: |_: u64| false,
        bounded: |slot: u64| is_decided(decided, slot),
        may_hold: |slot: u64, stored: u16| no_better(kind, stored, code(slot)),
    };
    let level = options.level(header.index_size);
    let game_order = options.game_order;
    write_summed(
        game, tier, path, &header, code, slack, level, game_order, elapsed,
    )
}

/// Writes `header`'s table of `tier` at `path`, in the game's own order
/// where `game_order` asks and it weighs smaller, and returns its summary.
#[allow(clippy::too_many_arguments)]
fn write_summed<G: Game, C: Fn(u64) -> u16 + Sync, S: Frees>(
    game: &G,
    tier: u32,
    path: PathBuf,
    header: &Header,
    code: &C,
    slack: S,
    level: i32,
    game_order: bool,
    elapsed: Duration,
) -> anyhow::Result<Summary> {
    let spelled = match game_order {
        true => spelling(game, tier, &path, header, code, &slack, level),
        false => None,
    };
    let bytes = write_table_spelled(&path, header, spelled, code, slack, level)?;
    Ok(Summary {
        path,
        stats: header.stats.clone(),
        bytes,
        seconds: elapsed.as_secs_f64(),
        kept: false,
    })
}

/// The statistics of a table of `tier` whose slot `i` has the code
/// `code(i)`, with `notes` among its extras, and how many slots hold each
/// code (what a header keeps where the values cannot count it).
fn counted<G: Game>(
    game: &G,
    tier: u32,
    code: &(impl Fn(u64) -> u16 + Sync),
    elapsed: Duration,
    options: &WriteOptions,
    notes: Vec<(String, String)>,
) -> (Stats, Vec<(u16, u64)>) {
    let size = game.index_size(tier);
    let histogram = Histogram::count(size, code, |slot| game.class_size(tier, slot));
    let mut stats = stats_from(game.value_kind(), &histogram.slots);
    let all = stats_from(game.value_kind(), &histogram.positions);
    stats.solve_seconds = if options.reproducible {
        0.0
    } else {
        elapsed.as_secs_f64()
    };
    stats.extra = unfolded_counts(&stats, &all);
    stats
        .extra
        .extend(score_counts(game.value_kind(), &histogram.slots));
    stats.extra.extend(notes);
    (stats, histogram.codes())
}

/// The header of a table of `tier` with `stats`: its fields as the index
/// spells them, every slot stored, nothing left to a table beside.
fn header_of<G: Game>(game: &G, tier: u32, options: &WriteOptions, stats: Stats) -> Header {
    let size = game.index_size(tier);
    Header {
        game: game.id().to_string(),
        variant: game.variant(),
        tier: game.tier_name(tier),
        index_size: size,
        encoding: game.value_kind().tag().to_string(),
        block_entries: options.block_entries(size),
        lanes: game.slot_lanes(tier),
        digits: Digits::spelled(game.slot_digits(tier)),
        spelled: None,
        empty: Empty::Kept,
        shared: None,
        exits: Default::default(),
        lane_left: None,
        stats,
    }
}

/// Whether `slot` is one of `decided`'s, 64 slots a word.
#[inline]
fn is_decided(decided: &[u64], slot: u64) -> bool {
    decided[slot as usize / 64] >> (slot % 64) & 1 == 1
}

/// Whether code `stored` is no better for the mover than code `own`: what a
/// slot a move out of its tier decides may hold, a reader taking the better
/// of it and that move.
#[inline]
fn no_better(kind: ValueKind, stored: u16, own: u16) -> bool {
    match (Value::from_code(kind, stored), Value::from_code(kind, own)) {
        (Some(stored), Some(own)) => stored.cmp_for_mover(own).is_le(),
        _ => false,
    }
}

/// What a table of `game` stores in its empty slots: whatever compresses best
/// where the game tells them, but in a draft, which keeps them as code 0, so
/// that the write after it (which reads the draft back) knows them and fills
/// them as it fills the slots it leaves, and the scans that read it skip them.
fn empty_slots<G: Game>(game: &G, draft: bool) -> Empty {
    match game.derives_empty_slots() && !draft {
        true => Empty::Filled,
        false => Empty::Kept,
    }
}

/// The fields of a lane's entry of `tier`: in a table, in the order the
/// writer finds to compress best; in a draft, which is read back and written
/// again, as the index spells them.
fn fields<G: Game>(game: &G, tier: u32, draft: bool) -> Digits {
    match draft {
        true => Digits::spelled(game.slot_digits(tier)),
        false => Digits::weighed(game.slot_digits(tier)),
    }
}

/// Writes again the table of `tier`, `table`, whose values are `codes`, so that
/// a slot whose value a move out of the tier gives (a bit of `decided`, 64
/// slots a word) may store, where that compresses its block better, another
/// code no better for the side to move: a reader takes the better of the stored value
/// and those moves ([`tables::Exits::Searched`]), as Syzygy's WDL tables have
/// their captures. Where the game leaves a value to the table beside and that
/// table is there, the slots it tells that value in are left to it, if every
/// such slot reads right so (its value that one, or one those moves give);
/// else none is. The counts stay: the values are the same. Returns the
/// bytes written.
pub(crate) fn write_leaving_exits<G: Game, T: crate::tier_codes::TierCodes + ?Sized>(
    game: &G,
    tier: u32,
    table: &Table,
    codes: &T,
    decided: &[u64],
    options: &WriteOptions,
) -> anyhow::Result<u64> {
    let kind = game.value_kind();
    let value = |code: u16| Value::from_code(kind, code);
    let is_decided = |slot: u64| is_decided(decided, slot);
    // A slot a move out decides may hold any value no better for the mover.
    let may_hold = |slot: u64, stored: u16| no_better(kind, stored, codes.code(slot));
    let beside = match options.one_side {
        true => None,
        false => told_beside(game, tier, &options.dir, Exits::Searched)?,
    };
    let beside = beside.filter(|(shared, told)| {
        let slots = codes.slots();
        told.slots().all(|slot| {
            let own = codes.code(slot);
            // Read as the better of the value left and the moves out.
            let through_exits = || {
                let (Some(left), Some(own)) = (value(shared.code), value(own)) else {
                    return false;
                };
                is_decided(slot) && left.best(own) == own
            };
            // A filled table reads back whatever it stores where no
            // position is: the game tells, for the few slots asked.
            slot >= slots
                || [shared.code, NO_POSITION].contains(&own)
                || through_exits()
                || game.position_at(tier, slot).is_none()
        })
    });
    let header = Header {
        exits: Exits::Searched,
        shared: beside.as_ref().map(|(shared, _)| shared.clone()),
        empty: empty_slots(game, false),
        digits: fields(game, tier, false),
        block_entries: options.block_entries(table.header().index_size),
        ..table.header().clone()
    };
    let left = |slot: u64| match &beside {
        Some((_, told)) => told.tells(slot),
        None => false,
    };
    let level = options.level(header.index_size);
    let code = |slot: u64| codes.code(slot);
    let path = table.path();
    let leaves = options.one_side && header.lanes > 1 && game.lanes_alternate(tier);
    let lanes_left = match leaves {
        true => (0..header.lanes).map(Some).collect(),
        false => vec![None],
    };
    let mut smallest: Option<Encoded> = None;
    for lane_left in lanes_left {
        let header = Header {
            lane_left,
            ..header.clone()
        };
        let slack = Slack {
            left,
            bounded: is_decided,
            may_hold,
        };
        let spelled = match options.game_order {
            true => spelling(game, tier, path, &header, &code, &slack, level),
            false => None,
        };
        let encoded = encode_table(path, &header, spelled, code, slack, level)?;
        if smallest
            .as_ref()
            .is_none_or(|s| encoded.bytes() < s.bytes())
        {
            smallest = Some(encoded);
        }
    }
    Ok(smallest.expect("a lane or none left").write(path)?)
}

/// Blocks of each order a game tries for a table of its own order that the
/// writer compresses to weigh it ([`Game::spell_table`]).
const SPELLING_SAMPLE: u64 = 32;

/// The game's own order of `tier`'s table, weighed as
/// [`write_table_spelled`] would store it, where it has one.
fn spelling<G, C, S>(
    game: &G,
    tier: u32,
    path: &Path,
    header: &Header,
    code: &C,
    slack: &S,
    level: i32,
) -> Option<(String, Arc<dyn Spelling>)>
where
    G: Game,
    C: Fn(u64) -> u16 + Sync,
    S: Frees,
{
    let weigher = OnceCell::new();
    game.spell_table(tier, header.lane_left, &|spelling| {
        let weigher = weigher.get_or_init(|| Weigher::new(path, header, code, slack, level));
        weigher.bytes(spelling, SPELLING_SAMPLE).unwrap_or(u64::MAX)
    })
}

/// Where the game leaves a value to another variant's tables and that
/// variant's table of `tier` is in `dir` (made first), what it leaves and
/// where that table tells it ([`Told`]); none where it leaves nothing or no
/// such table is there. A table beside that leaves its exits to a search stores a bound
/// there, not its value: it is taken only where `exits` says
/// [`Exits::Searched`], by a table that searches its own.
fn told_beside<G: Game>(
    game: &G,
    tier: u32,
    dir: &Path,
    exits: Exits,
) -> anyhow::Result<Option<(Shared, Told)>> {
    let Some((variant, value)) = game.shares_value() else {
        return Ok(None);
    };
    let tier_name = game.tier_name(tier);
    let path = dir.join(file_name(game.id(), &variant, &tier_name));
    let Ok(table) = open_spelled(game, tier, &path) else {
        return Ok(None);
    };
    let header = table.header();
    let fit = header.tells(game.id(), &variant, &tier_name, game.index_size(tier));
    if !fit || (header.exits == Exits::Searched && exits == Exits::Stored) {
        return Ok(None);
    }
    let told = table
        .slots_holding(value.code())
        .map_err(|e| anyhow::anyhow!("reading the table beside: {e}"))?;
    let shared = Shared {
        variant,
        code: value.code(),
        values: table.values_crc(),
    };
    Ok(Some((shared, Told(told))))
}

/// The table of `tier` at `path`, with the game's spelling of its places
/// where it names one ([`Game::table_spelling`]).
pub fn open_spelled<G: Game>(game: &G, tier: u32, path: &Path) -> Result<Table, TableError> {
    Table::open(path)?.spelled_by(&|name| game.table_spelling(tier, name))
}

/// The slots where the table beside tells the value it shares, a bit each.
struct Told(Vec<u64>);

impl Told {
    #[inline]
    fn tells(&self, slot: u64) -> bool {
        self.0[slot as usize / 64] >> (slot % 64) & 1 == 1
    }

    /// The slots it tells, in parallel: only their words' set bits are
    /// visited, not every slot of the tier.
    fn slots(&self) -> impl ParallelIterator<Item = u64> + '_ {
        self.0
            .par_iter()
            .enumerate()
            .flat_map_iter(|(word, &bits)| {
                let base = word as u64 * 64;
                std::iter::successors((bits != 0).then_some(bits), |&b| {
                    let rest = b & (b - 1);
                    (rest != 0).then_some(rest)
                })
                .map(move |b| base + u64::from(b.trailing_zeros()))
            })
    }
}

/// Whether the table of `tier` in `dir` is whole and can be read back as it
/// is: its header names the tier, every block checks (a table damaged inside
/// is made again, not kept) and it stores every value (one that leaves its
/// exits to a search cannot be read back as codes).
pub fn sound<G: Game>(game: &G, tier: u32, dir: &Path) -> bool {
    sound_with_exits(game, tier, dir) == Some(Exits::Stored)
}

/// Where the table of `tier` in `dir` is whole (its header names the tier and
/// every block checks), whether it stores or searches its exits.
pub fn sound_with_exits<G: Game>(game: &G, tier: u32, dir: &Path) -> Option<Exits> {
    let (table, _) = open_tier(game, tier, dir).ok()?;
    let kind = game.value_kind();
    table
        .check_counted(&move |counts| Tally::of_counts(kind, counts).figures())
        .ok()?;
    Some(table.header().exits)
}

/// The table of `tier` written before into `dir`, with its summary line; refused,
/// saying why, where the file is missing, damaged, or holds another game,
/// variant or tier.
pub fn open_tier<G: Game>(game: &G, tier: u32, dir: &Path) -> anyhow::Result<(Table, Summary)> {
    let path = table_path(game, tier, dir);
    let table =
        open_spelled(game, tier, &path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let header = table.header();
    let expected = (
        game.id().to_string(),
        game.variant(),
        game.tier_name(tier),
        game.index_size(tier),
    );
    let found = (
        header.game.clone(),
        header.variant.clone(),
        header.tier.clone(),
        header.index_size,
    );
    anyhow::ensure!(
        found == expected,
        "{}: holds {found:?}, not {expected:?}",
        path.display()
    );
    let summary = Summary {
        bytes: std::fs::metadata(&path)?.len(),
        stats: header.stats.clone(),
        seconds: header.stats.solve_seconds,
        path,
        kept: false,
    };
    Ok((table, summary))
}
