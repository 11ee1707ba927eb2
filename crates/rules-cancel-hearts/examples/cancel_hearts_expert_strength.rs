//! How strong is the expert (search) bot? Simulated games, deterministic seeds.
//!
//! ```text
//! cargo run --release -p rules-cancel-hearts --example cancel_hearts_expert_strength -- GAMES [--playouts N] [--tables 6,7,8,9,10] [--against sensible|random] [--timing DECISIONS]
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
//! With `--timing DECISIONS`, instead: the time of `DECISIONS` expert
//! decisions per table at the budget (default the engine's
//! `Determinize::DEFAULT_BUDGET`, 2,400 playouts), on one
//! thread, in positions from sensible-bot games (decisions with one legal
//! move or too many to search are not counted).

use std::time::{Duration, Instant};

use cards::search::{Budget, MAX_CANDIDATES, expert_move};
use cards::{Bot, Determinize, GameRng, LegalMoves, Ruleset, Seat, Seed};
use rules_cancel_hearts::{CancelHearts, Config};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Random,
    Sensible,
    Expert,
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
    fn merge(&mut self, other: Tally) {
        self.wins.extend(other.wins);
        self.margins.extend(other.margins);
        self.decisions += other.decisions;
        self.thinking += other.thinking;
        self.slowest = self.slowest.max(other.slowest);
    }
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

fn play_game(players: u8, g: u64, tested: Level, others: Level, budget: Budget, tally: &mut Tally) {
    let n = u64::from(players);
    let me = Seat::new((g % n) as u8);
    let mut game =
        CancelHearts::new(Config::new(players), Seed::from_u64(g)).expect("a valid config");
    let mut rng: GameRng = Seed::from_u64(g ^ 0x5eed_b075).rng();
    let mut moves = 0u32;
    while let Some(seat) = game.to_act().first() {
        let level = if seat == me { tested } else { others };
        let mv = match level {
            Level::Random => game.legal_moves(seat).random(&mut rng),
            Level::Sensible => game.bot_move(seat, &mut rng),
            Level::Expert => {
                let timed = searched(&game, seat);
                let start = Instant::now();
                let mv = expert_move(&game, seat, budget, &mut rng);
                if timed {
                    let took = start.elapsed();
                    tally.decisions += 1;
                    tally.thinking += took;
                    tally.slowest = tally.slowest.max(took);
                }
                mv
            }
        }
        .expect("a seat to act has a move");
        game.play(seat, &mv).expect("bots play legal moves");
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
    tally.wins.push(win);
    tally.margins.push(others - mine);
}

fn run_line(players: u8, games: u64, tested: Level, others: Level, budget: Budget) -> Tally {
    let mut total = Tally::default();
    let halves: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2u64)
            .map(|half| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for g in (half..games).step_by(2) {
                        play_game(players, g, tested, others, budget, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker thread"))
            .collect()
    });
    for half in halves {
        total.merge(half);
    }
    total
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
                game.play(seat, &mv).unwrap();
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
            "--timing" => timing_decisions = args.next().and_then(|a| a.parse().ok()),
            other => games = other.parse().expect("GAMES: a number"),
        }
    }
    if let Some(decisions) = timing_decisions {
        timing(&tables, decisions, budget);
        return;
    }
    println!(
        "Cancellation Hearts, expert at {} playouts per decision, {games} games per line (seeds 0..{games}, the tested seat g mod n)",
        budget.playouts
    );
    println!();
    println!(
        "| players | tested | others | win share | margin | seat share | ms/decision (mean, max) | elapsed |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let name = |level: Level| match level {
        Level::Random => "random",
        Level::Sensible => "sensible",
        Level::Expert => "expert",
    };
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
            let tally = run_line(players, games, tested, others, budget);
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
                name(tested),
                name(others),
                100.0 * win,
                100.0 * win_ci,
                100.0 / f64::from(players),
                start.elapsed().as_secs_f64(),
            );
        }
    }
}
