//! Every game by its identifier. Adding a game means one module and one line here.

use crate::abapa::{Abapa, MAX_TABLE_SEEDS, Rules as AbapaRules};
use crate::dots::Dots;
use crate::endgame::{Endgame, Material};
use crate::euler::Euler;
use crate::game::{Game, GameError};
use crate::lgame::LGame;
use crate::nim::{GAME21, GAME100, Heaps, Rule};
use crate::northcott::Northcott;
use crate::pits::Pits;

/// The identifiers of every game, as typed on the command line.
pub const GAME_IDS: &[&str] = &[
    "euler",
    "lgame",
    "dots",
    "nim",
    "nim-misere",
    "subtraction",
    "game21",
    "game100",
    "northcott",
    "pits",
    "chess",
    "abapa",
];

/// Games answered from a sequence rather than a position table (Grundy values of
/// heap games; pick-from-the-ends by dynamic programming): the query side handles
/// them directly.
pub const SEQUENCE_IDS: &[&str] = &["kayles", "dawson", "grundy", "lasker", "ends"];

/// Variant parameters given on the command line (board size, rule set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variant {
    pub size: Option<String>,
    pub rules: Option<String>,
    /// The most a move may take (subtraction games).
    pub max_take: Option<String>,
}

/// Code that works with any game: `with_game` calls `visit` with the concrete game.
pub trait Visitor {
    type Output;
    fn visit<G: Game>(self, game: &G) -> Self::Output;
}

/// Builds the game `id` with its variant and hands it to `visitor`.
pub fn with_game<V: Visitor>(
    id: &str,
    variant: &Variant,
    visitor: V,
) -> Result<V::Output, GameError> {
    match id {
        "euler" => {
            no_variant(id, variant)?;
            Ok(visitor.visit(&Euler))
        }
        "lgame" => {
            no_variant(id, variant)?;
            Ok(visitor.visit(&LGame))
        }
        "dots" => {
            no_rules(id, variant)?;
            no_max_take(id, variant)?;
            let dots = match &variant.size {
                Some(size) => Dots::parse_size(size)?,
                None => Dots::default(),
            };
            Ok(visitor.visit(&dots))
        }
        "nim" | "nim-misere" => {
            no_variant(id, variant)?;
            let rule = if id == "nim" { Rule::Nim } else { Rule::Misere };
            Ok(visitor.visit(&Heaps::new(rule)))
        }
        "subtraction" => {
            no_size(id, variant)?;
            no_rules(id, variant)?;
            let game = Heaps::subtraction(variant.max_take.as_deref().unwrap_or("3"))?;
            Ok(visitor.visit(&game))
        }
        "game21" | "game100" => {
            no_variant(id, variant)?;
            Ok(visitor.visit(if id == "game21" { &GAME21 } else { &GAME100 }))
        }
        "northcott" => {
            no_max_take(id, variant)?;
            let game = Northcott::from_variant(variant.size.as_deref(), variant.rules.as_deref())?;
            Ok(visitor.visit(&game))
        }
        "chess" => {
            no_variant(id, variant)?;
            let endings = Endgame::of_all(&Material::all_up_to_four());
            Ok(visitor.visit(&endings))
        }
        "abapa" => {
            no_size(id, variant)?;
            no_max_take(id, variant)?;
            let rules = AbapaRules::parse(variant.rules.as_deref())?;
            Ok(visitor.visit(&Abapa::new(rules, MAX_TABLE_SEEDS)))
        }
        "pits" => {
            no_variant(id, variant)?;
            Ok(visitor.visit(&Pits))
        }
        _ => Err(GameError::UnknownGame {
            id: id.to_string(),
            known: [GAME_IDS, SEQUENCE_IDS].concat().join(", "),
        }),
    }
}

fn no_rules(id: &str, variant: &Variant) -> Result<(), GameError> {
    match &variant.rules {
        None => Ok(()),
        Some(rules) => Err(GameError::variant(
            rules,
            format!("{id} has no rule variants"),
        )),
    }
}

fn no_size(id: &str, variant: &Variant) -> Result<(), GameError> {
    match &variant.size {
        None => Ok(()),
        Some(size) => Err(GameError::variant(size, format!("{id} has no board sizes"))),
    }
}

fn no_max_take(id: &str, variant: &Variant) -> Result<(), GameError> {
    match &variant.max_take {
        None => Ok(()),
        Some(k) => Err(GameError::variant(
            k,
            format!("--max-take is for subtraction games, not {id}"),
        )),
    }
}

fn no_variant(id: &str, variant: &Variant) -> Result<(), GameError> {
    no_size(id, variant)?;
    no_rules(id, variant)?;
    no_max_take(id, variant)
}
