//! `--seekers N --seek-seconds S`: quick play under load
//! (`scripts/bench-seeks.sh`). N players are registered first; then one
//! arrives every S / N seconds and seeks a table from a fixed mix of asks
//! (seeded); each `create_seek`'s answer time is recorded. Once the last
//! has arrived and `settle` has passed, every seek is read back: the
//! seek-to-table latency is the server's own `ended_at - created_at` of
//! each matched seek (both stamped in the transactions that stored and
//! seated it), so neither the client's polling nor its clock adds to it.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};

use cardgames_client::{Client, Request};

use crate::api::{self, Failure};
use crate::moves::Rng;
use crate::stats::{Samples, Summary};

/// How many registrations or reads are in flight at once.
const CONCURRENCY: usize = 32;

/// After writing a mark, how long to wait before going on: a watcher
/// polling the marks file reads the server's CPU counters in between.
const MARK_PAUSE: Duration = Duration::from_millis(400);

/// Appends `mark` to the marks file, if there is one, and pauses.
async fn mark(marks: Option<&std::path::Path>, mark: &str) {
    let Some(path) = marks else { return };
    use std::io::Write as _;
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{mark}"));
    if let Err(e) = written {
        eprintln!("loadgen: marks file {}: {e}", path.display());
    }
    tokio::time::sleep(MARK_PAUSE).await;
}

/// The seeks part of the report.
#[derive(Debug, serde::Serialize)]
pub struct SeekReport {
    pub seekers: usize,
    pub arrival_seconds: f64,
    /// Seeks stored (a refusal or a failed call is counted in `errors`).
    pub seeks: usize,
    pub matched: usize,
    /// Still waiting at the end (no table their constraints allow yet).
    pub active: usize,
    pub tables: usize,
    /// From a seek stored to its table formed (server times), matched seeks.
    pub seek_to_table_ms: Summary,
    /// Matched seeks that completed their own table (seated in the very
    /// transaction that stored them).
    pub matched_on_arrival: usize,
    /// `create_seek`'s answer time, seen by the client.
    pub create_seek_ms: Summary,
    pub errors: Vec<(String, usize)>,
}

/// One ask of the mix, by a draw in 0..100: Lost Heir for two (35), for
/// two to four with the bidder's contract or any (15), for four in
/// partnerships (10); Cancellation Hearts for six to ten, a third of them
/// asking for carry-over (40). One in ten asks for an unrated table.
fn ask(rng: &mut Rng) -> Value {
    let draw = rng.below(100);
    let mut body = match draw {
        0..35 => json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}}),
        35..50 => {
            let variants: Vec<&str> = if rng.below(2) == 0 {
                vec!["bidder_contract"]
            } else {
                vec![]
            };
            json!({"kind": "lost-heir", "players": {"min": 2, "max": 4}, "variants": variants})
        }
        50..60 => json!({"kind": "lost-heir", "players": {"min": 4, "max": 4},
                         "variants": ["partnerships"]}),
        _ => {
            let variants: Vec<&str> = if rng.below(3) == 0 {
                vec!["carry_over"]
            } else {
                vec![]
            };
            json!({"kind": "cancellation-hearts", "players": {"min": 6, "max": 10},
                   "variants": variants})
        }
    };
    if rng.below(10) == 0 {
        body["rated"] = json!(false);
    }
    body
}

fn count(errors: &mut Vec<(String, usize)>, failure: &Failure) {
    let key = failure.to_string();
    match errors.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => errors.push((key, 1)),
    }
}

/// How a run of seekers goes.
#[derive(Debug, Clone)]
pub struct SeekOptions {
    pub seekers: usize,
    /// The arrivals' spell.
    pub over: Duration,
    /// The wait after the last arrival before the seeks are read back.
    pub settle: Duration,
    pub seed: u64,
    /// Where to write `registered` (the arrivals start) and `settled` (the
    /// read-back starts), for a script that measures the server between.
    pub marks: Option<std::path::PathBuf>,
}

/// Runs the arrivals and reads the outcome back (see the module).
pub async fn run(client: &Client, options: &SeekOptions) -> SeekReport {
    let SeekOptions {
        seekers,
        over,
        settle,
        seed,
        ..
    } = *options;
    let mut errors = Vec::new();
    let players: Vec<Result<Client, Failure>> = futures_util::stream::iter(0..seekers)
        .map(|i| {
            let client = client.clone();
            async move { api::register(&client, &format!("Seeker {i}")).await }
        })
        .buffered(CONCURRENCY)
        .collect()
        .await;
    let mut rng = Rng::new(seed);
    let asks: Vec<Value> = (0..seekers).map(|_| ask(&mut rng)).collect();
    mark(options.marks.as_deref(), "registered").await;
    let start = Instant::now();
    let gap = over.div_f64(seekers.max(1) as f64);
    let arrivals = players
        .iter()
        .zip(&asks)
        .enumerate()
        .map(|(i, (player, body))| async move {
            tokio::time::sleep_until((start + gap.mul_f64(i as f64)).into()).await;
            let player = player.as_ref().map_err(Clone::clone)?;
            let (seek, took) = api::ask(player, &Request::create_seek(body)).await?;
            Ok((player.clone(), seek, took))
        });
    let created: Vec<Result<(Client, Value, Duration), Failure>> =
        futures_util::future::join_all(arrivals).await;
    let arrival_seconds = start.elapsed().as_secs_f64();
    tokio::time::sleep(settle).await;
    mark(options.marks.as_deref(), "settled").await;
    let mut create_seek = Samples::default();
    let mut stored = Vec::new();
    for outcome in created {
        match outcome {
            Ok((player, seek, took)) => {
                create_seek.push(took);
                stored.push((player, seek));
            }
            Err(failure) => count(&mut errors, &failure),
        }
    }
    let finals: Vec<Result<Value, Failure>> = futures_util::stream::iter(&stored)
        .map(|(player, seek)| {
            let request = Request::seek(seek["id"].as_str().unwrap_or_default());
            async move { api::answer(player, &request).await }
        })
        .buffered(CONCURRENCY)
        .collect()
        .await;
    let mut to_table = Samples::default();
    let (mut matched, mut active, mut on_arrival) = (0, 0, 0);
    let mut games = std::collections::HashSet::new();
    for ((_, first), now) in stored.iter().zip(finals) {
        let seek = match now {
            Ok(seek) => seek,
            Err(failure) => {
                count(&mut errors, &failure);
                continue;
            }
        };
        match seek["status"].as_str() {
            Some("matched") => {
                matched += 1;
                if first["status"] == "matched" {
                    on_arrival += 1;
                }
                games.insert(seek["game_id"].as_str().unwrap_or_default().to_owned());
                if let Some(waited) = waited(&seek) {
                    to_table.push(waited);
                }
            }
            Some("active") => active += 1,
            other => count(
                &mut errors,
                &Failure::Transport(format!("seek {}", other.unwrap_or("?"))),
            ),
        }
    }
    SeekReport {
        seekers,
        arrival_seconds,
        seeks: stored.len(),
        matched,
        active,
        tables: games.len(),
        seek_to_table_ms: to_table.summary(),
        matched_on_arrival: on_arrival,
        create_seek_ms: create_seek.summary(),
        errors,
    }
}

/// `ended_at - created_at` of a seek, as the server stamped them.
fn waited(seek: &Value) -> Option<Duration> {
    let at = |field: &str| -> Option<f64> { rfc3339_seconds(seek[field].as_str()?) };
    let seconds = at("ended_at")? - at("created_at")?;
    (seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

/// Seconds since the epoch of an RFC 3339 UTC time (`2026-12-07T12:00:01.5Z`),
/// enough for differences (the server writes UTC with a `Z`).
fn rfc3339_seconds(text: &str) -> Option<f64> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>());
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let mut t = time.split(':');
    let (h, min) = (
        t.next()?.parse::<f64>().ok()?,
        t.next()?.parse::<f64>().ok()?,
    );
    let s = t.next()?.parse::<f64>().ok()?;
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 * 86_400.0 + h * 3600.0 + min * 60.0 + s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_differences() {
        let a = rfc3339_seconds("2026-12-07T12:00:01.5Z").unwrap();
        let b = rfc3339_seconds("2026-12-08T00:00:00Z").unwrap();
        assert!((b - a - 43_198.5).abs() < 1e-6);
        assert_eq!(rfc3339_seconds("1970-01-01T00:00:00Z"), Some(0.0));
        assert!(rfc3339_seconds("nope").is_none());
    }

    #[test]
    fn the_mix_is_seeded() {
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        for _ in 0..20 {
            assert_eq!(ask(&mut a), ask(&mut b));
        }
    }
}
