//! Property tests over whole random games: every player count, both
//! variants, many seeds. Case counts are modest so the suite stays fast.

mod common;

use cards::standard::{Card, Suit};
use cards::{CardKind, GameRng, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer, random_below};
use common::all_of;
use proptest::prelude::*;
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, MoonChoice, Move, Phase};

fn below(rng: &mut GameRng, n: usize) -> usize {
    random_below(rng, n as u32) as usize
}

fn random_card(rng: &mut GameRng) -> Card {
    Card::from_index(below(rng, 52) as u8).unwrap()
}

/// A card from `hand` most of the time (so follow-suit and first-trick
/// checks are exercised), otherwise any card.
fn plausible_card(rng: &mut GameRng, hand: &Hand<Card>) -> Card {
    if !hand.is_empty() && below(rng, 10) < 7 {
        hand.nth(below(rng, hand.len() as usize) as u32).unwrap()
    } else {
        random_card(rng)
    }
}

fn plausible_cards(rng: &mut GameRng, hand: &Hand<Card>, count: usize) -> Hand<Card> {
    let mut cards = Hand::EMPTY;
    for _ in 0..count {
        let _ = cards.insert(plausible_card(rng, hand));
    }
    cards
}

/// A move that may or may not be legal, by any seat.
fn arbitrary_move(rng: &mut GameRng, game: &CancelHearts) -> (Seat, Move) {
    let n = game.player_count().as_usize();
    let seat = Seat::new(below(rng, n + 1) as u8); // sometimes no such seat
    let hand = if seat.index() < n {
        game.hand(seat)
    } else {
        Hand::EMPTY
    };
    let mv = match below(rng, 4) {
        0 => {
            let count = 2 + below(rng, 3);
            Move::PassCards {
                cards: plausible_cards(rng, &hand, count),
            }
        }
        1 => Move::Play {
            card: plausible_card(rng, &hand),
        },
        2 => {
            let count = 1 + below(rng, 7);
            Move::Discard {
                cards: plausible_cards(rng, &hand, count),
            }
        }
        _ => Move::Moon {
            choice: MoonChoice::ALL[below(rng, 2)],
        },
    };
    (seat, mv)
}

fn assert_every_card_accounted_for(game: &CancelHearts) {
    let all = all_of(&game.view(Viewer::Omniscient));
    assert_eq!(all.len(), 104);
    assert_eq!(all.pairs().len(), 52, "every card twice");
}

/// G-2 for one seat's view: nothing of other hands, passes or the kitty.
fn assert_view_hides_secrets(game: &CancelHearts, seat: Seat) {
    let view = game.view(Viewer::Seat(seat));
    assert!(view.secrets.is_none());
    assert_eq!(view.hand, Some(game.hand(seat)));
    if view.kitty.taken_by != Some(seat) {
        assert!(view.kitty.cards.is_none());
        assert!(view.discards.is_none());
    }
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.secrets.is_none());
    assert!(spectator.kitty.cards.is_none() && spectator.discards.is_none());
    assert!(spectator.passed.is_none() && spectator.received.is_none());
}

/// Plays a whole game with uniformly random legal moves, checking the
/// invariants at every step; returns the moves made.
fn play_checked_game(
    config: Config,
    seed: Seed,
    bot_seed: u64,
) -> (CancelHearts, Vec<(Seat, Move)>) {
    let mut game = CancelHearts::new(config, seed).unwrap();
    let mut rng = Seed::from_u64(bot_seed).rng();
    let mut moves = Vec::new();
    let n = game.player_count();
    while !game.is_over() {
        assert!(moves.len() < 100_000, "the game must end");
        let to_act = game.to_act();
        assert!(!to_act.is_empty());
        for s in n.seats() {
            assert_eq!(game.legal_moves(s).is_empty(), !to_act.contains(s));
        }
        let actors: Vec<Seat> = to_act.iter().collect();
        let seat = actors[below(&mut rng, actors.len())];
        let legal = game.legal_moves(seat);

        // Listed moves are accepted: the first, the last and a random one.
        let count = legal.count();
        for i in [0, count - 1, below(&mut rng, count)] {
            let mv = legal.nth(i).unwrap();
            assert!(legal.contains(&mv), "{mv:?} listed but not contained");
            let mut copy = game.clone();
            copy.play_mut(seat, &mv)
                .unwrap_or_else(|e| panic!("listed move {mv:?} refused: {e}"));
        }
        assert!(legal.nth(count).is_none());

        // Any move is accepted exactly when listed, in place and by value
        // alike; a refusal changes nothing, and by value it hands the state
        // back as it was.
        for _ in 0..3 {
            let (who, mv) = arbitrary_move(&mut rng, &game);
            let listed = to_act.contains(who) && game.legal_moves(who).contains(&mv);
            let mut copy = game.clone();
            let by_value = game.clone().play(who, &mv);
            match copy.play_mut(who, &mv) {
                Ok(()) => {
                    assert!(listed, "{who} {mv:?} accepted but not listed");
                    assert_eq!(by_value.ok(), Some(copy), "the same next state");
                }
                Err(e) => {
                    assert!(!listed, "{who} {mv:?} listed but refused: {e}");
                    assert_eq!(copy, game, "refused {mv:?} changed the state");
                    let rule = cards::RuleViolation::rule(&e).unwrap();
                    assert!(e.to_string().contains(rule), "{e} names {rule}");
                    let refused = by_value.expect_err("refused by value too");
                    assert_eq!(refused.refusal(), &e);
                    assert_eq!(refused.into_inner(), game, "handed back unchanged");
                }
            }
        }

        let mv = legal.random(&mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        moves.push((seat, mv));
        assert_every_card_accounted_for(&game);
        assert_view_hides_secrets(&game, actors[0]);
    }
    (game, moves)
}

fn check_whole_game(config: Config, seed: Seed, bot: u64) -> Result<(), TestCaseError> {
    let players = config.players;
    let (game, moves) = play_checked_game(config.clone(), seed, bot);

    // Each round's points total 52 unless the moon was shot (CH-11, CH-12).
    let view = game.view(Viewer::Spectator);
    for row in &view.score_sheet {
        let total: i32 = row.points.iter().sum();
        match row.moon {
            None => prop_assert_eq!(total, 52),
            Some(m) if m.choice == MoonChoice::SubtractOwn => prop_assert_eq!(total, -26),
            Some(_) => prop_assert_eq!(total, 26 * (i32::from(players) - 1)),
        }
    }
    let outcome = game.outcome().unwrap();
    prop_assert!(outcome.scores.iter().any(|&s| s >= config.target));
    let lowest = *outcome.scores.iter().min().unwrap();
    for s in game.player_count().seats() {
        prop_assert_eq!(
            outcome.winners.contains(s),
            outcome.scores[s.index()] == lowest
        );
    }

    // G-1: the same seed and moves give the same game.
    let mut replay = CancelHearts::new(config, seed).unwrap();
    for (seat, mv) in &moves {
        replay.play_mut(*seat, mv).unwrap();
    }
    prop_assert_eq!(&replay, &game);
    prop_assert_eq!(
        replay.view(Viewer::Omniscient),
        game.view(Viewer::Omniscient)
    );
    Ok(())
}

fn config(players: u8, carry_over: bool) -> Config {
    let rule = if carry_over {
        AllCancelled::CarryOver
    } else {
        AllCancelled::Extend
    };
    Config::new(players).with_all_cancelled(rule)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    /// Each case plays ten whole games: every table size, both variants.
    #[test]
    fn random_games_keep_every_invariant_and_replay(seed in any::<u64>(), bot in any::<u64>()) {
        for players in 6u8..=10 {
            for carry_over in [false, true] {
                check_whole_game(config(players, carry_over), Seed::from_u64(seed), bot)?;
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_first_trick_never_holds_points_from_a_player_with_a_choice(
        seed in any::<u64>(),
        players in 6u8..=10,
    ) {
        // CH-5, over random deals: whoever plays a heart or the queen of
        // spades in the first circuit of the first trick held nothing else
        // or had to follow suit.
        let mut game = CancelHearts::new(Config::new(players), Seed::from_u64(seed)).unwrap();
        let mut rng = Seed::from_u64(seed ^ 1).rng();
        while game.phase() == Phase::Passing {
            let seat = game.to_act().first().unwrap();
            let mv = game.legal_moves(seat).random(&mut rng).unwrap();
            game.play_mut(seat, &mv).unwrap();
        }
        for _ in 0..players {
            let seat = game.to_act().first().unwrap();
            let hand = game.hand(seat);
            let legal = game.legal_moves(seat);
            let led = game.view(Viewer::Spectator).trick.map(|t| t.plays[0].card.suit);
            let follows = led.is_some_and(|suit| hand.kinds().intersects(suit.mask()));
            let only_points = hand.iter().all(|c| c.suit == Suit::Hearts || c == Card::QUEEN_OF_SPADES);
            for card in legal.playable() {
                let points = card.suit == Suit::Hearts || card == Card::QUEEN_OF_SPADES;
                prop_assert!(!points || only_points || (follows && Some(card.suit) == led));
            }
            let mv = legal.random(&mut rng).unwrap();
            game.play_mut(seat, &mv).unwrap();
        }
    }
}
