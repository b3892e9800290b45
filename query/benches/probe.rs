//! Probe latency: `cargo bench -p query` (makes the Euler table, chess KQvK,
//! KRBvKR (DTM and DTZ) and KPPvK with their smaller endings in a temporary
//! folder). With
//! `PAWN_TABLES=DIR`, the pawn probe reads KRPvKR from tables already made in DIR
//! (`tbgen --dir DIR chess KRPvKR`, about 6 minutes) instead of making KPPvK.
//! With `GAME_ORDER=1`, the tables it makes are written as `tbgen
//! --game-order` writes them; with `ONE_SIDE=1`, as `tbgen --one-side`
//! writes them (one side to move stored, the other searched).

use criterion::{Criterion, criterion_group, criterion_main};
use games::Game;
use games::chess::{Endgame, Material};
use games::euler::Euler;
use games::spec::{Options, Purpose};
use generator::{Progress, WriteOptions, generate_game};
use query::{Tablebase, probe};

/// Makes the tables of game `id` into `dir`.
fn generate(dir: &std::path::Path, id: &str, options: &[(&str, &str)]) {
    let options = Options::with(Purpose::Generate, options.iter().copied());
    let write = WriteOptions {
        game_order: std::env::var_os("GAME_ORDER").is_some(),
        one_side: std::env::var_os("ONE_SIDE").is_some(),
        ..WriteOptions::new(dir)
    };
    generate_game(id, &options, &write, &Progress::hidden()).unwrap();
}

fn euler(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "euler", &[]);
    let tb = Tablebase::new(&Euler, dir.path());
    let start = Euler.parse_position("..../..../..../....").unwrap();
    probe(&tb, &start).unwrap(); // opens the table
    c.bench_function("probe euler start (48 moves), table open", |b| {
        b.iter(|| probe(&tb, &start).unwrap())
    });
    c.bench_function("probe euler start, fresh open", |b| {
        b.iter(|| probe(&Tablebase::new(&Euler, dir.path()), &start).unwrap())
    });
}

fn chess(c: &mut Criterion) {
    use games::chess::{Endgame, Material};
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "chess", &[("materials", "KQvK")]);
    let game = Endgame::of_all(&Material::all_up_to(4));
    let tb = Tablebase::new(&game, dir.path());
    let fen = game
        .parse_position("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
        .unwrap();
    probe(&tb, &fen).unwrap(); // opens the tables
    c.bench_function("probe chess KQvK FEN (21 moves), tables open", |b| {
        b.iter(|| probe(&tb, &fen).unwrap())
    });
    // A 5-piece ending (about 30 s to make): the FEN and every move's child,
    // captures into its smaller tables included, with warm tables and opened
    // afresh for each probe.
    generate(dir.path(), "chess", &[("materials", "KRBvKR")]);
    let game = Endgame::of_all(&Material::all_up_to(5));
    let fen = game
        .parse_position("8/8/3k4/8/8/2r5/8/KRB5 w - - 0 1")
        .unwrap();
    let tb = Tablebase::new(&game, dir.path());
    let moves = probe(&tb, &fen).unwrap().moves.len();
    c.bench_function(
        &format!("probe chess KRBvKR FEN ({moves} moves), tables open"),
        |b| b.iter(|| probe(&tb, &fen).unwrap()),
    );
    c.bench_function("probe chess KRBvKR FEN, fresh open", |b| {
        b.iter(|| probe(&Tablebase::new(&game, dir.path()), &fen).unwrap())
    });
    // The lichess API's answer to the same FEN: DTZ and DTM of it and of every move.
    generate(
        dir.path(),
        "chess",
        &[("materials", "KRBvKR"), ("metric", "dtz")],
    );
    // The same FEN under DTZ, whose tables read their draws from WDL50's.
    let dtz = game.clone().with_metric(games::chess::Metric::Dtz);
    let tb = Tablebase::new(&dtz, dir.path());
    probe(&tb, &fen).unwrap(); // opens the tables
    c.bench_function("probe chess KRBvKR FEN under DTZ, tables open", |b| {
        b.iter(|| probe(&tb, &fen).unwrap())
    });
    c.bench_function("probe chess KRBvKR FEN under DTZ, fresh open", |b| {
        b.iter(|| probe(&Tablebase::new(&dtz, dir.path()), &fen).unwrap())
    });
    let library = query::Library::new(dir.path());
    let fen = "8/8/3k4/8/8/2r5/8/KRB5_w_-_-_0_1";
    query::lichess::standard(&library, fen).unwrap(); // opens the tables
    c.bench_function("lichess /standard KRBvKR FEN, tables open", |b| {
        b.iter(|| query::lichess::standard(&library, fen).unwrap())
    });
    pawns(c, dir.path());
}

/// A 5-piece FEN with pawns: every move valued, promotions into other endings
/// included, warm and opened afresh.
fn pawns(c: &mut Criterion, made: &std::path::Path) {
    let (dir, material, fen) = match std::env::var_os("PAWN_TABLES") {
        Some(dir) => (dir.into(), "KRPvKR", "8/1k6/8/1P6/8/8/r7/4K2R w - - 0 1"),
        None => {
            generate(made, "chess", &[("materials", "KPPvK")]);
            (
                made.to_path_buf(),
                "KPPvK",
                "8/8/1k6/8/1P6/8/5P2/4K3 w - - 0 1",
            )
        }
    };
    let game = Endgame::new(&Material::parse(material).unwrap());
    let fen = game.parse_position(fen).unwrap();
    let tb = Tablebase::new(&game, &dir);
    let moves = probe(&tb, &fen).unwrap().moves.len();
    let name = format!("probe chess {material} FEN ({moves} moves)");
    c.bench_function(&format!("{name}, tables open"), |b| {
        b.iter(|| probe(&tb, &fen).unwrap())
    });
    c.bench_function(&format!("{name}, fresh open"), |b| {
        b.iter(|| probe(&Tablebase::new(&game, &dir), &fen).unwrap())
    });
}

fn formulas(c: &mut Criterion) {
    let heaps: Vec<u64> = (1..=1000u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 8)
        .collect();
    c.bench_function("nim formula, 1000 heaps, every winning move", |b| {
        b.iter(|| games::nim::verdict(games::nim::Rule::Nim, &heaps))
    });
    c.bench_function("misere nim formula, 1000 heaps", |b| {
        b.iter(|| games::nim::verdict(games::nim::Rule::Misere, &heaps))
    });
    let row: Vec<i64> = (0..1000).map(|i| i * 7_919 % 1_000).collect();
    c.bench_function("pick from the ends, 1000 numbers", |b| {
        b.iter(|| games::ends::solve(&row))
    });
}

criterion_group!(benches, euler, chess, formulas);
criterion_main!(benches);
