//! `tbquery`'s library: exact answers from tables, formulas and on-demand solvers
//! with every move valued, perfect play, verification against live search, table
//! listings and the HTTP server. Every answer is a type of [`answer`].

pub mod answer;
pub mod api;
pub mod cancel;
pub mod check;
pub mod computer;
pub mod engine;
pub mod error;
pub mod exact;
pub mod files;
pub mod handle;
pub mod info;
pub mod library;
pub mod lichess;
pub mod lines;
pub mod metrics;
pub mod oracle;
pub mod play;
pub mod probe;
pub mod render;
pub mod serve;
pub mod tablebase;
pub mod verify;
pub mod view;

pub use error::QueryError;
pub use handle::GameHandle;
pub use library::Library;
pub use oracle::{Known, Oracle};
pub use probe::{Probe, probe, probe_text};
pub use tablebase::{TableCache, Tablebase};
