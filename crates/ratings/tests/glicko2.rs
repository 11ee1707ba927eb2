//! Glicko-2 against Glickman's worked example, and the properties a rating
//! system must have, over many random games.

use proptest::prelude::*;
use ratings::{Entrant, Glicko2, Rating, Result, pairwise_results, rate_game};

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

/// The paper's example ("Example of the Glicko-2 system", Glickman 2013):
/// r' = 1464.06, RD' = 151.52, σ' = 0.05999.
#[test]
fn glickmans_worked_example() {
    let after = Glicko2::default().rate(
        rating(1500.0, 200.0),
        &[
            (rating(1400.0, 30.0), Result::Win),
            (rating(1550.0, 100.0), Result::Loss),
            (rating(1700.0, 300.0), Result::Loss),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

#[test]
fn a_period_without_games_only_widens_the_deviation_up_to_a_newcomers() {
    let system = Glicko2::default();
    let before = rating(1600.0, 50.0);
    let after = system.rate(before, &[]);
    assert_eq!((after.rating, after.volatility), (1600.0, 0.06));
    let expected = ((50.0f64 / 173.7178).powi(2) + 0.06f64.powi(2)).sqrt() * 173.7178;
    assert!((after.deviation - expected).abs() < 1e-9);
    let mut r = before;
    for _ in 0..10_000 {
        r = system.rate(r, &[]);
    }
    assert_eq!(r.deviation, Rating::NEW.deviation);
}

#[test]
fn standings_become_wins_draws_and_losses_and_partners_are_not_compared() {
    let new = Rating::NEW;
    // Four seats in partnerships: side 0 (seats 0 and 2) won.
    let table = [
        Entrant {
            rating: new,
            rank: 0,
            side: 0,
        },
        Entrant {
            rating: rating(1400.0, 80.0),
            rank: 1,
            side: 1,
        },
        Entrant {
            rating: new,
            rank: 0,
            side: 0,
        },
        Entrant {
            rating: rating(1450.0, 90.0),
            rank: 1,
            side: 1,
        },
    ];
    let seat0 = pairwise_results(&table, 0);
    assert_eq!(seat0.len(), 2, "the partner is not an opponent");
    assert!(seat0.iter().all(|(_, r)| *r == Result::Win));
    let seat1 = pairwise_results(&table, 1);
    assert_eq!(
        seat1.iter().map(|(_, r)| *r).collect::<Vec<_>>(),
        [Result::Loss, Result::Loss]
    );
    // Three alone, two level at the top: they draw with each other.
    let alone = [
        Entrant {
            rating: new,
            rank: 0,
            side: 0,
        },
        Entrant {
            rating: new,
            rank: 0,
            side: 1,
        },
        Entrant {
            rating: new,
            rank: 2,
            side: 2,
        },
    ];
    let results: Vec<Result> = pairwise_results(&alone, 0)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(results, [Result::Draw, Result::Win]);
    let after = rate_game(&Glicko2::default(), &alone);
    assert!(after[0].rating > 1500.0 && after[2].rating < 1500.0);
    assert_eq!(after[0], after[1], "the same results from the same ratings");
}

proptest! {
    /// Distinct standings (seat i finished i-th): the winner beat everyone
    /// and gains, the last lost to everyone and loses, whatever the ratings.
    #[test]
    fn the_winner_gains_the_last_loses_and_uncertain_ratings_firm_up(
        players in prop::collection::vec((1000.0f64..2000.0, 30.0f64..350.0), 2..10),
    ) {
        let entrants: Vec<Entrant> = players
            .iter()
            .enumerate()
            .map(|(i, &(r, rd))| Entrant { rating: rating(r, rd), rank: i as u32, side: i as u8 })
            .collect();
        let after = rate_game(&Glicko2::default(), &entrants);
        let last = entrants.len() - 1;
        prop_assert!(after[0].rating > entrants[0].rating.rating);
        prop_assert!(after[last].rating < entrants[last].rating.rating);
        for (before, after) in entrants.iter().zip(&after) {
            prop_assert!(after.rating.is_finite() && after.deviation.is_finite());
            // A game is information: an uncertain rating becomes surer. (A
            // sure one may widen a little: the period's volatility is added
            // before the game's information, step 6.)
            prop_assert!(after.deviation <= Rating::NEW.deviation);
            if before.rating.deviation >= 300.0 {
                prop_assert!(after.deviation < before.rating.deviation);
            }
        }
        // Deterministic: the same game rated again gives the same bits.
        prop_assert_eq!(after, rate_game(&Glicko2::default(), &entrants));
    }
}
