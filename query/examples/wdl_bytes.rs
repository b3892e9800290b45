//! Bytes a WDL50 table, and a DTZ table that keeps its own draws, would take
//! for one chess ending, under each way of freeing the slots a move out of the
//! ending (a capture or a promotion) decides: what `docs/file-format.md`
//! weighs against Syzygy's `.rtbw` and `.rtbz`.
//!
//! `cargo run --release -p query --example wdl_bytes -- DIR ENDING`, where DIR
//! holds ENDING's chain as `tbgen chess ENDING --metric dtz` (or `dtm,dtz`)
//! makes it. Each table is written by the project's writer (this build's
//! format, weighed orders, both fills, zstd level 9) into a temporary folder;
//! beside its bytes, the bytes of its stored codes as one zstd frame at level
//! 19 (no random access: a bound on what repetition across blocks could give).

use anyhow::Context;
use games::chess::{Endgame, FIFTY_MOVES, Material, Metric};
use games::{Game, Value};
use query::Tablebase;
use rayon::prelude::*;
use tables::{Digits, Exits, Header, Slack, Table};

/// A value's WDL50 category, as a code that orders them for the mover: loss,
/// blessed loss, draw, cursed win, win (1 to 5; 0 is an empty slot).
fn category(value: Value) -> u16 {
    match value {
        Value::Loss(n) if n > FIFTY_MOVES => 2,
        Value::Loss(_) => 1,
        Value::Win(n) if n > FIFTY_MOVES => 4,
        Value::Win(_) => 5,
        _ => 3,
    }
}

/// Which slots a table leaves to the search of the moves out of the ending.
#[derive(Clone, Copy, Debug)]
enum Freed {
    /// None: every slot stores its value.
    None,
    /// Wins and losses those moves give (what chess's tables leave today).
    Decided,
    /// Draws they give as well.
    AndDraws,
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, ending] = &args[..] else {
        anyhow::bail!("usage: wdl_bytes DIR ENDING");
    };
    let material = Material::parse(ending).map_err(|e| anyhow::anyhow!("{e}"))?;
    let game = Endgame::new(&material).with_metric(Metric::Dtz);
    let tier = game
        .tiers()
        .into_iter()
        .find(|&tier| game.tier_name(tier) == *ending)
        .context("no such tier")?;
    let tablebase = Tablebase::new(&game, dir);
    let kind = game.value_kind();
    let value = |code: u16| Value::from_code(kind, code);
    let values = tablebase.codes_of_tier(tier)?;
    // Whether each slot holds a position, and the best value a move out of
    // the ending gives it, if any: every position built once.
    let (held, exits): (Vec<bool>, Vec<Option<Value>>) = (0..values.len())
        .into_par_iter()
        .map(|slot| match game.position_at(tier, slot as u64) {
            None => (false, None),
            Some(position) => {
                let best =
                    games::value_of_exits(&game, &position, |child| tablebase.covered_value(child));
                (true, best.expect("the chain's tables"))
            }
        })
        .unzip();
    let held = |slot: usize| held[slot];
    let table = tablebase.table(tier)?;
    // Slot s lies in lane s mod lanes (chess: the side to move, White first).
    let lanes = table.header().lanes.max(1) as usize;
    for lane in 0..lanes {
        let mut counts = [[0u64; 6]; 6];
        for slot in (lane..values.len()).step_by(lanes) {
            if held(slot) {
                let own = category(value(values[slot]).expect("a value"));
                counts[own as usize][exits[slot].map_or(0, category) as usize] += 1;
            }
        }
        println!(
            "lane {lane}, positions by category (1 loss .. 5 win) and by the best exit's (0 none):"
        );
        for (own, row) in counts.iter().enumerate().skip(1) {
            println!("  {own}: {row:?}");
        }
    }
    let out = tempfile::tempdir()?;
    // The tables, then DTZ with one side to move stored (the other lane's
    // slots free, as if a one-ply search found them) and its draws left to
    // the WDL table.
    let tables = [true, false]
        .into_iter()
        .flat_map(|wdl| {
            [Freed::None, Freed::Decided, Freed::AndDraws].map(|freed| (wdl, freed, None))
        })
        .chain((0..lanes).map(|lane| (false, Freed::AndDraws, Some(lane))));
    for (wdl, freed, side) in tables {
        // With one side stored, its draws are left to the WDL table too.
        let stored = |slot: usize| {
            held(slot)
                && side.is_none_or(|lane| {
                    slot % lanes == lane && value(values[slot]) != Some(Value::Draw)
                })
        };
        let code = |slot: u64| {
            let slot = slot as usize;
            match (stored(slot), wdl) {
                (false, _) => 0,
                (true, true) => category(value(values[slot]).expect("a value")),
                (true, false) => values[slot],
            }
        };
        // A freed slot may store any code no better for the mover than its own.
        let bounded = |slot: u64, stored: u16| {
            let slot = slot as usize;
            let (Some(own), Some(exit)) = (value(values[slot]), exits[slot]) else {
                return false;
            };
            let free = match freed {
                Freed::None => false,
                Freed::Decided => exit == own && own != Value::Draw,
                Freed::AndDraws => exit == own,
            };
            free && stored != 0
                && match wdl {
                    true => stored <= category(own),
                    false => value(stored).is_some_and(|s| s.cmp_for_mover(own).is_le()),
                }
        };
        let header = Header {
            exits: Exits::Searched,
            shared: None,
            digits: Digits::weighed(table.header().digits.radices.clone()),
            ..table.header().clone()
        };
        let name = match side {
            Some(lane) => format!("dtz-{freed:?}-lane-{lane}.tb"),
            None => format!("{}-{freed:?}.tb", if wdl { "wdl" } else { "dtz" }),
        };
        let path = out.path().join(&name);
        let left = |_| false;
        let bytes = tables::write_table_slack(&path, &header, code, Slack { left, bounded }, 9)?;
        let mut stored = Vec::new();
        Table::open(&path)?
            .for_each_block(|block| stored.extend(block.iter().map(|&c| c as u8)))?;
        let whole = zstd::bulk::compress(&stored, 19)?.len();
        println!("{ending} {name}: {bytes} bytes; as one zstd frame at level 19, {whole}");
    }
    Ok(())
}
