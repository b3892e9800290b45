//! How the order a table stores a pawnless ending's positions in changes its
//! bytes: each side to move in the solver's index (the fields in the order
//! its table stores them) against the file index of `games::chess::FileIndex`
//! under every choice of leading piece and order of the others, weighed on a
//! sample and the best one compressed whole. What `docs/file-format.md`
//! weighs for the next table format.
//!
//! `cargo run --release -p query --example index_bytes -- DIR ENDING METRIC [OUT]`
//!
//! - METRIC `wdl`: WDL50 categories, DIR holding ENDING's chain as
//!   `tbgen chess ENDING --metric dtz` makes it; a slot a move out of the
//!   ending decides may hold any category no better. `dtm` or `dtz`: the
//!   table's codes, each stored as it is.
//! - OUT: for `wdl`, where to write each side to move in its best order, a
//!   byte a place as the `tables` example `pair_grammar` reads them.
//!
//! In every order, places without a position take the value before them
//! (WDL50: an open slot takes the value before it if it may, else the best it
//! may), and the values are compressed as the table format does, in blocks of
//! 65,536 bytes, at zstd level 9 and 19.

// Shared with the other measuring examples, which use the rest of it.
#[allow(dead_code)]
mod slots;

use games::Game;
use games::chess::{Color, FileIndex, Metric, Piece};
use rayon::prelude::*;
use slots::Slots;
use tables::Places;

/// Blocks of 65,536 places each order is weighed on, spread over the lane.
const SAMPLE_BLOCKS: u64 = 32;
const BLOCK: u64 = 1 << 16;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (dir, ending, metric, out) = match &args[..] {
        [_, dir, ending, metric] => (dir, ending, metric, None),
        [_, dir, ending, metric, out] => (dir, ending, metric, Some(out)),
        _ => anyhow::bail!("usage: index_bytes DIR ENDING wdl|dtm|dtz [OUT]"),
    };
    let wdl = metric == "wdl";
    let game = match metric.as_str() {
        "wdl" | "dtz" => slots::endgame(ending, Metric::Dtz)?,
        "dtm" => slots::endgame(ending, Metric::Dtm)?,
        _ => anyhow::bail!("metric {metric}: wdl, dtm or dtz"),
    };
    let slots = Slots::read(&game, dir, ending)?;
    // Each slot as one byte: its category and whether it is open, or its
    // code's rank among the table's codes.
    let mut ranks: Vec<u16> = slots.codes.clone();
    ranks.sort_unstable();
    ranks.dedup();
    anyhow::ensure!(wdl || ranks.len() < 255, "more than 254 codes");
    let byte_of = |slot: usize| match wdl {
        true => slots.wdl_byte(slot),
        false if !slots.held[slot] => 0,
        false => 1 + ranks.binary_search(&slots.codes[slot]).expect("a code") as u8,
    };
    let bytes: Vec<u8> = (0..slots.codes.len())
        .into_par_iter()
        .map(byte_of)
        .collect();
    let table = slots.tablebase.table(slots.tier)?;
    let header = table.header();
    let lanes = header.lanes.max(1) as usize;
    let first = slots
        .held
        .iter()
        .position(|&h| h)
        .ok_or_else(|| anyhow::anyhow!("no position"))?;
    let pieces: Vec<Piece> = game
        .position_at(slots.tier, first as u64)
        .expect("held")
        .pieces()
        .map(|(_, piece)| piece)
        .collect();
    FileIndex::new(&pieces).map_err(|e| anyhow::anyhow!("{ending}: {e}"))?;
    for lane in 0..lanes {
        let turn = [Color::White, Color::Black][lane];
        let places = Places::new(header.index_size, header.lanes, &header.digits);
        let lane_length = (header.index_size / lanes as u64) as usize;
        let ours: Vec<u8> = (lane * lane_length..(lane + 1) * lane_length)
            .map(|at| bytes[places.slot(at as u64).expect("fields spell every place") as usize])
            .collect();
        println!(
            "{ending} {metric}, {turn:?} to move: the solver's index, fields in the order {:?}: {} places, zstd 9 {}, zstd 19 {}",
            header.digits.order,
            ours.len(),
            compressed(&ours, wdl, 9),
            compressed(&ours, wdl, 19)
        );
        let place = |file: &FileIndex, at: u64| -> u8 {
            file.board_at(at, turn)
                .filter(|board| board.check_legal().is_ok())
                .map_or(0, |board| bytes[Game::locate(&game, &board).1 as usize])
        };
        let mut weighed: Vec<(usize, FileIndex)> = orders(&pieces)
            .into_par_iter()
            .map(|file| {
                let sample: Vec<u8> = sampled(file.size()).map(|at| place(&file, at)).collect();
                (compressed(&sample, wdl, 9), file)
            })
            .collect();
        weighed.sort_by_key(|(bytes, _)| *bytes);
        for (bytes, file) in weighed.iter().take(4) {
            println!("  sample of {}: {bytes}", spelled(file));
        }
        let (_, best) = &weighed[0];
        let whole: Vec<u8> = (0..best.size())
            .into_par_iter()
            .map(|at| place(best, at))
            .collect();
        println!(
            "  {} whole: {} places, zstd 9 {}, zstd 19 {}",
            spelled(best),
            whole.len(),
            compressed(&whole, wdl, 9),
            compressed(&whole, wdl, 19)
        );
        if let Some(out) = out.filter(|_| wdl) {
            let path = std::path::Path::new(out)
                .join(format!("{ending}-{}-lane-{lane}.bin", spelled(best)));
            std::fs::write(&path, &whole)?;
            println!("  written to {}", path.display());
        }
    }
    Ok(())
}

/// Every file index of `pieces`: each piece alone of its kind leading, the
/// kinds after it in every order.
fn orders(pieces: &[Piece]) -> Vec<FileIndex> {
    let mut kinds: Vec<Piece> = pieces.to_vec();
    kinds.sort();
    kinds.dedup();
    let count = |kind: Piece| pieces.iter().filter(|&&p| p == kind).count();
    let mut files = Vec::new();
    tables::permutations(&(0..kinds.len() as u8).collect::<Vec<_>>(), &mut |order| {
        let list: Vec<Piece> = order
            .iter()
            .map(|&k| kinds[usize::from(k)])
            .flat_map(|kind| std::iter::repeat_n(kind, count(kind)))
            .collect();
        // A kind of two or three cannot lead.
        files.extend(FileIndex::new(&list).ok());
    });
    files
}

/// The places of a sample of blocks spread over a lane of `size` places.
fn sampled(size: u64) -> impl Iterator<Item = u64> {
    let blocks = size.div_ceil(BLOCK);
    let step = blocks.div_ceil(SAMPLE_BLOCKS).max(1);
    (0..blocks)
        .step_by(step as usize)
        .flat_map(move |block| block * BLOCK..((block + 1) * BLOCK).min(size))
}

/// Bytes of a lane's values in blocks of 65,536 at zstd `level`, each place
/// without a fixed value given one (see the module).
fn compressed(lane: &[u8], wdl: bool, level: i32) -> usize {
    let mut before = 0u8;
    let filled: Vec<u8> = lane
        .iter()
        .map(|&byte| {
            before = match (byte, wdl) {
                (0, _) => before,
                (b, true) if b & 8 != 0 => match before != 0 && before <= b & 7 {
                    true => before,
                    false => b & 7,
                },
                (b, _) => b,
            };
            before
        })
        .collect();
    filled
        .par_chunks(BLOCK as usize)
        .map(|block| zstd::bulk::compress(block, level).expect("zstd").len())
        .sum()
}

/// A file index's pieces as FEN letters, White's in capitals.
fn spelled(file: &FileIndex) -> String {
    file.pieces().map(Piece::fen_char).collect()
}
