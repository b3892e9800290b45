//! One chess ending's stored codes with what the measuring examples weigh
//! them by: which slots hold a position, and the best value a move out of
//! the ending (a capture or a promotion) gives each.

use anyhow::Context;
use games::chess::{Endgame, FIFTY_MOVES, Material, Metric};
use games::{Game, Value};
use query::Tablebase;
use rayon::prelude::*;
use tables::{Digits, Exits, Header};

/// A value's WDL50 category, as a code that orders them for the mover: loss,
/// blessed loss, draw, cursed win, win (1 to 5; 0 is an empty slot).
pub fn category(value: Value) -> u8 {
    match value {
        Value::Loss(n) if n > FIFTY_MOVES => 2,
        Value::Loss(_) => 1,
        Value::Win(n) if n > FIFTY_MOVES => 4,
        Value::Win(_) => 5,
        _ => 3,
    }
}

/// ENDING's game under `metric`.
pub fn endgame(ending: &str, metric: Metric) -> anyhow::Result<Endgame> {
    let material = Material::parse(ending).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Endgame::new(&material).with_metric(metric))
}

/// An ending's table, read whole, and what each slot is.
pub struct Slots<'g> {
    pub game: &'g Endgame,
    pub tier: u32,
    pub tablebase: Tablebase<'g, Endgame>,
    pub codes: Vec<u16>,
    /// Whether each slot holds a position.
    pub held: Vec<bool>,
    /// The best value a move out of the ending gives each slot, if any.
    pub exits: Vec<Option<Value>>,
}

impl<'g> Slots<'g> {
    /// ENDING's table in `dir`, beside the tables its moves lead to: every
    /// position built once.
    pub fn read(game: &'g Endgame, dir: &str, ending: &str) -> anyhow::Result<Slots<'g>> {
        let tier = game
            .tiers()
            .into_iter()
            .find(|&tier| game.tier_name(tier) == *ending)
            .context("no such tier")?;
        let tablebase = Tablebase::new(game, dir);
        let codes = tablebase.codes_of_tier(tier)?.to_vec();
        let (held, exits) = (0..codes.len())
            .into_par_iter()
            .map(|slot| match game.position_at(tier, slot as u64) {
                None => (false, None),
                Some(position) => {
                    let best = games::value_of_exits(game, &position, |child| {
                        tablebase.covered_value(child)
                    });
                    (true, best.expect("the chain's tables"))
                }
            })
            .unzip();
        Ok(Slots {
            game,
            tier,
            tablebase,
            codes,
            held,
            exits,
        })
    }

    /// The value a slot stores, None where it is empty.
    pub fn value(&self, slot: usize) -> Option<Value> {
        let kind = self.game.value_kind();
        Value::from_code(kind, self.codes[slot]).filter(|_| self.held[slot])
    }

    /// A slot's WDL50 category, plus 8 where a move out of the ending gives
    /// its value (the slot may hold any category no better); 0 where empty.
    pub fn wdl_byte(&self, slot: usize) -> u8 {
        match self.value(slot) {
            None => 0,
            Some(own) => category(own) | if self.exits[slot] == Some(own) { 8 } else { 0 },
        }
    }
}

/// The header of a table written again from `header`'s: its fields' order
/// weighed afresh, its exits left to a search, nothing left to a table beside.
pub fn searched_header(header: &Header) -> Header {
    Header {
        exits: Exits::Searched,
        shared: None,
        digits: Digits::weighed(header.digits.radices.clone()),
        spelled: None,
        ..header.clone()
    }
}
