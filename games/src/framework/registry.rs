//! The list of every game, and lookups in it. Both tools, their `--help`, the
//! HTTP API and the web page read this list; adding a game means one module and
//! one line in the `registry!` list below. Each game describes itself with the
//! types of [`crate::spec`]; no game imports this module.
//!
//! ```
//! use games::registry;
//! use games::spec::{Options, Spec, Visitor};
//! use games::Game;
//!
//! // The list, in order, with each game's options as data.
//! let ids: Vec<&str> = registry::entries().iter().map(|e| e.id).collect();
//! assert_eq!(&ids[..3], ["euler", "lgame", "dots"]);
//! let dots = registry::entry("dots").unwrap();
//! assert_eq!(dots.options[0].name, "size");
//!
//! // Code that works with any game is a visitor: it gets the concrete game.
//! struct StartMoves;
//! impl Visitor for StartMoves {
//!     type Output = usize;
//!     fn visit<G: Game>(self, _spec: &'static Spec<G>, game: &G) -> usize {
//!         game.moves(&game.start()).len()
//!     }
//! }
//! let options = Options::query();
//! assert_eq!(registry::with_game("euler", &options, StartMoves).unwrap(), 48);
//! assert!(registry::with_game("go", &options, StartMoves).is_err());
//! ```

use crate::game::Game;
use crate::game::GameError;
use crate::spec::{Entry, Options, Spec, Visitor};
use std::sync::OnceLock;

/// Code that works with any game's description, before a game is built from
/// options: [`with_spec`] calls `visit` with the game's spec.
pub trait SpecVisitor {
    type Output;
    fn visit<G: Game>(self, spec: &'static Spec<G>) -> Self::Output;
}

macro_rules! registry {
    ($($spec:path),* $(,)?) => {
        /// Every game, in the order tools list them.
        pub fn entries() -> &'static [Entry] {
            static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
            ENTRIES.get_or_init(|| vec![$($spec.entry),*])
        }

        /// Hands the spec of game `id` to `visitor`.
        pub fn with_spec<V: SpecVisitor>(id: &str, visitor: V) -> Result<V::Output, GameError> {
            $(
                if id == $spec.entry.id {
                    return Ok(visitor.visit(&$spec));
                }
            )*
            Err(unknown_game(id))
        }

        /// Builds the game `id` from `options` and hands it to `visitor`.
        pub fn with_game<V: Visitor>(
            id: &str,
            options: &Options,
            visitor: V,
        ) -> Result<V::Output, GameError> {
            $(
                if id == $spec.entry.id {
                    let spec = &$spec;
                    let game = spec.game(options)?;
                    return Ok(visitor.visit(spec, &game));
                }
            )*
            Err(unknown_game(id))
        }
    };
}

registry! {
    crate::euler::SPEC,
    crate::lgame::SPEC,
    crate::dots::SPEC,
    crate::nim::NIM,
    crate::nim::MISERE,
    crate::nim::SUBTRACTION,
    crate::counting::GAME21,
    crate::counting::GAME100,
    crate::northcott::SPEC,
    crate::pits::SPEC,
    crate::grundy::KAYLES,
    crate::grundy::DAWSON,
    crate::grundy::GRUNDY,
    crate::grundy::LASKER,
    crate::circular_kayles::SPEC,
    crate::ends::SPEC,
    crate::wythoff::SPEC,
    crate::fibonacci::SPEC,
    crate::divisor::SPEC,
    crate::poker::SPEC,
    crate::end_rows::END_NIM,
    crate::end_rows::END_WYTHOFF,
    crate::greedy::SPEC,
    crate::building::SPEC,
    crate::moore::SPEC,
    crate::chess::SPEC,
    crate::abapa::SPEC,
}

/// The entry of game `id`.
pub fn entry(id: &str) -> Result<&'static Entry, GameError> {
    entries()
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| unknown_game(id))
}

fn unknown_game(id: &str) -> GameError {
    let known: Vec<&str> = entries().iter().map(|e| e.id).collect();
    // As clap suggests a subcommand: the most similar name, if similar enough.
    let similar = known
        .iter()
        .map(|k| (strsim::jaro(id, k), *k))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k.to_string());
    GameError::UnknownGame {
        id: id.to_string(),
        similar,
        known: known.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Purpose;

    #[test]
    fn a_mistyped_game_is_given_the_one_meant() {
        let said = |id: &str| entry(id).unwrap_err().to_string();
        assert!(
            said("eulr")
                .contains("unknown game 'eulr' (did you mean 'euler'?); known games: euler, ")
        );
        assert!(said("kayels").contains("(did you mean 'kayles'?)"));
        assert!(!said("qqqqqqqq").contains("did you mean"));
    }

    #[test]
    fn ids_are_unique_and_options_well_formed() {
        let mut ids: Vec<&str> = entries().iter().map(|e| e.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), entries().len());
        for entry in entries() {
            for option in entry.options {
                if let Some(default) = option.default {
                    option.check(entry.id, default).unwrap();
                }
            }
            for set in entry.all {
                for (name, _) in set.iter() {
                    assert!(entry.option(name).is_some(), "{}: {name}", entry.id);
                }
            }
        }
    }

    /// The extras an entry offers as data are the ones its game has.
    #[test]
    fn extras_agree_with_capabilities() {
        struct WholeGame;
        impl Visitor for WholeGame {
            type Output = bool;
            fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) -> bool {
                (spec.capabilities)(game).whole_game.is_some()
            }
        }
        for entry in entries() {
            let whole = with_game(entry.id, &Options::query(), WholeGame).unwrap();
            assert_eq!(entry.extras.whole_game, whole, "{}", entry.id);
        }
        let with = |pick: fn(&Entry) -> bool| -> Vec<&str> {
            entries().iter().filter(|e| pick(e)).map(|e| e.id).collect()
        };
        assert_eq!(with(|e| e.extras.whole_game), ["dots", "abapa"]);
        assert_eq!(with(|e| e.extras.search_beyond_tables), ["abapa"]);
        assert_eq!(with(|e| e.extras.counted_input).len(), 13);
    }

    #[test]
    fn options_are_checked_with_their_limits() {
        let subtraction = entry("subtraction").unwrap();
        let given = Options::with(Purpose::Query, [("max-take", "0")]);
        let err = subtraction.complete(&given).unwrap_err().to_string();
        assert!(
            err.contains("bad max-take '0': subtraction takes a whole number from 1"),
            "{err}"
        );
        let err = entry("euler")
            .unwrap()
            .complete(&Options::with(Purpose::Query, [("size", "5x5")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("euler has no option --size"), "{err}");
        let filled = subtraction.complete(&Options::query()).unwrap();
        assert_eq!(filled.get("max-take"), Some("3"));
    }
}
