//! `Command::Move`: a person's move. Their seat must be the one to act in
//! a game in progress, at the version they decided on (`If-Match`), and
//! the engine must take it.

use serde_json::Value;

use super::command::{Decision, State};
use super::shared::{change_after, game_expired, play_on_copy};
use crate::games::any_game::MoveRefusal;
use crate::games::log::Actor;
use crate::games::seats::{bot_seats, seat_of};
use crate::games::status::GameStatus;
use crate::service_error::{Refusal, ServiceError};

/// A person's move: their seat must be the one to act in a game in
/// progress, at the version they decided on, and the engine must take it.
pub(super) fn decide_move(
    state: &State<'_>,
    player_id: &str,
    mv: &Value,
    if_match: Option<i64>,
) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    // No seat must act in a game that has not started or is closed: every
    // refusal of a move names its ruling, and this one is G-4's.
    let closed = match state.row.status {
        GameStatus::Open => Some(ServiceError::conflict(
            "game_not_started",
            "the game starts when every seat is filled",
        )),
        GameStatus::Finished => Some(ServiceError::conflict("game_over", "the game is over")),
        GameStatus::Expired => Some(game_expired()),
        GameStatus::InProgress => None,
    };
    if let Some(refusal) = closed {
        return Err(refusal.citing("G-4"));
    }
    if let Some(expected) = if_match
        && expected != state.version
    {
        return Err(ServiceError::PreconditionFailed {
            current_version: state.version,
        });
    }
    // One play decides both: a seat that need not act is told the engine's
    // more specific ruling from the refusal itself (a dealer who bids:
    // LH-5, a second pass: CH-3), else G-4's.
    let to_act = state.game.to_act().contains(seat);
    let next = match play_on_copy(state.game, seat, mv) {
        Ok(next) if to_act => next,
        Ok(_) => return Err(not_your_turn(None)),
        Err(refusal) if !to_act => return Err(not_your_turn(Some(&refusal))),
        Err(refusal) => return Err(refusal.into()),
    };
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let mut change = change_after(state, state.seats, seat, next, &actor);
    // After a person's move the turn may be a bot's.
    change.wakes_bots = !bot_seats(state.seats).is_empty();
    Ok(Decision::Change(change))
}

/// `409 not_your_turn` for a seat that need not act now (G-4), citing the
/// engine's more specific ruling when its refusal has one: a dealer who
/// bids is told LH-5 and a second pass CH-3.
fn not_your_turn(refusal: Option<&MoveRefusal>) -> ServiceError {
    let rule = match refusal {
        Some(MoveRefusal::Rule {
            rule: Some(rule), ..
        }) => *rule,
        _ => "G-4",
    };
    ServiceError::Conflict(Refusal {
        code: "not_your_turn",
        rule: Some(rule),
        message: format!("your seat has nothing to do now ({rule})"),
    })
}
