//! The bytes of each lane of tables (chess: each side to move), and what a
//! set of tables would take were only its smaller lane stored: the measure
//! `docs/file-format.md` gives for storing one side to move.
//!
//! `cargo run --release -p tables --example lane_bytes -- FILE...`
//!
//! Prints a line a table (its file's bytes, each lane's share of its blocks'
//! bytes), then the totals: the files, and the files with every table's larger
//! lanes taken out. A table stored in its game's own order is named and left
//! out of the totals: its header does not divide its places into lanes.

use tables::Table;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: lane_bytes FILE...".into());
    }
    let (mut all, mut smaller) = (0.0, 0.0);
    for file in &files {
        let table = Table::open(file)?;
        let bytes = table.file_bytes() as f64;
        let Some(lanes) = table.lane_bytes() else {
            println!("{file}: {bytes} bytes, stored in its game's order: left out");
            continue;
        };
        let largest = lanes.iter().copied().fold(0.0, f64::max);
        let blocks: f64 = lanes.iter().sum();
        all += bytes;
        smaller += bytes - blocks + lanes.iter().copied().fold(largest, f64::min);
        let shown: Vec<String> = lanes.iter().map(|b| format!("{b:.0}")).collect();
        println!("{file}: {bytes} bytes, lanes {}", shown.join(" "));
    }
    println!(
        "{} tables: {all:.0} bytes; the smaller lane of each alone, {smaller:.0} ({:.3})",
        files.len(),
        smaller / all.max(1.0)
    );
    Ok(())
}
