//! Idle player streams: `--idle-streams N` registers N players who sit in
//! no game and opens each one's player stream (`/v1/players/me/stream`),
//! held open and drained for the whole run: what a play-by-request server
//! carries when every user keeps a "your turn" stream open. The streams
//! use their own client (no request timeout: they are meant to last; no
//! reconnecting: a stream that drops ends).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::StreamExt;
use serde::Serialize;

use cardgames_client::Client;

use crate::api;

/// What opening the streams came to.
#[derive(Debug, Default, Serialize)]
pub struct IdleReport {
    pub requested: usize,
    pub opened: usize,
    pub failed: usize,
    /// Seconds taken to register and open them all.
    pub open_seconds: f64,
}

/// The open streams; dropping this closes them.
#[derive(Debug)]
pub struct IdleStreams {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// Bytes received on all of them (heartbeats): proof they stay open.
    pub bytes: Arc<AtomicU64>,
}

impl Drop for IdleStreams {
    fn drop(&mut self) {
        self.tasks.iter().for_each(tokio::task::JoinHandle::abort);
    }
}

/// Registers `count` players and opens their streams, `parallel` at a time.
pub async fn open(client: &Client, count: usize, parallel: usize) -> (IdleStreams, IdleReport) {
    let started = std::time::Instant::now();
    let streams = api::streams(client.base_url());
    let bytes = Arc::new(AtomicU64::new(0));
    let opened: Vec<Option<tokio::task::JoinHandle<()>>> = futures_util::stream::iter(0..count)
        .map(|i| {
            let (client, streams, bytes) = (client.clone(), streams.clone(), bytes.clone());
            async move {
                let player = api::register(&client, &format!("idle-{i}")).await.ok()?;
                let token = player.token()?;
                let mut stream = streams
                    .as_player(token)
                    .follow_player_raw(None)
                    .counting_bytes_in(bytes);
                stream.open().await.ok()?;
                Some(tokio::spawn(stream.drain()))
            }
        })
        .buffer_unordered(parallel.max(1))
        .collect()
        .await;
    let tasks: Vec<_> = opened.into_iter().flatten().collect();
    let report = IdleReport {
        requested: count,
        opened: tasks.len(),
        failed: count - tasks.len(),
        open_seconds: started.elapsed().as_secs_f64(),
    };
    (IdleStreams { tasks, bytes }, report)
}

/// Opens `count` spectator streams on one game (`/v1/games/{id}/stream`,
/// no token), one connection each, before the game's first move, held
/// until the returned value is dropped.
pub async fn spectate(
    base: &str,
    game_id: &str,
    count: usize,
    counters: Arc<SpectatorCounters>,
) -> IdleStreams {
    let streams = api::streams(base);
    let mut tasks = Vec::with_capacity(count);
    for _ in 0..count {
        let mut stream = streams
            .follow_game_raw(game_id, None)
            .counting_bytes_in(counters.bytes.clone());
        match stream.open().await {
            Ok(()) => {
                counters.opened.fetch_add(1, Ordering::Relaxed);
                tasks.push(tokio::spawn(stream.drain()));
            }
            Err(_) => {
                counters.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    IdleStreams {
        tasks,
        bytes: counters.bytes.clone(),
    }
}

/// What the spectator streams of a whole run came to.
#[derive(Debug, Default)]
pub struct SpectatorCounters {
    opened: AtomicU64,
    failed: AtomicU64,
    bytes: Arc<AtomicU64>,
}

/// Spectator streams over a run (`--spectators`): how many opened (status
/// 200), how many did not, and the bytes they received.
#[derive(Debug, Default, Serialize)]
pub struct SpectatorReport {
    pub opened: u64,
    pub failed: u64,
    pub bytes: u64,
}

impl SpectatorCounters {
    pub fn report(&self) -> SpectatorReport {
        SpectatorReport {
            opened: self.opened.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        }
    }
}
