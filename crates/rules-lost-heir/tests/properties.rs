//! Property tests over many seeds with random legal play, for 2, 3 and 4
//! players, 4 with and without partnerships, and under the LH-13 variant.

mod common;

use cards::heir::{City, HeirCard};
use cards::{CardKind, LegalMoves, Ruleset, Seat, Seed, Viewer, random_below};
use common::*;
use proptest::prelude::*;
use rules_lost_heir::{Call, Config, Decision, LostHeir, Move, RoundRecord};

fn configs() -> [Config; 6] {
    [
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
        // The LH-13 variant.
        Config::new(3).with_bidder_contract(true),
        Config::new(4).with_bidder_contract(true),
    ]
}

/// Any move at all, legal or not: the space random refusals are drawn from.
fn any_move(rng: &mut cards::GameRng) -> Move {
    match random_below(rng, 6) {
        0 => Move::bid(random_below(rng, 24) as u8),
        1 => Move::Pass,
        2 => Move::Accept,
        3 => Move::Reject,
        4 => Move::name_trumps(City::ALL[random_below(rng, 4) as usize]),
        _ => Move::play(HeirCard::from_index(random_below(rng, 31) as u8).unwrap()),
    }
}

/// Tallies a round's points from the completed tricks every viewer sees.
#[derive(Default)]
struct Tally {
    tricks: [u8; 4],
    points: [i32; 4],
}

/// The highest bid of a round and its bidder, from the calls alone (LH-5).
fn highest_bid(line: &RoundRecord) -> Option<(usize, u8)> {
    line.calls
        .iter()
        .enumerate()
        .filter_map(|(seat, call)| match call {
            Some(Call::Bid { points }) => Some((seat, points.get())),
            _ => None,
        })
        .max_by_key(|&(_, points)| points)
}

/// The LH-11 round score a side should get, from the sheet's own points and
/// calls: the side bound by an accepted bid is the dealer's (LH-6), or the
/// highest bidder's under the LH-13 variant; a rejecting dealer's side
/// scores nothing.
fn expected_round_score(game: &LostHeir, line: &RoundRecord, side: usize) -> i32 {
    let points = line.points[side];
    let dealer_side = game.side_of(line.dealer).index();
    let fails = match line.decision {
        Decision::Rejected => side == dealer_side,
        Decision::Accepted => {
            let (bidder, bid) = highest_bid(line).expect("an accepted bid was made");
            let bound = if game.config().bidder_contract {
                game.side_of(Seat::new(bidder as u8)).index()
            } else {
                dealer_side
            };
            side == bound && points < i32::from(bid)
        }
        Decision::AllPassed => false,
    };
    if fails { points.min(0) } else { points }
}

fn check_round(game: &LostHeir, line: &RoundRecord, tally: &Tally, before: &[i32]) {
    let sides = game.side_count();
    assert_eq!(
        line.tricks,
        tally.tricks[..sides].to_vec(),
        "tricks by side"
    );
    assert_eq!(
        line.points,
        tally.points[..sides].to_vec(),
        "points by side"
    );
    let total_tricks: u32 = line.tricks.iter().map(|&t| u32::from(t)).sum();
    assert_eq!(total_tricks, u32::from(game.tricks_per_round()));
    for (side, &total_before) in before.iter().enumerate().take(sides) {
        let round_score = line.round_scores[side];
        assert_eq!(round_score, expected_round_score(game, line, side));
        assert_eq!(line.totals[side], total_before + round_score);
    }
}

/// Plays one whole game with random legal moves, checking every invariant on
/// the way; returns the moves.
fn play_checked(config: Config, seed: u64, bot: u64) -> Vec<(Seat, Move)> {
    let mut game = LostHeir::new(config, Seed::from_u64(seed)).unwrap();
    let mut rng = Seed::from_u64(bot).rng();
    let mut moves = Vec::new();
    let mut tally = Tally::default();
    let mut totals = vec![0; game.side_count()];
    let mut last_trick = None;
    while let Some(seat) = game.turn() {
        assert_all_cards_accounted_for(&game);
        // G-2: the seat to act sees its own hand and no other.
        let own = game.view(Viewer::Seat(seat));
        assert_eq!(own.hand, Some(game.hand(seat).iter().collect()));
        assert!(own.hands.is_none() && own.taken.is_none());
        assert_eq!(own.to_act, Some(seat));
        let legal = game.legal_moves(seat);
        assert!(!legal.is_empty());
        // Nobody else may act.
        for other in game.player_count().seats().filter(|&s| s != seat) {
            assert!(game.legal_moves(other).is_empty());
        }
        // Every listed move is accepted.
        for mv in legal.iter() {
            assert!(legal.contains(&mv));
            let mut copy = game.clone();
            copy.play_mut(seat, &mv)
                .unwrap_or_else(|e| panic!("listed {mv} refused: {e}"));
        }
        // Random moves not listed are refused and change nothing, in place
        // or by value (the refusal hands back the state as it was).
        for _ in 0..4 {
            let who = Seat::new(random_below(&mut rng, 5) as u8);
            let mv = any_move(&mut rng);
            if who == seat && legal.contains(&mv) {
                continue;
            }
            let before = game.clone();
            assert!(
                game.play_mut(who, &mv).is_err(),
                "{who} {mv} should be refused"
            );
            assert_eq!(game, before);
            let refused = game
                .clone()
                .play(who, &mv)
                .expect_err("refused by value too");
            assert_eq!(
                refused.refusal(),
                &before.clone().play_mut(who, &mv).unwrap_err()
            );
            assert_eq!(refused.into_inner(), before);
        }
        let mv = legal.random(&mut rng).unwrap();
        let rounds_before = game.score_sheet().len();
        game.play_mut(seat, &mv).unwrap();
        moves.push((seat, mv));
        assert!(moves.len() < 100_000, "a game that does not end");
        // Tally completed tricks independently (LH-11).
        let view = game.view(Viewer::Spectator);
        if view.last_trick != last_trick {
            let trick = view.last_trick.clone().unwrap();
            let side = game.side_of(trick.winner).index();
            tally.tricks[side] += 1;
            tally.points[side] += trick_points(&trick);
            assert_eq!(trick.points, trick_points(&trick));
            last_trick = view.last_trick;
        }
        let sheet = game.score_sheet();
        if sheet.len() > rounds_before {
            let line = sheet.last().unwrap();
            check_round(&game, line, &tally, &totals);
            totals = line.totals.clone();
            tally = Tally::default();
        }
    }
    // Every game ends with a winner: one side, the single highest total, at
    // or above the target (LH-12).
    let outcome = game.outcome().expect("an ended game has an outcome");
    assert!(!outcome.winners.is_empty());
    let w = outcome.winners.first().unwrap();
    let best = outcome.scores[w.index()];
    assert!(best >= config.target);
    for s in game.player_count().seats() {
        let same_side = game.side_of(s) == game.side_of(w);
        assert_eq!(outcome.winners.contains(s), same_side);
        if !same_side {
            assert!(outcome.scores[s.index()] < best);
        }
    }
    assert_eq!(game.scores(), &totals[..]);
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_keep_every_invariant(seed in any::<u64>(), bot in any::<u64>(), which in 0usize..6) {
        play_checked(configs()[which], seed, bot);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// G-1: the same config, seed and moves give identical states and views.
    #[test]
    fn replays_are_identical(seed in any::<u64>(), bot in any::<u64>(), which in 0usize..6) {
        let config = configs()[which];
        let mut game = LostHeir::new(config, Seed::from_u64(seed)).unwrap();
        let moves = play_out(&mut game, bot);
        let mut replay = LostHeir::new(config, Seed::from_u64(seed)).unwrap();
        let mut again = LostHeir::new(config, Seed::from_u64(seed)).unwrap();
        for (i, (seat, mv)) in moves.iter().enumerate() {
            replay.play_mut(*seat, mv).unwrap();
            again.play_mut(*seat, mv).unwrap();
            if i % 17 == 0 {
                prop_assert_eq!(&replay, &again);
                for viewer in [Viewer::Spectator, Viewer::Seat(*seat), Viewer::Omniscient] {
                    prop_assert_eq!(replay.view(viewer), again.view(viewer));
                }
            }
        }
        prop_assert_eq!(&replay, &game);
        prop_assert_eq!(replay.view(Viewer::Omniscient), game.view(Viewer::Omniscient));
        prop_assert_eq!(replay.outcome(), game.outcome());
    }
}

/// The checks above can fail: a game whose moves are replayed on another
/// seed is refused somewhere, or ends differently.
#[test]
fn replaying_on_another_seed_diverges() {
    let config = Config::new(2);
    let mut game = LostHeir::new(config, Seed::from_u64(1)).unwrap();
    let moves = play_out(&mut game, 2);
    let mut other = LostHeir::new(config, Seed::from_u64(3)).unwrap();
    let diverged = moves
        .iter()
        .any(|(seat, mv)| other.play_mut(*seat, mv).is_err());
    assert!(diverged || other != game);
}
