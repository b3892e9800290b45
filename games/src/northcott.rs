//! Northcott's game: a board of columns and rows (8x8 by default); each column
//! holds one piece of each player. A move slides one of the mover's pieces along
//! its column toward the other piece, any number of cells, without jumping over or
//! landing on it; a player who cannot move loses, or under misère play
//! (`--misere`) wins. This is the Nim thesis's game: Nim, or misère Nim, on the
//! gaps between the pieces. With `--rules both` pieces move backward too, which
//! makes cycles possible; the theory says that game is still Nim on the gaps under
//! normal play (a backward move can always be undone). Boards are solved by
//! retrograde analysis, and tests and `tbquery verify` check the formula on every
//! table position.
//!
//! Positions are seen from the player to move: each column is written top to
//! bottom with `x` for the mover's piece, `o` for the opponent's and `.` empty,
//! columns separated by `/`: `x..o/.x.o`. A move names the column (a, b, ...) and
//! the row (from 1 at the top) the mover's piece goes to: `b3`.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Drawing, Formula, Marks, Picture, Side, Solver,
    one_step,
};
use crate::game::{Child, Game, GameError};
use crate::multiset::Multisets;
use crate::nim::{self, Rule};
use crate::spec::{Entry, Extras, OptionSpec, Purpose, Scope, Spec, Values};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Northcott> = Spec {
    entry: Entry {
        id: "northcott",
        extras: Extras::NONE,
        about: "Northcott's game: slide your piece along its column, not past the other's; who cannot move loses",
        notation: "each column top to bottom, 'x' the mover's piece, 'o' the opponent's, '.' empty, \
                   columns separated by '/': x..o/.x.o; a move is the column letter and the row \
                   (from 1) the piece goes to: b3",
        options: &[
            OptionSpec {
                name: "size",
                help: "board size, columns x rows (tables up to 10 million slots; any board by the formula)",
                scope: Scope::Variant,
                values: Values::Text("COLUMNSxROWS, e.g. 4x8"),
                default: Some("8x8"),
                positional: false,
            },
            OptionSpec {
                name: "rules",
                help: "forward: pieces move only toward each other; both: backward too",
                scope: Scope::Variant,
                values: Values::Choice(&["forward", "both"]),
                default: Some("forward"),
                positional: false,
            },
            OptionSpec {
                name: "misere",
                help: "misère play: whoever makes the last move loses (forward rules)",
                scope: Scope::Variant,
                values: Values::Flag,
                default: Some("no"),
                positional: false,
            },
        ],
        all: &[
            &[("size", "4x8,6x6")],
            &[("size", "4x8,6x6"), ("misere", "yes")],
            &[("size", "4x8,6x6"), ("rules", "both")],
        ],
    },
    build: |options| {
        let game = Northcott::from_variant(
            options.get("size").unwrap_or("8x8"),
            options.get("rules").unwrap_or("forward"),
            options.get("misere") == Some("yes"),
        )?;
        if options.purpose == Purpose::Generate {
            game.table_fits()?;
        }
        Ok(game)
    },
    capabilities: |game| Capabilities {
        formula: Some(game),
        drawing: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Retrograde,
            vec![Check::Formula, Check::Consistency, Check::LiveSearch],
        )
    },
    generate_options: |game, _| {
        let mut options = vec![("size", format!("{}x{}", game.columns, game.rows))];
        if game.rules == Rules::Both {
            options.push(("rules", "both".to_string()));
        }
        if game.misere {
            options.push(("misere", "yes".to_string()));
        }
        options
    },
};

/// At most 26 columns: moves name them with a letter.
pub const MAX_COLUMNS: usize = 26;
/// Rows in the notation, for positions answered by the formula.
pub const MAX_ROWS: u32 = 1000;
/// The most slots a generated table may have.
pub const TABLE_LIMIT: u64 = 10_000_000;

/// How pieces move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Only toward the other piece: Nim on the gaps.
    Forward,
    /// Toward it or away from it.
    Both,
}

/// One column: the rows of the mover's piece and the opponent's piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column {
    pub mine: u32,
    pub theirs: u32,
}

impl Column {
    /// Empty cells between the two pieces.
    pub fn gap(self) -> u32 {
        self.mine.abs_diff(self.theirs) - 1
    }

    /// Rows the mover's piece can go to on a board of `rows` rows.
    fn targets(self, rows: u32, rules: Rules) -> impl Iterator<Item = u32> {
        let (low, high) = match (self.mine < self.theirs, rules) {
            (true, Rules::Both) => (0, self.theirs - 1),
            (true, Rules::Forward) => (self.mine + 1, self.theirs - 1),
            (false, Rules::Both) => (self.theirs + 1, rows - 1),
            (false, Rules::Forward) => (self.theirs + 1, self.mine - 1),
        };
        (low..=high).filter(move |&r| r != self.mine)
    }
}

/// A position: its columns in board order.
pub type Board = Vec<Column>;

/// A move: column `column`'s mover piece goes to row `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    pub column: usize,
    pub to: u32,
}

impl Slide {
    pub fn write(self) -> String {
        format!("{}{}", (b'a' + self.column as u8) as char, self.to + 1)
    }
}

/// Reads a board of any size; `rows` is taken from the first column.
pub fn parse_board(text: &str) -> Result<(Board, u32), GameError> {
    let columns: Vec<&str> = text.trim().split('/').map(str::trim).collect();
    if columns.len() > MAX_COLUMNS {
        return Err(GameError::position(
            text,
            format!("at most {MAX_COLUMNS} columns (found {})", columns.len()),
        ));
    }
    let rows = columns[0].chars().count() as u32;
    if !(2..=MAX_ROWS).contains(&rows) {
        return Err(GameError::position(
            text,
            format!("a column has 2 to {MAX_ROWS} cells, '.', 'x' and 'o'"),
        ));
    }
    let mut board: Board = Vec::new();
    for (i, column) in columns.iter().enumerate() {
        let name = (b'a' + i as u8) as char;
        if column.chars().count() as u32 != rows {
            return Err(GameError::position(
                text,
                format!(
                    "column {name} has {} cells, column a has {rows}",
                    column.chars().count()
                ),
            ));
        }
        let find = |piece: char| {
            let at: Vec<u32> = column
                .chars()
                .enumerate()
                .filter(|&(_, c)| c == piece)
                .map(|(r, _)| r as u32)
                .collect();
            match at[..] {
                [row] => Ok(row),
                _ => Err(GameError::position(
                    text,
                    format!(
                        "column {name} must hold exactly one '{piece}' (found {})",
                        at.len()
                    ),
                )),
            }
        };
        if let Some(bad) = column.chars().find(|c| !".xo".contains(*c)) {
            return Err(GameError::position(
                text,
                format!("column {name} has '{bad}'; use 'x' (mover), 'o' (opponent), '.'"),
            ));
        }
        let col = Column {
            mine: find('x')?,
            theirs: find('o')?,
        };
        if let Some(first) = board.first()
            && (col.mine < col.theirs) != (first.mine < first.theirs)
        {
            return Err(GameError::position(
                text,
                format!(
                    "column {name} has the pieces in the other order from column a; \
                     pieces never pass each other, so every column keeps the mover's piece on the same side"
                ),
            ));
        }
        board.push(col);
    }
    Ok((board, rows))
}

pub fn write_board(board: &Board, rows: u32) -> String {
    board
        .iter()
        .map(|col| {
            (0..rows)
                .map(|r| match r {
                    r if r == col.mine => 'x',
                    r if r == col.theirs => 'o',
                    _ => '.',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The formula's answer for the rules and play given: Nim (or misère Nim) on the
/// gaps, whether the mover wins, and the moves that win. With backward moves (normal
/// play only) the winning moves are those leaving the gaps xoring to 0, backward
/// ones included where there is room.
pub fn formula(board: &Board, rows: u32, rules: Rules, misere: bool) -> Formula<Slide> {
    let gaps: Vec<u64> = board.iter().map(|c| u64::from(c.gap())).collect();
    if rules == Rules::Forward {
        let rule = if misere { Rule::Misere } else { Rule::Nim };
        let verdict = nim::verdict(rule, &gaps);
        let toward = |col: Column, by: u64| {
            let by = by as u32;
            if col.mine < col.theirs {
                col.mine + by
            } else {
                col.mine - by
            }
        };
        return Formula {
            mover_wins: verdict.mover_wins,
            nim_sum: Some(verdict.nim_sum),
            part_values: None,
            winning_moves: verdict
                .winning_moves
                .iter()
                .map(|take| Slide {
                    column: take.heap,
                    to: toward(board[take.heap], take.take),
                })
                .collect(),
        };
    }
    let nim_sum = gaps.iter().fold(0, |x, g| x ^ g);
    let mut winning_moves = Vec::new();
    for (i, col) in board.iter().enumerate().filter(|_| nim_sum != 0) {
        let want = nim_sum ^ gaps[i];
        for to in col.targets(rows, rules) {
            let after = Column { mine: to, ..*col };
            if u64::from(after.gap()) == want {
                winning_moves.push(Slide { column: i, to });
            }
        }
    }
    Formula {
        mover_wins: nim_sum != 0,
        nim_sum: Some(nim_sum),
        part_values: None,
        winning_moves,
    }
}

/// The table game for one board size: columns folded as a multiset (the order of
/// columns does not matter), one slot per multiset of column types.
#[derive(Debug, Clone)]
pub struct Northcott {
    columns: usize,
    rows: u32,
    rules: Rules,
    misere: bool,
    slots: Multisets,
}

impl Northcott {
    /// A board of `columns x rows`, up to 26 columns and 1,000 rows. Only boards
    /// whose table fits (`table_fits`) can be generated; every board is answered by
    /// the formula. Misère play is played forward only: with backward moves a
    /// player may be unable to move while gaps remain, and no formula is known.
    pub fn new(columns: usize, rows: u32, rules: Rules, misere: bool) -> Result<Self, GameError> {
        if !(1..=MAX_COLUMNS).contains(&columns) || !(2..=MAX_ROWS).contains(&rows) {
            return Err(GameError::variant(
                &format!("{columns}x{rows}"),
                format!("boards have 1 to {MAX_COLUMNS} columns and 2 to {MAX_ROWS} rows"),
            ));
        }
        if misere && rules == Rules::Both {
            return Err(GameError::option(
                "misere",
                "yes",
                "misère Northcott is played with forward moves only (rules: forward)",
            ));
        }
        Ok(Northcott {
            columns,
            rows,
            rules,
            misere,
            slots: Multisets::new(columns, u64::from(rows * (rows - 1))),
        })
    }

    /// Refuses boards whose table would have more than `TABLE_LIMIT` slots.
    pub fn table_fits(&self) -> Result<(), GameError> {
        if self.slots.size() <= TABLE_LIMIT {
            return Ok(());
        }
        Err(GameError::variant(
            &format!("{}x{}", self.columns, self.rows),
            format!(
                "{} slots is beyond the table limit of {TABLE_LIMIT}; this board is answered by the formula \
                 (tables are made for boards such as --size 4x8 or 6x6)",
                self.slots.size()
            ),
        ))
    }

    /// `<columns>x<rows>`, the rule set `forward` or `both`, and misère play or not.
    pub fn from_variant(size: &str, rules: &str, misere: bool) -> Result<Self, GameError> {
        let rules = match rules.trim() {
            "forward" => Rules::Forward,
            "both" => Rules::Both,
            other => {
                return Err(GameError::variant(
                    other,
                    "northcott rules are 'forward' (toward the other piece) or 'both' (backward too)",
                ));
            }
        };
        let bad = || GameError::variant(size, "a northcott size is <columns>x<rows>, e.g. 4x8");
        let (c, r) = size.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let columns = c.trim().parse().map_err(|_| bad())?;
        let rows = r.trim().parse().map_err(|_| bad())?;
        Northcott::new(columns, rows, rules, misere)
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn misere(&self) -> bool {
        self.misere
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }

    fn column_type(&self, col: Column) -> u64 {
        let theirs = if col.theirs < col.mine {
            col.theirs
        } else {
            col.theirs - 1
        };
        u64::from(col.mine * (self.rows - 1) + theirs)
    }

    fn column_of_type(&self, t: u64) -> Column {
        let t = t as u32;
        let mine = t / (self.rows - 1);
        let theirs = t % (self.rows - 1);
        Column {
            mine,
            theirs: if theirs < mine { theirs } else { theirs + 1 },
        }
    }
}

impl Game for Northcott {
    type Position = Board;
    type Move = Slide;

    fn id(&self) -> &'static str {
        "northcott"
    }

    fn variant(&self) -> String {
        let rules = match (self.rules, self.misere) {
            (Rules::Both, _) => "-both",
            (Rules::Forward, true) => "-misere",
            (Rules::Forward, false) => "",
        };
        format!("{}x{}{rules}", self.columns, self.rows)
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        self.slots.size()
    }

    fn index(&self, board: &Board) -> u64 {
        let types: Vec<u64> = board.iter().map(|&c| self.column_type(c)).collect();
        self.slots.rank(&types)
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Board> {
        Some(
            self.slots
                .unrank(index)
                .into_iter()
                .map(|t| self.column_of_type(t))
                .collect(),
        )
    }

    fn class_size(&self, _tier: u32, index: u64) -> u64 {
        crate::multiset::orderings(&self.slots.unrank(index))
    }

    fn has_cycles(&self) -> bool {
        self.rules == Rules::Both
    }

    /// The columns sorted: their order does not matter.
    fn search_key(&self, board: &Board) -> Board {
        let mut key = board.clone();
        key.sort_unstable();
        key
    }

    fn coverage(&self, _board: &Board) -> Result<(), String> {
        self.table_fits().map_err(|e| match e {
            GameError::BadVariant { reason, .. } => reason,
            other => other.to_string(),
        })
    }

    /// Every piece on its own back row: the mover's at the top.
    fn start(&self) -> Board {
        vec![
            Column {
                mine: 0,
                theirs: self.rows - 1
            };
            self.columns
        ]
    }

    fn moves(&self, board: &Board) -> Vec<Slide> {
        board
            .iter()
            .enumerate()
            .flat_map(|(column, col)| {
                col.targets(self.rows, self.rules)
                    .map(move |to| Slide { column, to })
            })
            .collect()
    }

    /// The opponent moves next: the board is seen from their side.
    fn play(&self, board: &Board, mv: &Slide) -> Child<Board> {
        let after = board
            .iter()
            .enumerate()
            .map(|(i, col)| Column {
                mine: col.theirs,
                theirs: if i == mv.column { mv.to } else { col.mine },
            })
            .collect();
        Child::passing(after)
    }

    fn end_value(&self, board: &Board) -> Option<Value> {
        let last_mover_loses = self.misere;
        self.moves(board)
            .is_empty()
            .then_some(match last_mover_loses {
                true => Value::Win(0),
                false => Value::Loss(0),
            })
    }

    fn why_over(&self, _board: &Board) -> String {
        match self.misere {
            true => "no piece of the player to move can slide: the opponent made the last move, and lost".into(),
            false => "no piece of the player to move can slide".into(),
        }
    }

    fn parse_position(&self, text: &str) -> Result<Board, GameError> {
        let (board, rows) = parse_board(text)?;
        if board.len() != self.columns || rows != self.rows {
            return Err(GameError::position(
                text,
                format!(
                    "this one is {}x{}, the game's board {}x{} ({} columns of {} cells); \
                     give --size {}x{} for this board",
                    board.len(),
                    rows,
                    self.columns,
                    self.rows,
                    self.columns,
                    self.rows,
                    board.len(),
                    rows
                ),
            ));
        }
        Ok(board)
    }

    fn write_position(&self, board: &Board) -> String {
        write_board(board, self.rows)
    }

    fn write_move(&self, _board: &Board, mv: &Slide) -> String {
        mv.write()
    }
}

impl Picture<Northcott> for Northcott {
    /// Columns side by side, row 1 at the top: the mover's pieces blue, the
    /// opponent's red; cell `b3` (column b, row 3) is a place.
    fn svg(&self, board: &Board, marks: &Marks) -> String {
        let cell = (640.0 / f64::from(self.rows)).clamp(4.0, 48.0);
        let (pad, columns) = (24.0, board.len() as f64);
        let mut svg = Svg::new(
            2.0 * pad + columns * cell,
            2.0 * pad + f64::from(self.rows) * cell,
        );
        for (i, col) in board.iter().enumerate() {
            let letter = char::from(b'a' + i as u8);
            let x = pad + i as f64 * cell;
            svg.text(x + cell / 2.0, pad / 2.0, &letter.to_string(), "label");
            for r in 0..self.rows {
                let place = format!("{letter}{}", r + 1);
                // Row numbers where they fit, as moves name the rows.
                if i == 0 && cell >= 12.0 {
                    let y = pad + (f64::from(r) + 0.5) * cell;
                    svg.text(pad / 2.0, y, &(r + 1).to_string(), "label");
                }
                let class = match r {
                    r if r == col.mine => "mine",
                    r if r == col.theirs => "theirs",
                    _ => "cell",
                };
                let y = pad + f64::from(r) * cell;
                svg.rect(x, y, cell, cell, class, Some(&place));
                if marks.last.contains(&place) {
                    let inset = (cell / 10.0).max(1.0);
                    let side = cell - 2.0 * inset;
                    svg.rect(x + inset, y + inset, side, side, "lastbox", None);
                }
            }
        }
        svg.finish(&format!("Northcott board {}", self.write_position(board)))
    }

    /// The cell the mover's piece goes to.
    fn places(&self, _board: &Board, mv: &Slide) -> Vec<Clicks> {
        one_step(vec![mv.write()])
    }
}

impl ClosedForm<Northcott> for Northcott {
    fn formula(&self, board: &Board) -> Result<Formula<Slide>, GameError> {
        Ok(formula(board, self.rows, self.rules, self.misere))
    }

    fn measure(&self) -> &'static str {
        "empty cells between the pieces"
    }

    fn left(&self, board: &Board) -> u64 {
        board.iter().map(|c| u64::from(c.gap())).sum()
    }

    /// Every slide of the mover's pieces, a move to each cell of the board.
    fn weight(&self, board: &Board) -> u64 {
        (board.len() as u64).saturating_mul(u64::from(self.rows))
    }
}

impl Drawing<Northcott> for Northcott {
    /// Rows down the page, columns across, `x` the mover's pieces.
    fn draw(&self, board: &Board) -> String {
        self.draw_from(board, Side::Mover, &|_| ' ')
    }

    /// `x` marks the pieces of the side seen from.
    fn draw_from(&self, board: &Board, side: Side, _owner: &dyn Fn(usize) -> char) -> String {
        let (mine, theirs) = match side {
            Side::Mover => ('x', 'o'),
            Side::Opponent => ('o', 'x'),
        };
        let header: String = (0..board.len())
            .map(|i| format!(" {}", (b'a' + i as u8) as char))
            .collect();
        let mut out = format!("   {header}\n");
        for r in 0..self.rows {
            out.push_str(&format!("{:>3}", r + 1));
            for col in board {
                let cell = match r {
                    r if r == col.mine => mine,
                    r if r == col.theirs => theirs,
                    _ => '.',
                };
                out.push(' ');
                out.push(cell);
            }
            out.push('\n');
        }
        out.push_str(match side {
            Side::Mover => "x: the player to move, o: the other",
            Side::Opponent => "x: the player waiting, o: the player to move",
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::BoundedSearch;

    #[test]
    fn notation_round_trips_and_is_checked() {
        let (board, rows) = parse_board("x..o/.x.o").unwrap();
        assert_eq!(rows, 4);
        assert_eq!(board[1], Column { mine: 1, theirs: 3 });
        assert_eq!(write_board(&board, rows), "x..o/.x.o");
        assert_eq!(board.iter().map(|c| c.gap()).collect::<Vec<_>>(), [2, 1]);
        for bad in ["x..o/.o.", "x..o/.oxx", "x.o/xo.z", "x", "", "x..o/o..x"] {
            assert!(parse_board(bad).is_err(), "{bad}");
        }
        let game = Northcott::new(2, 4, Rules::Both, false).unwrap();
        assert!(game.parse_position("x..o/.o.x/x..o").is_err());
        assert_eq!(game.moves(&board).len(), 2 + 2);
        let forward = Northcott::new(2, 4, Rules::Forward, false).unwrap();
        assert_eq!(forward.moves(&board).len(), 2 + 1);
        assert!(
            Northcott::new(8, 8, Rules::Forward, false)
                .unwrap()
                .table_fits()
                .is_err()
        );
        assert!(
            Northcott::new(6, 6, Rules::Both, false)
                .unwrap()
                .table_fits()
                .is_ok()
        );
        assert!(Northcott::new(6, 6, Rules::Both, true).is_err());
    }

    /// Every board of 3 columns of 5 cells under each rule set, against search:
    /// the formula's verdict, and every move it calls winning leaves a loss.
    #[test]
    fn small_boards_are_nim_or_misere_nim_on_the_gaps() {
        for (rules, misere) in [
            (Rules::Forward, false),
            (Rules::Forward, true),
            (Rules::Both, false),
        ] {
            let game = Northcott::new(3, 5, rules, misere).unwrap();
            let mut search = BoundedSearch::new(&game);
            let mut losses = 0;
            for index in 0..game.index_size(0) {
                let board = game.position_at(0, index).unwrap();
                assert_eq!(game.index(&board), index);
                let value = search.value(&board, 60);
                let verdict = formula(&board, 5, rules, misere);
                let name = game.write_position(&board);
                assert_eq!(matches!(value, Value::Win(_)), verdict.mover_wins, "{name}");
                assert!(!matches!(value, Value::Draw), "{name}");
                losses += usize::from(!verdict.mover_wins);
                let winning = game
                    .moves(&board)
                    .into_iter()
                    .filter(|m| {
                        matches!(
                            search.value(&game.play(&board, m).position, 60),
                            Value::Loss(_)
                        )
                    })
                    .count();
                assert_eq!(winning, verdict.winning_moves.len(), "{name}");
                for m in verdict.winning_moves {
                    let child = game.play(&board, &m).position;
                    assert!(matches!(search.value(&child, 60), Value::Loss(_)), "{name}");
                }
            }
            assert!(losses > 0, "{rules:?} {misere}");
        }
    }
}
