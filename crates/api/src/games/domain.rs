//! The service's own words for a game's set-up: how a seat is filled at
//! creation, what a deadline does, and the create-game command. The HTTP
//! request body (`resources::CreateGameRequest`) is turned into
//! [`CreateGame`]; the schema derives are here so that the OpenAPI
//! document describes these types as they are.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// How a seat is filled at creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatSpec {
    /// Waits for a player to join.
    Open,
    /// Played by the server (the engine's sensible bot, `docs/bots.md`).
    Bot,
}

/// What happens when a seat's move clock runs out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeadlinePolicy {
    /// The server's bot makes that one move; the seat stays its player's.
    #[default]
    Bot,
    /// The seat forfeits: the bot plays it for the rest of the game, the
    /// player cannot take it back, and it is never among the winners.
    Forfeit,
}

impl DeadlinePolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            DeadlinePolicy::Bot => "bot",
            DeadlinePolicy::Forfeit => "forfeit",
        }
    }

    /// The stored policy (`bot` when unset or unknown).
    pub fn parse(s: Option<&str>) -> DeadlinePolicy {
        match s {
            Some("forfeit") => DeadlinePolicy::Forfeit,
            _ => DeadlinePolicy::Bot,
        }
    }
}

/// The longest time per move: 30 days.
pub const MAX_MOVE_DEADLINE_SECS: u64 = 30 * 86_400;

/// Create a game: its kind and configuration, how each seat is filled,
/// the seat the creator takes (with their entropy), and the move clock.
#[derive(Debug, Clone)]
pub struct CreateGame {
    /// A kind's name, as `games::kinds` knows it.
    pub kind: &'static str,
    pub config: Value,
    /// One entry per seat; all open when `None`.
    pub seats: Option<Vec<SeatSpec>>,
    pub take_seat: Option<u8>,
    pub entropy: Option<String>,
    pub move_deadline_secs: Option<u64>,
    pub on_deadline: Option<DeadlinePolicy>,
}
