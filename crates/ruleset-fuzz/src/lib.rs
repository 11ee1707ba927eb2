//! Fuzzing any [`Ruleset`] through the JSON door the api uses: arbitrary
//! JSON-ish moves (known and unknown `type`s, fields of any shape, real and
//! made-up card names) sent for any seat, mixed with legal moves so games get
//! deep. Whatever comes in: no panic, a move that parses round-trips through
//! its JSON form, and a refused move leaves the game exactly as it was (G-3).
//!
//! Each engine's `tests/fuzz.rs` supplies its configurations and the words of
//! its move language ([`Vocabulary`]); the strategies and the checks live here.

use cards::{LegalMoves, Ruleset, Seat, Seed, Viewer};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The words a game's moves are made of, plus near misses.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    /// `type` tags the engine knows, and some it does not.
    pub types: Vec<&'static str>,
    /// Field names the engine knows, and some it does not.
    pub fields: Vec<&'static str>,
    /// Card names and other field values, real and made up.
    pub words: Vec<Value>,
}

fn leaf(vocab: &Vocabulary) -> impl Strategy<Value = Value> + use<> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..40).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-z0-9_-]{0,10}".prop_map(Value::from),
        prop::sample::select(vocab.words.clone()),
        prop::sample::select(vocab.types.clone()).prop_map(Value::from),
    ]
}

fn field_value(vocab: &Vocabulary) -> impl Strategy<Value = Value> + use<> {
    prop_oneof![
        3 => leaf(vocab),
        2 => prop::collection::vec(prop::sample::select(vocab.words.clone()), 0..6).prop_map(Value::from),
        1 => prop::collection::vec(leaf(vocab), 0..4).prop_map(Value::from),
        1 => prop::collection::btree_map("[a-z]{1,5}", leaf(vocab), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
    ]
}

/// A JSON-ish move: usually an object with a `type`, sometimes anything.
fn junk_move(vocab: &Vocabulary) -> impl Strategy<Value = Value> + use<> {
    let object = (
        prop::option::weighted(0.9, prop::sample::select(vocab.types.clone())),
        prop::collection::btree_map(
            prop::sample::select(vocab.fields.clone()),
            field_value(vocab),
            0..3,
        ),
    )
        .prop_map(|(tag, fields)| {
            let mut map: serde_json::Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            if let Some(tag) = tag {
                map.insert("type".to_owned(), Value::from(tag));
            }
            Value::Object(map)
        });
    prop_oneof![8 => object, 1 => field_value(vocab)]
}

/// One step: a legal move for someone to act, or junk for some seat.
#[derive(Debug, Clone)]
pub enum Step {
    Legal,
    Junk(u8, Value),
}

/// Up to 300 steps, about two in five of them junk.
pub fn steps(vocab: &Vocabulary) -> impl Strategy<Value = Vec<Step>> + use<> {
    prop::collection::vec(
        prop_oneof![
            3 => Just(Step::Legal),
            2 => (any::<u8>(), junk_move(vocab)).prop_map(|(s, v)| Step::Junk(s, v)),
        ],
        1..300,
    )
}

/// Plays `steps` on a fresh game of `R`; panics on any broken promise.
pub fn run<R>(config: R::Config, seed: u64, steps: &[Step])
where
    R: Ruleset + PartialEq,
    R::Move: Serialize + DeserializeOwned,
{
    let mut game = R::new(config, Seed::from_u64(seed)).expect("a valid config");
    let players = game.player_count().get();
    let mut rng = Seed::from_u64(seed ^ 0x5eed).rng();
    for step in steps {
        if game.is_over() {
            break;
        }
        match step {
            Step::Legal => {
                let seat = game.to_act().first().expect("someone acts until the end");
                let mv = game
                    .legal_moves(seat)
                    .random(&mut rng)
                    .expect("a seat to act has a move");
                game.play_mut(seat, &mv).expect("a legal move is accepted");
            }
            Step::Junk(seat, value) => {
                let seat = Seat::new(seat % players);
                let Ok(mv) = serde_json::from_value::<R::Move>(value.clone()) else {
                    continue; // the api answers 422 malformed_move
                };
                let back: R::Move =
                    serde_json::from_value(serde_json::to_value(&mv).unwrap()).unwrap();
                assert_eq!(back, mv, "a parsed move round-trips through JSON");
                // By value, as the api plays: a refusal hands the state back.
                let before = game.clone();
                game = match game.play(seat, &mv) {
                    Ok(next) => next,
                    Err(refused) => {
                        let game = refused.into_inner();
                        assert!(
                            game == before,
                            "refused {value} for {seat} changed the game"
                        );
                        game
                    }
                };
            }
        }
        // Views stay renderable for everyone after every step.
        let _ = format!("{:?}", game.view(Viewer::Spectator));
        for s in 0..players {
            let _ = game.legal_moves(Seat::new(s));
        }
    }
}
