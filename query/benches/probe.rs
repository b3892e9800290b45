//! Probe latency: `cargo bench -p query` (generates the Euler table in a temporary folder).

use criterion::{Criterion, criterion_group, criterion_main};
use games::Game;
use games::euler::Euler;
use generator::{Progress, WriteOptions, generate_layered};
use query::{Tablebase, probe};

fn euler(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let options = WriteOptions::new(dir.path());
    generate_layered(&Euler, &options, &Progress::hidden()).unwrap();
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

criterion_group!(benches, euler);
criterion_main!(benches);
