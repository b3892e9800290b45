//! Stopping work whose request is gone. The server runs each request's work
//! under a [`Watch`]: once the request has timed out, or its client has gone
//! away, or the server has stopped waiting for it, the long loops of answering
//! (a batch's lines, a line's plies, a mainline's moves) stop at their next
//! [`checkpoint`] with [`QueryError::Cancelled`], one probe later. Work run
//! without a watch (the command line) never stops early.

use crate::QueryError;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether a request's work should go on: not once its request is dropped, nor
/// past its time.
#[derive(Debug, Clone)]
pub struct Watch {
    dropped: Arc<AtomicBool>,
    started: Instant,
    time: Duration,
}

/// Held by the request while its work runs; dropping it (the request answered,
/// timed out or abandoned) tells the work to stop.
#[derive(Debug)]
pub struct Leash(Arc<AtomicBool>);

impl Drop for Leash {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

thread_local! {
    /// The watch of the work running on this thread, if any.
    static CURRENT: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Puts the thread's previous watch back, also when the work panics (the
/// server's worker threads are reused).
struct Restore(Option<Watch>);

impl Drop for Restore {
    fn drop(&mut self) {
        CURRENT.set(self.0.take());
    }
}

impl Watch {
    /// A watch for work given `time`, and the leash that stops it early.
    pub fn new(time: Duration) -> (Watch, Leash) {
        let dropped = Arc::new(AtomicBool::new(false));
        let watch = Watch {
            dropped: Arc::clone(&dropped),
            started: Instant::now(),
            time,
        };
        (watch, Leash(dropped))
    }

    /// When the work's time is over.
    pub fn deadline(&self) -> Instant {
        self.started + self.time
    }

    /// Why the work should stop, if it should.
    pub fn stop(&self) -> Option<QueryError> {
        if self.dropped.load(Ordering::Relaxed) {
            return Some(QueryError::Cancelled(
                "the request was abandoned or timed out".into(),
            ));
        }
        (self.started.elapsed() >= self.time).then(|| {
            QueryError::Cancelled(format!(
                "the answer takes longer than the server's {} s",
                self.time.as_secs_f64()
            ))
        })
    }

    /// Runs `work` on this thread under this watch, for [`checkpoint`].
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        let _restore = Restore(CURRENT.replace(Some(self.clone())));
        work()
    }
}

/// An error when the work running on this thread should stop (see [`Watch`]).
pub fn checkpoint() -> Result<(), QueryError> {
    CURRENT.with_borrow(|watch| match watch.as_ref().and_then(Watch::stop) {
        Some(stop) => Err(stop),
        None => Ok(()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_stops_when_its_leash_is_dropped_or_its_time_is_over() {
        assert!(checkpoint().is_ok(), "no watch: never stops");
        let (watch, leash) = Watch::new(Duration::from_secs(60));
        watch.run(|| assert!(checkpoint().is_ok()));
        drop(leash);
        watch.run(|| {
            let stop = checkpoint().unwrap_err();
            assert!(stop.to_string().contains("abandoned"), "{stop}");
        });
        assert!(checkpoint().is_ok(), "the watch is the work's only");
        let (late, _leash) = Watch::new(Duration::ZERO);
        let stop = late.run(checkpoint).unwrap_err();
        assert!(stop.to_string().contains("longer than the server's 0 s"));
    }

    #[test]
    fn a_panic_in_the_work_leaves_the_thread_without_a_watch() {
        let (watch, leash) = Watch::new(Duration::from_secs(60));
        drop(leash);
        let outcome = std::panic::catch_unwind(|| watch.run(|| panic!("a bug")));
        assert!(outcome.is_err());
        assert!(checkpoint().is_ok());
    }
}
