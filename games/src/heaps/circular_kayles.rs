//! Circular Kayles: pins stand in a circle, and a move knocks down 1 to `k`
//! adjacent pins. The first move opens the circle into a row; later moves knock
//! pins from rows, splitting a row in two when they knock from its middle. Whoever
//! knocks the last pin wins, or under `--misere` loses.
//!
//! Normal play is answered for positions beyond the tables by Sprague-Grundy
//! theory. A row is the octal game that removes 1 to `k` adjacent pins (Kayles for
//! `k = 2`): its Grundy values come from the mex rule, extended without end where
//! a period is proven by the periodicity theorem (`k` = 1, 2, 4, 6 and 8), and
//! computed up to [`COMPUTED_ROW`] pins otherwise. A circle of `n` has the value
//! mex of the rows of `n - j` for `j` from 1 to `k`. Misère play has no formula:
//! tables only.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, TableNotes,
};
use crate::game::{Child, Game, GameError};
use crate::grundy::{
    MAX_FORMULA_HEAP, PERIODIC_PREFIX, Periodic, Split, extend_by_mex, knocked_pins, mark_knocks,
};
use crate::heap_picture;
use crate::heaps::{parse_heaps, write_heaps};
use crate::multiset::orderings;
use crate::partition::Partitions;
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::value::{Value, ValueKind};
use std::sync::OnceLock;

/// The largest `--k`.
pub const MAX_K: u64 = 8;
/// The default and largest `--limit`: the most pins in a table position.
pub const DEFAULT_LIMIT: u64 = 40;
pub const MAX_LIMIT: u64 = 60;
/// The longest row or circle answered where no period is proven: its values are
/// computed by the mex rule.
pub const COMPUTED_ROW: u64 = 10_000;

pub static SPEC: Spec<CircularKayles> = Spec {
    entry: Entry {
        id: "circular-kayles",
        extras: Extras::NONE,
        about: "Circular Kayles: knock down 1 to k adjacent pins of a circle, then of the rows it leaves; \
                who knocks the last pin wins (misère play: loses)",
        notation: "a circle of pins: c12; or rows of pins separated by spaces or commas: 5 3; \
                   a move on a circle knocks j pins: c-2; on rows, counted from 1: \
                   h2-1 knocks 1 from the end of row 2, h2-1:4+6 knocks 1 leaving rows of 4 and 6",
        options: &[
            OptionSpec {
                name: "k",
                help: "the most adjacent pins one move knocks down",
                scope: Scope::Variant,
                values: Values::Range(1, MAX_K),
                default: Some("2"),
                positional: false,
            },
            OptionSpec {
                name: "limit",
                help: "the most pins in a table position",
                scope: Scope::Variant,
                values: Values::Range(1, MAX_LIMIT),
                default: Some("40"),
                positional: false,
            },
            OptionSpec {
                name: "misere",
                help: "misère play: whoever knocks the last pin loses (tables only: no formula is known)",
                scope: Scope::Variant,
                values: Values::Flag,
                default: Some("no"),
                positional: false,
            },
        ],
        all: &[&[], &[("misere", "yes")]],
    },
    build: |options| {
        Ok(CircularKayles::new(
            options.number("k").unwrap_or(2),
            options.number("limit").unwrap_or(DEFAULT_LIMIT),
            options.get("misere") == Some("yes"),
        ))
    },
    capabilities: |game| match game.misere {
        true => Capabilities {
            picture: Some(game),
            notes: Some(game),
            ..Capabilities::new(
                Solver::Layered(game),
                vec![Check::Consistency, Check::LiveSearch],
            )
        },
        false => Capabilities {
            formula: Some(game),
            picture: Some(game),
            notes: Some(game),
            ..Capabilities::new(
                Solver::Layered(game),
                vec![Check::Formula, Check::LiveSearch],
            )
        },
    },
    generate_options: |game, _| {
        let mut options = vec![("k", game.k.to_string())];
        if game.slots.limit() != DEFAULT_LIMIT {
            options.push(("limit", game.slots.limit().to_string()));
        }
        if game.misere {
            options.push(("misere", "yes".to_string()));
        }
        options
    },
};

/// A whole circle of pins, or rows of pins (empty rows keep their place, so that
/// the others keep their numbers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Pins {
    Circle(u64),
    Rows(Vec<u64>),
}

/// A move: knock `j` pins from the circle, or knock pins from a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knock {
    Circle(u64),
    Row(Split),
}

/// The Grundy values of rows for one `k`.
#[derive(Debug)]
enum RowValues {
    Periodic(Periodic),
    Computed(Vec<u32>),
}

impl RowValues {
    fn of(k: u64) -> &'static RowValues {
        static CACHE: [OnceLock<RowValues>; MAX_K as usize + 1] = [const { OnceLock::new() }; 9];
        CACHE[k as usize].get_or_init(|| {
            let mut values = Vec::new();
            extend_by_mex(&mut values, PERIODIC_PREFIX, |n, values, mark| {
                mark_knocks(n, 1..=k, values, mark)
            });
            match Periodic::prove(values.clone(), k) {
                Some(periodic) => RowValues::Periodic(periodic),
                None => {
                    extend_by_mex(&mut values, COMPUTED_ROW, |n, values, mark| {
                        mark_knocks(n, 1..=k, values, mark)
                    });
                    RowValues::Computed(values)
                }
            }
        })
    }

    /// The longest row or circle answered.
    fn reach(&self) -> u64 {
        match self {
            RowValues::Periodic(_) => MAX_FORMULA_HEAP,
            RowValues::Computed(_) => COMPUTED_ROW,
        }
    }

    fn value(&self, n: u64) -> u64 {
        match self {
            RowValues::Periodic(p) => p.value(n),
            RowValues::Computed(values) => u64::from(values[n as usize]),
        }
    }
}

#[derive(Debug, Clone)]
pub struct CircularKayles {
    k: u64,
    slots: Partitions,
    misere: bool,
}

impl CircularKayles {
    pub fn new(k: u64, limit: u64, misere: bool) -> Self {
        CircularKayles {
            k: k.clamp(1, MAX_K),
            slots: Partitions::new(limit.clamp(1, MAX_LIMIT)),
            misere,
        }
    }

    fn values(&self) -> &'static RowValues {
        RowValues::of(self.k)
    }

    /// The Grundy value of a row of `n` pins.
    pub fn row_value(&self, n: u64) -> u64 {
        self.values().value(n)
    }

    /// The Grundy value of a circle of `n` pins: the mex of the rows it opens into.
    pub fn circle_value(&self, n: u64) -> u64 {
        let options: Vec<u64> = (1..=self.k.min(n)).map(|j| self.row_value(n - j)).collect();
        (0..)
            .find(|v| !options.contains(v))
            .expect("a value is missing")
    }

    /// The knock-downs of a row of `n`: `(removed, left, right)` with
    /// `left <= right`.
    fn row_options(&self, n: u64) -> impl Iterator<Item = (u64, u64, u64)> {
        (1..=self.k.min(n)).flat_map(move |removed| {
            let rest = n - removed;
            (0..=rest / 2).map(move |a| (removed, a, rest - a))
        })
    }

    fn pins(position: &Pins) -> u64 {
        match position {
            Pins::Circle(n) => *n,
            Pins::Rows(rows) => rows.iter().sum(),
        }
    }

    fn circles_from(&self) -> u64 {
        self.slots.size()
    }
}

impl Game for CircularKayles {
    type Position = Pins;
    type Move = Knock;

    fn id(&self) -> &'static str {
        "circular-kayles"
    }

    /// `k<k>`, then `misere` and the limit where they apply.
    fn variant(&self) -> String {
        let mut parts = vec![format!("k{}", self.k)];
        if self.misere {
            parts.push("misere".into());
        }
        if self.slots.limit() != DEFAULT_LIMIT {
            parts.push(self.slots.limit().to_string());
        }
        parts.join("-")
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    /// Every row multiset, then the circles of 1 to `limit` pins.
    fn index_size(&self, _tier: u32) -> u64 {
        self.circles_from() + self.slots.limit()
    }

    fn index(&self, position: &Pins) -> u64 {
        match position {
            Pins::Rows(rows) => self.slots.rank(rows),
            Pins::Circle(n) => self.circles_from() + n - 1,
        }
    }

    fn position_at(&self, tier: u32, index: u64) -> Option<Pins> {
        match index.checked_sub(self.circles_from()) {
            None => Some(Pins::Rows(self.slots.unrank(index))),
            Some(_) if index >= self.index_size(tier) => None,
            Some(circle) => Some(Pins::Circle(circle + 1)),
        }
    }

    fn class_size(&self, _tier: u32, index: u64) -> u64 {
        match index < self.circles_from() {
            true => orderings(&self.slots.unrank(index)),
            false => 1,
        }
    }

    fn coverage(&self, position: &Pins) -> Result<(), String> {
        let limit = self.slots.limit();
        match Self::pins(position) <= limit {
            true => Ok(()),
            false => Err(format!(
                "more than {limit} pins; the tables hold positions of up to {limit} pins"
            )),
        }
    }

    fn start(&self) -> Pins {
        Pins::Circle(12)
    }

    fn moves(&self, position: &Pins) -> Vec<Knock> {
        match position {
            Pins::Circle(n) => (1..=self.k.min(*n)).map(Knock::Circle).collect(),
            Pins::Rows(rows) => rows
                .iter()
                .enumerate()
                .flat_map(|(heap, &n)| {
                    self.row_options(n).map(move |(removed, left, right)| {
                        Knock::Row(Split {
                            heap,
                            removed,
                            left,
                            right,
                        })
                    })
                })
                .collect(),
        }
    }

    /// A circle opens into one row; a row becomes its non-empty parts, in place.
    fn play(&self, position: &Pins, mv: &Knock) -> Child<Pins> {
        Child::passing(match (position, mv) {
            (Pins::Circle(n), Knock::Circle(j)) => Pins::Rows(vec![n - j]),
            (Pins::Rows(rows), Knock::Row(split)) => {
                let mut after = rows.clone();
                after[split.heap] = split.right;
                if split.left > 0 {
                    after.insert(split.heap, split.left);
                }
                Pins::Rows(after)
            }
            _ => unreachable!("moves are played on the position they were made for"),
        })
    }

    fn end_value(&self, position: &Pins) -> Option<Value> {
        (Self::pins(position) == 0).then_some(match self.misere {
            true => Value::Win(0),
            false => Value::Loss(0),
        })
    }

    fn why_over(&self, _position: &Pins) -> String {
        match self.misere {
            true => "no pins are left: the opponent knocked the last one, and lost".into(),
            false => "no pins are left".into(),
        }
    }

    /// Rows sorted, empty ones dropped.
    fn search_key(&self, position: &Pins) -> Pins {
        match position {
            Pins::Circle(_) => position.clone(),
            Pins::Rows(rows) => Pins::Rows(crate::heaps::sorted_key(rows)),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Pins, GameError> {
        let reach = self.values().reach();
        let trimmed = text.trim().to_ascii_lowercase();
        let position = match trimmed.strip_prefix('c') {
            Some(rest) => {
                let n: u64 = rest.trim().parse().map_err(|_| {
                    let reason = match rest.contains(|c: char| c == ',' || c.is_whitespace()) {
                        true => "a position is one circle or rows, never both".to_string(),
                        false => format!("a circle is c<pins>, from c1 to c{reach}: c12"),
                    };
                    GameError::position(text, reason)
                })?;
                if n == 0 {
                    return Err(GameError::position(text, "a circle has at least 1 pin"));
                }
                Pins::Circle(n)
            }
            None if trimmed.contains('c') => {
                return Err(GameError::position(
                    text,
                    "a position is one circle (c12) or rows (5 3), never both",
                ));
            }
            None => Pins::Rows(parse_heaps(text)?),
        };
        let longest = match &position {
            Pins::Circle(n) => *n,
            Pins::Rows(rows) => rows.iter().copied().max().unwrap_or(0),
        };
        match longest > reach {
            true => Err(GameError::position(
                text,
                format!(
                    "{longest} pins in one circle or row: with k = {} circles and rows of up to {reach} are answered",
                    self.k
                ),
            )),
            false => Ok(position),
        }
    }

    fn write_position(&self, position: &Pins) -> String {
        match position {
            Pins::Circle(n) => format!("c{n}"),
            Pins::Rows(rows) => write_heaps(rows),
        }
    }

    fn write_move(&self, _position: &Pins, mv: &Knock) -> String {
        match mv {
            Knock::Circle(j) => format!("c-{j}"),
            Knock::Row(split) => split.write(),
        }
    }
}

impl ClosedForm<CircularKayles> for CircularKayles {
    /// Every knock of 1 to k pins at every place.
    fn weight(&self, position: &Pins) -> u64 {
        let pins = match position {
            Pins::Circle(n) => *n,
            Pins::Rows(rows) => rows
                .iter()
                .fold(rows.len() as u64, |w, &n| w.saturating_add(n)),
        };
        pins.saturating_mul(self.k)
    }

    fn formula(&self, position: &Pins) -> Result<Formula<Knock>, GameError> {
        let (part_values, winning_moves) = match position {
            Pins::Circle(n) => {
                let value = self.circle_value(*n);
                let winning = (1..=self.k.min(*n))
                    .filter(|&j| value != 0 && self.row_value(n - j) == 0)
                    .map(Knock::Circle)
                    .collect();
                (vec![value], winning)
            }
            Pins::Rows(rows) => {
                let values: Vec<u64> = rows.iter().map(|&n| self.row_value(n)).collect();
                let nim_sum = values.iter().fold(0, |x, v| x ^ v);
                let mut winning = Vec::new();
                for (heap, (&n, &v)) in rows.iter().zip(&values).enumerate() {
                    let want = nim_sum ^ v;
                    if nim_sum == 0 {
                        continue;
                    }
                    winning.extend(
                        self.row_options(n)
                            .filter(|&(_, a, b)| self.row_value(a) ^ self.row_value(b) == want)
                            .map(|(removed, left, right)| {
                                Knock::Row(Split {
                                    heap,
                                    removed,
                                    left,
                                    right,
                                })
                            }),
                    );
                }
                (values, winning)
            }
        };
        let nim_sum = part_values.iter().fold(0, |x, v| x ^ v);
        Ok(Formula {
            mover_wins: nim_sum != 0,
            nim_sum: Some(nim_sum),
            part_values: Some(part_values),
            winning_moves,
        })
    }

    fn measure(&self) -> &'static str {
        "pins left"
    }

    fn left(&self, position: &Pins) -> u64 {
        Self::pins(position)
    }
}

impl Layered<CircularKayles> for CircularKayles {
    fn layers(&self, _tier: u32) -> u32 {
        self.slots.limit() as u32 + 1
    }

    /// Every move knocks at least one pin.
    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let position = self.position_at(tier, index).expect("a slot in range");
        self.slots.limit() as u32 - Self::pins(&position) as u32
    }
}

impl TableNotes<CircularKayles> for CircularKayles {
    /// Where the formula's Grundy values come from.
    fn notes(&self, _tier: u32, _code: &(dyn Fn(u64) -> u16 + Sync)) -> Vec<(String, String)> {
        let source = match (self.misere, self.values()) {
            (true, _) => "none: misère play is answered by the tables only".to_string(),
            (false, RowValues::Periodic(p)) => format!(
                "rows: period {} from {} (proven by the periodicity theorem); circles: mex of the rows they open into",
                p.period, p.start
            ),
            (false, RowValues::Computed(_)) => format!(
                "rows: the mex rule up to {COMPUTED_ROW} pins, no period found; circles: mex of the rows they open into"
            ),
        };
        vec![("Grundy values".into(), source)]
    }
}

impl Picture<CircularKayles> for CircularKayles {
    fn svg(&self, position: &Pins, marks: &Marks) -> String {
        let title = format!("circular Kayles {}", self.write_position(position));
        match position {
            Pins::Circle(n) => heap_picture::svg_circle(*n, marks, &title),
            Pins::Rows(rows) => heap_picture::svg_rows(rows, marks, &title),
        }
    }

    fn clickable(&self, position: &Pins) -> bool {
        match position {
            Pins::Circle(n) => heap_picture::drawn_whole(&[*n]),
            Pins::Rows(rows) => heap_picture::drawn_whole(rows),
        }
    }

    /// On a circle, any `j` adjacent pins; on a row, the pins knocked counted
    /// from either end.
    fn places(&self, position: &Pins, mv: &Knock) -> Vec<Clicks> {
        let mut ways = match (position, mv) {
            (Pins::Circle(n), Knock::Circle(j)) => (0..*n)
                .map(|start| {
                    (start..start + j)
                        .map(|p| format!("p{}", p % n + 1))
                        .collect()
                })
                .collect(),
            (_, Knock::Row(split)) => knocked_pins(split),
            _ => Vec::new(),
        };
        ways.dedup();
        ways.into_iter().map(|way| vec![way]).collect()
    }

    /// The row left by opening the circle; the rows played on.
    fn landed(&self, _position: &Pins, mv: &Knock) -> Vec<String> {
        match mv {
            Knock::Circle(_) => vec!["h1".into()],
            Knock::Row(split) => {
                let split_off = usize::from(split.left > 0);
                (split.heap..=split.heap + split_off)
                    .map(|i| format!("h{}", i + 1))
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grundy::HeapGame;
    use crate::search::Negamax;

    /// Rows with k = 2 are Kayles: the same values, far past any period's start.
    #[test]
    fn rows_with_two_pins_are_kayles() {
        let game = CircularKayles::new(2, 10, false);
        for n in (0..500).chain([99_999, 100_000]) {
            assert_eq!(game.row_value(n), HeapGame::Kayles.value(n), "row of {n}");
        }
    }

    /// Values from the periodic sequences agree with the mex rule far past the
    /// prefix they were proven on.
    #[test]
    fn proven_periods_hold_on_longer_sequences() {
        for k in [1, 2, 4, 6, 8] {
            let game = CircularKayles::new(k, 10, false);
            assert!(matches!(game.values(), RowValues::Periodic(_)), "k {k}");
            let mut values = Vec::new();
            extend_by_mex(&mut values, 3_000, |n, values, mark| {
                mark_knocks(n, 1..=k, values, mark)
            });
            for (n, &v) in values.iter().enumerate() {
                assert_eq!(game.row_value(n as u64), u64::from(v), "k {k}, row of {n}");
            }
        }
        // Knocking up to 3 has no period within the prefix: computed values.
        let three = CircularKayles::new(3, 10, false);
        assert!(matches!(three.values(), RowValues::Computed(_)));
        assert!(three.parse_position("c10001").is_err());
    }

    /// Every circle and row position of up to 9 pins, k = 1 to 4, against plain
    /// search: the verdict and exactly the winning moves.
    #[test]
    fn the_formula_names_every_winning_move() {
        for k in 1..=4 {
            let game = CircularKayles::new(k, 9, false);
            let mut search = Negamax::new(&game);
            for index in 0..game.index_size(0) {
                let position = game.position_at(0, index).unwrap();
                let winning: Vec<Knock> = game
                    .moves(&position)
                    .into_iter()
                    .filter(|m| {
                        let after = game.play(&position, m).position;
                        matches!(search.value(&after), Value::Loss(_))
                    })
                    .collect();
                let formula = game.formula(&position).unwrap();
                let wins = matches!(search.value(&position), Value::Win(_));
                assert_eq!(formula.mover_wins, wins, "{position:?} k {k}");
                assert_eq!(formula.winning_moves, winning, "{position:?} k {k}");
            }
        }
    }

    #[test]
    fn positions_and_moves_read_and_write_back() {
        let game = CircularKayles::new(2, 40, false);
        let circle = game.parse_position(" C12 ").unwrap();
        assert_eq!(circle, Pins::Circle(12));
        assert_eq!(
            game.moves(&circle)
                .iter()
                .map(|m| game.write_move(&circle, m))
                .collect::<Vec<_>>(),
            ["c-1", "c-2"]
        );
        let after = game.play(&circle, &Knock::Circle(2)).position;
        assert_eq!(game.write_position(&after), "10");
        let rows = game.parse_position("5 3").unwrap();
        let mv = game.parse_move(&rows, "h1-1:1+3").unwrap();
        assert_eq!(
            game.write_position(&game.play(&rows, &mv).position),
            "1 3 3"
        );
        for (bad, why) in [
            ("c0", "at least 1 pin"),
            ("c5 3", "never both"),
            ("5 c3", "never both"),
            ("cx", "a circle is c<pins>"),
            ("c100001", "up to 100000 are answered"),
        ] {
            let err = game.parse_position(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        // Slots: the rows first, then the circles.
        let last = game.index_size(0) - 1;
        assert_eq!(game.position_at(0, last), Some(Pins::Circle(40)));
        assert_eq!(game.index(&Pins::Circle(40)), last);
        assert_eq!(game.position_at(0, last + 1), None);
    }
}
