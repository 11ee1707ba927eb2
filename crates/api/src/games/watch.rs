//! Following games as they change: the game stream, the long poll, the
//! player stream and the inbox. Each subscribes to the notifier *before*
//! reading, then reads the log from its cursor, so an append between the
//! read and the wait is never missed; a signal only says "read again".

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use cards::Seat;
use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio::sync::mpsc;

use super::error::ServiceError;
use super::event::GameEvent;
use super::notify::{Changed, Subscription};
use super::reads::{LogPage, VisibleEvent};
use super::service::{GameService, seat_of};
use super::status::GameStatus;
use crate::db::models::{EventRow, GameRow};

/// Events read per query while streaming.
const STREAM_PAGE: i64 = 500;

/// One item of a game stream (the HTTP layer renders each as an SSE event).
#[derive(Debug)]
pub enum GameStreamItem {
    /// A log event as the stream's viewer may read it.
    Event(Box<VisibleEvent>),
    /// The game's row after the latest events sent: where it stands.
    State(Box<GameRow>),
    Heartbeat,
}

/// One item of a player stream.
#[derive(Debug)]
pub enum PlayerStreamItem {
    YourTurn(Turn),
    SeatTaken(Notice),
    GameStarted(Notice),
    GameOver(Notice),
    Heartbeat,
}

/// One of a player's seats must act in a game (a player stream item, and
/// an inbox entry).
#[derive(Debug, Clone)]
pub struct Turn {
    pub game_id: String,
    pub kind: String,
    pub seat: u8,
    /// The kind's prompt: what is asked of the seat.
    pub prompt: Option<String>,
    /// The game's version when read.
    pub version: i64,
    /// When the game last changed.
    pub waiting_since: DateTime<Utc>,
    /// When the move clock runs out, if one runs.
    pub deadline_at: Option<DateTime<Utc>>,
}

/// A game of the player's changed hands or phase: the log event behind it.
#[derive(Debug, Clone)]
pub struct Notice {
    pub game_id: String,
    pub seq: i64,
    /// That event's payload (seat taken, game started, game over).
    pub event: Value,
}

/// What a player stream remembers of one game.
#[derive(Debug, Clone, Copy)]
struct Followed {
    cursor: i64,
    was_to_act: bool,
}

/// Where a player stream starts: each of the player's active games at its
/// version then. Read before the stream answers, so that whatever the
/// client does once the stream is open (create or join a game) comes after
/// it and is announced, however late the stream's task first runs.
#[derive(Debug)]
pub struct PlayerCursor(HashMap<String, Followed>);

impl GameService {
    /// The start of a player stream for `player_id` (see [`PlayerCursor`]).
    pub async fn player_cursor(&self, player_id: &str) -> Result<PlayerCursor, ServiceError> {
        let followed = self
            .db
            .active_games_of(player_id)
            .await?
            .into_iter()
            .map(|(game_id, version)| {
                let f = Followed {
                    cursor: version,
                    was_to_act: false,
                };
                (game_id, f)
            })
            .collect();
        Ok(PlayerCursor(followed))
    }

    /// Waits up to `timeout` for events after `after` (as the player or a
    /// spectator may see them), returning as soon as there are some, or an
    /// empty page at the timeout or when the game is over.
    pub async fn wait_events(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
        timeout: Duration,
    ) -> Result<LogPage, ServiceError> {
        let mut sub = self.subscribe();
        let mut stop = self.shutdown.subscribe();
        let until = tokio::time::Instant::now() + timeout;
        loop {
            let page = self.events_page(game_id, player_id, after, limit).await?;
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            if !page.events.is_empty() || page.closed || left.is_zero() || *stop.borrow() {
                return Ok(page);
            }
            tokio::select! {
                _ = stop.changed() => {}
                _ = sub.wait_for(game_id, left) => {}
            }
        }
    }

    /// Sends the game's events after `cursor` to `tx` as they are appended,
    /// each followed by the game's state when it is the latest, and a
    /// heartbeat after each quiet `heartbeat`. Ends when the receiver is
    /// gone or, once the game is over, after its last event.
    pub async fn follow_game(
        self: Arc<Self>,
        mut sub: Subscription,
        game_id: String,
        player_id: Option<String>,
        mut cursor: i64,
        heartbeat: Duration,
        tx: mpsc::Sender<GameStreamItem>,
    ) -> Result<(), ServiceError> {
        // A stopping server ends its streams, so that its graceful shutdown
        // need not wait for them; clients resume elsewhere with Last-Event-ID.
        let mut stop = self.shutdown.subscribe();
        loop {
            if *stop.borrow() {
                return Ok(());
            }
            let page = self
                .events_page(&game_id, player_id.as_deref(), cursor, STREAM_PAGE)
                .await?;
            // Only events up to the row's version, so the state sent after
            // them is exactly theirs.
            let events: Vec<_> = page
                .events
                .into_iter()
                .filter(|e| e.row.seq <= page.version)
                .collect();
            if !events.is_empty() {
                for event in events {
                    cursor = event.row.seq;
                    let item = GameStreamItem::Event(Box::new(event));
                    if tx.send(item).await.is_err() {
                        return Ok(());
                    }
                }
                if cursor == page.version {
                    let state = GameStreamItem::State(Box::new(page.row));
                    if tx.send(state).await.is_err() {
                        return Ok(());
                    }
                }
                continue;
            }
            if page.closed && cursor >= page.version {
                return Ok(());
            }
            let woke = tokio::select! {
                _ = stop.changed() => return Ok(()),
                woke = sub.wait_for(&game_id, heartbeat) => woke,
            };
            if !woke && tx.send(GameStreamItem::Heartbeat).await.is_err() {
                return Ok(());
            }
        }
    }

    /// Sends `player_id`'s notices across all their games, from `start`: first a
    /// `your_turn` for every game already waiting for them, then, as games
    /// change, `seat_taken`, `game_started`, `game_over`, and `your_turn`
    /// whenever one of their seats newly has to act (once per turn).
    pub async fn follow_player(
        self: Arc<Self>,
        mut sub: Subscription,
        player_id: String,
        start: PlayerCursor,
        heartbeat: Duration,
        tx: mpsc::Sender<PlayerStreamItem>,
    ) -> Result<(), ServiceError> {
        let mut followed = start.0;
        for turn in self.inbox(&player_id).await? {
            if let Some(f) = followed.get_mut(&turn.game_id) {
                f.was_to_act = true;
            }
            if tx.send(PlayerStreamItem::YourTurn(turn)).await.is_err() {
                return Ok(());
            }
        }
        let mut stop = self.shutdown.subscribe();
        loop {
            let signal = tokio::select! {
                _ = stop.changed() => return Ok(()),
                signal = tokio::time::timeout(heartbeat, sub.next()) => signal,
            };
            let to_check: Vec<String> = match signal {
                Ok(Changed::Game { game_id, version }) => match followed.get(&*game_id) {
                    Some(f) if f.cursor >= version => continue,
                    _ => vec![game_id.to_string()],
                },
                // After a lag or a reconnect, or a quiet spell: look again at
                // every game of the player's (new ones included).
                Ok(Changed::Anything) | Err(_) => {
                    if signal.is_err() && tx.send(PlayerStreamItem::Heartbeat).await.is_err() {
                        return Ok(());
                    }
                    let mut ids: Vec<String> = followed.keys().cloned().collect();
                    for (id, _) in self.db.active_games_of(&player_id).await? {
                        if !followed.contains_key(&id) {
                            ids.push(id);
                        }
                    }
                    ids
                }
            };
            for game_id in to_check {
                let notices = self
                    .player_notices(&game_id, &player_id, &mut followed)
                    .await?;
                for notice in notices {
                    if tx.send(notice).await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// What is new for `player_id` in `game_id` since the stream last looked.
    async fn player_notices(
        &self,
        game_id: &str,
        player_id: &str,
        followed: &mut HashMap<String, Followed>,
    ) -> Result<Vec<PlayerStreamItem>, ServiceError> {
        let Some(row) = self.db.game(game_id).await? else {
            return Ok(Vec::new());
        };
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        let Some(seat) = seat_of(&seats, player_id) else {
            // Not (or no longer) theirs.
            followed.remove(game_id);
            return Ok(Vec::new());
        };
        let mut f = followed.get(game_id).copied().unwrap_or(Followed {
            cursor: 0,
            was_to_act: false,
        });
        if f.cursor >= row.version {
            return Ok(Vec::new());
        }
        let events = self
            .db
            .events(game_id, f.cursor, row.version - f.cursor)
            .await?;
        let mut out = Vec::new();
        let mut moved = false;
        for event in events {
            let notice = |event: &EventRow| Notice {
                game_id: game_id.to_owned(),
                seq: event.seq,
                event: event.event.payload(),
            };
            match &event.event {
                GameEvent::SeatTaken(_) => out.push(PlayerStreamItem::SeatTaken(notice(&event))),
                GameEvent::GameStarted(_) => {
                    out.push(PlayerStreamItem::GameStarted(notice(&event)));
                }
                GameEvent::GameFinished(_) => out.push(PlayerStreamItem::GameOver(notice(&event))),
                GameEvent::Move(_) if event.actor_seat == Some(i32::from(seat.number())) => {
                    moved = true;
                }
                _ => {}
            }
            f.cursor = event.seq;
        }
        let to_act = row.status == GameStatus::InProgress && row.to_act & (1 << seat.number()) != 0;
        if f.cursor == row.version && to_act && (!f.was_to_act || moved) {
            out.push(PlayerStreamItem::YourTurn(
                self.your_turn(&row, seat).await?,
            ));
        }
        f.was_to_act = to_act;
        if row.status.is_closed() {
            followed.remove(game_id);
        } else {
            followed.insert(game_id.to_owned(), f);
        }
        Ok(out)
    }

    async fn your_turn(&self, row: &GameRow, seat: Seat) -> Result<Turn, ServiceError> {
        let game = self.state_at(row).await?;
        Ok(Turn {
            game_id: row.id.clone(),
            kind: row.kind.clone(),
            seat: seat.number(),
            prompt: game.prompt(seat).map(str::to_owned),
            version: row.version,
            waiting_since: row.updated_at,
            deadline_at: row.deadline_at,
        })
    }

    /// The games where `player_id` must act now, the longest-waiting first,
    /// with what is asked of them.
    pub async fn inbox(&self, player_id: &str) -> Result<Vec<Turn>, ServiceError> {
        let mut out = Vec::new();
        for (row, seat) in self.db.games_awaiting(player_id).await? {
            let seat = Seat::new(u8::try_from(seat).unwrap_or(0));
            out.push(self.your_turn(&row, seat).await?);
        }
        Ok(out)
    }
}
