//! The JSON forms the api relies on (engine contract).
#![cfg(feature = "serde")]

use cards::heir::{City, HeirCard, HeirRank};
use cards::{Ruleset, Seat, Seed, Viewer};
use rules_lost_heir::{Config, LostHeir, Move};
use serde_json::json;

#[test]
fn moves_have_the_contract_json_forms() {
    let cases = [
        (Move::bid(7), json!({"type": "bid", "points": 7})),
        (Move::Pass, json!({"type": "pass"})),
        (Move::Accept, json!({"type": "accept"})),
        (Move::Reject, json!({"type": "reject"})),
        (
            Move::name_trumps(City::Toronto),
            json!({"type": "name_trumps", "city": "toronto"}),
        ),
        (
            Move::play(HeirCard::city(City::Toronto, HeirRank::Mayor)),
            json!({"type": "play", "card": "toronto-mayor"}),
        ),
        (
            Move::play(HeirCard::LostHeir),
            json!({"type": "play", "card": "heir"}),
        ),
    ];
    for (mv, value) in cases {
        assert_eq!(serde_json::to_value(mv).unwrap(), value);
        assert_eq!(serde_json::from_value::<Move>(value).unwrap(), mv);
    }
    assert!(
        serde_json::from_value::<Move>(json!({"type": "play", "card": "paris-mayor"})).is_err()
    );
}

#[test]
fn config_defaults_resolve_and_unknown_fields_are_refused() {
    let parse = |v| serde_json::from_value::<Config>(v);
    assert_eq!(parse(json!({"players": 4})).unwrap(), Config::new(4));
    assert_eq!(parse(json!({"players": 4})).unwrap().target, 25);
    let solo = parse(json!({"players": 4, "partnerships": false})).unwrap();
    assert_eq!((solo.partnerships, solo.target), (false, 40));
    assert_eq!(
        parse(json!({"players": 2, "target": 10})).unwrap().target,
        10
    );
    assert!(parse(json!({"players": 2, "colour": "red"})).is_err());
    // Partnerships with 3 players parse, and are refused by the engine (LH-3).
    let bad = parse(json!({"players": 3, "partnerships": true})).unwrap();
    assert!(LostHeir::new(bad, Seed::from_u64(1)).is_err());
    assert_eq!(
        serde_json::to_value(Config::new(4)).unwrap(),
        json!({"players": 4, "partnerships": true, "target": 25})
    );
}

#[test]
fn the_lh_13_variant_is_written_only_when_chosen() {
    let parse = |v| serde_json::from_value::<Config>(v);
    assert!(!parse(json!({"players": 3})).unwrap().bidder_contract);
    let variant = parse(json!({"players": 3, "bidder_contract": true})).unwrap();
    assert_eq!(variant, Config::new(3).with_bidder_contract(true));
    // Off: the canonical form is the one every earlier record carries.
    assert_eq!(
        serde_json::to_value(parse(json!({"players": 3, "bidder_contract": false})).unwrap())
            .unwrap(),
        json!({"players": 3, "partnerships": false, "target": 40})
    );
    assert_eq!(
        serde_json::to_value(variant).unwrap(),
        json!({"players": 3, "partnerships": false, "target": 40, "bidder_contract": true})
    );
    assert!(parse(json!({"players": 3, "bidder_contract": "yes"})).is_err());
    let view = serde_json::to_value(
        LostHeir::new(variant, Seed::from_u64(2))
            .unwrap()
            .view(Viewer::Spectator),
    )
    .unwrap();
    assert_eq!(view["bidder_contract"], json!(true));
}

#[test]
fn views_and_legal_moves_serialize() {
    let game = LostHeir::new(Config::new(3), Seed::from_u64(3)).unwrap();
    let seat = game.turn().unwrap();
    let legal = serde_json::to_value(game.legal_moves(seat)).unwrap();
    assert_eq!(
        legal,
        json!({"prompt": "bid", "can_pass": true, "min_bid": 1, "max_bid": 15})
    );
    let view = serde_json::to_value(game.view(Viewer::Seat(seat))).unwrap();
    assert_eq!(view["hand"].as_array().unwrap().len(), 10);
    assert_eq!(view["prompt"], json!("bid"));
    assert!(view["hands"].is_null());
    let other = Seat::new((seat.number() + 1) % 3);
    let none = serde_json::to_value(game.legal_moves(other)).unwrap();
    assert_eq!(none, json!({"prompt": "none"}));
}

/// The bounds the api's type-erased game wrapper puts on a ruleset.
#[test]
fn meets_the_api_bounds() {
    fn erasable<R>()
    where
        R: cards::Ruleset + Send + Sync + 'static,
        R::Config: serde::Serialize + serde::de::DeserializeOwned,
        R::Move: serde::Serialize + serde::de::DeserializeOwned,
        R::Legal: serde::Serialize,
        R::View: serde::Serialize,
    {
    }
    erasable::<LostHeir>();
    assert_eq!(<LostHeir as cards::Ruleset>::KIND, "lost-heir");
}
