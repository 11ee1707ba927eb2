//! Nothing the server stores for nobody grows without bound: rows nobody
//! will read again must not fill the database of a server that runs for
//! years. One sweep, run by every process on its own schedule, does five
//! things, each in bounded batches:
//!
//! 1. **Idempotency records** older than `IDEMPOTENCY_TTL_SECS` are deleted
//!    (and from that moment no longer replay even before they are: the
//!    lookup ignores and removes an expired one, `Db::idempotency`). This
//!    comes first so that an expired record never keeps a player alive.
//! 2. **Open games** nobody changed for `OPEN_GAME_TTL_SECS` are closed: a
//!    [`Command::ExpireIfIdle`] run through the one write path (decided in
//!    `decide/expire_if_idle.rs`) appends
//!    `game_expired` (actor: the server) and sets the status `expired`.
//!    Nothing is deleted (the log is append-only). It is decided under the
//!    version guard, so a join racing the expiry either lands first (the
//!    game changed: nothing expires) or is refused with 409
//!    `game_expired`, never both; and two processes sweeping at once
//!    expire a game once (the loser finds it no longer open).
//! 3. **Players nobody ever used** are removed once `IDLE_PLAYER_TTL_SECS`
//!    have passed since they registered (their token then answers 401
//!    `unknown_player`). Only players nothing refers to are removed (no
//!    seat, no game created, no logged action, no stored idempotent
//!    answer), in one `DELETE` per batch, so the append-only log is never
//!    touched and any number of processes may sweep at once: a row already
//!    gone is simply not deleted again, and a player who joins a game while
//!    being swept keeps it (the seat's foreign key makes the batch's
//!    `DELETE` fail, and the next sweep finds the player in use).
//!
//! 4. **Logged-out tokens** whose expiry has passed are forgotten (an
//!    expired token is refused by its `exp` anyway); every logout purges
//!    them too (`db::tokens`).
//!
//! 5. **Webhook deliveries** delivered or given up more than
//!    `WEBHOOK_RETENTION_SECS` ago are deleted (the delivery log's tail),
//!    and deadline-warning markers older than that and than the longest
//!    move clock (30 days: their clock has run out) (`db::webhooks`).
//!
//! And **invite links** a day past their expiry are deleted, pending
//! **challenges** past theirs end `expired` and ended ones are deleted a day
//! later (before the players, whom a link or a challenge keeps;
//! `db::invites`, `games::challenges`, docs/invites-and-challenges.md).
//!
//! The log and finished games are kept: they are the product.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::error::ServiceError;
use super::service::GameService;
use super::write::Command;
use crate::db::{Db, DbError};

/// Rows handled per statement (players, idempotency records) and open
/// games read per look: keeps each transaction short.
const BATCH: i64 = 500;

/// The longest pause between sweeps (shorter for a short TTL, so a test's
/// tiny TTL is honoured promptly).
const MAX_PAUSE: Duration = Duration::from_secs(60);

/// How long each kind of row lives unused; `None`: for ever.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ttls {
    pub idle_player: Option<Duration>,
    pub open_game: Option<Duration>,
    pub idempotency: Option<Duration>,
    /// Finished webhook deliveries (and deadline-warning markers).
    pub webhook_deliveries: Option<Duration>,
}

impl Ttls {
    /// The pause between two sweeps: that of the shortest TTL; `None` when
    /// nothing expires.
    fn pause(&self) -> Option<Duration> {
        [
            self.idle_player,
            self.open_game,
            self.idempotency,
            self.webhook_deliveries,
        ]
        .into_iter()
        .flatten()
        .min()
        .map(pause)
    }
}

/// What one sweep removed or closed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub idempotency_records: usize,
    pub open_games: usize,
    pub players: usize,
    pub revoked_tokens: usize,
    pub webhook_deliveries: usize,
    /// Invite links deleted a day after they expired.
    pub invites: usize,
    /// Challenges ended by their expiry, and deleted a day after they ended.
    pub challenges_expired: usize,
    pub challenges_deleted: usize,
}

/// The pause between two sweeps for `ttl`: a tenth of it, at most a minute
/// and at least 100 ms.
fn pause(ttl: Duration) -> Duration {
    (ttl / 10).clamp(Duration::from_millis(100), MAX_PAUSE)
}

/// `ttl` before now (the distant past for a TTL too long to subtract).
fn cutoff(ttl: Duration) -> DateTime<Utc> {
    super::decide::cutoff(Utc::now(), ttl)
}

impl GameService {
    /// Closes `game_id` if it is open and nobody changed it for `ttl`;
    /// false when there was nothing to do. The sweep calls it; it is
    /// public so that tests can race it with a join.
    pub async fn expire_if_idle(
        self: &Arc<Self>,
        game_id: &str,
        ttl: Duration,
    ) -> Result<bool, ServiceError> {
        let outcome = self
            .execute(game_id, &Command::ExpireIfIdle { ttl }, None, None)
            .await?;
        Ok(outcome.appended())
    }

    /// One sweep (all four steps, in that order).
    pub async fn expiry_sweep(self: &Arc<Self>, ttls: &Ttls) -> Result<Swept, ServiceError> {
        let mut swept = Swept::default();
        if let Some(ttl) = ttls.idempotency {
            swept.idempotency_records = purge_idempotency(&self.db, ttl).await?;
        }
        if let Some(ttl) = ttls.open_game {
            swept.open_games = self.expire_idle_open_games(ttl).await?;
        }
        // Before the players: a link's minter is kept while it is.
        let spent_links = cutoff(super::invites::EXPIRED_INVITE_RETENTION);
        swept.invites = in_batches(|| self.db.delete_expired_invites(spent_links, BATCH)).await?;
        (swept.challenges_expired, swept.challenges_deleted) = self.challenge_sweep().await?;
        if let Some(ttl) = ttls.idle_player {
            swept.players = delete_unused_players(&self.db, ttl).await?;
        }
        swept.revoked_tokens = in_batches(|| self.db.purge_expired_revocations(BATCH)).await?;
        if let Some(ttl) = ttls.webhook_deliveries {
            // A marker goes only once its clock must have run out (no
            // clock is longer than the longest allowed): a marker of a
            // clock still running would let its warning be sent again.
            let longest = Duration::from_secs(super::domain::MAX_MOVE_DEADLINE_SECS);
            let (deliveries, markers) = (cutoff(ttl), cutoff(ttl.max(longest)));
            swept.webhook_deliveries =
                in_batches(|| self.db.purge_deliveries(deliveries, markers, BATCH)).await?;
        }
        Ok(swept)
    }

    /// Closes every open game idle for `ttl`, a batch of ids at a time;
    /// a game that fails (the database away) is logged and left to the
    /// next sweep. Returns how many this process closed.
    async fn expire_idle_open_games(
        self: &Arc<Self>,
        ttl: Duration,
    ) -> Result<usize, ServiceError> {
        let mut closed = 0;
        loop {
            let batch = self.db.idle_open_games(cutoff(ttl), BATCH).await?;
            let mut progress = false;
            for game_id in &batch {
                match self.expire_if_idle(game_id, ttl).await {
                    Ok(true) => closed += 1,
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(game_id, error = %e, "open game expiry failed");
                        continue;
                    }
                }
                // Closed here or elsewhere, or changed since: gone from
                // the next look either way.
                progress = true;
            }
            if batch.len() < BATCH as usize || !progress {
                return Ok(closed);
            }
        }
    }
}

/// Deletes every idempotency record older than `ttl`, [`BATCH`] per
/// statement; returns how many went.
pub async fn purge_idempotency(db: &Db, ttl: Duration) -> Result<usize, DbError> {
    in_batches(|| db.purge_idempotency(cutoff(ttl), BATCH)).await
}

/// Removes every unused player registered more than `ttl` ago, [`BATCH`]
/// per statement; returns how many went.
pub async fn delete_unused_players(db: &Db, ttl: Duration) -> Result<usize, DbError> {
    in_batches(|| db.delete_unused_players(cutoff(ttl), BATCH)).await
}

/// Runs `delete` (one bounded batch) until a batch is not full.
async fn in_batches<F>(mut delete: impl FnMut() -> F) -> Result<usize, DbError>
where
    F: Future<Output = Result<usize, DbError>>,
{
    let mut removed = 0;
    loop {
        let batch = delete().await?;
        removed += batch;
        if batch < BATCH as usize {
            return Ok(removed);
        }
    }
}

/// Sweeps until the service stops (nothing when nothing expires). A failed
/// sweep (the database away, a player who just joined a game) is logged
/// and tried again at the next one.
pub fn spawn(games: Arc<GameService>, ttls: Ttls) {
    let Some(every) = ttls.pause() else { return };
    tokio::spawn(async move {
        let mut stop = games.shutdown.subscribe();
        while !*stop.borrow() {
            tokio::select! {
                _ = stop.changed() => continue,
                _ = tokio::time::sleep(every) => {}
            }
            match games.expiry_sweep(&ttls).await {
                Ok(swept) if swept == Swept::default() => {}
                Ok(swept) => tracing::info!(?swept, "expired unused rows"),
                Err(e) => tracing::warn!(error = %e, "expiry sweep failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_come_often_enough_for_the_ttl_and_not_too_often() {
        assert_eq!(pause(Duration::from_secs(1)), Duration::from_millis(100));
        assert_eq!(pause(Duration::from_secs(100)), Duration::from_secs(10));
        assert_eq!(pause(Duration::from_secs(30 * 24 * 3600)), MAX_PAUSE);
        assert_eq!(pause(Duration::ZERO), Duration::from_millis(100));
    }

    #[test]
    fn the_shortest_ttl_sets_the_pace_and_none_means_no_sweep() {
        assert_eq!(Ttls::default().pause(), None);
        let ttls = Ttls {
            idle_player: Some(Duration::from_secs(3600)),
            open_game: None,
            idempotency: Some(Duration::from_secs(20)),
            webhook_deliveries: None,
        };
        assert_eq!(ttls.pause(), Some(Duration::from_secs(2)));
    }

    #[test]
    fn a_ttl_too_long_to_subtract_keeps_everything() {
        assert_eq!(cutoff(Duration::MAX), DateTime::<Utc>::MIN_UTC);
        assert!(cutoff(Duration::from_secs(60)) < Utc::now());
    }
}
