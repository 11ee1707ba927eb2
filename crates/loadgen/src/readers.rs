//! List readers: `--list-readers N` runs N clients beside the games, each
//! reading the lobby's first page of games in play (`GET
//! /v1/games?status=in_progress`, no token: what a front page or a lobby
//! shows to someone choosing a game to watch) once every
//! `--list-interval-ms`, started spread over one interval. What a popular
//! site's lobby costs; with `DATABASE_REPLICA_URL` those reads are the
//! replica's (scripts/bench-replica.sh). The readers share the load's
//! client (its connection pool).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use cardgames_client::{Client, Request};

use crate::api;
use crate::stats::{Samples, Summary};

/// The lobby page each reader reads.
const LOBBY: &str = "/v1/games?status=in_progress&limit=50";

/// What the readers did over the run.
#[derive(Debug, Serialize)]
pub struct ReadersReport {
    pub readers: usize,
    pub interval_ms: u64,
    pub reads: usize,
    pub reads_per_sec: f64,
    pub list_ms: Summary,
    pub errors: BTreeMap<String, u64>,
}

#[derive(Debug, Default)]
struct Tally {
    latencies: Samples,
    errors: BTreeMap<String, u64>,
}

/// The running readers; [`Readers::stop`] ends them and reports.
#[derive(Debug)]
pub struct Readers {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    tally: Arc<Mutex<Tally>>,
    started: Instant,
    readers: usize,
    interval: Duration,
}

/// Starts `count` readers, each reading [`LOBBY`] every `interval`.
pub fn start(client: &Client, count: usize, interval: Duration) -> Readers {
    let tally = Arc::new(Mutex::new(Tally::default()));
    let tasks = (0..count)
        .map(|i| {
            let (client, tally) = (client.clone(), tally.clone());
            // Spread over one interval, so the reads come evenly.
            let offset = interval.mul_f64(i as f64 / count.max(1) as f64);
            tokio::spawn(read_forever(client, tally, offset, interval))
        })
        .collect();
    Readers {
        tasks,
        tally,
        started: Instant::now(),
        readers: count,
        interval,
    }
}

async fn read_forever(
    client: Client,
    tally: Arc<Mutex<Tally>>,
    offset: Duration,
    interval: Duration,
) {
    let lobby = Request::get(LOBBY);
    tokio::time::sleep(offset).await;
    let mut tick = tokio::time::interval(interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let asked = Instant::now();
        let answer = api::answer(&client, &lobby).await;
        let took = asked.elapsed();
        let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
        match answer {
            Ok(_) => tally.latencies.push(took),
            Err(e) => *tally.errors.entry(format!("list_games: {e}")).or_default() += 1,
        }
    }
}

impl Readers {
    /// Stops the readers and reports what they read.
    pub fn stop(self) -> ReadersReport {
        self.tasks.iter().for_each(tokio::task::JoinHandle::abort);
        let elapsed = self.started.elapsed().as_secs_f64();
        let tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        let reads = tally.latencies.len();
        ReadersReport {
            readers: self.readers,
            interval_ms: self.interval.as_millis() as u64,
            reads,
            reads_per_sec: if elapsed > 0.0 {
                reads as f64 / elapsed
            } else {
                0.0
            },
            list_ms: tally.latencies.summary(),
            errors: tally.errors.clone(),
        }
    }
}
