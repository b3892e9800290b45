//! Property tests of the table reader: arbitrary bytes, and real tables with
//! bytes changed, cut or added, are refused or read, never a panic.

use proptest::prelude::*;
use proptest::test_runner::Config;
use tables::{Access, BlockCache, DEFAULT_BLOCK_ENTRIES, Empty, Header, Stats, Table, write_table};

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
        lanes: 1,
        digits: Default::default(),
        spelled: None,
        empty: Empty::Kept,
        shared: None,
        exits: Default::default(),
        lane_left: None,
        stats: Stats::default(),
    };
    let values: Vec<u16> = (0..1000).map(|i| (i * 31 % 97) as u16).collect();
    write_table(&path, &header, &values, 3).unwrap();
    std::fs::read(path).unwrap()
}

/// Opens `bytes` as a table, mapped and read, and reads it every way there is;
/// both ways agree on what they could read.
fn read_every_way(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.tb");
    std::fs::write(&path, bytes).unwrap();
    let [mapped, read] = [Access::Mapped, Access::Read].map(|access| {
        Table::open_with(&path, BlockCache::new(1 << 16), access).map(|table| {
            let size = table.header().index_size;
            let mut codes: Vec<_> = [0, 1, size / 2, size.saturating_sub(1), size, u64::MAX]
                .into_iter()
                .map(|index| table.get(index).ok())
                .collect();
            codes.push(table.read_all().ok().map(|all| all.len() as u16));
            codes.push(table.check().ok().map(|()| 1));
            codes
        })
    });
    assert_eq!(mapped.is_ok(), read.is_ok());
    if let (Ok(mapped), Ok(read)) = (mapped, read) {
        assert_eq!(mapped, read);
    }
}

/// A header whose first string claims 2^64 - 1 bytes is refused before any
/// allocation is attempted for it.
#[test]
fn an_absurd_string_length_in_the_header_is_refused() {
    let mut bytes = table_bytes(64);
    // The game name is the header's first field: a varint length, then "fuzz".
    assert_eq!(&bytes[16..21], b"\x04fuzz");
    bytes.splice(
        16..17,
        [0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) + 8;
    bytes[12..16].copy_from_slice(&header_len.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absurd.tb");
    std::fs::write(&path, &bytes).unwrap();
    let Err(error) = Table::open_with(&path, BlockCache::new(1 << 16), Access::Read) else {
        panic!("an absurd header must be refused");
    };
    let message = error.to_string();
    assert!(message.contains("unreadable header"), "{message}");
    assert!(message.contains("absurd.tb"), "{message}");
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
