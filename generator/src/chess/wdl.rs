//! WDL50 tables: each DTZ table's values as their categories (a win, a cursed
//! win, a draw, a blessed loss, a loss), written beside it from its final
//! codes, as Syzygy's generator writes its `.rtbw` beside its `.rtbz`. A few
//! codes a table, so a few bits a position; what an engine probes, and the
//! category a DTZ probe needs without its distance.

use crate::output::{Summary, WriteOptions, sound_with_exits, table_path, write_final};
use crate::progress::Progress;
use crate::tier_codes::TierCodes;
use games::capability::TableNotes;
use games::chess::{Endgame, Metric};
use games::{Game, Value};
use std::path::Path;
use std::time::{Duration, Instant};
use tables::Exits;

/// The WDL50 game of the DTZ endings `dtz`, where they are DTZ's.
pub(crate) fn of(dtz: &Endgame) -> Option<Endgame> {
    (dtz.metric() == Metric::Dtz).then(|| dtz.clone().with_metric(Metric::Wdl))
}

/// Writes `tier`'s WDL50 table of `wdl` from its DTZ table's final `codes`,
/// its exits left where `decided` says a capture or a promotion gives a
/// slot's DTZ value (it gives its category then too); returns its summary.
pub(crate) fn write(
    wdl: &Endgame,
    tier: u32,
    codes: &dyn TierCodes,
    decided: &[u64],
    write: &WriteOptions,
) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let category = categories(wdl);
    // One side to move searched would read categories through quiet moves,
    // which do not keep them: a WDL50 table stores both.
    let write = WriteOptions {
        one_side: false,
        ..write.clone()
    };
    let mut summary = match codes.held() {
        Some(held) => {
            let code = |slot| category[usize::from(held.get(slot))];
            write_coded(wdl, tier, &code, decided, &write)
        }
        None => {
            let code = |slot| category[usize::from(codes.code(slot))];
            write_coded(wdl, tier, &code, decided, &write)
        }
    }?;
    // Its making is its writing: the summary says how long that took.
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// [`write`] of the categories `code` gives, with their notes.
fn write_coded(
    wdl: &Endgame,
    tier: u32,
    code: &(impl Fn(u64) -> u16 + Sync),
    decided: &[u64],
    write: &WriteOptions,
) -> anyhow::Result<Summary> {
    let notes = wdl.notes(tier, code);
    write_final(wdl, tier, code, decided, Duration::ZERO, write, notes)
}

/// The WDL50 code of every DTZ code ([`Metric::wdl50`]); a code of no value
/// (no position) stays as it is.
fn categories(wdl: &Endgame) -> Vec<u16> {
    let kind = wdl.value_kind();
    (0..=u16::MAX)
        .map(|code| Value::from_code(kind, code).map_or(code, |v| Metric::wdl50(v).code()))
        .collect()
}

/// Removes each finished DTZ table of `dtz` in `dir` whose WDL50 table is
/// not there whole (removed, damaged, or tables made before WDL50 tables
/// were), so that the run makes both again, saying so, rather than keep a
/// DTZ table with no categories beside it. A draft (which stores every value
/// and leaves none to a table beside) waits for its WDL50 table.
pub(crate) fn remake_unpaired(
    dtz: &Endgame,
    dir: &Path,
    progress: &Progress,
) -> anyhow::Result<()> {
    let Some(wdl) = of(dtz) else {
        return Ok(());
    };
    for tier in dtz.tiers() {
        let path = table_path(dtz, tier, dir);
        // One that leaves its draws to a WDL50 table gone does not open.
        let finished = sound_with_exits(dtz, tier, dir) != Some(Exits::Stored);
        if path.exists() && finished && sound_with_exits(&wdl, tier, dir).is_none() {
            progress.note(&format!(
                "{}: made again, with the WDL50 table it has none of",
                path.display()
            ));
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}
