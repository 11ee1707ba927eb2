//! Cards, decks, seats and the [`Ruleset`] trait shared by every game engine.
//!
//! This crate is pure: no I/O, no async, no clocks. Everything in it is
//! deterministic given its inputs, which is what makes a game replayable from
//! `(config, seed, moves)` (ruling G-1).
//!
//! * [`standard`]: the French-suited 52-card deck (Cancellation Hearts uses two).
//! * [`heir`]: the Lost Heir deck (four cities, the Lost Heir, the Wrong Boy, two Blanks).
//! * [`Hand`] / [`CardMask`]: allocation-free multisets and sets of cards over either deck.
//! * [`Seat`], [`PlayerCount`], [`SeatSet`]: seat arithmetic (left, right, across).
//! * [`Trick`]: the cards on the table, in play order from the leader.
//! * [`Seed`], [`GameRng`], [`shuffle`]: the documented, deterministic shuffle.
//! * [`Ruleset`]: what every engine implements so the api drives any game through one code path;
//!   [`Bot`]: each engine's sensible bot, over one seat's view and legal moves;
//!   [`search`]: the expert bot's determinized search, over [`Determinize`];
//!   [`analysis`]: that search judging a finished game's decisions, and hints.

pub mod analysis;
mod card_code;
mod hand;
pub mod heir;
mod marks;
mod ruleset;
#[cfg(feature = "utoipa")]
mod schema;
pub mod search;
mod seat;
mod shuffle;
pub mod standard;
mod trick;

pub use card_code::ParseCardError;
#[cfg(feature = "serde")]
pub(crate) use card_code::serde_via_str;
pub use hand::{CardKind, CardMask, Hand, MaskIter, TooManyCopies};
pub use ruleset::{
    Bot, LegalMoves, Outcome, PlayError, RuleViolation, Ruleset, Viewer, Visibility,
};
pub use search::{BotLevel, Budget, Determinize};
pub use seat::{PlayerCount, Seat, SeatSet};
pub use shuffle::{GameRng, ParseSeedError, Seed, SeedStream, random_below, shuffle};
pub use trick::Trick;

/// Serializes `$ty` as `$repr`, the value `$ty::$method` makes (its JSON
/// form), and, with the calling crate's `utoipa` feature, gives `$ty` that
/// form's OpenAPI schema: the engines' legal-move sets, which are compact
/// bit sets in memory and a described choice in JSON.
#[macro_export]
macro_rules! serialize_as {
    ($ty:ty, $repr:ty, $method:ident) => {
        #[cfg(feature = "serde")]
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&self.$method(), s)
            }
        }

        #[cfg(feature = "utoipa")]
        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <$repr as utoipa::PartialSchema>::schema()
            }
        }

        #[cfg(feature = "utoipa")]
        impl utoipa::ToSchema for $ty {
            fn name() -> std::borrow::Cow<'static, str> {
                <$repr as utoipa::ToSchema>::name()
            }
            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                <$repr as utoipa::ToSchema>::schemas(schemas);
            }
        }
    };
}
