//! Property tests of the table reader: arbitrary bytes, and real tables with
//! bytes changed, cut or added, are refused or read, never a panic.

use proptest::prelude::*;
use proptest::test_runner::Config;
use tables::{BlockCache, DEFAULT_BLOCK_ENTRIES, Header, Stats, Table, write_table};

fn table_bytes(entries: u32) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    let header = Header {
        game: "fuzz".into(),
        variant: String::new(),
        tier: String::new(),
        index_size: 1000,
        encoding: "wld16".into(),
        block_entries: entries,
        stats: Stats::default(),
    };
    let values: Vec<u16> = (0..1000).map(|i| (i * 31 % 97) as u16).collect();
    write_table(&path, &header, &values, 3).unwrap();
    std::fs::read(path).unwrap()
}

/// Opens `bytes` as a table and reads it every way there is.
fn read_every_way(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.tb");
    std::fs::write(&path, bytes).unwrap();
    if let Ok(table) = Table::open_with(&path, BlockCache::new(1 << 16)) {
        let size = table.header().index_size;
        for index in [0, 1, size / 2, size.saturating_sub(1), size, u64::MAX] {
            let _ = table.get(index);
        }
        let _ = table.read_all();
        let _ = table.check();
    }
}

proptest! {
    #![proptest_config(Config { cases: 500, failure_persistence: None, ..Config::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        read_every_way(&bytes);
    }

    #[test]
    fn damaged_tables_never_panic(
        entries in prop::sample::select(vec![64u32, 333, DEFAULT_BLOCK_ENTRIES]),
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        cut_it in any::<bool>(),
        tail in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut bytes = table_bytes(entries);
        for (at, value) in changes {
            let at = at.index(bytes.len());
            bytes[at] = value;
        }
        if cut_it {
            bytes.truncate(cut.index(bytes.len()));
        }
        bytes.extend(tail);
        read_every_way(&bytes);
    }
}
