//! Read-your-writes with a replica: when each player last wrote, as far as
//! this process knows (their own requests here, and appends to their games
//! heard from other processes), kept only as long as a read may lag
//! (`DB_REPLICA_MAX_LAG_MS`). A player's reads that may go to the replica
//! must then see the commits made before that instant
//! (`ReadConsistency::Recent { after }`): until the replica has them they
//! are the primary's.
//!
//! Bounded: at most [`MAX_WRITERS`] players; when more wrote within the
//! lag bound, a write not kept counts for every player (the instant of the
//! last one dropped is everyone's `after`), so nobody reads around their
//! own write, at the price of more reads on the primary for a moment.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Players whose last write is remembered at once.
pub const MAX_WRITERS: usize = 100_000;

#[derive(Debug, Default)]
pub struct RecentWrites {
    /// How long a write is remembered: the replica's lag bound; `None`
    /// (no replica): nothing is.
    window: Option<Duration>,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    at: HashMap<String, Instant>,
    /// The last write that could not be kept (the map full).
    dropped_at: Option<Instant>,
    /// When the full map was last swept of writes older than the window:
    /// at most once per [`PRUNE_EVERY`], so a full map costs a write one
    /// sweep a spell, not one each.
    pruned_at: Option<Instant>,
}

/// The least time between two sweeps of a full map.
const PRUNE_EVERY: Duration = Duration::from_millis(100);

impl RecentWrites {
    /// Remembers writes for `window` (the replica's lag bound), or none.
    pub fn new(window: Option<Duration>) -> Self {
        RecentWrites {
            window,
            inner: Mutex::default(),
        }
    }

    fn locked(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `player_id` wrote, and the write was committed, by `now`.
    pub fn wrote(&self, player_id: &str, now: Instant) {
        let Some(window) = self.window else { return };
        let mut inner = self.locked();
        if let Some(at) = inner.at.get_mut(player_id) {
            *at = (*at).max(now);
            return;
        }
        let may_prune = inner
            .pruned_at
            .is_none_or(|at| now.saturating_duration_since(at) >= PRUNE_EVERY);
        if inner.at.len() >= MAX_WRITERS && may_prune {
            inner
                .at
                .retain(|_, at| now.saturating_duration_since(*at) <= window);
            inner.pruned_at = Some(now);
        }
        if inner.at.len() >= MAX_WRITERS {
            inner.dropped_at = Some(now);
            return;
        }
        inner.at.insert(player_id.to_owned(), now);
    }

    /// The commits `player_id`'s reads must see: their last write still
    /// within the window, if any (`None` for a reader without a token).
    pub fn since(&self, player_id: Option<&str>, now: Instant) -> Option<Instant> {
        let window = self.window?;
        let player_id = player_id?;
        let inner = self.locked();
        let recent = |at: &Instant| now.saturating_duration_since(*at) <= window;
        let own = inner.at.get(player_id).copied().filter(recent);
        let dropped = inner.dropped_at.filter(recent);
        own.max(dropped)
    }

    /// How many players are remembered now.
    pub fn len(&self) -> usize {
        self.locked().at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = Duration::from_millis(1000);

    #[test]
    fn without_a_replica_nothing_is_kept() {
        let writes = RecentWrites::new(None);
        let now = Instant::now();
        writes.wrote("p", now);
        assert!(writes.is_empty());
        assert_eq!(writes.since(Some("p"), now), None);
    }

    #[test]
    fn a_write_counts_for_its_player_within_the_window_only() {
        let writes = RecentWrites::new(Some(WINDOW));
        let t0 = Instant::now();
        writes.wrote("p", t0);
        assert_eq!(writes.since(Some("p"), t0), Some(t0));
        assert_eq!(writes.since(Some("q"), t0), None);
        assert_eq!(writes.since(None, t0), None);
        assert_eq!(writes.since(Some("p"), t0 + WINDOW * 2), None);
        // A later write moves it on, an earlier one never back.
        let t1 = t0 + Duration::from_millis(10);
        writes.wrote("p", t1);
        writes.wrote("p", t0);
        assert_eq!(writes.since(Some("p"), t1), Some(t1));
    }

    #[test]
    fn past_the_bound_a_write_not_kept_counts_for_everyone() {
        let writes = RecentWrites::new(Some(WINDOW));
        let t0 = Instant::now();
        for i in 0..MAX_WRITERS {
            writes.wrote(&format!("p{i}"), t0);
        }
        let t1 = t0 + Duration::from_millis(1);
        writes.wrote("late", t1);
        assert_eq!(writes.len(), MAX_WRITERS);
        assert_eq!(writes.since(Some("late"), t1), Some(t1));
        assert_eq!(writes.since(Some("anyone"), t1), Some(t1));
        // Once the old ones are out of the window, room again.
        let t2 = t0 + WINDOW * 2;
        writes.wrote("later", t2);
        assert_eq!(writes.len(), 1);
        assert_eq!(writes.since(Some("later"), t2), Some(t2));
    }
}
