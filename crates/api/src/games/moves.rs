//! Moves, by people and by bots: the commands' decisions, run through the
//! one write path (`write.rs`).

use std::sync::Arc;

use cards::Seat;
use serde_json::Value;

use super::any_game::{AnyGame, MoveRefusal, Played, Refused};
use super::bots::BotPlan;
use super::error::{Refusal, ServiceError};
use super::log::{self, Actor};
use super::service::{GameService, bot_level_of, bot_seats, forfeited_seats, seat_of};
use super::status::{BotLevel, GameStatus};
use super::write::{Change, Command, Decision, Render, State};
use crate::db::models::{GameRow, SeatWithName};
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
    ///
    /// A random or sensible bot's move is decided in the write path. An
    /// expert's is thought out first, off the write path (`bots::think`),
    /// on a snapshot, and then played only if the game is still at the
    /// version it thought about; otherwise it thinks again (at most
    /// `MAX_ATTEMPTS` times: every miss means the game moved on).
    pub(super) async fn bot_step(self: &Arc<Self>, game_id: &str) -> Result<bool, ServiceError> {
        let outcome = self
            .execute(game_id, &Command::BotTurn { plan: None }, None, None)
            .await?;
        if outcome.appended() {
            return Ok(true);
        }
        for _ in 0..super::write::MAX_ATTEMPTS {
            let snapshot = self.snapshot(game_id).await?;
            let Some(seat) = expert_to_act(&snapshot.row, &snapshot.seats, &*snapshot.game) else {
                return Ok(false);
            };
            let version = snapshot.row.version;
            let Some(plan) = self
                .think(
                    snapshot.game,
                    &snapshot.row.seed,
                    version,
                    seat,
                    &snapshot.row.created_by,
                )
                .await?
            else {
                return Ok(false);
            };
            let command = Command::BotTurn { plan: Some(&plan) };
            if self
                .execute(game_id, &command, None, None)
                .await?
                .appended()
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The bot seat (or seat on autoplay) the server plays next, if one must
/// act: the lowest such seat in `to_act`.
fn bot_to_act(row: &GameRow, seats: &[SeatWithName], game: &dyn AnyGame) -> Option<Seat> {
    if row.status != GameStatus::InProgress {
        return None;
    }
    let bots = bot_seats(seats);
    game.to_act().iter().find(|s| bots.contains(*s))
}

/// The seat the server plays next, if it must act and is the expert's.
fn expert_to_act(row: &GameRow, seats: &[SeatWithName], game: &dyn AnyGame) -> Option<Seat> {
    bot_to_act(row, seats, game).filter(|&seat| bot_level_of(seats, seat) == BotLevel::Expert)
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
    // No seat must act in a game that has not started or is closed: every
    // refusal of a move names its ruling, and this one is G-4's.
    let closed = match state.row.status {
        GameStatus::Open => Some(ServiceError::conflict(
            "game_not_started",
            "the game starts when every seat is filled",
        )),
        GameStatus::Finished => Some(ServiceError::conflict("game_over", "the game is over")),
        GameStatus::Expired => Some(super::expiry::refused()),
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
        Err(refused) if !to_act => return Err(not_your_turn(Some(&refused.refusal))),
        Err(refused) => return Err(refused.refusal.into()),
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

/// A bot's move for the first bot seat (or seat on autoplay) that must act,
/// at that seat's level. An expert's move is the `plan` it thought out for
/// this very version and seat; without one, nothing (the driver thinks
/// first, `GameService::bot_step`).
pub(super) fn decide_bot_turn(
    state: &State<'_>,
    plan: Option<&BotPlan>,
) -> Result<Decision, ServiceError> {
    let Some(seat) = bot_to_act(state.row, state.seats, state.game) else {
        return Ok(Decision::Nothing);
    };
    let mv = match bot_level_of(state.seats, seat) {
        BotLevel::Expert => match plan {
            Some(plan) if plan.seat == seat && plan.version == state.version => plan.mv.clone(),
            _ => return Ok(Decision::Nothing),
        },
        level => {
            let mut rng = super::bots::rng_for(&state.row.seed, state.version, seat);
            // Only the expert has a budget, and it is not played here.
            match state.game.bot_move_at(level.engine(), seat, None, &mut rng) {
                Some(mv) => mv,
                None => return Ok(Decision::Nothing),
            }
        }
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
    let next = play_on_copy(state.game, seat, mv).map_err(|refused| refused.refusal)?;
    Ok(change_after(state, seats, seat, next, actor))
}

/// `mv` played for `seat` by value on a copy of `game`: the next state, or
/// the refusal (the copy is dropped with it). The one copy of a move: the
/// write path decides on the cached state and keeps it until the append
/// commits (a lost race catches it up from the log; the webhook outbox
/// compares each seat's prompt before and after).
fn play_on_copy(game: &dyn AnyGame, seat: Seat, mv: &Value) -> Result<Played, Refused> {
    game.clone_box().play(seat, mv)
}

/// The change a played move makes: its event, and the game's end if it
/// ends the game.
fn change_after(
    state: &State<'_>,
    seats: &[SeatWithName],
    seat: Seat,
    Played { next, played }: Played,
    actor: &Actor,
) -> Change {
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
    Change {
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
    }
}

/// `409 not_your_turn` for a seat that need not act now (G-4), citing the
/// ruling of the engine's `refusal` of its move when it names one.
fn not_your_turn(refusal: Option<&MoveRefusal>) -> ServiceError {
    let rule = match refusal {
        Some(MoveRefusal::Rule {
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
