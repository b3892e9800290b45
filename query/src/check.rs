//! Reads and checks every block of every table in a folder (checksums, zstd
//! frames, lengths and the layout), like Syzygy's `tbcheck`.

use crate::info::table_files;
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

/// Checks one table file whole, and that its name is the one its header gives.
pub fn check_table(path: &Path) -> Result<(), tables::TableError> {
    // A cache of its own: checking keeps no block.
    let table = Table::open_with(path, BlockCache::new(1), Access::Read)?;
    table.check_name()?;
    table.check()
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
