//! Fuzzing through the JSON door the api uses: arbitrary JSON-ish moves (known
//! and unknown `type`s, fields of any shape, real and made-up card names)
//! sent for any seat, mixed with legal moves so games get deep. Whatever
//! comes in: no panic, and a refused move leaves the game exactly as it was.
#![cfg(feature = "serde")]

use cards::CardKind;
use cards::standard::Card;
use cards::{LegalMoves, Ruleset, Seat, Seed, Viewer};
use proptest::prelude::*;
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, Move};
use serde_json::{Value, json};

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

/// The `type` tags the engine knows, plus some it does not.
const TYPES: &[&str] = &[
    "pass_cards",
    "play",
    "discard",
    "moon",
    "",
    "PLAY",
    "resign",
    "undo",
];
/// Field names the engine knows, plus some it does not.
const FIELDS: &[&str] = &["cards", "card", "choice", "type", "seat", "extra"];

/// Every card's JSON name (`serde_json` of each card), plus near misses.
fn card_names() -> Vec<Value> {
    let mut names: Vec<Value> = (0..52)
        .filter_map(Card::from_index)
        .map(|c| serde_json::to_value(Move::Play { card: c }).unwrap()["card"].clone())
        .chain(["add", "subtract", "shoot"].map(Value::from))
        .collect();
    names.extend(["", "heir-heir", "14S", "ZZ", "toronto-"].map(Value::from));
    names
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..40).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-z0-9_-]{0,10}".prop_map(Value::from),
        prop::sample::select(card_names()),
        prop::sample::select(TYPES.to_vec()).prop_map(Value::from),
    ]
}

fn field_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => leaf(),
        2 => prop::collection::vec(prop::sample::select(card_names()), 0..6).prop_map(Value::from),
        1 => prop::collection::vec(leaf(), 0..4).prop_map(Value::from),
        1 => prop::collection::btree_map("[a-z]{1,5}", leaf(), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ]
}

/// A JSON-ish move: usually an object with a `type`, sometimes anything.
fn junk_move() -> impl Strategy<Value = Value> {
    let object = (
        prop::option::weighted(0.9, prop::sample::select(TYPES.to_vec())),
        prop::collection::btree_map(prop::sample::select(FIELDS.to_vec()), field_value(), 0..3),
    )
        .prop_map(|(tag, fields)| {
            let mut map: serde_json::Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            if let Some(tag) = tag {
                map.insert("type".to_owned(), Value::from(tag));
            }
            Value::Object(map)
        });
    prop_oneof![8 => object, 1 => field_value()]
}

/// One step: a legal move for someone to act, or junk for some seat.
#[derive(Debug, Clone)]
enum Step {
    Legal,
    Junk(u8, Value),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        prop_oneof![
            3 => Just(Step::Legal),
            2 => (any::<u8>(), junk_move()).prop_map(|(s, v)| Step::Junk(s, v)),
        ],
        1..300,
    )
}

/// Plays `steps` on a fresh game; panics on any broken promise.
fn run(config: Config, seed: u64, steps: &[Step]) {
    let mut game = CancelHearts::new(config, Seed::from_u64(seed)).expect("a valid config");
    let players = game.player_count().get();
    let mut rng = Seed::from_u64(seed ^ 0x5eed).rng();
    let (mut accepted, mut refused) = (0u32, 0u32);
    for step in steps {
        if game.is_over() {
            break;
        }
        match step {
            Step::Legal => {
                let seat = game
                    .to_act()
                    .iter()
                    .next()
                    .expect("someone acts until the end");
                let mv = game
                    .legal_moves(seat)
                    .random(&mut rng)
                    .expect("a seat to act has a move");
                game.play(seat, &mv).expect("a legal move is accepted");
            }
            Step::Junk(seat, value) => {
                let seat = Seat::new(seat % players);
                let Ok(mv) = serde_json::from_value::<Move>(value.clone()) else {
                    continue; // the api answers 422 malformed_move
                };
                // A move that parses round-trips through its JSON form.
                let back: Move = serde_json::from_value(serde_json::to_value(mv).unwrap()).unwrap();
                assert_eq!(back, mv);
                let before = game.clone();
                match game.play(seat, &mv) {
                    Ok(()) => accepted += 1,
                    Err(_) => {
                        refused += 1;
                        assert!(
                            game == before,
                            "refused {value} for {seat} changed the game"
                        );
                    }
                }
            }
        }
        // Views stay renderable for everyone after every step.
        let _ = format!("{:?}", game.view(Viewer::Spectator));
        for s in 0..players {
            let _ = game.legal_moves(Seat::new(s));
        }
    }
    let _ = (accepted, refused);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_moves_never_panic_and_refusals_change_nothing(
        config in prop::sample::select(configs()),
        seed in any::<u64>(),
        steps in steps(),
    ) {
        run(config, seed, &steps);
    }
}
