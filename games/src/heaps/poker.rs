//! Poker Nim: Nim where the chips a player takes go to their reserve, and a move
//! may instead put chips from the mover's reserve onto a heap (empty or not) while
//! some heap still has chips. Whoever takes the last chip wins.
//!
//! The formula: the heaps' xor decides, whatever the reserves. Adding is a
//! reversible move: the player winning at Nim takes the added chips straight
//! back, and since the loser's reserve only shrinks by adding, adding cannot go on
//! for ever. Adding makes cycles, so the table is built by retrograde analysis;
//! it holds every position on 3 heaps whose chips (on the heaps and in both
//! reserves) number at most 35, a set no move leaves, and is checked against the
//! formula on every slot.
//!
//! Notation: the heaps, `|`, the mover's reserve and the opponent's: `3 5 7 | 2 0`.
//! Moves: `h2-3` takes 3 chips from heap 2, `h2+3` adds 3 from the reserve.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Marks, Picture, Solver, one_step,
};
use crate::compositions::BoundedTuples;
use crate::game::{Child, Game, GameError};
use crate::heaps::{parse_heaps, write_heaps};
use crate::spec::{Entry, Extras, Spec, no_generate_options};
use crate::svg::Svg;
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<PokerNim> = Spec {
    entry: Entry {
        id: "poker-nim",
        extras: Extras::NONE,
        about: "Poker Nim: take chips from a heap into your reserve, or add chips from it to a heap; who takes the last chip wins",
        notation: "the heaps, '|', the mover's reserve and the opponent's: 3 5 7 | 2 0; \
                   a move takes from or adds to a heap, counted from 1: h2-3, h2+3",
        options: &[],
        all: &[&[]],
    },
    build: |_| Ok(PokerNim::new()),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Retrograde,
            vec![Check::Formula, Check::Consistency, Check::LiveSearch],
        )
    },
    generate_options: no_generate_options,
};

/// Heaps in the table.
pub const TABLE_HEAPS: usize = 3;
/// The most chips, on the heaps and in both reserves, in the table.
pub const TABLE_CHIPS: u64 = 35;

/// A position from the mover's side: the heaps in place (empty ones too) and the
/// two reserves, the mover's first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Poker {
    pub heaps: Vec<u64>,
    pub reserves: [u64; 2],
}

impl Poker {
    fn chips(&self) -> u128 {
        self.heaps
            .iter()
            .chain(&self.reserves)
            .map(|&c| u128::from(c))
            .sum()
    }

    fn nim_sum(&self) -> u64 {
        self.heaps.iter().fold(0, |x, h| x ^ h)
    }

    fn in_play(&self) -> bool {
        self.heaps.iter().any(|&h| h > 0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chips {
    pub heap: usize,
    /// Positive: added from the reserve; negative: taken.
    pub change: i128,
}

impl Chips {
    pub fn write(self) -> String {
        match self.change > 0 {
            true => format!("h{}+{}", self.heap + 1, self.change),
            false => format!("h{}-{}", self.heap + 1, -self.change),
        }
    }
}

#[derive(Debug, Clone)]
pub struct PokerNim {
    slots: BoundedTuples,
}

impl PokerNim {
    pub fn new() -> Self {
        PokerNim {
            slots: BoundedTuples::new(TABLE_HEAPS + 2, TABLE_CHIPS),
        }
    }
}

impl Default for PokerNim {
    fn default() -> Self {
        Self::new()
    }
}

/// Every winning move: to the heap that makes the xor 0, by taking or, where the
/// reserve holds enough, by adding.
pub fn winning_moves(position: &Poker) -> Vec<Chips> {
    let nim_sum = position.nim_sum();
    if nim_sum == 0 {
        return Vec::new();
    }
    let reserve = position.reserves[0];
    let mut moves = Vec::new();
    for (heap, &h) in position.heaps.iter().enumerate() {
        let target = nim_sum ^ h;
        let change = i128::from(target) - i128::from(h);
        if change < 0 || (change > 0 && change <= i128::from(reserve)) {
            moves.push(Chips { heap, change });
        }
    }
    moves
}

impl Game for PokerNim {
    type Position = Poker;
    type Move = Chips;

    fn id(&self) -> &'static str {
        "poker-nim"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn has_cycles(&self) -> bool {
        true
    }

    fn index_size(&self, _tier: u32) -> u64 {
        self.slots.size()
    }

    fn index(&self, position: &Poker) -> u64 {
        let mut tuple = position.heaps.clone();
        tuple.extend(position.reserves);
        self.slots.rank(&tuple)
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<Poker> {
        let tuple = self.slots.unrank(index);
        Some(Poker {
            heaps: tuple[..TABLE_HEAPS].to_vec(),
            reserves: [tuple[TABLE_HEAPS], tuple[TABLE_HEAPS + 1]],
        })
    }

    fn coverage(&self, position: &Poker) -> Result<(), String> {
        if position.heaps.len() != TABLE_HEAPS {
            return Err(format!("the table holds positions on {TABLE_HEAPS} heaps"));
        }
        match position.chips() <= u128::from(TABLE_CHIPS) {
            true => Ok(()),
            false => Err(format!("the table holds up to {TABLE_CHIPS} chips in all")),
        }
    }

    fn start(&self) -> Poker {
        Poker {
            heaps: vec![3, 5, 7],
            reserves: [2, 0],
        }
    }

    /// Takes from each heap, then adds to each heap while any heap has chips.
    fn moves(&self, position: &Poker) -> Vec<Chips> {
        let heaps = position.heaps.iter().enumerate();
        let takes = heaps.clone().flat_map(|(heap, &h)| {
            (1..=h).map(move |k| Chips {
                heap,
                change: -i128::from(k),
            })
        });
        let reserve = if position.in_play() {
            position.reserves[0]
        } else {
            0
        };
        let adds = heaps.flat_map(|(heap, _)| {
            (1..=reserve).map(move |k| Chips {
                heap,
                change: i128::from(k),
            })
        });
        takes.chain(adds).collect()
    }

    /// The chips move between the heap and the mover's reserve; the opponent
    /// moves next.
    fn play(&self, position: &Poker, mv: &Chips) -> Child<Poker> {
        let mut heaps = position.heaps.clone();
        let mut mine = position.reserves[0];
        let amount = mv.change.unsigned_abs() as u64;
        if mv.change > 0 {
            heaps[mv.heap] += amount;
            mine -= amount;
        } else {
            heaps[mv.heap] -= amount;
            mine += amount;
        }
        Child::passing(Poker {
            heaps,
            reserves: [position.reserves[1], mine],
        })
    }

    fn end_value(&self, position: &Poker) -> Option<Value> {
        (!position.in_play()).then_some(Value::Loss(0))
    }

    fn why_over(&self, _position: &Poker) -> String {
        "no chips are on the heaps: the opponent took the last".into()
    }

    /// Heaps in any order are the same game: search remembers them sorted.
    fn search_key(&self, position: &Poker) -> Poker {
        let mut key = position.clone();
        key.heaps.sort_unstable();
        key
    }

    fn parse_position(&self, text: &str) -> Result<Poker, GameError> {
        let (heaps, reserves) = text.split_once('|').ok_or_else(|| {
            GameError::position(
                text,
                "write the heaps, '|', and the two reserves: 3 5 7 | 2 0",
            )
        })?;
        let heaps = parse_heaps(heaps)?;
        let reserves = parse_heaps(reserves)?;
        let [mine, theirs] = reserves[..] else {
            return Err(GameError::position(
                text,
                format!(
                    "after '|' come two reserves, the mover's and the opponent's (found {})",
                    reserves.len()
                ),
            ));
        };
        if heaps.is_empty() {
            return Err(GameError::position(text, "there is at least one heap"));
        }
        let position = Poker {
            heaps,
            reserves: [mine, theirs],
        };
        if position.chips() > u128::from(u64::MAX) {
            return Err(GameError::position(
                text,
                format!(
                    "at most {} chips in all, so that no heap can overflow",
                    u64::MAX
                ),
            ));
        }
        Ok(position)
    }

    fn write_position(&self, position: &Poker) -> String {
        format!(
            "{} | {} {}",
            write_heaps(&position.heaps),
            position.reserves[0],
            position.reserves[1]
        )
    }

    fn write_move(&self, _position: &Poker, mv: &Chips) -> String {
        mv.write()
    }

    /// Reads `h<i>-<k>` or `h<i>+<k>` for positions of any size.
    fn parse_move(&self, position: &Poker, text: &str) -> Result<Chips, GameError> {
        let refuse = |why: String| GameError::bad_move(text, why);
        let lower = text.trim().to_ascii_lowercase();
        let syntax = || refuse("a move is h<heap>-<chips> or h<heap>+<chips>: h2-3, h2+3".into());
        let rest = lower.strip_prefix('h').ok_or_else(syntax)?;
        let at = rest.find(['-', '+']).ok_or_else(syntax)?;
        let heap: usize = rest[..at].parse().map_err(|_| syntax())?;
        let amount: u64 = rest[at + 1..].parse().map_err(|_| syntax())?;
        if !(1..=position.heaps.len()).contains(&heap) {
            return Err(refuse(format!("heaps are 1 to {}", position.heaps.len())));
        }
        let adding = &rest[at..=at] == "+";
        let most = match adding {
            false => position.heaps[heap - 1],
            true if position.in_play() => position.reserves[0],
            true => 0,
        };
        if !(1..=most).contains(&amount) {
            let what = if adding { "add" } else { "take" };
            return Err(refuse(format!("you can {what} 1 to {most} chips there")));
        }
        let change = if adding {
            i128::from(amount)
        } else {
            -i128::from(amount)
        };
        Ok(Chips {
            heap: heap - 1,
            change,
        })
    }
}

impl ClosedForm<PokerNim> for PokerNim {
    fn formula(&self, position: &Poker) -> Result<Formula<Chips>, GameError> {
        Ok(Formula {
            mover_wins: position.nim_sum() != 0,
            nim_sum: Some(position.nim_sum()),
            part_values: None,
            winning_moves: winning_moves(position),
        })
    }

    fn measure(&self) -> &'static str {
        "chips on the heaps"
    }

    fn left(&self, position: &Poker) -> u64 {
        crate::heaps::stones(&position.heaps)
    }

    /// The whole reserve added to the first heap, or else one chip taken.
    fn longest_move(&self, position: &Poker) -> Option<Chips> {
        let heap = position.heaps.iter().position(|&h| h > 0)?;
        let change = match position.reserves[0] {
            0 => -1,
            reserve => i128::from(reserve),
        };
        Some(Chips { heap, change })
    }
}

/// Heaps and reserves drawn token by token up to this many chips.
const MOST_TOKENS: u64 = 30;
const TOKEN: f64 = 26.0;
const PAD: f64 = 24.0;

impl Picture<PokerNim> for PokerNim {
    /// The heaps as stacks of chips (`h<i>t<j>`, labels `h<i>`), and the
    /// mover's reserve beside them (`r<j>`): click a heap's chip to take it and
    /// those above it, or a reserve chip (that many chips) and then a heap's label
    /// to add them.
    fn svg(&self, position: &Poker, marks: &Marks) -> String {
        let [mine, theirs] = position.reserves;
        let column = TOKEN * 1.9;
        let tallest = position
            .heaps
            .iter()
            .copied()
            .chain([mine, 5])
            .max()
            .unwrap_or(5);
        let tallest = tallest.min(MOST_TOKENS) as f64;
        let width = 2.0 * PAD + (position.heaps.len() as f64 + 1.5) * column;
        let height = 2.0 * PAD + tallest * TOKEN + 48.0;
        let base = height - PAD - 40.0;
        let mut svg = Svg::new(width, height);
        let stack = |svg: &mut Svg, x: f64, count: u64, name: &dyn Fn(u64) -> String| {
            if count > MOST_TOKENS {
                svg.text(x, base - TOKEN, &count.to_string(), "count");
                return;
            }
            for j in 1..=count {
                let place = name(j);
                let class = if marks.last.contains(&place) {
                    "token last"
                } else {
                    "token"
                };
                let y = base - j as f64 * TOKEN;
                svg.rounded(
                    (x - TOKEN * 0.8, y, TOKEN * 1.6, TOKEN - 3.0),
                    6.0,
                    class,
                    Some(&place),
                );
            }
        };
        for (i, &h) in position.heaps.iter().enumerate() {
            let x = PAD + (i as f64 + 0.5) * column;
            stack(&mut svg, x, h, &|j| format!("h{}t{j}", i + 1));
            let label = format!("h{}", i + 1);
            let class = if marks.last.contains(&label) {
                "label lastlabel"
            } else {
                "label"
            };
            svg.text_place(x, base + 14.0, &label, class, &label);
        }
        let x = PAD + (position.heaps.len() as f64 + 1.0) * column;
        stack(&mut svg, x, mine, &|j| format!("r{j}"));
        svg.text(x, base + 14.0, "reserve", "label");
        svg.text(x, base + 32.0, &format!("(other: {theirs})"), "label");
        svg.finish(&format!("Poker Nim {}", self.write_position(position)))
    }

    fn clickable(&self, position: &Poker) -> bool {
        let [mine, _] = position.reserves;
        position
            .heaps
            .iter()
            .chain([&mine])
            .all(|&c| c <= MOST_TOKENS)
    }

    fn places(&self, position: &Poker, mv: &Chips) -> Vec<Clicks> {
        let heap = format!("h{}", mv.heap + 1);
        let amount = mv.change.unsigned_abs() as u64;
        match mv.change > 0 {
            true => vec![vec![vec![format!("r{amount}")], vec![heap]]],
            false => one_step(vec![format!(
                "{heap}t{}",
                position.heaps[mv.heap] - amount + 1
            )]),
        }
    }

    fn landed(&self, _position: &Poker, mv: &Chips) -> Vec<String> {
        vec![format!("h{}", mv.heap + 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::BoundedSearch;

    fn poker(text: &str) -> Poker {
        PokerNim::new().parse_position(text).unwrap()
    }

    /// Small positions against search through the cycles: the xor decides, and
    /// the formula's winning moves are exactly those search finds.
    #[test]
    fn the_xor_decides_whatever_the_reserves() {
        let game = PokerNim::new();
        let mut search = BoundedSearch::new(&game);
        for text in [
            "1 2 3 | 0 0",
            "1 2 3 | 4 0",
            "1 2 2 | 0 3",
            "0 0 1 | 5 5",
            "2 0 0 | 1 0",
            "3 5 6 | 1 2",
        ] {
            let position = poker(text);
            let value = search.value(&position, 40);
            assert_eq!(
                matches!(value, Value::Win(_)),
                position.nim_sum() != 0,
                "{text}"
            );
            let winning: Vec<Chips> = game
                .moves(&position)
                .into_iter()
                .filter(|m| {
                    matches!(
                        search.value(&game.play(&position, m).position, 40),
                        Value::Loss(_)
                    )
                })
                .collect();
            let mut said = winning_moves(&position);
            said.sort_by_key(|m| game.moves(&position).iter().position(|x| x == m));
            assert_eq!(said, winning, "{text}");
        }
    }

    #[test]
    fn notation_and_moves() {
        let game = PokerNim::new();
        let position = poker("3 5 7 | 2 0");
        assert_eq!(game.write_position(&position), "3 5 7 | 2 0");
        assert_eq!(game.moves(&position).len(), 15 + 3 * 2);
        let add = game.parse_move(&position, "h1+2").unwrap();
        assert_eq!(game.play(&position, &add).position, poker("5 5 7 | 0 0"));
        let take = game.parse_move(&position, "h3-7").unwrap();
        assert_eq!(game.play(&position, &take).position, poker("3 5 0 | 0 9"));
        assert!(game.parse_move(&position, "h1+3").is_err());
        assert!(game.parse_move(&poker("0 0 | 4 0"), "h1+1").is_err());
        assert!(game.parse_position("3 5 7").is_err());
        assert!(game.parse_position("3 5 7 | 1").is_err());
        // 1 xor 2 xor 3 = 0, whatever is in the reserves.
        assert!(!game.formula(&poker("1 2 3 | 30 0")).unwrap().mover_wins);
    }
}
