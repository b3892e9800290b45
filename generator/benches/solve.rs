//! Generation benchmarks: `cargo bench -p generator`.

use criterion::{Criterion, criterion_group, criterion_main};
use games::euler::Euler;
use games::lgame::LGame;
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

criterion_group!(benches, euler, lgame);
criterion_main!(benches);
