//! What every handler reads ([`AppState`]: the tables, counters and limits) and
//! how an answer's work is run under them: a permit each, a watch that stops
//! the work when its request is gone, off the async workers or on them while
//! its lane is quick, whole or streamed.

use super::quick::{Lane, Lanes, Pace};
use super::respond::ServeError;
use crate::QueryError;
use crate::cancel::Watch;
use crate::library::Library;
use crate::metrics::Metrics;
use axum::body::Body;
use axum::http::HeaderValue;
use cpu_time::ThreadTime;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many pieces of a streamed answer are made ahead of its client.
const STREAM_AHEAD: usize = 64;

/// How the server protects itself.
#[derive(Debug, Clone)]
pub struct Limits {
    /// A client must send a request's head within this time.
    pub header_timeout: Duration,
    /// A request must be answered within this time (408 otherwise).
    pub request_timeout: Duration,
    /// After SIGTERM or SIGINT, open connections may finish for this long.
    pub drain_timeout: Duration,
    /// Probes answered at once; more are refused with 503 and Retry-After.
    pub max_probes: usize,
    /// Connections open at once; a new one closes the oldest beyond this.
    pub max_connections: usize,
    /// The longest position (and request line) accepted, in bytes.
    pub max_position: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// An origin allowed to call the API from a browser (CORS), if any.
    pub cors: Option<HeaderValue>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            drain_timeout: Duration::from_secs(10),
            max_probes: 256,
            max_connections: 4096,
            max_position: 8 << 10,
            max_body: 1 << 20,
            cors: None,
        }
    }
}

/// What every handler reads: one [`Shared`], whose handle each request copies.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The server's tables, counters and limits.
#[derive(Debug)]
pub struct Shared {
    pub library: Library,
    pub metrics: Metrics,
    /// The longest value of a request, in bytes.
    pub max_position: usize,
    /// The longest request body, in bytes.
    pub max_body: usize,
    /// How long an answer's work may run.
    pub answer_time: Duration,
    /// A permit for each answer whose work may run at once; a permit is held
    /// until the work stops, also when its request is gone.
    pub probes: Arc<Semaphore>,
    /// How many permits there are.
    pub max_probes: usize,
    /// Which answers run on the async workers ([`super::quick`]).
    pub lanes: Lanes,
}

impl AppState {
    /// The state of a server with these tables, limits and counters.
    pub fn new(library: Library, limits: &Limits, metrics: Metrics) -> Self {
        AppState(Arc::new(Shared {
            library,
            metrics,
            max_position: limits.max_position,
            max_body: limits.max_body,
            answer_time: limits.request_timeout,
            probes: Arc::new(Semaphore::new(limits.max_probes)),
            max_probes: limits.max_probes,
            lanes: Lanes::default(),
        }))
    }

    /// A permit to run an answer's work, or 503 when all are taken.
    fn permit(&self) -> Result<OwnedSemaphorePermit, ServeError> {
        Arc::clone(&self.probes)
            .try_acquire_owned()
            .map_err(|_| ServeError::Busy)
    }

    /// Runs `work` off the async workers (answers read table blocks from disk)
    /// under a watch: when this future is dropped (the request timed out, or
    /// its client left) the work stops at its next checkpoint, and holds its
    /// permit until then.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Library) -> Result<T, QueryError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let permit = self.permit()?;
        let (watch, _leash) = Watch::new(self.answer_time);
        let library = self.library.clone();
        let dir = library.dir.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            watch.run(|| work(&library))
        });
        let answer = answer
            .await
            .map_err(|e| QueryError::Internal(format!("a worker failed: {e}")))?;
        Ok(answer.map_err(|e| e.within(&dir))?)
    }

    /// Runs `work` as [`AppState::run`] does, but on this async worker while
    /// its `lane`'s answers are quick ([`super::quick`]): a probe of a table
    /// costs less than the two thread switches to the blocking pool and back.
    pub async fn quick<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce(&Library) -> Result<T, QueryError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let Pace::Quick { measure } = self.lanes.pace(lane) else {
            return self.run(work).await;
        };
        let _permit = self.permit()?;
        let (watch, _leash) = Watch::new(self.answer_time);
        let (wall, processor) = (Instant::now(), measure.then(ThreadTime::now));
        let library = &self.library;
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| watch.run(|| work(library))));
        let work = processor.map(|processor| processor.elapsed());
        self.lanes.took(lane, work, wall.elapsed());
        let answer = answer.map_err(|_| QueryError::Internal("an answer failed".into()))?;
        Ok(answer.map_err(|e| e.within(&library.dir))?)
    }

    /// A body made by `work` as it goes: each piece is sent a few ahead of
    /// the client; the work stops when the client stops reading for the rest of
    /// the answer's time, or goes away (the body dropped), or the time is over.
    pub fn stream(
        &self,
        work: impl FnOnce(&Library, &mut dyn FnMut(String) -> bool) + Send + 'static,
    ) -> Result<Body, ServeError> {
        let permit = self.permit()?;
        let (watch, leash) = Watch::new(self.answer_time);
        let (sender, receiver) = tokio::sync::mpsc::channel::<String>(STREAM_AHEAD);
        let library = self.library.clone();
        let runtime = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let deadline = tokio::time::Instant::from_std(watch.deadline());
            let mut send = |piece: String| {
                let sent = tokio::time::timeout_at(deadline, sender.send(piece));
                matches!(runtime.block_on(sent), Ok(Ok(())))
            };
            watch.run(|| work(&library, &mut send));
        });
        // The leash goes with the body: dropped with it when the client leaves.
        let pieces =
            futures_util::stream::unfold((receiver, leash), |(mut receiver, leash)| async {
                let piece = receiver.recv().await?;
                Some((Ok::<_, std::convert::Infallible>(piece), (receiver, leash)))
            });
        Ok(Body::from_stream(pieces))
    }
}
