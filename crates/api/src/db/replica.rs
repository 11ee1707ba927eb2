//! Reads from a streaming replica (`DATABASE_REPLICA_URL`, Postgres only):
//! how fresh a read must be, and how far behind the replica is. The reads
//! themselves are routed by `replica_reads.rs` (`Db::read`).
//!
//! The store decides which database answers a read from the read's
//! [`ReadConsistency`], never the caller: the service says how fresh a read
//! must be, and `Db::read` sends it to the replica only when the replica
//! can answer it that fresh, else (and whenever the replica fails) to the
//! primary. Writes, and every query not given a consistency, use the
//! primary as before.
//!
//! How fresh the replica is, is measured, not guessed: ten times a second
//! `Db::watch_replica` reads the primary's WAL insert position (every
//! commit acknowledged before that instant lies at or before it) and then
//! the replica's replay position. Once the replica has replayed past a
//! position sampled at instant `t`, it holds every commit made before `t`:
//! that `t` is the replica's `caught_up_to`. A read that must see
//! the commits made before some instant (the reader's own last write) goes
//! to the replica only when `caught_up_to` is past that instant, so
//! read-your-writes holds exactly for the writes the service knows of.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often the replica's lag is measured.
pub const POLL: Duration = Duration::from_millis(100);

/// Positions of the primary kept while the replica has not replayed them:
/// 6.4 s of samples. Older ones are dropped (a newer one replayed says
/// more), so a replica further behind is simply not caught up.
const SAMPLES: usize = 64;

/// How fresh a read must be. The store picks the database from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadConsistency {
    /// Every commit so far: the primary. Writes, what a write decides on,
    /// and a player's own views (their games, their seeks).
    Latest,
    /// May miss the last moment's commits: the replica while it holds
    /// every commit made up to `DB_REPLICA_MAX_LAG_MS` ago and, with
    /// `after`, every commit made before that instant (the reader's own
    /// last write); else the primary.
    Recent { after: Option<Instant> },
    /// What is final once stored (a finished game): the replica whatever
    /// its lag, as long as it answers; the caller checks that the answer
    /// is final there and reads the primary when it is not
    /// (`Db::read_where`).
    Settled,
}

/// How far behind the primary the replica is, and what it served.
#[derive(Debug)]
pub struct Lag {
    pub(super) max_lag: Duration,
    state: Mutex<State>,
    counters: Counters,
}

#[derive(Debug, Default)]
struct State {
    /// Every commit made on the primary before this instant is on the
    /// replica. `None`: not to be used (not measured yet, failing, or not
    /// a standby).
    caught_up_to: Option<Instant>,
    /// Positions sampled on the primary, oldest first, the replica has not
    /// replayed yet.
    pending: VecDeque<(Instant, u64)>,
    /// Said once in the log: the replica URL names a server not in recovery.
    not_standby_said: bool,
}

#[derive(Debug, Default)]
struct Counters {
    served: AtomicU64,
    not_there: AtomicU64,
    failed: AtomicU64,
}

/// What `/metrics` shows of the replica.
#[derive(Debug, Clone, Copy)]
pub struct ReplicaStatus {
    /// How long ago the last commit the replica surely holds was made
    /// (`None`: not usable now).
    pub lag: Option<Duration>,
    /// Reads the replica answered.
    pub served: u64,
    /// Reads it answered with what was not final there yet (a game not
    /// finished on it), read again on the primary.
    pub not_there: u64,
    /// Reads it failed (down, cut off), read again on the primary.
    pub failed: u64,
}

fn locked(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Lag {
    pub(super) fn new(max_lag: Duration) -> Lag {
        Lag {
            max_lag,
            state: Mutex::default(),
            counters: Counters::default(),
        }
    }

    /// Whether a read of `consistency` may go to the replica at `now`.
    pub(super) fn serves(&self, consistency: ReadConsistency, now: Instant) -> bool {
        let Some(caught_up_to) = locked(&self.state).caught_up_to else {
            return false;
        };
        match consistency {
            ReadConsistency::Latest => false,
            ReadConsistency::Settled => true,
            ReadConsistency::Recent { after } => {
                now.saturating_duration_since(caught_up_to) <= self.max_lag
                    && after.is_none_or(|after| caught_up_to >= after)
            }
        }
    }

    /// The primary was at `position` at `at` (or later).
    pub(super) fn sampled(&self, at: Instant, position: u64) {
        let mut state = locked(&self.state);
        state.pending.push_back((at, position));
        if state.pending.len() > SAMPLES {
            state.pending.pop_front();
        }
    }

    /// The replica has replayed up to `position`.
    pub(super) fn replayed(&self, position: u64) {
        let mut state = locked(&self.state);
        while let Some(&(at, sampled)) = state.pending.front() {
            if sampled > position {
                break;
            }
            state.pending.pop_front();
            state.caught_up_to = Some(state.caught_up_to.map_or(at, |known| known.max(at)));
        }
        state.not_standby_said = false;
    }

    /// The replica URL names a server that is not in recovery (the primary
    /// itself, or a promoted standby): its lag cannot be measured, so it
    /// serves nothing.
    pub(super) fn not_a_standby(&self) {
        let mut state = locked(&self.state);
        state.caught_up_to = None;
        if !state.not_standby_said {
            state.not_standby_said = true;
            tracing::warn!(
                "DATABASE_REPLICA_URL names a server that is not a standby in recovery: \
                 every read goes to the primary until it is one"
            );
        }
    }

    /// A query on the replica failed: reads go to the primary until the
    /// watch finds it caught up again.
    pub(super) fn failed(&self, error: &dyn std::fmt::Display) {
        let mut state = locked(&self.state);
        if state.caught_up_to.take().is_some() {
            tracing::warn!(error = %error, "the replica failed: reads go to the primary meanwhile");
        }
    }

    pub(super) fn status(&self) -> ReplicaStatus {
        let caught_up_to = locked(&self.state).caught_up_to;
        ReplicaStatus {
            lag: caught_up_to.map(|at| at.elapsed()),
            served: self.counters.served.load(Ordering::Relaxed),
            not_there: self.counters.not_there.load(Ordering::Relaxed),
            failed: self.counters.failed.load(Ordering::Relaxed),
        }
    }

    /// The replica answered a read.
    pub(super) fn served(&self) {
        self.counters.served.fetch_add(1, Ordering::Relaxed);
    }

    /// The replica's answer was not final there: read on the primary.
    pub(super) fn not_there(&self) {
        self.counters.not_there.fetch_add(1, Ordering::Relaxed);
    }

    /// The replica failed a read: read on the primary.
    pub(super) fn read_failed(&self) {
        self.counters.failed.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replica(max_lag_ms: u64) -> Lag {
        Lag::new(Duration::from_millis(max_lag_ms))
    }

    const RECENT: ReadConsistency = ReadConsistency::Recent { after: None };

    #[test]
    fn nothing_is_served_before_the_first_measure() {
        let r = replica(1000);
        let now = Instant::now();
        for consistency in [ReadConsistency::Latest, RECENT, ReadConsistency::Settled] {
            assert!(!r.serves(consistency, now));
        }
    }

    #[test]
    fn caught_up_to_the_last_position_replayed_and_never_back() {
        let r = replica(1000);
        let t0 = Instant::now();
        let (t1, t2) = (
            t0 + Duration::from_millis(100),
            t0 + Duration::from_millis(200),
        );
        r.sampled(t0, 10);
        r.sampled(t1, 20);
        r.sampled(t2, 30);
        r.replayed(25);
        assert_eq!(locked(&r.state).caught_up_to, Some(t1));
        // A replica that has not replayed t2's position does not hold a
        // write made after t1.
        let after_t1 = ReadConsistency::Recent {
            after: Some(t1 + Duration::from_millis(1)),
        };
        assert!(!r.serves(after_t1, t2));
        assert!(r.serves(RECENT, t2));
        assert!(!r.serves(ReadConsistency::Latest, t2));
        r.replayed(30);
        assert!(r.serves(after_t1, t2));
        r.replayed(5);
        assert_eq!(locked(&r.state).caught_up_to, Some(t2));
    }

    #[test]
    fn too_far_behind_serves_only_what_is_settled() {
        let r = replica(1000);
        let t0 = Instant::now();
        r.sampled(t0, 10);
        r.replayed(10);
        let later = t0 + Duration::from_millis(1500);
        assert!(!r.serves(RECENT, later));
        assert!(r.serves(ReadConsistency::Settled, later));
    }

    #[test]
    fn a_failure_or_a_server_not_in_recovery_serves_nothing_until_caught_up_again() {
        let r = replica(1000);
        let t0 = Instant::now();
        r.sampled(t0, 10);
        r.replayed(10);
        r.failed(&"gone");
        assert!(!r.serves(ReadConsistency::Settled, t0));
        let t1 = t0 + Duration::from_millis(100);
        r.sampled(t1, 20);
        r.replayed(20);
        assert!(r.serves(RECENT, t1));
        r.not_a_standby();
        assert!(!r.serves(ReadConsistency::Settled, t1));
    }

    #[test]
    fn samples_are_bounded_and_the_oldest_go_first() {
        let r = replica(1000);
        let t0 = Instant::now();
        for i in 0..(SAMPLES as u64 * 2) {
            r.sampled(t0 + Duration::from_millis(i), i);
        }
        assert_eq!(locked(&r.state).pending.len(), SAMPLES);
        r.replayed(SAMPLES as u64 * 2);
        assert_eq!(
            locked(&r.state).caught_up_to,
            Some(t0 + Duration::from_millis(SAMPLES as u64 * 2 - 1))
        );
    }
}
