//! Moves, by people and by bots: the commands' decisions, run through the
//! one write path (`write.rs`).

use std::sync::Arc;

use cards::Seat;
use serde_json::Value;

use super::any_game::MoveRefusal;
use super::error::{Refusal, ServiceError};
use super::log::{self, Actor};
use super::service::{GameService, bot_seats, forfeited_seats, seat_of};
use super::status::GameStatus;
use super::write::{Change, Command, Decision, Render, State};
use crate::db::models::SeatWithName;
use crate::idempotency::{IdemRequest, Stored};

impl GameService {
    /// Plays `mv` for the seat `player_id` holds. `if_match`: the version the
    /// client saw; refused when the game has moved on since.
    pub async fn play(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        mv: &Value,
        if_match: Option<i64>,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Move {
            player_id,
            mv,
            if_match,
        };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }

    /// Plays one bot move if a bot seat must act; false when none must.
    pub(super) async fn bot_step(self: &Arc<Self>, game_id: &str) -> Result<bool, ServiceError> {
        let outcome = self.execute(game_id, &Command::BotTurn, None, None).await?;
        Ok(outcome.appended())
    }
}

/// A person's move: their seat must be the one to act in a game in
/// progress, at the version they decided on, and the engine must take it.
pub(super) fn decide_move(
    state: &State<'_>,
    player_id: &str,
    mv: &Value,
    if_match: Option<i64>,
) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    match state.row.status {
        GameStatus::Open => {
            return Err(ServiceError::conflict(
                "game_not_started",
                "the game starts when every seat is filled",
            ));
        }
        GameStatus::Finished => {
            return Err(ServiceError::conflict("game_over", "the game is over"));
        }
        GameStatus::Expired => return Err(super::expiry::refused()),
        GameStatus::InProgress => {}
    }
    if let Some(expected) = if_match
        && expected != state.version
    {
        return Err(ServiceError::PreconditionFailed {
            current_version: state.version,
        });
    }
    if !state.game.to_act().contains(seat) {
        return Err(not_your_turn(state, seat, mv));
    }
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let mut change = played(state, state.seats, seat, mv, &actor)?;
    // After a person's move the turn may be a bot's.
    change.wakes_bots = !bot_seats(state.seats).is_empty();
    Ok(Decision::Change(change))
}

/// A bot's move for the first bot seat (or seat on autoplay) that must act.
pub(super) fn decide_bot_turn(state: &State<'_>) -> Result<Decision, ServiceError> {
    if state.row.status != GameStatus::InProgress {
        return Ok(Decision::Nothing);
    }
    let bots = bot_seats(state.seats);
    let Some(seat) = state.game.to_act().iter().find(|s| bots.contains(*s)) else {
        return Ok(Decision::Nothing);
    };
    let mut rng = super::bots::rng_for(&state.row.seed, state.version, seat);
    let Some(mv) = state.game.bot_move(seat, &mut rng) else {
        return Ok(Decision::Nothing);
    };
    // The bot driver loops on its own: no kick.
    played(state, state.seats, seat, &mv, &Actor::Bot { seat }).map(Decision::Change)
}

/// `mv` for `seat`, checked by the engine (a refusal names its ruling,
/// G-3), and the game's end if it ends the game; `seats`: the seats after
/// the change (a deadline may have marked one).
pub(super) fn played(
    state: &State<'_>,
    seats: &[SeatWithName],
    seat: Seat,
    mv: &Value,
    actor: &Actor,
) -> Result<Change, ServiceError> {
    let mut next = state.game.clone_box();
    let played = next.play(seat, mv)?;
    let mut events = vec![log::moved(seat, played, actor)];
    let finished = next.outcome().is_some();
    if finished {
        events.push(log::game_finished(
            &*next,
            &state.row.seed,
            &log::entropy_by_seat(seats),
            forfeited_seats(seats),
        ));
    }
    Ok(Change {
        events,
        status: if finished {
            GameStatus::Finished
        } else {
            GameStatus::InProgress
        },
        next: Some(next),
        seats: seats.to_vec(),
        seat_change: None,
        wakes_bots: false,
    })
}

/// `409 not_your_turn` for a seat that need not act now (G-4), citing the
/// engine's more specific ruling when it has one: it is asked on a copy of
/// the state, so a dealer who bids is told LH-5 and a second pass CH-3.
fn not_your_turn(state: &State<'_>, seat: Seat, mv: &Value) -> ServiceError {
    let rule = match state.game.clone_box().play(seat, mv) {
        Err(MoveRefusal::Rule {
            rule: Some(rule), ..
        }) => rule,
        _ => "G-4",
    };
    ServiceError::Conflict(Refusal {
        code: "not_your_turn",
        rule: Some(rule),
        message: format!("your seat has nothing to do now ({rule})"),
    })
}
