//! Every game's picture: each legal move can be made by clicking places the
//! picture offers, no two moves are clicked the same way, and the places a move
//! marks on the next board are on it and marked there. Checked on the start and
//! on positions reached from it by a few moves.

use games::Game;
use games::capability::Marks;
use games::registry;
use games::spec::{Options, Spec, Visitor};
use std::collections::BTreeSet;

/// Positions visited: the start, then along a line taking the i-th move.
const STEPS: usize = 6;

struct Clickable;

impl Visitor for Clickable {
    type Output = ();
    fn visit<G: Game>(self, spec: &'static Spec<G>, game: &G) {
        let caps = (spec.capabilities)(game);
        let picture = caps
            .picture
            .unwrap_or_else(|| panic!("{} has no picture", game.id()));
        let mut position = game.start();
        for step in 0..STEPS {
            let svg = picture.svg(&position, &Marks::default());
            let offered = places_on(&svg);
            assert!(
                svg.starts_with("<svg") && svg.ends_with("</svg>"),
                "{}",
                game.id()
            );
            let moves = game.moves(&position);
            let mut seen: Vec<(Vec<BTreeSet<String>>, String)> = Vec::new();
            for mv in &moves {
                let name = game.write_move(&position, mv);
                let ways = picture.places(&position, mv);
                assert!(!ways.is_empty(), "{} {name}: no places", game.id());
                for way in ways {
                    let steps: Vec<BTreeSet<String>> = way
                        .into_iter()
                        .map(|step| step.into_iter().collect())
                        .collect();
                    for step in &steps {
                        assert!(
                            !step.is_empty() && step.is_subset(&offered),
                            "{} {name}: {step:?} not all offered",
                            game.id()
                        );
                    }
                    if let Some((_, other)) = seen.iter().find(|(s, o)| *s == steps && *o != name) {
                        panic!("{}: {name} and {other} are clicked the same way", game.id());
                    }
                    seen.push((steps, name.clone()));
                }
                let landed = picture.landed(&position, mv);
                let next = game.play(&position, mv).position;
                let marks = Marks {
                    last: landed.clone(),
                    ..Marks::default()
                };
                let plain = picture.svg(&next, &Marks::default());
                let marked = picture.svg(&next, &marks);
                assert!(
                    landed.iter().all(|p| places_on(&plain).contains(p)),
                    "{} {name}: {landed:?} not on the next board",
                    game.id()
                );
                assert!(
                    landed.is_empty() || marked != plain,
                    "{} {name}: {landed:?} not marked on the next board",
                    game.id()
                );
            }
            if moves.is_empty() || game.end_value(&position).is_some() {
                break;
            }
            let mv = &moves[(step * 7) % moves.len()];
            position = game.play(&position, mv).position;
        }
    }
}

/// The places an SVG board offers to click.
fn places_on(svg: &str) -> BTreeSet<String> {
    svg.split("data-place=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn every_move_is_clicked_on_places_the_picture_offers() {
    for entry in registry::entries() {
        registry::with_game(entry.id, &Options::query(), Clickable).unwrap();
    }
}
