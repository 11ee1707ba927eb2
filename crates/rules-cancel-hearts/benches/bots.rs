//! Complete games with the sensible bot in every seat.
//!
//! `cargo bench -p rules-cancel-hearts --bench bots` prints moves per second
//! (the items counter counts moves): each move builds the seat's view and
//! lets `bot::choose` decide, as a server would.

use cards::{Bot, GameRng, Ruleset, Seed};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use rules_cancel_hearts::{CancelHearts, Config};

fn main() {
    divan::main();
}

/// Games per iteration.
const GAMES: u64 = 2;

const PLAYERS: [u8; 3] = [6, 8, 10];

fn play_to_end(game: &mut CancelHearts, rng: &mut GameRng) -> u64 {
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        let mv = game.bot_move(seat, rng).expect("a move");
        game.play_mut(seat, &mv).expect("a legal move");
        moves += 1;
    }
    moves
}

fn play_games(players: u8) -> u64 {
    let mut rng = Seed::from_u64(0xb07).rng();
    (0..GAMES)
        .map(|g| {
            let mut game =
                CancelHearts::new(Config::new(players), Seed::from_u64(g)).expect("a valid config");
            play_to_end(&mut game, &mut rng)
        })
        .sum()
}

#[divan::bench(args = PLAYERS)]
fn bot_games(bencher: Bencher, players: u8) {
    let moves = play_games(players);
    bencher
        .counter(ItemsCount::new(moves))
        .bench(|| play_games(black_box(players)));
}
