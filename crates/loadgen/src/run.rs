//! The load: N game drivers, each playing one game at a time through the
//! HTTP api (legal moves → a random legal move, as fast as the server
//! answers) until the time is up, starting a new game when one ends.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use cardgames_client::{Client, Request};

use crate::api::{self, Failure};
use crate::idle::{SpectatorCounters, SpectatorReport};
use crate::moves::{LegalAnswer, Rng, random_move_text};
use crate::stats::{Samples, Summary};

/// Which games to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kinds {
    LostHeir,
    CancellationHearts,
    /// Even drivers play Lost Heir, odd ones Cancellation Hearts.
    Mixed,
}

#[derive(Debug, Clone)]
pub struct RunOptions {
    pub games: usize,
    pub kinds: Kinds,
    pub duration: Duration,
    /// Moves before this much time has passed are played but not counted.
    pub warmup: Duration,
    pub seed: u64,
    pub lost_heir_players: u8,
    pub hearts_players: u8,
    /// Where to write created games and acknowledged moves (JSON lines).
    pub record: Option<std::path::PathBuf>,
    /// Each driver stops after its first game ends.
    pub one_game: bool,
    /// Spectator streams each game in play carries (`--spectators`, spread
    /// over the games), opened when the game starts.
    pub spectators_per_game: usize,
    /// Each move carries an `Idempotency-Key` and is sent again with it,
    /// after the answer's `Retry-After`, while the server answers 503 or
    /// not at all (`--retry`), as a client riding out a failover does.
    pub retry: bool,
}

/// How long a move is sent again (`--retry`) before the driver gives it
/// up: far longer than a failover takes.
const RETRY_WINDOW: Duration = Duration::from_secs(60);

/// The wait before a retry when the answer named none (no answer at all).
const RETRY_DEFAULT: Duration = Duration::from_millis(500);

/// Milliseconds since the Unix epoch: the record's clock, comparable with
/// the failure scripts' `date +%s%3N`.
fn epoch_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Seq ranges for "does a move cost more late in a game?".
const SEQ_BUCKETS: [(i64, i64); 5] = [(1, 50), (51, 100), (101, 200), (201, 400), (401, i64::MAX)];

#[derive(Debug, Default)]
struct DriverStats {
    moves: u64,
    post: Samples,
    legal: Samples,
    /// post_move latencies by the kind of game and the move's seq bucket
    /// (kinds apart: their games differ in length and state size).
    by_seq: BTreeMap<(&'static str, usize), Samples>,
    errors: BTreeMap<String, u64>,
    /// `--retry`: moves acknowledged by a stored answer replayed.
    replayed: u64,
    /// `--retry`: moves given up (no answer within the retry window, or a
    /// refusal or fault after a retry).
    given_up: u64,
    games_started: u64,
    games_finished: u64,
    finished_ids: Vec<String>,
}

impl DriverStats {
    fn error(&mut self, where_: &str, f: &Failure) {
        *self.errors.entry(format!("{where_}: {f}")).or_default() += 1;
    }
}

type Recorder = Arc<Mutex<Option<std::io::BufWriter<std::fs::File>>>>;

/// Whether the run writes a record (`--record`): only then are the lines
/// for it built.
fn is_recording(recorder: &Recorder) -> bool {
    recorder.lock().unwrap_or_else(|e| e.into_inner()).is_some()
}

/// The parts of a `post_move` answer the load uses.
#[derive(Debug, serde::Deserialize)]
struct Accepted {
    seq: i64,
    version: i64,
    game: AcceptedGame,
}

#[derive(Debug, serde::Deserialize)]
struct AcceptedGame {
    status: String,
    #[serde(default)]
    to_act: Vec<usize>,
    /// Kept as text: only a record (`--record`) writes it out.
    view: Box<serde_json::value::RawValue>,
}

fn record(recorder: &Recorder, line: Value) {
    let mut guard = recorder.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(out) = guard.as_mut() {
        let _ = writeln!(out, "{line}");
    }
}

/// One game in play: its id, a player per seat, who acts.
struct Table {
    id: String,
    players: Vec<Client>,
    to_act: Vec<usize>,
}

impl Table {
    fn tokens(&self) -> Vec<&str> {
        self.players.iter().filter_map(Client::token).collect()
    }
}

/// The seats a game resource says must act.
pub fn to_act(game: &Value) -> Vec<usize> {
    game["to_act"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_u64())
                .map(|s| s as usize)
                .collect()
        })
        .unwrap_or_default()
}

/// Registers the players, creates the game and fills its seats.
async fn set_up(
    client: &Client,
    kind: &str,
    config: &Value,
    seats: usize,
    tag: &str,
) -> Result<Table, (String, Failure)> {
    let mut players = Vec::with_capacity(seats);
    for i in 0..seats {
        let player = api::register(client, &format!("load {tag} p{i}"))
            .await
            .map_err(|e| ("register".to_owned(), e))?;
        players.push(player);
    }
    let open: Vec<&str> = vec!["open"; seats];
    let body = json!({"kind": kind, "config": config, "seats": open, "take_seat": 0});
    let created = api::answer(&players[0], &Request::create_game(&body))
        .await
        .map_err(|e| ("create_game".to_owned(), e))?;
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let mut last = created;
    for (seat, player) in players.iter().enumerate().skip(1) {
        last = api::answer(player, &Request::join_game(&id, seat))
            .await
            .map_err(|e| ("join_game".to_owned(), e))?;
    }
    Ok(Table {
        to_act: to_act(&last),
        id,
        players,
    })
}

/// A move as sent by a retrying client: the key it carries, how often it
/// was sent, and when.
struct Sent {
    /// The last attempt's round trip.
    took: Duration,
    key: String,
    attempts: u32,
    replayed: bool,
    first_sent_ms: u64,
    last_sent_ms: u64,
}

/// Posts a move carrying an `Idempotency-Key`, and again with the same key
/// while the answer is a 503 or nothing, waiting `Retry-After` between
/// tries (each failed try counted in `stats`, a 503 without `Retry-After`
/// apart), for at most [`RETRY_WINDOW`].
async fn post_retrying<T: serde::de::DeserializeOwned>(
    player: &Client,
    request: Request,
    stats: &mut DriverStats,
) -> (Result<T, Failure>, Sent) {
    let key = request.key().unwrap_or_default().to_owned();
    let first_sent_ms = epoch_ms();
    let started = Instant::now();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let last_sent_ms = epoch_ms();
        let attempt = api::try_once::<T>(player, &request).await;
        let failure = match attempt.result {
            Err(f) if f.is_retryable() && started.elapsed() < RETRY_WINDOW => f,
            answer => {
                let sent = Sent {
                    took: attempt.took,
                    key,
                    attempts,
                    replayed: attempt.replayed,
                    first_sent_ms,
                    last_sent_ms,
                };
                return (answer, sent);
            }
        };
        let unsaid = matches!(failure, Failure::Status(..)) && attempt.retry_after.is_none();
        let note = if unsaid { " without Retry-After" } else { "" };
        stats.error(&format!("post_move (retried){note}"), &failure);
        let wait = attempt
            .retry_after
            .unwrap_or(RETRY_DEFAULT)
            .min(Duration::from_secs(5));
        tokio::time::sleep(wait).await;
    }
}

async fn drive(
    client: Client,
    index: usize,
    options: Arc<RunOptions>,
    started: Instant,
    recorder: Recorder,
    spectating: Arc<SpectatorCounters>,
) -> DriverStats {
    let mut stats = DriverStats::default();
    let mut rng = Rng::new(options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9));
    let hearts = match options.kinds {
        Kinds::LostHeir => false,
        Kinds::CancellationHearts => true,
        Kinds::Mixed => index % 2 == 1,
    };
    let (kind, players) = if hearts {
        ("cancellation-hearts", options.hearts_players)
    } else {
        ("lost-heir", options.lost_heir_players)
    };
    let config = json!({"players": players});
    let end = started + options.duration;
    let measuring = |now: Instant| now >= started + options.warmup;
    let mut game_no = 0;
    'games: while Instant::now() < end {
        game_no += 1;
        let tag = format!("{index}.{game_no}");
        let mut table = match set_up(&client, kind, &config, players as usize, &tag).await {
            Ok(table) => table,
            Err((where_, f)) => {
                stats.error(&where_, &f);
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        stats.games_started += 1;
        // Followed for as long as this driver plays it (dropped with it).
        let _spectators = if options.spectators_per_game > 0 {
            Some(
                crate::idle::spectate(
                    client.base_url(),
                    &table.id,
                    options.spectators_per_game,
                    spectating.clone(),
                )
                .await,
            )
        } else {
            None
        };
        record(
            &recorder,
            json!({"game": table.id, "kind": kind, "tokens": table.tokens(), "created_ms": epoch_ms()}),
        );
        let mut last_ack: Option<Value> = None;
        let mut out_of_time = false;
        loop {
            if Instant::now() >= end {
                out_of_time = true;
                break;
            }
            let Some(&seat) = table.to_act.first() else {
                match api::answer(&table.players[0], &Request::game(&table.id)).await {
                    Ok(game) if game["status"] == "finished" => {
                        stats.games_finished += 1;
                        stats.finished_ids.push(table.id.clone());
                        break;
                    }
                    Ok(game) => table.to_act = to_act(&game),
                    Err(f) => {
                        stats.error("get_game", &f);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
                continue;
            };
            let player = &table.players[seat];
            let legal = api::ask::<LegalAnswer>(player, &Request::legal_moves(&table.id)).await;
            let (legal, took) = match legal {
                Ok(answer) => answer,
                Err(f) => {
                    stats.error("get_legal_moves", &f);
                    table.to_act.clear();
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            if measuring(Instant::now()) {
                stats.legal.push(took);
            }
            let Some(mv) = random_move_text(&legal, &mut rng).filter(|_| legal.count != 0) else {
                table.to_act.clear();
                continue;
            };
            let recording = is_recording(&recorder);
            let request = Request::play_json(&table.id, mv.clone());
            let (answer, sent) = if options.retry {
                let key = format!("load-{:016x}", rng.next_u64());
                let request = request.idempotency_key(key);
                let (answer, sent) = post_retrying::<Accepted>(player, request, &mut stats).await;
                (answer.map(|a| (a, sent.took)), Some(sent))
            } else {
                (api::ask::<Accepted>(player, &request).await, None)
            };
            match answer {
                Ok((accepted, took)) => {
                    let (seq, version) = (accepted.seq, accepted.version);
                    if measuring(Instant::now()) {
                        stats.moves += 1;
                        stats.post.push(took);
                        if let Some(b) = SEQ_BUCKETS
                            .iter()
                            .position(|(lo, hi)| (*lo..=*hi).contains(&seq))
                        {
                            stats.by_seq.entry((kind, b)).or_default().push(took);
                        }
                    }
                    let game = accepted.game;
                    if sent.as_ref().is_some_and(|s| s.replayed) {
                        stats.replayed += 1;
                    }
                    if recording {
                        let mv: Value = serde_json::from_str(&mv).unwrap_or(Value::Null);
                        let mut line = json!({"ack": table.id, "seq": seq, "version": version, "seat": seat, "move": mv, "acked_ms": epoch_ms()});
                        if let Some(sent) = &sent {
                            line["key"] = sent.key.clone().into();
                            line["attempts"] = sent.attempts.into();
                            line["replayed"] = sent.replayed.into();
                            line["sent_ms"] = sent.first_sent_ms.into();
                            line["last_sent_ms"] = sent.last_sent_ms.into();
                        }
                        record(&recorder, line);
                        last_ack = Some(
                            json!({"last": table.id, "version": version, "seat": seat, "view": game.view}),
                        );
                    }
                    if game.status == "finished" {
                        stats.games_finished += 1;
                        stats.finished_ids.push(table.id.clone());
                        break;
                    }
                    table.to_act = game.to_act;
                }
                Err(f) => {
                    stats.error("post_move", &f);
                    if let Some(sent) = &sent {
                        // Given up: committed or not, the checker counts
                        // it among the keys sent (a duplicate would show
                        // as more moves in the log than keys).
                        stats.given_up += 1;
                        let mv: Value = serde_json::from_str(&mv).unwrap_or(Value::Null);
                        record(
                            &recorder,
                            json!({"unacked": table.id, "key": sent.key, "seat": seat, "move": mv}),
                        );
                    }
                    table.to_act.clear();
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
        // What the last acknowledged move showed its mover (the checker
        // compares it with the state rebuilt after a restart).
        if let Some(last) = last_ack.take() {
            record(&recorder, last);
        }
        if out_of_time || options.one_game {
            break 'games;
        }
    }
    stats
}

#[derive(Debug, serde::Serialize)]
pub struct Report {
    pub games: usize,
    pub seconds: f64,
    pub moves: u64,
    pub moves_per_sec: f64,
    pub post_move_ms: Summary,
    pub legal_moves_ms: Summary,
    /// post_move p50 (ms) by kind and by the move's seq in its game:
    /// (kind, seq range, moves, p50).
    pub post_move_p50_by_seq: Vec<(String, String, usize, f64)>,
    pub errors: BTreeMap<String, u64>,
    /// `--retry`: moves acknowledged by their stored answer, replayed for a
    /// retry whose first try had committed.
    pub replayed: u64,
    /// `--retry`: moves given up (see [`RETRY_WINDOW`]).
    pub given_up: u64,
    pub games_started: u64,
    pub games_finished: u64,
    pub finished_ids: Vec<String>,
    /// `--spectators`: their streams over the whole run.
    pub spectators: SpectatorReport,
}

pub async fn run(client: Client, options: RunOptions) -> Report {
    let recorder: Recorder = Arc::new(Mutex::new(options.record.as_ref().map(|path| {
        std::io::BufWriter::new(std::fs::File::create(path).expect("record file can be created"))
    })));
    let options = Arc::new(options);
    let started = Instant::now();
    let spectating = Arc::new(SpectatorCounters::default());
    let drivers: Vec<_> = (0..options.games)
        .map(|i| {
            tokio::spawn(drive(
                client.clone(),
                i,
                options.clone(),
                started,
                recorder.clone(),
                spectating.clone(),
            ))
        })
        .collect();
    let mut total = DriverStats::default();
    for driver in drivers {
        let s = driver.await.expect("driver does not panic");
        total.moves += s.moves;
        total.post.extend(&s.post);
        total.legal.extend(&s.legal);
        for (key, samples) in &s.by_seq {
            total.by_seq.entry(*key).or_default().extend(samples);
        }
        for (k, v) in s.errors {
            *total.errors.entry(k).or_default() += v;
        }
        total.replayed += s.replayed;
        total.given_up += s.given_up;
        total.games_started += s.games_started;
        total.games_finished += s.games_finished;
        total.finished_ids.extend(s.finished_ids);
    }
    if let Some(out) = recorder.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        let _ = out.flush();
    }
    let seconds = options
        .duration
        .saturating_sub(options.warmup)
        .as_secs_f64();
    Report {
        games: options.games,
        seconds,
        moves: total.moves,
        moves_per_sec: total.moves as f64 / seconds.max(1e-9),
        post_move_ms: total.post.summary(),
        legal_moves_ms: total.legal.summary(),
        post_move_p50_by_seq: total
            .by_seq
            .iter()
            .map(|((kind, bucket), s)| {
                let (lo, hi) = SEQ_BUCKETS[*bucket];
                let label = if hi == i64::MAX {
                    format!("{lo}+")
                } else {
                    format!("{lo}-{hi}")
                };
                (kind.to_string(), label, s.len(), s.summary().p50)
            })
            .collect(),
        errors: total.errors,
        replayed: total.replayed,
        given_up: total.given_up,
        games_started: total.games_started,
        games_finished: total.games_finished,
        finished_ids: total.finished_ids,
        spectators: spectating.report(),
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "games in parallel: {}   measured: {:.1}s",
            self.games, self.seconds
        )?;
        writeln!(
            f,
            "moves: {}   moves/s: {:.1}",
            self.moves, self.moves_per_sec
        )?;
        writeln!(f, "post_move:       {}", self.post_move_ms)?;
        writeln!(f, "get_legal_moves: {}", self.legal_moves_ms)?;
        for (kind, label, n, p50) in &self.post_move_p50_by_seq {
            writeln!(
                f,
                "  {kind:<20} post_move p50 at seq {label:>8}: {p50:.2}ms (n={n})"
            )?;
        }
        writeln!(
            f,
            "games started: {}   finished: {}",
            self.games_started, self.games_finished
        )?;
        if self.spectators.opened + self.spectators.failed > 0 {
            writeln!(
                f,
                "spectator streams opened: {}   failed: {}   bytes received: {}",
                self.spectators.opened, self.spectators.failed, self.spectators.bytes
            )?;
        }
        if self.errors.is_empty() {
            writeln!(f, "errors: none")
        } else {
            writeln!(f, "errors:")?;
            for (kind, n) in &self.errors {
                writeln!(f, "  {kind}: {n}")?;
            }
            Ok(())
        }
    }
}
