//! The sensible bot (`rules_lost_heir::bot`): always legal, games with bots
//! end, it reads only its seat's view (G-2), and it beats random play.

mod common;

use cards::heir::HeirCard;
use cards::{Bot, GameRng, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer, shuffle};
use rules_lost_heir::{Config, LostHeir, Move, bot};

fn configs() -> [Config; 6] {
    [
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
        // The LH-13 variant: the bot bids and decides differently.
        Config::new(3).with_bidder_contract(true),
        Config::new(4).with_bidder_contract(true),
    ]
}

/// Plays a game to the end, bots where `bots[seat]`, random elsewhere;
/// every bot move is checked against the seat's legal moves first.
fn play_out(game: &mut LostHeir, bots: &[bool], rng: &mut GameRng) -> u32 {
    let mut moves = 0;
    while let Some(seat) = game.turn() {
        let legal = game.legal_moves(seat);
        let mv = if bots[seat.index()] {
            let mv = game.bot_move(seat, rng).expect("a bot to act has a move");
            assert!(legal.contains(&mv), "{seat}: bot chose illegal {mv}");
            mv
        } else {
            legal.random(rng).unwrap()
        };
        game.play(seat, &mv).expect("a legal move is accepted");
        moves += 1;
        assert!(moves < 100_000, "a game that does not end");
    }
    moves
}

#[test]
fn bot_moves_are_legal_and_games_with_bots_end() {
    for config in configs() {
        let n = usize::from(config.players);
        for g in 0..24u64 {
            let mut game = LostHeir::new(config, Seed::from_u64(g)).unwrap();
            let mut rng = Seed::from_u64(1000 + g).rng();
            // All bots, and one bot among random players.
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

#[test]
fn bot_answers_nothing_when_not_to_act() {
    let game = LostHeir::new(Config::new(3), Seed::from_u64(5)).unwrap();
    let turn = game.turn().unwrap();
    let idle = turn.left(game.player_count());
    let mut rng = Seed::from_u64(1).rng();
    assert_eq!(game.bot_move(idle, &mut rng), None);
    assert!(game.bot_move(turn, &mut rng).is_some());
}

#[test]
fn choose_is_the_trait_method() {
    // `Ruleset::bot_move` is `bot::choose` on the seat's view and legal moves.
    let mut game = LostHeir::new(Config::new(4), Seed::from_u64(8)).unwrap();
    let mut rng = Seed::from_u64(2).rng();
    for _ in 0..20 {
        let seat = game.turn().unwrap();
        let view = game.view(Viewer::Seat(seat));
        let a = bot::choose(&view, &game.legal_moves(seat), &mut Seed::from_u64(3).rng());
        let b = game.bot_move(seat, &mut Seed::from_u64(3).rng());
        assert_eq!(a, b);
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play(seat, &mv).unwrap();
    }
}

/// `LostHeir` overrides `Bot::bot_move` to build the seat's view without
/// the score sheet (cheaper in the expert's playouts): the move must be the
/// one `bot::choose` makes on the full view, at every move of whole games
/// (later rounds have a long sheet), for the same random stream.
#[test]
fn bot_move_is_choose_on_the_full_view() {
    for config in configs() {
        for g in 0..3u64 {
            let mut game = LostHeir::new(config, Seed::from_u64(g)).unwrap();
            let mut rng = Seed::from_u64(g + 30).rng();
            while let Some(seat) = game.turn() {
                let view = game.view(Viewer::Seat(seat));
                let r = game.round_number().into();
                let a = bot::choose(&view, &game.legal_moves(seat), &mut Seed::from_u64(r).rng());
                let b = game.bot_move(seat, &mut Seed::from_u64(r).rng());
                assert_eq!(a, b);
                let idle = seat.left(game.player_count());
                assert_eq!(game.bot_move(idle, &mut rng), None);
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play(seat, &mv).unwrap();
            }
            assert!(game.score_sheet().len() > 1);
        }
    }
}

/// The cards each seat played in `moves`.
fn played_by(players: usize, moves: &[(Seat, Move)]) -> Vec<Hand<HeirCard>> {
    let mut played = vec![Hand::EMPTY; players];
    for (seat, mv) in moves {
        if let Move::Play { card } = mv {
            played[seat.index()].insert(*card).unwrap();
        }
    }
    played
}

/// G-2: two games that differ only in cards hidden from a seat (the other
/// hands' unplayed cards, dealt differently among the other seats) give that
/// seat the same view, and the bot the same move.
#[test]
fn bot_never_reads_hidden_state() {
    let mut compared = 0;
    for config in configs() {
        let n = usize::from(config.players);
        for g in 0..12u64 {
            // A random deal, played to the end of its first round by bots.
            let (mut deck, len) = cards::heir::deck(n != 3);
            shuffle(&mut deck[..len], &mut Seed::from_u64(g).rng());
            let size = len / n;
            let hands: Vec<Hand<HeirCard>> = (0..n)
                .map(|s| deck[s * size..(s + 1) * size].iter().copied().collect())
                .collect();
            let dealer = Seat::new((g % n as u64) as u8);
            let seed = Seed::from_u64(77);
            let start = LostHeir::from_deal(config, dealer, &hands, seed).unwrap();
            let mut game = start.clone();
            let mut rng = Seed::from_u64(g + 500).rng();
            let mut moves = Vec::new();
            while game.round_number() == 1 && !game.is_over() {
                let seat = game.turn().unwrap();
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play(seat, &mv).unwrap();
                moves.push((seat, mv));
            }
            // Checkpoints through the round.
            for k in (0..moves.len()).step_by(3) {
                let prefix = &moves[..k];
                let mut a = start.clone();
                for (seat, mv) in prefix {
                    a.play(*seat, mv).unwrap();
                }
                let me = a.turn().unwrap();
                let played = played_by(n, prefix);
                // Pool the others' unplayed cards and deal them out again.
                let mut pool = Vec::new();
                let mut remaining = hands.clone();
                for s in (0..n).filter(|&s| s != me.index()) {
                    assert!(remaining[s].remove_all(&played[s]));
                    pool.extend(remaining[s].iter());
                }
                for attempt in 0..8u64 {
                    shuffle(
                        &mut pool,
                        &mut Seed::from_u64(g * 100 + k as u64 * 8 + attempt).rng(),
                    );
                    let mut other = hands.clone();
                    let mut next = pool.iter().copied();
                    for s in (0..n).filter(|&s| s != me.index()) {
                        let mut h = played[s];
                        for _ in 0..remaining[s].len() {
                            h.insert(next.next().unwrap()).unwrap();
                        }
                        other[s] = h;
                    }
                    if other == hands {
                        continue;
                    }
                    let mut b = LostHeir::from_deal(config, dealer, &other, seed).unwrap();
                    // The same public history must be legal in the other deal.
                    if prefix.iter().any(|(seat, mv)| b.play(*seat, mv).is_err()) {
                        continue;
                    }
                    assert_ne!(a.view(Viewer::Omniscient), b.view(Viewer::Omniscient));
                    assert_eq!(a.view(Viewer::Seat(me)), b.view(Viewer::Seat(me)));
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
    assert!(compared > 200, "only {compared} comparisons");
}

/// Strength, on fixed seeds: one bot against random players wins far more
/// than its seat share: 200 games each with 2 players (share 50%), 3 players
/// (33%) and 4 without partnerships (25%), the bot's seat rotating; and
/// the same under the LH-13 variant.
#[test]
fn bot_beats_random_players() {
    let tables = [
        (Config::new(2), 200u64, 0.75),
        (Config::new(3), 200, 0.55),
        (Config::new(4).with_partnerships(false), 200, 0.45),
    ];
    let variant = tables
        .map(|(config, games, at_least)| (config.with_bidder_contract(true), games, at_least));
    for (config, games, at_least) in tables.into_iter().chain(variant) {
        let players = config.players;
        let n = usize::from(players);
        let mut wins = 0;
        for g in 0..games {
            let bot = g as usize % n;
            let bots: Vec<bool> = (0..n).map(|s| s == bot).collect();
            let mut game = LostHeir::new(config, Seed::from_u64(g)).unwrap();
            play_out(&mut game, &bots, &mut Seed::from_u64(g ^ 0xb07).rng());
            if game
                .outcome()
                .unwrap()
                .winners
                .contains(Seat::new(bot as u8))
            {
                wins += 1;
            }
        }
        let rate = f64::from(wins) / games as f64;
        let variant = if config.bidder_contract {
            " (LH-13)"
        } else {
            ""
        };
        println!("{players} players{variant}: the bot won {rate:.3} of {games} games");
        assert!(
            rate >= at_least,
            "{players} players{variant}: bot won {rate:.2}, expected at least {at_least}"
        );
    }
}
