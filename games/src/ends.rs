//! Pick from the ends: numbers in a row; players in turn take the leftmost or the
//! rightmost number and add it to their score. The margin under perfect play (the
//! mover's total minus the opponent's) comes from O(n^2) dynamic programming over
//! the rows that remain, `margin(i..j) = max(a[i] - margin(i+1..j), a[j-1] -
//! margin(i..j-1))`; brute force over every line of play checks it for short rows.

use crate::capability::{
    Capabilities, Check, Clicks, Exact, Marks, Picture, Sampler, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Ends> = Spec {
    entry: Entry {
        id: "ends",
        extras: Extras::COUNTED,
        about: "Pick from the ends: take the leftmost or rightmost number of a row; the larger total wins",
        notation: "up to 1,000 whole numbers separated by spaces or commas: 1 9 2 4; \
                   a move is left or right",
        options: &[],
        all: &[],
    },
    build: |_| Ok(Ends),
    capabilities: |game| Capabilities {
        exact: Some(game),
        picture: Some(game),
        ..Capabilities::new(Solver::None, vec![Check::ExactAgainstSearch(game)])
    },
    generate_options: no_generate_options,
};

/// The game: positions are the numbers left, its value the mover's best margin.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ends;

/// The longest row answered.
pub const MAX_NUMBERS: usize = 1000;

/// Which end to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Left,
    Right,
}

impl End {
    pub fn write(self) -> &'static str {
        match self {
            End::Left => "left",
            End::Right => "right",
        }
    }
}

impl Game for Ends {
    type Position = Vec<i64>;
    type Move = End;

    fn id(&self) -> &'static str {
        "ends"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::Score
    }

    /// No tables: every position is valued on demand.
    fn index_size(&self, _tier: u32) -> u64 {
        0
    }

    fn index(&self, _row: &Vec<i64>) -> u64 {
        0
    }

    fn position_at(&self, _tier: u32, _index: u64) -> Option<Vec<i64>> {
        None
    }

    fn coverage(&self, _row: &Vec<i64>) -> Result<(), String> {
        Err("pick from the ends keeps no tables".into())
    }

    fn start(&self) -> Vec<i64> {
        vec![3, 9, 1, 2, 7, 4, 8, 5]
    }

    /// Left, and right where two or more numbers are left.
    fn moves(&self, row: &Vec<i64>) -> Vec<End> {
        match row.len() {
            0 => Vec::new(),
            1 => vec![End::Left],
            _ => vec![End::Left, End::Right],
        }
    }

    fn play(&self, row: &Vec<i64>, end: &End) -> Child<Vec<i64>> {
        let (taken, rest) = match end {
            End::Left => (row[0], row[1..].to_vec()),
            End::Right => (row[row.len() - 1], row[..row.len() - 1].to_vec()),
        };
        Child {
            position: rest,
            turn_passes: true,
            gain: taken,
            reset: None,
        }
    }

    fn end_value(&self, row: &Vec<i64>) -> Option<Value> {
        row.is_empty().then_some(Value::Score(0))
    }

    fn why_over(&self, _row: &Vec<i64>) -> String {
        "every number is taken".into()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<i64>, GameError> {
        parse_row(text)
    }

    fn write_position(&self, row: &Vec<i64>) -> String {
        row.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
    }

    fn write_move(&self, _row: &Vec<i64>, end: &End) -> String {
        end.write().to_string()
    }
}

/// Numbers drawn at each end of a long row; the middle is elided.
const SHOWN_EACH_END: usize = 12;

impl Picture<Ends> for Ends {
    /// The row of numbers, the two ends to click; what each side has taken
    /// below when known.
    fn svg(&self, row: &Vec<i64>, marks: &Marks) -> String {
        let (box_px, pad) = (62.0, 20.0);
        let cells: Vec<Option<usize>> = if row.len() <= 2 * SHOWN_EACH_END {
            (0..row.len()).map(Some).collect()
        } else {
            (0..SHOWN_EACH_END)
                .map(Some)
                .chain([None])
                .chain((row.len() - SHOWN_EACH_END..row.len()).map(Some))
                .collect()
        };
        let below = if marks.taken.is_some() { 34.0 } else { 0.0 };
        let width = 2.0 * pad + (cells.len().max(4) as f64) * box_px;
        let mut svg = Svg::new(width, 2.0 * pad + box_px + below);
        for (slot, cell) in cells.iter().enumerate() {
            let x = pad + slot as f64 * box_px;
            let Some(i) = cell else {
                svg.text(x + box_px / 2.0, pad + box_px / 2.0, "...", "label");
                continue;
            };
            let place = match *i {
                0 => Some("left"),
                i if i + 1 == row.len() => Some("right"),
                _ => None,
            };
            svg.rounded(
                (x + 3.0, pad + 3.0, box_px - 6.0, box_px - 6.0),
                8.0,
                "pit",
                place,
            );
            svg.text(
                x + box_px / 2.0,
                pad + box_px / 2.0,
                &row[*i].to_string(),
                "count",
            );
        }
        if let Some([mover, other]) = marks.taken {
            let text = format!("to move has {mover}, the other {other}");
            svg.text(width / 2.0, 2.0 * pad + box_px + 10.0, &text, "label");
        }
        svg.finish(&format!("pick from the ends: {}", self.write_position(row)))
    }

    fn places(&self, _row: &Vec<i64>, end: &End) -> Vec<Clicks> {
        one_step(vec![end.write().to_string()])
    }

    /// Nothing: the number taken is gone from the row.
    fn landed(&self, _row: &Vec<i64>, _end: &End) -> Vec<String> {
        Vec::new()
    }
}

impl Exact<Ends> for Ends {
    fn value(&self, row: &Vec<i64>) -> Value {
        Value::Score(solve(row).0)
    }
}

impl Sampler<Ends> for Ends {
    /// Up to 14 numbers from -20 to 50: brute force checks them in moments.
    fn sample(&self, seed: u64) -> Vec<i64> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let n = next() % 15;
        (0..n).map(|_| (next() % 71) as i64 - 20).collect()
    }
}

/// Numbers separated by spaces or commas, each a whole number (negatives allowed)
/// of magnitude below 10^15, at most 1,000 of them.
pub fn parse_row(text: &str) -> Result<Vec<i64>, GameError> {
    let numbers = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, s)| match s.parse::<i64>() {
            Ok(n) if n.unsigned_abs() < 1_000_000_000_000_000 => Ok(n),
            _ => Err(GameError::position(
                text,
                format!(
                    "number {} is '{s}': whole numbers below 10^15 in size",
                    i + 1
                ),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if numbers.len() > MAX_NUMBERS {
        return Err(GameError::position(
            text,
            format!("{} numbers; at most {MAX_NUMBERS}", numbers.len()),
        ));
    }
    Ok(numbers)
}

/// The margin for the mover, and the ends that achieve it (empty for an empty row).
pub fn solve(row: &[i64]) -> (i64, Vec<End>) {
    let n = row.len();
    if n == 0 {
        return (0, Vec::new());
    }
    // best[i] holds the margin of row[i..i + len] for the current length.
    let mut best: Vec<i64> = row.to_vec();
    for len in 2..n {
        for i in 0..=n - len {
            best[i] = (row[i] - best[i + 1]).max(row[i + len - 1] - best[i]);
        }
    }
    let (left, right) = if n == 1 {
        (row[0], row[0])
    } else {
        (row[0] - best[1], row[n - 1] - best[0])
    };
    let margin = left.max(right);
    let mut ends = Vec::new();
    if left == margin {
        ends.push(End::Left);
    }
    if right == margin && n > 1 {
        ends.push(End::Right);
    }
    (margin, ends)
}

/// The margin by trying every line of play (2^n of them): for checking `solve`.
pub fn brute_force(row: &[i64]) -> i64 {
    match row {
        [] => 0,
        [only] => *only,
        [first, .., last] => {
            (first - brute_force(&row[1..])).max(last - brute_force(&row[..row.len() - 1]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_programming_matches_brute_force() {
        let mut seed = 12345u64;
        for n in 0..=14 {
            for _ in 0..20 {
                let row: Vec<i64> = (0..n)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (seed >> 33) as i64 % 41 - 10
                    })
                    .collect();
                let (margin, ends) = solve(&row);
                assert_eq!(margin, brute_force(&row), "{row:?}");
                for end in ends {
                    let (taken, rest) = match end {
                        End::Left => (row[0], &row[1..]),
                        End::Right => (row[n - 1], &row[..n - 1]),
                    };
                    assert_eq!(taken - brute_force(rest), margin);
                }
            }
        }
    }

    #[test]
    fn hand_checked_rows() {
        // Take 4; whatever the opponent takes, the mover gets the 9: 13 against 3.
        assert_eq!(solve(&[1, 9, 2, 4]), (10, vec![End::Right]));
        assert_eq!(solve(&[5]), (5, vec![End::Left]));
        assert_eq!(solve(&[3, 3]), (0, vec![End::Left, End::Right]));
        assert_eq!(solve(&[1, 100, 1]), (-98, vec![End::Left, End::Right]));
        assert!(parse_row("1 2 x").is_err());
        assert!(parse_row(&"1 ".repeat(1001)).is_err());
        assert_eq!(parse_row("-3, 4").unwrap(), [-3, 4]);
    }

    #[test]
    fn a_thousand_numbers_are_solved() {
        let row: Vec<i64> = (0..1000).map(|i| (i * 7919 % 1000) as i64).collect();
        let (margin, ends) = solve(&row);
        assert!(!ends.is_empty());
        // Taking ends alternately, the first player can always secure the better
        // of the even- and odd-position sums, so the margin is never negative.
        assert!(margin >= 0);
    }
}
