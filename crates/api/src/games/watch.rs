//! Following games as they change: the game stream, the long poll, the
//! player stream and the inbox. Each subscribes to the notifier *before*
//! reading, then reads the log from its cursor, so an append between the
//! read and the wait is never missed; a signal only says "read again".

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use cards::Seat;
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::error::ServiceError;
use super::event::GameEvent;
use super::notify::{Changed, Rows, Subscription};
use super::outbox::Outbox;
use super::reads::{Handed, LogPage, VisibleEvent};
use super::service::{GameService, seat_of};
use super::status::GameStatus;
use crate::db::models::GameRow;
use crate::db::seeks::SeekRow;

/// Messages read per query while streaming.
const MESSAGE_PAGE: i64 = 500;

/// Events read per query while a game stream catches up: about what its
/// outbox holds (`routes::sse::BUFFER`), so a stream whose client reads
/// slowly, or not at all, holds a page and a full outbox at most, never the
/// log; the next page is read only once the client has taken the last.
const CATCH_UP_PAGE: i64 = 64;

/// The signals a spell's first allocation holds: a game played by bots
/// makes some 40 appends in a 200 ms spell (docs/performance.md, section
/// 12); more only grow it.
const SPELL_SIGNALS: usize = 64;

/// One item of a game stream (the HTTP layer renders each as an SSE event).
#[derive(Debug)]
pub enum GameStreamItem {
    /// A log event as the stream's viewer may read it.
    Event(Box<VisibleEvent>),
    /// The game's row after the latest events sent: where it stands.
    State(Box<GameRow>),
    /// The events of some of this process's appends, in order, then the
    /// game's state after the last, as every viewer without a seat reads
    /// them: the same frames for all such streams
    /// (`notify::Appended::unseated_frame`, rendered from
    /// `reads::unseated_event`). One item for all the appends a spell
    /// gathered, so a spectator's spell is one send to its connection
    /// whatever the game's pace.
    Unseated(Vec<Rows>),
    /// A message of table talk the viewer may read (`chat.rs`): not a log
    /// event, and no part of the log's cursor.
    Message(Box<crate::db::chat::MessageRow>),
    Heartbeat,
}

/// How a game stream keeps time.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// A heartbeat (and a read of the log) after this long without news.
    pub heartbeat: Duration,
    /// After a wake-up, wait this long and send what came meanwhile with it.
    pub gather: Duration,
}

/// Where a game stream starts: after this seq of the log, and after this
/// seq of the game's table talk (two cursors that never mix).
#[derive(Debug, Clone, Copy)]
pub struct StreamStart {
    pub after: i64,
    pub messages_after: i64,
    /// Whether messages may already follow `messages_after` (a client's
    /// cursor); false when it is the latest, read after subscribing, so
    /// that any later one signals.
    pub read_messages: bool,
    /// Whether events may already follow `after` (a client's cursor); false
    /// when `after` is the game's version read after subscribing (a fresh
    /// stream's snapshot), so that any later append signals: the stream
    /// then waits for a signal instead of reading the log first (a
    /// spectator's stream opened three queries for nothing).
    pub read_log: bool,
}

/// A game stream between reads: whose it is, its two cursors and what to
/// read next.
#[derive(Debug)]
struct Following {
    game_id: String,
    player_id: Option<String>,
    pace: Pace,
    /// The seq of the last log event sent.
    cursor: i64,
    /// The seq of the last message of table talk looked at.
    messages: i64,
    /// What this process's own appends handed over, when the stream was
    /// exactly up to date: sent without reading the log.
    pushed: Option<Handed>,
    /// Read the messages after `messages` before waiting again.
    talk: bool,
    /// Only messages were signalled: the log need not be read.
    talk_only: bool,
}

/// One item of a player stream.
#[derive(Debug)]
pub enum PlayerStreamItem {
    YourTurn(Turn),
    /// A table formed for a seek of the player's (quick play): sent before
    /// anything else of that game.
    SeekMatched(SeekNotice),
    /// A challenge the player sent or was asked to changed (made,
    /// answered, ended): how it stands now. Live only: a resumed stream
    /// does not replay it (the inbox and `list_challenges` hold the state).
    Challenge(Box<crate::db::challenges::Challenge>),
    SeatTaken(Notice),
    GameStarted(Notice),
    GameOver(Notice),
    /// No notice, only the stream's position (an SSE event with an `id:`
    /// and no data, which a client's `EventSource` records without firing):
    /// sent first, so a client that drops before any notice resumes too.
    Position,
    Heartbeat,
}

/// A player stream item and the stream's position just after it (its SSE
/// `id:`, [`PlayerCursor::encode`]; none on heartbeats). Sent boxed: the
/// outbox keeps the room of its largest burst, a pointer a slot rather
/// than an entry of ~150 bytes (`outbox.rs`).
#[derive(Debug)]
pub struct PlayerStreamEntry {
    pub item: PlayerStreamItem,
    pub id: Option<String>,
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

/// A table formed for a seek of the player's (a player stream item, and
/// an inbox entry).
#[derive(Debug, Clone)]
pub struct SeekNotice {
    pub seek_id: String,
    pub game_id: String,
    pub kind: String,
    pub seat: u8,
    pub matched_at: DateTime<Utc>,
}

impl SeekNotice {
    /// The notice of `seek`, if it was matched.
    pub fn of(seek: &SeekRow) -> Option<SeekNotice> {
        Some(SeekNotice {
            seek_id: seek.id.clone(),
            game_id: seek.game_id.clone()?,
            kind: seek.kind.clone(),
            seat: u8::try_from(seek.seat?).ok()?,
            matched_at: seek.ended_at?,
        })
    }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Followed {
    /// The seq of the last event looked at.
    cursor: i64,
    /// A `your_turn` was sent for the seat's current turn (a move of the
    /// seat's own starts a new turn).
    announced: bool,
}

impl Followed {
    const NEW: Followed = Followed {
        cursor: 0,
        announced: false,
    };
}

/// Where a player stream stands: each followed game's cursor. There is no
/// global, commit-ordered id to resume from (a sequence over the log
/// commits out of order on Postgres, so "after id n" could skip an event
/// committed late), so the position is the per-game cursors themselves,
/// written into every notice's `id:` ([`PlayerCursor::encode`]). Resuming
/// from it replays what the uninterrupted stream would have sent next: a
/// game absent from it is new to the stream (read from its first event),
/// a game in it is read after its cursor.
///
/// A fresh start holds each of the player's active games at its version
/// then, read before the stream answers, so that whatever the client does
/// once the stream is open (create or join a game) comes after it and is
/// announced, however late the stream's task first runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerCursor {
    games: BTreeMap<String, Followed>,
    /// Given back by the client (`Last-Event-ID`, `?after=`), not read from
    /// the store: no inbox first, every game of it looked at at once.
    resumed: bool,
}

impl PlayerCursor {
    /// The most games a cursor given back may name (about 36 bytes each):
    /// bounds what one reconnect makes the server read.
    pub const MAX_GAMES: usize = 512;

    /// The cursor as an SSE id: `1` then, per game in id order,
    /// `.{game id, 32 hex digits}{a: announced, n: not}{seq}`.
    pub fn encode(&self) -> String {
        encode(&self.games)
    }

    /// A cursor a client gave back, if it is one [`PlayerCursor::encode`]
    /// could have written.
    pub fn decode(text: &str) -> Option<PlayerCursor> {
        let mut parts = text.trim().split('.');
        if parts.next()? != "1" {
            return None;
        }
        let mut games = BTreeMap::new();
        for part in parts {
            let (hex, rest) = (part.get(..32)?, part.get(32..)?);
            let id = uuid::Uuid::try_parse(hex).ok()?;
            let announced = match rest.chars().next()? {
                'a' => true,
                'n' => false,
                _ => return None,
            };
            let cursor: i64 = rest[1..].parse().ok().filter(|c| *c >= 0)?;
            if games
                .insert(id.hyphenated().to_string(), Followed { cursor, announced })
                .is_some()
                || games.len() > Self::MAX_GAMES
            {
                return None;
            }
        }
        Some(PlayerCursor {
            games,
            resumed: true,
        })
    }
}

/// [`PlayerCursor::encode`] of a stream's games, without copying them.
fn encode(games: &BTreeMap<String, Followed>) -> String {
    let mut out = String::with_capacity(1 + 36 * games.len());
    out.push('1');
    for (game_id, f) in games {
        let Ok(id) = uuid::Uuid::try_parse(game_id) else {
            continue; // every game id is a UUID (`lifecycle`, `records`)
        };
        let flag = if f.announced { 'a' } else { 'n' };
        out.push_str(&format!(".{}{flag}{}", id.simple(), f.cursor));
    }
    out
}

/// Sends appends handed over to a stream whose viewer has no seat: the
/// events of each, then the game's state after the last. Whether the
/// stream goes on: false once the connection is gone, or the game is over
/// and all of it sent.
async fn send_unseated(f: &mut Following, appends: Vec<Rows>, tx: &Outbox<GameStreamItem>) -> bool {
    let Some(last) = appends.last() else {
        return true;
    };
    f.cursor = last.0.row.version;
    let closed = last.0.row.status.is_closed();
    // Weighed by its appends, so that a stream whose client stops reading
    // holds as many appends as it did when each was an item of its own.
    let weight = appends.len();
    tx.send_weighing(GameStreamItem::Unseated(appends), weight)
        .await
        .is_ok()
        && !closed
}

/// What one look at a game found: the notices, each with the game's state
/// just after it (none: the stream drops the game), and its state after
/// them all.
struct GameNotices {
    items: Vec<(PlayerStreamItem, Option<Followed>)>,
    then: Option<Followed>,
}

/// Sends `item` with the position `games` as its id; false once the
/// connection is gone.
async fn send(
    tx: &Outbox<Box<PlayerStreamEntry>>,
    item: PlayerStreamItem,
    games: &BTreeMap<String, Followed>,
) -> bool {
    let id = Some(encode(games));
    tx.send(Box::new(PlayerStreamEntry { item, id }))
        .await
        .is_ok()
}

/// Sets (or, with `None`, drops) one game's state.
fn set(games: &mut BTreeMap<String, Followed>, game_id: &str, state: Option<Followed>) {
    match state {
        Some(f) => {
            games.insert(game_id.to_owned(), f);
        }
        None => {
            games.remove(game_id);
        }
    }
}

impl GameService {
    /// The start of a player stream for `player_id` (see [`PlayerCursor`]).
    pub async fn player_cursor(&self, player_id: &str) -> Result<PlayerCursor, ServiceError> {
        let games = self
            .db
            .active_games_of(player_id)
            .await?
            .into_iter()
            .map(|(game_id, version)| {
                let f = Followed {
                    cursor: version,
                    announced: false,
                };
                (game_id, f)
            })
            .collect();
        Ok(PlayerCursor {
            games,
            resumed: false,
        })
    }

    /// Waits up to `timeout` for events after `after` (as the player or a
    /// spectator may see them), returning as soon as there are some, or an
    /// empty page at the timeout or when the game is over. With
    /// `messages_after`, messages after it (table talk, as the viewer may
    /// read them) end the wait too, and come with the page.
    pub async fn wait_events(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
        timeout: Duration,
        messages_after: Option<i64>,
    ) -> Result<(LogPage, Option<super::chat::MessagePage>), ServiceError> {
        let mut sub = self.subscribe_game(game_id);
        let mut stop = self.shutdown.subscribe();
        let until = tokio::time::Instant::now() + timeout;
        loop {
            let page = self.events_page(game_id, player_id, after, limit).await?;
            let messages = match messages_after {
                Some(m) => Some(self.visible_messages(game_id, player_id, m, limit).await?),
                None => None,
            };
            let talk = messages.as_ref().is_some_and(|m| !m.messages.is_empty());
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            if !page.events.is_empty() || talk || page.closed || left.is_zero() || *stop.borrow() {
                return Ok((page, messages));
            }
            // Table talk wakes only a poll that asked for it.
            let woke = async {
                loop {
                    let left = until.saturating_duration_since(tokio::time::Instant::now());
                    match sub.wait_for(game_id, left).await {
                        Some(Changed::Message { .. }) if messages_after.is_none() => {}
                        _ => return,
                    }
                }
            };
            tokio::select! {
                _ = stop.changed() => {}
                _ = woke => {}
            }
        }
    }

    /// Sends the game's events after `cursor` to `tx` as they are appended,
    /// each followed by the game's state when it is the latest, and a
    /// heartbeat after each quiet `pace.heartbeat`. Messages of table talk
    /// after `messages` (their own seq, never the log's cursor) go out as
    /// they are posted, as the viewer may read them: read at the start,
    /// on each message signal and at each heartbeat. After a wake-up it
    /// waits `pace.gather` first, so that the appends made meanwhile are
    /// sent together (a spectator's stream: one wake-up and one write per
    /// spell, not per move). Ends when the connection is
    /// gone or, once the game is over, after its last event.
    pub async fn follow_game(
        self: Arc<Self>,
        mut sub: Subscription,
        game_id: String,
        player_id: Option<String>,
        start: StreamStart,
        pace: Pace,
        tx: Outbox<GameStreamItem>,
    ) -> Result<(), ServiceError> {
        let mut f = Following {
            game_id,
            player_id,
            pace,
            cursor: start.after,
            messages: start.messages_after,
            pushed: None,
            talk: start.read_messages,
            talk_only: false,
        };
        // A stopping server ends its streams, so that its graceful shutdown
        // need not wait for them; clients resume elsewhere with Last-Event-ID.
        let mut stop = self.shutdown.subscribe();
        // A fresh stream is at its snapshot's version: nothing to read
        // before the first signal (its messages, if asked for, go first).
        if !start.read_log
            && (*stop.borrow()
                || (std::mem::take(&mut f.talk) && !self.send_messages(&mut f, &tx).await?)
                || !self.wait_next(&mut f, &mut sub, &mut stop, &tx).await?)
        {
            return Ok(());
        }
        loop {
            if *stop.borrow() {
                return Ok(());
            }
            if std::mem::take(&mut f.talk) && !self.send_messages(&mut f, &tx).await? {
                return Ok(());
            }
            if std::mem::take(&mut f.talk_only) {
                // Only messages were signalled: the log need not be read.
                if !self.wait_next(&mut f, &mut sub, &mut stop, &tx).await? {
                    return Ok(());
                }
                continue;
            }
            let page = match f.pushed.take() {
                Some(Handed::Unseated(appends)) => {
                    self.metrics().stream_handed.inc();
                    if !send_unseated(&mut f, appends, &tx).await
                        || !self.wait_next(&mut f, &mut sub, &mut stop, &tx).await?
                    {
                        return Ok(());
                    }
                    continue;
                }
                Some(Handed::Page(page)) => {
                    self.metrics().stream_handed.inc();
                    *page
                }
                None => {
                    self.metrics().stream_reads.inc();
                    self.events_page(&f.game_id, f.player_id.as_deref(), f.cursor, CATCH_UP_PAGE)
                        .await?
                }
            };
            let read = page.events.len();
            // Only events up to the row's version, so the state sent after
            // them is exactly theirs.
            let events: Vec<_> = page
                .events
                .into_iter()
                .filter(|e| e.row.seq <= page.version)
                .collect();
            // A full page, or events past the row read: there is more now.
            let more = events.len() < read || read as i64 >= CATCH_UP_PAGE;
            for event in events {
                f.cursor = event.row.seq;
                let item = GameStreamItem::Event(Box::new(event));
                if tx.send(item).await.is_err() {
                    return Ok(());
                }
            }
            if read > 0 && f.cursor == page.version {
                let state = GameStreamItem::State(Box::new(page.row));
                if tx.send(state).await.is_err() {
                    return Ok(());
                }
            }
            if more {
                // A long catch-up (a finished game read from its start)
                // lets the worker's other connections go between pages.
                tokio::task::yield_now().await;
                continue;
            }
            if page.closed && f.cursor >= page.version {
                return Ok(());
            }
            // Every append after the read signals the subscription (taken
            // before the first read), so waiting now misses none.
            if !self.wait_next(&mut f, &mut sub, &mut stop, &tx).await? {
                return Ok(());
            }
        }
    }

    /// Sends the messages after `f.messages` that the stream's viewer may
    /// read, moving that cursor on; false once the connection is gone.
    async fn send_messages(
        &self,
        f: &mut Following,
        tx: &Outbox<GameStreamItem>,
    ) -> Result<bool, ServiceError> {
        loop {
            let page = self
                .visible_messages(&f.game_id, f.player_id.as_deref(), f.messages, MESSAGE_PAGE)
                .await?;
            let full = page.messages.len() as i64 >= MESSAGE_PAGE;
            for message in page.messages {
                f.messages = message.seq;
                if tx
                    .send(GameStreamItem::Message(Box::new(message)))
                    .await
                    .is_err()
                {
                    return Ok(false);
                }
            }
            if !full {
                return Ok(true);
            }
        }
    }

    /// A game stream's wait for its next signal, which says what to read
    /// next in `f`: on a quiet spell a heartbeat, and a read of the log (and
    /// of the messages when there are any after `f.messages`); else the
    /// appends handed over (`f.pushed`), the messages (`f.talk`), or only
    /// those (`f.talk_only`). False once the connection is gone or the server
    /// stops.
    async fn wait_next(
        &self,
        f: &mut Following,
        sub: &mut Subscription,
        stop: &mut tokio::sync::watch::Receiver<bool>,
        tx: &Outbox<GameStreamItem>,
    ) -> Result<bool, ServiceError> {
        let Pace { heartbeat, gather } = f.pace;
        loop {
            let woke = tokio::select! {
                _ = stop.changed() => return Ok(false),
                woke = sub.wait_for(&f.game_id, heartbeat) => woke,
            };
            match woke {
                // A quiet spell: a heartbeat, and a read (a signal lost
                // between processes only delays).
                None => {
                    if tx.send(GameStreamItem::Heartbeat).await.is_err() {
                        return Ok(false);
                    }
                    // One look at the last message seq (a message signal
                    // lost between processes only delays too).
                    f.talk = self.db.last_message_seq(&f.game_id).await? > f.messages;
                }
                // Sent already (the read after an earlier signal).
                Some(Changed::Game { version, .. }) if version <= f.cursor => continue,
                Some(first) => {
                    // Gathering: whatever else is appended meanwhile
                    // goes out with it, in one write.
                    if !gather.is_zero() {
                        tokio::select! {
                            _ = stop.changed() => return Ok(false),
                            _ = tokio::time::sleep(gather) => {}
                        }
                    }
                    // Sized for a busy spell at once, not grown signal by
                    // signal (a spectator's every spell).
                    let mut signals = Vec::with_capacity(SPELL_SIGNALS);
                    signals.push(first);
                    signals.extend(std::iter::from_fn(|| sub.try_next()));
                    let before = signals.len();
                    signals.retain(|s| !matches!(s, Changed::Message { .. }));
                    if signals.len() < before {
                        f.talk = true;
                        if signals.is_empty() {
                            f.talk_only = true;
                            return Ok(true);
                        }
                    }
                    if signals.contains(&Changed::Anything) {
                        f.talk = true;
                    }
                    f.pushed = Handed::of_signals(signals, f.player_id.as_deref(), f.cursor);
                }
            }
            return Ok(true);
        }
    }

    /// Sends `player_id`'s notices across all their games, from `start`:
    /// its position first; on a fresh start a `your_turn` for every game
    /// already waiting for them (a resumed one looks at every game at once
    /// instead); then, as games change, `seat_taken`, `game_started`,
    /// `game_over`, and `your_turn` whenever one of their seats newly has
    /// to act (once per turn). Every notice carries the position after it.
    pub async fn follow_player(
        self: Arc<Self>,
        mut sub: Subscription,
        player_id: String,
        start: PlayerCursor,
        heartbeat: Duration,
        tx: Outbox<Box<PlayerStreamEntry>>,
    ) -> Result<(), ServiceError> {
        // The reads below are boxed: a future is as large as the largest
        // one it awaits, and this one lives as long as the stream, almost
        // always idle in the `select!` (an unboxed read made the task ~4 KB
        // per open stream; docs/performance.md, section 12).
        let mut followed = start.games;
        if !send(&tx, PlayerStreamItem::Position, &followed).await {
            return Ok(());
        }
        if start.resumed {
            let ids = Box::pin(self.all_games_of(&player_id, &followed)).await?;
            if !Box::pin(self.check_games(&player_id, ids, &mut followed, &tx)).await? {
                return Ok(());
            }
        } else {
            for turn in Box::pin(self.inbox(&player_id)).await? {
                if let Some(f) = followed.get_mut(&turn.game_id) {
                    f.announced = true;
                }
                if !send(&tx, PlayerStreamItem::YourTurn(turn), &followed).await {
                    return Ok(());
                }
            }
        }
        let mut stop = self.shutdown.subscribe();
        loop {
            let signal = tokio::select! {
                _ = stop.changed() => return Ok(()),
                signal = tokio::time::timeout(heartbeat, sub.next()) => signal,
            };
            let to_check: Vec<String> = match signal {
                Ok(Changed::Game { game_id, .. })
                    if game_id.starts_with(super::notify::CHALLENGE_TOPIC) =>
                {
                    let id = &game_id[super::notify::CHALLENGE_TOPIC.len()..];
                    if !Box::pin(self.send_challenge(&player_id, id, &followed, &tx)).await? {
                        return Ok(());
                    }
                    continue;
                }
                Ok(Changed::Game {
                    game_id, version, ..
                }) => match followed.get(&*game_id) {
                    Some(f) if f.cursor >= version => continue,
                    _ => vec![game_id.to_string()],
                },
                // Table talk is never routed to a player stream.
                Ok(Changed::Message { .. }) => continue,
                // After a lag or a reconnect: look again at every game of
                // the player's (new ones included).
                Ok(Changed::Anything) => Box::pin(self.all_games_of(&player_id, &followed)).await?,
                // A quiet spell: a heartbeat, and another look at the games
                // followed (a signal lost between processes only delays).
                // A stream that follows none reads nothing: every change
                // that concerns it is routed to it (`notify`), so idle
                // streams cost the database nothing.
                Err(_) => {
                    let beat = Box::new(PlayerStreamEntry {
                        item: PlayerStreamItem::Heartbeat,
                        id: None,
                    });
                    if tx.send(beat).await.is_err() {
                        return Ok(());
                    }
                    followed.keys().cloned().collect()
                }
            };
            if !Box::pin(self.check_games(&player_id, to_check, &mut followed, &tx)).await? {
                return Ok(());
            }
        }
    }

    /// Sends challenge `id` as it stands, if it concerns `player_id`; false
    /// once the connection is gone.
    async fn send_challenge(
        &self,
        player_id: &str,
        id: &str,
        followed: &BTreeMap<String, Followed>,
        tx: &Outbox<Box<PlayerStreamEntry>>,
    ) -> Result<bool, ServiceError> {
        let Some(c) = self.db.challenge(id).await? else {
            return Ok(true);
        };
        let concerns = c.row.challenger_id == player_id
            || c.players.iter().any(|(p, _)| p.player_id == player_id);
        if !concerns {
            return Ok(true);
        }
        Ok(send(tx, PlayerStreamItem::Challenge(Box::new(c)), followed).await)
    }

    /// The games a player stream looks at after a lag or a resume: those
    /// it follows, and the player's active games it does not follow yet.
    async fn all_games_of(
        &self,
        player_id: &str,
        followed: &BTreeMap<String, Followed>,
    ) -> Result<Vec<String>, ServiceError> {
        let mut ids: Vec<String> = followed.keys().cloned().collect();
        for (id, _) in self.db.active_games_of(player_id).await? {
            if !followed.contains_key(&id) {
                ids.push(id);
            }
        }
        Ok(ids)
    }

    /// Sends what is new in each of `game_ids`, each notice with the
    /// position after it; false once the connection is gone.
    async fn check_games(
        &self,
        player_id: &str,
        game_ids: Vec<String>,
        followed: &mut BTreeMap<String, Followed>,
        tx: &Outbox<Box<PlayerStreamEntry>>,
    ) -> Result<bool, ServiceError> {
        for game_id in game_ids {
            let current = followed.get(&game_id).copied();
            let found = self.player_notices(&game_id, player_id, current).await?;
            for (item, state) in found.items {
                set(followed, &game_id, state);
                if !send(tx, item, followed).await {
                    return Ok(false);
                }
            }
            set(followed, &game_id, found.then);
        }
        Ok(true)
    }

    /// What is new for `player_id` in `game_id` since `current` (none: the
    /// stream has not seen the game yet).
    async fn player_notices(
        &self,
        game_id: &str,
        player_id: &str,
        current: Option<Followed>,
    ) -> Result<GameNotices, ServiceError> {
        let gone = GameNotices {
            items: Vec::new(),
            then: None,
        };
        let Some(row) = self.db.game(game_id).await? else {
            return Ok(gone);
        };
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        let Some(seat) = seat_of(&seats, player_id) else {
            return Ok(gone); // not (or no longer) theirs
        };
        // A game over that the stream does not follow is one it has said
        // `game_over` for (and dropped) or never saw running: a late or
        // repeated signal for it (another process's NOTIFY of an append
        // this one has sent already) must not replay it from its first
        // event.
        if current.is_none() && row.status.is_closed() {
            return Ok(gone);
        }
        let mut f = current.unwrap_or(Followed::NEW);
        // Nothing new in the log: only whether a turn is still unannounced
        // (a resumed cursor may stop just before its `your_turn`).
        let events = if f.cursor < row.version {
            let limit = row.version - f.cursor;
            self.db.events(game_id, f.cursor, limit).await?
        } else {
            Vec::new()
        };
        let mut items = Vec::new();
        // A game new to the stream that a seek of the player's seated them
        // at: `seek_matched` first (a stream resumed after it follows the
        // game, so it is sent once).
        if current.is_none()
            && let Some(notice) = self
                .db
                .seek_of_seat(game_id, player_id)
                .await?
                .as_ref()
                .and_then(SeekNotice::of)
        {
            items.push((PlayerStreamItem::SeekMatched(notice), Some(f)));
        }
        for event in events {
            f.cursor = event.seq;
            let notice = || Notice {
                game_id: game_id.to_owned(),
                seq: event.seq,
                event: event.event.payload(),
            };
            match &event.event {
                GameEvent::SeatTaken(_) => {
                    items.push((PlayerStreamItem::SeatTaken(notice()), Some(f)));
                }
                GameEvent::GameStarted(_) => {
                    items.push((PlayerStreamItem::GameStarted(notice()), Some(f)));
                }
                // Nothing follows a game's end: the position drops it.
                GameEvent::GameFinished(_) => {
                    items.push((PlayerStreamItem::GameOver(notice()), None))
                }
                GameEvent::Move(_) if event.actor_seat == Some(i32::from(seat.number())) => {
                    f.announced = false;
                }
                _ => {}
            }
        }
        let to_act = row.status == GameStatus::InProgress && row.to_act & (1 << seat.number()) != 0;
        if f.cursor >= row.version && to_act && !f.announced {
            f.announced = true;
            let turn = self.your_turn(&row, seat).await?;
            items.push((PlayerStreamItem::YourTurn(turn), Some(f)));
        }
        f.announced = to_act;
        let then = (!row.status.is_closed()).then_some(f);
        Ok(GameNotices { items, then })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(games: &[(&str, i64, bool)]) -> PlayerCursor {
        let games = games
            .iter()
            .map(|(id, cursor, announced)| {
                let f = Followed {
                    cursor: *cursor,
                    announced: *announced,
                };
                (id.to_string(), f)
            })
            .collect();
        PlayerCursor {
            games,
            resumed: true,
        }
    }

    #[test]
    fn a_player_cursor_reads_back_as_written() {
        let a = "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47";
        let b = "ffffffff-0000-4000-8000-000000000001";
        for c in [
            cursor(&[]),
            cursor(&[(a, 0, false)]),
            cursor(&[(a, 14, true), (b, 212, false)]),
        ] {
            let text = c.encode();
            assert!(!text.contains(['\n', '\r', ' ']), "{text}");
            assert_eq!(PlayerCursor::decode(&text), Some(c), "{text}");
        }
        assert_eq!(
            cursor(&[(a, 14, true)]).encode(),
            "1.0b6f3c525d0e4bb49b1e3c1f8f9a2d47a14"
        );
    }

    #[test]
    fn a_player_cursor_not_written_by_the_server_is_refused() {
        let a = "0b6f3c525d0e4bb49b1e3c1f8f9a2d47";
        for bad in [
            "",
            "2",
            "12",
            "1.",
            &format!("1.{a}"),
            &format!("1.{a}x3"),
            &format!("1.{a}a"),
            &format!("1.{a}a-3"),
            &format!("1.{a}a3.{a}n4"), // a game twice
            "1.0b6f3c525d0e4bb49b1e3c1f8f9a2d4za3",
        ] {
            assert_eq!(PlayerCursor::decode(bad), None, "{bad:?}");
        }
        let many: String = (0..=PlayerCursor::MAX_GAMES)
            .map(|i| format!(".{:032x}n1", i))
            .collect();
        assert_eq!(PlayerCursor::decode(&format!("1{many}")), None);
    }
}
