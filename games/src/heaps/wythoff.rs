//! Wythoff's game ("queen to the corner"): two heaps; a move takes any number from
//! one heap, or the same number from both; whoever takes the last stone wins.
//!
//! The formula: the mover loses exactly when the heaps are a Wythoff pair
//! `{floor(k phi), floor(k phi) + k}`, for some `k >= 0`: (0,0), (1,2), (3,5),
//! (4,7), (6,10), ... Computed exactly from Zeckendorf representations
//! (`crate::zeckendorf`), for heaps up to 2^64 - 1. The table holds both heaps up
//! to 255 and is checked against the formula on every slot.
//!
//! Notation: the two heaps, `4 7`. Moves: `h1-3` (3 from heap 1), `h2-3`, `b-3` (3
//! from both).

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{parse_heaps, write_heaps};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::value::{Value, ValueKind};
use crate::zeckendorf::{floor_phi, wythoff_partner};

pub static SPEC: Spec<Wythoff> = Spec {
    entry: Entry {
        id: "wythoff",
        extras: Extras::COUNTED,
        about: "Wythoff's game: take any number from one heap, or the same from both; who takes the last stone wins",
        notation: "the two heaps: 4 7; a move takes from heap 1 or 2, or the same from both: h1-3, h2-3, b-3",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(Wythoff),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(Solver::Retrograde, vec![Check::Formula, Check::LiveSearch])
    },
    generate_options: no_generate_options,
};

/// The largest heap in the table.
pub const TABLE_HEAP: u64 = 255;
const SIDE: u64 = TABLE_HEAP + 1;

/// What a move takes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum From {
    /// One heap, 0 or 1.
    Heap(usize),
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Take {
    pub from: From,
    pub take: u64,
}

impl Take {
    pub fn write(self) -> String {
        match self.from {
            From::Heap(h) => format!("h{}-{}", h + 1, self.take),
            From::Both => format!("b-{}", self.take),
        }
    }

    fn apply(self, heaps: [u64; 2]) -> [u64; 2] {
        let [a, b] = heaps;
        match self.from {
            From::Heap(0) => [a - self.take, b],
            From::Heap(_) => [a, b - self.take],
            From::Both => [a - self.take, b - self.take],
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Wythoff;

/// The two heaps of a position.
fn pair(heaps: &[u64]) -> [u64; 2] {
    [heaps[0], heaps[1]]
}

/// Whether the mover loses at `[a, b]`: the heaps are a Wythoff pair.
pub fn lost(a: u64, b: u64) -> bool {
    wythoff_partner(a) == u128::from(b)
}

/// Every winning move: to the pair of either heap left as it is, or to the pair
/// with the same difference.
pub fn winning_moves(a: u64, b: u64) -> Vec<Take> {
    if lost(a, b) {
        return Vec::new();
    }
    let mut moves = Vec::new();
    // Keep heap `keep`, bring the other down to its partner.
    for (heap, other, keep) in [(0, a, b), (1, b, a)] {
        let partner = wythoff_partner(keep);
        if partner < u128::from(other) {
            moves.push(Take {
                from: From::Heap(heap),
                take: other - partner as u64,
            });
        }
    }
    // The pair whose heaps differ by as much: its lower heap is floor(d phi).
    let low = floor_phi(a.abs_diff(b));
    if low < u128::from(a.min(b)) {
        moves.push(Take {
            from: From::Both,
            take: a.min(b) - low as u64,
        });
    }
    moves
}

impl Game for Wythoff {
    type Position = Vec<u64>;
    type Move = Take;

    fn id(&self) -> &'static str {
        "wythoff"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        SIDE * SIDE
    }

    fn index(&self, heaps: &Vec<u64>) -> u64 {
        heaps[0] * SIDE + heaps[1]
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Vec<u64>> {
        Some(vec![index / SIDE, index % SIDE])
    }

    fn coverage(&self, heaps: &Vec<u64>) -> Result<(), String> {
        match heaps.iter().all(|&h| h <= TABLE_HEAP) {
            true => Ok(()),
            false => Err(format!("the table holds heaps of up to {TABLE_HEAP}")),
        }
    }

    fn start(&self) -> Vec<u64> {
        vec![7, 11]
    }

    fn moves(&self, heaps: &Vec<u64>) -> Vec<Take> {
        let [a, b] = pair(heaps);
        let one = |heap: usize, size: u64| {
            (1..=size).map(move |take| Take {
                from: From::Heap(heap),
                take,
            })
        };
        let both = (1..=a.min(b)).map(|take| Take {
            from: From::Both,
            take,
        });
        one(0, a).chain(one(1, b)).chain(both).collect()
    }

    fn play(&self, heaps: &Vec<u64>, mv: &Take) -> Child<Vec<u64>> {
        Child::passing(mv.apply(pair(heaps)).to_vec())
    }

    fn end_value(&self, heaps: &Vec<u64>) -> Option<Value> {
        (heaps[0] == 0 && heaps[1] == 0).then_some(Value::Loss(0))
    }

    fn why_over(&self, _heaps: &Vec<u64>) -> String {
        "both heaps are empty".into()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u64>, GameError> {
        let heaps = parse_heaps(text)?;
        match heaps.len() {
            2 => Ok(heaps),
            n => Err(GameError::position(
                text,
                format!("Wythoff's game has two heaps (found {n})"),
            )),
        }
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_heaps(heaps)
    }

    fn write_move(&self, _heaps: &Vec<u64>, mv: &Take) -> String {
        mv.write()
    }

    /// Reads `h1-3`, `h2-3` or `b-3` for heaps of any size.
    fn parse_move(&self, heaps: &Vec<u64>, text: &str) -> Result<Take, GameError> {
        let refuse = |why: &str| GameError::bad_move(text, why);
        let lower = text.trim().to_ascii_lowercase();
        let (from, take) = lower
            .split_once('-')
            .ok_or_else(|| refuse("a move is h1-<k>, h2-<k> or b-<k>"))?;
        let from = match from {
            "h1" => From::Heap(0),
            "h2" => From::Heap(1),
            "b" => From::Both,
            _ => return Err(refuse("a move is h1-<k>, h2-<k> or b-<k>")),
        };
        let take: u64 = take
            .parse()
            .map_err(|_| refuse("the number taken is a whole number"))?;
        let [a, b] = pair(heaps);
        let most = match from {
            From::Heap(0) => a,
            From::Heap(_) => b,
            From::Both => a.min(b),
        };
        if !(1..=most).contains(&take) {
            return Err(refuse(&format!("takes 1 to {most} there")));
        }
        Ok(Take { from, take })
    }
}

impl ClosedForm<Wythoff> for Wythoff {
    fn formula(&self, heaps: &Vec<u64>) -> Result<Formula<Take>, GameError> {
        let [a, b] = pair(heaps);
        Ok(Formula::by_winning_moves(winning_moves(a, b)))
    }

    fn measure(&self) -> &'static str {
        "stones left"
    }

    fn left(&self, heaps: &Vec<u64>) -> u64 {
        crate::heaps::stones(heaps)
    }

    /// One stone from the larger heap.
    fn longest_move(&self, heaps: &Vec<u64>) -> Option<Take> {
        let heap = usize::from(heaps[1] > heaps[0]);
        (heaps[heap] > 0).then_some(Take {
            from: From::Heap(heap),
            take: 1,
        })
    }
}

impl Picture<Wythoff> for Wythoff {
    fn svg(&self, heaps: &Vec<u64>, marks: &Marks) -> String {
        let title = format!("Wythoff heaps {}", write_heaps(heaps));
        heap_picture::svg_stacks(heaps, marks, &title)
    }

    fn clickable(&self, heaps: &Vec<u64>) -> bool {
        heap_picture::drawn_whole(heaps)
    }

    /// The lowest token taken; from both heaps, the lowest of each in turn.
    fn places(&self, heaps: &Vec<u64>, mv: &Take) -> Vec<Clicks> {
        let token = |heap: usize| format!("h{}t{}", heap + 1, heaps[heap] - mv.take + 1);
        match mv.from {
            From::Heap(h) => one_step(vec![token(h)]),
            From::Both => vec![vec![vec![token(0)], vec![token(1)]]],
        }
    }

    fn landed(&self, _heaps: &Vec<u64>, mv: &Take) -> Vec<String> {
        match mv.from {
            From::Heap(h) => vec![format!("h{}", h + 1)],
            From::Both => vec!["h1".into(), "h2".into()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    #[test]
    fn the_losing_pairs_are_the_published_ones() {
        let mut lost_pairs = Vec::new();
        for a in 0..=20u64 {
            for b in a..=40 {
                if lost(a, b) {
                    lost_pairs.push((a, b));
                }
            }
        }
        assert_eq!(
            &lost_pairs[..9],
            [
                (0, 0),
                (1, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18),
                (12, 20)
            ]
        );
    }

    /// Every position of heaps up to 30 against plain search: the verdict and
    /// exactly the moves search finds winning.
    #[test]
    fn the_formula_names_every_winning_move() {
        let mut search = Negamax::new(&Wythoff);
        for a in 0..=30 {
            for b in 0..=30 {
                let heaps = vec![a, b];
                let winning: Vec<Take> = Wythoff
                    .moves(&heaps)
                    .into_iter()
                    .filter(|m| {
                        let after = Wythoff.play(&heaps, m).position;
                        matches!(search.value(&after), Value::Loss(_))
                    })
                    .collect();
                let mut said = winning_moves(a, b);
                said.sort_by_key(|m| Wythoff.moves(&heaps).iter().position(|x| x == m));
                assert_eq!(said, winning, "{a} {b}");
            }
        }
    }

    #[test]
    fn huge_heaps_are_answered_exactly() {
        // (F(92), F(93)) is a Wythoff pair: lost, and one more stone wins.
        let (a, b) = (7_540_113_804_746_346_429, 12_200_160_415_121_876_738);
        assert!(lost(a, b) && lost(b, a));
        assert_eq!(
            winning_moves(a, b + 1),
            [Take {
                from: From::Heap(1),
                take: 1
            }]
        );
        assert!(!winning_moves(u64::MAX, u64::MAX).is_empty());
        let moves = Wythoff.parse_move(&vec![u64::MAX, 5], "b-5").unwrap();
        assert_eq!(moves.from, From::Both);
        assert!(Wythoff.parse_move(&vec![3, 5], "b-4").is_err());
        assert!(Wythoff.parse_position("1 2 3").is_err());
    }
}
