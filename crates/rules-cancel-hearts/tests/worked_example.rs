//! The worked example in `docs/rules/cancellation-hearts.md`, played exactly.

mod common;

use cards::standard::{Card, Suit, deck};
use cards::{Hand, Ruleset, Seed, Viewer};
use common::*;
use rules_cancel_hearts::{CancelHearts, Config, Deal};

/// Eight hands of 13: the cards each seat must hold for the example, then
/// every other card placed where it breaks no follow-suit step of it.
fn example_deal() -> Deal {
    let required = [
        "QC JD AD", // seat 0
        "2S JD 7D", // seat 1
        "2C 9D 3D", // seat 2
        "KC 9D QS", // seat 3: no other diamond
        "KC KS 5C", // seat 4: no diamond
        "2D 4D 3D", // seat 5: no club
        "2D 4D AD", // seat 6: no club
        "QC 2H 8C", // seat 7: no diamond
    ];
    let mut hands: Vec<Hand<Card>> = required.iter().map(|r| cards(r)).collect();
    let mut rest: Hand<Card> = deck().into_iter().chain(deck()).collect();
    for hand in &hands {
        assert!(rest.remove_all(hand));
    }
    let may_hold = |seat: usize, suit: Suit| match suit {
        Suit::Clubs => ![1, 5, 6].contains(&seat),
        Suit::Diamonds => ![3, 4, 7].contains(&seat),
        _ => true,
    };
    for card in rest.iter() {
        let seat = (0..8)
            .find(|&s| hands[s].len() < 13 && may_hold(s, card.suit))
            .expect("room for every card");
        hands[seat].insert(card).unwrap();
    }
    Deal::new(seat(1), hands, Hand::EMPTY).with_round(3)
}

#[test]
fn worked_example_from_the_rules_doc() {
    let mut game =
        CancelHearts::from_deal(Config::new(8), Seed::from_u64(0), example_deal()).unwrap();
    // First trick: the kings and queens of clubs cancel; the 2C wins.
    play(&mut game, "2C KC KC 2D 2D QC QC 2S");
    assert_eq!(next(&game), 2);

    play(&mut game, "9D 9D KS 4D 4D 2H JD JD");
    let trick = game.view(Viewer::Spectator).trick.unwrap();
    assert_eq!(trick.circuits, 1);
    assert_eq!(trick.winning, None, "every diamond is cancelled");
    assert_eq!(next(&game), 2, "extended: the leader plays again");

    play(&mut game, "3D QS 5C 3D AD 8C AD 7D");
    let view = game.view(Viewer::Spectator);
    let trick = view.last_trick.unwrap();
    assert_eq!(trick.circuits, 2);
    assert_eq!(trick.plays.len(), 16);
    assert_eq!(trick.winner, Some(seat(1)));
    let uncancelled: Vec<String> = trick
        .plays
        .iter()
        .filter(|p| !p.cancelled)
        .map(|p| p.card.to_string())
        .collect();
    assert_eq!(uncancelled, ["KS", "2H", "QS", "5C", "8C", "7D"]);
    assert_eq!(view.round_points[1], 14);
    assert_eq!(next(&game), 1);
}
