//! A bounded in-memory cache of game states, one async mutex per game.
//!
//! The mutex serializes appends to one game inside this process, so racing
//! moves rarely meet at the database; the `(game_id, seq)` primary key and
//! the version check stay the guard across processes. A cached state is
//! tagged with the version it reflects. Before a state is shown it is checked
//! against the game row's version (one small query), and a change decided on
//! it is appended under the row's version guard, so a stale entry (another
//! process appended) is caught and brought up to date from the log, never
//! trusted.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use bytes::Bytes;

use super::any_game::AnyGame;
use crate::db::models::{GameRow, SeatWithName};

/// A game's state as of `version` (the seq of the last event folded in).
#[derive(Debug)]
pub struct LoadedGame {
    pub version: i64,
    pub game: Box<dyn AnyGame>,
    /// The game's row and seats as of `version`, when this process read
    /// them or wrote the change that made them; `None`: read them before
    /// deciding anything on them.
    pub known: Option<Known>,
}

/// A game's row and seats, consistent with a cached state's version. Every
/// change to either bumps the row's version (all go through the append), so
/// an equal version means an equal row and seats.
#[derive(Debug, Clone)]
pub struct Known {
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    /// The snapshot a stream without a seat starts with, rendered by the
    /// first such stream opened on this version and sent as is by the
    /// others (a popular table's spectators arrive by the dozen). It lives
    /// and dies with this version's row: a change makes a new `Known`.
    unseated_snapshot: OnceLock<Bytes>,
}

impl Known {
    pub fn new(row: GameRow, seats: Vec<SeatWithName>) -> Known {
        Known {
            row,
            seats,
            unseated_snapshot: OnceLock::new(),
        }
    }

    /// This version's snapshot for a viewer without a seat: `render`ed by
    /// the first caller, the same bytes for every other; and whether it
    /// had been rendered before.
    pub fn unseated_snapshot(&self, render: impl FnOnce() -> Bytes) -> (&Bytes, bool) {
        super::notify::shared(&self.unseated_snapshot, render)
    }
}

/// A game's cache slot: `None` until loaded.
pub type Slot = Arc<tokio::sync::Mutex<Option<LoadedGame>>>;

/// Least-recently-used slots, at most `capacity` (slots in use are kept).
#[derive(Debug)]
pub struct StateCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    clock: u64,
    slots: HashMap<String, (Slot, u64)>,
}

impl StateCache {
    pub fn new(capacity: usize) -> Self {
        StateCache {
            capacity: capacity.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The slot of `game_id`, created empty on a miss.
    pub fn slot(&self, game_id: &str) -> Slot {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.clock += 1;
        let now = inner.clock;
        if let Some((slot, used)) = inner.slots.get_mut(game_id) {
            *used = now;
            return slot.clone();
        }
        if inner.slots.len() >= self.capacity {
            let victim = inner
                .slots
                .iter()
                .filter(|(_, (slot, _))| Arc::strong_count(slot) == 1)
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| id.clone());
            if let Some(id) = victim {
                inner.slots.remove(&id);
            }
        }
        let slot = Slot::default();
        inner.slots.insert(game_id.to_owned(), (slot.clone(), now));
        slot
    }

    /// Drops `game_id`'s slot (e.g. the game does not exist), so that
    /// requests for unknown ids cannot crowd real games out.
    pub fn forget(&self, game_id: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.slots.remove(game_id);
    }

    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .slots
            .len()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_capacity_and_drops_the_least_recent() {
        let cache = StateCache::new(2);
        let a = cache.slot("a");
        drop(cache.slot("b"));
        drop(a);
        drop(cache.slot("a")); // a is now more recent than b
        drop(cache.slot("c")); // evicts b
        assert_eq!(cache.len(), 2);
        let inner = cache.inner.lock().unwrap();
        assert!(inner.slots.contains_key("a") && inner.slots.contains_key("c"));
    }

    #[test]
    fn slots_in_use_are_not_evicted() {
        let cache = StateCache::new(1);
        let held = cache.slot("a");
        drop(cache.slot("b"));
        assert!(Arc::ptr_eq(&held, &cache.slot("a")));
    }
}
