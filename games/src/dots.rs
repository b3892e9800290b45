//! Dots-and-boxes on a board of `rows x cols` boxes. Players alternately draw an
//! undrawn edge; completing one or two boxes scores them and the same player moves
//! again. A position is the set of drawn edges (neutral, so it reads the same for
//! both players); its value is the best net number of boxes the mover can still win.
//!
//! Edges are numbered as the notation lists them: the `(rows + 1) * cols` horizontal
//! edges row by row from the top, then the `rows * (cols + 1)` vertical edges row
//! by row. A position is the bit mask of drawn edges (bit `i` = edge `i`), which is
//! also its index: every mask is a legal position.

use crate::capability::{
    Capabilities, Check, Clicks, Drawing, Editing, Layered, Marks, Picture, Solver, Tool,
    WholeGame, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Dots> = Spec {
    entry: Entry {
        id: "dots",
        extras: Extras {
            whole_game: true,
            ..Extras::NONE
        },
        about: "Dots-and-boxes: draw an edge; completing a box scores it and moves again; most boxes wins",
        notation: "every edge '1' (drawn) or '0': the horizontal edges row by row from the top, \
                   '/', then the vertical ones: 000000000000/000000000000 (3x3); \
                   a move names an edge, h<row><col> or v<row><col>: h00, v23",
        options: &[OptionSpec {
            name: "size",
            help: "board size in boxes, rows x columns (at most 31 edges: 3x4 is the largest near-square board)",
            scope: Scope::Variant,
            values: Values::Text("ROWSxCOLUMNS, e.g. 3x3"),
            default: Some("3x3"),
            positional: false,
        }],
        all: &[&[("size", "1x1,1x2,1x3,1x4,2x2,2x3,2x4,3x3")]],
    },
    build: |options| Dots::parse_size(options.get("size").unwrap_or("3x3")),
    capabilities: |game| Capabilities {
        drawing: Some(game),
        whole_game: Some(game),
        picture: Some(game),
        editing: Some(game),
        ..Capabilities::new(Solver::Dedicated, vec![Check::LiveSearch])
    },
    generate_options: |game, _| vec![("size", game.variant())],
};

/// Bit mask of drawn edges.
pub type Edges = u32;
/// An edge number.
pub type Edge = u8;

/// The most edges a board may have: masks and table indices stay below 2^31.
pub const MAX_EDGES: u32 = 31;
/// The most rows or columns of boxes: moves name them with one digit.
pub const MAX_SIDE: u32 = 9;

/// A mask no position contains (bit 31 is never an edge): stands for "no box".
const NO_BOX: Edges = 1 << 31;

/// A board size and everything derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dots {
    rows: u32,
    cols: u32,
    /// For each edge, the other three edges of each box it borders (`NO_BOX` if none).
    box_rest: Vec<[Edges; 2]>,
    /// The four edges of each box, row by row.
    boxes: Vec<Edges>,
}

impl Default for Dots {
    /// The 3x3 board, solved by default.
    fn default() -> Self {
        Dots::new(3, 3).expect("3x3 is a supported board")
    }
}

impl Dots {
    /// A board of `rows x cols` boxes, refused when it is empty, when a side exceeds
    /// 9 boxes or when it has more than 31 edges.
    pub fn new(rows: u32, cols: u32) -> Result<Dots, GameError> {
        let text = format!("{rows}x{cols}");
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(GameError::variant(
                &text,
                format!("rows and columns of boxes must be 1 to {MAX_SIDE}"),
            ));
        }
        let edges = (rows + 1) * cols + rows * (cols + 1);
        if edges > MAX_EDGES {
            return Err(GameError::variant(
                &text,
                format!(
                    "{edges} edges; at most {MAX_EDGES} are supported (3x4 and 4x3 are the largest near-square boards)"
                ),
            ));
        }
        let mut dots = Dots {
            rows,
            cols,
            box_rest: vec![[NO_BOX; 2]; edges as usize],
            boxes: Vec::new(),
        };
        for r in 0..rows {
            for c in 0..cols {
                let sides = [
                    dots.horizontal(r, c),
                    dots.horizontal(r + 1, c),
                    dots.vertical(r, c),
                    dots.vertical(r, c + 1),
                ];
                let all = sides.iter().fold(0, |m, &e| m | 1 << e);
                dots.boxes.push(all);
                for e in sides {
                    let slot = if dots.box_rest[e as usize][0] == NO_BOX {
                        0
                    } else {
                        1
                    };
                    dots.box_rest[e as usize][slot] = all & !(1 << e);
                }
            }
        }
        Ok(dots)
    }

    /// Reads a size written `<rows>x<cols>`, e.g. `3x4`.
    pub fn parse_size(text: &str) -> Result<Dots, GameError> {
        let bad = || {
            GameError::variant(
                text,
                "a dots-and-boxes size is <rows>x<cols> of boxes, e.g. 3x3 or 2x4",
            )
        };
        let (rows, cols) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let rows = rows.trim().parse().map_err(|_| bad())?;
        let cols = cols.trim().parse().map_err(|_| bad())?;
        Dots::new(rows, cols)
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }

    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The number of edges.
    pub fn edges(&self) -> u32 {
        self.box_rest.len() as u32
    }

    /// The number of boxes.
    pub fn boxes(&self) -> u32 {
        self.rows * self.cols
    }

    /// The mask with every edge drawn.
    pub fn full(&self) -> Edges {
        ((1u64 << self.edges()) - 1) as Edges
    }

    fn horizontal_count(&self) -> u32 {
        (self.rows + 1) * self.cols
    }

    /// The horizontal edge above box row `row` (`row == rows`: the bottom edge).
    pub fn horizontal(&self, row: u32, col: u32) -> Edge {
        (row * self.cols + col) as Edge
    }

    /// The vertical edge left of box column `col` (`col == cols`: the right edge).
    pub fn vertical(&self, row: u32, col: u32) -> Edge {
        (self.horizontal_count() + row * (self.cols + 1) + col) as Edge
    }

    /// For each edge, the other three edges of the one or two boxes it borders, with
    /// `1 << 31` (never drawn) for a missing second box: the edge completes a box
    /// exactly when that box's three other edges are all drawn.
    pub fn box_rest(&self) -> &[[Edges; 2]] {
        &self.box_rest
    }

    /// The four edges of each box, row by row.
    pub fn box_edges(&self) -> &[Edges] {
        &self.boxes
    }

    /// How many boxes drawing `edge` completes in `drawn`.
    pub fn gain(&self, drawn: Edges, edge: Edge) -> u8 {
        let [a, b] = self.box_rest[edge as usize];
        u8::from(drawn & a == a) + u8::from(drawn & b == b)
    }

    /// The boxes (numbered row by row) that drawing `edge` completes.
    pub fn completed_boxes(&self, drawn: Edges, edge: Edge) -> Vec<usize> {
        let after = drawn | 1 << edge;
        (0..self.boxes.len())
            .filter(|&b| {
                let all = self.boxes[b];
                all & (1 << edge) != 0 && after & all == all
            })
            .collect()
    }

    /// The board's symmetries as edge permutations (`map[e]` is the image of edge
    /// `e`): 8 for a square board, 4 for a rectangle. The first is the identity.
    pub fn symmetries(&self) -> Vec<Vec<Edge>> {
        let (m, n) = (self.rows, self.cols);
        // Edges as doubled coordinates of their midpoints: a horizontal edge (r, c)
        // sits at (2r, 2c + 1), a vertical edge (r, c) at (2r + 1, 2c).
        let point = |e: u32| {
            if e < self.horizontal_count() {
                (2 * (e / n), 2 * (e % n) + 1)
            } else {
                let v = e - self.horizontal_count();
                (2 * (v / (n + 1)) + 1, 2 * (v % (n + 1)))
            }
        };
        let edge_at = |(y, x): (u32, u32)| {
            if y % 2 == 0 {
                self.horizontal(y / 2, x / 2)
            } else {
                self.vertical(y / 2, x / 2)
            }
        };
        // Reflections and rotations on doubled coordinates, given the height and width.
        type Transform = fn((u32, u32), u32, u32) -> (u32, u32);
        let mut transforms: Vec<Transform> = vec![
            |(y, x), _, _| (y, x),
            |(y, x), _, w| (y, w - x),
            |(y, x), h, _| (h - y, x),
            |(y, x), h, w| (h - y, w - x),
        ];
        if m == n {
            transforms.extend([
                (|(y, x), _, _| (x, y)) as Transform,
                |(y, x), h, w| (w - x, h - y),
                |(y, x), h, _| (x, h - y),
                |(y, x), _, w| (w - x, y),
            ]);
        }
        let (h, w) = (2 * m, 2 * n);
        transforms
            .iter()
            .map(|t| {
                (0..self.edges())
                    .map(|e| edge_at(t(point(e), h, w)))
                    .collect()
            })
            .collect()
    }

    /// The image of a mask under an edge permutation from `symmetries`.
    pub fn transform(map: &[Edge], drawn: Edges) -> Edges {
        map.iter()
            .enumerate()
            .filter(|&(e, _)| drawn & (1 << e) != 0)
            .fold(0, |m, (_, &to)| m | 1 << to)
    }

    fn edge_name(&self, edge: Edge) -> String {
        let e = u32::from(edge);
        if e < self.horizontal_count() {
            format!("h{}{}", e / self.cols, e % self.cols)
        } else {
            let v = e - self.horizontal_count();
            format!("v{}{}", v / (self.cols + 1), v % (self.cols + 1))
        }
    }

    /// The grid as text, with a mark in each box given by `mark(box)`, and
    /// every edge not yet drawn named where it would go (`h01`, `v12`), so that
    /// moves can be read off the board.
    pub fn draw_marked(&self, drawn: Edges, mark: impl Fn(usize) -> char) -> String {
        let is = |e: Edge| drawn & (1 << e) != 0;
        let mut out = String::new();
        for r in 0..=self.rows {
            out.push(' ');
            for c in 0..self.cols {
                let edge = self.horizontal(r, c);
                out.push('+');
                match is(edge) {
                    true => out.push_str("-----"),
                    false => out.push_str(&format!(" {} ", self.edge_name(edge))),
                }
            }
            out.push_str("+\n");
            if r == self.rows {
                break;
            }
            for c in 0..=self.cols {
                let edge = self.vertical(r, c);
                match is(edge) {
                    true => out.push_str(" | "),
                    false => out.push_str(&self.edge_name(edge)),
                }
                if c < self.cols {
                    out.push_str(&format!(" {} ", mark((r * self.cols + c) as usize)));
                }
            }
            out.push('\n');
        }
        out.pop();
        out
    }

    /// Whether every edge of box `b` is drawn.
    pub fn is_complete(&self, drawn: Edges, b: usize) -> bool {
        drawn & self.boxes[b] == self.boxes[b]
    }
}

impl Game for Dots {
    type Position = Edges;
    type Move = Edge;

    fn id(&self) -> &'static str {
        "dots"
    }

    fn variant(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::Score
    }

    fn index_size(&self, _tier: u32) -> u64 {
        1 << self.edges()
    }

    fn index(&self, drawn: &Edges) -> u64 {
        u64::from(*drawn)
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Edges> {
        Edges::try_from(index)
            .ok()
            .filter(|&m| m & !self.full() == 0)
    }

    fn start(&self) -> Edges {
        0
    }

    fn moves(&self, drawn: &Edges) -> Vec<Edge> {
        (0..self.edges() as Edge)
            .filter(|e| drawn & (1 << e) == 0)
            .collect()
    }

    fn play(&self, drawn: &Edges, edge: &Edge) -> Child<Edges> {
        debug_assert_eq!(drawn & (1 << edge), 0, "edge already drawn");
        let gain = self.gain(*drawn, *edge);
        Child {
            position: drawn | 1 << edge,
            turn_passes: gain == 0,
            gain: i64::from(gain),
            reset: None,
        }
    }

    fn end_value(&self, drawn: &Edges) -> Option<Value> {
        (*drawn == self.full()).then_some(Value::Score(0))
    }

    fn why_over(&self, _drawn: &Edges) -> String {
        "every edge is drawn".into()
    }

    fn parse_position(&self, text: &str) -> Result<Edges, GameError> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let h = self.horizontal_count() as usize;
        let digits = match compact.split_once('/') {
            Some((top, rest)) => {
                if top.len() != h || rest.len() != self.edges() as usize - h {
                    return Err(GameError::position(
                        text,
                        format!(
                            "a {} board has {h} horizontal edges, '/', then {} vertical ones",
                            self.variant(),
                            self.edges() as usize - h
                        ),
                    ));
                }
                format!("{top}{rest}")
            }
            None => compact,
        };
        if digits.len() != self.edges() as usize {
            return Err(GameError::position(
                text,
                format!(
                    "a {} board has {} edges, one '0' or '1' each; found {} characters",
                    self.variant(),
                    self.edges(),
                    digits.chars().count()
                ),
            ));
        }
        digits
            .chars()
            .enumerate()
            .try_fold(0, |mask, (i, ch)| match ch {
                '0' => Ok(mask),
                '1' => Ok(mask | 1 << i),
                other => Err(GameError::position(
                    text,
                    format!(
                        "edge {} is '{other}'; use '1' for drawn, '0' for not",
                        i + 1
                    ),
                )),
            })
    }

    fn write_position(&self, drawn: &Edges) -> String {
        let bit = |e: u32| if drawn & (1 << e) != 0 { '1' } else { '0' };
        let h = self.horizontal_count();
        let top: String = (0..h).map(bit).collect();
        let rest: String = (h..self.edges()).map(bit).collect();
        format!("{top}/{rest}")
    }

    fn write_move(&self, _drawn: &Edges, edge: &Edge) -> String {
        self.edge_name(*edge)
    }

    fn parse_move(&self, drawn: &Edges, text: &str) -> Result<Edge, GameError> {
        let name = text.trim().to_ascii_lowercase();
        let edge = (0..self.edges() as Edge)
            .find(|&e| self.edge_name(e) == name)
            .ok_or_else(|| {
                GameError::bad_move(
                    text,
                    format!(
                        "edges are h<row><col> (row 0-{}, col 0-{}) or v<row><col> (row 0-{}, col 0-{})",
                        self.rows,
                        self.cols - 1,
                        self.rows - 1,
                        self.cols
                    ),
                )
            })?;
        if drawn & (1 << edge) != 0 {
            return Err(GameError::bad_move(text, "that edge is already drawn"));
        }
        Ok(edge)
    }
}

/// Pixels between dots, and around the grid.
const GAP: f64 = 70.0;
const PAD: f64 = 24.0;

impl Picture<Dots> for Dots {
    /// Dots, drawn edges dark, free edges dashed with a wide place to click,
    /// complete boxes in their owner's colour, and the score below when known.
    fn svg(&self, drawn: &Edges, marks: &Marks) -> String {
        let (rows, cols) = (self.rows as f64, self.cols as f64);
        let below = if marks.taken.is_some() { 30.0 } else { 0.0 };
        let mut svg = Svg::new(2.0 * PAD + cols * GAP, 2.0 * PAD + rows * GAP + below);
        let at = |r: u32, c: u32| (PAD + f64::from(c) * GAP, PAD + f64::from(r) * GAP);
        for b in 0..self.boxes() as usize {
            let (r, c) = (b as u32 / self.cols, b as u32 % self.cols);
            let (x, y) = at(r, c);
            let name = format!("b{b}");
            let class = match marks.owners.iter().find(|(place, _)| *place == name) {
                Some((_, 1)) => "owner1",
                Some((_, 2)) => "owner2",
                _ if self.is_complete(*drawn, b) => "done",
                _ => "bg",
            };
            svg.rect(x, y, GAP, GAP, class, None);
        }
        for e in 0..self.edges() as Edge {
            let name = self.edge_name(e);
            let horizontal = u32::from(e) < self.horizontal_count();
            let (r, c) = if horizontal {
                (u32::from(e) / self.cols, u32::from(e) % self.cols)
            } else {
                let v = u32::from(e) - self.horizontal_count();
                (v / (self.cols + 1), v % (self.cols + 1))
            };
            let (x1, y1) = at(r, c);
            let (x2, y2) = if horizontal {
                at(r, c + 1)
            } else {
                at(r + 1, c)
            };
            let class = match (drawn & (1 << e) != 0, marks.last.contains(&name)) {
                (true, true) => "drawn lastline",
                (true, false) => "drawn",
                _ => "edge",
            };
            svg.line(x1, y1, x2, y2, class);
            let (w, h) = if horizontal {
                (GAP - 16.0, 20.0)
            } else {
                (20.0, GAP - 16.0)
            };
            let (cx, cy) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            svg.rect(cx - w / 2.0, cy - h / 2.0, w, h, "hit", Some(&name));
        }
        for r in 0..=self.rows {
            for c in 0..=self.cols {
                let (x, y) = at(r, c);
                svg.circle(x, y, 5.0, "dot", None);
            }
        }
        if let Some([mover, other]) = marks.taken {
            let y = 2.0 * PAD + rows * GAP + 8.0;
            let text = format!("to move {mover}, other {other}");
            svg.text(PAD + cols * GAP / 2.0, y, &text, "label");
        }
        svg.finish(&format!(
            "dots-and-boxes {} board {}",
            self.variant(),
            self.write_position(drawn)
        ))
    }

    fn places(&self, _drawn: &Edges, edge: &Edge) -> Vec<Clicks> {
        one_step(vec![self.edge_name(*edge)])
    }

    /// The boxes the edge completes, named `b<index>` row by row.
    fn scored(&self, drawn: &Edges, edge: &Edge) -> Vec<String> {
        self.completed_boxes(*drawn, *edge)
            .into_iter()
            .map(|b| format!("b{b}"))
            .collect()
    }
}

impl Editing<Dots> for Dots {
    fn tools(&self) -> Vec<Tool> {
        vec![Tool::on_board("toggle", "draw or erase an edge")]
    }

    fn edit(&self, text: &str, place: &str, _tool: &str) -> Result<String, GameError> {
        let drawn = self.parse_position(text)?;
        let edge = (0..self.edges() as Edge)
            .find(|&e| self.edge_name(e) == place)
            .ok_or_else(|| GameError::position(place, "not an edge of this board"))?;
        Ok(self.write_position(&(drawn ^ (1 << edge))))
    }

    fn sketch(&self, text: &str) -> Result<String, GameError> {
        Ok(self.svg(&self.parse_position(text)?, &Marks::default()))
    }
}

impl WholeGame<Dots> for Dots {
    fn total(&self) -> u64 {
        u64::from(self.boxes())
    }

    /// The boxes not yet complete.
    fn left(&self, drawn: &Edges) -> u64 {
        (0..self.boxes() as usize)
            .filter(|&b| !self.is_complete(*drawn, b))
            .count() as u64
    }
}

impl Drawing<Dots> for Dots {
    fn draw(&self, drawn: &Edges) -> String {
        self.draw_owned(drawn, &|_| '#')
    }

    fn scored_places(&self, drawn: &Edges, edge: &Edge) -> Vec<usize> {
        self.completed_boxes(*drawn, *edge)
    }

    /// Complete boxes show their owner's mark.
    fn draw_owned(&self, drawn: &Edges, owner: &dyn Fn(usize) -> char) -> String {
        self.draw_marked(*drawn, |b| {
            if self.is_complete(*drawn, b) {
                owner(b)
            } else {
                ' '
            }
        })
    }
}

impl Layered<Dots> for Dots {
    fn layers(&self, _tier: u32) -> u32 {
        self.edges() + 1
    }

    fn layer_of_index(&self, _tier: u32, index: u64) -> u32 {
        index.count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    #[test]
    fn geometry_of_the_3x3_board() {
        let d = Dots::default();
        assert_eq!((d.edges(), d.boxes(), d.full()), (24, 9, (1 << 24) - 1));
        // The top-left box: h00, h10 (edge 3), v00 (edge 12), v01 (edge 13).
        assert_eq!(d.boxes[0], 1 | 1 << 3 | 1 << 12 | 1 << 13);
        // Edge h10 borders two boxes, h00 one.
        assert_eq!(d.box_rest[3].iter().filter(|&&m| m != NO_BOX).count(), 2);
        assert_eq!(d.box_rest[0][1], NO_BOX);
        let three_sides = 1 | 1 << 3 | 1 << 12;
        assert_eq!(d.gain(three_sides, 13), 1);
        assert_eq!(d.completed_boxes(three_sides, 13), vec![0]);
        assert_eq!(d.gain(three_sides, 14), 0);
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Dots::parse_size("3x4").unwrap().edges(), 31);
        assert_eq!(Dots::parse_size("4X3").unwrap().edges(), 31);
        for bad in ["4x4", "0x3", "3", "3x", "axb", "2x5x1", "10x1", "-1x2"] {
            assert!(Dots::parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn notation_round_trips_and_names_errors() {
        let d = Dots::new(2, 2).unwrap();
        let text = "101000/110001";
        let drawn = d.parse_position(text).unwrap();
        assert_eq!(drawn, 1 | 1 << 2 | 1 << 6 | 1 << 7 | 1 << 11);
        assert_eq!(d.write_position(&drawn), text);
        assert_eq!(d.parse_position("101000110001").unwrap(), drawn);
        assert!(d.parse_position("10100/0110001").is_err());
        assert!(d.parse_position("101000/11000").is_err());
        assert!(d.parse_position("101000/11000x").is_err());
        assert_eq!(d.write_move(&0, &11), "v12");
        assert_eq!(d.parse_move(&0, "V12").unwrap(), 11);
        assert!(d.parse_move(&drawn, "v12").is_err());
        assert!(d.parse_move(&0, "v13").is_err());
        assert!(d.parse_move(&0, "h30").is_err());
    }

    #[test]
    fn symmetries_permute_edges_and_keep_boxes() {
        for (rows, cols, count) in [(3, 3, 8), (2, 3, 4), (3, 4, 4), (1, 1, 8)] {
            let d = Dots::new(rows, cols).unwrap();
            let maps = d.symmetries();
            assert_eq!(maps.len(), count, "{rows}x{cols}");
            for map in &maps {
                let mut image = map.clone();
                image.sort_unstable();
                assert_eq!(image, (0..d.edges() as Edge).collect::<Vec<_>>());
                for &b in &d.boxes {
                    assert!(d.boxes.contains(&Dots::transform(map, b)));
                }
            }
        }
    }

    #[test]
    fn one_box_goes_to_the_second_player() {
        let d = Dots::new(1, 1).unwrap();
        assert_eq!(Negamax::new(&d).value(&0), Value::Score(-1));
        // Three sides drawn: the mover takes the box.
        assert_eq!(Negamax::new(&d).value(&0b0111), Value::Score(1));
    }

    #[test]
    fn drawing_shows_edges_and_complete_boxes() {
        let d = Dots::new(1, 2).unwrap();
        let drawn = d.parse_position("1110/110").unwrap();
        assert_eq!(
            d.draw(&drawn),
            " +-----+-----+\n |  #  |    v02\n +-----+ h11 +"
        );
    }
}
