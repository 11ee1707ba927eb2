//! A game's log read whole and turned into a record's parts (its info,
//! its moves, its resignation), and a finished game's derived answers
//! found in or put into the cache (`games::finished`): what replay,
//! export and verify all start from.

use std::sync::Arc;

use chrono::{DateTime, SecondsFormat, Utc};
use game_record::{Actor as RecordActor, GameInfo, GameKind as RecordKind, RecordedMove};

use crate::db::event::{GameEvent, MovePlayed};
use crate::db::models::{EventRow, GameRow, SeatWithName};
use crate::db::replica::ReadConsistency;
use crate::db::status::{BotLevel, GameStatus, ResignPolicy};
use crate::db::{Db, DbError};
use crate::games::error::ServiceError;
use crate::games::finished::Finished;
use crate::games::log;
use crate::games::service::GameService;

/// Events read per query while reading a whole log.
const PAGE: i64 = 1000;

/// The name a bot seat has in a record.
pub const BOT_NAME: &str = "bot";

/// A bot seat's name in a record: `bot` for the sensible bot (as every
/// record before bot levels says), `bot (random)`, `bot (expert)`.
pub fn bot_name(level: BotLevel) -> String {
    match level {
        BotLevel::Sensible => BOT_NAME.to_owned(),
        level => format!("{BOT_NAME} ({})", level.as_str()),
    }
}

/// A game's row, seats and whole log, read consistently (the log up to the
/// row's version).
#[derive(Debug)]
pub struct History {
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    pub events: Vec<EventRow>,
}

/// Who made a logged move, as a record says it. The one place that maps
/// the log's actor columns to a record's actor.
pub fn record_actor(event: &EventRow) -> RecordActor {
    if event.actor_deadline {
        RecordActor::Deadline
    } else if event.actor_bot {
        RecordActor::Bot
    } else {
        RecordActor::Player
    }
}

/// A time as a record writes it: RFC 3339, UTC, whole seconds.
pub fn record_time(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn record_kind(row: &GameRow) -> Result<RecordKind, ServiceError> {
    RecordKind::from_code(&row.kind)
        .ok_or_else(|| ServiceError::internal(format!("unknown kind {}", row.kind)))
}

/// The moves of the log, in order, as a record lists them.
pub(super) fn recorded_moves(events: &[EventRow]) -> Result<Vec<RecordedMove>, ServiceError> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            GameEvent::Move(MovePlayed(mv)) => Some((e, mv)),
            _ => None,
        })
        .map(|(e, mv)| {
            let seat = e
                .actor_seat
                .and_then(|s| u8::try_from(s).ok())
                .ok_or_else(|| ServiceError::internal(format!("move {} has no seat", e.seq)))?;
            Ok(RecordedMove::new(seat, mv.clone(), record_actor(e)))
        })
        .collect()
}

/// The log's resignation (`seat_resigned`), at its place: after the moves
/// logged before it.
fn resignation(events: &[EventRow]) -> Option<game_record::Resign> {
    let mut moves = 0;
    for e in events {
        match &e.event {
            GameEvent::Move(_) => moves += 1,
            GameEvent::SeatResigned(r) => {
                return Some(game_record::Resign {
                    seat: r.seat,
                    after_moves: moves,
                    policy: match r.policy {
                        ResignPolicy::Bot => game_record::ResignPolicy::Bot,
                        ResignPolicy::EndGame => game_record::ResignPolicy::EndGame,
                    },
                });
            }
            _ => {}
        }
    }
    None
}

/// The log's hints (`hint_given`), in its order, each at its ply.
fn hints(events: &[EventRow]) -> Vec<game_record::HintUsed> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            GameEvent::HintGiven(hint) => Some(game_record::HintUsed {
                seat: hint.seat,
                ply: hint.ply as usize,
                mv: hint.mv.clone().unwrap_or(serde_json::Value::Null),
            }),
            _ => None,
        })
        .collect()
}

impl History {
    fn finished(&self) -> bool {
        self.row.status == GameStatus::Finished
    }

    /// Everything but the moves. The seed is the stored one: callers reveal
    /// it only once the game is over.
    pub(super) fn info(&self) -> Result<GameInfo, ServiceError> {
        let ended = self
            .events
            .iter()
            .find(|e| matches!(e.event, GameEvent::GameFinished(_)))
            .map(|e| record_time(e.created_at));
        Ok(GameInfo {
            kind: record_kind(&self.row)?,
            config: self.row.config.clone(),
            players: self
                .seats
                .iter()
                .map(|s| match (&s.display_name, s.seat.is_bot) {
                    (Some(name), _) => name.clone(),
                    (None, true) => bot_name(s.seat.bot_level),
                    (None, false) => format!("seat {}", s.seat.seat),
                })
                .collect(),
            created: Some(record_time(self.row.created_at)),
            ended,
            server_seed: self.row.seed.parse().map_err(|_| {
                ServiceError::internal(format!("game {} has a malformed seed", self.row.id))
            })?,
            entropy: log::entropy_by_seat(&self.seats),
            resigned: resignation(&self.events),
            // A hint is its seat's own until the game is over (G-2).
            hints: match self.finished() {
                true => hints(&self.events),
                false => Vec::new(),
            },
        })
    }
}

impl GameService {
    /// The game's row, seats and whole log up to the row's version.
    pub async fn history(&self, game_id: &str) -> Result<History, ServiceError> {
        let read = read_history(&self.db, game_id).await?;
        self.found(game_id, read)
    }

    /// The history read, or a 404 (and no cache slot kept).
    fn found(&self, game_id: &str, read: Option<History>) -> Result<History, ServiceError> {
        read.ok_or_else(|| {
            self.cache.forget(game_id);
            ServiceError::GameNotFound
        })
    }

    /// A finished game's derived answers, from the cache or (once) from its
    /// log; any other game's history as read (`Err`). A finished game
    /// never changes, so its log is read from the replica when the
    /// replica holds it finished (exact, whatever its lag); else, and for a
    /// game still running, from the primary.
    pub(in crate::games) async fn finished_or_history(
        &self,
        game_id: &str,
    ) -> Result<Result<Arc<Finished>, History>, ServiceError> {
        if let Some(game) = self.finished.get(game_id) {
            return Ok(Ok(game));
        }
        let read = self
            .db
            .read_where(
                ReadConsistency::Settled,
                |db| async move { read_history(&db, game_id).await },
                |read| read.as_ref().is_some_and(History::finished),
            )
            .await?;
        let history = self.found(game_id, read)?;
        if !history.finished() {
            return Ok(Err(history));
        }
        let info = history.info()?;
        let published = history.events.iter().find_map(|e| match &e.event {
            GameEvent::GameStarted(started) => Some(started.seed_commitment.clone()),
            _ => None,
        });
        let moves = recorded_moves_with_seqs(&history.events)?;
        let game = Arc::new(Finished::new(
            history.row,
            history.seats,
            info,
            moves,
            published,
        ));
        self.finished.insert(game.clone());
        Ok(Ok(game))
    }
}

/// The game's row, seats and whole log up to the row's version, read from
/// `db` (`None`: no such game). Read in that order on one database, so the
/// log holds every event up to the row's version.
async fn read_history(db: &Db, game_id: &str) -> Result<Option<History>, DbError> {
    let Some(row) = db.game(game_id).await? else {
        return Ok(None);
    };
    let seats = db.seats(std::slice::from_ref(&row.id)).await?;
    let mut events = Vec::with_capacity(usize::try_from(row.version).unwrap_or(0));
    let mut after = 0;
    while after < row.version {
        let page = db
            .events(&row.id, after, PAGE.min(row.version - after))
            .await?;
        let Some(last) = page.last() else { break };
        after = last.seq;
        events.extend(page);
    }
    Ok(Some(History { row, seats, events }))
}

/// [`recorded_moves`], each with its event's seq.
fn recorded_moves_with_seqs(events: &[EventRow]) -> Result<Vec<(i64, RecordedMove)>, ServiceError> {
    let seqs = events
        .iter()
        .filter(|e| matches!(e.event, GameEvent::Move(_)))
        .map(|e| e.seq);
    Ok(seqs.zip(recorded_moves(events)?).collect())
}
