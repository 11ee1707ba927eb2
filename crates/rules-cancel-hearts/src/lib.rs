//! The Cancellation Hearts rules engine: 6 to 10 players, two decks, and
//! identical cards in one trick cancel each other.
//!
//! The seed text is `shared/seeds/cancellation-hearts.ru.txt`; every gap in
//! it is filled by a ruling in `shared/RULINGS.md` (CH-1..CH-13, G-1..G-3),
//! cited where the code implements it. The rules as implemented are in
//! `docs/rules/cancellation-hearts.md`.
//!
//! [`CancelHearts`] implements [`cards::Ruleset`], the only way to drive it
//! (the same surface as every engine): a private, validated state that only
//! [`cards::Ruleset::new`] (or the test constructor
//! [`CancelHearts::from_deal`]) and [`cards::Ruleset::play_mut`] can change. Its
//! inherent methods only read the state (`dealer`, `scores`, `hand`, …).
//! [`bot`] is the sensible bot ([`cards::Bot`]), over a seat's view only.
//! `play_mut` checks a move completely before touching the state, so a refused
//! move changes nothing (G-3); [`cards::Ruleset::play`] is the same move by
//! value, handing back the next state or the refusal with the state as it was. Passing and discarding are "choose k cards"
//! and [`Legal`] enumerates them by index instead of listing them.
//!
//! ```
//! use cards::{LegalMoves, Ruleset, Seed};
//! use rules_cancel_hearts::{CancelHearts, Config};
//!
//! let mut game = CancelHearts::new(Config::new(8), Seed::from_u64(1)).unwrap();
//! let mut rng = Seed::from_u64(2).rng();
//! while !game.is_over() {
//!     let seat = game.to_act().first().unwrap();
//!     let mv = game.legal_moves(seat).random(&mut rng).unwrap();
//!     game.play_mut(seat, &mv).unwrap();
//! }
//! assert!(!game.outcome().unwrap().winners.is_empty());
//! ```

pub mod bot;
mod config;
mod error;
mod expert;
mod game;
mod legal;
mod moves;
mod sample;
mod view;

pub use config::{
    AllCancelled, Config, ConfigError, DECK_SIZE, DEFAULT_TARGET, Deal, MAX_PLAYERS, MIN_PLAYERS,
    hand_size, kitty_size,
};
pub use error::{RuleError, Waiting};
pub use game::CancelHearts;
pub use legal::Legal;
pub use moves::{MoonChoice, Move, PASS_COUNT, PassDirection, Phase, Round};
pub use view::{KittyView, MoonRecord, PlayView, ScoreSheetRow, Secrets, TrickView, View};
