//! Abapa, the tournament rules of Oware: 12 pits, the board seen from the player to
//! move (pits 0..5 theirs, 6..11 the opponent's, in sowing order). One tier per
//! number of seeds on the board; inside a tier a position's slot is its rank among
//! the C(n + 11, 11) ways to spread `n` seeds over 12 pits (lexicographic order).
//!
//! A position's value is the best net number of seeds the mover can still win:
//! its captures from here on (end-of-game collections included) minus the
//! opponent's. Endless play counts as 0.
//!
//! The thesis rule (`--rules thesis`) ends the game as soon as, after a move, both
//! sides hold fewer than 4 seeds; each player takes the seeds on their side. Such
//! a move is played as a capture of the difference: the position after it is the
//! empty board, and the move scores `mover's seeds - opponent's seeds`.

use crate::capability::{
    Capabilities, Check, Clicks, Drawing, Editing, Marks, Picture, Reference, Side, Solver, Tool,
    WholeGame, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::spec::{Entry, Extras, OptionSpec, Options, Purpose, Scope, Spec, Values};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};
use std::sync::OnceLock;

pub static SPEC: Spec<Abapa> = Spec {
    entry: Entry {
        id: "abapa",
        extras: Extras {
            whole_game: true,
            search_beyond_tables: true,
            ..Extras::NONE
        },
        about: "Abapa (tournament Oware) endgames: the best net seeds the mover can still win",
        notation: "the mover's 6 pits, '/', the opponent's 6, in sowing order: \
                   0 0 0 0 0 1 / 1 0 0 0 0 0; a move is the pit sown, a to f",
        options: &[
            OptionSpec {
                name: "rules",
                help: "default, or thesis: the game also ends when both sides hold fewer than 4 seeds after a move",
                scope: Scope::Variant,
                values: Values::Choice(&["default", "thesis"]),
                default: Some("default"),
                positional: false,
            },
            OptionSpec {
                name: "endless",
                help: "what each side takes when play goes round for ever: shared, what is left split evenly, as the tables count it; or own, the seeds on its own side, as the thesis's program does",
                scope: Scope::Play,
                values: Values::Choice(&["shared", "own"]),
                default: Some("shared"),
                positional: false,
            },
            OptionSpec {
                name: "max-seeds",
                help: "the most seeds on the board: one table for each count from 0 to this",
                scope: Scope::Tables,
                values: Values::Range(0, MAX_TABLE_SEEDS as u64),
                default: Some("12"),
                positional: false,
            },
        ],
        all: &[&[("rules", "default,thesis"), ("max-seeds", "12")]],
    },
    build: Abapa::from_options,
    capabilities: |game| Capabilities {
        drawing: Some(game),
        whole_game: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(Solver::Dedicated, vec![Check::Reference(game)])
    },
    generate_options: |game, tier| {
        let mut options = vec![("max-seeds", tier.to_string())];
        if game.rules == Rules::Thesis {
            options.push(("rules", "thesis".to_string()));
        }
        options
    },
};

/// The seeds in each pit, from the mover's side: 0..5 the mover's, 6..11 the
/// opponent's.
pub type Pits = [u8; 12];

/// Seeds in a full game.
pub const TOTAL_SEEDS: u32 = 48;

/// The most seeds tables are made for: the 24-seed tier alone holds 1.25 billion
/// positions.
pub const MAX_TABLE_SEEDS: u32 = 24;

/// Which rule ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The game ends only when a player cannot move (or cannot feed).
    Default,
    /// Also when both sides hold fewer than 4 seeds after a move.
    Thesis,
}

/// What the seeds left go to when play goes round for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endless {
    /// Split evenly: a net result of 0, as the tables count it (Romein and
    /// Bal's Awari databases do the same).
    Shared,
    /// Each side takes the seeds on its own side, as the thesis's program does.
    /// The tables cannot count it so: a cycle's result would depend on where
    /// it is cut, so a position would have no one value.
    Own,
}

/// Abapa under one rule set, with tables for every seed count up to `max_seeds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abapa {
    pub rules: Rules,
    pub max_seeds: u32,
    /// Only play reads it.
    pub endless: Endless,
}

/// What one move does: the position after it (from the opponent's side) and the
/// seeds it wins for the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sowing {
    pub after: Pits,
    /// Captured seeds; under the thesis end, plus the mover's seeds left minus
    /// the opponent's.
    pub gain: i8,
    /// Under the thesis end: the seeds each side takes (mover, opponent).
    pub shared: Option<(u8, u8)>,
}

/// Seeds on the board.
#[inline]
pub fn seeds(pits: &Pits) -> u32 {
    pits.iter().map(|&s| u32::from(s)).sum()
}

#[inline]
fn side(pits: &Pits, from: usize) -> u32 {
    pits[from..from + 6].iter().map(|&s| u32::from(s)).sum()
}

/// The board seen from the other side.
#[inline]
pub fn flip(pits: &Pits) -> Pits {
    std::array::from_fn(|j| pits[(j + 6) % 12])
}

/// The pit after pit `i` (below 12) in sowing order.
#[inline]
fn next_pit(i: usize) -> usize {
    if i == 11 { 0 } else { i + 1 }
}

/// Whether sowing pit `i` reaches the opponent's side.
#[inline]
fn feeds(pits: &Pits, i: usize) -> bool {
    usize::from(pits[i]) + i >= 6
}

/// The pits the mover may play: non-empty ones, and only those that reach the
/// opponent when the opponent's side is empty. Empty when the game is over.
#[inline]
pub fn legal_pits(pits: &Pits) -> impl Iterator<Item = usize> + '_ {
    let must_feed = side(pits, 6) == 0;
    (0..6).filter(move |&i| pits[i] > 0 && (!must_feed || feeds(pits, i)))
}

/// The mover's net result where the game is over: with no seeds, the opponent
/// takes every seed left; unable to feed an empty opponent, the mover takes them.
#[inline]
pub fn end_score(pits: &Pits) -> Option<i8> {
    let n = seeds(pits) as i8;
    if side(pits, 0) == 0 {
        Some(-n)
    } else if legal_pits(pits).next().is_none() {
        Some(n)
    } else {
        None
    }
}

impl Rules {
    /// Plays pit `i` (a legal move): sows, captures, and applies the thesis end.
    #[inline]
    pub fn sow(self, pits: &Pits, i: usize) -> Sowing {
        let mut board = *pits;
        let mut left = board[i];
        board[i] = 0;
        let mut at = i;
        while left > 0 {
            at = next_pit(at);
            if at != i {
                board[at] += 1;
                left -= 1;
            }
        }
        let mut gain = 0u32;
        if captures(&board, at) {
            let mut run = at;
            while run >= 6 && matches!(board[run], 2 | 3) {
                gain += u32::from(board[run]);
                board[run] = 0;
                run -= 1;
            }
        }
        let mut gain = gain as i8;
        let (mine, theirs) = (side(&board, 0) as u8, side(&board, 6) as u8);
        let mut shared = None;
        if self == Rules::Thesis && mine < 4 && theirs < 4 {
            gain += mine as i8 - theirs as i8;
            board = [0; 12];
            shared = Some((mine, theirs));
        }
        Sowing {
            after: flip(&board),
            gain,
            shared,
        }
    }

    /// Whether playing pit `i` (a legal move) of a position with `n` seeds is
    /// sure to capture nothing and leave the game going, found without sowing:
    /// its last seed does not make 2 or 3 on the opponent's side, and the thesis
    /// end needs fewer than 8 seeds. False says only: sow it to know.
    #[inline]
    pub fn surely_quiet(self, pits: &Pits, i: usize, n: u32) -> bool {
        let sown = usize::from(pits[i]);
        // The last seed's pit, counted from `i` over the 11 others, and the
        // seeds it then holds: one a lap before it, and the last. Most
        // sowings make no lap, and spare the division.
        let (last, holds) = if sown <= 11 {
            let last = if i + sown < 12 {
                i + sown
            } else {
                i + sown - 12
            };
            (last, usize::from(pits[last]) + 1)
        } else {
            let reach = (sown - 1) % 11 + 1;
            let last = (i + reach) % 12;
            (last, usize::from(pits[last]) + (sown - reach) / 11 + 1)
        };
        (last < 6 || !(2..=3).contains(&holds)) && (self == Rules::Default || n >= 8)
    }

    pub fn name(self) -> &'static str {
        match self {
            Rules::Default => "default",
            Rules::Thesis => "thesis",
        }
    }

    pub fn parse(text: Option<&str>) -> Result<Rules, GameError> {
        match text {
            None | Some("default") => Ok(Rules::Default),
            Some("thesis") => Ok(Rules::Thesis),
            Some(other) => Err(GameError::variant(
                other,
                "abapa's rules are 'default' or 'thesis'",
            )),
        }
    }
}

/// Binomial coefficients C(a, b) for a < 64, b < 12.
#[inline]
fn binomials() -> &'static [[u64; 12]; 64] {
    static TABLE: OnceLock<[[u64; 12]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut c = [[0u64; 12]; 64];
        for a in 0..64 {
            c[a][0] = 1;
            for b in 1..12 {
                c[a][b] = if a == 0 {
                    0
                } else {
                    c[a - 1][b - 1] + c[a - 1][b]
                };
            }
        }
        c
    })
}

#[inline]
fn binomial(a: u32, b: u32) -> u64 {
    binomials()[a as usize][b as usize]
}

/// The number of positions with `n` seeds: C(n + 11, 11).
#[inline]
pub fn tier_size(n: u32) -> u64 {
    binomial(n + 11, 11)
}

/// A position's rank among those with as many seeds, in lexicographic order.
#[inline]
pub fn rank(pits: &Pits) -> u64 {
    // Positions with the same pits before k and fewer seeds in pit k: the sum
    // over v < p_k of C(s_k - v + 10 - k, 10 - k), where s_k is the seeds in pits
    // k.. (so s_k - p_k = s_(k+1)); in closed form
    // C(s_k + 11 - k, 11 - k) - C(s_(k+1) + 11 - k, 11 - k). Summed over k, the
    // terms of each s_k (k from 1) meet as -C(s_k + 11 - k, 12 - k), and s_0 is n:
    // the rank is C(n + 11, 11) - 1 - the sum over k from 1 to 11 of
    // C(s_k + 11 - k, 12 - k), one lookup a pit.
    let below = suffix_terms();
    let mut seeds = 0;
    let mut sum = 0;
    for k in (1..12).rev() {
        seeds += usize::from(pits[k]);
        sum += below[k][seeds];
    }
    tier_size((seeds + usize::from(pits[0])) as u32) - 1 - sum
}

/// `[k][s]` = C(s + 11 - k, 12 - k) for k from 1 to 11 and s up to every seed:
/// the terms of [`rank`].
#[inline]
fn suffix_terms() -> &'static [[u64; TOTAL_SEEDS as usize + 1]; 12] {
    static TABLE: OnceLock<[[u64; TOTAL_SEEDS as usize + 1]; 12]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut terms = [[0; TOTAL_SEEDS as usize + 1]; 12];
        for (k, row) in terms.iter_mut().enumerate().skip(1) {
            for (s, term) in row.iter_mut().enumerate() {
                *term = binomial((s + 11 - k) as u32, (12 - k) as u32);
            }
        }
        terms
    })
}

/// The position of rank `rank` among those with `n` seeds.
#[inline]
pub fn unrank(n: u32, mut rank: u64) -> Pits {
    let c = binomials();
    let mut pits = [0u8; 12];
    let mut left = n as usize;
    for (k, pit) in pits[..11].iter_mut().enumerate() {
        let m = 10 - k;
        let mut v = 0;
        loop {
            let with_v = c[left - v + m][m];
            if rank < with_v {
                break;
            }
            rank -= with_v;
            v += 1;
        }
        *pit = v as u8;
        left -= v;
    }
    pits[11] = left as u8;
    pits
}

/// The next position with as many seeds in rank order, or false after the last.
#[inline]
pub fn next_position(pits: &mut Pits) -> bool {
    let Some(k) = (0..11)
        .rev()
        .find(|&k| pits[k + 1..].iter().any(|&s| s > 0))
    else {
        return false;
    };
    let tail: u8 = pits[k + 1..].iter().sum();
    pits[k] += 1;
    pits[k + 1..].fill(0);
    pits[11] = tail - 1;
    true
}

/// Whether the last seed, sown into pit `last` of `board` (the board right after
/// sowing, from the mover's side), captures: 2 or 3 seeds on the opponent's side,
/// unless the run would take every seed the opponent has (a grand slam).
#[inline]
fn captures(board: &Pits, last: usize) -> bool {
    let mut run = last;
    let mut taken = 0;
    while run >= 6 && matches!(board[run], 2 | 3) {
        taken += u32::from(board[run]);
        run -= 1;
    }
    taken > 0 && taken < side(board, 6)
}

/// Every position one quiet move before `pits` (a move that captured nothing and,
/// under the thesis rule, did not end the game), once per move.
pub fn unmoves(rules: Rules, pits: &Pits, visit: impl FnMut(&Pits)) {
    unmoves_with(rules, pits, seeds(pits), visit)
}

/// [`unmoves`] of a position known to hold `n` seeds.
#[inline]
pub fn unmoves_with(rules: Rules, pits: &Pits, n: u32, mut visit: impl FnMut(&Pits)) {
    let after = flip(pits); // the board right after the move, from the mover's side
    if rules == Rules::Thesis && side(&after, 0) < 4 && side(&after, 6) < 4 {
        return; // such a move ends the game: it leads to the empty board
    }
    // Whether a sowing ending in each pit would have captured.
    let captured: [bool; 12] = std::array::from_fn(|last| last >= 6 && captures(&after, last));
    let opponent_seeds = side(&after, 6);
    for origin in (0..6).filter(|&i| after[i] == 0) {
        let mut parent = after;
        let mut opponent = opponent_seeds;
        let mut last = origin;
        for sown in 1..=n {
            // Take back one more seed: the sowing ended one pit further.
            last = next_pit(last);
            if last == origin {
                last = next_pit(last);
            }
            if parent[last] == 0 {
                break;
            }
            parent[last] -= 1;
            opponent -= u32::from(last >= 6);
            parent[origin] = sown as u8;
            // An opponent with no seeds must have been fed by this move.
            let fed = opponent > 0 || origin + sown as usize >= 6;
            if fed && !captured[last] {
                visit(&parent);
            }
        }
    }
}

impl Abapa {
    pub fn new(rules: Rules, max_seeds: u32) -> Abapa {
        Abapa {
            rules,
            max_seeds,
            endless: Endless::Shared,
        }
    }

    /// Tables up to `--max-seeds` when making them; every table there may be
    /// when answering.
    fn from_options(options: &Options) -> Result<Abapa, GameError> {
        let rules = Rules::parse(options.get("rules"))?;
        let max_seeds = match options.purpose {
            Purpose::Query | Purpose::Play => MAX_TABLE_SEEDS,
            Purpose::Generate => options.number("max-seeds").unwrap_or(12) as u32,
        };
        let endless = match options.get("endless") {
            Some("own") => Endless::Own,
            _ => Endless::Shared,
        };
        Ok(Abapa {
            endless,
            ..Abapa::new(rules, max_seeds.min(MAX_TABLE_SEEDS))
        })
    }
}

impl Game for Abapa {
    type Position = Pits;
    type Move = usize;

    fn id(&self) -> &'static str {
        "abapa"
    }

    fn variant(&self) -> String {
        match self.rules {
            Rules::Default => String::new(),
            Rules::Thesis => "thesis".into(),
        }
    }

    /// `N`: every tier up to `N` seeds.
    fn named_tiers(&self, name: &str) -> Result<Vec<u32>, GameError> {
        match name.parse::<u32>() {
            Ok(n) if n <= self.max_seeds => Ok((0..=n).collect()),
            _ => Err(GameError::variant(
                name,
                format!("name the most seeds, 0 to {}", self.max_seeds),
            )),
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::Score
    }

    fn has_cycles(&self) -> bool {
        true
    }

    fn tiers(&self) -> Vec<u32> {
        (0..=self.max_seeds).collect()
    }

    fn tier_name(&self, tier: u32) -> String {
        format!("{tier}seeds")
    }

    fn tier_of(&self, pits: &Pits) -> u32 {
        seeds(pits)
    }

    fn index_size(&self, tier: u32) -> u64 {
        tier_size(tier)
    }

    fn index(&self, pits: &Pits) -> u64 {
        rank(pits)
    }

    fn position_at(&self, tier: u32, index: u64) -> Option<Pits> {
        (index < tier_size(tier)).then(|| unrank(tier, index))
    }

    fn coverage(&self, pits: &Pits) -> Result<(), String> {
        match seeds(pits) {
            n if n <= self.max_seeds => Ok(()),
            n => Err(format!(
                "{n} seeds on the board; tables hold at most {}",
                self.max_seeds
            )),
        }
    }

    fn start(&self) -> Pits {
        [4; 12]
    }

    fn moves(&self, pits: &Pits) -> Vec<usize> {
        legal_pits(pits).collect()
    }

    fn play(&self, pits: &Pits, &pit: &usize) -> Child<Pits> {
        let sowing = self.rules.sow(pits, pit);
        Child {
            position: sowing.after,
            turn_passes: true,
            gain: i64::from(sowing.gain),
            reset: None,
        }
    }

    fn end_value(&self, pits: &Pits) -> Option<Value> {
        end_score(pits).map(|s| Value::Score(i64::from(s)))
    }

    fn why_over(&self, pits: &Pits) -> String {
        if seeds(pits) == 0 {
            "no seeds are left".into()
        } else if side(pits, 0) == 0 {
            "the player to move has no seeds: the opponent takes those left".into()
        } else {
            "the player to move cannot feed the opponent's empty side, and takes the seeds left"
                .into()
        }
    }

    fn parse_position(&self, text: &str) -> Result<Pits, GameError> {
        let bad = |reason: String| GameError::position(text, reason);
        let (mine, theirs) = match text.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let numbers = |part: &str| -> Result<Vec<u8>, GameError> {
            part.split([' ', ','])
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<u8>()
                        .map_err(|_| bad(format!("'{s}' is not a number of seeds")))
                })
                .collect()
        };
        let mut counts = numbers(mine)?;
        if let Some(theirs) = theirs {
            if counts.len() != 6 {
                return Err(bad(format!(
                    "{} pits before '/'; each side has 6",
                    counts.len()
                )));
            }
            counts.extend(numbers(theirs)?);
        }
        let pits: Pits = counts.as_slice().try_into().map_err(|_| {
            bad(format!(
                "{} pits; write the mover's 6 then the opponent's 6, e.g. '0 0 0 0 0 1 / 1 0 0 0 0 0'",
                counts.len()
            ))
        })?;
        let n = seeds(&pits);
        if n > TOTAL_SEEDS {
            return Err(bad(format!(
                "{n} seeds on the board; a game has {TOTAL_SEEDS}"
            )));
        }
        Ok(pits)
    }

    fn write_position(&self, pits: &Pits) -> String {
        let side = |s: &[u8]| {
            s.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!("{} / {}", side(&pits[..6]), side(&pits[6..]))
    }

    fn write_move(&self, _pits: &Pits, &pit: &usize) -> String {
        ((b'a' + pit as u8) as char).to_string()
    }
}

impl WholeGame<Abapa> for Abapa {
    fn total(&self) -> u64 {
        u64::from(TOTAL_SEEDS)
    }

    fn left(&self, pits: &Pits) -> u64 {
        u64::from(seeds(pits))
    }

    /// As the thesis says: 25 seeds win.
    fn ends_at_majority(&self) -> bool {
        true
    }

    fn endless_split(&self, pits: &Pits) -> Option<[u64; 2]> {
        match self.endless {
            Endless::Shared => None,
            Endless::Own => Some([u64::from(side(pits, 0)), u64::from(side(pits, 6))]),
        }
    }
}

/// Value iteration is checked on every position of up to this many seeds unless
/// more are asked for: a few seconds.
const REFERENCE_SEEDS: u32 = 12;

impl Reference<Abapa> for Abapa {
    fn name(&self) -> &'static str {
        "value iteration"
    }

    fn default_tiers(&self, present: &[u32]) -> Vec<u32> {
        (0..=REFERENCE_SEEDS)
            .take_while(|n| present.contains(n))
            .collect()
    }

    fn solve(&self, tiers: &[u32]) -> Vec<Vec<Option<Value>>> {
        let most = tiers.iter().copied().max().unwrap_or(0);
        let all = value_iteration(self.rules, most);
        tiers
            .iter()
            .map(|&n| {
                all[n as usize]
                    .iter()
                    .map(|&v| Some(Value::Score(i64::from(v))))
                    .collect()
            })
            .collect()
    }
}

/// The place of pit `j` (0..12) on the board: the mover's `a`..`f`, the
/// opponent's `oa`..`of`.
fn pit_place(j: usize) -> String {
    let letter = char::from(b'a' + (j % 6) as u8);
    if j < 6 {
        letter.to_string()
    } else {
        format!("o{letter}")
    }
}

impl Picture<Abapa> for Abapa {
    /// The opponent's row on top (right to left, as the seeds go round), the
    /// mover's below (a to f), each pit with its count; the stores at the ends
    /// show what each side has taken, when known.
    fn svg(&self, pits: &Pits, marks: &Marks) -> String {
        let (pit, pad, store) = (76.0, 18.0, 70.0);
        let width = 2.0 * pad + 2.0 * store + 6.0 * pit;
        let mut svg = Svg::new(width, 2.0 * pad + 2.0 * pit + 28.0);
        for (j, &seeds) in pits.iter().enumerate() {
            let (col, row) = if j < 6 { (j, 1.0) } else { (11 - j, 0.0) };
            let (x, y) = (pad + store + col as f64 * pit, pad + row * pit);
            let place = pit_place(j);
            let class = if marks.last.contains(&place) {
                "pit last"
            } else {
                "pit"
            };
            svg.rounded(
                (x + 4.0, y + 4.0, pit - 8.0, pit - 8.0),
                30.0,
                class,
                Some(&place),
            );
            // Up to 12 seeds drawn, four to a row, the count below them.
            for s in 0..usize::from(seeds).min(12) {
                let (sx, sy) = (
                    x + 20.0 + (s % 4) as f64 * 12.0,
                    y + 18.0 + (s / 4) as f64 * 12.0,
                );
                svg.circle(sx, sy, 4.5, "stone", None);
            }
            svg.text(x + pit / 2.0, y + pit - 18.0, &seeds.to_string(), "count");
        }
        for (i, label) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
            let x = pad + store + (i as f64 + 0.5) * pit;
            svg.text(x, pad + 2.0 * pit + 14.0, label, "label");
        }
        let height = 2.0 * pit;
        svg.rounded(
            (pad + 4.0, pad + 4.0, store - 8.0, height - 8.0),
            30.0,
            "pit",
            None,
        );
        svg.rounded(
            (
                width - pad - store + 4.0,
                pad + 4.0,
                store - 8.0,
                height - 8.0,
            ),
            30.0,
            "pit",
            None,
        );
        if let Some([mover, other]) = marks.taken {
            svg.text(pad + store / 2.0, pad + pit, &other.to_string(), "count");
            svg.text(
                width - pad - store / 2.0,
                pad + pit,
                &mover.to_string(),
                "count",
            );
        }
        svg.finish(&format!("Abapa board {}", self.write_position(pits)))
    }

    fn places(&self, _pits: &Pits, &pit: &usize) -> Vec<Clicks> {
        one_step(vec![pit_place(pit)])
    }

    /// The pit sown, in the opponent's row of the next board.
    fn landed(&self, _pits: &Pits, &pit: &usize) -> Vec<String> {
        vec![pit_place((pit + 6) % 12)]
    }
}

impl Editing<Abapa> for Abapa {
    fn tools(&self) -> Vec<Tool> {
        vec![
            Tool::on_board("add", "one more seed"),
            Tool::on_board("remove", "one fewer seed"),
        ]
    }

    fn edit(&self, text: &str, place: &str, tool: &str) -> Result<String, GameError> {
        let mut pits = self.parse_position(text)?;
        let j = (0..12)
            .find(|&j| pit_place(j) == place)
            .ok_or_else(|| GameError::position(place, "not a pit: a to f, or oa to of"))?;
        match tool {
            "add" if seeds(&pits) < TOTAL_SEEDS => pits[j] += 1,
            "add" => return Err(GameError::position(text, "all 48 seeds are on the board")),
            "remove" => pits[j] = pits[j].saturating_sub(1),
            _ => return Err(GameError::position(tool, "tools are add and remove")),
        }
        Ok(self.write_position(&pits))
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&self.parse_position(text)?, &Marks::default()))
    }
}

impl Drawing<Abapa> for Abapa {
    /// The mover's row at the bottom, the opponent's on top.
    fn draw(&self, pits: &Pits) -> String {
        self.draw_from(pits, Side::Mover, &|_| ' ')
    }

    /// The row of the side seen from at the bottom, `a` to `f` from the left;
    /// the other row on top, right to left (the sowing goes round
    /// counter-clockwise), lettered as its owner names its pits.
    fn draw_from(&self, pits: &Pits, side: Side, _owner: &dyn Fn(usize) -> char) -> String {
        let (near, far, near_is, far_is) = match side {
            Side::Mover => (0, 6, "to move", "waiting"),
            Side::Opponent => (6, 0, "waiting", "to move"),
        };
        let cell = |s: u8| format!("{s:>3}");
        let top: String = (far..far + 6).rev().map(|j| cell(pits[j])).collect();
        let bottom: String = (near..near + 6).map(|j| cell(pits[j])).collect();
        let letters: String = ('a'..='f').map(|c| format!("{c:>3}")).collect();
        let backwards: String = ('a'..='f').rev().map(|c| format!("{c:>3}")).collect();
        format!("{backwards}\n{top}   ({far_is})\n{bottom}   ({near_is})\n{letters}")
    }
}

/// The values of every position of every tier up to `max_seeds`, by value
/// iteration: written apart from the retrograde solver, to check it. Inside a tier,
/// round `k` holds the value of the game cut after `k` plies (an unfinished game
/// counting 0): every position starts at its end score or 0, and each round takes
/// the best move against the previous round's values, until a round changes
/// nothing. A cut game's result of at least 1 (or at most -1) is one the mover
/// (or the opponent) can force within `k` plies, so the rounds stop exactly at the
/// values of the uncut game, endless play counting 0.
pub fn value_iteration(rules: Rules, max_seeds: u32) -> Vec<Vec<i8>> {
    let mut solved: Vec<Vec<i8>> = Vec::new();
    for n in 0..=max_seeds {
        // For each position: the best result out of the tier (or its end score),
        // and the ranks its quiet moves lead to.
        let mut fixed = Vec::new();
        let mut quiet: Vec<Vec<u32>> = Vec::new();
        for index in 0..tier_size(n) {
            let pits = unrank(n, index);
            let mut best = end_score(&pits);
            let mut inside = Vec::new();
            for pit in legal_pits(&pits) {
                let sowing = rules.sow(&pits, pit);
                let left = seeds(&sowing.after);
                if left == n {
                    inside.push(rank(&sowing.after) as u32);
                } else {
                    let x = sowing.gain - solved[left as usize][rank(&sowing.after) as usize];
                    best = Some(best.map_or(x, |b: i8| b.max(x)));
                }
            }
            fixed.push(best);
            quiet.push(inside);
        }
        // Round 0: the game cut before any move.
        let mut values: Vec<i8> = (0..tier_size(n))
            .map(|index| end_score(&unrank(n, index)).unwrap_or(0))
            .collect();
        loop {
            let next: Vec<i8> = fixed
                .iter()
                .zip(&quiet)
                .map(|(f, q)| {
                    let inside = q.iter().map(|&c| -values[c as usize]).max();
                    match (f, inside) {
                        (Some(f), Some(i)) => (*f).max(i),
                        (Some(f), None) => *f,
                        (None, Some(i)) => i,
                        (None, None) => unreachable!("a position with no move has an end score"),
                    }
                })
                .collect();
            if next == values {
                break;
            }
            values = next;
        }
        solved.push(values);
    }
    solved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Pits {
        Abapa::new(Rules::Default, 48).parse_position(text).unwrap()
    }

    #[test]
    fn ranks_count_and_invert() {
        assert_eq!(tier_size(0), 1);
        assert_eq!(tier_size(1), 12);
        assert_eq!(tier_size(20), 84_672_315);
        let total: u64 = (0..=20).map(tier_size).sum();
        assert_eq!(total, 225_792_840);
        for n in [0, 1, 2, 5, 9] {
            let mut pits = unrank(n, 0);
            let mut count = 0;
            loop {
                assert_eq!(rank(&pits), count);
                assert_eq!(unrank(n, count), pits);
                count += 1;
                if !next_position(&mut pits) {
                    break;
                }
            }
            assert_eq!(count, tier_size(n));
        }
        let start = [4u8; 12];
        assert_eq!(unrank(48, rank(&start)), start);
    }

    #[test]
    fn sowing_captures_skips_and_slams() {
        let rules = Rules::Default;
        // The last seed makes 2 in pit 6: captured.
        let s = rules.sow(&board("0 0 0 0 0 1 / 1 0 0 0 0 0"), 5);
        // ...but those are all the opponent's seeds: a grand slam takes nothing.
        assert_eq!(s.gain, 0);
        assert_eq!(s.after, board("2 0 0 0 0 0 / 0 0 0 0 0 0"));
        let s = rules.sow(&board("0 0 0 0 0 2 / 1 1 1 0 0 0"), 5);
        assert_eq!((s.gain, s.after), (4, board("0 0 1 0 0 0 / 0 0 0 0 0 0")));
        // 12 seeds go round and skip their own pit.
        let s = rules.sow(&board("12 0 0 0 0 0 / 0 0 0 0 0 0"), 0);
        assert_eq!(s.after, board("1 1 1 1 1 1 / 0 2 1 1 1 1"));
        // Both sides under 4 after the move: the thesis rule ends the game.
        let s = Rules::Thesis.sow(&board("0 0 0 0 1 1 / 0 0 0 0 0 0"), 5);
        assert_eq!((s.gain, s.after), (0, [0; 12]));
    }

    #[test]
    fn feeding_and_ends() {
        // The opponent is empty: only f reaches it.
        assert_eq!(
            legal_pits(&board("0 0 0 0 1 1 / 0 0 0 0 0 0")).collect::<Vec<_>>(),
            [5]
        );
        assert_eq!(end_score(&board("1 0 0 0 0 0 / 0 0 0 0 0 0")), Some(1));
        assert_eq!(end_score(&board("0 0 0 0 0 0 / 3 0 0 0 0 0")), Some(-3));
        assert_eq!(end_score(&board("0 0 0 0 0 1 / 0 0 0 0 0 0")), None);
    }

    #[test]
    fn unmoves_are_exactly_the_quiet_moves() {
        for rules in [Rules::Default, Rules::Thesis] {
            let mut quiet = 0;
            for n in 1..=6 {
                let mut forward = std::collections::HashMap::<(Pits, Pits), usize>::new();
                let mut backward = forward.clone();
                let mut pits = unrank(n, 0);
                loop {
                    for i in legal_pits(&pits) {
                        let s = rules.sow(&pits, i);
                        if s.gain == 0 && seeds(&s.after) == n {
                            *forward.entry((pits, s.after)).or_default() += 1;
                        }
                    }
                    unmoves(rules, &pits, |parent| {
                        *backward.entry((*parent, pits)).or_default() += 1;
                    });
                    if !next_position(&mut pits) {
                        break;
                    }
                }
                quiet += forward.len();
                assert_eq!(forward, backward, "{rules:?} n = {n}");
            }
            assert!(quiet > 1_000, "{rules:?}: {quiet}");
        }
    }

    #[test]
    fn surely_quiet_moves_are_quiet() {
        // Counts a move (sure, quiet) after checking that a move said to be
        // surely quiet is quiet when sown.
        fn tally(rules: Rules, pits: &Pits, i: usize, counts: &mut (usize, usize)) {
            let s = rules.sow(pits, i);
            let is_quiet = s.gain == 0 && s.shared.is_none();
            counts.1 += usize::from(is_quiet);
            if rules.surely_quiet(pits, i, seeds(pits)) {
                assert!(is_quiet, "{rules:?} {pits:?} pit {i}");
                counts.0 += 1;
            }
        }
        for rules in [Rules::Default, Rules::Thesis] {
            let mut counts = (0, 0);
            for n in 1..=10 {
                let mut pits = unrank(n, 0);
                loop {
                    for i in legal_pits(&pits) {
                        tally(rules, &pits, i, &mut counts);
                    }
                    if !next_position(&mut pits) {
                        break;
                    }
                }
            }
            // Most quiet moves are known without sowing.
            let (sure, quiet) = counts;
            assert!(sure * 10 > quiet * 8, "{rules:?}: {sure} of {quiet}");
            // Sowings that go round the board once or twice: one pit of 11 to
            // 34 seeds beside every position of 4 seeds.
            let mut counts = (0, 0);
            for rank in 0..tier_size(4) {
                for (i, big) in (0..6).flat_map(|i| (11..=34).map(move |big| (i, big))) {
                    let mut pits = unrank(4, rank);
                    pits[i] = big;
                    tally(rules, &pits, i, &mut counts);
                }
            }
            let (sure, quiet) = counts;
            assert!(sure * 10 > quiet * 8, "{rules:?}, laps: {sure} of {quiet}");
        }
    }

    #[test]
    fn notation_errors_say_why() {
        let game = Abapa::new(Rules::Default, 48);
        for (bad, why) in [
            ("0 0 0 0 0 1 / 1 0 0 0 0", "11 pits"),
            ("0 0 0 0 1 / 1 0 0 0 0 0 0", "5 pits before"),
            ("0 0 0 0 0 x / 1 0 0 0 0 0", "'x' is not"),
            ("9 9 9 9 9 9 / 9 0 0 0 0 0", "63 seeds"),
        ] {
            let err = game.parse_position(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!(
            game.write_position(&board("0 0 0 0 0 1 1 0 0 0 0 0")),
            "0 0 0 0 0 1 / 1 0 0 0 0 0"
        );
    }
}

#[cfg(test)]
mod iteration_tests {
    use super::*;

    #[test]
    fn value_iteration_knows_the_hand_checked_positions() {
        let game = Abapa::new(Rules::Default, 48);
        let value = |tiers: &[Vec<i8>], text: &str| {
            let pits = game.parse_position(text).unwrap();
            tiers[seeds(&pits) as usize][rank(&pits) as usize]
        };
        let default = value_iteration(Rules::Default, 3);
        assert_eq!(value(&default, "0 0 0 0 0 1 / 1 0 0 0 0 0"), -2);
        assert_eq!(value(&default, "1 0 0 0 0 0 / 1 0 0 0 0 0"), 0);
        assert_eq!(value(&default, "0 0 0 0 1 1 / 0 0 0 0 0 0"), -2);
        let thesis = value_iteration(Rules::Thesis, 3);
        assert_eq!(value(&thesis, "0 0 0 0 1 1 / 0 0 0 0 0 0"), 0);
    }
}
