//! Building Nim: the players first build the heaps, one chip a move on a heap of
//! their choice, until the chips run out; then Nim follows, turns going on in
//! the same order. Whoever takes the last chip wins.
//!
//! Once every chip is placed it is Nim, decided by the heaps' xor, which is the
//! formula this game has. While chips remain no formula is known: the tables
//! answer, one per number of heaps (1 to 4), holding every position whose chips,
//! placed and still to place, number at most 20.
//!
//! Notation: the chips still to place, `|`, the heaps: `15 | 0 0 0`. Moves:
//! `+h2` places a chip on heap 2; once all are placed, `h2-3` as in Nim.

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Marks, Picture, Solver, one_step,
};
use crate::compositions::BoundedTuples;
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::heaps::{Take, parse_heaps, write_heaps};
use crate::nim::{self, Rule};
use crate::spec::{Entry, Extras, OptionSpec, Options, Scope, Spec, Values};
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Building> = Spec {
    entry: Entry {
        id: "building-nim",
        extras: Extras::NONE,
        about: "Building Nim: place the chips one by one on the heaps, then play Nim; who takes the last chip wins",
        notation: "the chips still to place, '|', the heaps: 15 | 0 0 0; \
                   a move places a chip (+h2) or, once all are placed, takes as in Nim (h2-3)",
        options: &[OptionSpec {
            name: "heaps",
            help: "the number of heaps the start has",
            scope: Scope::Variant,
            values: Values::Range(1, TABLE_HEAPS as u64),
            default: Some("3"),
            positional: false,
        }],
        all: &[&[]],
    },
    build: |options: &Options| Ok(Building::new(options.number("heaps").unwrap_or(3) as usize)),
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Retrograde,
            vec![Check::Consistency, Check::LiveSearch],
        )
    },
    generate_options: crate::spec::no_generate_options,
};

/// The most heaps, and the most chips in all, in the tables.
pub const TABLE_HEAPS: usize = 4;
pub const TABLE_CHIPS: u64 = 20;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Build {
    /// Chips still to place.
    pub chips: u64,
    pub heaps: Vec<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Place(usize),
    Take(Take),
}

/// One table per number of heaps: tier `k` holds the positions on `k` heaps.
#[derive(Debug, Clone)]
pub struct Building {
    /// Heaps at the start (the listing's default table).
    start_heaps: usize,
}

impl Building {
    pub fn new(start_heaps: usize) -> Self {
        Building {
            start_heaps: start_heaps.clamp(1, TABLE_HEAPS),
        }
    }

    fn slots(tier: u32) -> BoundedTuples {
        BoundedTuples::new(tier as usize + 1, TABLE_CHIPS)
    }
}

impl Game for Building {
    type Position = Build;
    type Move = Step;

    fn id(&self) -> &'static str {
        "building-nim"
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn tiers(&self) -> Vec<u32> {
        (1..=TABLE_HEAPS as u32).collect()
    }

    fn tier_name(&self, tier: u32) -> String {
        format!("{tier}heaps")
    }

    fn tier_of(&self, build: &Build) -> u32 {
        build.heaps.len() as u32
    }

    fn index_size(&self, tier: u32) -> u64 {
        Self::slots(tier).size()
    }

    fn index(&self, build: &Build) -> u64 {
        let mut tuple = vec![build.chips];
        tuple.extend(&build.heaps);
        Self::slots(build.heaps.len() as u32).rank(&tuple)
    }

    fn position_at(&self, tier: u32, index: u64) -> Option<Build> {
        let tuple = Self::slots(tier).unrank(index);
        Some(Build {
            chips: tuple[0],
            heaps: tuple[1..].to_vec(),
        })
    }

    fn coverage(&self, build: &Build) -> Result<(), String> {
        let total = build
            .heaps
            .iter()
            .chain([&build.chips])
            .map(|&c| u128::from(c))
            .sum::<u128>();
        match (1..=TABLE_HEAPS).contains(&build.heaps.len()) && total <= u128::from(TABLE_CHIPS) {
            true => Ok(()),
            false => Err(format!(
                "the tables hold 1 to {TABLE_HEAPS} heaps with at most {TABLE_CHIPS} chips in all"
            )),
        }
    }

    fn start(&self) -> Build {
        Build {
            chips: 15,
            heaps: vec![0; self.start_heaps],
        }
    }

    fn moves(&self, build: &Build) -> Vec<Step> {
        if build.chips > 0 {
            return (0..build.heaps.len()).map(Step::Place).collect();
        }
        build
            .heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &h)| (1..=h).map(move |take| Step::Take(Take { heap, take })))
            .collect()
    }

    fn play(&self, build: &Build, step: &Step) -> Child<Build> {
        let mut after = build.clone();
        match step {
            Step::Place(heap) => {
                after.chips -= 1;
                after.heaps[*heap] += 1;
            }
            Step::Take(take) => after.heaps[take.heap] -= take.take,
        }
        Child::passing(after)
    }

    /// Over once every chip is placed and taken; a position with chips to
    /// place always has a move.
    fn end_value(&self, build: &Build) -> Option<Value> {
        (build.chips == 0 && build.heaps.iter().all(|&h| h == 0)).then_some(Value::Loss(0))
    }

    fn why_over(&self, _build: &Build) -> String {
        "every chip is placed and taken: the opponent took the last".into()
    }

    fn parse_position(&self, text: &str) -> Result<Build, GameError> {
        let (chips, heaps) = text.split_once('|').ok_or_else(|| {
            GameError::position(
                text,
                "write the chips to place, '|', and the heaps: 15 | 0 0 0",
            )
        })?;
        let chips = chips.trim().parse::<u64>().map_err(|_| {
            GameError::position(text, "the chips to place are a whole number before '|'")
        })?;
        let heaps = parse_heaps(heaps)?;
        if heaps.is_empty() {
            return Err(GameError::position(
                text,
                "there is at least one heap after '|'",
            ));
        }
        let total: u128 = heaps.iter().chain([&chips]).map(|&c| u128::from(c)).sum();
        if total > u128::from(u64::MAX) {
            return Err(GameError::position(
                text,
                "too many chips: a heap could overflow",
            ));
        }
        Ok(Build { chips, heaps })
    }

    fn write_position(&self, build: &Build) -> String {
        format!("{} | {}", build.chips, write_heaps(&build.heaps))
    }

    fn write_move(&self, _build: &Build, step: &Step) -> String {
        match step {
            Step::Place(heap) => format!("+h{}", heap + 1),
            Step::Take(take) => take.write(),
        }
    }
}

impl ClosedForm<Building> for Building {
    /// Nim once every chip is placed; before that no formula is known.
    fn formula(&self, build: &Build) -> Result<Formula<Step>, GameError> {
        if build.chips > 0 {
            return Err(GameError::beyond_tables(
                &self.write_position(build),
                "no formula is known while chips remain to be placed",
            ));
        }
        let verdict = nim::verdict(Rule::Nim, &build.heaps);
        Ok(Formula {
            mover_wins: verdict.mover_wins,
            nim_sum: Some(verdict.nim_sum),
            part_values: None,
            winning_moves: verdict.winning_moves.into_iter().map(Step::Take).collect(),
        })
    }

    fn measure(&self) -> &'static str {
        "chips left"
    }

    fn left(&self, build: &Build) -> u64 {
        crate::heaps::stones(&build.heaps).saturating_add(build.chips)
    }

    fn longest_move(&self, build: &Build) -> Option<Step> {
        match build.chips {
            0 => {
                let heap = build.heaps.iter().position(|&h| h > 0)?;
                Some(Step::Take(Take { heap, take: 1 }))
            }
            _ => Some(Step::Place(0)),
        }
    }
}

impl Picture<Building> for Building {
    /// The heaps as stacks; a chip is placed by clicking the heap's label.
    fn svg(&self, build: &Build, marks: &Marks) -> String {
        let title = format!("building Nim: {} chips to place", build.chips);
        let labels: Vec<String> = (1..=build.heaps.len()).map(|i| format!("h{i}")).collect();
        let caption = match build.chips {
            0 => "every chip placed: take as in Nim".to_string(),
            1 => "1 chip to place: click a heap's label".to_string(),
            chips => format!("{chips} chips to place: click a heap's label"),
        };
        heap_picture::svg_stacks_labelled(&build.heaps, &labels, &caption, marks, &title)
    }

    fn clickable(&self, build: &Build) -> bool {
        heap_picture::drawn_whole(&build.heaps)
    }

    fn places(&self, build: &Build, step: &Step) -> Vec<Clicks> {
        match step {
            Step::Place(heap) => one_step(vec![format!("h{}", heap + 1)]),
            Step::Take(take) => one_step(vec![format!(
                "h{}t{}",
                take.heap + 1,
                build.heaps[take.heap] - take.take + 1
            )]),
        }
    }

    fn landed(&self, _build: &Build, step: &Step) -> Vec<String> {
        let heap = match step {
            Step::Place(heap) => *heap,
            Step::Take(take) => take.heap,
        };
        vec![format!("h{}", heap + 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    /// Who wins from the start, for each count of chips and of heaps, by plain
    /// search: once placed, Nim decides; before, whoever can force the xor.
    #[test]
    fn who_wins_from_each_start() {
        let mut first_wins = Vec::new();
        for heaps in 2..=4 {
            let game = Building::new(heaps);
            let mut search = Negamax::new(&game);
            let row: String = (1..=12)
                .map(|chips| {
                    let start = Build {
                        chips,
                        heaps: vec![0; heaps],
                    };
                    match search.value(&start) {
                        Value::Win(_) => 'W',
                        _ => 'L',
                    }
                })
                .collect();
            first_wins.push(row);
        }
        // Two and four heaps: the second player pairs the heaps and mirrors, so
        // the heaps end in equal pairs (or, with an odd count of chips, the
        // second player starts the Nim with a non-zero xor).
        assert_eq!(first_wins, ["LLLLLLLLLLLL", "LLLWLLLWLWLW", "LLLLLLLLLLLL"]);
    }

    #[test]
    fn moves_place_then_take() {
        let game = Building::new(3);
        let start = game.parse_position("2 | 0 1 0").unwrap();
        assert_eq!(
            game.moves(&start),
            [Step::Place(0), Step::Place(1), Step::Place(2)]
        );
        let placed = game.play(&start, &Step::Place(2)).position;
        assert_eq!(game.write_position(&placed), "1 | 0 1 1");
        let nim = game.parse_position("0 | 1 2 3").unwrap();
        assert!(!game.formula(&nim).unwrap().mover_wins);
        assert!(game.formula(&start).is_err());
        assert_eq!(game.parse_move(&start, "+h2").unwrap(), Step::Place(1));
    }
}
