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

pub mod framework;
pub mod heaps;

pub mod abapa;
pub mod chess;
pub mod counting;
pub mod dots;
pub mod ends;
pub mod euler;
pub mod lgame;
pub mod northcott;
pub mod pits;

pub use framework::{capability, game, grid, registry, search, spec, svg, symmetry, value};
#[cfg(feature = "cli")]
pub use framework::{cli, progress};
pub use heaps::{
    building, circular_kayles, compositions, divisor, end_rows, fibonacci, greedy, grundy,
    heap_picture, moore, multiset, nim, partition, poker, wythoff, zeckendorf,
};

#[cfg(test)]
use framework::testing;

pub use capability::{Capabilities, Check, Formula, Solver};
pub use game::{Child, Game, GameError, START, read_position, value_from_children, value_of_exits};
pub use registry::with_game;
pub use spec::{Options, Spec, Visitor};
pub use value::{Value, ValueKind};
