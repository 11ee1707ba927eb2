//! The JSON forms of config, moves, legal moves and views (contract).
#![cfg(feature = "serde")]

use cards::standard::Card;
use cards::{Hand, Ruleset, Seat, Seed, Viewer};
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, MoonChoice, Move};
use serde_json::json;

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

#[test]
fn config_defaults_and_unknown_fields() {
    let config: Config = serde_json::from_value(json!({"players": 7})).unwrap();
    assert_eq!(config, Config::new(7));
    let config: Config =
        serde_json::from_value(json!({"players": 9, "target": 50, "all_cancelled": "carry_over"}))
            .unwrap();
    assert_eq!(config.target, 50);
    assert_eq!(config.all_cancelled, AllCancelled::CarryOver);
    assert!(serde_json::from_value::<Config>(json!({"players": 7, "trumps": 1})).is_err());
    assert!(serde_json::from_value::<Config>(json!({"players": 7, "all_cancelled": "x"})).is_err());
    assert_eq!(
        serde_json::to_value(Config::new(6)).unwrap(),
        json!({"players": 6, "target": 100, "all_cancelled": "extend"})
    );
}

#[test]
fn moves_have_the_contract_json_forms() {
    let pass: Move =
        serde_json::from_value(json!({"type":"pass_cards","cards":["QS","2C","AH"]})).unwrap();
    let cards: Hand<Card> = ["QS", "2C", "AH"].into_iter().map(card).collect();
    assert_eq!(pass, Move::PassCards { cards });
    let play: Move = serde_json::from_value(json!({"type":"play","card":"QS"})).unwrap();
    assert_eq!(play, Move::Play { card: card("QS") });
    let discard: Move =
        serde_json::from_value(json!({"type":"discard","cards":["2C","3C"]})).unwrap();
    assert!(matches!(discard, Move::Discard { cards } if cards.len() == 2));
    for (text, choice) in [
        ("subtract_own", MoonChoice::SubtractOwn),
        ("add_to_others", MoonChoice::AddToOthers),
    ] {
        let moon: Move = serde_json::from_value(json!({"type":"moon","choice":text})).unwrap();
        assert_eq!(moon, Move::Moon { choice });
        assert_eq!(
            serde_json::to_value(moon).unwrap(),
            json!({"type":"moon","choice":text})
        );
    }
    assert_eq!(
        serde_json::to_value(Move::Play { card: card("10H") }).unwrap(),
        json!({"type":"play","card":"10H"})
    );
    assert!(serde_json::from_value::<Move>(json!({"type":"play","card":"QS","x":1})).is_err());
    assert!(serde_json::from_value::<Move>(json!({"type":"bid","points":3})).is_err());
}

#[test]
fn legal_and_view_serialize() {
    let game = CancelHearts::new(Config::new(6), Seed::from_u64(3)).unwrap();
    let legal = serde_json::to_value(game.legal_moves(Seat::new(0))).unwrap();
    assert_eq!(legal["prompt"], "pass_cards");
    assert_eq!(legal["count"], 3);
    assert_eq!(legal["from"].as_array().unwrap().len(), 17);
    let view = serde_json::to_value(game.view(Viewer::Seat(Seat::new(0)))).unwrap();
    assert_eq!(view["hand"].as_array().unwrap().len(), 17);
    assert_eq!(view["kitty"]["size"], 2);
    assert_eq!(view["phase"], json!({"name": "passing"}));
    assert_eq!(view["pass_direction"], "left");
    assert_eq!(view["prompt"], "pass_cards");
    assert!(view["kitty"]["cards"].is_null());
    assert!(view["secrets"].is_null());
    let spectator = serde_json::to_value(game.view(Viewer::Spectator)).unwrap();
    assert!(spectator["hand"].is_null());
}
