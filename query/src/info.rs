//! Lists the tables in a folder with their header statistics.

use serde_json::{Value as Json, json};
use std::path::Path;
use tables::Table;

/// One table file found, or why it could not be read.
#[derive(Debug)]
pub struct Entry {
    pub file: String,
    pub table: Result<Table, tables::TableError>,
}

/// Every `*.tb` file in `dir`, sorted by name.
pub fn scan(dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tb"))
        .collect();
    files.sort();
    Ok(files
        .into_iter()
        .map(|path| Entry {
            file: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            table: Table::open(&path),
        })
        .collect())
}

impl Entry {
    pub fn to_json(&self) -> Json {
        match &self.table {
            Err(e) => json!({ "file": self.file, "error": e.to_string() }),
            Ok(table) => {
                let h = table.header();
                let s = &h.stats;
                let extra: serde_json::Map<String, Json> =
                    s.extra.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
                json!({
                    "file": self.file,
                    "game": h.game,
                    "variant": h.variant,
                    "tier": h.tier,
                    "encoding": h.encoding,
                    "index_size": h.index_size,
                    "positions": s.positions,
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                    "longest": s.longest,
                    "solve_seconds": s.solve_seconds,
                    "bytes": table.file_bytes(),
                    "extra": extra,
                })
            }
        }
    }

    pub fn to_text(&self) -> String {
        match &self.table {
            Err(e) => format!("{}: unreadable: {e}", self.file),
            Ok(table) => {
                let h = table.header();
                let s = &h.stats;
                let outcomes = if h.encoding == games::grundy::GRUNDY_ENCODING {
                    format!(
                        "Grundy values of heaps 0 to {}, {} of them 0; largest value {}",
                        s.positions.saturating_sub(1),
                        s.losses,
                        s.longest
                    )
                } else if h.encoding == games::ValueKind::Score.tag() {
                    format!(
                        "{} won, {} lost, {} tied for the mover; largest score {}",
                        s.wins, s.losses, s.draws, s.longest
                    )
                } else {
                    format!(
                        "{} wins, {} losses, {} draws; longest {}",
                        s.wins, s.losses, s.draws, s.longest
                    )
                };
                let mut line = format!(
                    "{}: {} {} {}  {} slots, {} positions: {outcomes}; solved in {:.3} s; {} bytes",
                    self.file,
                    h.game,
                    h.variant,
                    h.tier,
                    h.index_size,
                    s.positions,
                    s.solve_seconds,
                    table.file_bytes()
                );
                for (k, v) in &s.extra {
                    line.push_str(&format!("\n    {k}: {v}"));
                }
                line
            }
        }
    }
}
