use cards::{LegalMoves, Seed};
use rules_lost_heir::{Config, LostHeir};

#[test]
fn random_games_finish() {
    for players in [2u8, 3, 4] {
        for seed in 0..50 {
            let mut game = LostHeir::new(Config::new(players), Seed::from_u64(seed)).unwrap();
            let mut rng = Seed::from_u64(seed + 1000).rng();
            let mut moves = 0;
            while let Some(seat) = game.turn() {
                let mv = game.legal_moves(seat).random(&mut rng).unwrap();
                game.play(seat, &mv).unwrap();
                moves += 1;
                assert!(moves < 100_000);
            }
            assert!(game.outcome().is_some());
        }
    }
}
