//! A legal move from `get_legal_moves`' answer: one of the listed moves, or,
//! where there are too many to list (a Cancellation Hearts pass or discard),
//! one built from `legal`.

use serde_json::{Value, json};

use crate::types::LegalMoves;

/// Some legal move (at random), or None when the seat has nothing to do.
pub fn any_legal_move(legal: &LegalMoves) -> Option<Value> {
    let mut pick = Pick::new();
    if let Some(moves) = legal.moves.as_ref().filter(|m| !m.is_empty()) {
        return moves.get(pick.below(moves.len())).cloned();
    }
    let l = &legal.legal;
    let strings = |field: &str| -> Vec<Value> { l[field].as_array().cloned().unwrap_or_default() };
    match l["prompt"].as_str()? {
        prompt @ ("pass_cards" | "discard") => {
            let mut from = strings("from");
            let count = l["count"].as_u64()? as usize;
            let mut cards = Vec::new();
            while cards.len() < count && !from.is_empty() {
                cards.push(from.remove(pick.below(from.len())));
            }
            Some(json!({ "type": prompt, "cards": cards }))
        }
        "name_trumps" => {
            let cities = strings("cities");
            let city = cities.get(pick.below(cities.len().max(1)))?;
            Some(json!({ "type": "name_trumps", "city": city }))
        }
        "moon" => {
            let choices = strings("choices");
            let choice = choices.get(pick.below(choices.len().max(1)))?;
            Some(json!({ "type": "moon", "choice": choice }))
        }
        _ => None,
    }
}

/// A small random source (no dependency for one choice): xorshift seeded from a fresh UUID.
struct Pick(u64);

impl Pick {
    fn new() -> Self {
        let seed = uuid::Uuid::new_v4().as_u64_pair().0 | 1;
        Pick(seed)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}
