//! Measures whether folding a dots-and-boxes board's symmetries into the table
//! index pays: solves a board, then writes its table twice, once with a slot per
//! edge mask and once with a slot per symmetry class (its smallest mask), and
//! prints classes, bytes and the cost of finding a folded slot.
//!
//! `cargo run --release -p generator --example dots_symmetry -- 3x3`

use games::dots::{Dots, Edges};
use games::{Game, ValueKind};
use generator::Progress;
use generator::dots::{score_code, solve_dots};
use rayon::prelude::*;
use std::time::Instant;
use tables::{DEFAULT_BLOCK_ENTRIES, Empty, FAST_LEVEL, Header, write_table_with};

fn main() -> anyhow::Result<()> {
    let size = std::env::args().nth(1).unwrap_or_else(|| "3x3".into());
    let dots = Dots::parse_size(&size)?;
    let started = Instant::now();
    let scores = solve_dots(&dots, &Progress::hidden());
    println!(
        "{size}: {} masks solved in {:.2} s",
        scores.len(),
        started.elapsed().as_secs_f64()
    );

    let maps: Vec<Vec<u8>> = dots.symmetries();
    let canonical = |drawn: Edges| {
        maps.iter()
            .map(|map| Dots::transform(map, drawn))
            .min()
            .expect("the identity")
    };
    let started = Instant::now();
    let classes: Vec<Edges> = (0..=dots.full())
        .into_par_iter()
        .filter(|&drawn| canonical(drawn) == drawn)
        .collect();
    println!(
        "{} symmetries, {} classes ({:.2} of the masks), listed in {:.2} s",
        maps.len(),
        classes.len(),
        classes.len() as f64 / scores.len() as f64,
        started.elapsed().as_secs_f64()
    );

    let dir = tempfile::tempdir()?;
    for level in [FAST_LEVEL, 19] {
        let header = |slots: usize| Header {
            game: "dots".into(),
            variant: dots.variant(),
            tier: String::new(),
            index_size: slots as u64,
            encoding: ValueKind::Score.tag().into(),
            block_entries: DEFAULT_BLOCK_ENTRIES,
            lanes: 1,
            digits: Default::default(),
            spelled: None,
            empty: Empty::Kept,
            shared: None,
            exits: Default::default(),
            lane_left: None,
            stats: Default::default(),
        };
        let full = write_table_with(
            &dir.path().join("full.tb"),
            &header(scores.len()),
            |slot| score_code(scores[slot as usize]),
            level,
        )?;
        let folded = write_table_with(
            &dir.path().join("folded.tb"),
            &header(classes.len()),
            |slot| score_code(scores[classes[slot as usize] as usize]),
            level,
        )?;
        let rank_map = classes.len() * std::mem::size_of::<Edges>();
        println!(
            "zstd level {level}: one slot per mask {full} bytes; one per class {folded} bytes \
             + a rank map of {rank_map} bytes (sorted class list) = {} bytes",
            folded + rank_map as u64
        );
    }

    // What finding a folded slot costs against reading the mask as the index.
    let probes: Vec<Edges> = (0..1_000_000u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as Edges & dots.full())
        .collect();
    let started = Instant::now();
    let found: usize = probes
        .iter()
        .map(|&drawn| classes.binary_search(&canonical(drawn)).expect("a class"))
        .sum();
    println!(
        "folded slot lookup: {:.0} ns each (the unfolded slot is the mask itself); checksum {found}",
        started.elapsed().as_secs_f64() * 1e9 / probes.len() as f64
    );
    Ok(())
}
