//! Reads and checks every block of every table in a folder (checksums, zstd
//! frames, lengths and the layout), like Syzygy's `tbcheck`, and where a
//! table's codes are its values, recounts its statistics.

use crate::info::table_files;
use games::ValueKind;
use games::value::Tally;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tables::{Access, BlockCache, Table};

/// What checking one table found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    pub file: String,
    pub bytes: u64,
    /// `None` when every block is sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
}

/// Every table in a folder, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    pub dir: String,
    pub tables: Vec<Checked>,
}

impl CheckReport {
    pub fn damaged(&self) -> usize {
        self.tables.iter().filter(|t| t.damage.is_some()).count()
    }
}

/// Checks one table file whole, that its name is the one its header gives,
/// and where its codes are its values, that they count up to its header's
/// statistics ([`Table::check_counted`]).
pub fn check_table(path: &Path) -> Result<(), tables::TableError> {
    // A cache of its own: checking keeps no block.
    let table = Table::open_with(path, BlockCache::new(1), Access::Read)?;
    table.check_name()?;
    check_counted(&table)
}

/// [`Table::check_counted`] with the statistics the header's value encoding
/// gives of the codes (an encoding not known here is checked uncounted).
pub fn check_counted(table: &Table) -> Result<(), tables::TableError> {
    let Some(kind) = ValueKind::from_tag(&table.header().encoding) else {
        return table.check();
    };
    table.check_counted(&|counts| Tally::of_counts(kind, counts).figures())
}

/// Checks every `*.tb` file in `dir`.
pub fn check_dir(dir: &Path) -> std::io::Result<CheckReport> {
    let tables = table_files(dir)?
        .into_iter()
        .map(|path| Checked {
            file: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            bytes: std::fs::metadata(&path).map_or(0, |m| m.len()),
            damage: check_table(&path).err().map(|e| e.to_string()),
        })
        .collect();
    Ok(CheckReport {
        dir: dir.display().to_string(),
        tables,
    })
}
