//! How the load chooses its moves: a uniformly random legal move from a
//! `get_legal_moves` answer read lean (the listed moves kept as JSON text,
//! one of them sent back as it is), with a small seeded generator.

use serde_json::{Value, json};

/// A small deterministic generator (splitmix64): the load needs variety,
/// not quality, and no extra dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The parts of a `get_legal_moves` answer the load uses; the moves stay
/// JSON text (one of them is sent back as it is).
#[derive(Debug, serde::Deserialize)]
pub struct LegalAnswer {
    pub count: u64,
    #[serde(default)]
    pub moves: Option<Vec<Box<serde_json::value::RawValue>>>,
    pub legal: LegalDescription,
}

/// A legal-move set described rather than listed (a choice of cards).
#[derive(Debug, serde::Deserialize)]
pub struct LegalDescription {
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default)]
    pub from: Option<Vec<Value>>,
    #[serde(default)]
    pub count: Option<u64>,
}

/// A uniformly random move from a `get_legal_moves` answer, as the JSON
/// text to send: from the list when given, else a random selection of
/// `count` cards from `from`.
pub fn random_move_text(legal: &LegalAnswer, rng: &mut Rng) -> Option<String> {
    if let Some(moves) = legal.moves.as_ref().filter(|m| !m.is_empty()) {
        return Some(moves[rng.below(moves.len())].get().to_owned());
    }
    let description = &legal.legal;
    let mut from = description.from.clone()?;
    let count = description.count? as usize;
    let mut chosen = Vec::new();
    for _ in 0..count {
        if from.is_empty() {
            return None;
        }
        chosen.push(from.swap_remove(rng.below(from.len())));
    }
    Some(json!({ "type": description.prompt, "cards": chosen }).to_string())
}
