//! What every handler reads ([`AppState`]: the tables, counters and limits) and
//! how an answer's work is run under them: a permit each, a watch that stops
//! the work when its request is gone, off the async workers or on them while
//! its lane is quick, whole or streamed.

use super::outbox::{Charge, Outbox};
use super::quick::{Lane, Lanes, Pace};
use super::respond::ServeError;
use super::share::{Share, Shares, current_peer};
use crate::QueryError;
use crate::cancel::{Watch, checkpoint};
use crate::library::Library;
use crate::metrics::Metrics;
use axum::body::Body;
use axum::http::HeaderValue;
use cpu_time::ThreadTime;
use games::Options;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many pieces of a streamed answer are made at a time.
const STREAM_FEW: usize = 16;

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
    /// Answers one client address may have under way at once
    /// ([`super::share`]); more are refused with 503 and Retry-After.
    pub max_per_address: usize,
    /// Connections open at once; beyond this a new one closes an idle one,
    /// or the newest of the address that holds the most.
    pub max_connections: usize,
    /// A client that takes nothing of its answer for this long is cut off.
    pub write_timeout: Duration,
    /// The most memory whole answers waiting for their readers may hold, in
    /// bytes; beyond it answers are refused with 503.
    pub max_waiting: usize,
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
            max_per_address: 64,
            max_connections: 4096,
            write_timeout: Duration::from_secs(10),
            max_waiting: 64 << 20,
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
    /// The memory of the answers waiting for their readers.
    pub outbox: Arc<Outbox>,
    /// Each client address's share of the answers under way.
    pub shares: Arc<Shares>,
}

/// What an answer's work runs under: a permit, and where the client's address
/// is known, its place in that address's share.
#[derive(Debug)]
pub struct Permit {
    permit: OwnedSemaphorePermit,
    share: Option<Share>,
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
            outbox: Outbox::new(limits.max_waiting),
            shares: Shares::new(limits.max_per_address),
        }))
    }

    /// A permit to run an answer's work, or 503 when all are taken or the
    /// client's address has its share under way.
    fn permit(&self) -> Result<Permit, ServeError> {
        let share = match current_peer() {
            Some(peer) => Some(self.shares.take(peer).ok_or(ServeError::OwnShare {
                most: self.shares.most(),
            })?),
            None => None,
        };
        let permit = Arc::clone(&self.probes)
            .try_acquire_owned()
            .map_err(|_| ServeError::Busy)?;
        Ok(Permit { permit, share })
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

    /// What an answer about `text` of `game` with `options` weighs where a
    /// formula answers it ([`crate::GameHandle::weight`]): read from the
    /// game's kept handle, the position parsed (at most the longest position
    /// the server takes); the most where the game is not built yet, which is
    /// then built off the async workers.
    pub fn weight(&self, game: &str, options: &Options, text: &str) -> Option<u64> {
        match self.library.kept(game, options) {
            Some(handle) => handle.weight(&self.library, text),
            None => Some(u64::MAX),
        }
    }

    /// `bytes` of the answers' memory budget for an answer while it is made,
    /// or 503 where the answers waiting hold too much to start one.
    pub fn reserve(&self, bytes: usize) -> Result<Charge, ServeError> {
        let limit = self.outbox.limit();
        self.outbox
            .charge(bytes)
            .ok_or(ServeError::Crowded { limit })
    }

    /// Runs `work` as [`AppState::run`] does, but on this async worker while
    /// its `lane`'s answers are quick ([`super::quick`]) and the answer is
    /// `light` (a formula's weight at most [`super::quick::QUICK_WEIGHT`]): a
    /// probe of a table costs less than the two thread switches to the
    /// blocking pool and back.
    pub async fn quick<T: Send + 'static>(
        &self,
        lane: Lane,
        light: bool,
        work: impl FnOnce(&Library) -> Result<T, QueryError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let (true, Pace::Quick { measure }) = (light, self.lanes.pace(lane)) else {
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

    /// A body made a few pieces at a time as its client reads, each few on
    /// the blocking pool under a permit: `next` makes the next piece from
    /// `state` (`None`: the answer is whole). A client that stops reading
    /// holds no thread and no permit, only `state`, until the write deadline
    /// cuts it off (the body dropped, as when the client goes away). When the
    /// answer's time is over, the last piece is what `stopped` says of it.
    /// The first permit is taken now (503 when none is left); later ones are
    /// waited for.
    pub fn stream<S: Send + 'static>(
        &self,
        state: S,
        next: impl Fn(&Library, &mut S) -> Option<String> + Send + Sync + 'static,
        stopped: impl Fn(&QueryError) -> String + Send + Sync + 'static,
    ) -> Result<Body, ServeError> {
        let Permit {
            permit: first,
            share,
        } = self.permit()?;
        let (watch, leash) = Watch::new(self.answer_time);
        let deadline = tokio::time::Instant::from_std(watch.deadline());
        let made = Arc::new(Making {
            library: self.library.clone(),
            watch,
            next,
            stopped,
        });
        let probes = Arc::clone(&self.probes);
        // The leash and the share go with the body: dropped with it when the
        // client leaves.
        let start = (Some(state), Some(first), (leash, share));
        let pieces = futures_util::stream::unfold(start, move |(state, permit, held)| {
            let (made, probes) = (Arc::clone(&made), Arc::clone(&probes));
            async move {
                let state = state?;
                let permit = match permit {
                    Some(permit) => Some(permit),
                    None => tokio::time::timeout_at(deadline, probes.acquire_owned())
                        .await
                        .ok()
                        .and_then(Result::ok),
                };
                // The answer's time ran out waiting for a permit.
                let Some(permit) = permit else {
                    let last = made.watch.stop().map(|stop| (made.stopped)(&stop));
                    return Some((Ok(last.unwrap_or_default()), (None, None, held)));
                };
                let (state, text) = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    made.few(state)
                })
                .await
                .ok()?;
                Some((Ok::<_, std::convert::Infallible>(text), (state, None, held)))
            }
        });
        Ok(Body::from_stream(pieces))
    }
}

/// What a streamed answer's pieces are made with.
struct Making<N, F> {
    library: Library,
    watch: Watch,
    next: N,
    stopped: F,
}

impl<N, F> Making<N, F> {
    /// The next [`STREAM_FEW`] pieces made from `state` as one text, and the
    /// state to go on from (`None`: the answer is whole, or stopped).
    fn few<S>(&self, mut state: S) -> (Option<S>, String)
    where
        N: Fn(&Library, &mut S) -> Option<String>,
        F: Fn(&QueryError) -> String,
    {
        let mut text = String::new();
        let whole = self.watch.run(|| {
            for _ in 0..STREAM_FEW {
                if let Err(stop) = checkpoint() {
                    text.push_str(&(self.stopped)(&stop));
                    return true;
                }
                match (self.next)(&self.library, &mut state) {
                    Some(piece) => text.push_str(&piece),
                    None => return true,
                }
            }
            false
        });
        ((!whole).then_some(state), text)
    }
}
