//! Who learns of an append: an in-process broadcast of "game G reached
//! version V", fed by this process's own appends and, with Postgres, by the
//! `LISTEN` connection (other processes' appends, [`crate::db::listen`]).
//! Streams and long polls subscribe before they read the log and re-read it
//! after each signal, so a signal is only a wake-up: a lost or lagging one
//! costs a delay (the streams also re-read on every heartbeat), never an
//! event.

use std::sync::Arc;

use tokio::sync::broadcast;

use crate::db::listen::Heard;

/// A signal: one game changed, or anything may have (after a reconnect or
/// when a receiver lagged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed {
    Game { game_id: Arc<str>, version: i64 },
    Anything,
}

impl Changed {
    /// Whether this signal may concern `game_id`.
    pub fn concerns(&self, game_id: &str) -> bool {
        match self {
            Changed::Game { game_id: g, .. } => &**g == game_id,
            Changed::Anything => true,
        }
    }
}

impl From<Heard> for Changed {
    fn from(heard: Heard) -> Self {
        match heard {
            Heard::Appended { game_id, version } => Changed::Game {
                game_id: game_id.into(),
                version,
            },
            Heard::Resync => Changed::Anything,
        }
    }
}

/// The broadcast (bounded: a slow receiver lags and then re-reads).
#[derive(Debug, Clone)]
pub struct Notifier {
    tx: broadcast::Sender<Changed>,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            tx: broadcast::channel(4096).0,
        }
    }
}

impl Notifier {
    pub fn subscribe(&self) -> Subscription {
        Subscription {
            rx: self.tx.subscribe(),
        }
    }

    pub fn send(&self, changed: Changed) {
        // No receiver is not an error: nobody is watching.
        let _ = self.tx.send(changed);
    }
}

/// One receiver.
#[derive(Debug)]
pub struct Subscription {
    rx: broadcast::Receiver<Changed>,
}

impl Subscription {
    /// The next signal; a lag (missed signals) reads as `Anything`.
    pub async fn next(&mut self) -> Changed {
        match self.rx.recv().await {
            Ok(changed) => changed,
            Err(broadcast::error::RecvError::Lagged(_)) => Changed::Anything,
            // The sender lives as long as the service: wait forever.
            Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
        }
    }

    /// Waits up to `timeout` for a signal concerning `game_id`; false on timeout.
    pub async fn wait_for(&mut self, game_id: &str, timeout: std::time::Duration) -> bool {
        tokio::time::timeout(timeout, async {
            loop {
                if self.next().await.concerns(game_id) {
                    return;
                }
            }
        })
        .await
        .is_ok()
    }
}
