//! Who learns of an append: "game G reached version V", routed to those who
//! care. A game's streams and long polls subscribe to the game; a player's
//! stream subscribes to the player, and an append is routed to every player
//! seated in its game (before or after it: a leaver hears their leaving),
//! so a change reaches only the streams it may concern and none of them
//! reads the database to find out that it does not. Signals come from this
//! process's own appends and, with Postgres, from the `LISTEN` connection
//! (other processes' appends, [`crate::db::listen`], whose payload carries
//! the seated players too).
//!
//! Streams subscribe before they read the log and re-read it after each
//! signal, so a signal is only a wake-up: a lost or lagging one costs a
//! delay (the streams also re-read on every heartbeat), never an event. A
//! signal whose players are unknown, or "anything may have changed" (a
//! `LISTEN` reconnect), goes to every player stream.
//!
//! A game's signals go through a broadcast ring shared by all its streams;
//! a player's through a [`Mailbox`] per stream that keeps the latest
//! version of each game changed, so an idle player stream costs a few
//! words, not a ring (docs/performance.md, section 12).
//!
//! One exception to "only a wake-up", for the game's streams: a signal of
//! this process's own append may carry what that append wrote, the rows as
//! stored ([`Appended`]), so that a stream exactly up to date with the log
//! sends them without reading it (a game with many spectators would
//! otherwise cost a read of the log per spectator per move). What a viewer
//! without a seat is sent for an append is the same for all of them, so
//! the first such stream renders it and the others send the same bytes.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use bytes::Bytes;
use tokio::sync::{Notify, broadcast};

use crate::db::listen::Heard;
use crate::db::models::{EventRow, GameRow, SeatWithName};

/// The prefix of a challenge's topic: its players' mailboxes take a change
/// of challenge `<id>` as a change of "game" `challenge:<id>` (the same
/// routing, and across processes the same `NOTIFY` line), and a player
/// stream reads the challenge (`watch.rs`, `games::challenges`).
pub const CHALLENGE_TOPIC: &str = "challenge:";

/// A signal: one game changed, or anything may have (after a reconnect or
/// when a receiver lagged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed {
    Game {
        game_id: Arc<str>,
        version: i64,
        /// The players seated in the game around the change; `None` when
        /// not known (then every player stream looks).
        players: Option<Arc<[String]>>,
        /// What the append wrote, when it was this process's and the game
        /// has streams here to take it.
        appended: Option<Rows>,
    },
    /// A message was posted to a game (table talk, `games::chat`): its
    /// streams and long polls read the messages after their cursor. Routed
    /// to the game only (never a player stream).
    Message {
        game_id: Arc<str>,
        seq: i64,
    },
    Anything,
}

/// What one append wrote, exactly as a read of the store would give it
/// back: its events (seqs `version - events.len() + 1 ..= version`) and the
/// game's row and seats after it; and, once a stream of a viewer without a
/// seat has rendered them, that viewer's frames.
#[derive(Debug)]
pub struct Appended {
    pub events: Vec<EventRow>,
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    /// One frame per event, then the state after them, as every viewer
    /// without a seat is sent them (G-2: they all read the same).
    unseated: Box<[OnceLock<Bytes>]>,
}

impl Appended {
    pub fn new(events: Vec<EventRow>, row: GameRow, seats: Vec<SeatWithName>) -> Appended {
        let unseated = (0..=events.len()).map(|_| OnceLock::new()).collect();
        Appended {
            events,
            row,
            seats,
            unseated,
        }
    }

    /// The frame of event `i` for a viewer without a seat: rendered by
    /// `render` (from the event as that viewer reads it,
    /// `reads::unseated_event`) by the first stream that asks, the same
    /// bytes for every other; and whether another stream had rendered it.
    pub fn unseated_frame(&self, i: usize, render: impl FnOnce() -> Bytes) -> (&Bytes, bool) {
        shared(&self.unseated[i], render)
    }

    /// The frame of the game's state after the append, rendered once as
    /// [`Appended::unseated_frame`] (it is the same for every viewer).
    pub fn state_frame(&self, render: impl FnOnce(&GameRow) -> Bytes) -> (&Bytes, bool) {
        let last = self.unseated.len() - 1;
        shared(&self.unseated[last], || render(&self.row))
    }
}

/// `cell`'s bytes, rendered by `render` when empty; whether they were
/// there. Lent, not cloned: a stream copies them into its write, and a
/// clone per stream and frame was two atomic operations on one shared
/// count each (1,000 spectators, docs/performance.md, section 12).
pub(super) fn shared(cell: &OnceLock<Bytes>, render: impl FnOnce() -> Bytes) -> (&Bytes, bool) {
    let mut rendered_here = false;
    let bytes = cell.get_or_init(|| {
        rendered_here = true;
        render()
    });
    (bytes, !rendered_here)
}

/// An [`Appended`], shared by every receiver of the signal (equal only to
/// itself: two appends are never the same one).
#[derive(Debug, Clone)]
pub struct Rows(pub Arc<Appended>);

impl PartialEq for Rows {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Rows {}

impl Changed {
    /// Whether this signal may concern `game_id`.
    pub fn concerns(&self, game_id: &str) -> bool {
        match self {
            Changed::Game { game_id: g, .. } | Changed::Message { game_id: g, .. } => {
                &**g == game_id
            }
            Changed::Anything => true,
        }
    }
}

impl From<Heard> for Changed {
    fn from(heard: Heard) -> Self {
        match heard {
            Heard::Appended {
                game_id,
                version,
                players,
            } => Changed::Game {
                game_id: game_id.into(),
                version,
                players: players.map(Into::into),
                appended: None,
            },
            Heard::Message { game_id, seq } => Changed::Message {
                game_id: game_id.into(),
                seq,
            },
            Heard::Resync => Changed::Anything,
        }
    }
}

/// The players of `seats`, once each, in a signal's form.
pub fn seated_players<'a>(
    seats: impl IntoIterator<Item = &'a crate::db::models::SeatWithName>,
) -> Arc<[String]> {
    let mut players: Vec<String> = seats
        .into_iter()
        .filter_map(|s| s.seat.player_id.clone())
        .collect();
    players.sort_unstable();
    players.dedup();
    players.into()
}

/// The games a player stream's [`Mailbox`] keeps apart before it reads as
/// `Anything` (a look at every game of the player's): more than a player
/// plays at once, and a bound on what one stream may hold.
const MAILBOX_GAMES: usize = 64;

/// The signals a game's receiver may hold before it lags (and then reads
/// the log). One ring per game followed, shared by all its streams, and a
/// game's spectators gather its appends for a spell
/// (`Config::spectator_gather`) and must not lag meanwhile, or each of them
/// reads the log instead of taking the appends handed over (still right,
/// but a read per stream: a spell long enough for 256 appends of one game
/// costs that).
const GAME_CAPACITY: usize = 256;

/// The same for the signals to every player stream (rare: unknown players,
/// a `LISTEN` reconnect).
const EVERYONE_CAPACITY: usize = 1024;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere cannot leave what these guard half-written: each
    // change under them is one insert, push or remove.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// One broadcast per game that somebody follows.
#[derive(Debug)]
struct Topics<K> {
    senders: Mutex<HashMap<K, broadcast::Sender<Changed>>>,
    /// The ring of each topic's broadcast.
    capacity: usize,
}

impl<K: Eq + Hash + Clone> Topics<K> {
    fn new(capacity: usize) -> Self {
        Topics {
            senders: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    fn subscribe(&self, key: &K) -> broadcast::Receiver<Changed> {
        let capacity = self.capacity;
        lock(&self.senders)
            .entry(key.clone())
            .or_insert_with(|| broadcast::channel(capacity).0)
            .subscribe()
    }

    fn send(&self, key: &K, changed: &Changed) {
        if let Some(tx) = lock(&self.senders).get(key) {
            // No receiver left is not an error: `unsubscribe` removes it.
            let _ = tx.send(changed.clone());
        }
    }

    /// Drops `rx` and, when it was the key's last receiver, the key.
    fn unsubscribe(&self, key: &K, rx: broadcast::Receiver<Changed>) {
        let mut topics = lock(&self.senders);
        drop(rx);
        if topics.get(key).is_some_and(|tx| tx.receiver_count() == 0) {
            topics.remove(key);
        }
    }

    fn len(&self) -> usize {
        lock(&self.senders).len()
    }

    fn contains<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        lock(&self.senders).contains_key(key)
    }
}

/// A player stream's signals not taken yet: the latest version of each of
/// its games that changed. It never lags behind a busy game and holds
/// nothing while the stream is idle, where a ring would be allocated whole
/// for every open stream.
#[derive(Debug, Default)]
struct Mailbox {
    pending: Mutex<Pending>,
    posted: Notify,
}

#[derive(Debug, Default)]
struct Pending {
    /// One entry per game, in the order they first changed.
    games: Vec<(Arc<str>, i64)>,
    /// More than [`MAILBOX_GAMES`] games changed before the stream looked:
    /// it looks at all of them (`Anything`).
    overflowed: bool,
}

impl Mailbox {
    fn post(&self, game_id: &Arc<str>, version: i64) {
        {
            let mut pending = lock(&self.pending);
            if let Some(entry) = pending.games.iter_mut().find(|(g, _)| g == game_id) {
                entry.1 = entry.1.max(version);
            } else if pending.games.len() < MAILBOX_GAMES {
                pending.games.push((game_id.clone(), version));
            } else {
                pending.overflowed = true;
            }
        }
        // Stores a wake-up when the stream is not waiting yet.
        self.posted.notify_one();
    }

    fn take(&self) -> Option<Changed> {
        let mut pending = lock(&self.pending);
        if std::mem::take(&mut pending.overflowed) {
            pending.games.clear();
            return Some(Changed::Anything);
        }
        if pending.games.is_empty() {
            return None;
        }
        let (game_id, version) = pending.games.remove(0);
        Some(Changed::Game {
            game_id,
            version,
            players: None,
            appended: None,
        })
    }
}

/// Each player's open streams' mailboxes.
#[derive(Debug, Default)]
struct Mailboxes {
    by_player: Mutex<HashMap<String, Vec<Arc<Mailbox>>>>,
}

impl Mailboxes {
    fn open(&self, player_id: &str) -> Arc<Mailbox> {
        let mailbox = Arc::new(Mailbox::default());
        lock(&self.by_player)
            .entry(player_id.to_owned())
            .or_default()
            .push(mailbox.clone());
        mailbox
    }

    fn post(&self, player_id: &str, game_id: &Arc<str>, version: i64) {
        if let Some(mailboxes) = lock(&self.by_player).get(player_id) {
            for mailbox in mailboxes {
                mailbox.post(game_id, version);
            }
        }
    }

    /// Removes `mailbox` and, when it was the player's last, the player.
    fn close(&self, player_id: &str, mailbox: &Arc<Mailbox>) {
        let mut by_player = lock(&self.by_player);
        if let Some(mailboxes) = by_player.get_mut(player_id) {
            mailboxes.retain(|m| !Arc::ptr_eq(m, mailbox));
            if mailboxes.is_empty() {
                by_player.remove(player_id);
            }
        }
    }

    fn len(&self) -> usize {
        lock(&self.by_player).len()
    }
}

#[derive(Debug)]
struct Routes {
    games: Topics<Arc<str>>,
    players: Mailboxes,
    /// Signals for every player stream: unknown players, `Anything`.
    everyone: broadcast::Sender<Changed>,
}

/// The router (cheap to clone: one shared table).
#[derive(Debug, Clone)]
pub struct Notifier {
    routes: Arc<Routes>,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            routes: Arc::new(Routes {
                games: Topics::new(GAME_CAPACITY),
                players: Mailboxes::default(),
                everyone: broadcast::channel(EVERYONE_CAPACITY).0,
            }),
        }
    }
}

/// Where a subscription's own signals come from.
#[derive(Debug)]
enum Inbox {
    /// The game's ring (taken out when dropped, to unsubscribe).
    Game {
        game_id: Arc<str>,
        rx: Option<broadcast::Receiver<Changed>>,
    },
    Player {
        player_id: String,
        mailbox: Arc<Mailbox>,
    },
}

impl Notifier {
    /// The signals concerning one game (and `Anything`).
    pub fn subscribe_game(&self, game_id: &str) -> Subscription {
        let game_id: Arc<str> = game_id.into();
        let rx = Some(self.routes.games.subscribe(&game_id));
        self.subscription(Inbox::Game { game_id, rx })
    }

    /// The signals concerning the games `player_id` sits in, those whose
    /// players are unknown, and `Anything`.
    pub fn subscribe_player(&self, player_id: &str) -> Subscription {
        let mailbox = self.routes.players.open(player_id);
        self.subscription(Inbox::Player {
            player_id: player_id.to_owned(),
            mailbox,
        })
    }

    fn subscription(&self, inbox: Inbox) -> Subscription {
        Subscription {
            routes: self.routes.clone(),
            inbox,
            everyone: self.routes.everyone.subscribe(),
        }
    }

    pub fn send(&self, changed: Changed) {
        let routes = &self.routes;
        match &changed {
            Changed::Game {
                game_id,
                version,
                players,
                ..
            } => {
                routes.games.send(game_id, &changed);
                match players {
                    Some(players) => {
                        for player in players.iter() {
                            routes.players.post(player, game_id, *version);
                        }
                    }
                    None => {
                        let _ = routes.everyone.send(changed.clone());
                    }
                }
            }
            Changed::Message { game_id, .. } => routes.games.send(game_id, &changed),
            Changed::Anything => {
                let _ = routes.everyone.send(changed.clone());
            }
        }
    }

    /// Whether any stream or long poll of this process follows `game_id`
    /// now (only then is an append's [`Appended`] worth building).
    pub fn watched(&self, game_id: &str) -> bool {
        self.routes.games.contains(game_id)
    }

    /// How many games and players are listened to now.
    pub fn topics(&self) -> (usize, usize) {
        (self.routes.games.len(), self.routes.players.len())
    }
}

/// One receiver: its own signals and the signals for everyone (a game's
/// subscription takes only `Anything` from those).
#[derive(Debug)]
pub struct Subscription {
    routes: Arc<Routes>,
    inbox: Inbox,
    everyone: broadcast::Receiver<Changed>,
}

/// A signal received, or a lag (`Anything`).
fn received<E>(signal: Result<Changed, E>, lagged: impl Fn(&E) -> bool) -> Option<Changed> {
    match signal {
        Ok(changed) => Some(changed),
        Err(e) if lagged(&e) => Some(Changed::Anything),
        Err(_) => None,
    }
}

impl Subscription {
    /// Whether a signal for everyone is this subscription's: a game's own
    /// topic brings all its signals, so from those it needs only
    /// `Anything`.
    fn wants_for_everyone(&self, changed: &Changed) -> bool {
        matches!(self.inbox, Inbox::Player { .. }) || *changed == Changed::Anything
    }

    /// The next signal; a lag (missed signals) reads as `Anything`.
    pub async fn next(&mut self) -> Changed {
        use broadcast::error::RecvError;
        let lagged = |e: &RecvError| matches!(e, RecvError::Lagged(_));
        loop {
            let for_everyone = match &mut self.inbox {
                Inbox::Game { rx, .. } => {
                    let rx = rx.as_mut().expect("held until dropped");
                    tokio::select! {
                        own = rx.recv() => match received(own, lagged) {
                            Some(changed) => return changed,
                            None => None,
                        },
                        all = self.everyone.recv() => received(all, lagged),
                    }
                }
                Inbox::Player { mailbox, .. } => {
                    if let Some(changed) = mailbox.take() {
                        return changed;
                    }
                    tokio::select! {
                        () = mailbox.posted.notified() => continue,
                        all = self.everyone.recv() => received(all, lagged),
                    }
                }
            };
            match for_everyone {
                Some(changed) if self.wants_for_everyone(&changed) => return changed,
                Some(_) => {}
                // The senders live as long as the service: wait forever.
                None => std::future::pending().await,
            }
        }
    }

    /// The next signal if one is waiting already (a lag reads as
    /// `Anything`), without waiting.
    pub fn try_next(&mut self) -> Option<Changed> {
        use broadcast::error::TryRecvError;
        let lagged = |e: &TryRecvError| matches!(e, TryRecvError::Lagged(_));
        let own = match &mut self.inbox {
            Inbox::Game { rx, .. } => {
                received(rx.as_mut().expect("held until dropped").try_recv(), lagged)
            }
            Inbox::Player { mailbox, .. } => mailbox.take(),
        };
        if own.is_some() {
            return own;
        }
        loop {
            let changed = received(self.everyone.try_recv(), lagged)?;
            if self.wants_for_everyone(&changed) {
                return Some(changed);
            }
        }
    }

    /// Waits up to `timeout` for a signal concerning `game_id`: that
    /// signal, or `None` on timeout.
    pub async fn wait_for(
        &mut self,
        game_id: &str,
        timeout: std::time::Duration,
    ) -> Option<Changed> {
        tokio::time::timeout(timeout, async {
            loop {
                let changed = self.next().await;
                if changed.concerns(game_id) {
                    return changed;
                }
            }
        })
        .await
        .ok()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        match &mut self.inbox {
            Inbox::Game { game_id, rx } => {
                if let Some(rx) = rx.take() {
                    self.routes.games.unsubscribe(game_id, rx);
                }
            }
            Inbox::Player { player_id, mailbox } => {
                self.routes.players.close(player_id, mailbox);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn changed(game: &str, players: Option<&[&str]>) -> Changed {
        Changed::Game {
            game_id: game.into(),
            version: 1,
            players: players.map(|p| p.iter().map(|s| s.to_string()).collect()),
            appended: None,
        }
    }

    async fn heard(sub: &mut Subscription) -> Option<Changed> {
        tokio::time::timeout(Duration::from_millis(50), sub.next())
            .await
            .ok()
    }

    #[tokio::test]
    async fn a_change_reaches_its_game_and_its_players_only() {
        let notifier = Notifier::default();
        let mut game_a = notifier.subscribe_game("a");
        let mut game_b = notifier.subscribe_game("b");
        let mut ann = notifier.subscribe_player("ann");
        let mut cid = notifier.subscribe_player("cid");
        notifier.send(changed("a", Some(&["ann", "bob"])));
        assert_eq!(
            heard(&mut game_a).await,
            Some(changed("a", Some(&["ann", "bob"])))
        );
        // A player stream hears which game and version, nothing more.
        assert_eq!(heard(&mut ann).await, Some(changed("a", None)));
        assert_eq!(heard(&mut game_b).await, None);
        assert_eq!(heard(&mut cid).await, None, "cid sits elsewhere");
    }

    #[tokio::test]
    async fn unknown_players_and_anything_reach_every_player_stream() {
        let notifier = Notifier::default();
        let mut game_b = notifier.subscribe_game("b");
        let mut cid = notifier.subscribe_player("cid");
        notifier.send(changed("a", None));
        assert_eq!(heard(&mut cid).await, Some(changed("a", None)));
        assert_eq!(heard(&mut game_b).await, None, "not b's game");
        notifier.send(Changed::Anything);
        assert_eq!(heard(&mut cid).await, Some(Changed::Anything));
        assert_eq!(heard(&mut game_b).await, Some(Changed::Anything));
    }

    #[tokio::test]
    async fn a_message_reaches_its_game_streams_only() {
        let notifier = Notifier::default();
        let mut game_a = notifier.subscribe_game("a");
        let mut game_b = notifier.subscribe_game("b");
        let mut ann = notifier.subscribe_player("ann");
        let posted = Changed::Message {
            game_id: "a".into(),
            seq: 1,
        };
        notifier.send(posted.clone());
        assert_eq!(heard(&mut game_a).await, Some(posted));
        assert_eq!(heard(&mut game_b).await, None);
        assert_eq!(heard(&mut ann).await, None, "not a player stream's");
    }

    #[tokio::test]
    async fn topics_go_with_their_last_subscriber() {
        let notifier = Notifier::default();
        let first = notifier.subscribe_game("a");
        let second = notifier.subscribe_game("a");
        let player = notifier.subscribe_player("ann");
        assert_eq!(notifier.topics(), (1, 1));
        drop(first);
        assert_eq!(notifier.topics(), (1, 1));
        drop((second, player));
        assert_eq!(notifier.topics(), (0, 0));
    }

    #[tokio::test]
    async fn a_player_stream_keeps_the_latest_version_of_each_game() {
        let notifier = Notifier::default();
        let mut ann = notifier.subscribe_player("ann");
        let signal = |game: &str, version| Changed::Game {
            game_id: game.into(),
            version,
            players: Some(vec!["ann".to_owned()].into()),
            appended: None,
        };
        for version in 1..=300 {
            notifier.send(signal("a", version));
        }
        notifier.send(signal("b", 7));
        notifier.send(signal("a", 301));
        let taken = |game: &str, version| Changed::Game {
            game_id: game.into(),
            version,
            players: None,
            appended: None,
        };
        assert_eq!(heard(&mut ann).await, Some(taken("a", 301)), "no lag");
        assert_eq!(heard(&mut ann).await, Some(taken("b", 7)));
        assert_eq!(heard(&mut ann).await, None);
    }

    #[tokio::test]
    async fn a_player_stream_with_too_many_games_changed_reads_anything() {
        let notifier = Notifier::default();
        let mut ann = notifier.subscribe_player("ann");
        for game in 0..=MAILBOX_GAMES {
            notifier.send(changed(&format!("g{game}"), Some(&["ann"])));
        }
        assert_eq!(heard(&mut ann).await, Some(Changed::Anything));
        assert_eq!(
            heard(&mut ann).await,
            None,
            "the games are looked at anyway"
        );
    }

    #[tokio::test]
    async fn every_stream_of_a_player_hears_its_games() {
        let notifier = Notifier::default();
        let mut first = notifier.subscribe_player("ann");
        let mut second = notifier.subscribe_player("ann");
        notifier.send(changed("a", Some(&["ann"])));
        assert!(heard(&mut first).await.is_some());
        assert!(heard(&mut second).await.is_some());
        drop(first);
        assert_eq!(notifier.topics(), (0, 1));
        drop(second);
        assert_eq!(notifier.topics(), (0, 0));
    }

    #[tokio::test]
    async fn waiting_signals_are_taken_without_waiting_and_a_lag_reads_anything() {
        let notifier = Notifier::default();
        let mut game = notifier.subscribe_game("a");
        assert_eq!(game.try_next(), None);
        notifier.send(changed("a", Some(&["ann"])));
        notifier.send(Changed::Anything);
        assert_eq!(game.try_next(), Some(changed("a", Some(&["ann"]))));
        assert_eq!(game.try_next(), Some(Changed::Anything));
        assert_eq!(game.try_next(), None);
        for _ in 0..GAME_CAPACITY + 1 {
            notifier.send(changed("a", None));
        }
        assert_eq!(game.try_next(), Some(Changed::Anything));
    }
}
