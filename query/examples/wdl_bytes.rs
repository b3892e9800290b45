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
//!
//! With a third argument OUT, it also writes each lane's WDL50 values to
//! `OUT/ENDING-wdl-lane-L.bin`, a byte a slot in index order: 0 for an empty
//! slot, else the category (1 loss .. 5 win), plus 8 where a move out of the
//! ending gives that value (the slot may hold any category no better). The
//! `tables` example `pair_grammar` weighs coders on them.

mod slots;

use anyhow::Context;
use games::chess::Metric;
use games::{Game, Value};
use slots::{Slots, category};
use tables::{Slack, Table};

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
    let (dir, ending, out) = match &args[..] {
        [_, dir, ending] => (dir, ending, None),
        [_, dir, ending, out] => (dir, ending, Some(out)),
        _ => anyhow::bail!("usage: wdl_bytes DIR ENDING [OUT]"),
    };
    let game = slots::endgame(ending, Metric::Dtz)?;
    let slots = Slots::read(&game, dir, ending)?;
    let (values, held, exits) = (&slots.codes, &slots.held, &slots.exits);
    let value = |code: u16| Value::from_code(slots.game.value_kind(), code);
    let held = |slot: usize| held[slot];
    let table = slots.tablebase.table(slots.tier)?;
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
    if let Some(out) = out {
        println!("fields of the index: {:?}", table.header().digits.radices);
        for lane in 0..lanes {
            let bytes: Vec<u8> = (lane..values.len())
                .step_by(lanes)
                .map(|slot| slots.wdl_byte(slot))
                .collect();
            let path = std::path::Path::new(out).join(format!("{ending}-wdl-lane-{lane}.bin"));
            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
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
                (true, true) => u16::from(category(value(values[slot]).expect("a value"))),
                (true, false) => values[slot],
            }
        };
        // A freed slot may store any code no better for the mover than its own.
        let may_hold = |slot: u64, stored: u16| {
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
                    true => stored <= u16::from(category(own)),
                    false => value(stored).is_some_and(|s| s.cmp_for_mover(own).is_le()),
                }
        };
        let header = slots::searched_header(table.header());
        let name = match side {
            Some(lane) => format!("dtz-{freed:?}-lane-{lane}.tb"),
            None => format!("{}-{freed:?}.tb", if wdl { "wdl" } else { "dtz" }),
        };
        let path = out.path().join(&name);
        let slack = Slack::bounded_by(may_hold);
        let bytes = tables::write_table_slack(&path, &header, code, slack, 9)?;
        let mut stored = Vec::new();
        Table::open(&path)?
            .for_each_block(|block| stored.extend(block.iter().map(|&c| c as u8)))?;
        let whole = zstd::bulk::compress(&stored, 19)?.len();
        println!("{ending} {name}: {bytes} bytes; as one zstd frame at level 19, {whole}");
    }
    Ok(())
}
