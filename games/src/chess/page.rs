//! Chess endings for people: the board as SVG with every square a place to
//! click, values as players say them ("White mates in 6"), lines as PGN, and an
//! editor that sets up any board, legal or not, one square at a time.

use super::{Board, Color, Endgame, FIFTY_MOVES, Metric, Move, Piece, Role, Square, refused};
use crate::capability::{
    Clicks, Clock, Counts, Editing, Marks, Outcome, Picture, Record, Tool, Verdict, Wording,
};
use crate::game::{Game, GameError};
use crate::svg::Svg;
use crate::value::Value;

/// Pixels per square.
const SQUARE: f64 = 56.0;
/// Room for the file and rank letters.
const MARGIN: f64 = 22.0;

fn glyph(piece: Piece) -> &'static str {
    // The solid shapes for both colours, filled white or black by class.
    match piece.role {
        Role::King => "\u{265A}",
        Role::Queen => "\u{265B}",
        Role::Rook => "\u{265C}",
        Role::Bishop => "\u{265D}",
        Role::Knight => "\u{265E}",
        Role::Pawn => "\u{265F}",
    }
}

/// The board drawn with White at the bottom.
fn draw(board: &Board, marks: &Marks) -> String {
    let mut svg = Svg::new(MARGIN + 8.0 * SQUARE, 8.0 * SQUARE + MARGIN);
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let sq = Square::at(file, rank);
            let name = sq.to_string();
            // White at the bottom, or Black where the board is flipped.
            let (column, row) = match marks.flipped {
                false => (file, 7 - rank),
                true => (7 - file, rank),
            };
            let (x, y) = (MARGIN + f64::from(column) * SQUARE, f64::from(row) * SQUARE);
            let shade = if (rank + file) % 2 == 0 {
                "dark"
            } else {
                "light"
            };
            let class = if marks.last.contains(&name) {
                format!("{shade} last")
            } else {
                shade.to_string()
            };
            svg.rect(x, y, SQUARE, SQUARE, &class, Some(&name));
            if let Some(piece) = board.piece_at(sq) {
                svg.text(
                    x + SQUARE / 2.0,
                    y + SQUARE / 2.0 + 2.0,
                    glyph(piece),
                    &format!("piece {}", fill(piece.color)),
                );
            }
        }
    }
    for i in 0..8u8 {
        let at = if marks.flipped { 7 - i } else { i };
        let file = char::from(b'a' + at).to_string();
        let rank = (8 - at).to_string();
        svg.text(
            MARGIN + (f64::from(i) + 0.5) * SQUARE,
            8.0 * SQUARE + MARGIN / 2.0,
            &file,
            "label",
        );
        svg.text(MARGIN / 2.0, (f64::from(i) + 0.5) * SQUARE, &rank, "label");
    }
    let side = match board.turn {
        Color::White => "white",
        Color::Black => "black",
    };
    svg.finish(&format!("chess board, {side} to move: {}", board.fen()))
}

impl Picture<Endgame> for Endgame {
    fn svg(&self, board: &Board, marks: &Marks) -> String {
        draw(board, marks)
    }

    /// The square a piece leaves, and the square it goes to.
    fn places(&self, _board: &Board, mv: &Move) -> Vec<Clicks> {
        vec![vec![vec![mv.from.to_string()], vec![mv.to.to_string()]]]
    }

    fn flips(&self) -> bool {
        true
    }
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Wording<Endgame> for Endgame {
    /// `White mates in 6`, `Black is mated in 35`, `White is checkmated`,
    /// `draw`; in DTZ, `White wins, 9 plies to a capture or pawn move`, or a
    /// cursed win or blessed loss where the distance is beyond the 50-move rule.
    fn say(&self, board: &Board, value: Value) -> String {
        let mover = side(board.turn);
        let plies = |n: u16| match n {
            1 => "1 ply to a capture or pawn move".to_string(),
            n => format!("{n} plies to a capture or pawn move"),
        };
        match (self.metric(), value) {
            (_, Value::Loss(0)) => format!("{mover} is checkmated"),
            (_, Value::Draw) => "draw".to_string(),
            (_, Value::Score(s)) => format!("score {s:+}"),
            (Metric::Dtm, Value::Win(n)) => format!("{mover} mates in {}", n.div_ceil(2)),
            (Metric::Dtm, Value::Loss(n)) => format!("{mover} is mated in {}", n / 2),
            (Metric::Dtz, Value::Win(n)) if n > FIFTY_MOVES => format!(
                "{mover} wins but for the 50-move rule (a cursed win), {}",
                plies(n)
            ),
            (Metric::Dtz, Value::Win(n)) => format!("{mover} wins, {}", plies(n)),
            (Metric::Dtz, Value::Loss(n)) if n > FIFTY_MOVES => format!(
                "{mover} loses but for the 50-move rule (a blessed loss), {}",
                plies(n)
            ),
            (Metric::Dtz, Value::Loss(n)) => format!("{mover} loses, {}", plies(n)),
            (Metric::Wdl, Value::Win(n)) if n > FIFTY_MOVES => {
                format!("{mover} wins but for the 50-move rule (a cursed win)")
            }
            (Metric::Wdl, Value::Win(_)) => format!("{mover} wins"),
            (Metric::Wdl, Value::Loss(n)) if n > FIFTY_MOVES => {
                format!("{mover} loses but for the 50-move rule (a blessed loss)")
            }
            (Metric::Wdl, Value::Loss(_)) => format!("{mover} loses"),
        }
    }

    /// In DTZ: `win, DTZ 9`, `cursed win, DTZ 104`, `loss, DTZ 12`.
    fn say_move(&self, value: Value, outcome: Option<Outcome>) -> Option<String> {
        if self.metric() != Metric::Dtz {
            return None;
        }
        // Without the clock, a distance past the rule's 100 plies is enough.
        let ruled = |n: u16, by: Outcome| outcome.map_or(n > FIFTY_MOVES, |o| o == by);
        Some(match value {
            Value::Win(n) if ruled(n, Outcome::CursedWin) => format!("cursed win, DTZ {n}"),
            Value::Win(n) => format!("win, DTZ {n}"),
            Value::Loss(n) if ruled(n, Outcome::BlessedLoss) => format!("blessed loss, DTZ {n}"),
            Value::Loss(n) => format!("loss, DTZ {n}"),
            Value::Draw | Value::Score(_) => "draw".to_string(),
        })
    }

    fn sides(&self, board: &Board) -> Option<[&'static str; 2]> {
        Some([side(board.turn), side(board.turn.other())])
    }
}

/// The halfmove clock: the fifth field of a FEN, which the tables do not hold
/// and the 50-move rule reads with DTZ, as the lichess tablebase does.
impl Clock<Endgame> for Endgame {
    fn name(&self) -> &'static str {
        "halfmove clock"
    }

    fn most(&self) -> u16 {
        FIFTY_MOVES
    }

    /// The FEN's last two fields: the halfmove clock (plies since a capture
    /// or pawn move) and the move number (a 0 read as 1, as lichess does).
    fn read(&self, fen: &str) -> Result<Counts, GameError> {
        let mut fields = fen.split_whitespace().skip(4);
        let mut field = |name: &str| {
            let Some(text) = fields.next() else {
                return Ok(None);
            };
            let count = text.parse::<u32>().map_err(|_| {
                GameError::position(fen, format!("the {name} '{text}' is not a number"))
            })?;
            Ok(Some(count))
        };
        let clock = field("halfmove clock")?.unwrap_or(0);
        let number = field("move number")?.unwrap_or(1);
        Ok(Counts {
            clock: clock.min(u32::from(u16::MAX)) as u16,
            number: number.max(1),
        })
    }

    /// Sets the counts of a FEN, filling in the fields it leaves out.
    fn write(&self, fen: &str, counts: Counts) -> String {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return fen.to_string();
        }
        fields.extend(["-", "-", "0", "1"].iter().skip(fields.len() - 2));
        let (clock, number) = (counts.clock.to_string(), counts.number.to_string());
        fields[4] = &clock;
        fields[5] = &number;
        fields.join(" ")
    }

    fn restarts(&self, _board: &Board, mv: &Move) -> bool {
        mv.is_zeroing()
    }

    fn ends_round(&self, board: &Board) -> bool {
        board.turn == Color::Black
    }

    fn ruled(&self) -> bool {
        self.metric() == Metric::Dtz
    }

    /// DTZ with the clock, as lichess reads it: a win whose next capture or
    /// pawn move comes after the clock reaches 100 is cursed, and a loss so
    /// long blessed. A draw is a draw either way, and DTM ignores the rule.
    fn verdict(&self, value: Value, count: u16) -> Option<Verdict> {
        if !self.ruled() {
            return None;
        }
        let within = |n: u16| u32::from(n) + u32::from(count) <= u32::from(FIFTY_MOVES);
        let clock = match count {
            0 => String::new(),
            n => format!(" with {n} on the clock"),
        };
        let (outcome, said) = match value {
            Value::Win(n) if within(n) => (Outcome::Win, "a win under the 50-move rule".into()),
            Value::Win(_) => (
                Outcome::CursedWin,
                format!("a cursed win: the 50-move rule draws it{clock}"),
            ),
            Value::Loss(n) if within(n) => (Outcome::Loss, "a loss under the 50-move rule".into()),
            Value::Loss(_) => (
                Outcome::BlessedLoss,
                format!("a blessed loss: the 50-move rule saves it{clock}"),
            ),
            Value::Draw | Value::Score(_) => return None,
        };
        Some(Verdict { outcome, said })
    }
}

impl Record<Endgame> for Endgame {
    fn format(&self) -> &'static str {
        "pgn"
    }

    /// PGN with `SetUp` and `FEN` headers (the FEN with `counts`), move
    /// numbers from the FEN's, and the result where the line ends in mate or a
    /// draw, the 50-move rule's too where the measure counts it.
    fn record(&self, start: &Board, counts: Counts, moves: &[Move]) -> String {
        let (mut board, mut now) = (start.clone(), counts);
        let mut text = String::new();
        for (i, mv) in moves.iter().enumerate() {
            match (board.turn, i) {
                (Color::White, _) => text.push_str(&format!("{}. ", now.number)),
                (Color::Black, 0) => text.push_str(&format!("{}... ", now.number)),
                (Color::Black, _) => {}
            }
            text.push_str(&board.san(mv));
            text.push(' ');
            now = self.after(&board, mv, now);
            board = board.play(mv);
        }
        let result = match self.end_value(&board) {
            Some(Value::Loss(_)) if board.turn == Color::White => "0-1",
            Some(Value::Loss(_)) => "1-0",
            Some(Value::Draw) => "1/2-1/2",
            _ if self.rule_ends(now) => {
                text.push_str("{The 50-move rule: 100 plies without a capture or pawn move} ");
                "1/2-1/2"
            }
            _ => "*",
        };
        let headers = [
            ("Event", "Perfect play from the tablebase"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", result),
            ("SetUp", "1"),
            ("FEN", &self.write(&start.fen(), counts)),
        ];
        let mut pgn: String = headers
            .iter()
            .map(|(name, value)| format!("[{name} \"{value}\"]\n"))
            .collect();
        pgn.push('\n');
        pgn.push_str(&text);
        pgn.push_str(result);
        pgn.push('\n');
        pgn
    }
}

/// The editor's tools: a piece of either colour, an empty square, the side to
/// move, and the whole board emptied, mirrored left to right, or turned over
/// with the colours swapped (the same position for the other side).
const TOOLS: [Tool; 17] = [
    Tool::on_board("K", "white king"),
    Tool::on_board("Q", "white queen"),
    Tool::on_board("R", "white rook"),
    Tool::on_board("B", "white bishop"),
    Tool::on_board("N", "white knight"),
    Tool::on_board("P", "white pawn"),
    Tool::on_board("k", "black king"),
    Tool::on_board("q", "black queen"),
    Tool::on_board("r", "black rook"),
    Tool::on_board("b", "black bishop"),
    Tool::on_board("n", "black knight"),
    Tool::on_board("p", "black pawn"),
    Tool::on_board("clear", "empty square"),
    Tool::whole("turn", "other side to move"),
    Tool::whole("empty", "empty board"),
    Tool::whole("mirror", "mirror left to right"),
    Tool::whole("swap", "swap colours"),
];

impl Editing<Endgame> for Endgame {
    fn tools(&self) -> Vec<Tool> {
        TOOLS.to_vec()
    }

    /// Puts the tool's piece on the square (or empties it); `turn` changes the
    /// side to move wherever it is used. Castling rights are dropped: the
    /// tables hold no position with them.
    fn edit(&self, fen: &str, place: &str, tool: &str) -> Result<String, GameError> {
        let board = Board::sketch_without_castling(fen).map_err(refused(fen))?;
        let mut edited = edited(board, place, tool)?;
        // A square no double step can have left any more is dropped.
        if edited
            .ep_square()
            .is_some_and(|sq| edited.ep_impossible(sq).is_some())
        {
            edited.set_ep_square(None);
        }
        Ok(edited.fen())
    }

    fn sketch(&self, fen: &str) -> Result<String, GameError> {
        Ok(draw(
            &Board::sketch_without_castling(fen).map_err(refused(fen))?,
            &Marks::default(),
        ))
    }

    /// A piece's tool as the piece on a light square.
    fn picture(&self, tool: &str) -> Option<String> {
        let mut letters = tool.chars();
        let piece = match (letters.next(), letters.next()) {
            (Some(letter), None) => Piece::from_fen_char(letter)?,
            _ => return None,
        };
        let label = TOOLS.iter().find(|t| t.id == tool)?.label;
        let mut svg = Svg::new(SQUARE, SQUARE);
        svg.rect(0.0, 0.0, SQUARE, SQUARE, "light", None);
        let (x, y) = (SQUARE / 2.0, SQUARE / 2.0 + 2.0);
        svg.text(x, y, glyph(piece), &format!("piece {}", fill(piece.color)));
        Some(svg.finish(label))
    }
}

/// The class that fills a piece of `color`.
fn fill(color: Color) -> &'static str {
    match color {
        Color::White => "pw",
        Color::Black => "pb",
    }
}

/// `board` after the editor's `tool` is used on `place`.
fn edited(mut board: Board, place: &str, tool: &str) -> Result<Board, GameError> {
    if tool == "turn" {
        board.turn = board.turn.other();
        return Ok(board);
    }
    if tool == "empty" {
        for square in Square::all_of(u64::MAX) {
            board.set(square, None);
        }
        return Ok(board);
    }
    if tool == "mirror" || tool == "swap" {
        return Ok(turned(&board, tool == "swap"));
    }
    let square: Square = place
        .parse()
        .map_err(|_| GameError::position(place, "not a square: a1 to h8"))?;
    let refused = || {
        GameError::position(
            tool,
            "tools are K Q R B N P, k q r b n p, clear, turn, empty, mirror and swap",
        )
    };
    if !TOOLS.iter().any(|t| t.id == tool) {
        return Err(refused());
    }
    let piece = match tool {
        "clear" => None,
        letter => Some(
            letter
                .chars()
                .next()
                .and_then(Piece::from_fen_char)
                .ok_or_else(refused)?,
        ),
    };
    board.set(square, piece);
    Ok(board)
}

/// `board` mirrored left to right, or with `swap`, turned over top to bottom
/// with every piece and the side to move of the other colour: either way the
/// same position, with the same value for the side to move.
fn turned(board: &Board, swap: bool) -> Board {
    let place = |sq: Square| match swap {
        true => Square::at(sq.file(), 7 - sq.rank()),
        false => Square::at(7 - sq.file(), sq.rank()),
    };
    let mut out = board.clone();
    for square in Square::all_of(u64::MAX) {
        out.set(square, None);
    }
    for square in Square::all_of(u64::MAX) {
        if let Some(piece) = board.piece_at(square) {
            let color = match swap {
                true => piece.color.other(),
                false => piece.color,
            };
            out.set(place(square), Some(Piece { color, ..piece }));
        }
    }
    if swap {
        out.turn = board.turn.other();
    }
    out.set_ep_square(board.ep_square().map(place));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Material;

    fn endings() -> Endgame {
        Endgame::of_all(&Material::all_up_to(4))
    }

    fn kpvk() -> Endgame {
        Endgame::new(&Material::parse("KPvK").unwrap())
    }

    #[test]
    fn values_are_said_as_players_say_them() {
        let game = endings();
        let white = game
            .parse_position("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
            .unwrap();
        assert_eq!(game.say(&white, Value::Win(11)), "White mates in 6");
        let black = game
            .parse_position("8/8/8/8/8/2k5/8/KQ6 b - - 0 1")
            .unwrap();
        assert_eq!(game.say(&black, Value::Loss(70)), "Black is mated in 35");
        assert_eq!(game.say(&black, Value::Loss(0)), "Black is checkmated");
        assert_eq!(game.say(&black, Value::Draw), "draw");
    }

    /// DTZ is said as plies to a capture or pawn move, never as a mate, and a
    /// distance beyond the 50-move rule as a cursed win or a blessed loss.
    #[test]
    fn dtz_values_are_said_as_distances_to_zeroing() {
        let game = kpvk().with_metric(Metric::Dtz);
        let white = game
            .parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
            .unwrap();
        assert_eq!(
            game.say(&white, Value::Win(9)),
            "White wins, 9 plies to a capture or pawn move"
        );
        assert_eq!(
            game.say(&white, Value::Loss(101)),
            "White loses but for the 50-move rule (a blessed loss), 101 plies to a capture or pawn move"
        );
        assert_eq!(game.say(&white, Value::Loss(0)), "White is checkmated");
        assert_eq!(
            game.say_move(Value::Win(104), None).unwrap(),
            "cursed win, DTZ 104"
        );
        assert_eq!(game.say_move(Value::Loss(1), None).unwrap(), "loss, DTZ 1");
        // With 95 on the clock, 9 plies to the pawn's step come too late.
        let cursed = game.say_move(Value::Win(9), Some(Outcome::CursedWin));
        assert_eq!(cursed.unwrap(), "cursed win, DTZ 9");
        let blessed = game.say_move(Value::Loss(8), Some(Outcome::BlessedLoss));
        assert_eq!(blessed.unwrap(), "blessed loss, DTZ 8");
        assert_eq!(endings().say_move(Value::Win(3), None), None);
    }

    /// The halfmove clock: read from and written into a FEN's fifth field, and
    /// read with DTZ as lichess reads it (a win is cursed where its distance
    /// and the clock together pass 100 plies); DTM ignores it.
    #[test]
    fn the_clock_reads_dtz_as_lichess_does() {
        let game = kpvk().with_metric(Metric::Dtz);
        let clock = |fen| game.read(fen).map(|counts| counts.clock);
        assert_eq!(clock("4k3/8/8/8/8/8/4P3/4K3 w - - 95 80"), Ok(95));
        assert_eq!(clock("4k3/8/8/8/8/8/4P3/4K3 w"), Ok(0));
        assert_eq!(clock("4k3/8/8/8/8/8/4P3/4K3 w - - 99999 8"), Ok(u16::MAX));
        assert!(
            game.read("4k3/8/8/8/8/8/4P3/4K3 w - - 9999999999 8")
                .is_err()
        );
        let bad = game.read("4k3/8/8/8/8/8/4P3/4K3 w - - x 80").unwrap_err();
        assert!(
            bad.to_string()
                .contains("the halfmove clock 'x' is not a number"),
            "{bad}"
        );
        assert_eq!(
            game.write(
                "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
                Counts {
                    clock: 42,
                    number: 1
                }
            ),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 42 1"
        );
        let outcome = |value, clock| game.verdict(value, clock).unwrap().outcome;
        assert_eq!(outcome(Value::Win(9), 91), Outcome::Win);
        assert_eq!(outcome(Value::Win(9), 92), Outcome::CursedWin);
        assert_eq!(outcome(Value::Win(101), 0), Outcome::CursedWin);
        assert_eq!(outcome(Value::Loss(10), 90), Outcome::Loss);
        assert_eq!(outcome(Value::Loss(10), 91), Outcome::BlessedLoss);
        assert_eq!(outcome(Value::Loss(0), 100), Outcome::Loss);
        assert_eq!(game.verdict(Value::Draw, 50), None);
        assert_eq!(endings().verdict(Value::Win(9), 99), None);
        let board = game
            .parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
            .unwrap();
        let push = game.parse_move(&board, "e4").unwrap();
        let step = game.parse_move(&board, "Kd2").unwrap();
        assert!(game.restarts(&board, &push));
        assert!(!game.restarts(&board, &step));
    }

    #[test]
    fn the_editor_builds_any_board_and_the_picture_has_every_square() {
        let game = endings();
        let mut fen = "8/8/8/8/8/8/8/8 w - - 0 1".to_string();
        for (square, tool) in [
            ("a1", "K"),
            ("c3", "k"),
            ("b1", "Q"),
            ("b1", "clear"),
            ("b2", "Q"),
        ] {
            fen = game.edit(&fen, square, tool).unwrap();
        }
        fen = game.edit(&fen, "a1", "turn").unwrap();
        assert_eq!(fen, "8/8/8/8/8/2k5/1Q6/K7 b - - 0 1");
        // Without a king the board is still drawn, but it is no position.
        let kingless = game.edit(&fen, "a1", "clear").unwrap();
        assert!(
            game.sketch(&kingless)
                .unwrap()
                .contains("data-place=\"a1\"")
        );
        assert!(game.parse_position(&kingless).is_err());
        assert!(game.edit(&fen, "i9", "Q").is_err());
        assert!(game.edit(&fen, "a2", "X").is_err());
        // A pawn placed on the first rank is drawn, and refused as a position
        // with its reason.
        let edge = game.edit(&fen, "h1", "p").unwrap();
        assert_eq!(edge, "8/8/8/8/8/2k5/1Q6/K6p b - - 0 1");
        let why = game.parse_position(&edge).unwrap_err().to_string();
        assert!(
            why.contains("pawns never stand on the first or last rank"),
            "{why}"
        );
        let svg = game.svg(&game.parse_position(&fen).unwrap(), &Marks::default());
        assert_eq!(svg.matches("data-place=").count(), 64);
    }

    #[test]
    fn a_line_is_written_as_pgn() {
        let game = endings();
        let start = game
            .parse_position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")
            .unwrap();
        let mate = game.parse_move(&start, "Qg8#").unwrap();
        let pgn = game.record(&start, Counts::default(), &[mate]);
        assert!(
            pgn.contains("[SetUp \"1\"]\n[FEN \"k7/8/1K6/8/8/8/8/6Q1 w - - 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.ends_with("\n1. Qg8# 1-0\n"), "{pgn}");
    }

    #[test]
    fn a_fen_keeps_its_clock_and_move_number() {
        let game = kpvk();
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 95 80";
        let counts = game.read(fen).unwrap();
        assert_eq!(
            counts,
            Counts {
                clock: 95,
                number: 80
            }
        );
        assert_eq!(
            game.read("4k3/8/8/8/8/8/4P3/4K3 w").unwrap(),
            Counts::default()
        );
        assert_eq!(
            game.read("4k3/8/8/8/8/8/4P3/4K3 w - - 3 0").unwrap().number,
            1
        );
        let bad = game.read("4k3/8/8/8/8/8/4P3/4K3 w - - 3 x").unwrap_err();
        assert!(bad.to_string().contains("move number 'x'"), "{bad}");
        assert_eq!(
            game.write("4k3/8/8/8/8/8/4P3/4K3 b", counts),
            "4k3/8/8/8/8/8/4P3/4K3 b - - 95 80"
        );
        // White's king move adds a ply; Black's reply ends the round; a pawn
        // move restarts the clock.
        let board = game.parse_position(fen).unwrap();
        let king = game.parse_move(&board, "Kd2").unwrap();
        let after = game.after(&board, &king, counts);
        assert_eq!(
            after,
            Counts {
                clock: 96,
                number: 80
            }
        );
        let board = board.play(&king);
        let reply = game.parse_move(&board, "Kd7").unwrap();
        assert_eq!(
            game.after(&board, &reply, after),
            Counts {
                clock: 97,
                number: 81
            }
        );
        let board = board.play(&reply);
        let push = game.parse_move(&board, "e4").unwrap();
        assert_eq!(game.after(&board, &push, counts).clock, 0);
    }

    #[test]
    fn a_line_past_the_fifty_move_rule_is_a_draw_in_pgn_under_dtz() {
        let dtz = kpvk().with_metric(Metric::Dtz);
        let start = dtz
            .parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 98 80")
            .unwrap();
        let one = dtz.parse_move(&start, "Kd2").unwrap();
        let two = dtz.parse_move(&start.play(&one), "Kd7").unwrap();
        let counts = dtz.read("4k3/8/8/8/8/8/4P3/4K3 w - - 98 80").unwrap();
        let pgn = dtz.record(&start, counts, &[one, two]);
        assert!(
            pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 98 80\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
        assert!(pgn.contains("\n80. Kd2 Kd7 {The 50-move rule"), "{pgn}");
        assert!(pgn.ends_with("} 1/2-1/2\n"), "{pgn}");
        // DTM does not count the rule: the same line is unfinished.
        let pgn = kpvk().record(&start, counts, &[one, two]);
        assert!(pgn.ends_with("\n80. Kd2 Kd7 *\n"), "{pgn}");
    }

    #[test]
    fn the_editor_mirrors_and_swaps_colours() {
        let game = kpvk();
        // An en passant square goes with its pawns.
        let (pawn, ep) = (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/8/3Pp3/8/8/K1k5 b - d3 0 1",
        );
        for (fen, tool, turned) in [
            (pawn, "mirror", "3k4/8/8/8/8/8/3P4/3K4 w - - 0 1"),
            (pawn, "swap", "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1"),
            (ep, "swap", "k1K5/8/8/3pP3/8/8/8/8 w - d6 0 1"),
            (ep, "mirror", "8/8/8/8/3pP3/8/8/5k1K b - e3 0 1"),
        ] {
            assert_eq!(game.edit(fen, "", tool).unwrap(), turned, "{fen} {tool}");
        }
        // Without the pawn that stepped, the square is dropped, not kept to
        // be refused on the next read.
        assert_eq!(
            game.edit(ep, "d4", "clear").unwrap(),
            "8/8/8/8/4p3/8/8/K1k5 b - - 0 1"
        );
    }
}
