//! `loadgen`: plays many games at once through the card table api and
//! reports moves per second, latency percentiles and errors; with
//! `--record` it writes every acknowledged move to a file that `--check`
//! later verifies against the server (the crash and outage tests).
//!
//! ```text
//! loadgen --url http://127.0.0.1:8080 --games 64 --duration 20 [--kind mixed] [--json]
//! loadgen --url … --games 16 --duration 30 --record acks.jsonl
//! loadgen --url … --check acks.jsonl
//! loadgen --url … --seekers 1000 --seek-seconds 60 [--settle 15] [--json]
//! ```
//! Start the server with `RATE_LIMIT=0` (or a high one): a load generator is
//! exactly what the limit is for.

mod api;
mod check;
mod floor;
mod idle;
mod moves;
mod populate;
mod readers;
mod run;
mod seeks;
mod stats;

use std::process::ExitCode;
use std::time::Duration;

use run::{Kinds, RunOptions};

const HELP: &str = "\
loadgen: play games through the card table api as fast as it answers

  --url URL          server (default http://127.0.0.1:8080)
  --games N          games played at once, one client each (default 16)
  --kind K           lost-heir | cancellation-hearts | mixed (default mixed)
  --duration SECS    how long to play (default 20)
  --warmup SECS      played but not counted, from the start (default 2)
  --lh-players N     seats of a Lost Heir game (default 4)
  --ch-players N     seats of a Cancellation Hearts game (default 6)
  --seed N           move choice seed (default 1)
  --timeout-ms N     per-request client timeout (default 10000)
  --record FILE      write games and acknowledged moves (JSON lines)
  --check FILE       verify a record against the server instead of playing
  --one-game         each client plays one game to its end, then stops
                     (--duration caps it); the report lists the game ids
  --populate N       create N games in progress (a person and bots each),
                     read each once, and stop (for the memory figure)
  --idle-streams N   first register N players who sit in no game and hold
                     each one's player stream open for the whole run
  --spectators N     N spectator streams following the games in play
                     (N / --games on each game, opened as it starts)
  --list-readers N   N clients reading the lobby (GET /v1/games?status=
                     in_progress, no token) each every --list-interval-ms
                     while the games play; reads/s and their latency
  --list-interval-ms N  each list reader's period (default 1000)
  --seekers N        quick play instead of playing: register N players, then
                     one seeks a table every --seek-seconds / N seconds (a
                     fixed mix of asks, --seed); after --settle seconds read
                     every seek back: seek-to-table latency (the server's
                     times), create_seek's answer time, tables formed
  --seek-seconds S   the arrivals' spell (default 60)
  --settle SECS      wait after the last arrival before reading (default 15)
  --marks FILE       with --seekers: append `registered` as the arrivals
                     start and `settled` as the read-back starts (pausing
                     400 ms after each, for a script measuring the server)
  --http-floor       each driver sends pairs of GET /healthz instead of
                     playing (no database, no game): the most moves/s any
                     api build could serve through this client here
  --retry            each move carries an Idempotency-Key and is sent again
                     with it (after Retry-After) while the answer is a 503
                     or nothing, for up to 60 s; the record gets each move's
                     key, attempts and times (the database failover test)
  --json             print the report as one JSON object
";

struct Args {
    url: String,
    run: RunOptions,
    timeout: Duration,
    check: Option<String>,
    populate: Option<usize>,
    idle_streams: usize,
    http_floor: bool,
    json: bool,
    seekers: Option<usize>,
    seek_seconds: Duration,
    settle: Duration,
    marks: Option<std::path::PathBuf>,
    list_readers: usize,
    list_interval: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        url: "http://127.0.0.1:8080".to_owned(),
        run: RunOptions {
            games: 16,
            kinds: Kinds::Mixed,
            duration: Duration::from_secs(20),
            warmup: Duration::from_secs(2),
            seed: 1,
            lost_heir_players: 4,
            hearts_players: 6,
            record: None,
            one_game: false,
            spectators_per_game: 0,
            retry: false,
        },
        timeout: Duration::from_secs(10),
        check: None,
        populate: None,
        idle_streams: 0,
        http_floor: false,
        json: false,
        seekers: None,
        seek_seconds: Duration::from_secs(60),
        settle: Duration::from_secs(15),
        marks: None,
        list_readers: 0,
        list_interval: Duration::from_millis(1000),
    };
    let mut spectators = 0;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--json" {
            args.json = true;
            continue;
        }
        if flag == "--http-floor" {
            args.http_floor = true;
            continue;
        }
        if flag == "--retry" {
            args.run.retry = true;
            continue;
        }
        if flag == "--one-game" {
            args.run.one_game = true;
            continue;
        }
        if flag == "-h" || flag == "--help" {
            return Err(String::new());
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<f64>()
                .map_err(|_| format!("{flag}: not a number: {value}"))
        };
        match flag.as_str() {
            "--url" => args.url = value.clone(),
            "--games" => args.run.games = number()? as usize,
            "--kind" => {
                args.run.kinds = match value.as_str() {
                    "lost-heir" => Kinds::LostHeir,
                    "cancellation-hearts" => Kinds::CancellationHearts,
                    "mixed" => Kinds::Mixed,
                    other => return Err(format!("--kind: unknown kind {other}")),
                }
            }
            "--duration" => args.run.duration = Duration::from_secs_f64(number()?),
            "--warmup" => args.run.warmup = Duration::from_secs_f64(number()?),
            "--lh-players" => args.run.lost_heir_players = number()? as u8,
            "--ch-players" => args.run.hearts_players = number()? as u8,
            "--seed" => args.run.seed = number()? as u64,
            "--timeout-ms" => args.timeout = Duration::from_millis(number()? as u64),
            "--record" => args.run.record = Some(value.clone().into()),
            "--check" => args.check = Some(value.clone()),
            "--populate" => args.populate = Some(number()? as usize),
            "--idle-streams" => args.idle_streams = number()? as usize,
            "--list-readers" => args.list_readers = number()? as usize,
            "--list-interval-ms" => {
                args.list_interval = Duration::from_millis((number()? as u64).max(1))
            }
            "--spectators" => spectators = number()? as usize,
            "--seekers" => args.seekers = Some(number()? as usize),
            "--seek-seconds" => args.seek_seconds = Duration::from_secs_f64(number()?),
            "--settle" => args.settle = Duration::from_secs_f64(number()?),
            "--marks" => args.marks = Some(value.clone().into()),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    args.run.spectators_per_game = spectators.div_ceil(args.run.games.max(1));
    if args.run.warmup >= args.run.duration {
        args.run.warmup = Duration::ZERO;
    }
    Ok(args)
}

/// mimalloc rather than glibc malloc: under load the load generator spends much of
/// its time allocating (JSON, HTTP), and glibc's per-thread arenas cost
/// ~15 % of its CPU (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("loadgen: {e}");
            }
            eprint!("{HELP}");
            return ExitCode::from(2);
        }
    };
    let client = api::connect(&args.url, args.timeout);
    if let Some(seekers) = args.seekers {
        let options = seeks::SeekOptions {
            seekers,
            over: args.seek_seconds,
            settle: args.settle,
            seed: args.run.seed,
            marks: args.marks.clone(),
        };
        let report = seeks::run(&client, &options).await;
        if args.json {
            println!("{}", serde_json::to_string(&report).unwrap_or_default());
        } else {
            println!(
                "seekers {} over {:.1} s: {} seeks, {} matched ({} on arrival) at {} tables, {} \
                 still active\nseek to table   {}\ncreate_seek     {}\nerrors {:?}",
                report.seekers,
                report.arrival_seconds,
                report.seeks,
                report.matched,
                report.matched_on_arrival,
                report.tables,
                report.active,
                report.seek_to_table_ms,
                report.create_seek_ms,
                report.errors
            );
        }
        return if report.errors.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if let Some(games) = args.populate {
        let report = populate::populate(&client, games, args.run.games).await;
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
        return if report.failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if let Some(path) = &args.check {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("loadgen: {path}: {e}");
                return ExitCode::from(2);
            }
        };
        let report = check::check(&client, &text).await;
        if args.json {
            println!("{}", serde_json::to_string(&report).unwrap_or_default());
        } else {
            println!(
                "games {}  acknowledged moves {}  found in the log {}  unacknowledged tail {}  \
                 views compared {}  games continued {}  finished {}",
                report.games,
                report.acknowledged_moves,
                report.moves_found,
                report.unacknowledged_tail,
                report.views_compared,
                report.games_continued,
                report.games_finished
            );
            for v in &report.violations {
                println!("VIOLATION {v}");
            }
        }
        return if report.violations.is_empty() && report.moves_found == report.acknowledged_moves {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if args.http_floor {
        let report = floor::run(client, args.run.games, args.run.duration, args.run.warmup).await;
        if args.json {
            println!("{}", serde_json::to_string(&report).unwrap_or_default());
        } else {
            println!(
                "http floor: {} clients, {:.1} pairs/s, second request {}",
                report.games, report.moves_per_sec, report.post_move_ms
            );
        }
        return ExitCode::SUCCESS;
    }
    let (idle, idle_report) = idle::open(&client, args.idle_streams, 64).await;
    if args.idle_streams > 0 {
        eprintln!(
            "loadgen: {} of {} idle player streams open ({:.1} s)",
            idle_report.opened, idle_report.requested, idle_report.open_seconds
        );
    }
    let readers = readers::start(&client, args.list_readers, args.list_interval);
    let report = run::run(client, args.run).await;
    let readers = readers.stop();
    let idle_bytes = idle.bytes.load(std::sync::atomic::Ordering::Relaxed);
    drop(idle);
    if args.json {
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        value["idle_streams"] = serde_json::to_value(&idle_report).unwrap_or_default();
        value["idle_stream_bytes"] = idle_bytes.into();
        if args.list_readers > 0 {
            value["list_readers"] = serde_json::to_value(&readers).unwrap_or_default();
        }
        println!("{value}");
    } else {
        print!("{report}");
        if args.idle_streams > 0 {
            println!(
                "idle player streams: {} open, {} failed, {idle_bytes} bytes received",
                idle_report.opened, idle_report.failed
            );
        }
        if args.list_readers > 0 {
            println!(
                "list readers: {} every {} ms, {} reads ({:.0}/s), list_games {}, errors {:?}",
                readers.readers,
                readers.interval_ms,
                readers.reads,
                readers.reads_per_sec,
                readers.list_ms,
                readers.errors
            );
        }
    }
    ExitCode::SUCCESS
}
