//! `Command::Join`: a player takes a seat of an open game (the one they
//! chose, the one a rematch reserved for them, or the lowest open one); the
//! game is dealt again with their entropy, and starts when the last seat
//! fills.

use cards::Seat;

use super::command::{Change, Decision, State};
use super::shared::{game_expired, redeal};
use crate::db::models::{InviteUse, PlayerRow, SeatChange, SeatWithName};
use crate::games::log::{self, Actor};
use crate::games::seats::seat_of;
use crate::games::status::GameStatus;
use crate::service_error::ServiceError;

/// Joining: the player holds no seat yet, the game is open, and the seat
/// (chosen, or the lowest open one) is open. The deal mixes in every
/// seat's entropy, so the game is dealt again.
pub(super) fn decide_join(
    state: &State<'_>,
    player: &PlayerRow,
    wanted: Option<u8>,
    entropy: Option<&str>,
) -> Result<Decision, ServiceError> {
    let seats = state.seats;
    if seat_of(seats, &player.id).is_some() {
        return Err(ServiceError::conflict(
            "already_seated",
            "you already hold a seat in this game",
        ));
    }
    match state.row.status {
        GameStatus::Open => {}
        GameStatus::Expired => return Err(game_expired()),
        GameStatus::InProgress | GameStatus::Finished => {
            return Err(ServiceError::conflict(
                "game_not_open",
                "the game has already started",
            ));
        }
    }
    let index = seat_to_join(seats, wanted, &player.id)?;
    let mut after = seats.to_vec();
    after[index].seat.player_id = Some(player.id.clone());
    after[index].seat.entropy = entropy.map(str::to_owned);
    after[index].display_name = Some(player.display_name.clone());
    let next = redeal(state.row, &after)?;
    let seat_number = after[index].seat.seat;
    let seat = Seat::new(u8::try_from(seat_number).unwrap_or(0));
    let actor = Actor::Player {
        player_id: player.id.clone(),
        seat: Some(seat),
    };
    let mut events = vec![log::seat_taken(seat, &player.id, &actor)];
    let full = !after.iter().any(is_open);
    if full {
        events.push(log::game_started(&state.row.seed_commitment, next.to_act()));
    }
    Ok(Decision::Change(Change {
        events,
        status: if full {
            GameStatus::InProgress
        } else {
            GameStatus::Open
        },
        next: Some(next),
        seats: after,
        seat_change: Some(SeatChange::Take {
            seat: seat_number,
            player_id: player.id.clone(),
            entropy: entropy.map(str::to_owned),
            invite: None,
        }),
        // The last seat filled: a bot may open the game.
        wakes_bots: full,
    }))
}

/// Joining through an invite link: decided as a join for the seat the
/// link names (or, naming none, the seat a plain join takes), and the
/// link's use is counted with the seat (`SeatChange::Take`'s `invite`).
pub(super) fn decide_join_by_invite(
    state: &State<'_>,
    player: &PlayerRow,
    seat: Option<u8>,
    entropy: Option<&str>,
    invite: &InviteUse,
) -> Result<Decision, ServiceError> {
    let mut decision = decide_join(state, player, seat, entropy)?;
    if let Decision::Change(change) = &mut decision
        && let Some(SeatChange::Take { invite: used, .. }) = &mut change.seat_change
    {
        *used = Some(invite.clone());
    }
    Ok(decision)
}

/// A seat nobody holds and no bot plays.
fn is_open(s: &SeatWithName) -> bool {
    !s.seat.is_bot && s.seat.player_id.is_none()
}

/// The index of the seat to take: the wanted one if it is open (and not
/// reserved for another player, a rematch's seat), else the seat reserved
/// for `player_id`, else the lowest open seat reserved for nobody.
fn seat_to_join(
    seats: &[SeatWithName],
    wanted: Option<u8>,
    player_id: &str,
) -> Result<usize, ServiceError> {
    let reserved_for = |s: &SeatWithName| s.seat.invited_player_id.clone();
    let Some(w) = wanted else {
        let mine = seats
            .iter()
            .position(|s| is_open(s) && reserved_for(s).as_deref() == Some(player_id));
        return mine
            .or_else(|| {
                seats
                    .iter()
                    .position(|s| is_open(s) && reserved_for(s).is_none())
            })
            .ok_or_else(|| ServiceError::conflict("no_open_seat", "every seat is taken"));
    };
    if let Some(s) = seats.iter().find(|s| s.seat.seat == i32::from(w))
        && is_open(s)
        && reserved_for(s).is_some_and(|p| p != player_id)
    {
        return Err(ServiceError::conflict(
            "seat_reserved",
            "this seat of a rematch is reserved for the player who held it",
        ));
    }
    match seats.iter().position(|s| s.seat.seat == i32::from(w)) {
        None => Err(ServiceError::invalid(
            "no_such_seat",
            format!("seats are numbered 0 to {}", seats.len().saturating_sub(1)),
        )),
        Some(i) if !is_open(&seats[i]) => Err(ServiceError::conflict(
            "seat_taken",
            "that seat is not open",
        )),
        Some(i) => Ok(i),
    }
}
