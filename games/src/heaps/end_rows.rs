//! Games on a row of non-empty heaps where only the end heaps may be taken from:
//! End-Nim (take from the leftmost or the rightmost heap) and End-Wythoff (or the
//! same number from both end heaps). A heap taken to nothing leaves the row;
//! whoever takes the last stone wins.
//!
//! End-Nim's formula, derived here and checked against the table on every slot:
//! for a row `w`, let `L(w)` be the one left heap `x` (0 for none) that makes
//! `x w` lost for the mover, and `R(w)` the one right heap. Fix an inner row `w`
//! with `l = L(w)`, `r = R(w)`, and look at `x w y`: moves lower `x` or `y`, so
//! the lost pairs `(x, y)` are one per column and one per row, each the least
//! value not yet taken, except that `(l, 0)` and `(0, r)` are lost. That gives
//! `L(w y) = 0` when `y = r`, and otherwise `k + [k >= l]` with `k = y - [y > r]`;
//! and `R(x w)` in mirror. So every `L` and `R` of the row's segments follows in
//! O(n^2), and `a_1 ... a_n` is lost exactly when `a_1 = L(a_2 ... a_n)`; the
//! winning moves bring the left heap to `L` of the rest or the right heap to `R`
//! of the rest. End-Wythoff has no known formula: tables only.
//!
//! Notation: the heaps left to right, `3 5 7 2` (`-` for the empty row). Moves:
//! `l-3` (3 from the leftmost heap), `r-3` (from the rightmost), End-Wythoff's
//! `b-3` (3 from both); with one heap left only `l-` moves are listed.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::value::{Value, ValueKind};

const NOTATION: &str = "the heaps left to right, none empty, '-' for no heaps: 3 5 7 2; \
     a move takes from the leftmost or rightmost heap: l-3, r-3";

pub static END_NIM: Spec<EndRow> = Spec {
    entry: Entry {
        id: "end-nim",
        extras: Extras::COUNTED,
        about: "End-Nim: take from the leftmost or the rightmost heap of a row; who takes the last stone wins",
        notation: NOTATION,
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(EndRow { both: false }),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

pub static END_WYTHOFF: Spec<EndRow> = Spec {
    entry: Entry {
        id: "end-wythoff",
        extras: Extras::COUNTED,
        about: "End-Wythoff: take from an end heap of a row, or the same from both end heaps; who takes the last stone wins",
        notation: "the heaps left to right, none empty, '-' for no heaps: 3 5 7 2; \
                   a move takes from the leftmost or rightmost heap or the same from both: l-3, r-3, b-3",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(EndRow { both: true }),
    capabilities: |game| Capabilities {
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Consistency, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

/// The longest row in the table, and its largest heap.
pub const TABLE_HEAPS: usize = 5;
pub const TABLE_HEAP: u64 = 15;

/// Which end a move takes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    Left,
    Right,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Take {
    pub end: End,
    pub take: u64,
}

impl Take {
    pub fn write(self) -> String {
        let end = match self.end {
            End::Left => "l",
            End::Right => "r",
            End::Both => "b",
        };
        format!("{end}-{}", self.take)
    }
}

/// End-Nim (`both` false) or End-Wythoff.
#[derive(Debug, Clone, Copy)]
pub struct EndRow {
    both: bool,
}

impl EndRow {
    pub fn end_nim() -> Self {
        EndRow { both: false }
    }

    pub fn end_wythoff() -> Self {
        EndRow { both: true }
    }

    /// The first slot of rows of `len` heaps.
    fn offset(len: usize) -> u64 {
        (0..len).map(|i| (TABLE_HEAP).pow(i as u32)).sum()
    }
}

/// `L` and `R` of every segment of End-Nim's row: `left[i][j]` is the left heap
/// that makes `x a[i..j]` lost, `right[i][j]` the right heap.
fn end_values(row: &[u64]) -> (Vec<Vec<u128>>, Vec<Vec<u128>>) {
    let n = row.len();
    let mut left = vec![vec![0u128; n + 1]; n + 1];
    let mut right = vec![vec![0u128; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            // Adding heap `y` at the right of the inner row a[i..j-1].
            let (l, r, y) = (left[i][j - 1], right[i][j - 1], u128::from(row[j - 1]));
            left[i][j] = match y == r {
                true => 0,
                false => {
                    let k = y - u128::from(y > r);
                    k + u128::from(k >= l)
                }
            };
            // Adding heap `x` at the left of the inner row a[i+1..j].
            let (l, r, x) = (left[i + 1][j], right[i + 1][j], u128::from(row[i]));
            right[i][j] = match x == l {
                true => 0,
                false => {
                    let k = x - u128::from(x > l);
                    k + u128::from(k >= r)
                }
            };
        }
    }
    (left, right)
}

/// End-Nim's winning moves (none where the row is lost).
pub fn end_nim_winning_moves(row: &[u64]) -> Vec<Take> {
    let n = row.len();
    if n == 0 {
        return Vec::new();
    }
    let (left, right) = end_values(row);
    let mut moves = Vec::new();
    let want_left = left[1][n];
    if want_left < u128::from(row[0]) {
        moves.push(Take {
            end: End::Left,
            take: row[0] - want_left as u64,
        });
    }
    let want_right = right[0][n - 1];
    if n > 1 && want_right < u128::from(row[n - 1]) {
        moves.push(Take {
            end: End::Right,
            take: row[n - 1] - want_right as u64,
        });
    }
    moves
}

impl Game for EndRow {
    type Position = Vec<u64>;
    type Move = Take;

    fn id(&self) -> &'static str {
        match self.both {
            true => "end-wythoff",
            false => "end-nim",
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        Self::offset(TABLE_HEAPS + 1)
    }

    fn index(&self, row: &Vec<u64>) -> u64 {
        let digits = row
            .iter()
            .rev()
            .fold(0, |index, &heap| index * TABLE_HEAP + heap - 1);
        Self::offset(row.len()) + digits
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Vec<u64>> {
        let len = (0..=TABLE_HEAPS)
            .rev()
            .find(|&len| Self::offset(len) <= index)?;
        let mut digits = index - Self::offset(len);
        let mut row = Vec::with_capacity(len);
        for _ in 0..len {
            row.push(digits % TABLE_HEAP + 1);
            digits /= TABLE_HEAP;
        }
        Some(row)
    }

    fn coverage(&self, row: &Vec<u64>) -> Result<(), String> {
        match row.len() <= TABLE_HEAPS && row.iter().all(|&h| h <= TABLE_HEAP) {
            true => Ok(()),
            false => Err(format!(
                "the table holds rows of up to {TABLE_HEAPS} heaps of up to {TABLE_HEAP}"
            )),
        }
    }

    fn start(&self) -> Vec<u64> {
        vec![3, 5, 7, 2]
    }

    fn moves(&self, row: &Vec<u64>) -> Vec<Take> {
        let (Some(&first), Some(&last)) = (row.first(), row.last()) else {
            return Vec::new();
        };
        let takes = |end: End, most: u64| (1..=most).map(move |take| Take { end, take });
        let mut moves: Vec<Take> = takes(End::Left, first).collect();
        if row.len() > 1 {
            moves.extend(takes(End::Right, last));
            if self.both {
                moves.extend(takes(End::Both, first.min(last)));
            }
        }
        moves
    }

    fn play(&self, row: &Vec<u64>, mv: &Take) -> Child<Vec<u64>> {
        let mut after = row.clone();
        let last = after.len() - 1;
        if mv.end != End::Right {
            after[0] -= mv.take;
        }
        if mv.end != End::Left {
            after[last] -= mv.take;
        }
        after.retain(|&h| h > 0);
        Child::passing(after)
    }

    fn end_value(&self, row: &Vec<u64>) -> Option<Value> {
        row.is_empty().then_some(Value::Loss(0))
    }

    fn why_over(&self, _row: &Vec<u64>) -> String {
        "no heaps are left: the opponent took the last stone".into()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        if text.trim() == "-" {
            return Ok(Vec::new());
        }
        let row = crate::heaps::parse_heaps(text)?;
        if let Some(i) = row.iter().position(|&h| h == 0) {
            return Err(GameError::position(
                text,
                format!(
                    "heap {} is empty: a row holds non-empty heaps ('-' for no heaps)",
                    i + 1
                ),
            ));
        }
        Ok(row)
    }

    fn write_position(&self, row: &Vec<u64>) -> String {
        match row.is_empty() {
            true => "-".into(),
            false => crate::heaps::write_heaps(row),
        }
    }

    fn write_move(&self, _row: &Vec<u64>, mv: &Take) -> String {
        mv.write()
    }

    /// Reads `l-3`, `r-3` or `b-3` for heaps of any size.
    fn parse_move(&self, row: &Vec<u64>, text: &str) -> Result<Take, GameError> {
        let syntax = || {
            let ends = if self.both { "l, r or b" } else { "l or r" };
            GameError::bad_move(
                text,
                format!("a move is <end>-<stones> with the end {ends}: l-3"),
            )
        };
        let lower = text.trim().to_ascii_lowercase();
        let (end, take) = lower.split_once('-').ok_or_else(syntax)?;
        let end = match end {
            "l" => End::Left,
            "r" => End::Right,
            "b" if self.both => End::Both,
            _ => return Err(syntax()),
        };
        let take: u64 = take.parse().map_err(|_| syntax())?;
        let (first, last) = (row.first().copied(), row.last().copied());
        let most = match (end, row.len()) {
            (_, 0) => 0,
            (End::Left, _) => first.unwrap_or(0),
            (_, 1) => 0,
            (End::Right, _) => last.unwrap_or(0),
            (End::Both, _) => first.unwrap_or(0).min(last.unwrap_or(0)),
        };
        if !(1..=most).contains(&take) {
            return Err(GameError::bad_move(
                text,
                format!("takes 1 to {most} there"),
            ));
        }
        Ok(Take { end, take })
    }
}

impl ClosedForm<EndRow> for EndRow {
    fn formula(&self, row: &Vec<u64>) -> Result<Formula<Take>, GameError> {
        Ok(Formula::by_winning_moves(end_nim_winning_moves(row)))
    }

    /// The values of every stretch of the row, both ends.
    fn weight(&self, row: &Vec<u64>) -> u64 {
        let n = row.len() as u64;
        n.saturating_mul(n).max(1)
    }

    fn measure(&self) -> &'static str {
        "stones left"
    }

    fn left(&self, row: &Vec<u64>) -> u64 {
        crate::heaps::stones(row)
    }

    fn longest_move(&self, row: &Vec<u64>) -> Option<Take> {
        (!row.is_empty()).then_some(Take {
            end: End::Left,
            take: 1,
        })
    }
}

impl Layered<EndRow> for EndRow {
    /// Layers by stones taken: every move takes some.
    fn layers(&self, _tier: u32) -> u32 {
        (TABLE_HEAPS as u64 * TABLE_HEAP) as u32 + 1
    }

    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let row = self.position_at(tier, index).expect("every slot is a row");
        (TABLE_HEAPS as u64 * TABLE_HEAP - row.iter().sum::<u64>()) as u32
    }
}

impl Picture<EndRow> for EndRow {
    fn svg(&self, row: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("{} {}", self.id(), self.write_position(row));
        heap_picture::svg_stacks(row, marks, &title)
    }

    fn clickable(&self, row: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(row)
    }

    /// The lowest token taken from the end heap; from both, the left one first.
    fn places(&self, row: &Vec<u64>, mv: &Take) -> Vec<Clicks> {
        let token = |heap: usize| format!("h{}t{}", heap + 1, row[heap] - mv.take + 1);
        let last = row.len() - 1;
        match mv.end {
            End::Left => one_step(vec![token(0)]),
            End::Right => one_step(vec![token(last)]),
            End::Both => vec![vec![vec![token(0)], vec![token(last)]]],
        }
    }

    /// The end heaps still on the next board.
    fn landed(&self, row: &Vec<u64>, mv: &Take) -> Vec<String> {
        let after = self.play(row, mv).position;
        let mut marks = Vec::new();
        let first_stays = row[0] > mv.take || mv.end == End::Right;
        if mv.end != End::Right && first_stays && !after.is_empty() {
            marks.push("h1".to_string());
        }
        if mv.end != End::Left {
            let last = row[row.len() - 1];
            if last > mv.take && !after.is_empty() {
                marks.push(format!("h{}", after.len()));
            }
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    /// Every row of up to 4 heaps of up to 6 against plain search: the verdict
    /// and exactly the winning moves search finds.
    #[test]
    fn the_end_nim_formula_names_every_winning_move() {
        let game = EndRow::end_nim();
        let mut search = Negamax::new(&game);
        let mut rows: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..4 {
            let longer: Vec<Vec<u64>> = rows
                .iter()
                .filter(|r| r.len() == rows.last().unwrap().len())
                .flat_map(|r| (1..=6).map(move |h| [r.clone(), vec![h]].concat()))
                .collect();
            rows.extend(longer);
        }
        assert_eq!(rows.len(), 1 + 6 + 36 + 216 + 1296);
        for row in rows {
            let winning: Vec<Take> = game
                .moves(&row)
                .into_iter()
                .filter(|m| matches!(search.value(&game.play(&row, m).position), Value::Loss(_)))
                .collect();
            let mut said = end_nim_winning_moves(&row);
            said.sort_by_key(|m| game.moves(&row).iter().position(|x| x == m));
            assert_eq!(said, winning, "{row:?}");
        }
    }

    #[test]
    fn two_heaps_are_nim_and_slots_index_back() {
        for a in 1..20 {
            for b in 1..20 {
                assert_eq!(end_nim_winning_moves(&[a, b]).is_empty(), a == b);
            }
        }
        let game = EndRow::end_wythoff();
        assert_eq!(game.index_size(0), 813_616);
        for index in (0..game.index_size(0)).step_by(7) {
            let row = game.position_at(0, index).unwrap();
            assert_eq!(game.index(&row), index);
        }
        assert!(game.parse_position("3 0 2").is_err());
        assert_eq!(game.parse_position("-").unwrap(), Vec::<u64>::new());
        let row = vec![4, 9, 2];
        assert_eq!(
            game.play(&row, &game.parse_move(&row, "b-2").unwrap())
                .position,
            [2, 9]
        );
        assert!(EndRow::end_nim().parse_move(&row, "b-2").is_err());
        // Huge heaps are answered without overflow: two equal ones are lost.
        assert!(end_nim_winning_moves(&[u64::MAX, u64::MAX]).is_empty());
        assert_eq!(
            end_nim_winning_moves(&[u64::MAX, 7]),
            [Take {
                end: End::Left,
                take: u64::MAX - 7
            }]
        );
    }
}
