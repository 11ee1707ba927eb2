//! Ratings for the games (docs/ratings.md): Glicko-2 (Glickman, "Example of the
//! Glicko-2 system", 2013), and a finished multi-player game turned into
//! the pairwise results Glicko-2 rates, by final standing, the usual way of
//! rating multi-player games with an Elo-like system.
//!
//! Pure and deterministic: the same ratings and games in the same order give
//! bit-identical results, so ratings rebuilt from the log are the ratings
//! that were shown.
//!
//! ```
//! use ratings::{Glicko2, Rating, Result};
//!
//! let system = Glicko2::default();
//! // Glickman's worked example: 1500 (RD 200) beats 1400 (RD 30) and
//! // loses to 1550 (RD 100) and 1700 (RD 300).
//! let me = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
//! let games = [
//!     (Rating { rating: 1400.0, deviation: 30.0, volatility: 0.06 }, Result::Win),
//!     (Rating { rating: 1550.0, deviation: 100.0, volatility: 0.06 }, Result::Loss),
//!     (Rating { rating: 1700.0, deviation: 300.0, volatility: 0.06 }, Result::Loss),
//! ];
//! let after = system.rate(me, &games);
//! assert!((after.rating - 1464.06).abs() < 0.01);
//! assert!((after.deviation - 151.52).abs() < 0.01);
//! ```

mod glicko2;
mod standings;

pub use glicko2::{Glicko2, Rating, Result};
pub use standings::{Entrant, pairwise_results, rate_game};
