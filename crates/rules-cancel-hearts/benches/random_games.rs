//! Complete random games: every move (passes, plays, discards, moon
//! choices) is a uniformly random legal one, `legal.random(&mut rng)`.
//!
//! `cargo bench -p rules-cancel-hearts` prints moves per second
//! (`ItemsCount` = moves) and, through divan's `AllocProfiler`, the heap
//! allocations per iteration: one game allocates only its score sheet.

use cards::{LegalMoves, Ruleset, Seed};
use divan::counter::ItemsCount;
use divan::{AllocProfiler, Bencher, black_box};
use rules_cancel_hearts::{CancelHearts, Config};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

/// Games per benchmark iteration, so an iteration is long enough to time.
const GAMES: u64 = 8;

fn main() {
    divan::main();
}

/// Plays one whole game; returns how many moves it took.
fn random_game(players: u8, game_seed: u64) -> u64 {
    let mut game = CancelHearts::new(Config::new(players), Seed::from_u64(game_seed)).unwrap();
    let mut rng = Seed::from_u64(!game_seed).rng();
    let mut moves = 0;
    while let Some(seat) = game.to_act().first() {
        let mv = game.legal_moves(seat).random(&mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        moves += 1;
    }
    black_box(&game);
    moves
}

fn games(players: u8) -> u64 {
    (0..GAMES).map(|g| random_game(players, g)).sum()
}

#[divan::bench(args = [6, 8, 10])]
fn random_games(bencher: Bencher, players: u8) {
    // The games are deterministic, so their move count is known in advance.
    let moves = games(players);
    bencher
        .counter(ItemsCount::new(moves))
        .bench(|| games(black_box(players)));
}
