//! `Command::ExpireIfIdle`: the server closes an open game nobody changed
//! for a while (`OPEN_GAME_TTL_SECS`, the sweep in `games/expiry.rs`).
//! Decided under the version guard like any change, so a join that lands
//! first leaves nothing to expire, and a join after it is refused.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::command::{Change, Decision, State};
use crate::games::log;
use crate::games::status::GameStatus;
use crate::service_error::ServiceError;

/// Closing an open game nobody changed for `ttl`: `game_expired` and the
/// status `expired`. Nothing when it is not open or changed since.
pub(super) fn decide_expiry(state: &State<'_>, ttl: Duration) -> Result<Decision, ServiceError> {
    let row = state.row;
    if row.status != GameStatus::Open || row.updated_at >= cutoff(state.now, ttl) {
        return Ok(Decision::Nothing);
    }
    Ok(Decision::Change(Change {
        events: vec![log::game_expired(ttl.as_secs())],
        status: GameStatus::Expired,
        next: None,
        seats: state.seats.to_vec(),
        seat_change: None,
        wakes_bots: false,
    }))
}

/// `ttl` before `now` (the distant past for a TTL too long to subtract):
/// what was last changed before it has been idle for `ttl`.
pub fn cutoff(now: DateTime<Utc>, ttl: Duration) -> DateTime<Utc> {
    chrono::Duration::from_std(ttl)
        .ok()
        .and_then(|ttl| now.checked_sub_signed(ttl))
        .unwrap_or(DateTime::<Utc>::MIN_UTC)
}
