//! The HTTP floor (`--http-floor`): the same drivers, client and pacing as
//! a run, but each "move" is two `GET /healthz`, which the api answers
//! without a token, a database or a game. What this reaches is the most
//! moves per second any build of the api could serve through this client
//! on this machine, whatever it did about its database: a move is at least
//! two requests (`get_legal_moves`, `post_move`). `scripts/bench-vs-pgbench.sh`
//! prints it beside pgbench's figure (docs/performance.md, section 1).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::de::IgnoredAny;

use cardgames_client::{Client, Request};

use crate::api;
use crate::stats::{Samples, Summary};

/// What a floor run came to, with the field names of a run's report that
/// the scripts read.
#[derive(Debug, serde::Serialize)]
pub struct FloorReport {
    pub games: usize,
    pub seconds: f64,
    pub moves: u64,
    pub moves_per_sec: f64,
    /// The second request of each pair (where a move's `post_move` is).
    pub post_move_ms: Summary,
    /// The first request of each pair.
    pub legal_moves_ms: Summary,
    pub errors: BTreeMap<String, u64>,
}

#[derive(Default)]
struct Driven {
    moves: u64,
    first: Samples,
    second: Samples,
    errors: BTreeMap<String, u64>,
}

/// `clients` drivers, each sending pairs of `GET /healthz` back to back
/// for `duration`; pairs finished in the first `warmup` are not counted.
pub async fn run(
    client: Client,
    clients: usize,
    duration: Duration,
    warmup: Duration,
) -> FloorReport {
    let started = Instant::now();
    let drivers: Vec<_> = (0..clients)
        .map(|_| tokio::spawn(drive(client.clone(), started, duration, warmup)))
        .collect();
    let mut all = Driven::default();
    for driver in drivers {
        let Ok(driven) = driver.await else { continue };
        all.moves += driven.moves;
        all.first.extend(&driven.first);
        all.second.extend(&driven.second);
        for (what, n) in driven.errors {
            *all.errors.entry(what).or_default() += n;
        }
    }
    let counted = duration
        .saturating_sub(warmup)
        .as_secs_f64()
        .max(f64::EPSILON);
    FloorReport {
        games: clients,
        seconds: counted,
        moves: all.moves,
        moves_per_sec: all.moves as f64 / counted,
        post_move_ms: all.second.summary(),
        legal_moves_ms: all.first.summary(),
        errors: all.errors,
    }
}

async fn drive(client: Client, started: Instant, duration: Duration, warmup: Duration) -> Driven {
    let mut driven = Driven::default();
    let healthz = Request::get("/healthz");
    let end = started + duration;
    while Instant::now() < end {
        let first = api::ask::<IgnoredAny>(&client, &healthz).await;
        let second = api::ask::<IgnoredAny>(&client, &healthz).await;
        let ((_, took_first), (_, took_second)) = match first.and_then(|f| Ok((f, second?))) {
            Ok(both) => both,
            Err(f) => {
                *driven.errors.entry(format!("healthz: {f}")).or_default() += 1;
                continue;
            }
        };
        if Instant::now() >= started + warmup {
            driven.moves += 1;
            driven.first.push(took_first);
            driven.second.push(took_second);
        }
    }
    driven
}
