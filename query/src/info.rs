//! Lists the tables in a folder with their header statistics.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tables::Table;

/// What a table's header says, as `tbquery info` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableSummary {
    pub game: String,
    pub variant: String,
    pub tier: String,
    pub encoding: String,
    pub index_size: u64,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest: u32,
    pub solve_seconds: f64,
    pub bytes: u64,
    /// Bytes per value before compression (1: a dictionary of at most 256 codes).
    #[serde(default)]
    pub value_bytes: usize,
    /// The table beside this one whose slots of one value this one reads
    /// (chess DTZ: its draws, from the WDL50 table), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads_from: Option<String>,
    /// That value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaves: Option<String>,
    /// The radices of the fields of a lane's entry as the index spells them,
    /// and the order the blocks store them in (chess: the king pair, or the
    /// pawns and the king pair, then one field per kind of piece), where
    /// the game names fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Fields>,
    /// The game's own order the table is stored in, where it is (`tbgen
    /// --game-order`; chess: each side to move's file index, its pieces in
    /// FEN letters, the leader first, White to move's then Black to move's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_order: Option<String>,
    /// The lane the table leaves to a search of its moves, where it stores
    /// one side to move alone (`tbgen --one-side`; chess: 0 is White to move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane_left: Option<u32>,
    /// Figures particular to the game, e.g. counts over unfolded positions, in
    /// the header's order.
    #[serde(with = "pairs")]
    pub extra: Vec<(String, String)>,
}

/// The fields of a lane's entry, and the order they are stored in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fields {
    pub radices: Vec<u64>,
    pub order: Vec<u8>,
}

/// Name/value pairs as a JSON object, keeping their order.
mod pairs {
    use serde::de::{MapAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(pairs)
            }
        }
        d.deserialize_map(Pairs)
    }
}

/// One table file found: its summary, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub file: String,
    #[serde(flatten)]
    pub content: Content,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Table(Box<TableSummary>),
    Unreadable { error: String },
}

/// Every table in a folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    pub dir: String,
    pub tables: Vec<Entry>,
}

/// The `*.tb` files in `dir`, in natural order (`abapa-2seeds` before
/// `abapa-10seeds`).
pub fn table_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tb"))
        .collect();
    files.sort_by_cached_key(|p| natural_key(&file_name(p)));
    Ok(files)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// Every table in `dir` with its header's statistics.
pub fn scan(dir: &Path) -> std::io::Result<Listing> {
    let tables = table_files(dir)?
        .into_iter()
        .map(|path| Entry {
            file: file_name(&path),
            content: match Table::open(&path).and_then(|t| t.check_name().map(|()| t)) {
                Ok(table) => Content::Table(Box::new(summary(&table))),
                Err(e) => Content::Unreadable {
                    error: e.to_string(),
                },
            },
        })
        .collect();
    Ok(Listing {
        dir: dir.display().to_string(),
        tables,
    })
}

/// A sort key that orders runs of digits by their number.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 {
            let number = rest[..digits].parse().unwrap_or(u64::MAX);
            key.push((String::new(), number));
            rest = &rest[digits..];
        } else {
            let text = rest
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(rest.len());
            key.push((rest[..text].to_string(), 0));
            rest = &rest[text..];
        }
    }
    key
}

/// What a table's header says.
pub fn summary(table: &Table) -> TableSummary {
    let h = table.header();
    let s = &h.stats;
    TableSummary {
        game: h.game.clone(),
        variant: h.variant.clone(),
        tier: h.tier.clone(),
        encoding: h.encoding.clone(),
        index_size: h.index_size,
        positions: s.positions,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
        longest: s.longest,
        solve_seconds: s.solve_seconds,
        bytes: table.file_bytes(),
        value_bytes: table.code_bytes(),
        reads_from: table.beside().map(|beside| file_name(beside.path())),
        leaves: h.shared.as_ref().map(|shared| {
            let kind = games::ValueKind::from_tag(&h.encoding);
            let value = kind.and_then(|kind| games::Value::from_code(kind, shared.code));
            value.map_or(format!("code {}", shared.code), |v| v.to_string())
        }),
        fields: (!h.digits.radices.is_empty()).then(|| Fields {
            radices: h.digits.radices.clone(),
            order: h.digits.order.clone(),
        }),
        game_order: h.spelled.as_ref().map(|spelled| spelled.name.clone()),
        lane_left: h.lane_left,
        extra: s.extra.clone(),
    }
}

impl Entry {
    /// Whether the table could be read.
    pub fn readable(&self) -> bool {
        matches!(self.content, Content::Table(_))
    }

    /// The entry for people: one line, and a line per extra figure.
    pub fn to_text(&self) -> String {
        let s = match &self.content {
            Content::Unreadable { error } => return format!("{}: unreadable: {error}", self.file),
            Content::Table(s) => s,
        };
        let outcomes = if s.encoding == games::ValueKind::Score.tag() {
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
        let names: Vec<&str> = [&s.game, &s.variant, &s.tier]
            .into_iter()
            .map(String::as_str)
            .filter(|n| !n.is_empty())
            .collect();
        let mut line = format!(
            "{}: {}  {} slots, {} positions: {outcomes}; solved in {:.3} s; {} bytes ({}-byte values)",
            self.file,
            names.join(" "),
            s.index_size,
            s.positions,
            s.solve_seconds,
            s.bytes,
            s.value_bytes
        );
        if let (Some(beside), Some(value)) = (&s.reads_from, &s.leaves) {
            line.push_str(&format!("; every {value} read from {beside}"));
        }
        if let Some(fields) = &s.fields {
            let list = |items: Vec<String>| items.join(", ");
            line.push_str(&format!(
                "; fields ({}) stored in the order {}",
                list(fields.radices.iter().map(u64::to_string).collect()),
                list(fields.order.iter().map(u8::to_string).collect())
            ));
        }
        if let Some(order) = &s.game_order {
            line.push_str(&format!("; stored in its game's order {order}"));
        }
        if let Some(lane) = s.lane_left {
            line.push_str(&format!(
                "; lane {lane} not stored (its positions valued by a search of their moves)"
            ));
        }
        for (k, v) in &s.extra {
            line.push_str(&format!("\n    {k}: {v}"));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::natural_key;

    #[test]
    fn numbers_sort_by_value() {
        let mut names = [
            "abapa-10seeds.tb",
            "abapa-1seeds.tb",
            "abapa-2seeds.tb",
            "abapa.tb",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "abapa-1seeds.tb",
                "abapa-2seeds.tb",
                "abapa-10seeds.tb",
                "abapa.tb"
            ]
        );
    }
}
