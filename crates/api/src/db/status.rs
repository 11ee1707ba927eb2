//! The small vocabularies stored in `games` columns, as Rust enums mapped to
//! the database's text (both backends): `status`, `on_deadline`, `on_resign`
//! and `seats.bot_level`. Each
//! column is also checked by the database (`migrations/*/2026-12-01-000100_typed_log`, widened by
//! `2026-12-01-000400_expiry`),
//! so a value outside the vocabulary can neither be written nor, if one is
//! found anyway, read as anything: reading it is an error, never a default.

use std::str::FromStr;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A stored value outside a column's vocabulary (a hand-edited database or a
/// newer server's value).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {column} `{value}` stored")]
pub struct UnknownValue {
    pub column: &'static str,
    pub value: String,
}

/// Text mapping for a fieldless enum: `as_str`, `FromStr` (unknown: an
/// error) and diesel's `ToSql`/`FromSql` for `Text` on every backend.
macro_rules! text_enum {
    ($ty:ident, $column:literal, { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The value as stored and as serialized.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text),+
                }
            }
        }

        impl FromStr for $ty {
            type Err = UnknownValue;

            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok($ty::$variant),)+
                    _ => Err(UnknownValue { column: $column, value: s.to_owned() }),
                }
            }
        }

        impl<DB> ToSql<Text, DB> for $ty
        where
            DB: Backend,
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.as_str().to_sql(out)
            }
        }

        impl<DB> FromSql<Text, DB> for $ty
        where
            DB: Backend,
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                Ok(String::from_sql(bytes)?.parse::<$ty>()?)
            }
        }
    };
}

// `games.status`. (The doc comments are the OpenAPI document's descriptions.)
/// Where a game is in its life.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, AsExpression, FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for seats to fill.
    Open,
    InProgress,
    Finished,
    /// Closed by the server: it stayed open, unchanged, for the server's
    /// `OPEN_GAME_TTL_SECS` (its log ends with `game_expired`); nobody can
    /// join or leave it any more.
    Expired,
}

text_enum!(GameStatus, "game status", {
    Open => "open",
    InProgress => "in_progress",
    Finished => "finished",
    Expired => "expired",
});

impl GameStatus {
    /// Nothing more will happen to the game (finished, or expired before it
    /// started): its streams and long polls end once they reach its last
    /// event.
    pub fn is_closed(self) -> bool {
        matches!(self, GameStatus::Finished | GameStatus::Expired)
    }
}

// `games.on_deadline`.
/// What happens when a seat's move clock runs out.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    AsExpression,
    FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "snake_case")]
pub enum DeadlinePolicy {
    /// The server's bot makes that one move; the seat stays its player's.
    #[default]
    Bot,
    /// The seat forfeits: the bot plays it for the rest of the game, the
    /// player cannot take it back, and it is never among the winners.
    Forfeit,
}

text_enum!(DeadlinePolicy, "deadline policy", {
    Bot => "bot",
    Forfeit => "forfeit",
});

// `games.on_resign`.
/// What happens when a seated player resigns a game in progress.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    AsExpression,
    FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "snake_case")]
pub enum ResignPolicy {
    /// The server's bot plays the seat for the rest of the game; the seat
    /// is forfeited (never among the winners), like a deadline `forfeit`.
    #[default]
    Bot,
    /// The game ends at once (status `finished`): the resigning seat's side
    /// is forfeited and the winners are the best of the other seats by the
    /// standings at that moment (docs/streams.md, "Resign").
    EndGame,
}

text_enum!(ResignPolicy, "resign policy", {
    Bot => "bot",
    EndGame => "end_game",
});

// `seats.bot_level`.
/// How strongly the server plays a bot seat or a seat on autoplay
/// (docs/bots.md).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    AsExpression,
    FromSqlRow,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// A uniformly random legal move.
    Random,
    /// The engine's heuristic bot.
    #[default]
    Sensible,
    /// A determinized Monte Carlo search over the seat's view, with the
    /// sensible bot's playouts.
    Expert,
}

text_enum!(BotLevel, "bot level", {
    Random => "random",
    Sensible => "sensible",
    Expert => "expert",
});

impl BotLevel {
    /// The engines' level (`cards::BotLevel`).
    pub fn engine(self) -> cards::BotLevel {
        match self {
            BotLevel::Random => cards::BotLevel::Random,
            BotLevel::Sensible => cards::BotLevel::Sensible,
            BotLevel::Expert => cards::BotLevel::Expert,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_the_serde_name_and_parses_back() {
        for status in GameStatus::ALL {
            let json = serde_json::to_value(status).unwrap();
            assert_eq!(json, status.as_str());
            assert_eq!(status.as_str().parse::<GameStatus>(), Ok(*status));
        }
        for policy in ResignPolicy::ALL {
            assert_eq!(serde_json::to_value(policy).unwrap(), policy.as_str());
            assert_eq!(policy.as_str().parse::<ResignPolicy>(), Ok(*policy));
        }
        for level in BotLevel::ALL {
            assert_eq!(serde_json::to_value(level).unwrap(), level.as_str());
            assert_eq!(level.as_str().parse::<BotLevel>(), Ok(*level));
            assert_eq!(level.engine().name(), level.as_str());
        }
        for policy in DeadlinePolicy::ALL {
            assert_eq!(serde_json::to_value(policy).unwrap(), policy.as_str());
            assert_eq!(policy.as_str().parse::<DeadlinePolicy>(), Ok(*policy));
        }
    }

    #[test]
    fn an_unknown_value_is_an_error_not_a_default() {
        let err = "abandoned".parse::<GameStatus>().unwrap_err();
        assert_eq!(err.to_string(), "unknown game status `abandoned` stored");
        assert!("".parse::<GameStatus>().is_err());
        assert!("Bot".parse::<DeadlinePolicy>().is_err());
    }
}
