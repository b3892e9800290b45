//! What every game is built on, apart from the games themselves: the [`game`]
//! trait with [`value`]s, the words a game describes itself with ([`spec`]) and
//! the list of every game ([`registry`]), the [`capability`] traits only some
//! games have, live [`search`], and the helpers games draw and index with
//! ([`grid`], [`svg`], [`symmetry`]). The crate root re-exports each module.

pub mod capability;
#[cfg(feature = "cli")]
pub mod cli;
pub mod game;
pub mod grid;
#[cfg(feature = "cli")]
pub mod progress;
pub mod registry;
pub mod search;
pub mod spec;
pub mod svg;
pub mod symmetry;
#[cfg(test)]
pub(crate) mod testing;
pub mod value;
