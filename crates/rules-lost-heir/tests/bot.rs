//! The sensible bot (`rules_lost_heir::bot`): always legal, games with bots
//! end, it reads only its seat's view (G-2), and it beats random play.

mod common;

use common::{Pairs, hidden_pairs};

use cards::{Bot, GameRng, LegalMoves, Ruleset, Seat, Seed, Viewer};
use rules_lost_heir::{Config, LostHeir, bot};

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
        game.play_mut(seat, &mv).expect("a legal move is accepted");
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
        game.play_mut(seat, &mv).unwrap();
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
                game.play_mut(seat, &mv).unwrap();
            }
            assert!(game.score_sheet().len() > 1);
        }
    }
}

/// G-2: two games that differ only in cards hidden from a seat (the other
/// hands' unplayed cards, dealt differently among the other seats) give that
/// seat the same view, and the bot the same move. Checkpoints fall every
/// three moves through a whole first round (bidding, the decision, trumps
/// and play).
#[test]
fn bot_never_reads_hidden_state() {
    let pairs = Pairs {
        deals: 12,
        stride: 3,
        staggered: false,
        other_seed: 77,
    };
    let compared = hidden_pairs(&configs(), pairs, |a, b, me| {
        for r in 0..4 {
            let mv_a = a.bot_move(me, &mut Seed::from_u64(r).rng());
            let mv_b = b.bot_move(me, &mut Seed::from_u64(r).rng());
            assert_eq!(mv_a, mv_b, "hidden cards changed the bot's move");
        }
    });
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
