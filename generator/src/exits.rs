//! Tables that leave their exits to a search: after a game's tiers are all
//! solved, each table is written again, the last solved first, so that a slot
//! whose value a move out of its tier gives (a capture or a promotion in
//! chess) stores what compresses best within a bound ([`tables::Exits`]).
//! The last solved go first because finding which slots those are reads the
//! values of the tiers below, which must still be stored whole; a tier whose
//! solve marked those slots itself ([`crate::exit_marks`]) reads none.

use crate::exit_marks;
use crate::order::{Finished, HELD_BUDGET, Store, visit_in_reverse};
use crate::output::write_leaving_exits;
use crate::tier_codes::{TierCodes, WHOLE_SLOTS, read_in_order};
use crate::{Files, Summary, WriteOptions};
use games::Game;
use tables::Exits;

/// Rewrites every table of `game` in `files`' folder that stores its exits
/// (a run resumed keeps some that search theirs already), `reads` naming the
/// tiers each tier's moves lead to and `decide` marking, 64 slots a word, the
/// slots of a tier whose codes a move out of it gives, where its solve left
/// no marks of them beside its draft ([`crate::exit_marks`]); written as
/// `write` says; updates the summaries' bytes. `beside` is given each
/// tier's final codes and those slots before each is written, to write a
/// table made from them (chess: WDL50 from DTZ, which DTZ then leaves its
/// draws to), whose summary joins the others.
pub(crate) fn leave_exits<G: Game>(
    game: &G,
    reads: impl Fn(u32) -> Vec<u32>,
    files: &mut Files<'_, G>,
    write: &WriteOptions,
    decide: impl Fn(u32, &dyn TierCodes, &Finished) -> Vec<u64>,
    beside: impl Fn(u32, &dyn TierCodes, &[u64]) -> anyhow::Result<Option<Summary>>,
) -> anyhow::Result<()> {
    let (mut stored, mut marked) = (Vec::new(), Vec::new());
    for tier in game.tiers() {
        let table = files.table(tier)?;
        if table.header().exits == Exits::Stored {
            stored.push(tier);
            // A draft whose solve kept its marks reads no tier below.
            if exit_marks::made_for(&table) {
                marked.push(tier);
            }
        }
    }
    let reads = |tier| match marked.contains(&tier) {
        true => Vec::new(),
        false => reads(tier),
    };
    let mut made_beside = Vec::new();
    let rewrite = |tier, below: &Finished, files: &mut Files<'_, G>| {
        let table = files.table(tier)?;
        let (whole, read);
        let codes: &dyn TierCodes = match table.header().index_size <= WHOLE_SLOTS {
            true => {
                whole = table.read_codes()?;
                // The file's pages, all read, are not read again.
                table.drop_pages();
                &whole
            }
            // Read through the blocks' cache: the writer weighs orders of the
            // fields on blocks whose slots lie all over the table (codes
            // packed in memory cost a run decompressed a slot there).
            false => {
                read = read_in_order(&table)?;
                &read
            }
        };
        // The solve's marks where it kept them for this draft, else a search.
        let marks = marked.contains(&tier).then(|| exit_marks::read(&table));
        let decided = match marks {
            None => decide(tier, codes, below),
            Some(Some(marks)) => marks,
            // Its head read, its bits not: the tiers below were not made
            // ready for a search. Gone, so that the next run searches.
            Some(None) => {
                exit_marks::remove(table.path())?;
                let path = exit_marks::path(table.path());
                anyhow::bail!("{}: unreadable, and removed; run again", path.display());
            }
        };
        // Made first: the table may leave values to it (DTZ its draws).
        let made = beside(tier, codes, &decided)?;
        // Codes held whole are read without a call through the trait a slot.
        let bytes = match codes.held() {
            Some(held) => write_leaving_exits(game, tier, &table, held, &decided, write)?,
            None => write_leaving_exits(game, tier, &table, codes, &decided, write)?,
        };
        exit_marks::remove(table.path())?;
        files
            .summaries
            .iter_mut()
            .filter(|summary: &&mut Summary| summary.path == table.path())
            .for_each(|summary| summary.bytes = bytes);
        made_beside.extend(made);
        Ok(())
    };
    visit_in_reverse(game, &stored, reads, files, HELD_BUDGET, rewrite)?;
    // Made last tier first: listed in the tiers' order.
    files.summaries.extend(made_beside.into_iter().rev());
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::order::Solved;
    use crate::progress::Progress;
    use games::chess::{Endgame, Material, Metric};
    use games::{Game, Value};
    use rayon::prelude::*;

    /// For every slot of `tier`, 64 a word, whether a move out of the tier
    /// gives its value (`codes`), a win or a loss, the tiers below read from
    /// `below`: through the game's positions and moves, as a reader searches
    /// them.
    fn decided_by_moves<G: Game>(
        game: &G,
        tier: u32,
        codes: &tables::Codes,
        below: &impl Solved,
    ) -> Vec<u64> {
        let kind = game.value_kind();
        let value_of = |child: &G::Position| -> Result<Value, ()> {
            if !game.stored(child) {
                return Err(());
            }
            let (tier, slot) = game.locate(child);
            Value::from_code(kind, below.code(tier, slot)).ok_or(())
        };
        let decided = |slot: usize| -> bool {
            let Some(position) = game.position_at(tier, slot as u64) else {
                return false;
            };
            match games::value_of_exits(game, &position, value_of) {
                Ok(Some(Value::Draw)) => false,
                Ok(Some(best)) => Value::from_code(kind, codes.get(slot as u64)) == Some(best),
                _ => false,
            }
        };
        let size = codes.len() as usize;
        (0..size.div_ceil(64))
            .into_par_iter()
            .map(|word| {
                let slots = word * 64..((word + 1) * 64).min(size);
                slots
                    .enumerate()
                    .filter(|&(_, slot)| decided(slot))
                    .fold(0u64, |bits, (bit, _)| bits | 1 << bit)
            })
            .collect()
    }

    /// Drafts with their marks are written again as the search writes them;
    /// marks whose bits cannot be read stop the pass with an error that
    /// names them, are removed, and the pass run again searches.
    #[test]
    fn marks_write_what_the_search_writes_and_bad_ones_go() {
        use games::spec::{Options, Purpose};
        use std::path::Path;
        let progress = Progress::hidden();
        let options = Options::with(
            Purpose::Generate,
            [("materials", "KRvKB"), ("metric", "dtm")],
        );
        let names = ["KvK", "KRvK", "KBvK", "KRvKB"].map(|e| format!("chess-{e}.tb"));
        let marks_of = |dir: &Path| names.clone().map(|name| dir.join(format!(".{name}.exits")));
        let finish = |dir: &Path, change: &dyn Fn(&Path)| {
            let write = crate::WriteOptions {
                reproducible: true,
                ..crate::WriteOptions::new(dir)
            };
            let mut summaries = crate::chess::generate_tables(&options, &write, &progress).unwrap();
            assert!(marks_of(dir).iter().all(|marks| marks.exists()));
            change(dir);
            let first = crate::chess::finish_tables(&options, &write, &progress, &mut summaries);
            let again = crate::chess::finish_tables(&options, &write, &progress, &mut summaries);
            assert_eq!(std::fs::read_dir(dir).unwrap().count(), 4, "no marks left");
            first.err().map(|e| (e.to_string(), again.is_ok()))
        };
        let tables = |dir: &Path| {
            names
                .clone()
                .map(|name| std::fs::read(dir.join(name)).unwrap())
        };
        let searched = tempfile::tempdir().unwrap();
        let forget = |dir: &Path| {
            marks_of(dir)
                .iter()
                .for_each(|m| std::fs::remove_file(m).unwrap())
        };
        assert_eq!(finish(searched.path(), &forget), None);
        let marked = tempfile::tempdir().unwrap();
        assert_eq!(finish(marked.path(), &|_| ()), None);
        assert!(tables(marked.path()) == tables(searched.path()));
        // Cut short: its head reads, its bits do not.
        let cut = |dir: &Path| {
            let marks = &marks_of(dir)[3];
            let bytes = std::fs::read(marks).unwrap();
            std::fs::write(marks, &bytes[..bytes.len() - 4]).unwrap();
        };
        let bad = tempfile::tempdir().unwrap();
        let (said, again) = finish(bad.path(), &cut).expect("an error");
        assert!(
            said.contains(".chess-KRvKB.tb.exits") && said.contains("removed"),
            "{said}"
        );
        assert!(again);
        assert!(tables(bad.path()) == tables(searched.path()));
    }

    /// The chess solver's scans mark the slots a capture or a promotion
    /// decides exactly where the game's own moves, as a reader searches
    /// them, do: on every tier of KRvKB's, KPvK's, KRRvK's and KQvKP's
    /// chains (where Black's promotions may all lose), DTM and DTZ; and so
    /// do the marks every tier's solve leaves (DTZ told by DTM's codes, as
    /// `tbgen` solves it, and not): from its slots due without pawns, from
    /// its scans' best moves out with them. KRRvK's
    /// Black takes a rook and is still lost: captures that all lose, some
    /// where they are all its moves.
    #[test]
    fn chess_scans_find_the_slots_exits_decide_as_a_reader_does() {
        let progress = Progress::hidden();
        for material in ["KRvKB", "KPvK", "KRRvK", "KQvKP"] {
            let mut dtm_codes: Vec<tables::Codes> = Vec::new();
            let runs = [
                (Metric::Dtm, false),
                (Metric::Dtz, false),
                (Metric::Dtz, true),
            ];
            for (metric, told) in runs {
                let game = Endgame::new(&Material::parse(material).unwrap()).with_metric(metric);
                let mut solved: Vec<tables::Codes> = Vec::new();
                let (mut found, mut marked) = (0, 0);
                for tier in game.tiers() {
                    let dtm = told.then(|| crate::chess::Dtm::Codes(&dtm_codes[tier as usize]));
                    let solution = crate::chess::solve_tier_packing(
                        &game,
                        tier,
                        &mut solved,
                        dtm,
                        &progress,
                        u64::MAX,
                    );
                    let marks = solution.exits().map(crate::tier_codes::Marks::unpack);
                    let codes = solution.into_codes();
                    let scans =
                        crate::chess::decided_by_exits(&game, tier, &codes, &solved, &progress);
                    let moves = decided_by_moves(&game, tier, &codes, &solved);
                    let name = game.tier_name(tier);
                    assert!(scans == moves, "{name} {metric:?}");
                    found += moves.iter().map(|w| w.count_ones()).sum::<u32>();
                    if let Some(marks) = marks {
                        assert!(marks == moves, "{name} {metric:?} told {told}: marks");
                        marked += 1;
                    }
                    if metric == Metric::Dtm {
                        dtm_codes.push(codes.clone());
                    }
                    solved.push(codes);
                }
                assert!(found > 10_000, "{material} {metric:?}: {found}");
                assert_eq!(marked, game.tiers().len(), "{material} {metric:?}");
            }
        }
    }
}
