//! Post-game analysis (`cards::analysis`) over Cancellation Hearts: a
//! forced move is never judged, the budget bounds every decision, the
//! analysis reads only what the seat could see (G-2), and it is a pure
//! function of the game, the seat, the budget and the seed.

mod common;

use cards::analysis::{Mark, analyse_decision, analyse_seat, hint};
use cards::search::Budget;
use cards::{Bot, LegalMoves, Ruleset, Seat, Seed};
use rules_cancel_hearts::{CancelHearts, Config, Move};

use common::{Pairs, hidden_pairs};

/// The first round of a game between sensible bots: the start and the log.
fn first_round(players: u8, seed: u64) -> (CancelHearts, Vec<(Seat, Move)>) {
    let start = CancelHearts::new(Config::new(players), Seed::from_u64(seed)).unwrap();
    let mut game = start.clone();
    let mut rng = Seed::from_u64(seed + 1000).rng();
    let mut moves = Vec::new();
    while game.round() == start.round() && !game.is_over() {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        moves.push((seat, mv));
    }
    (start, moves)
}

/// A forced move is never judged and costs no search; a pass of three
/// cards (too wide to search) is reported, not judged; every searched
/// decision stays within the budget.
#[test]
fn forced_moves_are_never_mistakes_and_the_budget_bounds_the_search() {
    let budget = Budget::playouts(10);
    let (mut forced, mut judged, mut unjudged) = (0, 0, 0);
    for (players, seed) in [(6, 1), (10, 2)] {
        let (start, moves) = first_round(players, seed);
        for seat in [Seat::new(0), Seat::new(players - 1)] {
            let analysis = analyse_seat(&start, &moves, seat, budget, &Seed::from_u64(3)).unwrap();
            // Rounds count from 1 in the analysis, as in the record (the engine's CH-3 counts from 0).
            assert!(analysis.decisions.iter().all(|d| d.round == 1));
            for d in &analysis.decisions {
                match d.mark {
                    Mark::Forced => {
                        forced += 1;
                        assert_eq!((d.choices, d.playouts, d.loss), (1, 0, 0.0));
                    }
                    Mark::Unjudged => {
                        unjudged += 1;
                        assert!(d.choices > cards::search::MAX_CANDIDATES);
                        assert_eq!(d.playouts, 0);
                    }
                    _ => {
                        judged += 1;
                        assert!(d.choices > 1);
                        assert!(d.playouts <= budget.playouts.max(d.choices as u32));
                        assert!(
                            (d.played_value.unwrap() + d.loss - d.best_value.unwrap()).abs() < 1e-9
                        );
                    }
                }
            }
            let s = &analysis.summary;
            assert_eq!(s.forced + s.judged + s.unjudged, s.decisions);
        }
    }
    println!("{forced} forced, {judged} judged, {unjudged} unjudged");
    assert!(forced > 3 && judged > 10 && unjudged > 0);
}

/// G-2: two games the seat cannot tell apart give the identical analysis
/// of its decision and the identical hint, for the same seed.
#[test]
fn analysis_never_reads_hidden_state() {
    let pairs = Pairs {
        players: &[6, 10],
        deals: 3,
        deal_seeds: 40,
        game_seed: 78,
        bot_seeds: 600,
        stride: 6,
    };
    let budget = Budget::playouts(12);
    let (mut compared, mut searched) = (0, 0);
    hidden_pairs(pairs, |a, b, me| {
        let legal = a.legal_moves(me);
        let played = legal.nth(legal.count() / 2).unwrap();
        let seed = Seed::from_u64(4);
        let da = analyse_decision(a, me, &played, 9, budget, &seed);
        let db = analyse_decision(b, me, &played, 9, budget, &seed);
        assert_eq!(da, db, "hidden cards changed the analysis");
        if compared % 3 == 0 {
            assert_eq!(hint(a, me, budget, &seed), hint(b, me, budget, &seed));
        }
        searched += usize::from(da.mark.is_judged());
        compared += 1;
    });
    println!("{compared} pairs compared, {searched} searched");
    assert!(compared > 20 && searched > 10, "{compared} / {searched}");
}

/// The same seed and budget give the same analysis; another seed other
/// sampled worlds.
#[test]
fn analysis_is_deterministic_for_a_seed_and_budget() {
    let (start, moves) = first_round(7, 5);
    let budget = Budget::playouts(10);
    let run = |seed: u64| analyse_seat(&start, &moves, Seat::new(2), budget, &Seed::from_u64(seed));
    let first = run(1).unwrap();
    assert_eq!(first, run(1).unwrap());
    assert_ne!(first, run(2).unwrap());
}
