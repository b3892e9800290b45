//! The rules of the games this project solves: positions, moves, text notation,
//! dense indexing with symmetries folded, live search that reads no table, closed
//! formulas; [`spec`], the words a game describes itself with, and [`registry`],
//! the list of every game.
//!
//! ```
//! use games::{euler::Euler, Game, Value, search::Negamax};
//! let start = Euler.parse_position("..../..../..../....").unwrap();
//! assert_eq!(Euler.moves(&start).len(), 48);
//! assert!(matches!(Negamax::new(&Euler).value(&start), Value::Loss(_)));
//! ```

pub mod abapa;
pub mod building;
pub mod capability;
pub mod chess;
pub mod circular_kayles;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compositions;
pub mod counting;
pub mod divisor;
pub mod dots;
pub mod end_rows;
pub mod ends;
pub mod euler;
pub mod fibonacci;
pub mod game;
pub mod greedy;
pub mod grid;
pub mod grundy;
pub mod heap_picture;
pub mod heaps;
pub mod lgame;
pub mod moore;
pub mod multiset;
pub mod nim;
pub mod northcott;
pub mod partition;
pub mod pits;
pub mod poker;
pub mod registry;
pub mod search;
pub mod spec;
pub mod svg;
pub mod symmetry;
#[cfg(test)]
mod testing;
pub mod value;
pub mod wythoff;
pub mod zeckendorf;

pub use capability::{Capabilities, Check, Formula, Solver};
pub use game::{Child, Game, GameError, START, read_position, value_from_children};
pub use registry::with_game;
pub use spec::{Options, Spec, Visitor};
pub use value::{Value, ValueKind};
