//! Fuzzing through the JSON door the api uses (the harness is
//! `crates/ruleset-fuzz`): arbitrary JSON-ish moves sent for any seat, mixed
//! with legal moves. No panic, and a refused move changes nothing (G-3).
#![cfg(feature = "serde")]

use cards::CardKind;
use cards::standard::Card;
use proptest::prelude::*;
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, Move};
use ruleset_fuzz::Vocabulary;
use serde_json::Value;

fn configs() -> Vec<Config> {
    (6..=10)
        .flat_map(|n| {
            [
                Config::new(n).with_target(30),
                Config::new(n)
                    .with_target(30)
                    .with_all_cancelled(AllCancelled::CarryOver),
            ]
        })
        .collect()
}

/// Cancellation Hearts' move language, plus near misses.
fn vocabulary() -> Vocabulary {
    let mut words: Vec<Value> = (0..52)
        .filter_map(Card::from_index)
        .map(|c| serde_json::to_value(Move::Play { card: c }).unwrap()["card"].clone())
        .chain(["add", "subtract", "shoot"].map(Value::from))
        .collect();
    words.extend(["", "heir-heir", "14S", "ZZ", "toronto-"].map(Value::from));
    Vocabulary {
        types: vec![
            "pass_cards",
            "play",
            "discard",
            "moon",
            "",
            "PLAY",
            "resign",
            "undo",
        ],
        fields: vec!["cards", "card", "choice", "type", "seat", "extra"],
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
        ruleset_fuzz::run::<CancelHearts>(config, seed, &steps);
    }
}
