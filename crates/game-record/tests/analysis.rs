//! `game_record::analysis`: a recorded game of either kind is analysed
//! seat by seat from its dealing seed (G-1), the same way every time, with
//! the analysis's budget; a log that does not replay is refused like the
//! record builder refuses it.

mod common;

use game_record::BuildError;
use game_record::analysis::{DecisionMark, analyse, analysis_seed, default_playouts};

use common::{random_game, tables};

#[test]
fn every_table_is_analysed_seat_by_seat_and_the_same_twice() {
    for (n, table) in tables().into_iter().enumerate() {
        let (info, moves) = random_game(table, n as u64, 120);
        let seats: Vec<u8> = (0..table.players).step_by(2).collect();
        let analysis = analyse(&info, &moves, &seats, Some(6)).unwrap();
        assert_eq!(analysis.playouts, 6);
        assert_eq!(analysis.seats.len(), seats.len());
        for report in &analysis.seats {
            let mine: Vec<usize> = (0..moves.len())
                .filter(|&i| moves[i].seat == report.seat)
                .collect();
            let plies: Vec<usize> = report.decisions.iter().map(|d| d.ply).collect();
            assert_eq!(plies, mine, "one decision per move of the seat");
            for d in &report.decisions {
                assert_eq!(d.played, moves[d.ply].mv);
                if d.mark == DecisionMark::Forced {
                    assert_eq!((d.choices, d.playouts), (1, 0));
                }
                // Each candidate once per world: the budget, or one world.
                assert!(d.playouts as usize <= 6.max(d.choices));
            }
            assert_eq!(report.summary.decisions, report.decisions.len());
        }
        assert_eq!(analysis, analyse(&info, &moves, &seats, Some(6)).unwrap());
    }
}

#[test]
fn a_log_that_does_not_replay_is_refused() {
    let table = tables()[1];
    let (info, mut moves) = random_game(table, 3, 40);
    moves.swap(10, 11);
    let refused = analyse(&info, &moves, &[0, 1, 2], Some(4));
    assert!(
        matches!(refused, Err(BuildError::IllegalMove { .. })),
        "{refused:?}"
    );
}

#[test]
fn defaults_and_seeds() {
    let lh = tables()[0].kind;
    let ch = tables()[5].kind;
    assert_eq!(default_playouts(lh), 600);
    assert_eq!(default_playouts(ch), 2400);
    let a = analysis_seed(&cards::Seed::from_u64(1));
    assert_ne!(a, cards::Seed::from_u64(1));
    assert_eq!(a, analysis_seed(&cards::Seed::from_u64(1)));
}
