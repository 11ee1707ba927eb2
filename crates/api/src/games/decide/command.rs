//! The decision core's vocabulary: a [`Command`] (a change asked of a
//! game), the [`State`] it is decided on, and the [`Decision`] it comes to
//! (a [`Change`]: the events to append and everything they change, or
//! nothing). Plain data: the write path (`games/write.rs`) executes a
//! decision, the core only makes it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::db::models::{GameRow, InviteUse, NewEvent, PlayerRow, SeatChange, SeatWithName};
use crate::games::any_game::AnyGame;
use crate::games::bot_plan::BotPlan;
use crate::games::status::{BotLevel, GameStatus};

/// A change asked of a game.
#[derive(Debug)]
pub enum Command<'a> {
    /// A person plays `mv` for the seat they hold; `if_match`: the version
    /// they decided on.
    Move {
        player_id: &'a str,
        mv: &'a Value,
        if_match: Option<i64>,
    },
    /// A player takes a chosen seat or the lowest open one.
    Join {
        player: &'a PlayerRow,
        seat: Option<u8>,
        entropy: Option<String>,
    },
    /// A player takes a seat through an invite link: the seat it names, or
    /// (none named) the one a plain join would take; the link's use is
    /// counted in the seat's transaction.
    JoinByInvite {
        player: &'a PlayerRow,
        seat: Option<u8>,
        entropy: Option<String>,
        invite: InviteUse,
    },
    /// A player gives up their seat before the game starts.
    Leave { player_id: &'a str },
    /// A player hands their seat to the bot (at `level`), or takes it back.
    Autoplay {
        player_id: &'a str,
        enabled: bool,
        level: BotLevel,
    },
    /// A player resigns their seat in a game in progress (the game's
    /// `on_resign` policy applies, `decide/resign.rs`).
    Resign { player_id: &'a str },
    /// The bot plays for a bot seat (or a seat on autoplay) that must act;
    /// an expert seat plays `plan`, thought out for the current version.
    BotTurn { plan: Option<&'a BotPlan> },
    /// The move clock ran out: the game's policy applies.
    DeadlineFired,
    /// The server closes the game if it is open and nobody changed it for
    /// `ttl` (`games::expiry`).
    ExpireIfIdle { ttl: Duration },
    /// Logs the expert's hint `mv` for `seat` (the seat `player_id` holds)
    /// at `ply`, thought out on `version` (`games::hints`).
    Hint {
        player_id: &'a str,
        seat: cards::Seat,
        ply: u32,
        mv: &'a Value,
        version: i64,
    },
}

/// The game as a command is decided on: its row and seats, the engine
/// state at `version`, and the time the decision is made at (a deadline
/// has passed, an open game is idle: judged against it, never the clock).
pub struct State<'a> {
    pub row: &'a GameRow,
    pub seats: &'a [SeatWithName],
    pub game: &'a dyn AnyGame,
    pub version: i64,
    pub now: DateTime<Utc>,
}

/// What deciding a command came to.
#[derive(Debug)]
pub enum Decision {
    /// Append these events.
    Change(Change),
    /// Nothing to do (no bot must act, the setting is already so).
    Nothing,
}

/// A change to append, and everything it changes.
#[derive(Debug)]
pub struct Change {
    pub events: Vec<NewEvent>,
    pub status: GameStatus,
    /// The engine state after the change; `None` when only seats changed.
    pub next: Option<Box<dyn AnyGame>>,
    /// The seats after the change.
    pub seats: Vec<SeatWithName>,
    /// The seat row to update in the same transaction, if any.
    pub seat_change: Option<SeatChange>,
    /// Whether the turn may now be a bot's (a bot driver is kicked).
    pub wakes_bots: bool,
}
