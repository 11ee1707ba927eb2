//! Complete games, first deal to winner, with uniformly random legal moves.
//!
//! `cargo bench -p rules-lost-heir` prints moves per second (the items
//! counter counts moves) and, through divan's `AllocProfiler`, the heap
//! allocations per iteration. A game allocates once, in `LostHeir::new` (the
//! score sheet's capacity); the `one_round` bench plays a round on a game
//! made outside the measurement and shows that moves allocate nothing.

use cards::{GameRng, LegalMoves, Ruleset, Seed};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use rules_lost_heir::{Config, LostHeir};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

/// Games per iteration, so one iteration is long enough to time well.
const GAMES: u64 = 16;

const TABLES: [&str; 4] = ["2 players", "3 players", "4 partnerships", "4 alone"];

fn config(table: &str) -> Config {
    match table {
        "2 players" => Config::new(2),
        "3 players" => Config::new(3),
        "4 partnerships" => Config::new(4),
        _ => Config::new(4).with_partnerships(false),
    }
}

/// Plays random legal moves until the game ends; returns how many.
fn play_to_end(game: &mut LostHeir, rng: &mut GameRng) -> u64 {
    let mut moves = 0;
    while let Some(seat) = game.turn() {
        let mv = game.legal_moves(seat).random(rng).expect("a move");
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
fn random_games(bencher: Bencher, table: &str) {
    let config = config(table);
    let moves = play_games(config);
    bencher
        .counter(ItemsCount::new(moves))
        .bench(|| play_games(black_box(config)));
}

/// One round's moves on a game dealt outside the measurement: the
/// allocation columns stay at zero.
#[divan::bench(args = TABLES)]
fn one_round(bencher: Bencher, table: &str) {
    let game = LostHeir::new(config(table), Seed::from_u64(7)).expect("a valid config");
    let play_round = |mut game: LostHeir| {
        let mut rng = Seed::from_u64(8).rng();
        let mut moves = 0u64;
        while game.round_number() == 1 {
            let seat = game.turn().expect("the first round cannot end the game");
            let mv = game.legal_moves(seat).random(&mut rng).expect("a move");
            game.play_mut(seat, &mv).expect("a legal move");
            moves += 1;
        }
        (game, moves)
    };
    let (_, moves) = play_round(game.clone());
    bencher
        .counter(ItemsCount::new(moves))
        .with_inputs(|| game.clone())
        .bench_local_values(play_round);
}
