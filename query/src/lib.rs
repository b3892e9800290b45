//! `tbquery`'s library: probing tables with every move valued, perfect play,
//! verification against live search, table listings and the HTTP server.

pub mod abapa;
pub mod api;
pub mod error;
pub mod formula;
pub mod info;
pub mod play;
pub mod probe;
pub mod sequences;
pub mod serve;
pub mod tablebase;
pub mod verify;

pub use error::QueryError;
pub use probe::{Probe, probe, probe_text};
pub use tablebase::{TableCache, Tablebase};
