//! How strong is the expert (search) bot? Simulated games, deterministic seeds.
//!
//! ```text
//! cargo run --release -p rules-cancel-hearts --example cancel_hearts_expert_strength -- GAMES [--playouts N] [--tables 6,7,8,9,10] [--against sensible|random] [--record FILE] [--timing DECISIONS]
//! ```
//!
//! For every table size (6 to 10 players), `GAMES` games (default 200) on
//! the same deals (game `g` is seeded `g`, like the sensible bot's strength
//! example), the tested seat rotating (`g mod n`), of:
//!
//! * (a) one expert against sensible bots, (b) one sensible bot in the same
//!   seat against sensible bots (the baseline);
//! * (c) one expert against random bots, (d) one sensible bot against
//!   random bots.
//!
//! Each line gives the tested seat's win share (a shared win counts
//! `1 / winners`, CH-13) and mean score margin (the others' mean final score
//! less the tested seat's: positive is better, lower scores win), each with
//! a 95% interval (normal approximation), the seat share `1 / n`, the
//! expert's mean and max time per searched decision, and the line's elapsed
//! time. Games run on two threads (`std::thread::scope`).
//!
//! `--against sensible` runs only (a) and (b), `--against random` only (c)
//! and (d).
//!
//! With `--record FILE`, every game played is appended to `FILE` (CSV, one
//! row per game: table, levels, budget, seed, win, margin, decisions and
//! their time) as soon as it ends, games already in the file are not played
//! again, and the lines are printed from the file's games for seeds
//! `0..GAMES`. A long run can so be stopped and resumed, or split across
//! machines and sessions, and give the same table: game `g` is the same game
//! wherever it is played (its deal, seat and every bot's random stream are
//! seeded from `g`; the budget is in playouts, not time). The times per
//! decision are then those of whatever machine played each game.
//!
//! With `--timing DECISIONS`, instead: the time of `DECISIONS` expert
//! decisions per table at the budget (default the engine's
//! `Determinize::DEFAULT_BUDGET`, 2,400 playouts), on one
//! thread, in positions from sensible-bot games (decisions with one legal
//! move or too many to search are not counted).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cards::search::{Budget, MAX_CANDIDATES, expert_move};
use cards::{Bot, Determinize, GameRng, LegalMoves, Ruleset, Seat, Seed};
use rules_cancel_hearts::{CancelHearts, Config};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Level {
    Random,
    Sensible,
    Expert,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Sensible => "sensible",
            Level::Expert => "expert",
        }
    }
}

/// One line of the table: who plays the tested seat, who plays the others,
/// at how many players and (for an expert) at what budget.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Line {
    players: u8,
    tested: Level,
    others: Level,
    /// The expert's playouts; 0 when no seat searches (a baseline line does
    /// not depend on the budget).
    playouts: u32,
}

impl Line {
    fn new(players: u8, tested: Level, others: Level, budget: Budget) -> Line {
        let searches = tested == Level::Expert || others == Level::Expert;
        Line {
            players,
            tested,
            others,
            playouts: if searches { budget.playouts } else { 0 },
        }
    }
}

/// What one game gave the tested seat.
#[derive(Clone, Copy)]
struct GameResult {
    /// 1 for a win, `1 / winners` for a shared one (CH-13), else 0.
    win: f64,
    /// The others' mean final score less the tested seat's.
    margin: f64,
    decisions: u64,
    thinking: Duration,
    slowest: Duration,
}

#[derive(Default)]
struct Tally {
    wins: Vec<f64>,
    margins: Vec<f64>,
    decisions: u64,
    thinking: Duration,
    slowest: Duration,
}

impl Tally {
    fn add(&mut self, game: &GameResult) {
        self.wins.push(game.win);
        self.margins.push(game.margin);
        self.decisions += game.decisions;
        self.thinking += game.thinking;
        self.slowest = self.slowest.max(game.slowest);
    }
}

/// The games of a `--record` file, by line and seed.
#[derive(Default)]
struct Record {
    games: HashMap<(Line, u64), GameResult>,
    file: Option<Mutex<File>>,
}

const RECORD_HEADER: &str =
    "players,tested,others,playouts,seed,win,margin,decisions,thinking_us,slowest_us";

impl Record {
    fn open(path: &Path) -> Record {
        let mut games = HashMap::new();
        if path.exists() {
            let reader = BufReader::new(File::open(path).expect("the record is readable"));
            for (number, row) in reader.lines().enumerate() {
                let row = row.expect("the record is text");
                if row == RECORD_HEADER || row.trim().is_empty() {
                    continue;
                }
                let (key, game) = parse_row(&row)
                    .unwrap_or_else(|| panic!("{}:{}: not a game row", path.display(), number + 1));
                games.insert(key, game);
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the record is writable");
        if games.is_empty() && file.metadata().map(|m| m.len() == 0).unwrap_or(true) {
            writeln!(file, "{RECORD_HEADER}").expect("the record is writable");
        }
        Record {
            games,
            file: Some(Mutex::new(file)),
        }
    }

    fn save(&self, line: Line, seed: u64, game: &GameResult) {
        if let Some(file) = &self.file {
            let row = format!(
                "{},{},{},{},{seed},{},{},{},{},{}",
                line.players,
                line.tested.name(),
                line.others.name(),
                line.playouts,
                game.win,
                game.margin,
                game.decisions,
                game.thinking.as_micros(),
                game.slowest.as_micros(),
            );
            let mut file = file.lock().expect("no writer panicked");
            writeln!(file, "{row}").expect("the record is writable");
            file.flush().expect("the record is writable");
        }
    }
}

fn parse_level(name: &str) -> Option<Level> {
    match name {
        "random" => Some(Level::Random),
        "sensible" => Some(Level::Sensible),
        "expert" => Some(Level::Expert),
        _ => None,
    }
}

fn parse_row(row: &str) -> Option<((Line, u64), GameResult)> {
    let fields: Vec<&str> = row.split(',').collect();
    let [
        players,
        tested,
        others,
        playouts,
        seed,
        win,
        margin,
        decisions,
        thinking,
        slowest,
    ] = fields[..]
    else {
        return None;
    };
    let line = Line {
        players: players.parse().ok()?,
        tested: parse_level(tested)?,
        others: parse_level(others)?,
        playouts: playouts.parse().ok()?,
    };
    let game = GameResult {
        win: win.parse().ok()?,
        margin: margin.parse().ok()?,
        decisions: decisions.parse().ok()?,
        thinking: Duration::from_micros(thinking.parse().ok()?),
        slowest: Duration::from_micros(slowest.parse().ok()?),
    };
    Some(((line, seed.parse().ok()?), game))
}

/// Mean and the half-width of its 95% interval (normal approximation).
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn searched(game: &CancelHearts, seat: Seat) -> bool {
    let count = game.legal_moves(seat).count();
    count > 1 && count <= MAX_CANDIDATES
}

fn play_game(line: Line, g: u64, budget: Budget) -> GameResult {
    let n = u64::from(line.players);
    let me = Seat::new((g % n) as u8);
    let mut game =
        CancelHearts::new(Config::new(line.players), Seed::from_u64(g)).expect("a valid config");
    let mut rng: GameRng = Seed::from_u64(g ^ 0x5eed_b075).rng();
    let mut moves = 0u32;
    let (mut decisions, mut thinking, mut slowest) = (0, Duration::ZERO, Duration::ZERO);
    while let Some(seat) = game.to_act().first() {
        let level = if seat == me { line.tested } else { line.others };
        let mv = match level {
            Level::Random => game.legal_moves(seat).random(&mut rng),
            Level::Sensible => game.bot_move(seat, &mut rng),
            Level::Expert => {
                let timed = searched(&game, seat);
                let start = Instant::now();
                let mv = expert_move(&game, seat, budget, &mut rng);
                if timed {
                    let took = start.elapsed();
                    decisions += 1;
                    thinking += took;
                    slowest = slowest.max(took);
                }
                mv
            }
        }
        .expect("a seat to act has a move");
        game.play_mut(seat, &mv).expect("bots play legal moves");
        moves += 1;
        assert!(moves < 1_000_000, "a game that does not end");
    }
    let outcome = game.outcome().expect("the game is over");
    let win = if outcome.winners.contains(me) {
        1.0 / f64::from(outcome.winners.len())
    } else {
        0.0
    };
    let mine = f64::from(outcome.scores[me.index()]);
    let others: f64 = outcome
        .scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != me.index())
        .map(|(_, &score)| f64::from(score))
        .sum::<f64>()
        / (n - 1) as f64;
    GameResult {
        win,
        margin: others - mine,
        decisions,
        thinking,
        slowest,
    }
}

/// Plays the line's games `0..games` that `record` lacks on two threads
/// (each game saved as it ends), and tallies all of them.
fn run_line(line: Line, games: u64, budget: Budget, record: &Record) -> Tally {
    let missing: Vec<u64> = (0..games)
        .filter(|&g| !record.games.contains_key(&(line, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let played: Vec<(u64, GameResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    while let Some(&g) = missing.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let result = play_game(line, g, budget);
                        record.save(line, g, &result);
                        mine.push((g, result));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread"))
            .collect()
    });
    let played: HashMap<u64, GameResult> = played.into_iter().collect();
    let mut tally = Tally::default();
    for g in 0..games {
        let game = played
            .get(&g)
            .or_else(|| record.games.get(&(line, g)))
            .expect("every game is played or recorded");
        tally.add(game);
    }
    tally
}

fn timing(tables: &[u8], decisions: u64, budget: Budget) {
    println!(
        "Time per expert decision at {} playouts, one thread, {decisions} decisions per table:",
        budget.playouts
    );
    println!();
    println!("| players | mean ms | p90 ms | max ms |");
    println!("|---|---|---|---|");
    for &players in tables {
        let mut times = Vec::new();
        let mut g = 0u64;
        'games: loop {
            let mut game = CancelHearts::new(Config::new(players), Seed::from_u64(g)).unwrap();
            let mut rng = Seed::from_u64(g ^ 0x71).rng();
            let mut step = 0u64;
            while let Some(seat) = game.to_act().first() {
                if step.is_multiple_of(3) && searched(&game, seat) {
                    let start = Instant::now();
                    let mv = expert_move(&game, seat, budget, &mut rng);
                    times.push(start.elapsed().as_secs_f64() * 1000.0);
                    std::hint::black_box(mv);
                    if times.len() as u64 >= decisions {
                        break 'games;
                    }
                }
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play_mut(seat, &mv).unwrap();
                step += 1;
            }
            g += 1;
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let p90 = times[(times.len() * 9 / 10).min(times.len() - 1)];
        println!(
            "| {players} | {mean:.1} | {p90:.1} | {:.1} |",
            times.last().unwrap()
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut games = 200u64;
    let mut budget = CancelHearts::DEFAULT_BUDGET;
    let mut tables: Vec<u8> = (6..=10).collect();
    let mut timing_decisions = None;
    let mut against: Option<String> = None;
    let mut record_path: Option<String> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--playouts" => {
                budget = Budget::playouts(args.next().and_then(|a| a.parse().ok()).expect("N"))
            }
            "--tables" => {
                tables = args
                    .next()
                    .expect("a list")
                    .split(',')
                    .map(|t| t.parse().expect("a table size"))
                    .collect()
            }
            "--against" => against = args.next(),
            "--record" => record_path = args.next(),
            "--timing" => timing_decisions = args.next().and_then(|a| a.parse().ok()),
            other => games = other.parse().expect("GAMES: a number"),
        }
    }
    if let Some(decisions) = timing_decisions {
        timing(&tables, decisions, budget);
        return;
    }
    let record = record_path
        .as_deref()
        .map_or_else(Record::default, |path| Record::open(Path::new(path)));
    println!(
        "Cancellation Hearts, expert at {} playouts per decision, {games} games per line (seeds 0..{games}, the tested seat g mod n)",
        budget.playouts
    );
    println!();
    println!(
        "| players | tested | others | win share | margin | seat share | ms/decision (mean, max) | elapsed |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &players in &tables {
        for (tested, others) in [
            (Level::Expert, Level::Sensible),
            (Level::Sensible, Level::Sensible),
            (Level::Expert, Level::Random),
            (Level::Sensible, Level::Random),
        ] {
            let wanted = match against.as_deref() {
                Some("sensible") => others == Level::Sensible,
                Some("random") => others == Level::Random,
                _ => true,
            };
            if !wanted {
                continue;
            }
            let start = Instant::now();
            let line = Line::new(players, tested, others, budget);
            let tally = run_line(line, games, budget, &record);
            let (win, win_ci) = mean_ci(&tally.wins);
            let (margin, margin_ci) = mean_ci(&tally.margins);
            let thinking = if tally.decisions > 0 {
                format!(
                    "{:.1}, {:.1}",
                    tally.thinking.as_secs_f64() * 1000.0 / tally.decisions as f64,
                    tally.slowest.as_secs_f64() * 1000.0
                )
            } else {
                "–".to_owned()
            };
            println!(
                "| {players} | {} | {} | {:.1}% ± {:.1} | {margin:+.1} ± {margin_ci:.1} | {:.1}% | {thinking} | {:.0} s |",
                tested.name(),
                others.name(),
                100.0 * win,
                100.0 * win_ci,
                100.0 / f64::from(players),
                start.elapsed().as_secs_f64(),
            );
        }
    }
}
