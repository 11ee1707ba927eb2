//! The sensible bot (`rules_cancel_hearts::bot`): always legal, games with
//! bots end, it reads only its seat's view (G-2), and it beats random play.

mod common;

use common::{Pairs, hidden_pairs};

use cards::standard::Card;
use cards::{Bot, GameRng, LegalMoves, Ruleset, Seat, Seed, Viewer};
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, Move, bot};

/// Plays a game to the end, bots where `bots[seat]`, random elsewhere;
/// every bot move is checked against the seat's legal moves first.
fn play_out(game: &mut CancelHearts, bots: &[bool], rng: &mut GameRng) -> u32 {
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        let legal = game.legal_moves(seat);
        let mv = if bots[seat.index()] {
            let mv = game.bot_move(seat, rng).expect("a bot to act has a move");
            assert!(legal.contains(&mv), "{seat}: bot chose illegal {mv:?}");
            mv
        } else {
            legal.random(rng).unwrap()
        };
        game.play_mut(seat, &mv).expect("a legal move is accepted");
        moves += 1;
        assert!(moves < 200_000, "a game that does not end");
    }
    moves
}

#[test]
fn bot_moves_are_legal_and_games_with_bots_end() {
    for players in 6..=10u8 {
        for rule in [AllCancelled::Extend, AllCancelled::CarryOver] {
            let config = Config::new(players).with_all_cancelled(rule);
            let n = usize::from(players);
            for g in 0..8u64 {
                let mut game = CancelHearts::new(config.clone(), Seed::from_u64(g)).unwrap();
                let mut rng = Seed::from_u64(1000 + g).rng();
                let bots: Vec<bool> = if g % 2 == 0 {
                    vec![true; n]
                } else {
                    (0..n).map(|s| s == (g as usize / 2) % n).collect()
                };
                play_out(&mut game, &bots, &mut rng);
                assert!(game.outcome().is_some());
            }
        }
    }
}

#[test]
fn bot_answers_nothing_when_not_to_act() {
    let mut game = CancelHearts::new(Config::new(6), Seed::from_u64(5)).unwrap();
    let mut rng = Seed::from_u64(1).rng();
    // Skip the passing (everyone acts) to a single seat to play.
    while game.to_act().len() != 1 {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
    }
    let turn = game.to_act().first().unwrap();
    let idle = turn.left(game.player_count());
    assert_eq!(game.bot_move(idle, &mut rng), None);
    assert!(game.bot_move(turn, &mut rng).is_some());
}

/// `bot_move` decides from the game's seat-visible parts without building
/// the view (the expert's playouts): on every position of whole games at
/// every table size it makes `choose`'s move on the seat's view.
#[test]
fn choose_is_the_trait_method() {
    let mut compared = 0;
    for players in 6..=10u8 {
        for g in 0..2u64 {
            let mut game = CancelHearts::new(Config::new(players), Seed::from_u64(g)).unwrap();
            let mut rng = Seed::from_u64(2 + g).rng();
            while let Some(seat) = game.to_act().first() {
                let view = game.view(Viewer::Seat(seat));
                let r = compared;
                let a = bot::choose(&view, &game.legal_moves(seat), &mut Seed::from_u64(r).rng());
                let b = game.bot_move(seat, &mut Seed::from_u64(r).rng());
                assert_eq!(a, b);
                compared += 1;
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play_mut(seat, &mv).unwrap();
            }
        }
    }
    assert!(compared > 5_000, "only {compared} positions");
}

/// The bot passes the queen of spades and high hearts, and never discards
/// points when it has a choice (CH-3, CH-10).
#[test]
fn passes_danger_and_discards_no_points() {
    let mut passes = 0;
    let mut discards = 0;
    for g in 0..40u64 {
        let mut game = CancelHearts::new(Config::new(6), Seed::from_u64(g)).unwrap();
        let mut rng = Seed::from_u64(g).rng();
        while game.round().number() < 3 && !game.is_over() {
            let seat = game.to_act().first().unwrap();
            let hand = game.hand(seat);
            let mv = game.bot_move(seat, &mut rng).unwrap();
            match mv {
                Move::PassCards { cards } if hand.contains(Card::QUEEN_OF_SPADES) => {
                    assert!(
                        cards.contains(Card::QUEEN_OF_SPADES),
                        "{hand:?} passed {cards:?}"
                    );
                    passes += 1;
                }
                Move::Discard { cards } => {
                    let scoring = |c: Card| {
                        c.suit == cards::standard::Suit::Hearts || c == Card::QUEEN_OF_SPADES
                    };
                    let safe = hand.iter().filter(|&c| !scoring(c)).count() as u32;
                    if safe >= cards.len() {
                        assert!(!cards.iter().any(scoring), "{hand:?} discarded {cards:?}");
                    }
                    discards += 1;
                }
                _ => {}
            }
            game.play_mut(seat, &mv).unwrap();
        }
    }
    assert!(
        passes > 10 && discards > 10,
        "{passes} passes, {discards} discards"
    );
}

/// G-2: two games that differ only in cards hidden from a seat (the other
/// hands' cards not yet passed, played or discarded, dealt differently among
/// the other seats) give that seat the same view, and the bot the same move.
#[test]
fn bot_never_reads_hidden_state() {
    let pairs = Pairs {
        players: &[6, 7, 8, 10],
        deals: 6,
        deal_seeds: 0,
        game_seed: 77,
        bot_seeds: 500,
        stride: 5,
    };
    let compared = hidden_pairs(pairs, |a, b, me| {
        for r in 0..4 {
            let mv_a = a.bot_move(me, &mut Seed::from_u64(r).rng());
            let mv_b = b.bot_move(me, &mut Seed::from_u64(r).rng());
            assert_eq!(mv_a, mv_b, "hidden cards changed the bot's move");
        }
    });
    println!("{compared} pairs compared");
    assert!(compared > 100, "only {compared} comparisons");
}

/// Strength, on fixed seeds: one bot against random players wins far more
/// than its seat share (200 games each, the bot's seat rotating).
#[test]
fn bot_beats_random_players() {
    for (players, at_least) in [(6u8, 0.60), (8, 0.50), (10, 0.40)] {
        let games = 200u64;
        let config = Config::new(players);
        let n = usize::from(players);
        let mut wins = 0.0;
        for g in 0..games {
            let bot = g as usize % n;
            let bots: Vec<bool> = (0..n).map(|s| s == bot).collect();
            let mut game = CancelHearts::new(config.clone(), Seed::from_u64(g)).unwrap();
            play_out(&mut game, &bots, &mut Seed::from_u64(g ^ 0xb07).rng());
            let winners = game.outcome().unwrap().winners;
            if winners.contains(Seat::new(bot as u8)) {
                wins += 1.0 / f64::from(winners.len());
            }
        }
        let rate = wins / games as f64;
        println!("{players} players: the bot won {rate:.3} of {games} games");
        assert!(
            rate >= at_least,
            "{players} players: bot won {rate:.2}, expected at least {at_least}"
        );
    }
}
