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
//!
//! Reading a thread's processor time is a system call, a tenth of a quick
//! answer's cost, so it is read only where the wall clock leaves a doubt: an
//! answer that took longer than [`QUICK`] by the wall clock (slow, or only
//! preempted) has the next answer of its lane measured.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

/// The most an answer by a formula may weigh and run on the async workers
/// ([`games::capability::ClosedForm::weight`]), whatever its lane: about a
/// millisecond of work. A formula's work grows with the position, and the
/// weight is known before it starts, where the time is only known after.
pub const QUICK_WEIGHT: u64 = 20_000;

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

/// Where the next answer of a lane runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// On the async worker; `measure`: with its processor time read.
    Quick { measure: bool },
    /// On the blocking pool.
    Held,
}

/// What is known of a lane that is not simply quick.
#[derive(Debug, Clone, Copy)]
enum Mark {
    /// An answer took longer than [`QUICK`] by the wall clock only.
    Doubt,
    /// Answers run on the blocking pool until then.
    Held(Instant),
}

/// The lanes that are not simply quick.
#[derive(Debug, Default)]
pub struct Lanes {
    marks: RwLock<HashMap<Lane, Mark>>,
}

impl Lanes {
    /// Where `lane`'s next answer runs.
    pub fn pace(&self, lane: Lane) -> Pace {
        let marks = self.marks.read().unwrap_or_else(|e| e.into_inner());
        match marks.get(&lane) {
            None => Pace::Quick { measure: false },
            Some(Mark::Held(until)) if Instant::now() < *until => Pace::Held,
            Some(_) => Pace::Quick { measure: true },
        }
    }

    /// Records that an answer of `lane` on an async worker took `wall` in all,
    /// and `work` of its processor time where that was measured.
    pub fn took(&self, lane: Lane, work: Option<Duration>, wall: Duration) {
        let mark = match work {
            Some(work) if work > QUICK => Some(Mark::Held(Instant::now() + work * HOLD)),
            _ if wall > STALLED => Some(Mark::Held(Instant::now() + wall * HOLD)),
            Some(_) => None,
            None if wall > QUICK => Some(Mark::Doubt),
            None => return,
        };
        let mut marks = self.marks.write().unwrap_or_else(|e| e.into_inner());
        match mark {
            Some(mark) => marks.insert(lane, mark),
            None => marks.remove(&lane),
        };
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
        let (quick, measured) = (
            Pace::Quick { measure: false },
            Pace::Quick { measure: true },
        );
        assert_eq!(lanes.pace(chess), quick);
        lanes.took(chess, Some(QUICK), STALLED);
        assert_eq!(
            lanes.pace(chess),
            quick,
            "QUICK and STALLED are still quick"
        );
        lanes.took(moore, Some(QUICK + Duration::from_micros(1)), ms(3));
        assert_eq!(lanes.pace(moore), Pace::Held);
        assert_eq!(lanes.pace(chess), quick);
        assert_eq!(
            lanes.pace(("view", "moore")),
            quick,
            "another route of the game"
        );
        lanes.took(chess, None, STALLED + ms(1));
        assert_eq!(
            lanes.pace(chess),
            Pace::Held,
            "waited on a disk for 21 ms: 21 s away"
        );
        lanes.took(moore, Some(QUICK + Duration::from_nanos(1)), ms(3));
        std::thread::sleep((QUICK + Duration::from_nanos(1)) * HOLD);
        assert_eq!(
            lanes.pace(moore),
            measured,
            "once the hold is over, measured"
        );
        lanes.took(moore, Some(ms(1)), ms(1));
        assert_eq!(lanes.pace(moore), quick, "and quick again");
    }

    #[test]
    fn a_doubt_of_the_wall_clock_has_the_next_answer_measured() {
        let lanes = Lanes::default();
        let euler = ("probe", "euler");
        let ms = Duration::from_millis;
        lanes.took(euler, None, ms(3));
        assert_eq!(
            lanes.pace(euler),
            Pace::Quick { measure: true },
            "slow, or preempted?"
        );
        lanes.took(euler, Some(ms(1)), ms(3));
        assert_eq!(
            lanes.pace(euler),
            Pace::Quick { measure: false },
            "preempted"
        );
        lanes.took(euler, None, ms(3));
        lanes.took(euler, Some(ms(3)), ms(3));
        assert_eq!(lanes.pace(euler), Pace::Held, "slow");
    }
}
