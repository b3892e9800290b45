use std::path::Path;
use tables::{FORMAT_VERSION, Header, Stats, Table, TableError, write_atomically, write_table};

fn header(index_size: u64, block_entries: u32) -> Header {
    Header {
        game: "test".into(),
        variant: "v1".into(),
        tier: "t".into(),
        index_size,
        encoding: "wld16".into(),
        block_entries,
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
    ] {
        let path = write(dir.path(), n, block);
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header(), &header(n as u64, block));
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
