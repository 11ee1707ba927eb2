//! Expiry of players nobody ever used (issue 12): registering is anonymous
//! and free, so a player that never created, joined or played a game is
//! removed once `IDLE_PLAYER_TTL_SECS` have passed since it registered (its
//! token then answers 401 `unknown_player`).
//!
//! Only players nothing refers to are removed (no seat, no game created,
//! no logged action, no stored idempotent answer), in one `DELETE` per
//! batch, so the append-only log is never touched and any number of
//! processes may sweep at once: a row already gone is simply not deleted
//! again, and a player who joins a game while being swept keeps it (the
//! seat's foreign key makes the batch's `DELETE` fail, and the next sweep
//! finds the player in use).
//!
//! Abandoned open games are not expired here: an open game's log holds its
//! seat events, which the log's trigger forbids deleting, so expiring one
//! means a new terminal status and event (a migration), not a delete.

use std::time::Duration;

use chrono::Utc;

use crate::db::Db;

/// Players removed per statement: keeps each sweep's transaction short.
const BATCH: i64 = 500;

/// The longest pause between sweeps (shorter for a short TTL, so a test's
/// tiny TTL is honoured promptly).
const MAX_PAUSE: Duration = Duration::from_secs(60);

/// The pause between two sweeps for `ttl`: a tenth of it, at most a minute
/// and at least 100 ms.
fn pause(ttl: Duration) -> Duration {
    (ttl / 10).clamp(Duration::from_millis(100), MAX_PAUSE)
}

/// One sweep: removes every unused player registered more than `ttl` ago,
/// in batches of [`BATCH`]; returns how many went.
pub async fn sweep(db: &Db, ttl: Duration) -> Result<usize, crate::db::DbError> {
    let cutoff = Utc::now() - chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::MAX);
    let mut removed = 0;
    loop {
        let batch = db.delete_unused_players(cutoff, BATCH).await?;
        removed += batch;
        if batch < BATCH as usize {
            return Ok(removed);
        }
    }
}

/// Sweeps forever on the current runtime (`ttl`: `None` never expires
/// anyone). A failed sweep (the database away, a player who just joined a
/// game) is logged and tried again at the next one.
pub fn spawn(db: Db, ttl: Option<Duration>) {
    let Some(ttl) = ttl else { return };
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(pause(ttl)).await;
            match sweep(&db, ttl).await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(removed, "expired unused players"),
                Err(e) => tracing::warn!(error = %e, "player expiry sweep failed"),
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
}
