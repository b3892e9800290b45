//! How fast the writer writes a real table and a reader reads it back: reads
//! FILE's stored codes, then writes them again ROUNDS times (default 3) into
//! a temporary folder as the generator writes a table after its solve (every
//! order of its fields weighed, the better of two fills a block, zstd at
//! level 9) and once as it writes a draft (the fields as spelled, level 1),
//! and reads that draft back; prints each step's time and bytes, and fails
//! where the draft does not read back as the codes written.
//!
//! `cargo run --release -p tables --example write_speed -- FILE [ROUNDS]`

use std::time::Instant;
use tables::{Exits, Header, Table};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        return Err("usage: write_speed FILE [ROUNDS]".into());
    };
    let rounds: u32 = args.get(2).map_or(Ok(3), |r| r.parse())?;
    let table = Table::open(file)?;
    let began = Instant::now();
    let codes = table.read_codes()?;
    println!(
        "read {} slots in {:.3} s",
        codes.len(),
        began.elapsed().as_secs_f64()
    );
    let mut digits = table.header().digits.clone();
    digits.order.clear();
    let header = Header {
        digits,
        exits: Exits::Stored,
        shared: None,
        lane_left: None,
        spelled: None,
        ..table.header().clone()
    };
    let dir = tempfile::tempdir()?;
    let path = dir
        .path()
        .join(file.rsplit('/').next().unwrap_or("table.tb"));
    for round in 0..rounds {
        let began = Instant::now();
        let bytes = tables::write_table_with(&path, &header, |slot| codes.get(slot), 9)?;
        let took = began.elapsed().as_secs_f64();
        println!("write {round}: {bytes} bytes in {took:.3} s");
    }
    let mut digits = header.digits.clone();
    digits.order = (0..digits.radices.len() as u8).collect();
    let draft = Header { digits, ..header };
    let began = Instant::now();
    let bytes = tables::write_table_with(&path, &draft, |slot| codes.get(slot), 1)?;
    println!(
        "draft: {bytes} bytes in {:.3} s",
        began.elapsed().as_secs_f64()
    );
    for round in 0..rounds {
        let began = Instant::now();
        let read = Table::open(&path)?.read_codes()?;
        let took = began.elapsed().as_secs_f64();
        println!("draft read {round}: {took:.3} s");
        if read != codes {
            return Err("the draft read back is not the codes written".into());
        }
    }
    Ok(())
}
