//! Bytes of a chess table whose second side to move is stored as the rank of
//! its code among the codes seen with the first side's code at the same
//! placement: how much of a lane the other lane foretells.
//!
//! `cargo run --release -p query --example cross_lane -- DIR ENDING OUT`,
//! where DIR holds ENDING's chain (DTM). Writes into OUT, with this format's
//! writer (weighed orders, both fills, zstd level 9), the table as stored
//! today (`same.tb`) and the table with White's lane (`white-ranked.tb`) or
//! Black's (`black-ranked.tb`) stored as ranks, wins and losses a capture gives
//! freed as today; prints the bytes of each and the rank tables' size.

// Shared with the other measuring examples, which use the rest of it.
#[allow(dead_code)]
mod slots;

use games::chess::Metric;
use games::{Game, Value};
use std::collections::HashMap;
use tables::Slack;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, ending, out] = &args[..] else {
        anyhow::bail!("usage: cross_lane DIR ENDING OUT");
    };
    let game = slots::endgame(ending, Metric::Dtm)?;
    let slots = slots::Slots::read(&game, dir, ending)?;
    let (codes, held, exits) = (&slots.codes, &slots.held, &slots.exits);
    let value = |code: u16| Value::from_code(slots.game.value_kind(), code);
    let table = slots.tablebase.table(slots.tier)?;
    assert_eq!(table.header().lanes, 2, "both sides to move stored");
    let seen = |slot: usize| if held[slot] { codes[slot] } else { 0 };
    let freed = |slot: usize| {
        let own = value(codes[slot]);
        held[slot] && exits[slot] == own && own != Some(Value::Draw)
    };
    std::fs::create_dir_all(out)?;
    let header = slots::searched_header(table.header());
    for ranked in [None, Some(0usize), Some(1)] {
        // For each code of the other lane, the ranked lane's codes by how
        // often they stand beside it, most often first.
        let mut counts: HashMap<(u16, u16), u64> = HashMap::new();
        if let Some(lane) = ranked {
            for slot in (lane..codes.len()).step_by(2) {
                if held[slot] {
                    *counts.entry((seen(slot ^ 1), codes[slot])).or_default() += 1;
                }
            }
        }
        let mut by_other: HashMap<u16, Vec<(u64, u16)>> = HashMap::new();
        for (&(other, own), &n) in &counts {
            by_other.entry(other).or_default().push((n, own));
        }
        let mut rank: HashMap<(u16, u16), u16> = HashMap::new();
        let mut of_rank: HashMap<(u16, u16), u16> = HashMap::new();
        for (other, mut list) in by_other {
            list.sort_by(|a, b| b.cmp(a));
            for (r, (_, own)) in list.into_iter().enumerate() {
                rank.insert((other, own), r as u16 + 1);
                of_rank.insert((other, r as u16 + 1), own);
            }
        }
        let is_ranked = |slot: usize| ranked == Some(slot % 2);
        let code = |slot: u64| {
            let slot = slot as usize;
            match (held[slot], is_ranked(slot)) {
                (false, _) => 0,
                (true, false) => codes[slot],
                (true, true) => rank[&(seen(slot ^ 1), codes[slot])],
            }
        };
        let may_hold = |slot: u64, stored: u16| {
            let slot = slot as usize;
            if !freed(slot) || stored == 0 {
                return false;
            }
            let own = value(codes[slot]).expect("a value");
            let stored = match is_ranked(slot) {
                false => Some(stored),
                true => of_rank.get(&(seen(slot ^ 1), stored)).copied(),
            };
            stored
                .and_then(value)
                .is_some_and(|s| s.cmp_for_mover(own).is_le())
        };
        let name = match ranked {
            None => "same.tb".to_string(),
            Some(lane) => format!("{}-ranked.tb", ["white", "black"][lane]),
        };
        let path = std::path::Path::new(out).join(&name);
        let slack = Slack::bounded_by(may_hold);
        let bytes = tables::write_table_slack(&path, &header, code, slack, 9)?;
        println!(
            "{ending} {name}: {bytes} bytes, rank table {} pairs",
            rank.len()
        );
    }
    Ok(())
}
