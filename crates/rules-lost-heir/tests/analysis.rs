//! Post-game analysis (`cards::analysis`) over Lost Heir: a clearly worse
//! card is a mistake, a forced move never is, the analysis reads only what
//! the seat could see (G-2), and it is a pure function of the game, the
//! seat, the budget and the seed.

mod common;

use cards::analysis::{Mark, analyse_decision, analyse_seat, hint};
use cards::search::Budget;
use cards::{Bot, LegalMoves, Ruleset, Seat, Seed};
use rules_lost_heir::{Config, LostHeir, Move};

use common::{Pairs, act, card, fill_deal, game_from, hidden_pairs, play_cards};

/// A whole game between sensible bots: the start and the log.
fn bot_game(config: Config, seed: u64) -> (LostHeir, Vec<(Seat, Move)>) {
    let start = LostHeir::new(config, Seed::from_u64(seed)).unwrap();
    let mut game = start.clone();
    let mut rng = Seed::from_u64(seed + 1000).rng();
    let mut moves = Vec::new();
    while let Some(seat) = game.turn() {
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        moves.push((seat, mv));
    }
    (start, moves)
}

/// Two players hold every card (LH-2), so nothing is hidden and the
/// position is exactly what the test says. Montreal is trumps (named by
/// the dealer, seat 0, after seat 1 passed: LH-6). Seat 1 holds every
/// other trump, seat 0 only the Wrong Boy (LH-7). Seat 1 leads a Toronto
/// card, which seat 0 cannot follow (LH-9): ruffing with the Wrong Boy
/// takes the trick and its -3 (LH-10, LH-11), while any discard keeps the
/// Wrong Boy until seat 1 leads trumps and seat 0 must play it under a
/// higher one, handing seat 1 the -3. Ruffing is a mistake; the expert's
/// move is good.
#[test]
fn ruffing_with_the_wrong_boy_is_a_mistake() {
    let hands = fill_deal(
        2,
        &[
            &["wrong-boy", "winnipeg-*", "blank", "blank"],
            &["toronto-*", "montreal-*", "heir", "halifax-policeman"],
        ],
    );
    let mut game = game_from(Config::new(2), 0, &hands);
    act(&mut game, Move::Pass);
    act(&mut game, Move::name_trumps(cards::heir::City::Montreal));
    play_cards(&mut game, &["toronto-policeman"]);
    let me = Seat::new(0);
    assert_eq!(game.turn(), Some(me));
    let budget = Budget::playouts(600);
    let seed = Seed::from_u64(5);
    let ruff = Move::play(card("wrong-boy"));
    let decision = analyse_decision(&game, me, &ruff, 3, budget, &seed);
    println!(
        "ruff: played {:?} best {:?} loss {:.2}",
        decision.played_value, decision.best_value, decision.loss
    );
    assert_eq!(decision.mark, Mark::Mistake, "{decision:?}");
    assert_ne!(decision.best, ruff);
    assert!(decision.loss >= rules_lost_heir::expert::MARKS.mistake);
    assert!(decision.playouts > 0 && decision.playouts <= budget.playouts);
    assert_eq!(decision.candidates.len(), decision.choices);
    let better = analyse_decision(&game, me, &decision.best, 3, budget, &seed);
    assert_eq!(better.mark, Mark::Good);
    assert_eq!(better.loss, 0.0);
    assert_eq!(better.best, decision.best);
}

/// A forced move (one legal move) is never judged, costs no search and is
/// never a mistake, whatever the budget; over whole games every decision's
/// playouts stay within the budget (the budget bound).
#[test]
fn forced_moves_are_never_mistakes_and_the_budget_bounds_the_search() {
    let budget = Budget::playouts(12);
    let (mut forced, mut judged) = (0, 0);
    for (i, config) in [Config::new(3), Config::new(4)].into_iter().enumerate() {
        let (start, moves) = bot_game(config, i as u64);
        for seat in start.player_count().seats() {
            let analysis = analyse_seat(&start, &moves, seat, budget, &Seed::from_u64(3)).unwrap();
            let mine = moves.iter().filter(|(s, _)| *s == seat).count();
            assert_eq!(analysis.decisions.len(), mine);
            for d in &analysis.decisions {
                if d.choices == 1 {
                    forced += 1;
                    assert_eq!(d.mark, Mark::Forced);
                    assert_eq!((d.playouts, d.loss), (0, 0.0));
                    assert_eq!(d.best, d.played);
                } else if d.mark.is_judged() {
                    judged += 1;
                    // Each candidate once per world: at most the budget,
                    // or one world when there are more candidates.
                    assert!(d.playouts <= budget.playouts.max(d.choices as u32));
                    assert!(d.loss >= 0.0);
                    assert!(
                        (d.played_value.unwrap() + d.loss - d.best_value.unwrap()).abs() < 1e-9
                    );
                }
            }
            let s = &analysis.summary;
            assert_eq!(s.forced + s.judged + s.unjudged, s.decisions);
            assert_eq!(s.good + s.inaccuracies + s.mistakes, s.judged);
            assert!(s.costliest.len() <= 3);
        }
    }
    assert!(forced > 20, "only {forced} forced decisions");
    assert!(judged > 100, "only {judged} judged decisions");
}

/// G-2: two games the seat cannot tell apart (they differ only in cards
/// hidden from it) give the identical analysis of its decision, values
/// included, for the same seed; and so does a hint.
#[test]
fn analysis_never_reads_hidden_state() {
    let budget = Budget::playouts(24);
    let configs = [Config::new(3), Config::new(4), Config::new(2)];
    let mut searched = 0;
    let compared = hidden_pairs(
        &configs,
        Pairs {
            deals: 4,
            stride: 4,
            staggered: true,
            other_seed: 78,
        },
        |a, b, me| {
            let legal = a.legal_moves(me);
            let played = legal.nth(legal.count() / 2).unwrap();
            let seed = Seed::from_u64(11);
            let da = analyse_decision(a, me, &played, 7, budget, &seed);
            let db = analyse_decision(b, me, &played, 7, budget, &seed);
            searched += usize::from(da.mark.is_judged());
            assert_eq!(da, db, "hidden cards changed the analysis");
            assert_eq!(hint(a, me, budget, &seed), hint(b, me, budget, &seed));
        },
    );
    println!("{compared} pairs compared, {searched} searched");
    assert!(compared > 30, "only {compared} comparisons");
    assert!(searched > 20, "only {searched} searched");
}

/// An analysis is a pure function of the game, the seat, the budget and
/// the seed; another seed samples other worlds (other values).
#[test]
fn analysis_is_deterministic_for_a_seed_and_budget() {
    let (start, moves) = bot_game(Config::new(3), 9);
    let budget = Budget::playouts(12);
    let run = |seed: u64| analyse_seat(&start, &moves, Seat::new(1), budget, &Seed::from_u64(seed));
    let first = run(1).unwrap();
    assert_eq!(first, run(1).unwrap());
    let other = run(2).unwrap();
    assert_eq!(first.decisions.len(), other.decisions.len());
    assert_ne!(first, other, "another seed gave the very same values");
}

/// A log that is not this game's is refused at the first bad move.
#[test]
fn a_foreign_log_is_refused() {
    let (start, mut moves) = bot_game(Config::new(3), 4);
    let (seat, _) = moves[0];
    moves.insert(0, (seat.left(start.player_count()), Move::Pass));
    let refused = analyse_seat(
        &start,
        &moves,
        seat,
        Budget::playouts(4),
        &Seed::from_u64(0),
    );
    assert!(refused.is_err());
}
