//! The sensible bot (`rules_cancel_hearts::bot`): always legal, games with
//! bots end, it reads only its seat's view (G-2), and it beats random play.

mod common;

use cards::standard::{Card, double_deck};
use cards::{Bot, GameRng, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer, shuffle};
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, Deal, Move, bot};

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
        game.play(seat, &mv).expect("a legal move is accepted");
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
        game.play(seat, &mv).unwrap();
    }
    let turn = game.to_act().first().unwrap();
    let idle = turn.left(game.player_count());
    assert_eq!(game.bot_move(idle, &mut rng), None);
    assert!(game.bot_move(turn, &mut rng).is_some());
}

#[test]
fn choose_is_the_trait_method() {
    let mut game = CancelHearts::new(Config::new(7), Seed::from_u64(8)).unwrap();
    let mut rng = Seed::from_u64(2).rng();
    for _ in 0..40 {
        let seat = game.to_act().first().unwrap();
        let view = game.view(Viewer::Seat(seat));
        let a = bot::choose(&view, &game.legal_moves(seat), &mut Seed::from_u64(3).rng());
        let b = game.bot_move(seat, &mut Seed::from_u64(3).rng());
        assert_eq!(a, b);
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play(seat, &mv).unwrap();
    }
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
            game.play(seat, &mv).unwrap();
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
    let mut compared = 0;
    for players in [6u8, 7, 8, 10] {
        let n = usize::from(players);
        let config = Config::new(players);
        for g in 0..6u64 {
            let mut cards = double_deck().to_vec();
            shuffle(&mut cards, &mut Seed::from_u64(g).rng());
            let size = 104 / n;
            let hands: Vec<Hand<Card>> = (0..n)
                .map(|s| cards[s * size..(s + 1) * size].iter().copied().collect())
                .collect();
            let kitty: Hand<Card> = cards[n * size..].iter().copied().collect();
            let deal = Deal::new(Seat::new((g % n as u64) as u8), hands.clone(), kitty)
                .with_round((g % 4) as u32);
            let seed = Seed::from_u64(77);
            let start = CancelHearts::from_deal(config.clone(), seed, deal.clone()).unwrap();
            let mut game = start.clone();
            let mut rng = Seed::from_u64(g + 500).rng();
            let mut moves = Vec::new();
            while game.round() == start.round() && !game.is_over() {
                let seat = game.to_act().first().unwrap();
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play(seat, &mv).unwrap();
                moves.push((seat, mv));
            }
            for k in (0..moves.len()).step_by(5) {
                let prefix = &moves[..k];
                let mut a = start.clone();
                for (seat, mv) in prefix {
                    a.play(*seat, mv).unwrap();
                }
                let me = a.to_act().first().unwrap();
                // Each other seat's dealt cards it still holds may be dealt
                // differently among the other seats.
                let mut kept = vec![Hand::EMPTY; n];
                let mut gone = hands.clone();
                let mut pool = Vec::new();
                for s in (0..n).filter(|&s| s != me.index()) {
                    for card in a.hand(Seat::new(s as u8)).iter() {
                        if gone[s].remove(card) {
                            kept[s].insert(card).unwrap();
                            pool.push(card);
                        }
                    }
                }
                for attempt in 0..8u64 {
                    shuffle(
                        &mut pool,
                        &mut Seed::from_u64(g * 1000 + k as u64 * 8 + attempt).rng(),
                    );
                    let mut other = hands.clone();
                    let mut next = pool.iter().copied();
                    for s in (0..n).filter(|&s| s != me.index()) {
                        let mut h = gone[s];
                        for _ in 0..kept[s].len() {
                            h.insert(next.next().unwrap()).unwrap();
                        }
                        other[s] = h;
                    }
                    if other == hands {
                        continue;
                    }
                    let deal_b = Deal {
                        hands: other,
                        ..deal.clone()
                    };
                    let mut b = CancelHearts::from_deal(config.clone(), seed, deal_b).unwrap();
                    if prefix.iter().any(|(seat, mv)| b.play(*seat, mv).is_err()) {
                        continue;
                    }
                    // Who holds a two of clubs decides who leads (CH-4), a
                    // public fact: such a deal is not "the same but hidden".
                    if a.view(Viewer::Seat(me)) != b.view(Viewer::Seat(me)) {
                        continue;
                    }
                    assert_ne!(a.view(Viewer::Omniscient), b.view(Viewer::Omniscient));
                    for r in 0..4 {
                        let mv_a = a.bot_move(me, &mut Seed::from_u64(r).rng());
                        let mv_b = b.bot_move(me, &mut Seed::from_u64(r).rng());
                        assert_eq!(mv_a, mv_b, "hidden cards changed the bot's move");
                    }
                    compared += 1;
                    break;
                }
            }
        }
    }
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
