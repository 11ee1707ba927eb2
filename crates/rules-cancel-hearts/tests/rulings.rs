//! One or more tests per ruling (CH-1..CH-13), on hand-built deals.
//!
//! Most use the 8-player "suit block" table (see `common::Table::sorted`):
//! seats 0 and 4 hold a whole club suit each, 1 and 5 diamonds, 2 and 6
//! hearts, 3 and 7 spades. Dealer 7 and round 3 (no pass) make seat 0 lead
//! the first trick at once. Playing the same rank in every suit round the
//! table ("2C 2D 2H 2S 2C 2D 2H 2S") then cancels every card.

mod common;

use cards::standard::{Card, double_deck};
use cards::{Hand, LegalMoves, RuleViolation, Ruleset, Seed, Viewer, random_below, shuffle};
use common::*;
use rules_cancel_hearts::{
    AllCancelled, CancelHearts, Config, ConfigError, Deal, MoonChoice, Move, PassDirection, Phase,
    RuleError,
};

const RANKS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// One circuit on the suit-block table in which every card cancels.
fn paired_circuit(rank: &str) -> String {
    format!("{rank}C {rank}D {rank}H {rank}S {rank}C {rank}D {rank}H {rank}S")
}

fn block_game(config: Config) -> CancelHearts {
    Table::sorted(8).game(config, 7, 3)
}

// ----- CH-1 Deck and deal ---------------------------------------------------

#[test]
fn ch_1_hand_and_kitty_sizes_for_every_player_count() {
    for (n, hand, kitty) in [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4)] {
        let game = CancelHearts::new(Config::new(n), Seed::from_u64(n.into())).unwrap();
        let view = game.view(Viewer::Omniscient);
        assert_eq!(view.hand_sizes, vec![hand; n as usize], "{n} players");
        assert_eq!(view.kitty.size, kitty, "{n} players");
        assert_eq!(view.secrets.as_ref().unwrap().kitty.len(), kitty);
        let all = all_of(&view);
        assert_eq!(all.len(), 104);
        assert!(all.pairs().len() == 52, "two copies of every card");
    }
}

#[test]
fn ch_1_dealt_one_at_a_time_clockwise_from_the_dealers_left() {
    for n in 6..=10u8 {
        let seed = Seed::from_u64(1000 + u64::from(n));
        let game = CancelHearts::new(Config::new(n), seed).unwrap();
        // Recompute the deal: dealer drawn first, then the shuffle (CH-2, G-1).
        let mut rng = seed.rng();
        let dealer = random_below(&mut rng, u32::from(n)) as usize;
        let mut deck = double_deck();
        shuffle(&mut deck, &mut rng);
        let size = 104 / n as usize;
        let mut hands = vec![Hand::EMPTY; n as usize];
        for (i, card) in deck[..size * n as usize].iter().enumerate() {
            hands[(dealer + 1 + i) % n as usize].insert(*card).unwrap();
        }
        let kitty: Hand<Card> = deck[size * n as usize..].iter().copied().collect();
        let view = game.view(Viewer::Omniscient);
        assert_eq!(view.dealer.index(), dealer);
        assert_eq!(view.secrets.as_ref().unwrap().hands, hands, "{n} players");
        assert_eq!(view.secrets.as_ref().unwrap().kitty, kitty);
    }
}

#[test]
fn ch_1_six_to_ten_players_only() {
    for n in [0, 5, 11, 16] {
        let err = CancelHearts::new(Config::new(n), Seed::from_u64(1)).unwrap_err();
        assert_eq!(err, ConfigError::PlayerCount { players: n });
        assert_eq!((err.code(), err.rule()), ("player_count", Some("CH-1")));
        assert!(err.to_string().contains("CH-1"));
    }
    let err = CancelHearts::new(Config::new(6).with_target(0), Seed::from_u64(1)).unwrap_err();
    assert_eq!(err.rule(), Some("CH-13"));
}

#[test]
fn ch_1_hand_built_deals_are_checked() {
    let config = Config::new(8);
    let seed = Seed::from_u64(5);
    let good = Table::sorted(8);
    assert!(CancelHearts::from_deal(config.clone(), seed, good.deal(0, 0)).is_ok());

    let mut short = good.deal(0, 0);
    short.hands[3].remove(c("2S"));
    short.hands[4].insert(c("2S")).unwrap();
    let err = CancelHearts::from_deal(config.clone(), seed, short).unwrap_err();
    assert!(
        matches!(
            err,
            ConfigError::HandSize {
                expected: 13,
                got: 12,
                ..
            }
        ),
        "{err}"
    );

    // Same sizes, but a third king of clubs instead of an ace of spades.
    let mut third_copy = good.deal(0, 0);
    third_copy.hands[3].remove(c("AS"));
    third_copy.hands[3].insert(c("KC")).unwrap();
    let err = CancelHearts::from_deal(config.clone(), seed, third_copy).unwrap_err();
    assert_eq!(err, ConfigError::NotTwoDecks);

    let mut seven = good.deal(0, 0);
    seven.hands.pop();
    assert!(matches!(
        CancelHearts::from_deal(config.clone(), seed, seven),
        Err(ConfigError::HandCount {
            expected: 8,
            got: 7
        })
    ));
    let far = Deal::new(seat(8), good.hands.clone(), good.kitty);
    assert!(matches!(
        CancelHearts::from_deal(config, seed, far),
        Err(ConfigError::NoSuchDealer { .. })
    ));
}

// ----- CH-2 Dealer ----------------------------------------------------------

#[test]
fn ch_2_first_dealer_drawn_from_the_seed() {
    let mut seen = [false; 6];
    for s in 0..60 {
        let seed = Seed::from_u64(s);
        let game = CancelHearts::new(Config::new(6), seed).unwrap();
        let expected = random_below(&mut seed.rng(), 6) as usize;
        assert_eq!(game.dealer().index(), expected);
        seen[expected] = true;
    }
    assert!(
        seen.iter().all(|&s| s),
        "every seat deals first for some seed"
    );
}

#[test]
fn ch_2_the_deal_passes_left_each_round() {
    let mut game = CancelHearts::new(Config::new(7), Seed::from_u64(8)).unwrap();
    let mut rng = Seed::from_u64(9).rng();
    let mut dealers = vec![game.dealer()];
    while !game.is_over() {
        let who = game.to_act().first().unwrap();
        let mv = game.legal_moves(who).random(&mut rng).unwrap();
        game.play_mut(who, &mv).unwrap();
        if game.round().number() as usize == dealers.len() {
            dealers.push(game.dealer());
        }
    }
    assert!(dealers.len() > 2);
    for pair in dealers.windows(2) {
        assert_eq!(pair[1].number(), (pair[0].number() + 1) % 7);
    }
    let sheet = game.view(Viewer::Spectator).score_sheet;
    assert_eq!(sheet.len(), dealers.len());
    assert!(sheet.iter().zip(&dealers).all(|(row, d)| row.dealer == *d));
}

// ----- CH-3 Passing ---------------------------------------------------------

#[test]
fn ch_3_pass_cycle_left_right_across_none() {
    use PassDirection::*;
    for (round, direction) in [Left, Right, Across, NoPass, Left, Right, Across, NoPass]
        .into_iter()
        .enumerate()
    {
        let game = Table::sorted(8).game(Config::new(8), 7, round as u32);
        assert_eq!(game.pass_direction(), direction, "round {round}");
        let passing = direction != NoPass;
        assert_eq!(game.phase() == Phase::Passing, passing);
        assert_eq!(game.to_act().len(), if passing { 8 } else { 1 });
    }
}

#[test]
fn ch_3_passes_are_secret_and_delivered_all_at_once() {
    let mut game = Table::sorted(8).game(Config::new(8), 7, 0);
    let pass0 = cards("2C 3C 4C");
    let seat1_before = game.hand(seat(1));

    let err = refused(
        &mut game,
        0,
        Move::PassCards {
            cards: cards("2C 3C"),
        },
    );
    assert_eq!(err, RuleError::MustPassThree { given: 2 });
    let err = refused(
        &mut game,
        0,
        Move::PassCards {
            cards: cards("2D 3D 4D"),
        },
    );
    assert_eq!(err, RuleError::CardsNotInHand);
    assert_eq!(err.rule(), Some("G-3"));
    let err = refused(&mut game, 0, play_card("2C"));
    assert_eq!(err.code(), "wrong_phase");

    game.play_mut(seat(0), &Move::PassCards { cards: pass0 })
        .unwrap();
    assert_eq!(game.to_act().len(), 7);
    assert!(!game.to_act().contains(seat(0)));
    let err = refused(
        &mut game,
        0,
        Move::PassCards {
            cards: cards("5C 6C 7C"),
        },
    );
    assert_eq!(err, RuleError::AlreadyPassed);
    // Not delivered yet: the receiver sees nothing; only the giver its pass.
    assert_eq!(game.hand(seat(1)), seat1_before);
    let receiver = game.view(Viewer::Seat(seat(1)));
    assert_eq!(receiver.received, None);
    assert_eq!(receiver.passed, None);
    assert!(!receiver.still_to_pass.contains(seat(0)));
    assert!(receiver.still_to_pass.contains(seat(1)));
    assert_eq!(game.view(Viewer::Seat(seat(0))).passed, Some(pass0));
    assert_eq!(
        <CancelHearts as Ruleset>::visibility(&Move::PassCards { cards: pass0 }),
        cards::Visibility::ActorOnly
    );

    for s in 1..8 {
        let lowest: Hand<Card> = game.hand(seat(s)).iter().take(3).collect();
        game.play_mut(seat(s), &Move::PassCards { cards: lowest })
            .unwrap();
    }
    assert_eq!(game.phase(), Phase::Playing);
    let receiver = game.view(Viewer::Seat(seat(1)));
    assert_eq!(receiver.received, Some(pass0));
    assert!(game.hand(seat(1)).contains_all(&pass0));
    assert_eq!(game.hand(seat(1)).len(), 13);
    // Seats 0 and 4 passed their twos of clubs left: seat 1 is now the first
    // holder clockwise from the dealer's left (CH-4 after the pass).
    assert_eq!(next(&game), 1);
}

#[test]
fn ch_3_odd_count_across_is_floor_half_to_the_left() {
    // 7 players, round 2: across is 3 seats to the left.
    let mut game = Table::sorted(7).game(Config::new(7), 6, 2);
    assert_eq!(game.pass_direction(), PassDirection::Across);
    let mut passes = Vec::new();
    for s in 0..7u8 {
        let three: Hand<Card> = game.hand(seat(s)).iter().take(3).collect();
        passes.push(three);
        game.play_mut(seat(s), &Move::PassCards { cards: three })
            .unwrap();
    }
    for s in 0..7usize {
        let view = game.view(Viewer::Seat(seat(s as u8)));
        let giver = (s + 7 - 3) % 7;
        assert_eq!(
            view.received,
            Some(passes[giver]),
            "seat {s} receives from {giver}"
        );
        assert!(
            game.hand(seat(((s + 3) % 7) as u8))
                .contains_all(&passes[s])
        );
    }
}

#[test]
fn ch_3_no_pass_in_every_fourth_round() {
    let mut game = Table::sorted(8).game(Config::new(8), 7, 3);
    let err = refused(
        &mut game,
        0,
        Move::PassCards {
            cards: cards("2C 3C 4C"),
        },
    );
    assert_eq!(err, RuleError::NoPassThisRound);
    assert_eq!(err.rule(), Some("CH-3"));
}

// ----- CH-4 First lead ------------------------------------------------------

#[test]
fn ch_4_the_holder_of_the_two_of_clubs_must_lead_it() {
    let mut game = block_game(Config::new(8));
    assert_eq!(next(&game), 0);
    let legal = game.legal_moves(seat(0));
    assert_eq!(legal.count(), 1);
    assert_eq!(legal.nth(0), Some(play_card("2C")));
    let err = refused(&mut game, 0, play_card("3C"));
    assert_eq!(err, RuleError::MustLeadTwoOfClubs);
    assert_eq!(err.rule(), Some("CH-4"));
    assert_eq!(
        refused(&mut game, 1, play_card("2D")),
        RuleError::NotYourTurn
    );
    play(&mut game, "2C");
}

#[test]
fn ch_4_two_holders_first_clockwise_from_the_dealers_left_leads() {
    // Seats 0 and 4 hold a two of clubs each.
    for (dealer, leader) in [(7, 0), (0, 4), (2, 4), (3, 4), (4, 0), (6, 0)] {
        let game = Table::sorted(8).game(Config::new(8), dealer, 3);
        assert_eq!(next(&game), leader, "dealer {dealer}");
    }
}

#[test]
fn ch_4_both_twos_of_clubs_in_the_kitty_lowest_club_leads() {
    // Six players: the kitty is KS AS; put both twos of clubs there. The
    // threes of clubs are then the lowest clubs, held by seats 0 and 3.
    let table = Table::sorted(6)
        .exchange_with_kitty(0, "2C", "KS")
        .exchange_with_kitty(3, "2C", "AS");
    let mut game = table.game(Config::new(6), 5, 3);
    assert_eq!(next(&game), 0);
    let err = refused(&mut game, 0, play_card("4C"));
    assert_eq!(err, RuleError::MustLeadLowestClub { card: c("3C") });
    assert_eq!(err.code(), "must_lead_lowest_club");
    play(&mut game, "3C");
    // The same deal with dealer 1: seat 3 comes first from seat 2.
    let game = table.game(Config::new(6), 1, 3);
    assert_eq!(next(&game), 3);
    assert_eq!(game.legal_moves(seat(3)).playable().len(), 1);
    assert!(game.legal_moves(seat(3)).playable().contains(c("3C")));
}

// ----- CH-5 Following and the first trick -------------------------------------

/// Seat 2 holds AC and QS among its hearts, seat 3 KH among its spades,
/// seat 6 a 3S among its hearts, seat 7 a 2H among its spades.
fn first_trick_table() -> Table {
    Table::sorted(8)
        .exchange(4, "AC", 2, "AH")
        .exchange(3, "QS", 2, "KH")
        .exchange(7, "3S", 6, "2H")
}

#[test]
fn ch_5_must_follow_suit_and_no_points_on_the_first_trick() {
    let mut game = first_trick_table().game(Config::new(8), 7, 3);
    play(&mut game, "2C 2D");
    let err = refused(&mut game, 2, play_card("5H"));
    assert_eq!(
        err,
        RuleError::MustFollowSuit {
            suit: cards::standard::Suit::Clubs
        }
    );
    assert_eq!(err.to_string(), "must follow suit: you hold clubs (CH-5)");
    play(&mut game, "AC");
    let err = refused(&mut game, 3, play_card("KH"));
    assert_eq!(err, RuleError::NoPointsOnFirstTrick);
    assert_eq!(err.rule(), Some("CH-5"));
    play(&mut game, "2S 2C 2D");
    assert_eq!(
        refused(&mut game, 6, play_card("3H")),
        RuleError::NoPointsOnFirstTrick
    );
    play(&mut game, "3S");
    assert_eq!(
        refused(&mut game, 7, play_card("QS")),
        RuleError::NoPointsOnFirstTrick
    );
    assert_eq!(
        refused(&mut game, 7, play_card("2H")),
        RuleError::NoPointsOnFirstTrick
    );
    assert_eq!(
        game.legal_moves(seat(7))
            .playable()
            .iter()
            .filter(|c| c.suit == cards::standard::Suit::Hearts)
            .count(),
        0
    );
    play(&mut game, "2S");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.last_trick.unwrap().winner, Some(seat(2)));
    assert!(!view.hearts_broken);
    // After the first trick a void player may discard a heart.
    play(&mut game, "QS 3S AH");
}

#[test]
fn ch_5_a_player_holding_only_points_may_play_them_on_the_first_trick() {
    let mut game = block_game(Config::new(8));
    play(&mut game, "2C 2D 2H 2S");
    assert!(game.view(Viewer::Spectator).hearts_broken);
}

// ----- CH-6 Hearts broken ---------------------------------------------------

#[test]
fn ch_6_hearts_not_led_until_broken_but_the_queen_of_spades_may_be() {
    let mut game = first_trick_table().game(Config::new(8), 7, 3);
    play(&mut game, "2C 2D AC 2S 2C 2D 3S 2S");
    assert_eq!(next(&game), 2);
    let err = refused(&mut game, 2, play_card("5H"));
    assert_eq!(err, RuleError::HeartsNotBroken);
    assert_eq!(err.rule(), Some("CH-6"));
    assert_eq!(game.legal_moves(seat(2)).playable(), cards("QS").kinds());
    play(&mut game, "QS 3S AH 3D 3H 4S 3C 3D");
    assert_eq!(next(&game), 2, "the queen of spades won");
    assert!(game.view(Viewer::Spectator).hearts_broken);
    play(&mut game, "5H");
}

#[test]
fn ch_6_a_leader_holding_only_hearts_may_lead_one() {
    let table = Table::sorted(8)
        .exchange(4, "AC", 2, "AH")
        .exchange(7, "3S", 6, "2H");
    let mut game = table.game(Config::new(8), 7, 3);
    play(&mut game, "2C 2D AC 2S 2C 2D 3S 2S");
    assert!(!game.view(Viewer::Spectator).hearts_broken);
    assert_eq!(next(&game), 2);
    play(&mut game, "5H");
}

// ----- CH-7 Cancellation ----------------------------------------------------

#[test]
fn ch_7_led_card_cancelled_lower_card_wins() {
    // Seat 1 holds 5C and 6C among its diamonds.
    let table = Table::sorted(8)
        .exchange(0, "5C", 1, "5D")
        .exchange(0, "6C", 1, "6D");
    let mut game = table.game(Config::new(8), 7, 3);
    play(&mut game, "2C 6C 2H 2S AC 2D 2H 2S");
    assert_eq!(next(&game), 4, "AC won the first trick");
    // Seat 4 leads KC, seat 0 follows with the other KC: both cancel, and
    // seat 1's 5C is the highest uncancelled club.
    play(&mut game, "KC 3D 3H 3S KC 5C 3H 3S");
    let view = game.view(Viewer::Spectator);
    let trick = view.last_trick.unwrap();
    assert_eq!(trick.winner, Some(seat(1)));
    assert_eq!(trick.circuits, 1);
    let cancelled: Vec<_> = trick
        .plays
        .iter()
        .map(|p| (p.card.to_string(), p.cancelled))
        .collect();
    assert_eq!(
        cancelled,
        [
            ("KC", true),
            ("3D", false),
            ("3H", true),
            ("3S", true),
            ("KC", true),
            ("5C", false),
            ("3H", true),
            ("3S", true)
        ]
        .map(|(c, x)| (c.to_string(), x))
    );
    // Cancelled cards still score: seat 1 took both 3H.
    assert_eq!(view.round_points[1], 2);
    assert_eq!(next(&game), 1);
}

#[test]
fn ch_7_the_current_trick_shows_cancellations_as_they_happen() {
    let mut game = block_game(Config::new(8));
    play(&mut game, "2C 2D 2H 2S 3C");
    let trick = game.view(Viewer::Seat(seat(5))).trick.unwrap();
    assert_eq!(trick.winning, Some(seat(4)), "3C beats the lone 2C so far");
    play(&mut game, "2D 2H 2S");
    // 2C and 3C are both uncancelled: 3C wins.
    assert_eq!(
        game.view(Viewer::Spectator).last_trick.unwrap().winner,
        Some(seat(4))
    );
}

// ----- CH-8 Extension -------------------------------------------------------

#[test]
fn ch_8_all_cancelled_trick_extended_once() {
    let mut game = block_game(Config::new(8));
    play(&mut game, &paired_circuit("2"));
    let view = game.view(Viewer::Spectator);
    let trick = view.trick.expect("the trick stays on the table");
    assert_eq!(trick.plays.len(), 8);
    assert!(trick.plays.iter().all(|p| p.cancelled));
    assert_eq!(trick.winning, None);
    assert_eq!(
        next(&game),
        0,
        "the extension starts with the trick's leader"
    );
    // The leader's extension card follows the suit led; CH-5 no longer
    // applies, so seat 3 may play the queen of spades.
    play(&mut game, "3C 3D 3H QS 4C 3D 3H 3S");
    let view = game.view(Viewer::Spectator);
    let trick = view.last_trick.unwrap();
    assert_eq!(trick.winner, Some(seat(4)));
    assert_eq!(trick.circuits, 2);
    assert_eq!(
        view.taken[4].len(),
        16,
        "the winner takes every card of the trick"
    );
    assert_eq!(view.round_points[4], 4 + 13);
    assert_eq!(next(&game), 4);
}

#[test]
fn ch_8_all_cancelled_trick_extended_twice() {
    let mut game = block_game(Config::new(8));
    play(&mut game, &paired_circuit("2"));
    play(&mut game, &paired_circuit("3"));
    assert!(game.view(Viewer::Spectator).trick.is_some());
    assert_eq!(game.view(Viewer::Spectator).trick.unwrap().circuits, 2);
    play(&mut game, "4C 4D 4H 4S 5C 4D 4H 4S");
    let trick = game.view(Viewer::Spectator).last_trick.unwrap();
    assert_eq!(trick.circuits, 3);
    assert_eq!(trick.plays.len(), 24);
    assert_eq!(trick.winner, Some(seat(4)));
}

#[test]
fn ch_8_extension_cards_must_follow_the_suit_led() {
    // Seat 1 holds 9C and 10C among its diamonds; seat 5 holds the other 9C.
    let table = Table::sorted(8)
        .exchange(0, "9C", 1, "9D")
        .exchange(0, "10C", 1, "10D")
        .exchange(4, "9C", 5, "9D");
    let mut game = table.game(Config::new(8), 7, 3);
    play(&mut game, "2C 9C 2H 2S 2C 9C 2H 2S");
    assert_eq!(game.view(Viewer::Spectator).trick.unwrap().winning, None);
    play(&mut game, "3C");
    let err = refused(&mut game, 1, play_card("3D"));
    assert_eq!(
        err,
        RuleError::MustFollowSuit {
            suit: cards::standard::Suit::Clubs
        }
    );
    play(&mut game, "10C 3H 3S 3C 3D 3H 3S");
    assert_eq!(
        game.view(Viewer::Spectator).last_trick.unwrap().winner,
        Some(seat(1))
    );
}

#[test]
fn ch_8_extension_runs_out_with_no_winner_yet_goes_to_the_leader() {
    let mut game = block_game(Config::new(8));
    for rank in RANKS {
        play(&mut game, &paired_circuit(rank));
    }
    let view = game.view(Viewer::Spectator);
    let trick = view.last_trick.unwrap();
    assert_eq!(trick.circuits, 13);
    assert_eq!(
        trick.winner,
        Some(seat(0)),
        "no trick won yet: the trick's leader"
    );
    assert_eq!(view.taken[0].len(), 104);
}

#[test]
fn ch_8_extension_runs_out_goes_to_the_last_trick_winner() {
    let mut game = block_game(Config::new(8));
    play(&mut game, "2C 2D 2H 2S 3C 2D 2H 2S"); // seat 4 wins with 3C
    play(&mut game, "2C 3D 3H 3S 3C 3D 3H 3S"); // seat 0 wins with 3C
    assert_eq!(next(&game), 0);
    for rank in &RANKS[2..] {
        play(&mut game, &paired_circuit(rank));
    }
    // In the extension variant the last trick winner always leads the
    // trick that runs out, so here both readings name seat 0.
    let view = game.view(Viewer::Spectator);
    let row = view.score_sheet.last().unwrap();
    assert_eq!(row.points, vec![50, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(view.round.number(), 4, "the next round is dealt");
}

// ----- CH-9 Carry-over ------------------------------------------------------

#[test]
fn ch_9_carry_over_sets_the_trick_aside_for_the_next_winner() {
    let config = Config::new(8).with_all_cancelled(AllCancelled::CarryOver);
    let mut game = block_game(config);
    play(&mut game, &paired_circuit("2"));
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.trick, None, "no extension: the trick left the table");
    assert_eq!(view.set_aside.len(), 8);
    assert_eq!(view.last_trick.unwrap().winner, None);
    assert_eq!(next(&game), 0, "the same leader leads again");
    // The set-aside trick was the round's first; this one is not, so the
    // queen of spades may be discarded on it (CH-5 binds only the first).
    play(&mut game, "3C 3D 3H QS 4C 3D 3H 3S");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.last_trick.unwrap().winner, Some(seat(4)));
    assert_eq!(
        view.taken[4].len(),
        16,
        "the winner takes the set-aside trick too"
    );
    assert!(view.set_aside.is_empty());
    assert_eq!(view.round_points[4], 4 + 13);
}

#[test]
fn ch_9_carry_over_last_trick_goes_to_its_leader() {
    let config = Config::new(8).with_all_cancelled(AllCancelled::CarryOver);
    let mut game = block_game(config);
    for rank in &RANKS[..12] {
        play(&mut game, &paired_circuit(rank));
    }
    assert_eq!(game.view(Viewer::Spectator).set_aside.len(), 96);
    play(&mut game, &paired_circuit("A"));
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.last_trick.unwrap().winner, Some(seat(0)));
    assert_eq!(view.taken[0].len(), 104);
}

// ----- CH-10 Kitty ----------------------------------------------------------

/// Plays uniformly random legal moves until `stop` holds.
fn play_randomly_until(game: &mut CancelHearts, seed: u64, stop: impl Fn(&CancelHearts) -> bool) {
    let mut rng = Seed::from_u64(seed).rng();
    while !stop(game) {
        let who = game.to_act().first().unwrap();
        let mv = game.legal_moves(who).random(&mut rng).unwrap();
        game.play_mut(who, &mv).unwrap();
    }
}

#[test]
fn ch_10_first_trick_winner_takes_the_kitty_and_discards_as_many() {
    for (n, kitty) in [(6u8, 2u32), (7, 6), (9, 5), (10, 4)] {
        let hand = 104 / u32::from(n);
        let mut game = Table::sorted(n).game(Config::new(n), n - 1, 3);
        play_randomly_until(&mut game, n.into(), |g| g.phase() != Phase::Playing);
        let Phase::Discarding { seat: taker } = game.phase() else {
            panic!(
                "{n} players: expected the kitty discard, got {:?}",
                game.phase()
            );
        };
        let public = game.view(Viewer::Spectator);
        assert_eq!(public.last_trick.as_ref().unwrap().winner, Some(taker));
        assert_eq!(public.kitty.size, kitty);
        assert_eq!(public.kitty.taken_by, Some(taker));
        assert_eq!(public.kitty.cards, None, "never shown to others");
        assert_eq!(public.hand_sizes[taker.index()], hand - 1 + kitty);
        let own = game.view(Viewer::Seat(taker));
        let kitty_cards = own.kitty.cards.expect("the taker sees what it took");
        assert_eq!(kitty_cards, Table::sorted(n).kitty);
        let other = seat((taker.number() + 1) % n);
        assert_eq!(game.view(Viewer::Seat(other)).kitty.cards, None);

        // Wrong counts are refused; nobody plays before the discard.
        let hand_now = game.hand(taker);
        let too_few: Hand<Card> = hand_now.iter().take(kitty as usize - 1).collect();
        let err = refused(&mut game, taker.number(), Move::Discard { cards: too_few });
        assert_eq!(
            err,
            RuleError::WrongDiscardCount {
                expected: kitty,
                given: kitty - 1
            }
        );
        assert_eq!(err.rule(), Some("CH-10"));
        let any = hand_now.iter().next().unwrap();
        assert_eq!(
            refused(&mut game, taker.number(), play_card(&any.to_string())).code(),
            "wrong_phase"
        );
        assert_eq!(
            game.legal_moves(taker).count() as u32,
            binomial(hand - 1 + kitty, kitty)
        );

        // Discard hearts first where possible: discarding breaks nothing (CH-6).
        let broken = public.hearts_broken;
        let mut discard: Hand<Card> = hand_now
            .iter()
            .filter(|c| c.suit == cards::standard::Suit::Hearts)
            .take(kitty as usize)
            .collect();
        for card in hand_now
            .iter()
            .filter(|c| c.suit != cards::standard::Suit::Hearts)
        {
            if discard.len() < kitty {
                discard.insert(card).unwrap();
            }
        }
        assert!(
            game.legal_moves(taker)
                .contains(&Move::Discard { cards: discard })
        );
        game.play_mut(taker, &Move::Discard { cards: discard })
            .unwrap();
        assert_eq!(game.phase(), Phase::Playing);
        assert_eq!(
            next(&game),
            taker.number(),
            "the taker leads the second trick"
        );
        assert_eq!(game.hand(taker).len(), hand - 1);
        let public = game.view(Viewer::Spectator);
        assert_eq!(public.hearts_broken, broken);
        assert_eq!(public.discards, None);
        assert_eq!(game.view(Viewer::Seat(taker)).discards, Some(discard));
        assert_eq!(game.view(Viewer::Seat(other)).discards, None);
        // Discards count as taken by the discarder, for its eyes only.
        let taken_points = rules_points(&public.taken[taker.index()]);
        assert_eq!(public.round_points[taker.index()], taken_points);
        assert_eq!(
            game.view(Viewer::Seat(taker)).round_points[taker.index()],
            taken_points + rules_points(&discard)
        );
        assert_eq!(all_of(&omniscient(&game)).len(), 104);
    }
}

#[test]
fn ch_10_no_kitty_with_eight_players() {
    let mut game = block_game(Config::new(8));
    play(&mut game, "2C 2D 2H 2S 3C 2D 2H 2S");
    assert_eq!(game.phase(), Phase::Playing);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.kitty.size, 0);
    assert_eq!(view.kitty.taken_by, None);
    assert_eq!(next(&game), 4);
}

fn binomial(n: u32, k: u32) -> u32 {
    (0..k).fold(1u64, |acc, i| acc * u64::from(n - i) / u64::from(i + 1)) as u32
}

fn rules_points(cards: &Hand<Card>) -> i32 {
    cards
        .iter()
        .map(|c| match (c.suit, c.rank) {
            (cards::standard::Suit::Hearts, _) => 1,
            (cards::standard::Suit::Spades, cards::standard::Rank::Queen) => 13,
            _ => 0,
        })
        .sum()
}

// ----- CH-11 Scoring --------------------------------------------------------

#[test]
fn ch_11_hearts_one_queen_of_spades_thirteen_fifty_two_a_round() {
    let mut game = block_game(Config::new(8));
    play(&mut game, "2C 2D 2H 2S 3C 2D 2H 2S");
    play(&mut game, "2C 3D 3H 3S 3C 3D 3H 3S");
    assert_eq!(
        game.view(Viewer::Spectator).round_points,
        vec![2, 0, 0, 0, 2, 0, 0, 0]
    );
    for rank in &RANKS[2..] {
        play(&mut game, &paired_circuit(rank));
    }
    // Seat 0 took 24 hearts and both queens (24 + 26), seat 4 two hearts.
    let row = game.view(Viewer::Spectator).score_sheet[0].clone();
    assert_eq!(row.points.iter().sum::<i32>(), 52);
    assert_eq!(row.points[0], 24 + 26);
    assert_eq!(row.moon, None);
    assert_eq!(game.scores(), &[50, 0, 0, 0, 2, 0, 0, 0]);
}

// ----- CH-12 Shooting the moon ----------------------------------------------

/// Seat 0 takes all 104 cards in one trick that runs out (CH-8).
fn moon_game(config: Config, scores: Vec<i32>) -> CancelHearts {
    let deal = Table::sorted(8).deal(7, 3).with_scores(scores);
    let mut game = CancelHearts::from_deal(config, Seed::from_u64(4), deal).unwrap();
    for rank in RANKS {
        play(&mut game, &paired_circuit(rank));
    }
    game
}

#[test]
fn ch_12_moon_subtract_own() {
    let mut game = moon_game(Config::new(8), vec![]);
    assert_eq!(game.phase(), Phase::Moon { shooter: seat(0) });
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), [seat(0)]);
    assert_eq!(game.view(Viewer::Spectator).moon_shooter, Some(seat(0)));
    let legal = game.legal_moves(seat(0));
    assert_eq!(legal.count(), 2);
    let choice = Move::Moon {
        choice: MoonChoice::SubtractOwn,
    };
    assert_eq!(refused(&mut game, 3, choice), RuleError::NotTheShooter);
    assert_eq!(refused(&mut game, 0, play_card("2C")).code(), "wrong_phase");
    game.play_mut(seat(0), &choice).unwrap();
    assert_eq!(game.scores(), &[-26, 0, 0, 0, 0, 0, 0, 0]);
    let row = &game.view(Viewer::Spectator).score_sheet[0];
    assert_eq!(row.moon.unwrap().choice, MoonChoice::SubtractOwn);
    assert_eq!(row.moon.unwrap().shooter, seat(0));
    assert_eq!(game.round().number(), 4);
}

#[test]
fn ch_12_moon_add_to_others() {
    let mut game = moon_game(Config::new(8), vec![]);
    game.play_mut(
        seat(0),
        &Move::Moon {
            choice: MoonChoice::AddToOthers,
        },
    )
    .unwrap();
    assert_eq!(game.scores(), &[0, 26, 26, 26, 26, 26, 26, 26]);
    assert_eq!(
        game.view(Viewer::Spectator).score_sheet[0].points,
        vec![0, 26, 26, 26, 26, 26, 26, 26]
    );
}

#[test]
fn ch_12_automatic_choice_subtracts_when_equal() {
    let game = moon_game(Config::new(8), vec![]);
    assert_eq!(game.automatic_moon_choice(), Some(MoonChoice::SubtractOwn));
    assert_eq!(block_game(Config::new(8)).automatic_moon_choice(), None);
}

#[test]
fn ch_12_automatic_choice_takes_a_win_and_avoids_a_loss() {
    // Adding 26 ends the game with the shooter alone lowest: a win.
    let game = moon_game(Config::new(8), vec![10, 80, 84, 0, 0, 0, 0, 0]);
    assert_eq!(game.automatic_moon_choice(), Some(MoonChoice::AddToOthers));
    // Adding 26 would end the game with seat 1 lower than the shooter.
    let game = moon_game(Config::new(8), vec![95, 20, 80, 0, 0, 0, 0, 0]);
    assert_eq!(game.automatic_moon_choice(), Some(MoonChoice::SubtractOwn));
}

// ----- CH-13 End -------------------------------------------------------------

#[test]
fn ch_13_game_ends_at_the_target_and_the_lowest_wins() {
    let mut game = moon_game(Config::new(8), vec![10, 80, 84, 0, 0, 0, 0, 0]);
    game.play_mut(
        seat(0),
        &Move::Moon {
            choice: MoonChoice::AddToOthers,
        },
    )
    .unwrap();
    assert!(game.is_over());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.scores, vec![10, 106, 110, 26, 26, 26, 26, 26]);
    assert_eq!(outcome.winners.iter().collect::<Vec<_>>(), [seat(0)]);
    assert!(game.to_act().is_empty());
    assert!(game.legal_moves(seat(0)).is_empty());
    assert_eq!(refused(&mut game, 1, play_card("2C")), RuleError::GameOver);
    assert_eq!(game.view(Viewer::Spectator).outcome, Some(outcome));
}

#[test]
fn ch_13_players_tied_lowest_share_the_win() {
    let mut game = moon_game(Config::new(8), vec![36, 10, 80, 90, 90, 90, 90, 90]);
    assert_eq!(game.automatic_moon_choice(), Some(MoonChoice::AddToOthers));
    game.play_mut(
        seat(0),
        &Move::Moon {
            choice: MoonChoice::AddToOthers,
        },
    )
    .unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(
        outcome.winners.iter().collect::<Vec<_>>(),
        [seat(0), seat(1)]
    );
}

#[test]
fn ch_13_negative_scores_and_a_configurable_target() {
    // Target 30: seat 1 at 4 + 26 reaches it exactly.
    let mut game = moon_game(
        Config::new(8).with_target(30),
        vec![-40, 4, 0, 0, 0, 0, 0, 0],
    );
    game.play_mut(
        seat(0),
        &Move::Moon {
            choice: MoonChoice::AddToOthers,
        },
    )
    .unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.scores[1], 30);
    assert_eq!(outcome.winners.iter().collect::<Vec<_>>(), [seat(0)]);
    // Below the target the game goes on.
    let mut game = moon_game(
        Config::new(8).with_target(31),
        vec![-40, 4, 0, 0, 0, 0, 0, 0],
    );
    game.play_mut(
        seat(0),
        &Move::Moon {
            choice: MoonChoice::AddToOthers,
        },
    )
    .unwrap();
    assert!(!game.is_over());
}

// ----- Edge cases across rulings -----------------------------------------------

/// Six players in mirrored pairs: seats 0 and 3, 1 and 4, 2 and 5 hold the
/// same 17 cards, and the kitty is both aces of spades. Dealer 5: seat 0
/// leads the two of clubs.
fn mirrored_six() -> Table {
    let kinds: Vec<Card> = cards::standard::deck()
        .into_iter()
        .filter(|&k| k != c("AS"))
        .collect();
    let hand =
        |part: usize| -> Hand<Card> { kinds[part * 17..(part + 1) * 17].iter().copied().collect() };
    Table {
        hands: vec![hand(0), hand(1), hand(2), hand(0), hand(1), hand(2)],
        kitty: cards("AS AS"),
    }
}

/// Seats 0..3 play their lowest legal card, and seats 3..6 copy their
/// partner across, so every card cancels.
fn play_mirrored_circuit(game: &mut CancelHearts) {
    let mut played = Vec::new();
    for _ in 0..3 {
        let who = game.to_act().first().unwrap();
        let mv = game.legal_moves(who).nth(0).unwrap();
        game.play_mut(who, &mv).unwrap();
        played.push(mv);
    }
    for mv in played {
        let who = game.to_act().first().unwrap();
        game.play_mut(who, &mv)
            .unwrap_or_else(|e| panic!("{who} mirroring {mv:?}: {e}"));
    }
}

#[test]
fn ch_8_ch_10_first_trick_running_out_sends_the_kitty_to_discards() {
    let mut game = mirrored_six().game(Config::new(6), 5, 3);
    assert_eq!(next(&game), 0);
    for _ in 0..17 {
        play_mirrored_circuit(&mut game);
    }
    // One trick of 102 cards, no winner: its leader takes it (CH-8); the
    // kitty, taken and discarded at once, counts as seat 0's (CH-10), so
    // seat 0 holds every scoring card (CH-12).
    let view = omniscient(&game);
    assert_eq!(view.last_trick.as_ref().unwrap().plays.len(), 102);
    assert_eq!(view.last_trick.as_ref().unwrap().winner, Some(seat(0)));
    assert_eq!(view.kitty.taken_by, Some(seat(0)));
    assert_eq!(view.secrets.as_ref().unwrap().discards, cards("AS AS"));
    assert_eq!(game.phase(), Phase::Moon { shooter: seat(0) });
    assert_eq!(all_of(&view).len(), 104);
}

#[test]
fn ch_9_ch_10_under_carry_over_the_first_trick_won_takes_the_kitty() {
    let config = Config::new(6).with_all_cancelled(AllCancelled::CarryOver);
    let mut game = mirrored_six().game(config, 5, 3);
    play_mirrored_circuit(&mut game);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.set_aside.len(), 6);
    assert_eq!(view.kitty.taken_by, None, "no trick won yet");
    assert_eq!(game.phase(), Phase::Playing);
    // Break the mirror: seats 0..3 play their highest legal card, their
    // partners their lowest.
    for k in 0..6 {
        let who = game.to_act().first().unwrap();
        let legal = game.legal_moves(who);
        let i = if k < 3 { legal.count() - 1 } else { 0 };
        game.play_mut(who, &legal.nth(i).unwrap()).unwrap();
    }
    let view = game.view(Viewer::Spectator);
    let winner = view.last_trick.as_ref().unwrap().winner.expect("a winner");
    assert_eq!(game.phase(), Phase::Discarding { seat: winner });
    assert_eq!(view.kitty.taken_by, Some(winner));
    assert_eq!(
        view.taken[winner.index()].len(),
        12,
        "with the set-aside trick"
    );
    let other = seat((winner.number() + 1) % 6);
    let two: Hand<Card> = game.hand(other).iter().take(2).collect();
    let err = refused(&mut game, other.number(), Move::Discard { cards: two });
    assert_eq!(err, RuleError::NotYourTurn);
    assert_eq!(
        err.rule(),
        Some("G-4"),
        "only a seat that must act may move"
    );
}

#[test]
fn g_3_seats_off_the_table_are_refused_without_panicking() {
    let mut game = Table::sorted(8).game(Config::new(8), 7, 0);
    for far in [8u8, 15, 16, 200] {
        assert!(game.legal_moves(seat(far)).is_empty());
        assert_eq!(game.prompt(seat(far)), None);
        assert!(game.hand(seat(far)).is_empty());
        let err = refused(
            &mut game,
            far,
            Move::PassCards {
                cards: cards("2C 3C 4C"),
            },
        );
        assert_eq!(err, RuleError::NoSuchSeat { seat: far });
        assert_eq!(game.view(Viewer::Seat(seat(far))).hand, None);
    }
}
