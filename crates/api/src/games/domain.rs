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
    /// Played by the server's sensible bot (the same as `bot_sensible`).
    Bot,
    /// Played by the server, a uniformly random legal move each time.
    BotRandom,
    /// Played by the server's sensible (heuristic) bot, `docs/bots.md`.
    BotSensible,
    /// Played by the server's expert bot: a search over the seat's view,
    /// `docs/bots.md`.
    BotExpert,
}

impl SeatSpec {
    /// The level a bot seat is played at; `None` for an open seat.
    pub fn bot_level(self) -> Option<BotLevel> {
        match self {
            SeatSpec::Open => None,
            SeatSpec::Bot | SeatSpec::BotSensible => Some(BotLevel::Sensible),
            SeatSpec::BotRandom => Some(BotLevel::Random),
            SeatSpec::BotExpert => Some(BotLevel::Expert),
        }
    }

    /// The spec that fills a seat with a bot of `level`.
    pub fn bot(level: BotLevel) -> SeatSpec {
        match level {
            BotLevel::Random => SeatSpec::BotRandom,
            BotLevel::Sensible => SeatSpec::BotSensible,
            BotLevel::Expert => SeatSpec::BotExpert,
        }
    }
}

/// What a deadline does: typed and checked in the database with the
/// game's other columns (`status.rs`).
pub use super::status::{BotLevel, DeadlinePolicy, ResignPolicy};

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
    pub on_resign: ResignPolicy,
    /// Whether finishing by play changes ratings (`games::ratings`).
    pub rated: bool,
    /// Any seated player may mint invite links (else only the creator).
    pub players_may_invite: bool,
    /// Seated players may ask the expert for hints (`games::hints`);
    /// never with `rated` (refused at creation).
    pub hints: bool,
    /// Set when the game is the rematch of a finished one (`games::series`).
    pub rematch: Option<Rematch>,
}

/// What a rematch carries over from the game it follows.
#[derive(Debug, Clone)]
pub struct Rematch {
    /// The series' first game.
    pub series_id: String,
    pub previous_game_id: String,
    /// By seat: the player each open seat is reserved for.
    pub invited: Vec<Option<String>>,
}
