//! Generation benchmarks: `cargo bench -p generator`.

use criterion::{Criterion, criterion_group, criterion_main};
use games::euler::Euler;
use generator::{Progress, solve_layered};

fn euler(c: &mut Criterion) {
    c.bench_function("solve euler", |b| b.iter(|| solve_layered(&Euler, 0, &Progress::hidden())));
}

criterion_group!(benches, euler);
criterion_main!(benches);
