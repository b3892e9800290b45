//! A progress bar on a terminal; nothing at all otherwise (indicatif hides it).

use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar drawn on standard error when it is a terminal.
    pub fn terminal() -> Self {
        Progress {
            bar: ProgressBar::new(0),
        }
    }

    /// A bar that never draws (tests, benchmarks).
    pub fn hidden() -> Self {
        Progress {
            bar: ProgressBar::hidden(),
        }
    }

    pub fn start(&self, what: &str, steps: u64) {
        self.bar.set_style(
            ProgressStyle::with_template("{msg:>20} [{bar:40}] {pos}/{len} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        self.bar.set_message(what.to_string());
        self.bar.set_length(steps);
        self.bar.set_position(0);
        self.bar.reset_elapsed();
    }

    pub fn advance(&self, steps: u64) {
        self.bar.inc(steps);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
