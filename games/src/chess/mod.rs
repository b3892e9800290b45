//! Chess endings: the game with id `chess`.
//!
//! - [`square`], [`piece`]: squares (`e4`), colours, roles and pieces;
//! - [`mod@attacks`]: attack bitboards, shared by the move generator and the solver;
//! - [`board`]: the board, legal moves and quiet un-moves; [`castling`]: rights
//!   and castling moves, for lichess's API; [`fen`] reads and
//!   writes FEN, telling bad syntax ([`FenError`]) from an unreachable board
//!   ([`IllegalPosition`]); [`notation`] writes SAN and UCI;
//! - [`material`]: what stands on the board (`KQvKR`), one tier each;
//! - [`index`]: the dense index of a tier (462 king pairs, sets of identical
//!   pieces) and [`Layout`], a position as the dedicated solver reads it;
//! - [`game`]: [`Endgame`], the [`crate::Game`] the tools use, with its
//!   capabilities; [`unmoves`]: predecessors for the generic retracting solver;
//! - [`page`]: the board as a picture, values in words, PGN and the editor.
//!
//! The dedicated solver lives in the generator and reads only the public index API.
//!
//! ```
//! use games::chess::{Board, Endgame, Material};
//! use games::Game;
//! let board = Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
//! // The king has a2; the queen 20 squares along its lines.
//! assert_eq!(board.legal_moves().len(), 21);
//! let kqvk = Endgame::new(&Material::parse("KQvK").unwrap());
//! assert_eq!(kqvk.tier_name(kqvk.tier_of(&board)), "KQvK");
//! ```

pub mod attacks;
pub mod board;
pub mod castling;
pub mod fen;
pub mod file_index;
pub mod game;
pub mod index;
pub mod material;
pub mod notation;
pub mod page;
pub mod pawns;
pub mod piece;
pub mod slots;
pub mod square;
pub mod stored;
mod tier_keys;
pub mod unmoves;

pub use attacks::{KING_STEPS, KNIGHT_STEPS, attacks};
pub use board::{Board, Move};
pub use castling::{Castle, Rights};
pub use fen::{FenError, IllegalPosition, PositionError, without_field};
pub use file_index::{FileIndex, FileIndexError};
pub use game::{Endgame, FIFTY_MOVES, Metric, Zugzwangs};
pub use index::{Layout, Settled, Walk};
pub use material::{MAX_PIECES, Material, PROMOTIONS};
pub use pawns::{PawnSlots, Pawns, Placements};
pub use piece::{Color, Piece, Role};
pub use square::{Square, SquareError};
pub use stored::Stored;

use crate::Game;
use crate::capability::{Capabilities, Check, Solver};
use crate::game::GameError;
use crate::spec::{Entry, Extras, OptionSpec, Scope, Spec, Values};

/// The refusal of the FEN `text` for the reason `why`, in the tools' words.
pub(crate) fn refused<E: std::fmt::Display>(text: &str) -> impl FnOnce(E) -> GameError + '_ {
    move |why| GameError::position(text, why.to_string())
}

/// The registry entry of chess endings.
pub static SPEC: Spec<Endgame> = Spec {
    entry: Entry {
        id: "chess",
        extras: Extras::NONE,
        about: "Chess endings of up to 5 pieces with pawns, 6 without: distance to mate, or to the next capture or pawn move under the 50-move rule (metric: dtz), for every position",
        notation: "a FEN without castling rights, an en passant square where a capture uses it: \
                   8/8/8/4k3/8/8/4P3/4K3 w - - 0 1; moves in SAN (e4, e8=Q) or UCI (e2e4, e7e8q)",
        options: &[
            OptionSpec {
                name: "materials",
                help: "endings to make, e.g. KRPvKR, each with every ending its captures and promotions lead to",
                scope: Scope::Tables,
                values: Values::Text("MATERIAL, e.g. KQvKR"),
                default: None,
                positional: true,
            },
            OptionSpec {
                name: "all",
                help: "every ending of up to this many pieces, pawns included",
                scope: Scope::Tables,
                values: Values::Range(3, MAX_PIECES as u64),
                default: None,
                positional: false,
            },
            OptionSpec {
                name: "metric",
                help: "what the tables count: dtm, plies to mate; dtz, plies to the next capture or pawn move under the 50-move rule (Syzygy's DTZ50'')",
                scope: Scope::Measure,
                values: Values::Choice(&["dtm", "dtz"]),
                default: Some("dtm"),
                positional: false,
            },
            OptionSpec {
                name: "pawnless",
                help: "with --all, only the endings without pawns",
                scope: Scope::Tables,
                values: Values::Flag,
                default: Some("no"),
                positional: false,
            },
        ],
        all: &[&[("materials", "KQvKR,KPvK"), ("metric", "dtm,dtz")]],
    },
    build: Endgame::from_options,
    capabilities: |game| Capabilities {
        drawing: Some(game),
        aliases: Some(game),
        // Mate in n moves: DTM only (a DTZ distance counts plies to zeroing).
        units: (game.metric() == Metric::Dtm).then_some(game),
        notes: Some(game),
        picture: Some(game),
        wording: Some(game),
        record: Some(game),
        editing: Some(game),
        clock: Some(game),
        // A WDL50 table is checked against the DTZ table it is made from: a
        // quiet move can turn a win in 100 plies into a blessed loss, so its
        // categories alone do not follow from its moves'.
        ..Capabilities::new(
            Solver::Dedicated,
            match game.metric() {
                Metric::Dtm => vec![Check::Consistency, Check::MateSearch { plies: 7 }],
                Metric::Dtz => vec![Check::Consistency, Check::MateBound { plies: 7 }],
                Metric::Wdl => Vec::new(),
            },
        )
    },
    generate_options: |game, tier| vec![("materials", game.tier_name(tier))],
};
