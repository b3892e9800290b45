//! Helpers for games on a 4x4 grid of cells (Euler, L-Game): cell names and
//! the `..../..../..../....` row notation.

use crate::capability::Marks;
use crate::game::GameError;
use crate::svg::Svg;

/// Cells are numbered `row * 4 + col`; rows top to bottom, columns left to right.
pub const SIZE: usize = 4;
pub const CELLS: usize = SIZE * SIZE;

/// The name of a cell: column a-d, row 1-4 from the top, e.g. `b3`.
pub fn cell_name(cell: usize) -> String {
    let mut name = String::with_capacity(2);
    push_cell_name(cell, &mut name);
    name
}

/// A cell's name added to `out`: answers write one or more per move.
fn push_cell_name(cell: usize, out: &mut String) {
    out.push(char::from(b'a' + (cell % SIZE) as u8));
    out.push(char::from(b'1' + (cell / SIZE) as u8));
}

/// The names of the cells of a mask, in cell order.
pub fn cell_names(mask: u16) -> Vec<String> {
    (0..CELLS)
        .filter(|&c| mask & (1 << c) != 0)
        .map(cell_name)
        .collect()
}

/// Pixels per cell of a drawn grid, and the room for the row and column names.
const CELL_PX: f64 = 80.0;
const MARGIN_PX: f64 = 24.0;

/// The grid drawn: each cell a place named like `b3`, its look given by
/// `look(cell)` as (class of the square, optionally the class of a disc on it).
pub fn svg_grid(
    title: &str,
    marks: &Marks,
    look: impl Fn(usize) -> (&'static str, Option<&'static str>),
) -> String {
    let mut svg = Svg::new(
        MARGIN_PX + SIZE as f64 * CELL_PX,
        MARGIN_PX + SIZE as f64 * CELL_PX,
    );
    for cell in 0..CELLS {
        let (row, col) = (cell / SIZE, cell % SIZE);
        let (x, y) = (
            MARGIN_PX + col as f64 * CELL_PX,
            MARGIN_PX + row as f64 * CELL_PX,
        );
        let name = cell_name(cell);
        let (square, disc) = look(cell);
        svg.rect(x, y, CELL_PX, CELL_PX, square, Some(&name));
        if let Some(disc) = disc {
            svg.circle(
                x + CELL_PX / 2.0,
                y + CELL_PX / 2.0,
                CELL_PX / 4.0,
                disc,
                Some(&name),
            );
        }
        if marks.last.contains(&name) {
            let inset = 4.0;
            let side = CELL_PX - 2.0 * inset;
            svg.rect(x + inset, y + inset, side, side, "lastbox", None);
        }
    }
    for i in 0..SIZE {
        let middle = MARGIN_PX + (i as f64 + 0.5) * CELL_PX;
        svg.text(
            middle,
            MARGIN_PX / 2.0,
            &char::from(b'a' + i as u8).to_string(),
            "label",
        );
        svg.text(MARGIN_PX / 2.0, middle, &(i + 1).to_string(), "label");
    }
    svg.finish(title)
}

/// Reads a cell name such as `b3`.
pub fn parse_cell(text: &str) -> Option<usize> {
    let bytes = text.trim().as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = bytes[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
    let row = bytes[1].checked_sub(b'1')? as usize;
    (col < SIZE && row < SIZE).then_some(row * SIZE + col)
}

/// Reads four rows of four symbols separated by `/` into 16 cells, accepting only
/// symbols in `allowed`.
pub fn parse_rows(text: &str, allowed: &str) -> Result<[u8; CELLS], GameError> {
    let rows: Vec<&str> = text.trim().split('/').collect();
    if rows.len() != SIZE {
        return Err(GameError::position(
            text,
            format!(
                "expected {SIZE} rows separated by '/', found {}",
                rows.len()
            ),
        ));
    }
    let mut cells = [0u8; CELLS];
    for (r, row) in rows.iter().enumerate() {
        let symbols: Vec<char> = row.chars().collect();
        if symbols.len() != SIZE {
            return Err(GameError::position(
                text,
                format!("row {} has {} cells, expected {SIZE}", r + 1, symbols.len()),
            ));
        }
        for (c, &symbol) in symbols.iter().enumerate() {
            if !symbol.is_ascii() || !allowed.contains(symbol) {
                return Err(GameError::position(
                    text,
                    format!(
                        "cell {} holds '{symbol}'; expected one of '{allowed}'",
                        cell_name(r * SIZE + c)
                    ),
                ));
            }
            cells[r * SIZE + c] = symbol as u8;
        }
    }
    Ok(cells)
}

/// Writes 16 cell symbols as four rows separated by `/`.
pub fn write_rows(cells: &[u8; CELLS]) -> String {
    let mut out = String::with_capacity(CELLS + SIZE);
    for (i, &symbol) in cells.iter().enumerate() {
        if i > 0 && i % SIZE == 0 {
            out.push('/');
        }
        out.push(char::from(symbol));
    }
    out
}

/// A drawing of the board with coordinates, for terminal play.
pub fn draw_rows(cells: &[u8; CELLS]) -> String {
    let mut out = String::from("   a b c d\n");
    for (r, row) in cells.chunks(SIZE).enumerate() {
        let symbols: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
        out.push_str(&format!(" {} {}\n", r + 1, symbols.join(" ")));
    }
    out
}

/// Reads a list of cells joined by `-`, such as `a1-b1-c1`, into a bit mask,
/// refusing repeated or unknown cells.
pub fn parse_cell_list(text: &str) -> Result<u16, GameError> {
    let mut mask = 0u16;
    for part in text.trim().split('-') {
        let cell = parse_cell(part).ok_or_else(|| {
            GameError::bad_move(text, format!("'{part}' is not a cell (a1 to d4)"))
        })?;
        if mask & (1 << cell) != 0 {
            return Err(GameError::bad_move(
                text,
                format!("cell {part} is named twice"),
            ));
        }
        mask |= 1 << cell;
    }
    Ok(mask)
}

/// Writes a bit mask of cells as names joined by `-`, in row-major order.
pub fn write_cell_list(mask: u16) -> String {
    let mut out = String::with_capacity(3 * mask.count_ones() as usize);
    for cell in (0..CELLS).filter(|c| mask & (1 << c) != 0) {
        if !out.is_empty() {
            out.push('-');
        }
        push_cell_name(cell, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        for cell in 0..CELLS {
            assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        }
        assert_eq!(cell_name(9), "b3");
        assert_eq!(parse_cell("e1"), None);
        assert_eq!(parse_cell("a5"), None);
        assert_eq!(parse_cell("a"), None);
    }

    #[test]
    fn rows_are_checked() {
        assert!(parse_rows("..../..../..../....", ".x").is_ok());
        let err = parse_rows("..../..../....", ".x").unwrap_err().to_string();
        assert!(err.contains("expected 4 rows"), "{err}");
        let err = parse_rows("..../..x/..../....", ".x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("row 2 has 3 cells"), "{err}");
        let err = parse_rows("..../..../..q./....", ".x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("cell c3 holds 'q'"), "{err}");
    }

    #[test]
    fn cell_lists_are_checked() {
        assert_eq!(parse_cell_list("a1-b1").unwrap(), 0b11);
        assert_eq!(write_cell_list(0b11), "a1-b1");
        assert!(parse_cell_list("a1-a1").is_err());
        assert!(parse_cell_list("a1-z9").is_err());
    }
}
