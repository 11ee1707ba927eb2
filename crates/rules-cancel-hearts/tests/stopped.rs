//! A game stopped early (a resignation under the api's `end_game`):
//! `Ruleset::side` is the seat alone and `Ruleset::stopped` ranks the other
//! seats by their totals so far, the lowest winning (CH-13's direction).

use cards::{Bot, Ruleset, Seat, SeatSet, Seed};
use rules_cancel_hearts::{CancelHearts, Config};

#[test]
fn the_lowest_other_total_wins() {
    for n in 0..4 {
        let mut game = CancelHearts::new(Config::new(6), Seed::from_u64(n)).unwrap();
        let mut rng = Seed::from_u64(n ^ 9).rng();
        while game.round().number() == 0 {
            let seat = game.to_act().first().unwrap();
            let mv = game.bot_move(seat, &mut rng).unwrap();
            game.play_mut(seat, &mv).unwrap();
        }
        let out: SeatSet = [Seat::new(2)].into_iter().collect();
        assert_eq!(game.side(Seat::new(2)), out);
        let o = game.stopped(out);
        assert_eq!(o.scores, game.scores());
        let best = (0..6)
            .filter(|&s| s != 2)
            .map(|s| o.scores[s])
            .min()
            .unwrap();
        let want: SeatSet = (0..6u8)
            .filter(|&s| s != 2 && o.scores[usize::from(s)] == best)
            .map(Seat::new)
            .collect();
        assert_eq!(o.winners, want, "{:?}", o.scores);
    }
}
