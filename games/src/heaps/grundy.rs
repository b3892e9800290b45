//! Heap games whose moves turn one heap into at most two: Kayles, Dawson's
//! Kayles, Grundy's game and Lasker's Nim.
//!
//! Each is answered two ways. Tables hold every position (heap multiset) of up to
//! `--limit` pins or stones in total, with distances, solved level by level. Any
//! other position is answered by Sprague-Grundy theory: the mover wins exactly
//! when the xor of the heaps' Grundy values is not 0, and a winning move turns
//! one heap into heaps whose values make the xor 0. The Grundy values come from
//! the mex rule, extended without end by the proven periods of Kayles (12 from 71)
//! and Dawson's Kayles (34 from 53), by the closed formula of Lasker's Nim, and
//! computed on demand for Grundy's game, whose values have no known period.
//! `tbquery verify` checks every table slot against the formula.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Editing, Formula, Layered, Marks, Picture, Solver,
    TableNotes, Tool,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{parse_heaps, write_heaps};
use crate::partition::Partitions;
use crate::spec::{Entry, Extras, OptionSpec, Options, Scope, Spec, Values};
use crate::value::{Value, ValueKind};
use std::sync::{Mutex, OnceLock};

/// The rules of a heap game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeapGame {
    /// Knock down one pin or two adjacent pins from a row: the rest may split in two.
    Kayles,
    /// Knock down exactly two adjacent pins (Dawson's chess on n - 1 files).
    Dawson,
    /// Split a heap into two heaps of different sizes.
    Grundy,
    /// Take any number from a heap, or split a heap into two non-empty heaps.
    Lasker,
}

/// The largest heap the formula answers: it lists every winning move, and a
/// heap of `n` has up to `n` moves.
pub const MAX_FORMULA_HEAP: u64 = 100_000;

/// The largest heap of Grundy's game the formula answers: its values come from
/// the mex rule over all `n / 2` splits of every smaller heap, so the first
/// answer near this bound computes about 6 * 10^8 splits (0.4 s), kept for the
/// process after.
pub const MAX_GRUNDY_HEAP: u64 = 50_000;

/// The default and largest `--limit`: the most pins or stones in total in a
/// table position (40: 215,308 positions; 60: 6,639,349).
pub const DEFAULT_LIMIT: u64 = 40;
pub const MAX_LIMIT: u64 = 60;

const LIMIT: OptionSpec = OptionSpec {
    name: "limit",
    help: "the most pins or stones in total in a table position (any position is answered by the formula)",
    scope: Scope::Variant,
    values: Values::Range(1, MAX_LIMIT),
    default: Some("40"),
    positional: false,
};

/// Misère play, offered for Grundy's game as the Nim thesis names it.
const MISERE: OptionSpec = OptionSpec {
    name: "misere",
    help: "misère play: whoever makes the last move loses (tables only: no formula is known)",
    scope: Scope::Variant,
    values: Values::Flag,
    default: Some("no"),
    positional: false,
};

macro_rules! heap_spec {
    ($name:ident, $kind:expr, $id:literal, $about:literal) => {
        heap_spec!($name, $kind, $id, $about, &[LIMIT], &[&[]]);
    };
    ($name:ident, $kind:expr, $id:literal, $about:literal, $options:expr, $all:expr) => {
        pub static $name: Spec<SplitGame> = Spec {
            entry: Entry {
                id: $id,
                extras: Extras::COUNTED,
                about: $about,
                notation: SPLIT_NOTATION,
                options: $options,
                all: $all,
            },
            build: |options| Ok(SplitGame::from_options($kind, options)),
            capabilities: split_capabilities,
            generate_options: |game, _| {
                let mut options = Vec::new();
                if game.slots.limit() != DEFAULT_LIMIT {
                    options.push(("limit", game.slots.limit().to_string()));
                }
                if game.misere {
                    options.push(("misere", "yes".to_string()));
                }
                options
            },
        };
    };
}

heap_spec!(
    KAYLES,
    HeapGame::Kayles,
    "kayles",
    "Kayles: knock down one pin or two adjacent pins of a row; who takes the last pin wins"
);
heap_spec!(
    DAWSON,
    HeapGame::Dawson,
    "dawson",
    "Dawson's Kayles: knock down two adjacent pins of a row; who cannot move loses"
);
heap_spec!(
    GRUNDY,
    HeapGame::Grundy,
    "grundy",
    "Grundy's game: split a heap into two heaps of different sizes; who cannot move loses (misère play: wins)",
    &[LIMIT, MISERE],
    &[&[], &[("misere", "yes")]]
);
heap_spec!(
    LASKER,
    HeapGame::Lasker,
    "lasker",
    "Lasker's Nim: take any number from a heap, or split it in two; who takes the last stone wins"
);

const SPLIT_NOTATION: &str = "rows of pins or heaps separated by spaces or commas: 7 3; \
     a move names the heap, counted from 1: h2-1 takes 1 from the end of heap 2, \
     h2-1:4+6 takes 1 leaving rows of 4 and 6, h2:4+6 splits heap 2";

fn split_capabilities(game: &SplitGame) -> Capabilities<'_, SplitGame> {
    if game.misere {
        // No formula is known: the table, its own moves and search.
        return Capabilities {
            picture: Some(game),
            editing: Some(game),
            ..Capabilities::new(
                Solver::Layered(game),
                vec![Check::Consistency, Check::LiveSearch],
            )
        };
    }
    Capabilities {
        formula: Some(game),
        notes: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    }
}

/// One move: heap `heap` (0-based) becomes the heaps `left` and `right` (0 means no
/// heap), after `removed` stones or pins are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub heap: usize,
    pub removed: u64,
    pub left: u64,
    pub right: u64,
}

impl Split {
    /// Heaps counted from 1: `h2-3` takes 3 from the end of heap 2, `h2-1:4+6`
    /// takes 1 leaving heaps of 4 and 6, `h2:4+6` splits heap 2 into 4 and 6.
    pub fn write(self) -> String {
        let heap = self.heap + 1;
        match (self.removed, self.left) {
            (0, left) => format!("h{heap}:{left}+{}", self.right),
            (removed, 0) => format!("h{heap}-{removed}"),
            (removed, left) => format!("h{heap}-{removed}:{left}+{}", self.right),
        }
    }
}

impl HeapGame {
    pub fn id(self) -> &'static str {
        match self {
            HeapGame::Kayles => "kayles",
            HeapGame::Dawson => "dawson",
            HeapGame::Grundy => "grundy",
            HeapGame::Lasker => "lasker",
        }
    }

    /// The heaps a heap of `n` can become, as `(removed, left, right)` with
    /// `left <= right` (each unordered result once; 0 = no heap).
    pub fn options(self, n: u64) -> Vec<(u64, u64, u64)> {
        let split = |removed: u64| {
            let rest = n - removed;
            (0..=rest / 2).map(move |a| (removed, a, rest - a))
        };
        match self {
            HeapGame::Kayles => (1..=2.min(n)).flat_map(split).collect(),
            HeapGame::Dawson if n >= 2 => split(2).collect(),
            HeapGame::Dawson => Vec::new(),
            HeapGame::Grundy => (1..n.div_ceil(2)).map(|a| (0, a, n - a)).collect(),
            HeapGame::Lasker => (1..=n)
                .map(|k| (k, 0, n - k))
                .chain((1..=n / 2).map(|a| (0, a, n - a)))
                .collect(),
        }
    }

    /// Whether a heap of `n` has a move.
    fn movable(self, n: u64) -> bool {
        match self {
            HeapGame::Kayles | HeapGame::Lasker => n >= 1,
            HeapGame::Dawson => n >= 2,
            HeapGame::Grundy => n >= 3,
        }
    }

    /// The Grundy values of heaps `0..=limit`, by the mex rule.
    pub fn sequence(self, limit: u64) -> Vec<u32> {
        let mut values = Vec::new();
        self.extend(&mut values, limit);
        values
    }

    /// Extends `values` (the values of heaps `0..values.len()`) to heap `limit`.
    fn extend(self, values: &mut Vec<u32>, limit: u64) {
        extend_by_mex(values, limit, |n, values, mark| match self {
            HeapGame::Kayles => mark_knocks(n, 1..=2, values, mark),
            HeapGame::Dawson => mark_knocks(n, 2..=2, values, mark),
            HeapGame::Grundy if n >= 3 => {
                // Heaps a and n - a for a below n / 2, read from both ends.
                let half = n.div_ceil(2) as usize;
                let (low, high) = (&values[1..half], &values[n as usize + 1 - half..]);
                for (a, b) in low.iter().zip(high.iter().rev()) {
                    mark(a ^ b);
                }
            }
            HeapGame::Grundy => {}
            HeapGame::Lasker => {
                for (_, a, b) in self.options(n) {
                    mark(values[a as usize] ^ values[b as usize]);
                }
            }
        });
    }

    /// Lasker's Nim's closed formula: heaps 4k+3 and 4k+4 swap values, the rest
    /// keep their size.
    pub fn lasker_value(n: u64) -> u64 {
        match n % 4 {
            3 => n + 1,
            0 if n > 0 => n - 1,
            _ => n,
        }
    }

    /// The largest heap the formula answers.
    pub fn reach(self) -> u64 {
        match self {
            HeapGame::Grundy => MAX_GRUNDY_HEAP,
            _ => MAX_FORMULA_HEAP,
        }
    }

    /// The Grundy value of a heap of `n` (at most [`Self::reach`]).
    pub fn value(self, n: u64) -> u64 {
        match self {
            HeapGame::Kayles | HeapGame::Dawson => periodic(self).value(n),
            HeapGame::Lasker => Self::lasker_value(n),
            HeapGame::Grundy => {
                static COMPUTED: Mutex<Vec<u32>> = Mutex::new(Vec::new());
                let mut values = COMPUTED.lock().unwrap_or_else(|e| e.into_inner());
                if values.len() as u64 <= n {
                    // Grow in steps, so that asking heap by heap stays linear.
                    let target = (n + 1).max(2 * values.len() as u64).min(self.reach());
                    self.extend(&mut values, target.max(n));
                }
                u64::from(values[n as usize])
            }
        }
    }
}

/// Extends `values` (the Grundy values of heaps `0..values.len()`) to heap
/// `limit` by the mex rule; `options(n, values, mark)` marks the value of every
/// option of a heap of `n`.
pub fn extend_by_mex(
    values: &mut Vec<u32>,
    limit: u64,
    options: impl Fn(u64, &[u32], &mut dyn FnMut(u32)),
) {
    let mut seen: Vec<u64> = Vec::new();
    let mut largest = values.iter().copied().max().unwrap_or(0);
    for n in values.len() as u64..=limit {
        seen.clear();
        // The xor of two values below a power of two stays below it.
        seen.resize((largest as usize + 1).next_power_of_two() / 64 + 2, 0);
        options(n, values, &mut |v: u32| {
            seen[v as usize / 64] |= 1 << (v % 64)
        });
        let mex = seen
            .iter()
            .enumerate()
            .find(|(_, w)| **w != u64::MAX)
            .map(|(i, w)| i as u32 * 64 + w.trailing_ones())
            .expect("the words cover one value past the largest");
        largest = largest.max(mex);
        values.push(mex);
    }
}

/// Marks the options of a row of `n` pins where a move knocks down `removals`
/// adjacent pins, leaving the rest as up to two rows.
pub fn mark_knocks(
    n: u64,
    removals: std::ops::RangeInclusive<u64>,
    values: &[u32],
    mark: &mut dyn FnMut(u32),
) {
    for k in removals.filter(|&k| k <= n) {
        let rest = (n - k) as usize;
        // The hot loop of long sequences: pairs (a, rest - a).
        for (x, y) in values[..=rest / 2]
            .iter()
            .zip(values[rest / 2..=rest].iter().rev())
        {
            mark(x ^ y);
        }
    }
}

/// A Grundy sequence proven periodic: the values computed by the mex rule up to a
/// length, and the period they keep from `start` on.
#[derive(Debug)]
pub struct Periodic {
    values: Vec<u32>,
    pub start: u64,
    pub period: u64,
}

impl Periodic {
    /// The period of an octal game whose moves remove at most `most_removed`
    /// pins, from its first values: by the periodicity theorem (Guy and Smith),
    /// values that repeat with period `p` for every `n` from `n0` to
    /// `2 n0 + p + most_removed` repeat for ever. `None` where no period is
    /// found, or it is not proven within the values.
    pub fn prove(values: Vec<u32>, most_removed: u64) -> Option<Periodic> {
        let (start, period) = ultimate_period(&values)?;
        let (start, period) = (start as u64, period as u64);
        let proven_to = 2 * start + period + most_removed;
        let proven = proven_to + period < values.len() as u64
            && (start..proven_to).all(|n| values[n as usize] == values[(n + period) as usize]);
        proven.then_some(Periodic {
            values,
            start,
            period,
        })
    }

    pub fn value(&self, n: u64) -> u64 {
        let at = if n < self.values.len() as u64 {
            n
        } else {
            self.start + (n - self.start) % self.period
        };
        u64::from(self.values[at as usize])
    }
}

/// Values computed for the periodic games: enough to find and prove the period.
pub const PERIODIC_PREFIX: u64 = 1_000;

/// Kayles and Dawson's Kayles, octal games removing at most 2 pins, with their
/// periods proven on the values up to [`PERIODIC_PREFIX`].
fn periodic(game: HeapGame) -> &'static Periodic {
    static KAYLES: OnceLock<Periodic> = OnceLock::new();
    static DAWSON: OnceLock<Periodic> = OnceLock::new();
    let cell = if game == HeapGame::Kayles {
        &KAYLES
    } else {
        &DAWSON
    };
    cell.get_or_init(|| {
        Periodic::prove(game.sequence(PERIODIC_PREFIX), 2)
            .unwrap_or_else(|| panic!("{}: the period is proven within the prefix", game.id()))
    })
}

/// The smallest period, with the first `n` from which it holds, such that
/// `values[n] == values[n + period]` for every `n >= start` within `values`,
/// counting only periods that hold over at least the second half of `values`.
pub fn ultimate_period(values: &[u32]) -> Option<(usize, usize)> {
    let len = values.len();
    (1..=len / 3)
        .filter_map(|p| {
            // The first n from which the period holds to the end.
            let mut start = len - p;
            while start > 0 && values[start - 1] == values[start - 1 + p] {
                start -= 1;
            }
            (start <= len / 2).then_some((start, p))
        })
        .min_by_key(|&(start, p)| (p, start))
}

/// A heap game with tables of every position of up to `limit` in total. Heap
/// order is kept in positions (moves name heaps by place) but folded in the index.
#[derive(Debug, Clone)]
pub struct SplitGame {
    rules: HeapGame,
    slots: Partitions,
    /// Whoever makes the last move loses.
    misere: bool,
}

impl SplitGame {
    pub fn new(rules: HeapGame, limit: u64) -> Self {
        SplitGame {
            rules,
            slots: Partitions::new(limit.min(MAX_LIMIT)),
            misere: false,
        }
    }

    /// The same game under misère play.
    pub fn misere(self) -> Self {
        SplitGame {
            misere: true,
            ..self
        }
    }

    fn from_options(rules: HeapGame, options: &Options) -> Self {
        let game = SplitGame::new(rules, options.number("limit").unwrap_or(DEFAULT_LIMIT));
        match options.get("misere") {
            Some("yes") => game.misere(),
            _ => game,
        }
    }

    pub fn rules(&self) -> HeapGame {
        self.rules
    }
}

impl Game for SplitGame {
    type Position = Vec<u64>;
    type Move = Split;

    fn id(&self) -> &'static str {
        self.rules.id()
    }

    /// `misere` under misère play, and the limit where it is not the default one.
    fn variant(&self) -> String {
        let mut parts = Vec::new();
        if self.misere {
            parts.push("misere".to_string());
        }
        if self.slots.limit() != DEFAULT_LIMIT {
            parts.push(self.slots.limit().to_string());
        }
        parts.join("-")
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        self.slots.size()
    }

    fn index(&self, heaps: &Vec<u64>) -> u64 {
        self.slots.rank(heaps)
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Vec<u64>> {
        (index < self.slots.size()).then(|| self.slots.unrank(index))
    }

    fn class_size(&self, _tier: u32, index: u64) -> u64 {
        let heaps = self.slots.unrank(index);
        crate::multiset::orderings(&heaps)
    }

    fn coverage(&self, heaps: &Vec<u64>) -> Result<(), String> {
        let total = heaps.iter().try_fold(0u64, |t, &h| t.checked_add(h));
        match total {
            Some(t) if t <= self.slots.limit() => Ok(()),
            _ => Err(format!(
                "more than {} in all; the tables hold positions of up to {} in total",
                self.slots.limit(),
                self.slots.limit()
            )),
        }
    }

    fn start(&self) -> Vec<u64> {
        vec![10]
    }

    fn moves(&self, heaps: &Vec<u64>) -> Vec<Split> {
        heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &h)| {
                self.rules
                    .options(h)
                    .into_iter()
                    .map(move |(removed, left, right)| Split {
                        heap,
                        removed,
                        left,
                        right,
                    })
            })
            .collect()
    }

    /// The heap becomes its non-empty parts, in place; a heap taken whole stays
    /// as an empty heap, so that the others keep their numbers.
    fn play(&self, heaps: &Vec<u64>, mv: &Split) -> Child<Vec<u64>> {
        let mut after = heaps.clone();
        match (mv.left, mv.right) {
            (0, right) => after[mv.heap] = right,
            (left, right) => {
                after[mv.heap] = left;
                after.insert(mv.heap + 1, right);
            }
        }
        Child::passing(after)
    }

    /// Whoever cannot move loses.
    fn end_value(&self, heaps: &Vec<u64>) -> Option<Value> {
        let over = !heaps.iter().any(|&h| self.rules.movable(h));
        // Under misère play the opponent made the last move, and lost.
        over.then_some(if self.misere {
            Value::Win(0)
        } else {
            Value::Loss(0)
        })
    }

    fn why_over(&self, _heaps: &Vec<u64>) -> String {
        let why = match self.rules {
            HeapGame::Grundy => "no heap can be split into two unequal heaps",
            HeapGame::Dawson => "no two adjacent pins are left",
            HeapGame::Kayles | HeapGame::Lasker => "nothing is left to take",
        };
        match self.misere {
            true => format!("{why}: the opponent made the last move, and lost"),
            false => why.into(),
        }
    }

    /// The heaps sorted, empty ones dropped.
    fn search_key(&self, heaps: &Vec<u64>) -> Vec<u64> {
        crate::heaps::sorted_key(heaps)
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        let heaps = parse_heaps(text)?;
        let reach = self.rules.reach();
        match heaps.iter().position(|&h| h > reach) {
            Some(i) => Err(GameError::position(
                text,
                format!(
                    "heap {} is {}: heaps of up to {reach} are answered",
                    i + 1,
                    heaps[i]
                ),
            )),
            None => Ok(heaps),
        }
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_heaps(heaps)
    }

    fn write_move(&self, _heaps: &Vec<u64>, mv: &Split) -> String {
        mv.write()
    }
}

impl ClosedForm<SplitGame> for SplitGame {
    fn formula(&self, heaps: &Vec<u64>) -> Result<Formula<Split>, GameError> {
        let rules = self.rules;
        let part_values: Vec<u64> = heaps.iter().map(|&h| rules.value(h)).collect();
        let nim_sum = part_values.iter().fold(0, |x, v| x ^ v);
        let mut winning_moves = Vec::new();
        if nim_sum != 0 {
            for (heap, (&h, &v)) in heaps.iter().zip(&part_values).enumerate() {
                let want = nim_sum ^ v;
                for (removed, left, right) in rules.options(h) {
                    if rules.value(left) ^ rules.value(right) == want {
                        winning_moves.push(Split {
                            heap,
                            removed,
                            left,
                            right,
                        });
                    }
                }
            }
        }
        Ok(Formula {
            mover_wins: nim_sum != 0,
            nim_sum: Some(nim_sum),
            part_values: Some(part_values),
            winning_moves,
        })
    }

    /// Every move lowers each measure by at least one: Kayles and Dawson's
    /// knock pins down, Grundy's splits add a heap, Lasker's do one or the other.
    fn measure(&self) -> &'static str {
        match self.rules {
            HeapGame::Kayles | HeapGame::Dawson => "pins left",
            HeapGame::Grundy => "stones less heaps",
            HeapGame::Lasker => "twice the stones less the heaps",
        }
    }

    /// Every way to knock, take or split in every heap: at most two per pin.
    fn weight(&self, heaps: &Vec<u64>) -> u64 {
        heaps
            .iter()
            .fold(heaps.len() as u64, |w, &h| w.saturating_add(2 * h))
    }

    fn left(&self, heaps: &Vec<u64>) -> u64 {
        let stones: u64 = heaps.iter().sum();
        let heaps = heaps.iter().filter(|&&h| h > 0).count() as u64;
        match self.rules {
            HeapGame::Kayles | HeapGame::Dawson => stones,
            HeapGame::Grundy => stones - heaps,
            HeapGame::Lasker => 2 * stones - heaps,
        }
    }
}

impl Picture<SplitGame> for SplitGame {
    fn svg(&self, heaps: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("{} heaps {}", self.id(), write_heaps(heaps));
        heap_picture::svg_rows(heaps, marks, &title)
    }

    fn clickable(&self, heaps: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(heaps)
    }

    /// Knocking pins: the pins knocked, counted from either end; a split: the
    /// gap it splits at; Lasker's taking: the first pin taken, with all after it.
    fn places(&self, heaps: &Vec<u64>, mv: &Split) -> Vec<Clicks> {
        let (n, h) = (heaps[mv.heap], mv.heap + 1);
        let mut ways: Vec<Vec<String>> = match (self.rules, mv.removed) {
            (_, 0) => [mv.left, mv.right]
                .into_iter()
                .filter(|a| (1..n).contains(a))
                .map(|a| vec![format!("h{h}g{a}")])
                .collect(),
            (HeapGame::Lasker, k) => vec![vec![format!("h{h}p{}", n - k + 1)]],
            _ => knocked_pins(mv),
        };
        ways.dedup();
        ways.into_iter().map(|way| vec![way]).collect()
    }

    /// The heap played on, and the heap split from it.
    fn landed(&self, _heaps: &Vec<u64>, mv: &Split) -> Vec<String> {
        let split = mv.left > 0;
        (mv.heap..=mv.heap + usize::from(split))
            .map(|i| format!("h{}", i + 1))
            .collect()
    }
}

/// The pins a knock-down knocks, counted from either end of its row: the ways
/// to click it.
pub fn knocked_pins(mv: &Split) -> Vec<Vec<String>> {
    let h = mv.heap + 1;
    [mv.left, mv.right]
        .into_iter()
        .map(|a| {
            (a + 1..=a + mv.removed)
                .map(|k| format!("h{h}p{k}"))
                .collect()
        })
        .collect()
}

impl Editing<SplitGame> for SplitGame {
    fn tools(&self) -> Vec<Tool> {
        heap_picture::tools()
    }

    fn edit(&self, text: &str, place: &str, tool: &str) -> Result<String, GameError> {
        let heaps = heap_picture::edit(parse_heaps(text)?, place, tool)?;
        Ok(write_heaps(&heaps))
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&self.parse_position(text)?, &Marks::default()))
    }
}

impl TableNotes<SplitGame> for SplitGame {
    /// Where the formula's Grundy values come from.
    fn notes(&self, _tier: u32, _code: &(dyn Fn(u64) -> u16 + Sync)) -> Vec<(String, String)> {
        let source = match self.rules {
            HeapGame::Kayles | HeapGame::Dawson => {
                let p = periodic(self.rules);
                return vec![(
                    "period".into(),
                    format!(
                        "{} from {} (Grundy values, proven by the periodicity theorem)",
                        p.period, p.start
                    ),
                )];
            }
            HeapGame::Lasker => "closed formula: heaps 4k+3 and 4k+4 swap values".to_string(),
            HeapGame::Grundy => format!(
                "the mex rule, computed on demand for heaps up to {MAX_GRUNDY_HEAP}; no period is known"
            ),
        };
        vec![("Grundy values".into(), source)]
    }
}

impl Layered<SplitGame> for SplitGame {
    fn layers(&self, _tier: u32) -> u32 {
        2 * self.slots.limit() as u32 + 1
    }

    /// Every move lowers twice the total less the number of heaps: it takes at
    /// least one away, or splits a heap in two.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let heaps = self.slots.unrank(index);
        let total: u64 = heaps.iter().sum();
        self.layers(tier) - 1 - (2 * total - heaps.len() as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_start_as_published() {
        // OEIS A002186 (Kayles), A002187 (Dawson's Kayles: 0.07), A002188 (Grundy's game).
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        let dawson = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1,
        ];
        let grundy = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0,
        ];
        assert_eq!(HeapGame::Kayles.sequence(23), kayles);
        assert_eq!(HeapGame::Dawson.sequence(23), dawson);
        assert_eq!(HeapGame::Grundy.sequence(23), grundy);
    }

    #[test]
    fn grundys_game_has_its_published_losing_heaps() {
        // The heaps from which the mover loses Grundy's game: 1,222 is the last one
        // known (none up to 2^35, by published computation).
        let values = HeapGame::Grundy.sequence(3_000);
        let zeros: Vec<usize> = (0..values.len()).filter(|&n| values[n] == 0).collect();
        assert_eq!(zeros.len(), 42);
        assert_eq!(zeros[..12], [0, 1, 2, 4, 7, 10, 20, 23, 26, 50, 53, 270]);
        assert_eq!(zeros.last(), Some(&1222));
        for (n, &v) in values.iter().enumerate() {
            assert_eq!(HeapGame::Grundy.value(n as u64), u64::from(v), "{n}");
        }
    }

    #[test]
    fn lasker_matches_its_formula() {
        for (n, v) in HeapGame::Lasker.sequence(400).into_iter().enumerate() {
            assert_eq!(u64::from(v), HeapGame::lasker_value(n as u64), "{n}");
        }
    }

    #[test]
    fn kayles_and_dawson_are_periodic_as_published() {
        let kayles = periodic(HeapGame::Kayles);
        assert_eq!((kayles.start, kayles.period), (71, 12));
        // Dawson's Kayles on n pins is Dawson's chess on n - 1 files: periodic
        // with period 34 from 52 files on.
        let dawson = periodic(HeapGame::Dawson);
        assert_eq!((dawson.start, dawson.period), (53, 34));
        // The periodic extension agrees with the mex rule far beyond the prefix.
        for game in [HeapGame::Kayles, HeapGame::Dawson] {
            let values = game.sequence(3_000);
            for (n, &v) in values.iter().enumerate() {
                assert_eq!(game.value(n as u64), u64::from(v), "{} {n}", game.id());
            }
        }
    }

    #[test]
    fn formula_agrees_with_search_and_names_every_winning_move() {
        for rules in [
            HeapGame::Kayles,
            HeapGame::Dawson,
            HeapGame::Grundy,
            HeapGame::Lasker,
        ] {
            let positions = [
                vec![7, 3],
                vec![5, 5, 2],
                vec![9],
                vec![4, 6, 1, 1],
                vec![12],
            ];
            crate::testing::formula_matches_search(&SplitGame::new(rules, 20), positions);
        }
    }

    #[test]
    fn moves_split_heaps_in_place_and_are_layered() {
        let game = SplitGame::new(HeapGame::Kayles, 20);
        let heaps = vec![7, 3];
        let split = Split {
            heap: 0,
            removed: 1,
            left: 2,
            right: 4,
        };
        assert_eq!(game.play(&heaps, &split).position, vec![2, 4, 3]);
        assert_eq!(game.write_move(&heaps, &split), "h1-1:2+4");
        let end = Split {
            heap: 1,
            removed: 2,
            left: 0,
            right: 1,
        };
        assert_eq!(game.play(&heaps, &end).position, vec![7, 1]);
        for index in 0..game.index_size(0) {
            let heaps = game.position_at(0, index).unwrap();
            assert_eq!(game.index(&heaps), index);
            let layer = game.layer_of_index(0, index);
            for mv in game.moves(&heaps) {
                let child = game.play(&heaps, &mv).position;
                assert!(game.layer_of_index(0, game.index(&child)) > layer);
            }
        }
        assert!(game.parse_position("3 100001").is_err());
        assert!(game.coverage(&vec![15, 6]).is_err());
    }
}
