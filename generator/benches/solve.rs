//! Generation benchmarks: `cargo bench -p generator`.

use criterion::{Criterion, criterion_group, criterion_main};
use games::chess::{Endgame, Material};
use games::dots::Dots;
use games::euler::Euler;
use games::grundy::{HeapGame, SplitGame};
use games::lgame::LGame;
use games::nim::{Heaps, Rule};
use games::northcott::Northcott;
use games::pits::Pits;
use generator::dots::solve_dots;
use generator::{Progress, Unwritten, solve_layered, solve_retracting, solve_retrograde};

fn euler(c: &mut Criterion) {
    c.bench_function("solve euler", |b| {
        b.iter(|| solve_layered(&Euler, &Euler, 0, &Progress::hidden()))
    });
}

fn lgame(c: &mut Criterion) {
    c.bench_function("solve lgame", |b| {
        b.iter(|| solve_retrograde(&LGame, 0, &Progress::hidden()))
    });
}

fn dots(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve dots");
    group.sample_size(10);
    // 3x4 takes about 20 s a run: time it with `tbgen dots --size 3x4`.
    for size in ["1x1", "1x2", "1x3", "1x4", "2x2", "2x3", "2x4", "3x3"] {
        let board = Dots::parse_size(size).unwrap();
        group.bench_function(size, |b| b.iter(|| solve_dots(&board, &Progress::hidden())));
    }
    group.finish();
}

fn impartial(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve impartial");
    group.sample_size(10);
    let progress = Progress::hidden();
    group.bench_function("nim (6 heaps of 15)", |b| {
        let nim = Heaps::new(Rule::Nim);
        b.iter(|| solve_layered(&nim, &nim, 0, &progress))
    });
    group.bench_function("subtraction take3", |b| {
        let game = Heaps::new(Rule::Subtract(3));
        b.iter(|| solve_layered(&game, &game, 0, &progress))
    });
    group.bench_function("pits (24)", |b| {
        b.iter(|| solve_layered(&Pits, &Pits, 0, &progress))
    });
    for (size, rules) in [("3x6", "both"), ("4x8", "both"), ("4x8", "forward")] {
        let board = Northcott::from_variant(size, rules, false).unwrap();
        group.bench_function(format!("northcott {size} {rules}"), |b| {
            b.iter(|| solve_retrograde(&board, 0, &progress))
        });
    }
    for rules in [
        HeapGame::Kayles,
        HeapGame::Dawson,
        HeapGame::Grundy,
        HeapGame::Lasker,
    ] {
        let game = SplitGame::new(rules, 40);
        group.bench_function(format!("{} (every position up to 40)", rules.id()), |b| {
            b.iter(|| solve_layered(&game, &game, 0, &progress))
        });
        group.bench_function(format!("{} grundy values to 10000", rules.id()), |b| {
            b.iter(|| rules.sequence(10_000))
        });
    }
    group.finish();
}

fn chess(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve chess");
    group.sample_size(10);
    for material in ["KQvK", "KRvK", "KQvKR"] {
        // The ending and every smaller one its captures lead to.
        let game = Endgame::new(&Material::parse(material).unwrap());
        group.bench_function(material, |b| {
            b.iter(|| {
                generator::chess::solve_all(&game, &Progress::hidden(), &mut Unwritten, |_| None)
                    .unwrap()
            })
        });
        // The generic retracting solver, the dedicated one's oracle, for comparison.
        group.bench_function(format!("{material} generic"), |b| {
            b.iter(|| solve_retracting(&game, &game, &Progress::hidden(), &mut Unwritten).unwrap())
        });
    }
    group.finish();
}

fn abapa(c: &mut Criterion) {
    use games::abapa::{Abapa, Rules};
    let mut group = c.benchmark_group("solve abapa");
    group.sample_size(10);
    // Every tier from 0 seeds up; `tbgen abapa --max-seeds 20` prints each tier's time.
    for rules in [Rules::Default, Rules::Thesis] {
        for seeds in [8, 10, 12, 14] {
            let game = Abapa::new(rules, seeds);
            group.bench_function(format!("{} to {seeds} seeds", rules.name()), |b| {
                b.iter(|| {
                    generator::abapa::solve_abapa(&game, &Progress::hidden(), |_, _, _| Ok(()))
                        .unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, euler, lgame, dots, impartial, chess, abapa);
criterion_main!(benches);
