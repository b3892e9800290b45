use std::path::Path;
use tables::{
    CodesBuilder, Digits, Empty, FORMAT_VERSION, Header, Shared, Stats, Table, TableError,
    write_atomically, write_table, write_table_leaving,
};

fn header(index_size: u64, block_entries: u32) -> Header {
    Header {
        game: "test".into(),
        variant: "v1".into(),
        tier: "t".into(),
        index_size,
        encoding: "wld16".into(),
        block_entries,
        lanes: 1,
        digits: Default::default(),
        spelled: None,
        empty: Empty::Kept,
        shared: None,
        exits: Default::default(),
        lane_left: None,
        stats: Stats {
            positions: index_size,
            wins: 3,
            longest: 7,
            ..Stats::default()
        },
    }
}

fn values(n: usize) -> Vec<u16> {
    (0..n).map(|i| ((i * 7919) % 23) as u16).collect()
}

fn write(dir: &Path, n: usize, block_entries: u32) -> std::path::PathBuf {
    let path = dir.join("t.tb");
    write_table(&path, &header(n as u64, block_entries), &values(n), 3).unwrap();
    path
}

#[test]
fn round_trips_values_and_header() {
    let dir = tempfile::tempdir().unwrap();
    for (n, block) in [
        (0, 16),
        (1, 16),
        (100, 16),
        (1000, 1000),
        (1001, 1000),
        (5000, 64),
        // More blocks than the writer compresses at once, twice over.
        (2049 * 16 + 3, 16),
    ] {
        let path = write(dir.path(), n, block);
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header(), &header(n as u64, block));
        table.check().unwrap();
        assert_eq!(table.read_all().unwrap(), values(n));
        for i in (0..n).step_by(37) {
            assert_eq!(table.get(i as u64).unwrap(), values(n)[i]);
        }
        assert!(matches!(
            table.get(n as u64),
            Err(TableError::OutOfRange { .. })
        ));
        assert_eq!(table.file_bytes(), std::fs::metadata(&path).unwrap().len());
    }
}

/// A table whose lanes are stored as spelled in whole blocks (a generator's
/// draft) is read back a run of blocks at a time in parallel: the same codes
/// as a read slot by slot builds, those past a byte kept apart, or where they
/// are more than an eighth of the slots, every code in two bytes.
#[test]
fn drafts_read_back_in_parallel_as_slot_by_slot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    let n = 2 * 64 * 64;
    // None past a byte, a few, more than an eighth (two bytes a code), half.
    for long_every in [0, 1000, 7, 2] {
        let codes: Vec<u16> = (0..n)
            .map(|slot| match long_every > 0 && slot % long_every == 0 {
                true => 300 + (slot % 50) as u16,
                false => (slot * 7 % 200) as u16,
            })
            .collect();
        let header = Header {
            lanes: 2,
            digits: Digits::spelled(vec![64, 64]),
            ..header(n as u64, 256)
        };
        write_table(&path, &header, &codes, 3).unwrap();
        let read = Table::open(&path).unwrap().read_codes().unwrap();
        assert_eq!(read.to_vec(), codes, "one in {long_every} past a byte");
        let mut built = CodesBuilder::new(n as u64);
        for (slot, &code) in codes.iter().enumerate() {
            built.set(slot as u64, code);
        }
        assert_eq!(read, built.build(), "one in {long_every} past a byte");
    }
}

/// A draft's slots cut into runs to read apart: runs of whole blocks of
/// every lane, each a multiple of 64 slots long, that together are the
/// range asked and read back as it does; a table in another order is one run.
#[test]
fn runs_to_read_cover_the_slots_asked_and_read_as_they_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    // Two lanes of 3,000 entries in blocks of 256: the second lane starts
    // inside a block.
    let n = 6_000u64;
    let codes: Vec<u16> = (0..n).map(|slot| (slot * 7 % 200) as u16).collect();
    let header = Header {
        lanes: 2,
        digits: Digits::spelled(vec![60, 50]),
        ..header(n, 256)
    };
    write_table(&path, &header, &codes, 3).unwrap();
    let table = Table::open(&path).unwrap();
    for slots in [0..n, 100..n, 1_000..1_001, 5_000..6_000, 0..0] {
        let runs = table.runs_to_read(slots.clone(), 2);
        let mut read = vec![None; n as usize];
        for (i, run) in runs.iter().enumerate() {
            assert_eq!(run.start, slots.start + i as u64 * 1024, "{slots:?}");
            assert!(
                run.end - run.start <= 1024 && run.end <= slots.end,
                "{slots:?}"
            );
            table
                .for_each_code_in(run.clone(), |slot, code| {
                    assert!(run.contains(&slot), "{slots:?}: {slot} outside {run:?}");
                    read[slot as usize] = Some(code);
                })
                .unwrap();
        }
        assert_eq!(runs.last().map(|r| r.end), Some(slots.end), "{slots:?}");
        for slot in 0..n {
            let want = slots.contains(&slot).then(|| codes[slot as usize]);
            assert_eq!(read[slot as usize], want, "{slots:?}: slot {slot}");
        }
    }
    // Stored in another order of its fields, the table is one run.
    let reordered = Header {
        digits: Digits {
            radices: vec![60, 50],
            order: vec![1, 0],
        },
        ..header
    };
    write_table(&path, &reordered, &codes, 3).unwrap();
    let table = Table::open(&path).unwrap();
    assert_eq!(table.runs_to_read(100..n, 2), vec![(100..n)]);
}

/// Up to 256 distinct codes, however large, are stored as one byte each naming
/// a code of the file's dictionary; one more and every value is a 16-bit code.
#[test]
fn lanes_keep_every_slot_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    for (n, block, lanes) in [
        (0, 16, 2),
        (1, 16, 2),
        (101, 16, 2),
        (1001, 64, 3),
        (999, 1000, 4),
    ] {
        let header = Header {
            lanes,
            ..header(n as u64, block)
        };
        write_table(&path, &header, &values(n), 3).unwrap();
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header().lanes, lanes);
        assert_eq!(table.read_all().unwrap(), values(n), "{n} {block} {lanes}");
        assert_eq!(table.read_codes().unwrap().to_vec(), values(n));
        for i in 0..n {
            assert_eq!(table.get(i as u64).unwrap(), values(n)[i]);
        }
        // Where a code stands, a bit a slot, as read_all has it.
        let code = values(n).get(n / 2).copied().unwrap_or(0);
        let bits = table.slots_holding(code).unwrap();
        assert_eq!(bits.len(), n.div_ceil(64));
        for (i, &value) in values(n).iter().enumerate() {
            let set = bits[i / 64] >> (i % 64) & 1 == 1;
            assert_eq!(set, value == code, "{n} {block} {lanes}: slot {i}");
        }
    }
}

/// Each lane's share of the blocks' bytes: a lane of one code costs little
/// beside a lane of many, and together they are every block's bytes.
#[test]
fn lane_bytes_share_the_blocks_by_their_places() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    // 3,000 slots in two lanes of 1,500, blocks of 400: the fourth block
    // holds the end of the first lane and the start of the second.
    let n = 3_000;
    let codes: Vec<u16> = (0..n)
        .map(|i| match i % 2 {
            0 => 1,
            _ => ((i * 7919) % 251) as u16,
        })
        .collect();
    let header_of = |lanes, n, block| Header {
        lanes,
        ..header(n, block)
    };
    write_table(&path, &header_of(2, n as u64, 400), &codes, 3).unwrap();
    let table = Table::open(&path).unwrap();
    let lanes = table.lane_bytes().unwrap();
    assert_eq!(lanes.len(), 2);
    assert!(lanes[0] * 4.0 < lanes[1], "{lanes:?}");
    // Together they are every block's bytes: those of the same values in
    // the same places in one lane.
    let placed: Vec<u16> = (0..2)
        .flat_map(|lane| codes.iter().skip(lane).step_by(2).copied())
        .collect();
    let single = dir.path().join("one.tb");
    write_table(&single, &header_of(1, n as u64, 400), &placed, 3).unwrap();
    let whole = Table::open(&single).unwrap().lane_bytes().unwrap();
    let sum: f64 = lanes.iter().sum();
    assert!((sum - whole[0]).abs() < 1e-6, "{lanes:?} against {whole:?}");
    // Where no block holds two lanes, a lane costs what its values cost
    // written alone in blocks of the same size.
    write_table(&path, &header_of(2, n as u64, 500), &codes, 3).unwrap();
    let lanes = Table::open(&path).unwrap().lane_bytes().unwrap();
    for (lane, &bytes) in lanes.iter().enumerate() {
        let alone: Vec<u16> = codes.iter().skip(lane).step_by(2).copied().collect();
        let single = dir.path().join("lane.tb");
        write_table(&single, &header_of(1, alone.len() as u64, 500), &alone, 3).unwrap();
        let written = Table::open(&single).unwrap().lane_bytes().unwrap();
        assert_eq!(written, [bytes], "lane {lane}");
    }
    // Lanes of unequal length (the first two hold one entry more), a block
    // a place: each lane costs its own blocks.
    write_table(&path, &header_of(3, 101, 1), &values(101), 3).unwrap();
    let lanes = Table::open(&path).unwrap().lane_bytes().unwrap();
    for (lane, &bytes) in lanes.iter().enumerate() {
        let alone: Vec<u16> = values(101).into_iter().skip(lane).step_by(3).collect();
        write_table(&single, &header_of(1, alone.len() as u64, 1), &alone, 3).unwrap();
        let written = Table::open(&single).unwrap().lane_bytes().unwrap();
        assert_eq!(written, [bytes], "lane {lane} of three");
    }
}

/// A table that leaves a lane stores the other lanes' codes alone, in
/// fewer bytes: each of their slots reads its code, a slot of the lane left
/// is refused by name (never another slot's code), `read_all` gives it no
/// code, `check` passes and catches a flipped byte; lane 2 of 3 left, of
/// unequal lanes, and with the fields stored in another order.
#[test]
fn a_table_leaving_a_lane_stores_the_others_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    for (n, lanes, left, digits) in [
        (30_000u64, 2u32, 0u32, Digits::default()),
        (30_000, 2, 1, Digits::default()),
        (30_001, 3, 2, Digits::default()),
        (
            24_000,
            2,
            1,
            Digits {
                radices: vec![30, 400],
                order: vec![1, 0],
            },
        ),
    ] {
        let codes: Vec<u16> = (0..n).map(|i| 1 + ((i * 7919) % 97) as u16).collect();
        let whole = Header {
            lanes,
            digits: digits.clone(),
            ..header(n, 1000)
        };
        let leaving = Header {
            lane_left: Some(left),
            ..whole.clone()
        };
        let all_bytes = write_table(&path, &whole, &codes, 3).unwrap();
        let bytes = write_table(&path, &leaving, &codes, 3).unwrap();
        assert!(bytes * 4 < all_bytes * 3, "{bytes} against {all_bytes}");
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header().lane_left, Some(left));
        table.check().unwrap();
        let read = table.read_all().unwrap();
        for slot in 0..n {
            let held = slot % u64::from(lanes) != u64::from(left);
            assert_eq!(table.header().holds(slot), held);
            match held {
                true => {
                    assert_eq!(
                        table.get(slot).unwrap(),
                        codes[slot as usize],
                        "slot {slot}"
                    );
                    assert_eq!(read[slot as usize], codes[slot as usize]);
                }
                false => {
                    let refused = table.get(slot).unwrap_err();
                    assert!(
                        matches!(refused, TableError::LaneLeft { lane, .. } if lane == left),
                        "{refused}"
                    );
                    assert_eq!(read[slot as usize], 0);
                }
            }
        }
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 10;
        bytes[last] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let flipped = Table::open(&path).and_then(|t| t.check());
        assert!(flipped.is_err(), "a flipped byte passed check");
    }
    // A lane that is not there is refused.
    let beyond = Header {
        lanes: 2,
        lane_left: Some(2),
        ..header(100, 64)
    };
    let refused = write_table(&path, &beyond, &values(100), 3).unwrap_err();
    assert!(refused.to_string().contains("lane 2 of 2"), "{refused}");
}

/// A table that fills its empty slots answers every other slot exactly, holds
/// no code that none of its slots has, and compresses better than one that
/// keeps them.
#[test]
fn filled_empty_slots_change_no_other_slot() {
    let dir = tempfile::tempdir().unwrap();
    let n = 20_000;
    // Runs of a few codes, with every third slot empty in a pattern of its own.
    let codes: Vec<u16> = (0..n)
        .map(|i| match (i * i) % 3 == 0 {
            true => 0,
            false => 1 + (i / 500 % 4) as u16 * 2,
        })
        .collect();
    let mut sizes = Vec::new();
    for empty in [Empty::Kept, Empty::Filled] {
        let path = dir.path().join(format!("{empty:?}.tb"));
        let header = Header {
            empty,
            lanes: 2,
            digits: Default::default(),
            spelled: None,
            ..header(n as u64, 4096)
        };
        sizes.push(write_table(&path, &header, &codes, 3).unwrap());
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header().empty, empty);
        let read = table.read_all().unwrap();
        for (i, (&got, &want)) in read.iter().zip(&codes).enumerate() {
            match (empty, want) {
                (Empty::Filled, 0) => assert!([1, 3, 5, 7].contains(&got), "slot {i}: {got}"),
                _ => assert_eq!(got, want, "slot {i}"),
            }
            assert_eq!(table.get(i as u64).unwrap(), got);
        }
    }
    assert!(
        sizes[1] < sizes[0],
        "filled {} bytes, kept {}",
        sizes[1],
        sizes[0]
    );
}

#[test]
fn the_writer_stores_the_fields_in_the_order_that_compresses_best() {
    let dir = tempfile::tempdir().unwrap();
    // Two lanes of entries spelled (a, b, c), radices 3, 64 and 16: the code
    // depends on c alone, pseudo-randomly, so that with b fastest each block
    // is runs of one code, where with c fastest (as spelled) it is the same
    // 16 codes over and over.
    let radices = vec![3, 64, 16];
    let n = 2 * 3 * 64 * 16;
    let codes: Vec<u16> = (0..n)
        .map(|slot| {
            let c = slot / 2 % 16;
            1 + ((c as u64 * 2_654_435_761 + slot as u64 % 2) >> 7) as u16 % 200
        })
        .collect();
    let mut sizes = Vec::new();
    for (name, digits) in [
        ("spelled", Digits::spelled(radices.clone())),
        ("weighed", Digits::weighed(radices.clone())),
    ] {
        let path = dir.path().join(format!("{name}.tb"));
        let header = Header {
            lanes: 2,
            digits,
            ..header(n as u64, 256)
        };
        sizes.push(write_table(&path, &header, &codes, 3).unwrap());
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header().digits.radices, radices);
        assert_eq!(table.read_all().unwrap(), codes, "{name}");
        assert_eq!(table.read_codes().unwrap().to_vec(), codes, "{name}");
        for slot in (0..n as u64).step_by(37) {
            assert_eq!(
                table.get(slot).unwrap(),
                codes[slot as usize],
                "{name} {slot}"
            );
        }
        table.check().unwrap();
    }
    let weighed = Table::open(dir.path().join("weighed.tb")).unwrap();
    assert_eq!(weighed.header().digits.order, [0, 2, 1]);
    assert!(
        sizes[1] < sizes[0],
        "weighed {} bytes, spelled {}",
        sizes[1],
        sizes[0]
    );
}

#[test]
fn values_take_one_byte_up_to_256_distinct_codes() {
    let dir = tempfile::tempdir().unwrap();
    for (distinct, bytes) in [(1, 1), (256, 1), (257, 2), (5000, 2)] {
        let n = 10_000usize;
        let codes: Vec<u16> = (0..n)
            .map(|i| u16::MAX - ((i * 7919) % distinct) as u16 * 13)
            .collect();
        let path = dir.path().join(format!("d{distinct}.tb"));
        write_table(&path, &header(n as u64, 512), &codes, 3).unwrap();
        let table = Table::open(&path).unwrap();
        assert_eq!(table.code_bytes(), bytes, "{distinct} distinct codes");
        assert_eq!(table.read_all().unwrap(), codes);
        assert_eq!(table.read_codes().unwrap().to_vec(), codes);
        assert_eq!(table.get(4321).unwrap(), codes[4321]);
    }
}

/// A block whose bytes are sound but name a code past the dictionary's end (a
/// writer's bug, or a forged file) is refused, naming the block.
#[test]
fn a_value_past_the_dictionary_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.tb");
    let codes: Vec<u16> = (0..100).map(|i| 1 + i % 3).collect();
    write_table(&path, &header(100, 1000), &codes, 3).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let header_end = 16 + u32_at(12) as usize;
    assert_eq!(u32_at(header_end), 3, "a dictionary of the codes 1, 2, 3");
    let table_start = header_end + 4 + 2 * 3 + 4;
    // One block: the same place, new bytes naming entry 7, sound checksums.
    let mut compressor = zstd::bulk::Compressor::new(3).unwrap();
    compressor
        .set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))
        .unwrap();
    let block = compressor.compress(&[7u8; 100]).unwrap();
    let mut forged = bytes[..table_start + 8].to_vec();
    forged.extend_from_slice(&(block.len() as u32).to_le_bytes());
    forged.extend_from_slice(&crc32fast::hash(&block).to_le_bytes());
    forged.extend_from_slice(&crc32fast::hash(&forged).to_le_bytes());
    forged.extend_from_slice(&block);
    std::fs::write(&path, &forged).unwrap();
    let table = Table::open(&path).unwrap();
    let refused = table.get(5).unwrap_err().to_string();
    assert!(
        refused.contains("forged.tb")
            && refused.contains("block 0: a value names entry 7 of a dictionary of 3 codes"),
        "{refused}"
    );
    assert!(table.check().is_err());
}

#[cfg(unix)]
#[test]
fn tables_are_readable_by_everyone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), 10, 4);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o444, 0o444, "mode {mode:o}");
}

#[test]
fn bytes_do_not_depend_on_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let bytes_with = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let path = dir.path().join(format!("t{threads}.tb"));
        pool.install(|| write_table(&path, &header(50_000, 512), &values(50_000), 3).unwrap());
        std::fs::read(path).unwrap()
    };
    assert_eq!(bytes_with(1), bytes_with(2));
}

/// Opening and reading every value must fail, with the file named in the message.
fn assert_refused(path: &Path, what: &str) {
    let result = Table::open(path).and_then(|t| t.read_all());
    match result {
        Ok(_) => panic!("{what}: a damaged table was read without error"),
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.contains(&path.display().to_string()),
                "{what}: {message}"
            );
        }
    }
}

#[test]
fn every_flipped_byte_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), 3000, 256);
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.tb");
    for at in 0..good.len() {
        for mask in [0x01u8, 0x80] {
            let mut bytes = good.clone();
            bytes[at] ^= mask;
            std::fs::write(&bad, &bytes).unwrap();
            assert_refused(&bad, &format!("byte {at} ^ {mask:#x}"));
        }
    }
}

#[test]
fn every_truncation_and_extension_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), 3000, 256);
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("short.tb");
    for len in 0..good.len() {
        std::fs::write(&bad, &good[..len]).unwrap();
        assert_refused(&bad, &format!("truncated to {len} bytes"));
    }
    let mut longer = good.clone();
    longer.push(0);
    std::fs::write(&bad, &longer).unwrap();
    assert_refused(&bad, "one byte appended");
}

#[test]
fn foreign_and_newer_files_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "this is not a table, just some text").unwrap();
    assert!(matches!(
        Table::open(&foreign),
        Err(TableError::Foreign { .. })
    ));

    let path = write(dir.path(), 10, 4);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let err = Table::open(&path).unwrap_err();
    assert!(
        matches!(err, TableError::Version { found, .. } if found == FORMAT_VERSION + 1),
        "{err}"
    );

    let missing = dir.path().join("missing.tb");
    let err = Table::open(&missing).unwrap_err().to_string();
    assert!(
        err.contains("missing.tb") && err.contains("opening"),
        "{err}"
    );
}

#[test]
fn failed_write_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    let result = write_atomically(&path, |out| {
        use std::io::Write;
        out.write_all(b"half a table")?;
        Err(std::io::Error::other("interrupted"))
    });
    assert!(result.is_err());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "temporary file left behind"
    );

    // A complete write replaces an older table in one step.
    write(dir.path(), 10, 4);
    write_table(&path, &header(20, 4), &values(20), 3).unwrap();
    assert_eq!(Table::open(&path).unwrap().header().index_size, 20);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_rerun_removes_what_an_interrupted_write_left() {
    let dir = tempfile::tempdir().unwrap();
    // What a killed writer leaves, and a file of another table that must stay.
    let leftover = dir.path().join(".t.tb.a1B2c3.partial");
    let other = dir.path().join(".u.tb.a1B2c3.partial");
    std::fs::write(&leftover, b"half a table").unwrap();
    std::fs::write(&other, b"another table being written").unwrap();
    write(dir.path(), 10, 4);
    assert!(!leftover.exists());
    assert!(other.exists());
}

#[test]
fn only_regular_files_are_opened() {
    let dir = tempfile::tempdir().unwrap();
    let err = Table::open(dir.path()).unwrap_err();
    assert!(matches!(err, TableError::NotAFile { .. }), "{err}");
    #[cfg(unix)]
    {
        // A FIFO would block a plain open until a writer comes: refused at once.
        let fifo = dir.path().join("fifo.tb");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status();
        if status.is_ok_and(|s| s.success()) {
            let err = Table::open(&fifo).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
    }
    // The operating system's reason is said once.
    let err = Table::open(dir.path().join("missing.tb")).unwrap_err();
    let said = err.to_string();
    assert_eq!(said.matches("No such file").count(), 1, "{said}");
    assert!(std::error::Error::source(&err).is_none());
}

/// Any single flipped byte, anywhere in a file of several blocks, makes opening or
/// checking the table fail: magic, version, header and block table are guarded
/// by the prefix checksum, each block by its own and by its zstd frame.
#[test]
fn check_finds_any_flipped_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), 3000, 1000);
    let good = std::fs::read(&path).unwrap();
    Table::open(&path).unwrap().check().unwrap();
    let damaged = dir.path().join("damaged.tb");
    for at in 0..good.len() {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        std::fs::write(&damaged, &bytes).unwrap();
        let found = Table::open(&damaged).and_then(|t| t.check());
        assert!(
            found.is_err(),
            "byte {at} of {} flipped unnoticed",
            good.len()
        );
    }
}

#[test]
fn a_small_block_cache_keeps_answers_right() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), 5000, 64);
    // Room for about two blocks: every lookup past them decompresses again.
    let cache = tables::BlockCache::new(256);
    let expected = values(5000);
    for access in [tables::Access::Mapped, tables::Access::Read] {
        let table = Table::open_with(&path, cache.clone(), access).unwrap();
        for i in (0..5000).rev().step_by(7) {
            assert_eq!(table.get(i as u64).unwrap(), expected[i]);
        }
        assert!(cache.bytes() <= 256 + 128, "{} bytes held", cache.bytes());
    }
}

/// A table that leaves a code to the table beside it reads that code from it,
/// stores less, and is refused, naming both files, where that table is missing
/// or another one.
#[test]
fn a_shared_code_is_read_from_the_table_beside() {
    let dir = tempfile::tempdir().unwrap();
    let n = 50_000usize;
    // The table beside: code 1 (a draw) in long runs, 2..6 elsewhere.
    let told: Vec<u16> = (0..n)
        .map(|i| {
            if (i / 700) % 3 == 0 {
                1
            } else {
                2 + (i % 5) as u16
            }
        })
        .collect();
    // This table: the same draws, its own codes elsewhere.
    let own: Vec<u16> = (0..n)
        .map(|i| {
            if told[i] == 1 {
                1
            } else {
                10 + (i * 31 % 7) as u16
            }
        })
        .collect();
    let beside = Header {
        variant: String::new(),
        ..header(n as u64, 4096)
    };
    write_table(&dir.path().join("test-t.tb"), &beside, &told, 3).unwrap();
    let values = Table::open(dir.path().join("test-t.tb"))
        .unwrap()
        .values_crc();
    let leaving = Header {
        variant: "dtz".into(),
        shared: Some(Shared {
            variant: String::new(),
            code: 1,
            values,
        }),
        ..header(n as u64, 4096)
    };
    let path = dir.path().join("test-dtz-t.tb");
    let left = |i: u64| told[i as usize] == 1;
    let bytes = write_table_leaving(&path, &leaving, |i| own[i as usize], left, 3).unwrap();
    let alone = dir.path().join("alone.tb");
    let kept = write_table(&alone, &header(n as u64, 4096), &own, 3).unwrap();
    assert!(
        bytes < kept,
        "{bytes} bytes leaving the draws, {kept} keeping them"
    );

    let table = Table::open(&path).unwrap();
    assert_eq!(table.read_all().unwrap(), own);
    assert_eq!(table.read_codes().unwrap().to_vec(), own);
    for i in (0..n).step_by(13) {
        assert_eq!(table.get(i as u64).unwrap(), own[i], "slot {i}");
    }
    // Stored alone, a left slot holds the code before it, not its own.
    let mut stored = Vec::new();
    table
        .for_each_block(|codes| stored.extend_from_slice(codes))
        .unwrap();
    assert!((0..n).any(|i| told[i] == 1 && stored[i] != 1));

    // A header that names a file elsewhere is refused without opening it.
    let astray = Header {
        variant: "elsewhere".into(),
        shared: Some(Shared {
            variant: "../../t".into(),
            code: 1,
            values,
        }),
        ..header(n as u64, 4096)
    };
    let astray_path = dir.path().join("test-elsewhere-t.tb");
    write_table(&astray_path, &astray, &own, 3).unwrap();
    let refused = Table::open(&astray_path).unwrap_err().to_string();
    assert!(refused.contains("outside its folder"), "{refused}");

    // The table beside made again with other values, then of another size,
    // then none.
    let mut changed = told.clone();
    changed[7] = 2;
    write_table(&dir.path().join("test-t.tb"), &beside, &changed, 3).unwrap();
    let refused = Table::open(&path).unwrap_err().to_string();
    assert!(
        refused.contains("is not the table this one was made beside"),
        "{refused}"
    );
    let other = Header {
        variant: String::new(),
        ..header(n as u64 - 1, 4096)
    };
    write_table(&dir.path().join("test-t.tb"), &other, &told[1..], 3).unwrap();
    let refused = Table::open(&path).unwrap_err();
    assert!(matches!(refused, TableError::Shared { .. }), "{refused}");
    assert!(refused.to_string().contains("of 49999 slots"), "{refused}");
    std::fs::remove_file(dir.path().join("test-t.tb")).unwrap();
    let refused = Table::open(&path).unwrap_err().to_string();
    assert!(
        refused.contains("test-dtz-t.tb") && refused.contains("test-t.tb: opening"),
        "{refused}"
    );
}

/// Another table's values under this table's header, with every checksum of
/// blocks and prefix made anew, open and read, but `check` refuses them: the
/// values checksum binds the values to the game, variant and tier.
#[test]
fn check_refuses_another_tables_values_under_this_header() {
    let dir = tempfile::tempdir().unwrap();
    let n = 5000usize;
    let (ours, theirs) = (dir.path().join("ours.tb"), dir.path().join("theirs.tb"));
    let header_of = |variant: &str| Header {
        variant: variant.into(),
        ..header(n as u64, 1024)
    };
    write_table(&ours, &header_of("v1"), &values(n), 3).unwrap();
    let other: Vec<u16> = values(n).iter().map(|c| (c + 1) % 23).collect();
    write_table(&theirs, &header_of("v2"), &other, 3).unwrap();
    Table::open(&ours).unwrap().check().unwrap();

    // Their file with our header (the same length) and the prefix checksum made anew.
    let (mine, mut forged) = (
        std::fs::read(&ours).unwrap(),
        std::fs::read(&theirs).unwrap(),
    );
    let u32_at =
        |bytes: &[u8], at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let header_end = 16 + u32_at(&mine, 12) as usize;
    assert_eq!(header_end, 16 + u32_at(&forged, 12) as usize);
    forged[16..header_end].copy_from_slice(&mine[16..header_end]);
    let codes = u32_at(&forged, header_end) as usize;
    let prefix_end = header_end + 4 + 2 * codes + 4 + 16 * n.div_ceil(1024);
    let crc = crc32fast::hash(&forged[..prefix_end]);
    forged[prefix_end..prefix_end + 4].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&ours, &forged).unwrap();

    let table = Table::open(&ours).unwrap();
    assert_eq!(table.header().variant, "v1");
    assert_eq!(table.read_all().unwrap(), other);
    let refused = table.check().unwrap_err().to_string();
    assert!(
        refused.contains("ours.tb") && refused.contains("another table's values"),
        "{refused}"
    );
}

/// Bounded slots take the code before them in their block where they may
/// hold it, and their own code where not: the header says a reader searches,
/// the checksums cover what is stored, and fewer bytes are written.
#[test]
fn bounded_slots_store_the_code_before_them_where_they_may() {
    let dir = tempfile::tempdir().unwrap();
    let n = 50_000usize;
    // Codes 2..40 in runs; every third slot is bounded and may hold any code
    // at least its own (a stand-in for "no better for the side to move").
    let own: Vec<u16> = (0..n).map(|i| 2 + ((i * 7919 / 97) % 38) as u16).collect();
    let bounded = |slot: u64| slot % 3 == 1;
    let may = |slot: u64, code: u16| code >= own[slot as usize];
    let searched = Header {
        exits: tables::Exits::Searched,
        ..header(n as u64, 4096)
    };
    let path = dir.path().join("bounded.tb");
    let slack = tables::Slack {
        left: |_| false,
        bounded,
        may_hold: may,
    };
    let bytes = tables::write_table_slack(&path, &searched, |i| own[i as usize], slack, 3).unwrap();
    let kept = write_table(&dir.path().join("all.tb"), &header(n as u64, 4096), &own, 3).unwrap();
    assert!(bytes < kept, "{bytes} bytes with slack, {kept} without");

    let table = Table::open(&path).unwrap();
    assert_eq!(table.header().exits, tables::Exits::Searched);
    table.check().unwrap();
    let stored = table.read_all().unwrap();
    let mut moved = 0;
    for (i, (&s, &o)) in stored.iter().zip(&own).enumerate() {
        match bounded(i as u64) {
            true => {
                assert!(s >= o, "slot {i}: {s} below its own {o}");
                moved += usize::from(s != o);
                // Stored as the code before it, unless its own.
                if s != o {
                    assert!(i % 4096 != 0 && stored[i - 1] == s, "slot {i}");
                }
            }
            false => assert_eq!(s, o, "slot {i}"),
        }
    }
    assert!(
        moved > n / 40,
        "only {moved} bounded slots took another code"
    );
}

/// A game's own order of a table's slots: `by_code` lays the slots out by
/// their codes (what compresses best), else in a scrambled order; either
/// way after `empty` places that hold no slot.
#[derive(Debug)]
struct Order {
    places: Vec<u64>,
    empty: u64,
}

impl Order {
    fn new(codes: &[u16], by_code: bool, empty: u64) -> Order {
        let mut places: Vec<u64> = (0..codes.len() as u64).collect();
        match by_code {
            true => places.sort_by_key(|&slot| (codes[slot as usize], slot)),
            false => places.sort_by_key(|&slot| slot.wrapping_mul(2_654_435_761) % 1009),
        }
        Order { places, empty }
    }
}

impl tables::Spelling for Order {
    fn places(&self) -> u64 {
        self.places.len() as u64 + self.empty
    }
    fn place(&self, slot: u64) -> u64 {
        let at = self.places.iter().position(|&s| s == slot).unwrap() as u64;
        at + self.empty
    }
    fn slot(&self, place: u64) -> Option<u64> {
        let at = place.checked_sub(self.empty)?;
        self.places.get(at as usize).copied()
    }
}

/// Writes `codes` with `order` offered against its one field, returning
/// the table's path and whether the order was kept.
fn write_offered(dir: &Path, codes: &[u16], order: Order) -> (std::path::PathBuf, bool) {
    let n = codes.len() as u64;
    let path = dir.join("offered.tb");
    let header = Header {
        digits: Digits::weighed(vec![n]),
        empty: Empty::Filled,
        ..header(n, 256)
    };
    let order: std::sync::Arc<dyn tables::Spelling> = std::sync::Arc::new(order);
    let slack = tables::Slack::none();
    let code = |slot: u64| codes[slot as usize];
    let offered = Some(("by-code".to_string(), order));
    tables::write_table_spelled(&path, &header, offered, code, slack, 3).unwrap();
    let kept = Table::open(&path).unwrap().header().spelled.is_some();
    (path, kept)
}

#[test]
fn a_games_order_is_kept_where_it_compresses_better_and_read_through_its_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let n: u64 = 3000;
    let noisy: Vec<u16> = (0..n)
        .map(|slot: u64| 1 + (slot.wrapping_mul(2_654_435_761) >> 9) as u16 % 200)
        .collect();
    let (path, kept) = write_offered(dir.path(), &noisy, Order::new(&noisy, true, 5));
    assert!(kept, "the codes in order beat the noise");
    let table = Table::open(&path).unwrap();
    assert_eq!(table.header().spelled.as_ref().unwrap().places, n + 5);
    table.check().unwrap();
    // Until the game's spelling is given, a lookup says what is missing.
    let unspelled = table.get(0).unwrap_err().to_string();
    assert!(unspelled.contains("by-code"), "{unspelled}");
    let spelling: std::sync::Arc<dyn tables::Spelling> =
        std::sync::Arc::new(Order::new(&noisy, true, 5));
    let speller = |name: &str| match name {
        "by-code" => Ok(spelling.clone()),
        _ => Err(format!("no order {name}")),
    };
    let table = table.spelled_by(&speller).unwrap();
    assert_eq!(table.read_all().unwrap(), noisy);
    for slot in (0..n).step_by(7) {
        assert_eq!(table.get(slot).unwrap(), noisy[slot as usize]);
    }
    let again = table
        .open_again(tables::BlockCache::new(1 << 16), tables::Access::Read)
        .unwrap();
    assert_eq!(again.get(11).unwrap(), noisy[11]);
    // A spelling of another number of places is refused, naming both.
    let other: std::sync::Arc<dyn tables::Spelling> =
        std::sync::Arc::new(Order::new(&noisy, true, 6));
    let refused = Table::open(&path)
        .unwrap()
        .spelled_by(&|_| Ok(other.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("3006") && refused.contains("3005"),
        "{refused}"
    );

    // Codes that run smoothly in slot order keep it against a scrambled order.
    let smooth: Vec<u16> = (0..n).map(|slot| 1 + slot as u16 / 300).collect();
    let (path, kept) = write_offered(dir.path(), &smooth, Order::new(&smooth, false, 0));
    assert!(!kept, "slot order beats the scrambled one");
    assert_eq!(Table::open(&path).unwrap().read_all().unwrap(), smooth);
}
