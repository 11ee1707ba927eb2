//! Complete games with the sensible bot in every seat.
//!
//! `cargo bench -p rules-lost-heir --bench bots` prints moves per second (the
//! items counter counts moves): each move builds the seat's view (without
//! the score sheet, which the bot never reads: `LostHeir`'s `bot_move`) and
//! lets `bot::choose` decide, as a server would.

use cards::{Bot, GameRng, Ruleset, Seed};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use rules_lost_heir::{Config, LostHeir};

fn main() {
    divan::main();
}

/// Games per iteration.
const GAMES: u64 = 4;

const TABLES: [&str; 4] = ["2 players", "3 players", "4 partnerships", "4 alone"];

fn config(table: &str) -> Config {
    match table {
        "2 players" => Config::new(2),
        "3 players" => Config::new(3),
        "4 partnerships" => Config::new(4),
        _ => Config::new(4).with_partnerships(false),
    }
}

fn play_to_end(game: &mut LostHeir, rng: &mut GameRng) -> u64 {
    let mut moves = 0;
    while let Some(seat) = game.turn() {
        let mv = game.bot_move(seat, rng).expect("a move");
        game.play_mut(seat, &mv).expect("a legal move");
        moves += 1;
    }
    moves
}

fn play_games(config: Config) -> u64 {
    let mut rng = Seed::from_u64(0xb07).rng();
    (0..GAMES)
        .map(|g| {
            let mut game = LostHeir::new(config, Seed::from_u64(g)).expect("a valid config");
            play_to_end(&mut game, &mut rng)
        })
        .sum()
}

#[divan::bench(args = TABLES)]
fn bot_games(bencher: Bencher, table: &str) {
    let config = config(table);
    let moves = play_games(config);
    bencher
        .counter(ItemsCount::new(moves))
        .bench(|| play_games(black_box(config)));
}
