//! `Command::Leave`: a player gives up their seat before the game starts;
//! the game is dealt again without their entropy.

use super::command::{Change, Decision, State};
use super::shared::{game_expired, redeal};
use crate::db::models::SeatChange;
use crate::games::log;
use crate::games::seats::seat_of;
use crate::games::status::GameStatus;
use crate::service_error::ServiceError;

/// Leaving: only before the game starts; the game is dealt again without
/// the seat's entropy.
pub(super) fn decide_leave(state: &State<'_>, player_id: &str) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    if state.row.status == GameStatus::Expired {
        return Err(game_expired());
    }
    if state.row.status != GameStatus::Open {
        return Err(ServiceError::conflict(
            "game_started",
            "a seat can only be left before the game starts",
        ));
    }
    let mut after = state.seats.to_vec();
    for s in after
        .iter_mut()
        .filter(|s| s.seat.seat == i32::from(seat.number()))
    {
        s.seat.player_id = None;
        s.seat.entropy = None;
        s.display_name = None;
    }
    let next = redeal(state.row, &after)?;
    Ok(Decision::Change(Change {
        events: vec![log::seat_left(seat, player_id)],
        status: GameStatus::Open,
        next: Some(next),
        seats: after,
        seat_change: Some(SeatChange::Release {
            seat: i32::from(seat.number()),
            player_id: player_id.to_owned(),
        }),
        wakes_bots: false,
    }))
}
