//! What is derived from finished games, computed once, so that replaying,
//! exporting or verifying a finished game many times does not read and fold
//! its whole log on every request.
//!
//! A finished game never changes again: nothing is appended after
//! `game_finished`, its row and seats are final, its seed is revealed
//! (G-2 no longer hides anything). So its replay points, its record and its
//! verification are pure functions of what is stored, and this cache keeps
//! them: the first request reads the log once and folds it, later ones
//! answer from memory, byte for byte the same (tests/it/scale.rs).
//!
//! Only finished games enter (`Finished::from_history` refuses any other):
//! a game in progress has hidden cards and a secret seed, and an expired
//! one answers 409 to all three. Bounded: at most `capacity` games (the
//! least recently used are dropped; `FINISHED_CACHE`, 0 = none), and at
//! most [`VIEWS_PER_GAME`] replay points per game besides the record and
//! the verification.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use game_record::{GameInfo, GameRecord, RecordedMove};
use serde_json::Value;

use super::records::Verification;
use crate::db::models::{GameRow, SeatWithName};

/// `FINISHED_CACHE`'s default.
pub const DEFAULT_CAPACITY: usize = 256;

/// Replay points (one per `seq` asked for) kept per finished game.
pub const VIEWS_PER_GAME: usize = 8;

/// One finished game: what every derived answer is computed from, and the
/// answers computed so far.
#[derive(Debug)]
pub struct Finished {
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    pub info: GameInfo,
    /// The log's moves in order, as a record lists them, and the seq of
    /// each (same length).
    pub moves: Vec<RecordedMove>,
    pub move_seqs: Vec<i64>,
    /// The seed commitment the `game_started` event published.
    pub published_commitment: Option<String>,
    record: Mutex<Option<Arc<GameRecord>>>,
    /// The record's text and JSON forms, once rendered.
    record_text: Mutex<Option<Arc<str>>>,
    record_json: Mutex<Option<Arc<str>>>,
    verification: Mutex<Option<Arc<Verification>>>,
    /// seq -> (moves up to it, the omniscient view after it).
    views: Mutex<HashMap<i64, (usize, Arc<Value>)>>,
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Finished {
    pub fn new(
        row: GameRow,
        seats: Vec<SeatWithName>,
        info: GameInfo,
        moves: Vec<(i64, RecordedMove)>,
        published_commitment: Option<String>,
    ) -> Self {
        let (move_seqs, moves) = moves.into_iter().unzip();
        Finished {
            row,
            seats,
            info,
            moves,
            move_seqs,
            published_commitment,
            record: Mutex::default(),
            record_text: Mutex::default(),
            record_json: Mutex::default(),
            verification: Mutex::default(),
            views: Mutex::default(),
        }
    }

    /// The moves logged at or before `seq`.
    pub fn moves_upto(&self, seq: i64) -> &[RecordedMove] {
        let n = self.move_seqs.partition_point(|s| *s <= seq);
        &self.moves[..n]
    }

    /// The record, computed by `build` the first time.
    pub fn record<E>(
        &self,
        build: impl FnOnce(&Finished) -> Result<GameRecord, E>,
    ) -> Result<Arc<GameRecord>, E> {
        if let Some(r) = locked(&self.record).as_ref() {
            return Ok(r.clone());
        }
        let record = Arc::new(build(self)?);
        Ok(locked(&self.record).get_or_insert(record).clone())
    }

    /// The record's text form (`json`: its JSON form), rendered from
    /// [`Finished::record`] the first time.
    pub fn record_form<E>(
        &self,
        json: bool,
        build: impl FnOnce(&Finished) -> Result<GameRecord, E>,
    ) -> Result<Arc<str>, E> {
        let slot = if json {
            &self.record_json
        } else {
            &self.record_text
        };
        if let Some(form) = locked(slot).as_ref() {
            return Ok(form.clone());
        }
        let record = self.record(build)?;
        let form: Arc<str> = if json {
            record.to_json().into()
        } else {
            record.to_text().into()
        };
        Ok(locked(slot).get_or_insert(form).clone())
    }

    /// The verification, computed by `check` the first time.
    pub fn verification<E>(
        &self,
        check: impl FnOnce(&Finished) -> Result<Verification, E>,
    ) -> Result<Arc<Verification>, E> {
        if let Some(v) = locked(&self.verification).as_ref() {
            return Ok(v.clone());
        }
        let verification = Arc::new(check(self)?);
        Ok(locked(&self.verification)
            .get_or_insert(verification)
            .clone())
    }

    /// The view after `seq` and the number of moves up to it, computed by
    /// `fold` unless kept (at most [`VIEWS_PER_GAME`] are).
    pub fn view_after<E>(
        &self,
        seq: i64,
        fold: impl FnOnce(&Finished, &[RecordedMove]) -> Result<Value, E>,
    ) -> Result<(usize, Arc<Value>), E> {
        if let Some(kept) = locked(&self.views).get(&seq) {
            return Ok(kept.clone());
        }
        let moves = self.moves_upto(seq);
        let answer = (moves.len(), Arc::new(fold(self, moves)?));
        let mut views = locked(&self.views);
        if views.len() < VIEWS_PER_GAME {
            views.insert(seq, answer.clone());
        }
        Ok(answer)
    }
}

/// Finished games by id, least recently used dropped past `capacity`.
#[derive(Debug)]
pub struct FinishedCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    clock: u64,
    games: HashMap<String, (Arc<Finished>, u64)>,
}

impl FinishedCache {
    pub fn new(capacity: usize) -> Self {
        FinishedCache {
            capacity,
            inner: Mutex::default(),
        }
    }

    pub fn get(&self, game_id: &str) -> Option<Arc<Finished>> {
        let mut inner = locked(&self.inner);
        inner.clock += 1;
        let now = inner.clock;
        let (game, used) = inner.games.get_mut(game_id)?;
        *used = now;
        Some(game.clone())
    }

    /// Keeps `game` (a finished game's: see [`Finished`]), dropping the
    /// least recently used one when full.
    pub fn insert(&self, game: Arc<Finished>) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = locked(&self.inner);
        inner.clock += 1;
        let now = inner.clock;
        if inner.games.len() >= self.capacity && !inner.games.contains_key(&game.row.id) {
            let victim = inner
                .games
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| id.clone());
            if let Some(id) = victim {
                inner.games.remove(&id);
            }
        }
        inner.games.insert(game.row.id.clone(), (game, now));
    }

    pub fn len(&self) -> usize {
        locked(&self.inner).games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
}
