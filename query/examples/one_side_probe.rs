//! What valuing every move of a position would cost if a chess table stored
//! one side to move only, as Syzygy's DTZ files do: each move's position is
//! then of the side not stored, valued by a search of its own moves, so the
//! probe looks up every position two plies down instead of one.
//!
//! ```sh
//! cargo run --release -p query --example one_side_probe -- DIR FEN [dtm|dtz]
//! ```
//!
//! DIR holds the tables of the FEN's ending (`tbgen chess ENDING`). Prints,
//! warm (each measured over 2,000 rounds after one that opens the tables), the
//! probe as it is (every move valued), the lookups of the moves' positions,
//! and those of the positions two plies down, with the time of making the
//! moves taken apart, then the same positions' stored codes alone (no search
//! of their captures).

use games::Game;
use games::chess::{Board, Color, Endgame, Material, Metric, Role, Square, attacks};
use query::Tablebase;
use std::hint::black_box;
use std::time::Instant;

const ROUNDS: u32 = 2_000;

/// Microseconds a round of `work` takes, warm.
fn time(mut work: impl FnMut() -> u64) -> f64 {
    black_box(work());
    let began = Instant::now();
    for _ in 0..ROUNDS {
        black_box(work());
    }
    began.elapsed().as_secs_f64() * 1e6 / f64::from(ROUNDS)
}

/// Every position one ply down from `board`.
fn children(game: &Endgame, board: &Board) -> Vec<Board> {
    let moves = game.moves(board);
    moves
        .iter()
        .map(|mv| game.play(board, mv).position)
        .collect()
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(fen)) = (args.get(1), args.get(2)) else {
        anyhow::bail!("usage: one_side_probe DIR FEN [dtm|dtz]");
    };
    let metric = Metric::parse(args.get(3).map_or("dtz", String::as_str))?;
    let game = Endgame::of_all(&Material::all_up_to(5)).with_metric(metric);
    let tb = Tablebase::new(&game, dir);
    let root = game.parse_position(fen)?;
    // Every position timed is one the tables value: a lookup that failed
    // would be timed as its error's path.
    query::probe(&tb, &root)?;
    let mut grandchildren = 0;
    for child in children(&game, &root) {
        tb.value(&child)?;
        for grandchild in children(&game, &child) {
            tb.value(&grandchild)?;
            grandchildren += 1;
        }
    }
    let value = |board: &Board| -> u64 { tb.value(board).map_or(0, |v| u64::from(v.code())) };
    let probe = time(|| query::probe(&tb, &root).map_or(0, |p| p.moves.len() as u64));
    let one_ply = time(|| children(&game, &root).iter().map(value).sum());
    let moves_two = time(|| {
        let kids = children(&game, &root);
        kids.iter().map(|c| children(&game, c).len() as u64).sum()
    });
    // Every position two plies down valued by `look`, the moves made too.
    let two_plies = |look: &dyn Fn(&Board) -> u64| {
        time(|| {
            let kids = children(&game, &root);
            kids.iter()
                .flat_map(|c| children(&game, c))
                .map(|g| look(&g))
                .sum()
        })
    };
    let two_ply = two_plies(&value);
    let lookups = two_ply - moves_two;
    // The stored code alone (no search of the moves out of the ending): what
    // a probe that bounds a position by its stored value reads first.
    let stored = |board: &Board| -> u64 {
        if !game.stored(board) {
            return 0;
        }
        let (tier, index) = Game::locate(&game, board);
        tb.table(tier)
            .and_then(|table| Ok(table.get(index)?))
            .map_or(0, u64::from)
    };
    let two_ply_stored = two_plies(&stored);
    let stored_lookups = two_ply_stored - moves_two;
    // The same grandchildren's stored codes found as the solver finds a
    // move's slot: each move's position spelled once from its slot, then each
    // quiet step arithmetic on that slot where the kings settle, else found
    // under the symmetries (moves into check not weeded out, captures left
    // out: a bound on the work).
    let quiet_stored = || -> (u64, u64) {
        let (mut sum, mut looked) = (0, 0);
        for child in children(&game, &root) {
            let (tier, slot) = Game::locate(&game, &child);
            let Ok(table) = tb.table(tier) else { continue };
            let Some(layout) = game.layout_at(tier, slot) else {
                continue;
            };
            let settle = game.settled(tier);
            let turn = layout.turn;
            let after = turn.other();
            let squares = layout.squares();
            let occupied = layout.others[..layout.count]
                .iter()
                .fold(layout.kings[0].bit() | layout.kings[1].bit(), |b, p| {
                    b | p.1.bit()
                });
            let kings_settle = settle.slot(layout.kings, 0, after).is_some();
            for (i, &(kind, from)) in layout.others[..layout.count].iter().enumerate() {
                let white = kind < 8;
                if white != (turn == Color::White) || !layout.unique(i) || !kings_settle {
                    continue;
                }
                let weight = layout.weight(i);
                let rest = squares - u64::from(from.number()) * weight;
                let role = Role::ALL[usize::from(kind % 8)];
                let mut targets = attacks().targets(role, from, occupied) & !occupied;
                while targets != 0 {
                    let to = Square::first(targets);
                    targets &= targets - 1;
                    let squares = rest + u64::from(to.number()) * weight;
                    if let Some(slot) = settle.slot(layout.kings, squares, after) {
                        sum += u64::from(table.get(slot).unwrap_or(0));
                        looked += 1;
                    }
                }
            }
            // A king's step moves the pair: arithmetic where the new pair
            // settles, else found under the symmetries, as the solver does.
            let king = turn as usize;
            let mut steps = attacks().king(layout.kings[king]) & !occupied;
            while steps != 0 {
                let to = Square::first(steps);
                steps &= steps - 1;
                let mut stepped = layout;
                stepped.kings[king] = to;
                stepped.turn = after;
                let slot = settle
                    .slot(stepped.kings, squares, after)
                    .unwrap_or_else(|| game.slot_of_layout(tier, false, &stepped));
                sum += u64::from(table.get(slot).unwrap_or(0));
                looked += 1;
            }
        }
        (sum, looked)
    };
    let (_, arithmetic_looked) = quiet_stored();
    let two_ply_arithmetic = time(|| quiet_stored().0);
    println!("{fen} under {metric:?}, tables open:");
    println!("  the probe as it is (every move valued): {probe:.1} µs");
    println!("  the moves' positions looked up: {one_ply:.1} µs");
    println!(
        "  the {grandchildren} positions two plies down: {two_ply:.1} µs \
         ({moves_two:.1} making the moves, {lookups:.1} looking up, {:.0} ns a lookup)",
        lookups * 1e3 / grandchildren as f64
    );
    println!(
        "  the same, each position's stored code alone: {two_ply_stored:.1} µs \
         ({stored_lookups:.1} looking up, {:.0} ns a lookup)",
        stored_lookups * 1e3 / grandchildren as f64
    );
    println!(
        "  {arithmetic_looked} quiet steps, by arithmetic on their parents' slots where the \
         kings settle, stored codes read: {two_ply_arithmetic:.1} µs \
         with the moves, {:.0} ns a position",
        two_ply_arithmetic * 1e3 / arithmetic_looked.max(1) as f64
    );
    Ok(())
}
