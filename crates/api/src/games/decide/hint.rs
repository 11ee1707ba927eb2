//! `Command::Hint`: the expert's hint, thought out for one version of the
//! game (`games/hints.rs`), logged as `hint_given`, private to the seat
//! while the game runs. The game must allow hints (never a rated one), be
//! in progress, the seat must act, and the game must still be at the
//! version the hint was thought on (else the service thinks again).

use cards::Seat;
use serde_json::Value;

use super::command::{Change, Decision, State};
use super::shared::game_expired;
use crate::games::log;
use crate::games::seats::seat_of;
use crate::games::status::GameStatus;
use crate::service_error::ServiceError;

/// The refusal of a hint thought on a version the game has moved past: the
/// service thinks again (`games/hints.rs`), and answers it only after
/// several tries.
pub const MOVED_ON: &str = "game_moved_on";

/// Logs the hint `mv` for the seat `player_id` holds (`seat`, as the
/// service found it), at `ply`, thought on `version`.
pub(super) fn decide_hint(
    state: &State<'_>,
    player_id: &str,
    seat: Seat,
    ply: u32,
    mv: &Value,
    version: i64,
) -> Result<Decision, ServiceError> {
    let held = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    hint_allowed(state.row.hints_allowed, state.row.status)?;
    must_act(state.game.to_act().contains(held))?;
    if held != seat || state.version != version {
        return Err(ServiceError::conflict(
            MOVED_ON,
            "the game moved on while the hint was thought out; ask again",
        ));
    }
    Ok(Decision::Change(Change {
        events: vec![log::hint_given(seat, player_id, ply, mv.clone())],
        status: state.row.status,
        next: None,
        seats: state.seats.to_vec(),
        seat_change: None,
        wakes_bots: false,
    }))
}

/// Whether a game with these settings gives hints now: it allows them
/// (403 `hints_not_allowed`; rated games never do) and runs (409, the
/// codes a move is refused with).
pub fn hint_allowed(hints_allowed: bool, status: GameStatus) -> Result<(), ServiceError> {
    if !hints_allowed {
        return Err(hints_not_allowed());
    }
    match status {
        GameStatus::InProgress => Ok(()),
        GameStatus::Open => Err(ServiceError::conflict(
            "game_not_started",
            "the game starts when every seat is filled",
        )),
        GameStatus::Finished => Err(ServiceError::conflict("game_over", "the game is over")),
        GameStatus::Expired => Err(game_expired()),
    }
}

/// 409 `not_your_turn` (G-4) for a seat with nothing to decide now.
pub fn must_act(to_act: bool) -> Result<(), ServiceError> {
    match to_act {
        true => Ok(()),
        false => Err(ServiceError::conflict(
            "not_your_turn",
            "your seat has nothing to decide now: a hint is for a decision you must make",
        )
        .citing("G-4")),
    }
}

/// 403 `hints_not_allowed`.
fn hints_not_allowed() -> ServiceError {
    ServiceError::forbidden(
        "hints_not_allowed",
        "this game was created without hints (rated games never allow them)",
    )
}
