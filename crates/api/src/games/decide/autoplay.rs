//! `Command::Autoplay`: a player hands their seat to the server's bot (at
//! a level) or takes it back, until the game is over. A forfeited seat
//! stays the bot's; asking for what already is appends nothing.

use super::command::{Change, Decision, State};
use super::shared::game_expired;
use crate::db::models::SeatChange;
use crate::games::log;
use crate::games::seats::seat_of;
use crate::games::status::{BotLevel, GameStatus};
use crate::service_error::ServiceError;

/// Autoplay on (at `level`) or off for the caller's seat, until the game
/// is over; a forfeited seat stays the bot's. Nothing when it is already
/// so.
pub(super) fn decide_autoplay(
    state: &State<'_>,
    player_id: &str,
    enabled: bool,
    level: BotLevel,
) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    match state.row.status {
        GameStatus::Finished => {
            return Err(ServiceError::conflict("game_over", "the game is over"));
        }
        GameStatus::Expired => return Err(game_expired()),
        GameStatus::Open | GameStatus::InProgress => {}
    }
    let mut after = state.seats.to_vec();
    let Some(held) = after
        .iter_mut()
        .find(|s| s.seat.seat == i32::from(seat.number()))
    else {
        return Err(ServiceError::internal("seat missing from its own list"));
    };
    if held.seat.forfeited && !enabled {
        return Err(ServiceError::conflict(
            "seat_forfeited",
            "this seat forfeited on a deadline; the bot plays it to the end",
        ));
    }
    // A forfeited seat is played by the bot it was handed to.
    let level = if held.seat.forfeited {
        held.seat.bot_level
    } else {
        level
    };
    if held.seat.autoplay == enabled && (!enabled || held.seat.bot_level == level) {
        return Ok(Decision::Nothing);
    }
    held.seat.autoplay = enabled;
    if enabled {
        held.seat.bot_level = level;
    }
    let level = held.seat.bot_level;
    Ok(Decision::Change(Change {
        events: vec![log::autoplay(seat, player_id, enabled.then_some(level))],
        status: state.row.status,
        next: None,
        seats: after,
        seat_change: Some(SeatChange::Autoplay {
            seat: i32::from(seat.number()),
            player_id: player_id.to_owned(),
            enabled,
            forfeit: false,
            level,
        }),
        // The bot now plays this seat, maybe at once.
        wakes_bots: enabled,
    }))
}
