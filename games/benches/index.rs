//! What finding a position's place costs: the solver's slot (`Game::locate`)
//! against a file index's place (`FileIndex::index_of`), on the same 1,024
//! KRBvKR positions spread over the table. `cargo bench -p games`.

use criterion::{Criterion, criterion_group, criterion_main};
use games::Game;
use games::chess::{Board, Endgame, FileIndex, Material, Piece};
use std::hint::black_box;

fn positions(game: &Endgame, tier: u32) -> Vec<Board> {
    let size = game.index_size(tier);
    (0..size)
        .step_by((size / 4096) as usize)
        .filter_map(|slot| game.position_at(tier, slot))
        .take(1024)
        .collect()
}

fn index(c: &mut Criterion) {
    let material = Material::parse("KRBvKR").expect("a material");
    let game = Endgame::new(&material);
    let tier = game.tiers()[game.tiers().len() - 1];
    let boards = positions(&game, tier);
    assert_eq!(boards.len(), 1024);
    let pieces: Vec<Piece> = "rkBRK"
        .chars()
        .map(|c| Piece::from_fen_char(c).expect("a FEN letter"))
        .collect();
    let file = FileIndex::new(&pieces).expect("a file index");
    c.bench_function("solver's slot of 1,024 KRBvKR positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| Game::locate(&game, black_box(board)).1)
                .sum::<u64>()
        })
    });
    c.bench_function("file index place of the same 1,024", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| file.index_of(black_box(board)).expect("its pieces"))
                .sum::<u64>()
        })
    });
}

criterion_group!(benches, index);
criterion_main!(benches);
