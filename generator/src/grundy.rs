//! Grundy-value tables of heap games: slot `n` holds the value of a heap of `n`,
//! stored as `value + 1` (0 marks no position, as in every table).

use crate::output::{Summary, WriteOptions};
use games::grundy::{GRUNDY_ENCODING, HeapGame, ultimate_period};
use std::time::Instant;
use tables::{DEFAULT_BLOCK_ENTRIES, Header, Stats, file_name, write_table};

/// The largest heap of a Lasker's Nim table: its values grow with the heap (about
/// `n`) and must fit the 16-bit codes; its closed formula covers the rest.
pub const LASKER_LIMIT: u64 = 65_000;

/// Computes the Grundy values of heaps `0..=limit` (Lasker's Nim: at most
/// `LASKER_LIMIT`) and writes them as a table.
pub fn generate_grundy(
    game: HeapGame,
    limit: u64,
    options: &WriteOptions,
) -> anyhow::Result<Summary> {
    let limit = match game {
        HeapGame::Lasker => limit.min(LASKER_LIMIT),
        _ => limit,
    };
    let started = Instant::now();
    let values = game.sequence(limit);
    let elapsed = started.elapsed();
    let codes = values
        .iter()
        .map(|&v| u16::try_from(v + 1).ok().filter(|&c| c < u16::MAX))
        .collect::<Option<Vec<u16>>>()
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--limit {limit}: {} values outgrow the 16-bit table codes",
                game.id()
            )
        })?;
    let losses = values.iter().filter(|&&v| v == 0).count() as u64;
    let mut extra = vec![("limit".to_string(), limit.to_string())];
    if let Some((start, period)) = ultimate_period(&values) {
        extra.push(("period".into(), format!("{period} from {start}")));
    }
    let stats = Stats {
        positions: values.len() as u64,
        wins: values.len() as u64 - losses,
        losses,
        draws: 0,
        longest: values.iter().copied().max().unwrap_or(0),
        solve_seconds: if options.reproducible {
            0.0
        } else {
            elapsed.as_secs_f64()
        },
        extra,
    };
    let header = Header {
        game: game.id().to_string(),
        variant: String::new(),
        tier: String::new(),
        index_size: codes.len() as u64,
        encoding: GRUNDY_ENCODING.to_string(),
        block_entries: DEFAULT_BLOCK_ENTRIES,
        stats: stats.clone(),
    };
    let path = options.dir.join(file_name(game.id(), "", ""));
    let level = options.level.unwrap_or(tables::DEFAULT_LEVEL);
    let bytes = write_table(&path, &header, &codes, level)?;
    Ok(Summary {
        path,
        stats,
        bytes,
        seconds: elapsed.as_secs_f64(),
    })
}
