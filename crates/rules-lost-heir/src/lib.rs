//! The Lost Heir rules engine: a pure state machine from the first deal to
//! the winner, for 2, 3 and 4 players (4 in partnerships or not).
//!
//! The rule text is `seeds/lost-heir.txt`; every gap in it is settled by a
//! ruling in `RULINGS.md` (LH-1 … LH-12, G-1 … G-3), cited where the code
//! implements it. `docs/rules/lost-heir.md` restates the rules as implemented.
//!
//! * [`LostHeir`] is the game state, driven through [`cards::Ruleset`] only
//!   (the same surface as every engine). It is created by `Ruleset::new`
//!   (checked [`Config`] + [`Seed`](cards::Seed)) and changed only by
//!   `Ruleset::play_mut`, which validates a [`Move`] completely before it
//!   mutates anything, so a refused move ([`RuleError`]) leaves the state
//!   exactly as it was (G-3). `Ruleset::play` is the same move by value:
//!   the next state, or a [`cards::PlayError`] holding the refusal and the
//!   state as it was (`into_inner`), so nothing is copied to keep it.
//!   Its inherent methods only read the state
//!   (`turn`, `dealer`, `scores`, `hand`, …) or build a test deal (`from_deal`).
//! * `Ruleset::legal_moves` lists what a seat may do now ([`Legal`]),
//!   without allocating.
//! * `Ruleset::view` is what one viewer may know (G-2).
//! * [`bot`] is the sensible bot ([`cards::Bot`]), over a seat's view only.
//! * [`expert`] is the expert bot's [`cards::Determinize`]: sampled worlds
//!   that keep everything a seat has seen, for `cards::search`.
//! * A game is `(config, seed, moves)` (G-1): the state carries the seeded RNG
//!   that draws the first dealer and shuffles every round.
//!
//! ```
//! use cards::{LegalMoves, Ruleset, Seed, Viewer};
//! use rules_lost_heir::{BidPoints, Config, LostHeir, Move, RuleError};
//!
//! let game = LostHeir::new(Config::new(3), Seed::from_u64(1)).unwrap();
//! let first = game.turn().unwrap(); // the dealer's left (LH-5)
//! let game = game.play(first, &Move::bid(4)).unwrap();
//! let second = game.turn().unwrap();
//! let before = game.clone(); // only to compare below
//! let refused = game.play(second, &Move::bid(4)).unwrap_err();
//! assert_eq!(refused.refusal(), &RuleError::BidTooLow { highest: BidPoints(4) });
//! let mut game = refused.into_inner();
//! assert_eq!(game, before); // G-3: a refused move changes nothing
//!
//! // A random legal game to the end, in place.
//! let mut rng = Seed::from_u64(2).rng();
//! while let Some(seat) = game.turn() {
//!     let mv = game.legal_moves(seat).random(&mut rng).unwrap();
//!     game.play_mut(seat, &mv).unwrap();
//! }
//! assert!(game.outcome().is_some());
//! assert!(game.view(Viewer::Spectator).winners.is_some());
//! ```

pub mod bot;
mod config;
mod error;
pub mod expert;
mod game;
mod legal;
mod moves;
mod sample;
mod tricks;
mod view;

pub use config::{Config, ConfigError};
pub use error::{Prompt, RuleError};
pub use game::LostHeir;
pub use legal::Legal;
pub use moves::{BidPoints, Call, Contract, Decision, Move, Side, SuitLed};
pub use view::{CompletedTrickView, HighestBid, PlayView, RoundRecord, SideView, TrickView, View};

/// Re-exported so users need not depend on `cards` for the deck's names.
pub use cards::heir::{City, HeirCard, HeirRank};
