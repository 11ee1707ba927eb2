//! Fuzzing through the JSON door the api uses (the harness is
//! `crates/ruleset-fuzz`): arbitrary JSON-ish moves sent for any seat, mixed
//! with legal moves. No panic, and a refused move changes nothing (G-3).
#![cfg(feature = "serde")]

use cards::CardKind;
use cards::heir::HeirCard;
use proptest::prelude::*;
use rules_lost_heir::{Config, LostHeir, Move};
use ruleset_fuzz::Vocabulary;
use serde_json::Value;

fn configs() -> Vec<Config> {
    vec![
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
    ]
}

/// Lost Heir's move language, plus near misses.
fn vocabulary() -> Vocabulary {
    let mut words: Vec<Value> = (0..31)
        .filter_map(HeirCard::from_index)
        .map(|c| serde_json::to_value(Move::play(c)).unwrap()["card"].clone())
        .chain(["toronto", "montreal", "paris"].map(Value::from))
        .collect();
    words.extend(["", "heir-heir", "14S", "ZZ", "toronto-"].map(Value::from));
    Vocabulary {
        types: vec![
            "bid",
            "pass",
            "accept",
            "reject",
            "name_trumps",
            "play",
            "",
            "PLAY",
            "resign",
            "undo",
        ],
        fields: vec!["points", "city", "card", "type", "seat", "extra"],
        words,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_moves_never_panic_and_refusals_change_nothing(
        config in prop::sample::select(configs()),
        seed in any::<u64>(),
        steps in ruleset_fuzz::steps(&vocabulary()),
    ) {
        ruleset_fuzz::run::<LostHeir>(config, seed, &steps);
    }
}
