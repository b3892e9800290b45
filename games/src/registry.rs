//! Every game by its identifier. Adding a game means one module and one line here.

use crate::dots::Dots;
use crate::euler::Euler;
use crate::game::{Game, GameError};
use crate::lgame::LGame;

/// The identifiers of every game, as typed on the command line.
pub const GAME_IDS: &[&str] = &["euler", "lgame", "dots"];

/// Variant parameters given on the command line (board size, rule set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variant {
    pub size: Option<String>,
    pub rules: Option<String>,
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
            let dots = match &variant.size {
                Some(size) => Dots::parse_size(size)?,
                None => Dots::default(),
            };
            Ok(visitor.visit(&dots))
        }
        _ => Err(GameError::UnknownGame {
            id: id.to_string(),
            known: GAME_IDS.join(", "),
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

fn no_variant(id: &str, variant: &Variant) -> Result<(), GameError> {
    match (&variant.size, &variant.rules) {
        (None, None) => Ok(()),
        (Some(size), _) => Err(GameError::variant(size, format!("{id} has no board sizes"))),
        (None, Some(_)) => no_rules(id, variant),
    }
}
