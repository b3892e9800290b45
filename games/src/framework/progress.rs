//! Progress on standard error: a bar on a terminal; elsewhere (a log file, a
//! pipe) a line when a phase starts and every few seconds while it runs, so a
//! long run is never silent; nothing at all for tests and benchmarks.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    /// Not on a terminal: when lines were last written.
    lines: Option<Lines>,
}

/// When a line was last written, in milliseconds since `started` (plus one:
/// zero is "never"), and whether the work has changed since.
#[derive(Debug)]
struct Lines {
    started: Instant,
    last: AtomicU64,
    fresh: AtomicBool,
}

/// A phase's start is written at most this often, but the first phase of
/// each thing worked on always is: a run of many small tables says which it
/// is at, not each of their phases.
const START_EVERY: Duration = Duration::from_secs(1);

/// While a phase runs, a line at most this often.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl Lines {
    /// Whether a line is due, `every` after the last (the first always is);
    /// if so, it is taken: one thread of many writes it.
    fn due(&self, every: Duration) -> bool {
        let now = self.started.elapsed().as_millis() as u64 + 1;
        let last = self.last.load(Ordering::Relaxed);
        let due = last == 0 || now.saturating_sub(last) >= every.as_millis() as u64;
        if self.fresh.swap(false, Ordering::Relaxed) {
            self.last.store(now, Ordering::Relaxed);
            return true;
        }
        due && self
            .last
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }
}

impl Progress {
    /// A bar drawn on standard error when it is a terminal; lines otherwise.
    pub fn terminal() -> Self {
        match std::io::stderr().is_terminal() {
            true => Progress {
                bar: ProgressBar::new(0),
                lines: None,
            },
            false => Progress {
                bar: ProgressBar::hidden(),
                lines: Some(Lines {
                    started: Instant::now(),
                    last: AtomicU64::new(0),
                    fresh: AtomicBool::new(false),
                }),
            },
        }
    }

    /// Nothing drawn or written (tests, benchmarks).
    pub fn hidden() -> Self {
        Progress {
            bar: ProgressBar::hidden(),
            lines: None,
        }
    }

    /// What the phases that follow work on, e.g. `chess dtz KRBvKR`.
    pub fn working_on(&self, what: &str) {
        if let Some(lines) = &self.lines {
            lines.fresh.store(true, Ordering::Relaxed);
        }
        self.bar.set_prefix(what.to_string());
    }

    pub fn start(&self, what: &str, steps: u64) {
        self.bar.set_style(
            ProgressStyle::with_template("{prefix} {msg:>12} [{bar:40}] {pos}/{len} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        self.bar.set_message(what.to_string());
        self.bar.set_length(steps);
        self.bar.set_position(0);
        self.bar.reset_elapsed();
        self.line(START_EVERY);
    }

    pub fn advance(&self, steps: u64) {
        self.bar.inc(steps);
        self.line(LINE_EVERY);
    }

    /// A line that stays: above the bar on a terminal, on standard error
    /// otherwise (nothing when hidden).
    pub fn note(&self, text: &str) {
        match &self.lines {
            Some(_) => eprintln!("{text}"),
            None => self.bar.println(text),
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Where lines are written and one is due, the phase and how far it is.
    fn line(&self, every: Duration) {
        let Some(lines) = &self.lines else { return };
        if !lines.due(every) {
            return;
        }
        let (position, length) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let done = match length {
            0 => format!("{position}"),
            _ => format!("{position}/{length} ({}%)", position * 100 / length),
        };
        let what = [self.bar.prefix(), self.bar.message()].join(" ");
        let elapsed = self.bar.elapsed().as_secs_f64();
        eprintln!("{}: {done}, {elapsed:.0} s", what.trim());
    }
}
