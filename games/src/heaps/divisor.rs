//! The divisor game: a whole number n; a move divides it by a prime power p^j
//! (j >= 1) that divides it. Under normal play whoever reaches 1 wins; under
//! misère play (`--misere`) whoever reaches 1 loses.
//!
//! The formula: each prime's exponent in n is a Nim heap (dividing by p^j takes j
//! from p's heap), so the game is Nim, or misère Nim, on the exponents. n is
//! factorised by Pollard's rho with Miller-Rabin (the `num-prime` crate), so any
//! 64-bit n is answered at once. The tables hold every n up to 1,000,000 and are
//! checked against the formula on every slot.
//!
//! Notation: the number, `360`. A move is the divisor: `/8` (or `8`).

use crate::capability::{
    Capabilities, Check, Clicks, ClosedForm, Formula, Layered, Marks, Picture, Solver, one_step,
};
use crate::game::{Child, Game, GameError};
use crate::heap_picture;
use crate::nim::{self, Rule};
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};
use crate::value::{Value, ValueKind};

pub static SPEC: Spec<Divisor> = Spec {
    entry: Entry {
        id: "divisor",
        extras: Extras::NONE,
        about: "The divisor game: divide n by a prime power that divides it; who reaches 1 wins (misère play: loses)",
        notation: "a whole number from 1 to 18446744073709551615: 360; a move is the prime power divided by: /8",
        options: &[OptionSpec {
            name: "misere",
            help: "misère play: whoever reaches 1 loses",
            scope: Scope::Variant,
            values: Values::Flag,
            default: Some("no"),
            positional: false,
        }],
        all: &[&[("misere", "no,yes")]],
    },
    build: |options| {
        Ok(Divisor {
            misere: options.get("misere") == Some("yes"),
        })
    },
    capabilities: |game| Capabilities {
        formula: Some(game),
        picture: Some(game),
        ..Capabilities::new(
            Solver::Layered(game),
            vec![Check::Formula, Check::LiveSearch],
        )
    },
    generate_options: |game, _| match game.misere {
        true => vec![("misere", "yes".to_string())],
        false => Vec::new(),
    },
};

/// The largest n in the table.
pub const TABLE_MAX: u64 = 1_000_000;
/// The most prime factors, counted with multiplicity, of any n in the table.
const MOST_FACTORS: u32 = TABLE_MAX.ilog2();

/// n's prime factors with their exponents, smallest prime first.
pub fn factors(n: u64) -> Vec<(u64, u64)> {
    num_prime::nt_funcs::factorize64(n)
        .into_iter()
        .map(|(p, e)| (p, e as u64))
        .collect()
}

/// A move: divide by `prime^power`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Divide {
    pub prime: u64,
    pub power: u32,
}

impl Divide {
    pub fn divisor(self) -> u64 {
        self.prime.pow(self.power)
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Divisor {
    misere: bool,
}

impl Divisor {
    pub fn new(misere: bool) -> Self {
        Divisor { misere }
    }

    fn rule(&self) -> Rule {
        match self.misere {
            true => Rule::Misere,
            false => Rule::Nim,
        }
    }
}

impl Game for Divisor {
    type Position = u64;
    type Move = Divide;

    fn id(&self) -> &'static str {
        "divisor"
    }

    fn variant(&self) -> String {
        match self.misere {
            true => "misere".into(),
            false => String::new(),
        }
    }

    fn value_kind(&self) -> ValueKind {
        ValueKind::WinLossDraw
    }

    fn index_size(&self, _tier: u32) -> u64 {
        TABLE_MAX
    }

    fn index(&self, n: &u64) -> u64 {
        n - 1
    }

    fn position_at(&self, _tier: u32, index: u64) -> Option<u64> {
        Some(index + 1)
    }

    fn coverage(&self, n: &u64) -> Result<(), String> {
        match *n <= TABLE_MAX {
            true => Ok(()),
            false => Err(format!("the table holds n up to {TABLE_MAX}")),
        }
    }

    fn start(&self) -> u64 {
        360
    }

    /// Each prime power dividing n, smallest divisor first.
    fn moves(&self, n: &u64) -> Vec<Divide> {
        let mut moves: Vec<Divide> = factors(*n)
            .into_iter()
            .flat_map(|(prime, e)| (1..=e as u32).map(move |power| Divide { prime, power }))
            .collect();
        moves.sort_by_key(|m| m.divisor());
        moves
    }

    fn play(&self, n: &u64, mv: &Divide) -> Child<u64> {
        Child::passing(n / mv.divisor())
    }

    fn end_value(&self, n: &u64) -> Option<Value> {
        (*n == 1).then_some(match self.misere {
            // The opponent reached 1.
            true => Value::Win(0),
            false => Value::Loss(0),
        })
    }

    fn why_over(&self, _n: &u64) -> String {
        match self.misere {
            true => "1 is reached: the opponent reached it, and lost".into(),
            false => "1 is reached: the opponent reached it, and won".into(),
        }
    }

    fn parse_position(&self, text: &str) -> Result<u64, GameError> {
        match text.trim().parse::<u64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(GameError::position(
                text,
                format!("n is a whole number from 1 to {}", u64::MAX),
            )),
        }
    }

    fn write_position(&self, n: &u64) -> String {
        n.to_string()
    }

    fn write_move(&self, _n: &u64, mv: &Divide) -> String {
        format!("/{}", mv.divisor())
    }

    /// `/8` or `8`.
    fn parse_move(&self, n: &u64, text: &str) -> Result<Divide, GameError> {
        let wanted = text.trim().trim_start_matches('/');
        let moves = self.moves(n);
        moves
            .iter()
            .find(|m| m.divisor().to_string() == wanted)
            .copied()
            .ok_or_else(|| crate::game::illegal_move(self, n, &moves, text))
    }
}

impl ClosedForm<Divisor> for Divisor {
    fn formula(&self, n: &u64) -> Result<Formula<Divide>, GameError> {
        let factors = factors(*n);
        let exponents: Vec<u64> = factors.iter().map(|&(_, e)| e).collect();
        let verdict = nim::verdict(self.rule(), &exponents);
        Ok(Formula {
            mover_wins: verdict.mover_wins,
            nim_sum: Some(verdict.nim_sum),
            part_values: None,
            winning_moves: verdict
                .winning_moves
                .iter()
                .map(|take| Divide {
                    prime: factors[take.heap].0,
                    power: take.take as u32,
                })
                .collect(),
        })
    }

    fn measure(&self) -> &'static str {
        "prime factors left"
    }

    fn left(&self, n: &u64) -> u64 {
        factors(*n).iter().map(|&(_, e)| e).sum()
    }

    /// Dividing by the smallest prime.
    fn longest_move(&self, n: &u64) -> Option<Divide> {
        factors(*n)
            .first()
            .map(|&(prime, _)| Divide { prime, power: 1 })
    }
}

impl Layered<Divisor> for Divisor {
    /// Layers by prime factors taken away: every move takes at least one.
    fn layers(&self, _tier: u32) -> u32 {
        MOST_FACTORS + 1
    }

    fn layer_of_index(&self, tier: u32, index: u64) -> u32 {
        let n = self
            .position_at(tier, index)
            .expect("every slot is a number");
        MOST_FACTORS - self.left(&n) as u32
    }
}

impl Picture<Divisor> for Divisor {
    /// Each prime's exponent as a stack of tokens, labelled with the prime.
    fn svg(&self, n: &u64, marks: &Marks) -> String {
        let factors = factors(*n);
        let exponents: Vec<u64> = factors.iter().map(|&(_, e)| e).collect();
        let labels: Vec<String> = factors.iter().map(|&(p, _)| p.to_string()).collect();
        let written: Vec<String> = factors
            .iter()
            .map(|&(p, e)| match e {
                1 => p.to_string(),
                e => format!("{p}^{e}"),
            })
            .collect();
        let caption = format!("{n} = {}", written.join(" x "));
        let title = format!("the divisor game: {caption}");
        heap_picture::svg_stacks_labelled(&exponents, &labels, &caption, marks, &title)
    }

    fn clickable(&self, n: &u64) -> bool {
        let exponents: Vec<u64> = factors(*n).iter().map(|&(_, e)| e).collect();
        heap_picture::drawn_whole(&exponents)
    }

    /// The lowest token of the prime's stack that goes.
    fn places(&self, n: &u64, mv: &Divide) -> Vec<Clicks> {
        let factors = factors(*n);
        let heap = factors
            .iter()
            .position(|&(p, _)| p == mv.prime)
            .expect("a factor");
        let lowest = factors[heap].1 - u64::from(mv.power) + 1;
        one_step(vec![format!("h{}t{lowest}", heap + 1)])
    }

    fn landed(&self, n: &u64, mv: &Divide) -> Vec<String> {
        // The prime's stack, where it is still on the board after the move.
        let after = factors(n / mv.divisor());
        after
            .iter()
            .position(|&(p, _)| p == mv.prime)
            .map(|i| vec![format!("h{}", i + 1)])
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Negamax;

    #[test]
    fn sixty_four_bit_numbers_are_factorised_and_answered() {
        // 2^63 - 25 is prime; (2^32 - 5)^2 and 2^64 - 1 = 3 5 17 257 641 65537 6700417.
        assert_eq!(
            factors(9_223_372_036_854_775_783),
            [(9_223_372_036_854_775_783, 1)]
        );
        let square = 4_294_967_291u64 * 4_294_967_291;
        assert_eq!(factors(square), [(4_294_967_291, 2)]);
        let all: Vec<u64> = factors(u64::MAX).iter().map(|&(p, _)| p).collect();
        assert_eq!(all, [3, 5, 17, 257, 641, 65_537, 6_700_417]);
        // Seven exponents of 1: the xor is 1, and dividing by any prime wins.
        let formula = Divisor::new(false).formula(&u64::MAX).unwrap();
        assert!(formula.mover_wins);
        assert_eq!(formula.winning_moves.len(), 7);
        // Misère: seven heaps of one, an odd count, is lost.
        assert!(!Divisor::new(true).formula(&u64::MAX).unwrap().mover_wins);
    }

    /// Every n up to 3,000 against plain search, both ways: the verdict and
    /// exactly the winning moves search finds.
    #[test]
    fn the_formula_names_every_winning_move() {
        for misere in [false, true] {
            let game = Divisor::new(misere);
            let mut search = Negamax::new(&game);
            for n in 1..=3000u64 {
                let winning: Vec<Divide> = game
                    .moves(&n)
                    .into_iter()
                    .filter(|m| matches!(search.value(&(n / m.divisor())), Value::Loss(_)))
                    .collect();
                let mut said = game.formula(&n).unwrap().winning_moves;
                said.sort_by_key(|m| m.divisor());
                assert_eq!(said, winning, "{n} misère {misere}");
                assert_eq!(
                    game.formula(&n).unwrap().mover_wins,
                    matches!(search.value(&n), Value::Win(_)),
                    "{n}"
                );
            }
        }
    }

    #[test]
    fn moves_are_read_with_or_without_the_slash() {
        let game = Divisor::new(false);
        assert_eq!(game.parse_move(&360, "/8").unwrap().divisor(), 8);
        assert_eq!(game.parse_move(&360, "9").unwrap().divisor(), 9);
        assert!(game.parse_move(&360, "/6").is_err());
        assert!(game.parse_position("0").is_err());
    }
}
