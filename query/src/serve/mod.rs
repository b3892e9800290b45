//! The HTTP server: the same JSON as `probe --json`, a page to try it, and
//! `/metrics`. It is built to stay up under hostile clients: a client must send
//! its request head within a time limit and take its answer within another,
//! positions and bodies are bounded, a cap on concurrent probes and a budget
//! for answers waiting for their readers answer 503 with Retry-After when full,
//! a formula's costly answer is weighed before it starts, and when the
//! connection cap is reached an idle connection is closed to make room, so
//! clients that trickle bytes cannot starve the ones that ask and go. SIGTERM
//! and SIGINT stop it gracefully within a drain time.
//!
//! [`server`] holds the connections, [`deadline`] their write deadline,
//! [`state`] the limits and what every handler reads, [`routes`] the handlers,
//! [`request`] what each route is asked, [`respond`] how errors are answered,
//! [`outbox`] the memory of answers waiting, [`share`] each client's share
//! of the answers under way, [`quick`] which answers run on the async
//! workers and [`batch`] the batch endpoint.

pub mod batch;
pub mod deadline;
pub mod outbox;
pub mod quick;
pub mod request;
pub mod respond;
pub mod routes;
pub mod server;
pub mod share;
pub mod state;

pub use respond::ServeError;
pub use routes::{app, router};
pub use server::{serve, shutdown_signal};
pub use state::{AppState, Limits};
