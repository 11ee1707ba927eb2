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
//! One exception to "only a wake-up", for the game's streams: a signal of
//! this process's own append may carry what that append wrote, the rows as
//! stored ([`Appended`]), so that a stream exactly up to date with the log
//! sends them without reading it (a game with many spectators would
//! otherwise cost a read of the log per spectator per move). Anything else,
//! a stream behind or a signal without rows, reads the log as before.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::db::listen::Heard;
use crate::db::models::{EventRow, GameRow, SeatWithName};

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
/// game's row and seats after it.
#[derive(Debug)]
pub struct Appended {
    pub events: Vec<EventRow>,
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
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

/// Signals one player's receiver may hold before it lags (and then
/// re-reads all its games). Small: a player topic's ring is allocated whole
/// when the topic is made, one per open player stream (256 slots cost ~20 KB
/// a stream, 10,000 idle streams ~200 MB: docs/performance.md), and a stream
/// that falls 16 signals behind only re-reads its games.
const PLAYER_CAPACITY: usize = 16;

/// The same for a game's receivers. Larger: one ring per game followed,
/// shared by all its streams, and a game's spectators gather its appends
/// for a spell (`sse::SPECTATOR_GATHER`: each append signals twice with
/// Postgres, once here and once as heard back) and must not lag meanwhile,
/// or each of them reads the log instead of taking the appends handed over.
const GAME_CAPACITY: usize = 256;

/// The same for the signals to every player stream (rare: unknown players,
/// a `LISTEN` reconnect).
const EVERYONE_CAPACITY: usize = 1024;

/// One broadcast per key that somebody listens to.
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

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, broadcast::Sender<Changed>>> {
        // A panic elsewhere cannot leave the map half-written.
        self.senders.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn subscribe(&self, key: &K) -> broadcast::Receiver<Changed> {
        let capacity = self.capacity;
        let mut topics = self.lock();
        topics
            .entry(key.clone())
            .or_insert_with(|| broadcast::channel(capacity).0)
            .subscribe()
    }

    fn send(&self, key: &K, changed: &Changed) {
        if let Some(tx) = self.lock().get(key) {
            // No receiver left is not an error: `unsubscribe` removes it.
            let _ = tx.send(changed.clone());
        }
    }

    /// Drops `rx` and, when it was the key's last receiver, the key.
    fn unsubscribe(&self, key: &K, rx: broadcast::Receiver<Changed>) {
        let mut topics = self.lock();
        drop(rx);
        if topics.get(key).is_some_and(|tx| tx.receiver_count() == 0) {
            topics.remove(key);
        }
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    fn contains<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.lock().contains_key(key)
    }
}

#[derive(Debug)]
struct Routes {
    games: Topics<Arc<str>>,
    players: Topics<String>,
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
                players: Topics::new(PLAYER_CAPACITY),
                everyone: broadcast::channel(EVERYONE_CAPACITY).0,
            }),
        }
    }
}

/// What a subscription listens to.
#[derive(Debug, Clone)]
enum Topic {
    Game(Arc<str>),
    Player(String),
}

impl Notifier {
    /// The signals concerning one game (and `Anything`).
    pub fn subscribe_game(&self, game_id: &str) -> Subscription {
        let game_id: Arc<str> = game_id.into();
        let rx = self.routes.games.subscribe(&game_id);
        self.subscription(Topic::Game(game_id), rx)
    }

    /// The signals concerning the games `player_id` sits in, those whose
    /// players are unknown, and `Anything`.
    pub fn subscribe_player(&self, player_id: &str) -> Subscription {
        let rx = self.routes.players.subscribe(&player_id.to_owned());
        self.subscription(Topic::Player(player_id.to_owned()), rx)
    }

    fn subscription(&self, topic: Topic, rx: broadcast::Receiver<Changed>) -> Subscription {
        Subscription {
            routes: self.routes.clone(),
            topic,
            rx: Some(rx),
            everyone: self.routes.everyone.subscribe(),
        }
    }

    pub fn send(&self, changed: Changed) {
        let routes = &self.routes;
        match &changed {
            Changed::Game {
                game_id, players, ..
            } => {
                routes.games.send(game_id, &changed);
                match players {
                    Some(players) => {
                        for player in players.iter() {
                            routes.players.send(player, &changed);
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

/// One receiver: its own topic and the signals for everyone (a game's
/// subscription takes only `Anything` from those).
#[derive(Debug)]
pub struct Subscription {
    routes: Arc<Routes>,
    topic: Topic,
    rx: Option<broadcast::Receiver<Changed>>,
    everyone: broadcast::Receiver<Changed>,
}

impl Subscription {
    /// Whether a signal received is this subscription's: a game's own
    /// topic brings all its signals, so from those for everyone it needs
    /// only `Anything`.
    fn wants(&self, for_everyone: bool, changed: &Changed) -> bool {
        let game_stream = matches!(self.topic, Topic::Game(_));
        !(for_everyone && game_stream && *changed != Changed::Anything)
    }

    /// The next signal; a lag (missed signals) reads as `Anything`.
    pub async fn next(&mut self) -> Changed {
        loop {
            let rx = self.rx.as_mut().expect("held until dropped");
            let (for_everyone, received) = tokio::select! {
                own = rx.recv() => (false, own),
                all = self.everyone.recv() => (true, all),
            };
            let changed = match received {
                Ok(changed) => changed,
                Err(broadcast::error::RecvError::Lagged(_)) => Changed::Anything,
                // The senders live as long as the service: wait forever.
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            };
            if self.wants(for_everyone, &changed) {
                return changed;
            }
        }
    }

    /// The next signal if one is waiting already (a lag reads as
    /// `Anything`), without waiting.
    pub fn try_next(&mut self) -> Option<Changed> {
        use broadcast::error::TryRecvError;
        loop {
            let rx = self.rx.as_mut().expect("held until dropped");
            let (for_everyone, received) = match rx.try_recv() {
                Err(TryRecvError::Empty | TryRecvError::Closed) => (true, self.everyone.try_recv()),
                own => (false, own),
            };
            let changed = match received {
                Ok(changed) => changed,
                Err(TryRecvError::Lagged(_)) => Changed::Anything,
                Err(TryRecvError::Empty | TryRecvError::Closed) => return None,
            };
            if self.wants(for_everyone, &changed) {
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
        let Some(rx) = self.rx.take() else { return };
        match &self.topic {
            Topic::Game(game_id) => self.routes.games.unsubscribe(game_id, rx),
            Topic::Player(player_id) => self.routes.players.unsubscribe(player_id, rx),
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
        assert_eq!(
            heard(&mut ann).await,
            Some(changed("a", Some(&["ann", "bob"])))
        );
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
    async fn a_lagging_receiver_reads_anything() {
        let notifier = Notifier::default();
        let mut ann = notifier.subscribe_player("ann");
        for version in 0..(PLAYER_CAPACITY as i64 + 10) {
            notifier.send(Changed::Game {
                game_id: "a".into(),
                version,
                players: Some(vec!["ann".to_owned()].into()),
                appended: None,
            });
        }
        assert_eq!(heard(&mut ann).await, Some(Changed::Anything));
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
