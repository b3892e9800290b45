//! Which answers run on the async worker that read their request. Handing an
//! answer to the blocking pool and back costs two thread switches, more than a
//! whole probe of a chess table (about 10 µs); but an answer run on an async
//! worker holds up every connection of that worker until it is done, and some
//! answers of some games take up to the answer's time (a formula over Moore's
//! Nim's many heaps). So each lane (a route and its game) starts quick, and an
//! answer of it that takes longer than [`QUICK`] of its thread's processor time
//! (not the wall clock's, which counts the time other threads of a busy machine
//! ran), or waits longer than [`STALLED`] in all (reading a table from a slow
//! disk), sends its lane to the blocking pool for [`HOLD`] times as long: slow
//! answers hold an async worker at most about a thousandth of the time, per
//! lane.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

/// The longest answer a lane may take and stay on the async workers.
pub const QUICK: Duration = Duration::from_millis(2);

/// The longest an answer may take by the wall clock and stay on the async
/// workers: far longer than a busy machine keeps a thread from running.
pub const STALLED: Duration = Duration::from_millis(20);

/// How many times as long as its slow answer took a lane answers on the
/// blocking pool.
pub const HOLD: u32 = 1000;

/// A route's name and the registry's id of its game (empty for routes of no
/// game): `'static`, so there are at most as many lanes as routes times games.
pub type Lane = (&'static str, &'static str);

/// Until when each lane whose answer was slow answers on the blocking pool.
#[derive(Debug, Default)]
pub struct Lanes {
    slow: RwLock<HashMap<Lane, Instant>>,
}

impl Lanes {
    /// Whether `lane`'s answers run on the async worker now.
    pub fn is_quick(&self, lane: Lane) -> bool {
        let slow = self.slow.read().unwrap_or_else(|e| e.into_inner());
        slow.get(&lane).is_none_or(|&until| Instant::now() >= until)
    }

    /// Records that an answer of `lane` on an async worker took `work` of its
    /// processor time and `wall` in all.
    pub fn took(&self, lane: Lane, work: Duration, wall: Duration) {
        let hold = if work > QUICK {
            work * HOLD
        } else if wall > STALLED {
            wall * HOLD
        } else {
            return;
        };
        let mut slow = self.slow.write().unwrap_or_else(|e| e.into_inner());
        slow.insert(lane, Instant::now() + hold);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_answer_sends_its_lane_and_only_it_to_the_blocking_pool() {
        let lanes = Lanes::default();
        let (chess, moore) = (("probe", "chess"), ("probe", "moore"));
        let ms = Duration::from_millis;
        assert!(lanes.is_quick(chess));
        lanes.took(chess, QUICK, STALLED);
        assert!(lanes.is_quick(chess), "QUICK and STALLED are still quick");
        lanes.took(moore, QUICK + Duration::from_micros(1), ms(3));
        assert!(!lanes.is_quick(moore));
        assert!(lanes.is_quick(chess));
        assert!(
            lanes.is_quick(("view", "moore")),
            "another route of the game"
        );
        lanes.took(chess, ms(1), STALLED + ms(1));
        assert!(
            !lanes.is_quick(chess),
            "waited on a disk for 21 ms: 21 s away"
        );
        lanes.took(moore, QUICK + Duration::from_nanos(1), ms(3));
        std::thread::sleep((QUICK + Duration::from_nanos(1)) * HOLD);
        assert!(lanes.is_quick(moore), "once the hold is over");
    }
}
