//! A multi-player game as pairwise results: each player against every
//! player of another side, won if it finished strictly higher, drawn if
//! level, lost if lower. Partners share their side's standing and are never
//! compared with each other. A game is one rating period for each of its
//! players, every update computed from the ratings before the game.

use crate::glicko2::{Glicko2, Rating, Result};

/// One seat of a finished game, as the rating sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entrant {
    /// The rating before the game.
    pub rating: Rating,
    /// The final standing: 0 for the winners, then 1, 2, … (equal ranks are
    /// level: a shared win, or equal scores).
    pub rank: u32,
    /// Seats on the same side (partners) are not rated against each other.
    pub side: u8,
}

/// Entrant `index`'s results against every entrant of another side.
pub fn pairwise_results(entrants: &[Entrant], index: usize) -> Vec<(Rating, Result)> {
    let me = entrants[index];
    entrants
        .iter()
        .filter(|other| other.side != me.side)
        .map(|other| {
            let result = match me.rank.cmp(&other.rank) {
                std::cmp::Ordering::Less => Result::Win,
                std::cmp::Ordering::Equal => Result::Draw,
                std::cmp::Ordering::Greater => Result::Loss,
            };
            (other.rating, result)
        })
        .collect()
}

/// Every entrant's rating after the game, in the entrants' order.
pub fn rate_game(system: &Glicko2, entrants: &[Entrant]) -> Vec<Rating> {
    (0..entrants.len())
        .map(|i| system.rate(entrants[i].rating, &pairwise_results(entrants, i)))
        .collect()
}
