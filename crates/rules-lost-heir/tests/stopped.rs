//! A game stopped early (a resignation under the api's `end_game`):
//! `Ruleset::side` (LH-3 partnerships) and `Ruleset::stopped` (the totals
//! so far; the highest of the other seats wins, LH-12's direction).

use cards::{Bot, Ruleset, Seat, SeatSet, Seed};
use rules_lost_heir::{Config, LostHeir};

/// A game played by the bots until its first round is scored.
fn after_a_round(config: Config, n: u64) -> LostHeir {
    let mut game = LostHeir::new(config, Seed::from_u64(n)).unwrap();
    let mut rng = Seed::from_u64(n ^ 7).rng();
    while game.score_sheet().is_empty() {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
    }
    game
}

fn seats(list: &[u8]) -> SeatSet {
    list.iter().copied().map(Seat::new).collect()
}

#[test]
fn partners_share_a_side_and_the_other_side_wins() {
    let game = after_a_round(Config::new(4), 3);
    assert_eq!(game.side(Seat::new(0)), seats(&[0, 2]));
    assert_eq!(game.side(Seat::new(3)), seats(&[1, 3]));
    let o = game.stopped(seats(&[0, 2]));
    assert_eq!(o.winners, seats(&[1, 3]));
    assert_eq!(o.scores[0], o.scores[2]);
    assert_eq!(o.scores[0], game.scores()[0]);
    assert_eq!(o.scores[1], game.scores()[1]);
}

#[test]
fn without_partners_the_highest_other_total_wins() {
    for n in 0..8 {
        let game = after_a_round(Config::new(3), n);
        assert_eq!(game.side(Seat::new(1)), seats(&[1]));
        let o = game.stopped(seats(&[1]));
        assert_eq!(o.scores, game.scores());
        let best = o.scores[0].max(o.scores[2]);
        let want: Vec<u8> = [0u8, 2]
            .into_iter()
            .filter(|&s| o.scores[usize::from(s)] == best)
            .collect();
        assert_eq!(o.winners, seats(&want), "{:?}", o.scores);
        assert!(!o.winners.contains(Seat::new(1)));
    }
}
