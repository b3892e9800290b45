//! Generation benchmarks: `cargo bench -p generator`.

use criterion::{Criterion, criterion_group, criterion_main};
use games::dots::Dots;
use games::euler::Euler;
use games::lgame::LGame;
use generator::dots::solve_dots;
use generator::{Progress, solve_layered, solve_retrograde};

fn euler(c: &mut Criterion) {
    c.bench_function("solve euler", |b| {
        b.iter(|| solve_layered(&Euler, 0, &Progress::hidden()))
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

criterion_group!(benches, euler, lgame, dots);
criterion_main!(benches);
