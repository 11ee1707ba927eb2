//! One test (at least) per ruling, LH-1 … LH-13 and G-1 … G-3, mostly on
//! hand-built deals through `LostHeir::from_deal`.

mod common;

use cards::heir::{City, HeirCard};
use cards::{LegalMoves, RuleViolation, Ruleset, Seat, Seed, Viewer, random_below};
use common::*;
use rules_lost_heir::{
    BidPoints, Call, Config, ConfigError, Decision, LostHeir, Move, Prompt, RuleError, SuitLed,
};

fn seat(n: u8) -> Seat {
    Seat::new(n)
}

// ---- D1: a 2-player deal whose play is scripted below ------------------
//
// Seat 1 deals, so seat 0 bids first and leads the first trick.
// Seat 0: every Halifax and Montreal card, the Lost Heir, a Blank.
// Seat 1: every Toronto and Winnipeg card, the Wrong Boy, a Blank.
fn d1() -> LostHeir {
    let hands = [
        hand(&["halifax-*", "montreal-*", "heir", "blank"]),
        hand(&["toronto-*", "winnipeg-*", "wrong-boy", "blank"]),
    ];
    game_from(Config::new(2), 1, &hands)
}

/// Seat 0 bids 2, the dealer (seat 1) accepts, seat 0 names Halifax.
fn d1_accepted() -> LostHeir {
    let mut game = d1();
    act(&mut game, Move::bid(2));
    act(&mut game, Move::Accept);
    act(&mut game, Move::name_trumps(City::Halifax));
    game
}

const D1_FIRST_TWO_TRICKS: [&str; 4] = [
    // Seat 1 is void in Montreal and trumps with the Wrong Boy: 1 - 3 = -2.
    "montreal-policeman",
    "wrong-boy",
    // Seat 0 is void in Toronto and trumps: 1.
    "toronto-mayor",
    "halifax-policeman",
];

/// Tricks 4 to 15: seat 0 leads its trumps and Montreal cards, seat 1 (void
/// in both) throws Toronto and Winnipeg cards, keeping the Winnipeg Mayor.
const D1_MIDDLE: [&str; 24] = [
    "halifax-sergeant",
    "toronto-policeman",
    "halifax-captain",
    "toronto-sergeant",
    "halifax-detective",
    "toronto-captain",
    "halifax-commissioner",
    "toronto-detective",
    "halifax-chief",
    "toronto-commissioner",
    "halifax-mayor",
    "toronto-chief",
    "montreal-sergeant",
    "winnipeg-policeman",
    "montreal-captain",
    "winnipeg-sergeant",
    "montreal-detective",
    "winnipeg-captain",
    "montreal-commissioner",
    "winnipeg-detective",
    "montreal-chief",
    "winnipeg-commissioner",
    "montreal-mayor",
    "winnipeg-chief",
];

/// The whole D1 round: seat 1 throws its Blank on the Lost Heir (cancelling
/// the +5) and wins the last trick, where seat 0 must lead its Blank.
fn d1_play_round(game: &mut LostHeir) {
    play_cards(game, &D1_FIRST_TWO_TRICKS);
    play_cards(game, &["heir", "blank"]);
    play_cards(game, &D1_MIDDLE);
    play_cards(game, &["blank", "winnipeg-mayor"]);
}

// ---- D4: a 4-player deal (dealer seat 3, seat 0 leads) -----------------
fn d4_hands() -> Vec<cards::Hand<HeirCard>> {
    vec![
        hand(&[
            "toronto-sergeant",
            "toronto-mayor",
            "toronto-policeman",
            "halifax-policeman",
            "halifax-sergeant",
            "montreal-policeman",
            "winnipeg-policeman",
            "winnipeg-sergeant",
        ]),
        hand(&[
            "winnipeg-mayor",
            "wrong-boy",
            "halifax-mayor",
            "halifax-chief",
            "winnipeg-chief",
            "winnipeg-commissioner",
            "montreal-sergeant",
            "montreal-captain",
        ]),
        hand(&[
            "toronto-captain",
            "toronto-chief",
            "heir",
            "halifax-commissioner",
            "halifax-detective",
            "winnipeg-detective",
            "winnipeg-captain",
            "montreal-detective",
        ]),
        hand(&[
            "blank",
            "blank",
            "toronto-detective",
            "toronto-commissioner",
            "halifax-captain",
            "montreal-commissioner",
            "montreal-chief",
            "montreal-mayor",
        ]),
    ]
}

fn d4() -> LostHeir {
    game_from(Config::new(4), 3, &d4_hands())
}

/// Everyone passes; the dealer (seat 3) names Montreal.
fn d4_playing() -> LostHeir {
    let mut game = d4();
    for _ in 0..3 {
        act(&mut game, Move::Pass);
    }
    act(&mut game, Move::name_trumps(City::Montreal));
    game
}

fn last_winner(game: &LostHeir) -> Seat {
    game.view(Viewer::Spectator).last_trick.unwrap().winner
}

// ---- LH-1 ----------------------------------------------------------------

#[test]
fn lh_1_deck_is_four_cities_of_seven_plus_heir_wrong_boy_and_two_blanks() {
    for players in [2, 4] {
        let game = LostHeir::new(Config::new(players), Seed::from_u64(5)).unwrap();
        let all: Vec<HeirCard> = game
            .view(Viewer::Omniscient)
            .hands
            .unwrap()
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(all.len(), 32);
        for city in City::ALL {
            let n = all.iter().filter(|c| c.city_of() == Some(city)).count();
            assert_eq!(n, 7, "{city}");
        }
        let count = |card| all.iter().filter(|&&c| c == card).count();
        assert_eq!(count(HeirCard::LostHeir), 1);
        assert_eq!(count(HeirCard::WrongBoy), 1);
        assert_eq!(count(HeirCard::Blank), 2);
    }
}

// ---- LH-2 ----------------------------------------------------------------

#[test]
fn lh_2_hand_sizes_and_three_players_play_without_blanks() {
    for (players, size) in [(2u8, 16u8), (3, 10), (4, 8)] {
        for s in 0..20 {
            let game = LostHeir::new(Config::new(players), Seed::from_u64(s)).unwrap();
            let view = game.view(Viewer::Omniscient);
            assert_eq!(view.hand_sizes, vec![size; players as usize]);
            let blanks = view
                .hands
                .unwrap()
                .iter()
                .flatten()
                .filter(|c| c.is_blank())
                .count();
            assert_eq!(blanks, if players == 3 { 0 } else { 2 });
            assert_eq!(game.tricks_per_round(), size);
        }
    }
}

#[test]
fn lh_2_hand_built_deals_must_be_the_whole_deck() {
    let seed = Seed::from_u64(1);
    let two = fill_deal(2, &[]);
    assert!(LostHeir::from_deal(Config::new(2), seat(0), &two, seed).is_ok());
    // Three players never see a Blank.
    let mut with_blank = fill_deal(3, &[]);
    let first = with_blank[0].iter().next().unwrap();
    with_blank[0].remove(first);
    with_blank[0].insert(HeirCard::Blank).unwrap();
    let err = LostHeir::from_deal(Config::new(3), seat(0), &with_blank, seed).unwrap_err();
    assert_eq!(err, ConfigError::NotTheDeck);
    assert_eq!(err.rule(), Some("LH-1"));
    let mut uneven = fill_deal(2, &[]);
    let moved = uneven[0].iter().next().unwrap();
    uneven[0].remove(moved);
    uneven[1].insert(moved).unwrap();
    let err = LostHeir::from_deal(Config::new(2), seat(0), &uneven, seed).unwrap_err();
    assert_eq!(err.code(), "wrong_hand_size");
    assert_eq!(err.rule(), Some("LH-2"));
    let err = LostHeir::from_deal(Config::new(4), seat(0), &two, seed).unwrap_err();
    assert_eq!(err.code(), "wrong_number_of_hands");
    // Right sizes, wrong cards: one card twice, another missing.
    let mut dup = fill_deal(2, &[]);
    let (a, b) = (dup[0].iter().next().unwrap(), dup[1].iter().last().unwrap());
    assert!(a != b);
    dup[1].remove(b);
    dup[1].insert(a).unwrap();
    let err = LostHeir::from_deal(Config::new(2), seat(0), &dup, seed).unwrap_err();
    assert_eq!(err, ConfigError::NotTheDeck);
}

// ---- LH-3 ----------------------------------------------------------------

#[test]
fn lh_3_partners_sit_across_share_a_score_and_win_together() {
    for s in 0..10 {
        let mut game = LostHeir::new(Config::new(4), Seed::from_u64(s)).unwrap();
        assert_eq!(game.config().target, 25);
        assert_eq!(game.side_count(), 2);
        assert_eq!(game.side_of(seat(0)), game.side_of(seat(2)));
        assert_eq!(game.side_of(seat(1)), game.side_of(seat(3)));
        assert_ne!(game.side_of(seat(0)), game.side_of(seat(1)));
        play_out(&mut game, s);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winners.len(), 2);
        let w = outcome.winners.first().unwrap();
        assert!(outcome.winners.contains(w.across(game.player_count())));
        assert_eq!(outcome.scores[0], outcome.scores[2]);
        assert_eq!(outcome.scores[1], outcome.scores[3]);
        assert!(outcome.scores[w.index()] >= 25);
    }
}

#[test]
fn lh_3_four_players_without_partnerships_play_alone_to_40() {
    let config = Config::new(4).with_partnerships(false);
    assert_eq!(config.target, 40);
    for s in 0..5 {
        let mut game = LostHeir::new(config, Seed::from_u64(s)).unwrap();
        assert_eq!(game.side_count(), 4);
        play_out(&mut game, s);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winners.len(), 1);
        assert!(outcome.scores.iter().copied().max().unwrap() >= 40);
    }
    let err = LostHeir::new(Config::new(2).with_partnerships(true), Seed::from_u64(0)).unwrap_err();
    assert_eq!(err.rule(), Some("LH-3"));
    let custom = Config::new(3).with_target(12);
    let mut game = LostHeir::new(custom, Seed::from_u64(3)).unwrap();
    play_out(&mut game, 3);
    assert!(game.outcome().unwrap().scores.iter().any(|&s| s >= 12));
}

// ---- LH-4 ----------------------------------------------------------------

#[test]
fn lh_4_first_dealer_is_drawn_from_the_seed_and_the_deal_passes_left() {
    let mut seen = std::collections::BTreeSet::new();
    for s in 0..40 {
        let seed = Seed::from_u64(s);
        let game = LostHeir::new(Config::new(4), seed).unwrap();
        // The first draw of the seed's stream picks the dealer.
        let expected = random_below(&mut seed.rng(), 4) as u8;
        assert_eq!(game.dealer(), seat(expected));
        seen.insert(expected);
        // The deal passes left each round.
        let mut game = game;
        let mut rng = Seed::from_u64(s + 7).rng();
        let mut dealer = game.dealer();
        let mut round = 1;
        while let Some(to_act) = game.turn() {
            let mv = game.legal_moves(to_act).random(&mut rng).unwrap();
            game.play_mut(to_act, &mv).unwrap();
            if game.round_number() != round && !game.is_over() {
                round = game.round_number();
                assert_eq!(game.dealer(), dealer.left(game.player_count()));
                dealer = game.dealer();
            }
        }
    }
    assert_eq!(seen.len(), 4, "every seat deals first for some seed");
}

// ---- LH-5 ----------------------------------------------------------------

#[test]
fn lh_5_each_non_dealer_calls_once_in_turn_from_the_dealers_left() {
    let mut game = d4();
    assert_eq!(game.prompt(seat(0)), Some(Prompt::Bid.as_str()));
    for expected in [0, 1, 2] {
        assert_eq!(game.turn(), Some(seat(expected)));
        act(&mut game, Move::bid(expected + 3));
    }
    assert_eq!(game.turn(), Some(seat(3)));
    assert_eq!(game.prompt(seat(3)), Some(Prompt::Decide.as_str()));
    let calls = game.view(Viewer::Spectator).calls;
    let bid = |p| {
        Some(Call::Bid {
            points: BidPoints(p),
        })
    };
    assert_eq!(calls, vec![bid(3), bid(4), bid(5), None]);
    // Having called, a seat may not call again.
    let err = refused(&mut game, 0, Move::bid(9));
    assert_eq!(err.code(), "not_your_turn");
}

#[test]
fn lh_5_bid_must_be_higher_than_the_highest_so_far() {
    let mut game = d4();
    act(&mut game, Move::bid(5));
    let err = refused(&mut game, 1, Move::bid(5));
    assert_eq!(
        err,
        RuleError::BidTooLow {
            highest: BidPoints(5)
        }
    );
    assert_eq!(err.rule(), Some("LH-5"));
    assert!(err.to_string().contains("LH-5"));
    let err = refused(&mut game, 1, Move::bid(4));
    assert_eq!(err.code(), "bid_too_low");
    act(&mut game, Move::Pass);
    // A pass does not lower the bar.
    assert_eq!(refused(&mut game, 2, Move::bid(5)).code(), "bid_too_low");
    act(&mut game, Move::bid(6));
    assert_eq!(game.highest_bid(), Some((seat(2), BidPoints(6))));
}

#[test]
fn lh_5_bids_range_from_one_to_tricks_plus_five() {
    for (players, max) in [(2u8, 21u8), (3, 15), (4, 13)] {
        let mut game = game_from(Config::new(players), 0, &fill_deal(players, &[]));
        assert_eq!(game.max_bid(), BidPoints(max));
        let legal = game.legal_moves(seat(1));
        assert_eq!(legal.bid_range(), Some((BidPoints(1), BidPoints(max))));
        let err = refused(&mut game, 1, Move::bid(0));
        assert_eq!(
            err,
            RuleError::BidOutOfRange {
                points: BidPoints(0),
                max
            }
        );
        let err = refused(&mut game, 1, Move::bid(max + 1));
        assert_eq!(err.code(), "bid_out_of_range");
        act(&mut game, Move::bid(max));
        if players > 2 {
            // Nothing is left above the maximum: only a pass.
            let legal = game.legal_moves(seat(2));
            assert_eq!(legal.count(), 1);
            assert_eq!(legal.nth(0), Some(Move::Pass));
            assert_eq!(refused(&mut game, 2, Move::bid(max)).code(), "bid_too_low");
        }
    }
}

#[test]
fn lh_5_dealer_may_not_bid() {
    let mut game = d4();
    let err = refused(&mut game, 3, Move::bid(4));
    assert_eq!(err, RuleError::DealerMayNotBid);
    assert_eq!(
        refused(&mut game, 3, Move::Pass),
        RuleError::DealerMayNotBid
    );
    assert!(game.legal_moves(seat(3)).is_empty());
    act(&mut game, Move::bid(4));
    act(&mut game, Move::Pass);
    act(&mut game, Move::Pass);
    // Now the dealer decides, still without bidding.
    assert_eq!(
        refused(&mut game, 3, Move::bid(5)),
        RuleError::DealerMayNotBid
    );
    let err = refused(&mut game, 2, Move::bid(5));
    assert_eq!(err.code(), "not_your_turn");
}

#[test]
fn lh_5_calls_out_of_turn_are_refused() {
    let mut game = d4();
    let err = refused(&mut game, 1, Move::bid(4));
    assert_eq!(
        err,
        RuleError::NotYourTurn {
            to_act: seat(0),
            prompt: Prompt::Bid
        }
    );
    assert_eq!(err.rule(), Some("LH-5"));
}

// ---- LH-6 ----------------------------------------------------------------

#[test]
fn lh_6_accepting_lets_the_highest_bidder_name_trumps_under_contract() {
    let mut game = d4();
    act(&mut game, Move::bid(4));
    act(&mut game, Move::bid(7));
    act(&mut game, Move::Pass);
    assert_eq!(
        refused(&mut game, 1, Move::Accept),
        RuleError::OnlyDealerDecides { dealer: seat(3) }
    );
    act(&mut game, Move::Accept);
    assert_eq!(game.decision(), Some(Decision::Accepted));
    // The highest bidder (seat 1), not the dealer, names trumps.
    assert_eq!(game.turn(), Some(seat(1)));
    let err = refused(&mut game, 3, Move::name_trumps(City::Toronto));
    assert_eq!(err, RuleError::WrongPersonNamingTrumps { namer: seat(1) });
    assert_eq!(err.rule(), Some("LH-6"));
    act(&mut game, Move::name_trumps(City::Winnipeg));
    let contract = game.contract().unwrap();
    assert_eq!(contract.points, BidPoints(7));
    assert_eq!(contract.side, game.side_of(seat(3)));
    assert_eq!(game.trumps(), Some(City::Winnipeg));
    // LH-8: the dealer's left still leads.
    assert_eq!(game.turn(), Some(seat(0)));
}

#[test]
fn lh_6_rejecting_lets_the_dealer_name_trumps() {
    let mut game = d4();
    act(&mut game, Move::Pass);
    act(&mut game, Move::bid(2));
    act(&mut game, Move::Pass);
    act(&mut game, Move::Reject);
    assert_eq!(game.decision(), Some(Decision::Rejected));
    assert_eq!(game.contract(), None);
    let err = refused(&mut game, 1, Move::name_trumps(City::Toronto));
    assert_eq!(err, RuleError::WrongPersonNamingTrumps { namer: seat(3) });
    act(&mut game, Move::name_trumps(City::Toronto));
    assert_eq!(game.trumps(), Some(City::Toronto));
}

#[test]
fn lh_6_when_all_pass_the_dealer_names_trumps_without_contract() {
    let mut game = d4();
    for _ in 0..3 {
        act(&mut game, Move::Pass);
    }
    assert_eq!(game.decision(), Some(Decision::AllPassed));
    assert_eq!(game.turn(), Some(seat(3)));
    assert_eq!(game.prompt(seat(3)), Some(Prompt::NameTrumps.as_str()));
    // No bid to decide on.
    assert_eq!(refused(&mut game, 3, Move::Accept).code(), "wrong_phase");
    act(&mut game, Move::name_trumps(City::Halifax));
    assert_eq!(game.contract(), None);
}

// ---- LH-7 / LH-10 -------------------------------------------------------

#[test]
fn lh_7_lost_heir_and_wrong_boy_are_trumps_heir_highest_wrong_boy_lowest() {
    let mut game = d4_playing();
    // Trick 1: no trump, the highest Toronto card wins (seat 3's Detective).
    play_cards(
        &mut game,
        &[
            "toronto-sergeant",
            "winnipeg-mayor",
            "toronto-captain",
            "toronto-detective",
        ],
    );
    assert_eq!(last_winner(&game), seat(3));
    // Trick 2: the Wrong Boy, the lowest trump, beats every Toronto card.
    play_cards(
        &mut game,
        &[
            "toronto-commissioner",
            "toronto-policeman",
            "wrong-boy",
            "toronto-chief",
        ],
    );
    assert_eq!(last_winner(&game), seat(1));
    // Trick 3: a trump lead; the Lost Heir beats the trump Mayor.
    play_cards(&mut game, &["montreal-sergeant"]);
    let cards2 = game.legal_moves(seat(2)).cards();
    assert_eq!(
        cards2.iter().collect::<Vec<_>>(),
        cards(&["montreal-detective", "heir"])
    );
    play_cards(&mut game, &["heir", "montreal-mayor", "montreal-policeman"]);
    assert_eq!(last_winner(&game), seat(2));
}

#[test]
fn lh_10_highest_trump_wins_else_highest_of_the_suit_led_and_a_blank_never_wins() {
    let mut game = d4_playing();
    play_cards(
        &mut game,
        &[
            "toronto-sergeant",
            "winnipeg-mayor",
            "toronto-captain",
            "toronto-detective",
        ],
    );
    // The off-suit Winnipeg Mayor did not win.
    assert_eq!(last_winner(&game), seat(3));
    play_cards(
        &mut game,
        &[
            "toronto-commissioner",
            "toronto-policeman",
            "wrong-boy",
            "toronto-chief",
        ],
    );
    play_cards(
        &mut game,
        &[
            "montreal-sergeant",
            "heir",
            "montreal-mayor",
            "montreal-policeman",
        ],
    );
    // Trick 4: Halifax led, all follow; the Halifax Mayor wins.
    play_cards(
        &mut game,
        &[
            "halifax-detective",
            "halifax-captain",
            "halifax-sergeant",
            "halifax-mayor",
        ],
    );
    assert_eq!(last_winner(&game), seat(1));
    // Trick 5: seat 3 is void in Halifax and throws a Blank, which never wins.
    play_cards(
        &mut game,
        &[
            "halifax-chief",
            "halifax-commissioner",
            "blank",
            "halifax-policeman",
        ],
    );
    let last = game.view(Viewer::Spectator).last_trick.unwrap();
    assert_eq!(last.winner, seat(1));
    assert_eq!(last.points, 1);
}

// ---- LH-8 ----------------------------------------------------------------

#[test]
fn lh_8_left_of_dealer_leads_then_each_trick_winner_leads() {
    let mut game = d4_playing();
    assert_eq!(game.turn(), Some(seat(0)));
    play_cards(
        &mut game,
        &[
            "toronto-sergeant",
            "winnipeg-mayor",
            "toronto-captain",
            "toronto-detective",
        ],
    );
    assert_eq!(game.turn(), Some(seat(3)));
    play_cards(
        &mut game,
        &[
            "toronto-commissioner",
            "toronto-policeman",
            "wrong-boy",
            "toronto-chief",
        ],
    );
    assert_eq!(game.turn(), Some(seat(1)));
    let err = refused(&mut game, 2, Move::play(card("heir")));
    assert_eq!(err.code(), "not_your_turn");
    assert_eq!(err.rule(), Some("LH-8"));
}

#[test]
fn lh_8_a_blank_may_not_be_led_while_holding_other_cards() {
    let mut game = d1_accepted();
    let err = refused(&mut game, 0, Move::play(HeirCard::Blank));
    assert_eq!(err, RuleError::MayNotLeadBlank);
    assert_eq!(err.rule(), Some("LH-8"));
    assert!(!game.legal_moves(seat(0)).cards().contains(HeirCard::Blank));
}

#[test]
fn lh_8_leader_with_only_blanks_leads_one_and_the_first_other_card_sets_the_suit() {
    let mut game = d1_accepted();
    play_cards(&mut game, &D1_FIRST_TWO_TRICKS);
    play_cards(&mut game, &["heir", "blank"]);
    play_cards(&mut game, &D1_MIDDLE);
    // Seat 0 holds only its Blank: it must lead it.
    let legal = game.legal_moves(seat(0));
    assert_eq!(
        legal.cards().iter().collect::<Vec<_>>(),
        vec![HeirCard::Blank]
    );
    play_cards(&mut game, &["blank"]);
    assert_eq!(game.view(Viewer::Spectator).suit_to_follow, None);
    play_cards(&mut game, &["winnipeg-mayor"]);
    // The Winnipeg Mayor set the suit and won the trick.
    let sheet = game.score_sheet();
    assert_eq!(sheet[0].tricks, vec![14, 2]);
    let last = game.view(Viewer::Spectator).last_trick.unwrap();
    assert_eq!(last.winner, seat(1));
    assert_eq!(last.leader, seat(0));
}

#[test]
fn lh_8_a_trick_of_blanks_only_is_won_by_its_leader() {
    let mut game = d1_accepted();
    play_cards(&mut game, &D1_FIRST_TWO_TRICKS);
    // This time seat 1 keeps its Blank and throws the Winnipeg Mayor.
    play_cards(&mut game, &["heir", "winnipeg-mayor"]);
    play_cards(&mut game, &D1_MIDDLE);
    play_cards(&mut game, &["blank", "blank"]);
    let last = game.view(Viewer::Spectator).last_trick.unwrap();
    assert_eq!(last.plays.len(), 2);
    assert_eq!(last.winner, seat(0), "the leader takes a trick of Blanks");
    let sheet = &game.score_sheet()[0];
    assert_eq!(sheet.tricks, vec![15, 1]);
    // The Lost Heir came without a Blank this time: +5.
    assert_eq!(sheet.points, vec![15 + 5, 1 - 3]);
}

// ---- LH-9 ----------------------------------------------------------------

#[test]
fn lh_9_must_follow_suit_when_able() {
    let mut game = d4_playing();
    play_cards(&mut game, &["toronto-sergeant", "winnipeg-mayor"]);
    // Seat 2 holds Toronto cards: the Lost Heir (a trump) does not follow.
    let err = refused(&mut game, 2, Move::play(card("heir")));
    assert_eq!(
        err,
        RuleError::MustFollowSuit {
            suit: SuitLed::City(City::Toronto)
        }
    );
    assert_eq!(
        err.to_string(),
        "must follow suit: you hold Toronto cards (LH-9)"
    );
    assert_eq!(err.rule(), Some("LH-9"));
    let err = refused(&mut game, 2, Move::play(card("winnipeg-captain")));
    assert_eq!(err.code(), "must_follow_suit");
    let legal = game.legal_moves(seat(2)).cards();
    assert_eq!(
        legal.iter().collect::<Vec<_>>(),
        cards(&["toronto-captain", "toronto-chief"])
    );
}

#[test]
fn lh_9_a_trump_lead_must_be_followed_with_the_wrong_boy_or_lost_heir() {
    let mut game = d1_accepted();
    // Halifax is trumps; seat 1's only trump is the Wrong Boy.
    play_cards(&mut game, &["halifax-sergeant"]);
    let err = refused(&mut game, 1, Move::play(card("toronto-mayor")));
    assert_eq!(
        err,
        RuleError::MustFollowSuit {
            suit: SuitLed::Trumps
        }
    );
    assert_eq!(err.to_string(), "must follow suit: you hold trumps (LH-9)");
    let legal = game.legal_moves(seat(1)).cards();
    assert_eq!(legal.iter().collect::<Vec<_>>(), vec![HeirCard::WrongBoy]);
    play_cards(&mut game, &["wrong-boy"]);
    assert_eq!(last_winner(&game), seat(0));
}

#[test]
fn lh_9_a_blank_only_when_void_and_then_any_card() {
    let mut game = d1_accepted();
    play_cards(&mut game, &["halifax-sergeant"]);
    let err = refused(&mut game, 1, Move::play(HeirCard::Blank));
    assert_eq!(
        err,
        RuleError::BlankOnlyWhenVoid {
            suit: SuitLed::Trumps
        }
    );
    assert_eq!(err.rule(), Some("LH-9"));
    play_cards(&mut game, &["wrong-boy"]);
    // Seat 1 is now void in trumps: any card, a Blank included.
    play_cards(&mut game, &["heir"]);
    let legal = game.legal_moves(seat(1)).cards();
    assert_eq!(legal.len(), 15);
    assert!(legal.contains(HeirCard::Blank));
    play_cards(&mut game, &["blank"]);
    // A card not held is refused without saying who holds it.
    play_cards(&mut game, &["montreal-policeman"]);
    let err = refused(&mut game, 1, Move::play(card("halifax-mayor")));
    assert_eq!(
        err,
        RuleError::CardNotInHand {
            card: card("halifax-mayor")
        }
    );
}

// ---- LH-11 ---------------------------------------------------------------

#[test]
fn lh_11_a_blank_cancels_the_heir_and_wrong_boy_but_the_trick_still_counts() {
    let mut game = d1_accepted();
    d1_play_round(&mut game);
    let line = &game.score_sheet()[0];
    // Seat 0: 14 tricks, the Lost Heir's +5 cancelled by seat 1's Blank.
    // Seat 1: 2 tricks, the Wrong Boy's -3 (no Blank in that trick).
    assert_eq!(line.tricks, vec![14, 2]);
    assert_eq!(line.points, vec![14, -1]);
}

#[test]
fn lh_11_a_failed_contract_keeps_negative_points_only() {
    // The dealer (seat 1) accepted a bid of 2 and took -1: it keeps the -1.
    let mut game = d1_accepted();
    d1_play_round(&mut game);
    let line = &game.score_sheet()[0];
    assert_eq!(line.decision, Decision::Accepted);
    assert_eq!(line.contract.unwrap().points, BidPoints(2));
    assert_eq!(line.round_scores, vec![14, -1]);
    assert_eq!(game.scores(), &[14, -1]);
}

#[test]
fn lh_11_a_rejecting_dealer_keeps_negative_points() {
    let mut game = d1();
    act(&mut game, Move::bid(2));
    act(&mut game, Move::Reject);
    act(&mut game, Move::name_trumps(City::Halifax));
    d1_play_round(&mut game);
    let line = &game.score_sheet()[0];
    assert_eq!(line.decision, Decision::Rejected);
    assert_eq!(line.round_scores, vec![14, -1]);
}

/// D1 with Toronto trumps: the dealer (seat 1) holds nearly every trump.
/// Seat 0 takes one trick (the Lost Heir over a Toronto card: 6 points);
/// seat 1 takes the other 15 (the Wrong Boy's -3 among them: 12 points),
/// the last being a trick of Blanks led by seat 1 (LH-8).
fn d1_toronto_round(game: &mut LostHeir) {
    play_cards(game, &["halifax-policeman", "toronto-policeman"]);
    play_cards(game, &["toronto-sergeant", "heir"]);
    play_cards(game, &["halifax-sergeant", "toronto-captain"]);
    for (lead, throw) in [
        ("winnipeg-policeman", "halifax-captain"),
        ("winnipeg-sergeant", "halifax-detective"),
        ("winnipeg-captain", "halifax-commissioner"),
        ("winnipeg-detective", "halifax-chief"),
        ("winnipeg-commissioner", "halifax-mayor"),
        ("winnipeg-chief", "montreal-policeman"),
        ("winnipeg-mayor", "montreal-sergeant"),
        ("toronto-detective", "montreal-captain"),
        ("toronto-commissioner", "montreal-detective"),
        ("toronto-chief", "montreal-commissioner"),
        ("toronto-mayor", "montreal-chief"),
        ("wrong-boy", "montreal-mayor"),
        ("blank", "blank"),
    ] {
        play_cards(game, &[lead, throw]);
    }
    let line = game.score_sheet().last().unwrap().clone();
    assert_eq!(line.tricks, vec![1, 15]);
    assert_eq!(line.points, vec![6, 12]);
}

fn d1_toronto(calls: &[Move]) -> Vec<i32> {
    d1_toronto_under(Config::new(2), calls)
}

fn d1_toronto_under(config: Config, calls: &[Move]) -> Vec<i32> {
    let hands = [
        hand(&["halifax-*", "montreal-*", "heir", "blank"]),
        hand(&["toronto-*", "winnipeg-*", "wrong-boy", "blank"]),
    ];
    let mut game = game_from(config, 1, &hands);
    for mv in calls {
        act(&mut game, *mv);
    }
    act(&mut game, Move::name_trumps(City::Toronto));
    d1_toronto_round(&mut game);
    game.score_sheet()[0].round_scores.clone()
}

#[test]
fn lh_11_positive_points_are_lost_by_a_failed_or_rejecting_dealer() {
    // Failed contract: the dealer took 12 points against a bid of 13.
    assert_eq!(d1_toronto(&[Move::bid(13), Move::Accept]), vec![6, 0]);
    // Made contract: a bid of 12 is met exactly, and the dealer scores in full.
    assert_eq!(d1_toronto(&[Move::bid(12), Move::Accept]), vec![6, 12]);
    // Rejecting dealer: scores nothing, however well it played.
    assert_eq!(d1_toronto(&[Move::bid(1), Move::Reject]), vec![6, 0]);
    // All passed: normal scoring for everyone.
    assert_eq!(d1_toronto(&[Move::Pass]), vec![6, 12]);
}

// ---- LH-12 ---------------------------------------------------------------

/// D1 with starting scores; its round scores are [14, -1].
fn d1_from_scores(scores: [i32; 2]) -> LostHeir {
    let mut game = d1().with_scores(&scores).unwrap();
    act(&mut game, Move::Pass);
    act(&mut game, Move::name_trumps(City::Halifax));
    d1_play_round(&mut game);
    game
}

#[test]
fn lh_12_reaching_the_target_ends_the_game_and_the_highest_total_wins() {
    let game = d1_from_scores([27, 35]);
    assert!(game.is_over());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.scores, vec![41, 34]);
    assert_eq!(outcome.winners.iter().collect::<Vec<_>>(), vec![seat(0)]);
    // Both past the target: the higher total wins, not the first to reach it.
    let game = d1_from_scores([30, 46]);
    assert_eq!(game.outcome().unwrap().scores, vec![44, 45]);
    assert_eq!(game.outcome().unwrap().winners.first(), Some(seat(1)));
    // Below the target: the next round is dealt, the deal passing left.
    let game = d1_from_scores([10, 39]);
    assert!(!game.is_over());
    assert_eq!(game.round_number(), 2);
    assert_eq!(game.dealer(), seat(0));
    assert_eq!(game.scores(), &[24, 38]);
}

#[test]
fn lh_12_a_tie_for_the_highest_total_at_the_target_plays_another_round() {
    let mut game = d1_from_scores([26, 41]);
    assert_eq!(game.scores(), &[40, 40]);
    assert!(!game.is_over(), "a tie at the top means another round");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.round_number(), 2);
    play_out(&mut game, 1);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners.len(), 1);
    let best = outcome.scores.iter().max().unwrap();
    assert_eq!(outcome.scores.iter().filter(|s| *s == best).count(), 1);
}

#[test]
fn lh_12_no_move_after_the_end() {
    let mut game = d1_from_scores([27, 35]);
    assert_eq!(game.turn(), None);
    assert!(game.legal_moves(seat(0)).is_empty());
    let err = refused(&mut game, 0, Move::Pass);
    assert_eq!(err, RuleError::GameOver);
    assert_eq!(err.rule(), Some("LH-12"));
}

// ---- LH-13 (variant) -----------------------------------------------------

fn bidders_contract(config: Config) -> Config {
    config.with_bidder_contract(true)
}

#[test]
fn lh_13_an_accepted_bid_binds_the_bidder_and_the_dealer_scores_normally() {
    // D1 with Toronto trumps: the bidder (seat 0) takes 6 points, the
    // dealer (seat 1) 12.
    let lh13 = bidders_contract(Config::new(2));
    // The bidder missed a bid of 7: it scores nothing; the dealer, unbound,
    // keeps its 12 (under LH-6 the dealer would have been bound instead).
    assert_eq!(
        d1_toronto_under(lh13, &[Move::bid(7), Move::Accept]),
        vec![0, 12]
    );
    assert_eq!(d1_toronto(&[Move::bid(7), Move::Accept]), vec![6, 12]);
    // A bid of 13 is missed by the bidder under LH-13, by the dealer under LH-6.
    assert_eq!(
        d1_toronto_under(lh13, &[Move::bid(13), Move::Accept]),
        vec![0, 12]
    );
    assert_eq!(d1_toronto(&[Move::bid(13), Move::Accept]), vec![6, 0]);
    // A bid met exactly scores in full for both.
    assert_eq!(
        d1_toronto_under(lh13, &[Move::bid(6), Move::Accept]),
        vec![6, 12]
    );
}

#[test]
fn lh_13_rejection_and_all_pass_are_as_in_lh_6() {
    let lh13 = bidders_contract(Config::new(2));
    assert_eq!(
        d1_toronto_under(lh13, &[Move::bid(1), Move::Reject]),
        vec![6, 0]
    );
    assert_eq!(d1_toronto_under(lh13, &[Move::Pass]), vec![6, 12]);
}

#[test]
fn lh_13_the_contract_is_the_bidders_side_and_the_bidder_names_trumps() {
    // D4 (dealer seat 3, partners 1+3 against 0+2): seat 2 outbids seat 0.
    let mut game = game_from(bidders_contract(Config::new(4)), 3, &d4_hands());
    act(&mut game, Move::bid(4));
    act(&mut game, Move::Pass);
    act(&mut game, Move::bid(7));
    act(&mut game, Move::Accept);
    assert_eq!(
        game.turn(),
        Some(seat(2)),
        "the highest bidder names trumps (LH-6)"
    );
    act(&mut game, Move::name_trumps(City::Toronto));
    let contract = game.contract().unwrap();
    assert_eq!(contract.side, game.side_of(seat(2)));
    assert_ne!(contract.side, game.side_of(seat(3)));
    assert_eq!((contract.dealer, contract.points), (seat(3), BidPoints(7)));
    let view = game.view(Viewer::Seat(seat(0)));
    assert!(view.bidder_contract);
    assert_eq!(view.contract, Some(contract));
    // The same calls under LH-6 bind the dealer's side.
    let mut game = d4();
    act(&mut game, Move::bid(4));
    act(&mut game, Move::Pass);
    act(&mut game, Move::bid(7));
    act(&mut game, Move::Accept);
    act(&mut game, Move::name_trumps(City::Toronto));
    assert_eq!(game.contract().unwrap().side, game.side_of(seat(3)));
    assert!(!game.view(Viewer::Spectator).bidder_contract);
}

#[test]
fn lh_13_whole_games_under_the_variant_end_with_one_winning_side() {
    for config in [
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
    ] {
        for seed in 0..20 {
            let mut game = LostHeir::new(bidders_contract(config), Seed::from_u64(seed)).unwrap();
            play_out(&mut game, seed);
            let outcome = game.outcome().expect("played out");
            // One winning side (two seats with partnerships, scores by
            // seat), LH-12.
            let side_size = if config.partnerships { 2 } else { 1 };
            let best = outcome.scores.iter().max().unwrap();
            let leaders = outcome.scores.iter().filter(|s| *s == best).count();
            assert_eq!(leaders, side_size);
            assert_eq!(outcome.winners.len() as usize, side_size);
            // Every failed contract scored min(points, 0) for its bound side.
            for line in game.score_sheet() {
                if let Some(c) = line.contract {
                    let side = c.side.index();
                    if line.points[side] < i32::from(c.points.0) {
                        assert_eq!(line.round_scores[side], line.points[side].min(0));
                    }
                }
            }
        }
    }
}

// ---- G-1 / G-2 / G-3 -----------------------------------------------------

#[test]
fn g_1_same_config_seed_and_moves_give_the_same_game() {
    for players in [2, 3, 4] {
        let config = Config::new(players);
        let mut game = LostHeir::new(config, Seed::from_u64(11)).unwrap();
        let moves = play_out(&mut game, 12);
        let mut replay = LostHeir::new(config, Seed::from_u64(11)).unwrap();
        for (s, mv) in &moves {
            replay.play_mut(*s, mv).unwrap();
        }
        assert_eq!(replay, game);
        assert_eq!(
            replay.view(Viewer::Omniscient),
            game.view(Viewer::Omniscient)
        );
        // Another seed deals differently.
        let other = LostHeir::new(config, Seed::from_u64(12)).unwrap();
        let fresh = LostHeir::new(config, Seed::from_u64(11)).unwrap();
        assert_ne!(
            other.view(Viewer::Omniscient).hands,
            fresh.view(Viewer::Omniscient).hands
        );
    }
}

#[test]
fn g_2_a_seat_sees_its_own_hand_and_only_counts_of_the_others() {
    let mut game = LostHeir::new(Config::new(4), Seed::from_u64(21)).unwrap();
    let mut rng = Seed::from_u64(22).rng();
    for step in 0..60 {
        for viewer in 0..4u8 {
            let view = game.view(Viewer::Seat(seat(viewer)));
            let own = game.hand(seat(viewer));
            assert_eq!(
                view.hand.as_deref(),
                Some(&own.iter().collect::<Vec<_>>()[..])
            );
            assert!(view.hands.is_none() && view.taken.is_none());
            let text = format!("{view:?}");
            // The previous round's last trick stays on show, and those cards
            // have since been dealt again: they are public, skip them.
            let shown: Vec<HeirCard> = view
                .last_trick
                .iter()
                .flat_map(|t| t.plays.iter().map(|p| p.card))
                .collect();
            for other in (0..4u8).filter(|&o| o != viewer) {
                assert_eq!(
                    view.hand_sizes[other as usize] as u32,
                    game.hand(seat(other)).len()
                );
                let hidden = game.hand(seat(other));
                for c in hidden
                    .iter()
                    .filter(|c| !c.is_blank() && !shown.contains(c))
                {
                    assert!(!text.contains(&format!("{c:?}")), "step {step}: {c} leaked");
                }
            }
        }
        let spectator = game.view(Viewer::Spectator);
        assert!(spectator.hand.is_none() && spectator.hands.is_none());
        let all = game.view(Viewer::Omniscient).hands.unwrap();
        assert_eq!(
            all.iter().map(Vec::len).sum::<usize>() as u32,
            (0..4).map(|s| game.hand(seat(s)).len()).sum::<u32>()
        );
        let to_act = game.turn().unwrap();
        let mv = game.legal_moves(to_act).random(&mut rng).unwrap();
        game.play_mut(to_act, &mv).unwrap();
    }
    // The state's Debug does not print the RNG (it would reveal future deals).
    assert!(!format!("{game:?}").contains("word_pos"));
}

#[test]
fn g_3_refused_moves_change_nothing_and_name_their_rule() {
    let mut game = d4_playing();
    let cases = [
        (1, Move::play(card("winnipeg-mayor")), "not_your_turn"),
        (0, Move::bid(3), "wrong_phase"),
        (0, Move::play(card("heir")), "card_not_in_hand"),
        (9, Move::play(card("heir")), "no_such_seat"),
    ];
    for (s, mv, code) in cases {
        let err = refused(&mut game, s, mv);
        assert_eq!(err.code(), code, "{mv}");
        assert!(err.rule().is_some());
        let text = err.to_string();
        assert!(
            text.contains(&format!("({})", err.rule().unwrap())),
            "{text}"
        );
    }
    // Refusals never name a card the mover does not hold.
    play_cards(&mut game, &["toronto-sergeant"]);
    let err = refused(&mut game, 1, Move::play(card("toronto-mayor")));
    assert_eq!(err.to_string(), "you do not hold toronto-mayor (G-3)");
}

/// The worked example in docs/rules/lost-heir.md, pinned so the docs cannot drift.
#[test]
fn docs_worked_example_round_is_reproduced() {
    let mut game = LostHeir::new(Config::new(4), Seed::from_u64(2026)).unwrap();
    assert_eq!(game.dealer(), seat(2));
    let hands = game.view(Viewer::Omniscient).hands.unwrap();
    assert_eq!(
        hands[3],
        cards(&[
            "winnipeg-policeman",
            "winnipeg-sergeant",
            "winnipeg-detective",
            "halifax-policeman",
            "halifax-sergeant",
            "halifax-captain",
            "montreal-captain",
            "montreal-chief",
        ])
    );
    let mut rng = Seed::from_u64(7).rng();
    let mut moves = Vec::new();
    while game.round_number() == 1 {
        let s = game.turn().unwrap();
        let mv = game.legal_moves(s).random(&mut rng).unwrap();
        game.play_mut(s, &mv).unwrap();
        moves.push(mv);
    }
    assert_eq!(
        moves[..5],
        [
            Move::bid(2),
            Move::bid(11),
            Move::bid(13),
            Move::Accept,
            Move::name_trumps(City::Winnipeg)
        ]
    );
    let line = &game.score_sheet()[0];
    assert_eq!(line.contract.unwrap().points, BidPoints(13));
    assert_eq!(line.tricks, vec![4, 4]);
    assert_eq!(line.points, vec![9, 1]);
    assert_eq!(line.round_scores, vec![0, 1]);
    assert_eq!(game.dealer(), seat(3));
}
