//! The Game of Euler: a 4x4 board; players take turns to cover free cells with a
//! nail, either one cell anywhere or 2-3 cells in a line entering from an edge.
//! Whoever covers the last free cell loses.
//!
//! A position is the set of covered cells (bit `row * 4 + col`); nails are neutral,
//! so the position looks the same to both players. The index is the bit mask itself:
//! 65,536 slots of one byte compress to a few kilobytes, so folding the 8 symmetries
//! would save less than the rank map it needs.

use crate::capability::{
    Capabilities, Check, Clicks, Drawing, Editing, Layered, Marks, Picture, Solver, Tool, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::grid::{self, CELLS, SIZE};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::value::{Value, ValueKind};
use std::sync::OnceLock;

pub static SPEC: Spec<Euler> = Spec {
    entry: Entry {
        id: "euler",
        extras: Extras::NONE,
        about: "The Game of Euler: cover cells of a 4x4 board with nails; who covers the last cell loses",
        notation: "four rows from the top, '.' free and 'x' covered: x.../..../..../....; \
                   a move is the cells a nail covers: b3 or a1-b1-c1",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Euler),
    capabilities: |game| Capabilities {
        drawing: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(Solver::Layered(game), vec![Check::LiveSearch])
    },
    generate_options: no_generate_options,
};

/// Bit mask of covered cells.
pub type Board = u16;
/// Bit mask of the cells a nail covers.
pub type Nail = u16;

const FULL: Board = u16::MAX;

#[derive(Debug, Default, Clone, Copy)]
pub struct Euler;

/// All 48 nails: 16 single cells, then for every row and column the nails of
/// 2 and 3 cells entering from either end.
pub fn nails() -> &'static [Nail] {
    static NAILS: OnceLock<Vec<Nail>> = OnceLock::new();
    NAILS.get_or_init(|| {
        let bit = |row: usize, col: usize| 1u16 << (row * SIZE + col);
        let mut nails: Vec<Nail> = (0..CELLS).map(|c| 1u16 << c).collect();
        for line in 0..SIZE {
            for len in [2, 3] {
                let from_start = |f: &dyn Fn(usize) -> Nail| (0..len).fold(0, |m, i| m | f(i));
                let from_end =
                    |f: &dyn Fn(usize) -> Nail| (0..len).fold(0, |m, i| m | f(SIZE - 1 - i));
                nails.push(from_start(&|c| bit(line, c)));
                nails.push(from_end(&|c| bit(line, c)));
                nails.push(from_start(&|r| bit(r, line)));
                nails.push(from_end(&|r| bit(r, line)));
            }
        }
        nails
    })
}

impl Game for Euler {
    type Position = Board;
    type Move = Nail;

    fn id(&self) -> &'static str {
        "euler"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        1 << CELLS
    }

    fn index(&self, board: &Board) -> u64 {
        u64::from(*board)
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Board> {
        Board::try_from(index).ok()
    }

    fn start(&self) -> Board {
        0
    }

    fn moves(&self, board: &Board) -> Vec<Nail> {
        nails()
            .iter()
            .copied()
            .filter(|nail| nail & board == 0)
            .collect()
    }

    fn play(&self, board: &Board, nail: &Nail) -> Child<Board> {
        debug_assert_eq!(board & nail, 0, "nail covers a covered cell");
        Child::passing(board | nail)
    }

    /// The full board: the opponent covered the last cell and lost.
    fn end_value(&self, board: &Board) -> Option<Value> {
        (*board == FULL).then_some(Value::Win(0))
    }

    fn why_over(&self, _board: &Board) -> String {
        "every cell is covered".into()
    }

    fn parse_position(&self, text: &str) -> Result<Board, GameError> {
        let cells = grid::parse_rows(text, ".xX")?;
        Ok((0..CELLS)
            .filter(|&c| cells[c] != b'.')
            .fold(0, |b, c| b | (1 << c)))
    }

    fn write_position(&self, board: &Board) -> String {
        grid::write_rows(&symbols(*board))
    }

    fn write_move(&self, _board: &Board, nail: &Nail) -> String {
        grid::write_cell_list(*nail)
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Nail, GameError> {
        let cells = grid::parse_cell_list(text)?;
        if !nails().contains(&cells) {
            return Err(GameError::bad_move(
                text,
                "a nail covers one cell, or 2-3 cells in a line starting at an edge",
            ));
        }
        if cells & board != 0 {
            return Err(GameError::bad_move(
                text,
                "it covers a cell that is already covered",
            ));
        }
        Ok(cells)
    }
}

impl Drawing<Euler> for Euler {
    fn draw(&self, board: &Board) -> String {
        grid::draw_rows(&symbols(*board))
    }
}

impl Picture<Euler> for Euler {
    /// Covered cells dark with a nail; free cells light.
    fn svg(&self, board: &Board, marks: &Marks) -> String {
        let title = format!("Euler board {}", self.write_position(board));
        grid::svg_grid(&title, marks, |cell| match board & (1 << cell) {
            0 => ("cell", None),
            _ => ("covered", Some("token")),
        })
    }

    /// The cells the nail covers, clicked in any order.
    fn places(&self, _board: &Board, nail: &Nail) -> Vec<Clicks> {
        one_step(grid::cell_names(*nail))
    }
}

impl Editing<Euler> for Euler {
    fn tools(&self) -> Vec<Tool> {
        vec![Tool::on_board("toggle", "cover or free a cell")]
    }

    fn edit(&self, text: &str, place: &str, _tool: &str) -> Result<String, GameError> {
        let board = self.parse_position(text)?;
        let cell = grid::parse_cell(place)
            .ok_or_else(|| GameError::position(place, "not a cell: a1 to d4"))?;
        Ok(self.write_position(&(board ^ (1 << cell))))
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&self.parse_position(text)?, &Marks::default()))
    }
}

impl Layered<Euler> for Euler {
    fn layers(&self, _tier: u32) -> u32 {
        CELLS as u32 + 1
    }

    fn layer_of_index(&self, _tier: u32, index: u64) -> u32 {
        index.count_ones()
    }
}

fn symbols(board: Board) -> [u8; CELLS] {
    std::array::from_fn(|c| if board & (1 << c) != 0 { b'x' } else { b'.' })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_offers_48_distinct_nails() {
        let moves = Euler.moves(&0);
        assert_eq!(moves.len(), 48);
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 48);
        let sizes = |n: u32| moves.iter().filter(|m| m.count_ones() == n).count();
        assert_eq!((sizes(1), sizes(2), sizes(3)), (16, 16, 16));
    }

    #[test]
    fn nails_enter_from_an_edge() {
        let board = Euler.parse_position("..../..../..../....").unwrap();
        for text in [
            "a1-b1", "a1-b1-c1", "b1-c1-d1", "c4-d4", "a2-a3-a4", "d1-d2", "b3",
        ] {
            assert!(Euler.parse_move(&board, text).is_ok(), "{text}");
        }
        for text in ["b1-c1", "b2-b3", "a1-b2", "a1-b1-c1-d1"] {
            assert!(Euler.parse_move(&board, text).is_err(), "{text}");
        }
    }

    #[test]
    fn covered_cells_block_nails() {
        let board = Euler.parse_position(".x../..../..../....").unwrap();
        assert!(Euler.parse_move(&board, "a1-b1").is_err());
        assert!(Euler.parse_move(&board, "b1").is_err());
        assert!(Euler.parse_move(&board, "c1-d1").is_ok());
        // b1 blocks itself, three nails of row 1 (a1-b1, a1-b1-c1, b1-c1-d1)
        // and two of column b (b1-b2, b1-b2-b3).
        assert_eq!(Euler.moves(&board).len(), 48 - 1 - 3 - 2);
    }

    #[test]
    fn notation_round_trips_and_rejects_bad_text() {
        let text = "x.../.x../..x./...x";
        let board = Euler.parse_position(text).unwrap();
        assert_eq!(board, 1 | 1 << 5 | 1 << 10 | 1 << 15);
        assert_eq!(Euler.write_position(&board), text);
        assert!(Euler.parse_position("x.../.x../..x.").is_err());
        assert!(Euler.parse_position("x.../.o../..x./....").is_err());
    }

    #[test]
    fn full_board_is_won_by_the_player_to_move() {
        assert_eq!(Euler.end_value(&FULL), Some(Value::Win(0)));
        assert_eq!(Euler.end_value(&(FULL - 1)), None);
        assert_eq!(Euler.moves(&(FULL - 1)).len(), 1);
    }
}
