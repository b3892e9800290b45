//! Stones in pits: a row of pits, some holding one stone. A move slides one stone
//! one or two pits to the left into an empty pit, never over another stone; a
//! player who cannot move loses.
//!
//! The Nim reduction: number the gaps (empty pits) left of each stone, `g1` left of
//! the leftmost stone up to `gn` left of the rightmost. A move takes 1 or 2 from
//! one gap and adds them to the next gap to the right (the rightmost stone's
//! stones go nowhere). That is staircase Nim with the rightmost gap on the first
//! step: stones arriving on an odd step can be moved straight on, so only the odd
//! steps count, each a take-1-or-2 heap of Grundy value `gap mod 3`. The mover
//! loses exactly when `gn mod 3`, `g(n-2) mod 3`, ... xor to 0. Tests and `tbquery
//! verify` check this against a table of every row of up to 24 pits, and a
//! test lets the formula and plain search play each other.
//!
//! Notation: pits left to right, `.` empty, `o` a stone: `..o.o`. A move is
//! `<from>-<to>`, pits numbered from 1 at the left: `5-4`.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Editing, Formula, Layered, Marks, Picture, Solver,
    Tool,
};
use crate::game::{Child, Game, GameError};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Pits> = Spec {
    entry: Entry {
        id: "pits",
        extras: Extras::NONE,
        about: "Stones in pits: slide a stone 1 or 2 pits left into an empty pit, never over a stone; who cannot move loses",
        notation: "the pits left to right, '.' empty and 'o' (or 'X') a stone, up to 64 pits: ..o.o; \
                   a move is from-to, pits counted from 1 at the left: 5-4",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Pits),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

/// The longest row the notation accepts.
pub const MAX_PITS: u32 = 64;
/// Pits in the table: shorter rows are the same rows with empty pits at the right.
pub const TABLE_PITS: u32 = 24;

/// A row: bit `i` set when pit `i` (0 = leftmost) holds a stone; `len` pits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Row {
    pub stones: u64,
    pub len: u32,
}

/// Slide the stone in pit `from` to pit `to` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    pub from: u32,
    pub to: u32,
}

impl Row {
    pub fn parse(text: &str) -> Result<Row, GameError> {
        let text_trimmed = text.trim();
        let len = text_trimmed.chars().count() as u32;
        if !(1..=MAX_PITS).contains(&len) {
            return Err(GameError::position(
                text,
                format!("a row has 1 to {MAX_PITS} pits, '.' empty, 'o' or 'X' a stone"),
            ));
        }
        let mut stones = 0u64;
        for (i, c) in text_trimmed.chars().enumerate() {
            match c {
                '.' => {}
                'o' | 'O' | 'x' | 'X' => stones |= 1 << i,
                other => {
                    return Err(GameError::position(
                        text,
                        format!(
                            "pit {} is '{other}'; use '.' (empty) or 'o' or 'X' (a stone)",
                            i + 1
                        ),
                    ));
                }
            }
        }
        Ok(Row { stones, len })
    }

    pub fn write(self) -> String {
        (0..self.len)
            .map(|i| {
                if self.stones & (1 << i) != 0 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect()
    }

    fn empty(self, pit: u32) -> bool {
        self.stones & (1 << pit) == 0
    }

    /// Every legal slide, stones from left to right, one pit before two.
    pub fn moves(self) -> Vec<Slide> {
        let mut moves = Vec::new();
        for from in (0..self.len).filter(|&p| !self.empty(p)) {
            if from >= 1 && self.empty(from - 1) {
                moves.push(Slide { from, to: from - 1 });
                if from >= 2 && self.empty(from - 2) {
                    moves.push(Slide { from, to: from - 2 });
                }
            }
        }
        moves
    }

    pub fn play(self, mv: Slide) -> Row {
        Row {
            stones: self.stones & !(1 << mv.from) | 1 << mv.to,
            len: self.len,
        }
    }

    /// The xor over every other gap from the right of `gap mod 3`: 0 exactly when
    /// the mover loses.
    pub fn nim_sum(self) -> u64 {
        let (mut stones, mut sum, mut counted) = (self.stones, 0, true);
        // Right to left: each stone's gap runs down to the next stone on its left.
        while stones != 0 {
            let pit = 63 - stones.leading_zeros();
            stones ^= 1 << pit;
            let left_end = 64 - stones.leading_zeros();
            if counted {
                sum ^= u64::from(pit - left_end) % 3;
            }
            counted = !counted;
        }
        sum
    }

    /// The moves that leave a nim-sum of 0.
    pub fn winning_moves(self) -> Vec<Slide> {
        self.moves()
            .into_iter()
            .filter(|&m| self.play(m).nim_sum() == 0)
            .collect()
    }
}

impl Slide {
    pub fn write(self) -> String {
        format!("{}-{}", self.from + 1, self.to + 1)
    }
}

/// The table game: every row of 24 pits (and so every shorter row).
#[derive(Debug, Clone, Copy, Default)]
pub struct Pits;

impl Game for Pits {
    type Position = Row;
    type Move = Slide;

    fn id(&self) -> &'static str {
        "pits"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        1 << TABLE_PITS
    }

    fn index(&self, row: &Row) -> u64 {
        row.stones
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Row> {
        (index < 1 << TABLE_PITS).then_some(Row {
            stones: index,
            len: TABLE_PITS,
        })
    }

    fn moves(&self, row: &Row) -> Vec<Slide> {
        row.moves()
    }

    fn play(&self, row: &Row, mv: &Slide) -> Child<Row> {
        Child::passing(row.play(*mv))
    }

    fn end_value(&self, row: &Row) -> Option<Value> {
        row.moves().is_empty().then_some(Value::Loss(0))
    }

    fn why_over(&self, _row: &Row) -> String {
        "no stone can slide".into()
    }

    fn parse_position(&self, text: &str) -> Result<Row, GameError> {
        Row::parse(text)
    }

    /// The table holds rows with stones in the first 24 pits only.
    fn coverage(&self, row: &Row) -> Result<(), String> {
        match row.stones >> TABLE_PITS {
            0 => Ok(()),
            _ => Err(format!(
                "a stone beyond pit {TABLE_PITS}; the table holds rows of up to {TABLE_PITS} pits"
            )),
        }
    }

    /// The example of the course task.
    fn start(&self) -> Row {
        Row::parse("..o.o.....o....oo.o...o").expect("a valid row")
    }

    fn write_position(&self, row: &Row) -> String {
        row.write()
    }

    fn write_move(&self, _row: &Row, mv: &Slide) -> String {
        mv.write()
    }
}

impl Picture<Pits> for Pits {
    /// The row of pits numbered from 1, stones dark; pit `i` is the place `p<i>`.
    fn svg(&self, row: &Row, marks: &Marks) -> String {
        let pit = (1200.0 / f64::from(row.len)).clamp(18.0, 48.0);
        let pad = 20.0;
        let mut svg = Svg::new(2.0 * pad + f64::from(row.len) * pit, 2.0 * pad + pit + 18.0);
        for i in 0..row.len {
            let place = format!("p{}", i + 1);
            let cx = pad + (f64::from(i) + 0.5) * pit;
            let class = if marks.last.contains(&place) {
                "pit last"
            } else {
                "pit"
            };
            svg.circle(cx, pad + pit / 2.0, pit * 0.45, class, Some(&place));
            if row.stones & (1 << i) != 0 {
                svg.circle(cx, pad + pit / 2.0, pit * 0.3, "stone", Some(&place));
            }
            if pit >= 24.0 || (i + 1) % 5 == 0 {
                svg.text(cx, pad + pit + 10.0, &(i + 1).to_string(), "label");
            }
        }
        svg.finish(&format!("stones in pits {}", row.write()))
    }

    /// The stone's pit, then the pit it slides to.
    fn places(&self, _row: &Row, mv: &Slide) -> Vec<Clicks> {
        vec![vec![
            vec![format!("p{}", mv.from + 1)],
            vec![format!("p{}", mv.to + 1)],
        ]]
    }
}

impl Editing<Pits> for Pits {
    fn tools(&self) -> Vec<Tool> {
        vec![Tool::on_board("toggle", "put or take a stone")]
    }

    fn edit(&self, text: &str, place: &str, _tool: &str) -> Result<String, GameError> {
        let mut row = Row::parse(text)?;
        let pit = place
            .strip_prefix('p')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| (1..=row.len).contains(&n))
            .ok_or_else(|| GameError::position(place, "not a pit of this row"))?;
        row.stones ^= 1 << (pit - 1);
        Ok(row.write())
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&Row::parse(text)?, &Marks::default()))
    }
}

impl ClosedForm<Pits> for Pits {
    fn formula(&self, row: &Row) -> Result<Formula<Slide>, GameError> {
        let nim_sum = row.nim_sum();
        Ok(Formula {
            mover_wins: nim_sum != 0,
            nim_sum: Some(nim_sum),
            part_values: None,
            winning_moves: row.winning_moves(),
        })
    }

    fn measure(&self) -> &'static str {
        "pits the stones can still slide"
    }

    /// The sum over stones of the empty pits to their left, less those other
    /// stones must fill: every move lowers it by 1 or 2.
    fn left(&self, row: &Row) -> u64 {
        (0..row.len)
            .filter(|&p| row.stones & (1 << p) != 0)
            .enumerate()
            .map(|(k, p)| u64::from(p) - k as u64)
            .sum()
    }
}

impl Layered<Pits> for Pits {
    /// Layers by the sum of the stones' pit numbers, which every move lowers.
    fn layers(&self, _tier: u32) -> u32 {
        (0..TABLE_PITS).sum::<u32>() + 1
    }

    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let sum: u32 = (0..TABLE_PITS).filter(|p| index & (1 << p) != 0).sum();
        self.layers(tier) - 1 - sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    #[test]
    fn moves_never_jump_a_stone() {
        let row = Row::parse("..o.oo").unwrap();
        let moves: Vec<String> = row.moves().into_iter().map(Slide::write).collect();
        assert_eq!(moves, ["3-2", "3-1", "5-4"]);
        assert_eq!(Row::parse("..X.x").unwrap(), Row::parse("..o.o").unwrap());
        assert!(Row::parse("..*").is_err());
        assert!(Row::parse("").is_err());
        let long = Pits
            .parse_position(&format!("{}o", ".".repeat(TABLE_PITS as usize)))
            .unwrap();
        assert!(Pits.coverage(&long).is_err());
    }

    /// The course task's check: the Nim theory and a plain search play each
    /// other, each side in turn, from random rows; whoever the theory says wins
    /// at the start wins, though the search plays perfectly too.
    #[test]
    fn the_formula_and_plain_search_play_each_other_as_the_formula_foretells() {
        let mut search = Negamax::new(&Pits);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let start = Row {
                stones: state & state >> 20 & 0x3fff,
                len: 14,
            };
            for formula_first in [true, false] {
                let (mut row, mut formula_moves) = (start, formula_first);
                while !row.moves().is_empty() {
                    let mv = if formula_moves {
                        let formula = Pits.formula(&row).unwrap();
                        let longest = row
                            .moves()
                            .into_iter()
                            .max_by_key(|m| Pits.left(&row.play(*m)));
                        formula.winning_moves.first().copied().or(longest).unwrap()
                    } else {
                        let moves = row.moves();
                        let winning = moves
                            .iter()
                            .find(|m| matches!(search.value(&row.play(**m)), Value::Loss(_)));
                        *winning.unwrap_or(&moves[0])
                    };
                    row = row.play(mv);
                    formula_moves = !formula_moves;
                }
                // Whoever is to move with no move left has lost.
                let formula_won = !formula_moves;
                assert_eq!(
                    formula_won,
                    (start.nim_sum() != 0) == formula_first,
                    "{}",
                    start.write()
                );
            }
        }
    }

    #[test]
    fn the_staircase_formula_matches_search_on_every_short_row() {
        let mut search = Negamax::new(&Pits);
        for stones in 0..1u64 << 12 {
            let row = Row { stones, len: 12 };
            let v = search.value(&row);
            assert_eq!(
                matches!(v, Value::Loss(_)),
                row.nim_sum() == 0,
                "{}",
                row.write()
            );
        }
    }
}
