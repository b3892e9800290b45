//! Edward de Bono's L-Game on a 4x4 board. Each player has an L-shaped piece of
//! four cells; two neutral one-cell pieces complete the set. A turn: move your L to
//! a different placement on free cells (its own old cells count as free), then
//! optionally move one neutral piece to any free cell. A player who cannot move
//! their L loses.
//!
//! Positions are seen from the player to move: `x` their L, `y` the opponent's,
//! `o` the neutral pieces, `.` free, rows from the top separated by `/`. A move is
//! the new L's cells, then optionally a neutral move: `a2-a3-a4-b4,d4>a1`.
//!
//! The index folds the 8 symmetries of the square: 18,368 legal positions fall into
//! 2,296 classes, and each slot holds one class, ranked by its smallest image.

use crate::capability::{Capabilities, Check, Clicks, Drawing, Marks, Picture, Side, Solver};
use crate::game::{Child, Game, GameError};
use crate::grid::{self, CELLS, SIZE};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::symmetry;
use crate::value::{Value, ValueKind};
use std::sync::OnceLock;

pub static SPEC: Spec<LGame> = Spec {
    entry: Entry {
        id: "lgame",
        extras: Extras::NONE,
        about: "Edward de Bono's L-Game: move your L, then optionally a neutral piece; who cannot move the L loses",
        notation: "four rows from the mover's side, 'x' the mover's L, 'y' the opponent's, 'o' neutral, \
                   '.' free: oyy./.xy./.xy./.xxo; a move is the new L's cells, then optionally \
                   a neutral move: a2-a3-a4-b4,d4>a1",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(LGame),
    capabilities: |game| Capabilities {
        drawing: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Retrograde,
            vec![Check::Consistency, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

/// A position from the mover's point of view; fields are cell bit masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LPosition {
    pub mover: u16,
    pub other: u16,
    pub neutrals: u16,
}

/// The mover's new L placement, and optionally a neutral piece moved `(from, to)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LMove {
    pub l: u16,
    pub neutral: Option<(u8, u8)>,
}

#[derive(Debug, Default, Clone, Copy)]
pub struct LGame;

/// All 48 placements of an L on the board.
pub fn placements() -> &'static [u16] {
    static PLACEMENTS: OnceLock<Vec<u16>> = OnceLock::new();
    PLACEMENTS.get_or_init(|| {
        // One L in the top-left corner, then every symmetric image and every shift.
        let l: u16 = 1 | 1 << SIZE | 1 << (2 * SIZE) | 1 << (2 * SIZE + 1);
        let mut all: Vec<u16> = Vec::new();
        for s in 0..8 {
            let shape = symmetry::apply(s, l);
            for dr in -3i32..=3 {
                for dc in -3i32..=3 {
                    if let Some(moved) = shift(shape, dr, dc) {
                        all.push(moved);
                    }
                }
            }
        }
        all.sort_unstable();
        all.dedup();
        all
    })
}

/// Moves every cell of a mask by (dr, dc), or `None` if a cell leaves the board.
fn shift(mask: u16, dr: i32, dc: i32) -> Option<u16> {
    let mut out = 0u16;
    for cell in (0..CELLS).filter(|&c| mask & (1 << c) != 0) {
        let (r, c) = ((cell / SIZE) as i32 + dr, (cell % SIZE) as i32 + dc);
        if !(0..SIZE as i32).contains(&r) || !(0..SIZE as i32).contains(&c) {
            return None;
        }
        out |= 1 << (r as usize * SIZE + c as usize);
    }
    Some(out)
}

fn key(p: &LPosition) -> u64 {
    u64::from(p.mover) | u64::from(p.other) << 16 | u64::from(p.neutrals) << 32
}

fn from_key(k: u64) -> LPosition {
    LPosition {
        mover: k as u16,
        other: (k >> 16) as u16,
        neutrals: (k >> 32) as u16,
    }
}

fn image(s: usize, p: &LPosition) -> LPosition {
    LPosition {
        mover: symmetry::apply(s, p.mover),
        other: symmetry::apply(s, p.other),
        neutrals: symmetry::apply(s, p.neutrals),
    }
}

/// The class key of a position: the smallest key among its 8 images.
fn canonical_key(p: &LPosition) -> u64 {
    (0..8).map(|s| key(&image(s, p))).min().expect("8 images")
}

/// Every legal position: two non-overlapping Ls and two neutrals on free cells.
pub fn all_positions() -> impl Iterator<Item = LPosition> {
    placements().iter().flat_map(|&mover| {
        placements()
            .iter()
            .filter(move |&&other| other & mover == 0)
            .flat_map(move |&other| {
                let free = !(mover | other);
                let cells: Vec<usize> = (0..CELLS).filter(|&c| free & (1 << c) != 0).collect();
                let pairs: Vec<LPosition> = (0..cells.len())
                    .flat_map(|i| (i + 1..cells.len()).map(move |j| (i, j)))
                    .map(|(i, j)| LPosition {
                        mover,
                        other,
                        neutrals: 1 << cells[i] | 1 << cells[j],
                    })
                    .collect();
                pairs
            })
    })
}

/// The class keys of all legal positions, sorted: slot i holds class `classes()[i]`.
fn classes() -> &'static [u64] {
    static CLASSES: OnceLock<Vec<u64>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let mut keys: Vec<u64> = all_positions().map(|p| canonical_key(&p)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    })
}

impl LGame {
    /// The L placements the mover may move to.
    fn l_targets(&self, p: &LPosition) -> impl Iterator<Item = u16> + '_ {
        let blocked = p.other | p.neutrals;
        let current = p.mover;
        placements()
            .iter()
            .copied()
            .filter(move |&l| l != current && l & blocked == 0)
    }

    /// How many distinct positions the class in a slot stands for (1 to 8).
    pub fn orbit_size(&self, index: u64) -> u64 {
        let p = from_key(classes()[index as usize]);
        let mut images: Vec<u64> = (0..8).map(|s| key(&image(s, &p))).collect();
        images.sort_unstable();
        images.dedup();
        images.len() as u64
    }
}

impl Game for LGame {
    type Position = LPosition;
    type Move = LMove;

    fn id(&self) -> &'static str {
        "lgame"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn has_cycles(&self) -> bool {
        true
    }

    fn index_size(&self, _tier: u32) -> u64 {
        classes().len() as u64
    }

    fn index(&self, p: &LPosition) -> u64 {
        let k = canonical_key(p);
        classes()
            .binary_search(&k)
            .unwrap_or_else(|_| panic!("illegal L-Game position {p:?}")) as u64
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<LPosition> {
        classes().get(index as usize).map(|&k| from_key(k))
    }

    fn class_size(&self, _tier: u32, index: u64) -> u64 {
        self.orbit_size(index)
    }

    fn start(&self) -> LPosition {
        self.parse_position("oyy./.xy./.xy./.xxo")
            .expect("valid start")
    }

    fn moves(&self, p: &LPosition) -> Vec<LMove> {
        let mut moves = Vec::new();
        for l in self.l_targets(p) {
            moves.push(LMove { l, neutral: None });
            let free = !(l | p.other | p.neutrals);
            for from in (0..CELLS as u8).filter(|&c| p.neutrals & (1 << c) != 0) {
                for to in (0..CELLS as u8).filter(|&c| free & (1 << c) != 0) {
                    moves.push(LMove {
                        l,
                        neutral: Some((from, to)),
                    });
                }
            }
        }
        moves
    }

    fn play(&self, p: &LPosition, mv: &LMove) -> Child<LPosition> {
        let neutrals = match mv.neutral {
            None => p.neutrals,
            Some((from, to)) => p.neutrals & !(1 << from) | 1 << to,
        };
        Child::passing(LPosition {
            mover: p.other,
            other: mv.l,
            neutrals,
        })
    }

    /// The mover cannot move their L: they have lost.
    fn end_value(&self, p: &LPosition) -> Option<Value> {
        self.l_targets(p).next().is_none().then_some(Value::Loss(0))
    }

    fn why_over(&self, _p: &LPosition) -> String {
        "the player to move cannot move their L".into()
    }

    fn parse_position(&self, text: &str) -> Result<LPosition, GameError> {
        let cells = grid::parse_rows(text, ".xyo")?;
        let mask = |symbol: u8| {
            (0..CELLS)
                .filter(|&c| cells[c] == symbol)
                .fold(0u16, |m, c| m | 1 << c)
        };
        let p = LPosition {
            mover: mask(b'x'),
            other: mask(b'y'),
            neutrals: mask(b'o'),
        };
        for (piece, name) in [
            (p.mover, "x (the mover's L)"),
            (p.other, "y (the opponent's L)"),
        ] {
            if !placements().contains(&piece) {
                return Err(GameError::position(
                    text,
                    format!("the cells marked {name} do not form an L of four cells"),
                ));
            }
        }
        if p.neutrals.count_ones() != 2 {
            return Err(GameError::position(
                text,
                format!(
                    "expected 2 neutral pieces 'o', found {}",
                    p.neutrals.count_ones()
                ),
            ));
        }
        Ok(p)
    }

    fn write_position(&self, p: &LPosition) -> String {
        grid::write_rows(&symbols(p))
    }

    fn write_move(&self, _p: &LPosition, mv: &LMove) -> String {
        let mut text = grid::write_cell_list(mv.l);
        if let Some((from, to)) = mv.neutral {
            text.push_str(&format!(
                ",{}>{}",
                grid::cell_name(from.into()),
                grid::cell_name(to.into())
            ));
        }
        text
    }

    fn parse_move(&self, p: &LPosition, text: &str) -> Result<LMove, GameError> {
        let (l_text, neutral_text) = match text.split_once(',') {
            Some((l, n)) => (l, Some(n)),
            None => (text, None),
        };
        let l = grid::parse_cell_list(l_text)?;
        if !placements().contains(&l) {
            return Err(GameError::bad_move(text, "the four cells do not form an L"));
        }
        if l == p.mover {
            return Err(GameError::bad_move(
                text,
                "the L must move to a different placement",
            ));
        }
        if l & (p.other | p.neutrals) != 0 {
            return Err(GameError::bad_move(
                text,
                "the L would cover the other L or a neutral piece",
            ));
        }
        let neutral = match neutral_text {
            None => None,
            Some(n) => {
                let (from, to) = n
                    .split_once('>')
                    .and_then(|(a, b)| Some((grid::parse_cell(a)?, grid::parse_cell(b)?)))
                    .ok_or_else(|| {
                        GameError::bad_move(text, "a neutral move is written like d4>a1")
                    })?;
                if p.neutrals & (1 << from) == 0 {
                    return Err(GameError::bad_move(
                        text,
                        format!("no neutral piece on {}", grid::cell_name(from)),
                    ));
                }
                if (l | p.other | p.neutrals) & (1 << to) != 0 {
                    return Err(GameError::bad_move(
                        text,
                        format!("{} is not free", grid::cell_name(to)),
                    ));
                }
                Some((from as u8, to as u8))
            }
        };
        Ok(LMove { l, neutral })
    }
}

impl Picture<LGame> for LGame {
    /// The mover's L blue, the opponent's red, the neutral pieces grey discs.
    fn svg(&self, p: &LPosition, marks: &Marks) -> String {
        let title = format!("L-Game board {}", self.write_position(p));
        grid::svg_grid(&title, marks, |cell| {
            let bit = 1 << cell;
            if p.mover & bit != 0 {
                ("mine", None)
            } else if p.other & bit != 0 {
                ("theirs", None)
            } else if p.neutrals & bit != 0 {
                ("cell", Some("neutral"))
            } else {
                ("cell", None)
            }
        })
    }

    /// The four cells of the new L, then the neutral piece moved, then where to.
    fn places(&self, _p: &LPosition, mv: &LMove) -> Vec<Clicks> {
        let mut steps = vec![grid::cell_names(mv.l)];
        if let Some((from, to)) = mv.neutral {
            steps.push(vec![grid::cell_name(from.into())]);
            steps.push(vec![grid::cell_name(to.into())]);
        }
        vec![steps]
    }
}

impl Drawing<LGame> for LGame {
    fn draw(&self, p: &LPosition) -> String {
        grid::draw_rows(&symbols(p))
    }

    /// `x` marks the L of the side seen from.
    fn draw_from(&self, p: &LPosition, side: Side, _owner: &dyn Fn(usize) -> char) -> String {
        match side {
            Side::Mover => format!("{}x: the L to move, y: the other", self.draw(p)),
            Side::Opponent => {
                let swapped = LPosition {
                    mover: p.other,
                    other: p.mover,
                    neutrals: p.neutrals,
                };
                format!("{}x: the L waiting, y: the L to move", self.draw(&swapped))
            }
        }
    }
}

fn symbols(p: &LPosition) -> [u8; CELLS] {
    std::array::from_fn(|c| {
        let bit = 1 << c;
        if p.mover & bit != 0 {
            b'x'
        } else if p.other & bit != 0 {
            b'y'
        } else if p.neutrals & bit != 0 {
            b'o'
        } else {
            b'.'
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_l_has_48_placements() {
        assert_eq!(placements().len(), 48);
        assert!(placements().iter().all(|l| l.count_ones() == 4));
    }

    #[test]
    fn published_position_counts() {
        assert_eq!(all_positions().count(), 18_368);
        assert_eq!(LGame.index_size(0), 2_296);
        let total: u64 = (0..2_296).map(|i| LGame.orbit_size(i)).sum();
        assert_eq!(total, 18_368);
    }

    #[test]
    fn symmetric_positions_share_a_slot() {
        let p = LGame.start();
        let slot = LGame.index(&p);
        for s in 0..8 {
            assert_eq!(LGame.index(&image(s, &p)), slot);
        }
        let back = LGame.position_at(0, slot).unwrap();
        assert!((0..8).any(|s| image(s, &back) == p));
    }

    #[test]
    fn start_offers_65_moves() {
        // 5 other L placements, each with no neutral move or one of 2 neutrals moved
        // to one of the 6 cells left free.
        let start = LGame.start();
        assert_eq!(LGame.moves(&start).len(), 5 * 13);
    }

    #[test]
    fn moves_round_trip_through_notation() {
        let start = LGame.start();
        for mv in LGame.moves(&start) {
            let text = LGame.write_move(&start, &mv);
            assert_eq!(LGame.parse_move(&start, &text).unwrap(), mv, "{text}");
        }
        assert_eq!(LGame.write_position(&start), "oyy./.xy./.xy./.xxo");
    }

    #[test]
    fn bad_positions_and_moves_are_explained() {
        let err = LGame
            .parse_position("oyy./.xy./.xy./.xx.")
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected 2 neutral pieces"), "{err}");
        let err = LGame
            .parse_position("..yy/xx.y/.xxy/o..o")
            .unwrap_err()
            .to_string();
        assert!(err.contains("x (the mover's L)"), "{err}");
        let start = LGame.start();
        for (text, reason) in [
            ("b2-b3-b4-c4", "different placement"),
            ("a1-a2-a3-b3", "cover the other L or a neutral"),
            ("a2-a3-a4-b3", "do not form an L"),
            ("a2-a3-a4-b4,c1>d1", "no neutral piece on c1"),
            ("a2-a3-a4-b4,a1>b4", "b4 is not free"),
            ("a2-a3-a4-b4,a1>c2", "c2 is not free"),
            ("a2-a3-a4-b4,a1", "written like d4>a1"),
        ] {
            let err = LGame.parse_move(&start, text).unwrap_err().to_string();
            assert!(err.contains(reason), "{text}: {err}");
        }
    }
}
