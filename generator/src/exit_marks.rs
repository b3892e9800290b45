//! The slots of a draft whose value a move out of its tier gives, as its
//! solve marked them (see [`crate::tier_codes::Solution::exits`]), kept in
//! a file beside the draft until the draft is written again leaving its exits
//! ([`crate::exits`]), which then reads them instead of searching every
//! slot's moves out. The file names the draft's values checksum: a draft
//! written again, or not the one the marks were made for, finds no marks and
//! is searched as before.
//!
//! Layout: [`MAGIC`], the tier's slots (u64) and the draft's values checksum
//! (u32), little-endian, then the marks, 64 slots a word, little-endian, in
//! one zstd frame with its checksum ([`Marks`]: a solve hands them on so,
//! compressed before its table is written).

use crate::tier_codes::Marks;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use tables::Table;

const MAGIC: &[u8; 8] = b"TBEXITS1";

/// Where the marks of the table at `table` are kept: a hidden file beside it.
pub(crate) fn path(table: &Path) -> PathBuf {
    let name = table.file_name().unwrap_or_default().to_string_lossy();
    table.with_file_name(format!(".{name}.exits"))
}

/// Keeps `marks` for the draft `table`, written whole or not at all.
pub(crate) fn write(table: &Table, marks: &Marks) -> anyhow::Result<()> {
    let slots = table.header().index_size;
    anyhow::ensure!(
        marks.words() as u64 == slots.div_ceil(64),
        "{}: {} words of exit marks for {slots} slots",
        table.path().display(),
        marks.words()
    );
    tables::write_atomically(&path(table.path()), |out| {
        out.write_all(MAGIC)?;
        out.write_all(&slots.to_le_bytes())?;
        out.write_all(&table.values_crc().to_le_bytes())?;
        out.write_all(marks.frame())
    })?;
    Ok(())
}

/// Whether marks are kept for `table`, made for it (its slots and values
/// checksum).
pub(crate) fn made_for(table: &Table) -> bool {
    opened(table).is_some()
}

/// The marks' file, past its head, where it was made for `table`.
fn opened(table: &Table) -> Option<std::fs::File> {
    let mut file = std::fs::File::open(path(table.path())).ok()?;
    let mut head = [0u8; 20];
    file.read_exact(&mut head).ok()?;
    let slots = table.header().index_size;
    let made_for = head[..8] == MAGIC[..]
        && head[8..16] == slots.to_le_bytes()
        && head[16..] == table.values_crc().to_le_bytes();
    made_for.then_some(file)
}

/// The marks kept for `table`, if they are there and were made for it and
/// read back whole; else none.
pub(crate) fn read(table: &Table) -> Option<Vec<u64>> {
    // No more read than the draft's slots call for, and a byte to tell a
    // longer frame: a file that unpacks past that is not these marks.
    let expected = table.header().index_size.div_ceil(64) * 8;
    let mut bytes = Vec::new();
    zstd::Decoder::new(opened(table)?)
        .ok()?
        .take(expected + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 != expected {
        return None;
    }
    let words = bytes.chunks_exact(8);
    Some(
        words
            .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
            .collect(),
    )
}

/// Lets go of the marks of the table at `table`, if any were kept.
pub(crate) fn remove(table: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path(table)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(dir: &Path, name: &str, codes: &[u16]) -> Table {
        let path = dir.join(format!("{name}.tb"));
        crate::write_test_table(&path, name, codes, 256).unwrap();
        Table::open(&path).unwrap()
    }

    /// Marks come back for the draft they were made for, and for no other:
    /// not one written again with other values, not a file cut short.
    #[test]
    fn marks_come_back_only_for_their_draft() {
        let dir = tempfile::tempdir().unwrap();
        let codes: Vec<u16> = (0..1000).map(|i| (i % 7) as u16 + 2).collect();
        let draft = table(dir.path(), "a", &codes);
        assert!(read(&draft).is_none() && !made_for(&draft));
        let marks: Vec<u64> = (0..16).map(|w| w * 0x0101_0101 + 5).collect();
        let packed = Marks::pack(&marks);
        assert_eq!(packed.unpack(), marks);
        write(&draft, &packed).unwrap();
        assert_eq!(read(&draft), Some(marks.clone()));
        assert!(made_for(&draft));
        assert!(write(&draft, &Marks::pack(&marks[1..])).is_err());

        let mut changed = codes.clone();
        changed[500] = 9;
        let again = table(dir.path(), "a", &changed);
        assert!(read(&again).is_none() && !made_for(&again));

        let draft = table(dir.path(), "a", &codes);
        assert_eq!(read(&draft), Some(marks.clone()));
        let file = path(draft.path());
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
        assert!(made_for(&draft) && read(&draft).is_none());
        // Longer than the draft's slots: not these marks.
        write(&draft, &packed).unwrap();
        let mut longer = std::fs::read(&file).unwrap()[..20].to_vec();
        longer.extend(zstd::encode_all(&vec![0u8; 16 * 8 + 64][..], 1).unwrap());
        std::fs::write(&file, longer).unwrap();
        assert!(made_for(&draft) && read(&draft).is_none());
        remove(draft.path()).unwrap();
        assert!(!file.exists());
        remove(draft.path()).unwrap();
    }
}
