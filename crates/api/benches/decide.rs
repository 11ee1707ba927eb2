//! One move decided through the api's type-erased game (`AnyGame`, with
//! its JSON parse and canonical form), on a mid-game Cancellation Hearts
//! state at 10 seats: on a copy of the state (`clone_box`, then the move
//! by value: what the write path does, since it keeps the state it
//! decided on until the append commits), against the state itself handed
//! over by value (`AnyGame::play`: the next state, or the refusal with the
//! state unchanged). Each for a legal move and for a refused one.
//!
//! `cargo bench -p api --bench decide`

use api::games::{AnyGame, kinds};
use cards::{Seat, Seed};
use divan::{Bencher, black_box};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// Moves into the game: the passes, then about half the first round's
/// tricks at 10 seats.
const MOVES_IN: usize = 60;

/// The state, the seat to act, a legal move of its and a move refused
/// (the same card played by the next seat, who is not to act).
fn mid_game() -> (Box<dyn AnyGame>, Seat, Value, Seat) {
    let kind = kinds::find("cancellation-hearts").expect("a kind");
    let mut game = kind
        .new_game(&json!({"players": 10}), Seed::from_u64(7))
        .expect("a valid config");
    let mut rng = Seed::from_u64(8).rng();
    for _ in 0..MOVES_IN {
        let seat = game.to_act().first().expect("the game goes on");
        let mv = game.random_move(seat, &mut rng).expect("a move");
        game.play_mut(seat, &mv).expect("a legal move");
    }
    let seat = game.to_act().first().expect("the game goes on");
    let mv = game.random_move(seat, &mut rng).expect("a move");
    let other = Seat::new((seat.number() + 1) % game.seat_count());
    (game, seat, mv, other)
}

#[divan::bench]
fn legal_on_a_copy(bencher: Bencher) {
    let (game, seat, mv, _) = mid_game();
    bencher.bench_local(|| game.clone_box().play(black_box(seat), black_box(&mv)));
}

#[divan::bench]
fn legal_by_value(bencher: Bencher) {
    let (game, seat, mv, _) = mid_game();
    bencher
        .with_inputs(|| game.clone_box())
        .bench_local_values(|game| game.play(black_box(seat), black_box(&mv)));
}

#[divan::bench]
fn refused_on_a_copy(bencher: Bencher) {
    let (game, _, mv, other) = mid_game();
    bencher.bench_local(|| {
        // The copy is dropped with the refusal, as the write path does.
        let refused = game.clone_box().play(black_box(other), black_box(&mv));
        refused.map(|p| p.next).map_err(|r| r.refusal)
    });
}

#[divan::bench]
fn refused_by_value(bencher: Bencher) {
    let (game, _, mv, other) = mid_game();
    bencher
        .with_inputs(|| game.clone_box())
        .bench_local_values(|game| {
            // The caller keeps the state handed back: nothing is dropped.
            game.play(black_box(other), black_box(&mv))
        });
}
