//! How strong is the expert (search) bot? Simulated games, deterministic seeds.
//!
//! ```text
//! cargo run --release -p rules-lost-heir --example lost_heir_expert_strength -- \
//!     GAMES [--playouts N] [--bidder-contract] [--tables 2,3,4p,4a] [--vs sensible,random] [--threads 2]
//! ```
//!
//! For each table (2 and 3 players, 4 in partnerships, 4 alone), on the same
//! deals (game `g` is dealt from `Seed::from_u64(g)`, the bots draw from
//! `Seed::from_u64(g ^ 0x5eed_b075)`, as in `lost_heir_bot_strength`), with
//! the tested seat rotating (`g mod n`; with partnerships its partner is of
//! the others' level):
//!
//! * (a) one expert against sensible bots, (b) one sensible bot against
//!   sensible bots (the baseline, same seat);
//! * (c) one expert against random bots, (d) one sensible bot against random
//!   bots.
//!
//! Each line: the tested seat's win share with a 95% interval (normal
//! approximation; a partnership's win is a win for both its seats), its mean
//! score margin (its side's final total less the mean of the other sides')
//! with a 95% interval, the seat share (1 / sides), the expert's time per
//! searched decision (mean and max, ms, in this build; decisions with one
//! legal move or more than `MAX_CANDIDATES` are not searched), and the
//! line's elapsed time. Games run on two threads (`std::thread::scope`;
//! `--threads 1` for cleaner decision times on a busy machine).
//! `--playouts N` sets the expert's budget (default `Budget::DEFAULT`).

use std::time::{Duration, Instant};

use cards::search::{BotLevel, Budget, MAX_CANDIDATES};
use cards::{GameRng, LegalMoves, Ruleset, Seat, Seed};
use rules_lost_heir::{Config, LostHeir};

/// One game's result for the tested seat, and the expert's decision times.
struct GameResult {
    win: f64,
    margin: f64,
    decisions: Vec<Duration>,
}

fn side_of(config: &Config, seat: Seat) -> u8 {
    if config.partnerships {
        seat.number() % 2
    } else {
        seat.number()
    }
}

fn play_game(
    config: Config,
    g: u64,
    tested: BotLevel,
    others: BotLevel,
    budget: Budget,
) -> GameResult {
    let n = config.players;
    let me = Seat::new((g % u64::from(n)) as u8);
    let mut game = LostHeir::new(config, Seed::from_u64(g)).expect("a valid config");
    let mut rng: GameRng = Seed::from_u64(g ^ 0x5eed_b075).rng();
    let mut decisions = Vec::new();
    let mut moves = 0u32;
    while let Some(seat) = game.turn() {
        let level = if seat == me { tested } else { others };
        let searched = level == BotLevel::Expert && {
            let count = game.legal_moves(seat).count();
            count > 1 && count <= MAX_CANDIDATES
        };
        let start = Instant::now();
        let mv = level
            .choose(&game, seat, budget, &mut rng)
            .expect("a seat to act has a move");
        if searched {
            decisions.push(start.elapsed());
        }
        game.play_mut(seat, &mv).expect("bots play legal moves");
        moves += 1;
        assert!(moves < 1_000_000, "a game that does not end");
    }
    let outcome = game.outcome().expect("the game is over");
    let mine = side_of(&config, me);
    let mut sides: Vec<u8> = outcome
        .winners
        .iter()
        .map(|s| side_of(&config, s))
        .collect();
    sides.sort_unstable();
    sides.dedup();
    let win = if sides.contains(&mine) {
        1.0 / sides.len() as f64
    } else {
        0.0
    };
    let scores = game.scores();
    let rest: i32 = scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(mine))
        .map(|(_, &s)| s)
        .sum();
    let margin = f64::from(scores[usize::from(mine)]) - f64::from(rest) / (scores.len() - 1) as f64;
    GameResult {
        win,
        margin,
        decisions,
    }
}

/// Mean and half-width of the 95% interval (normal approximation).
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn run_line(
    config: Config,
    games: u64,
    tested: BotLevel,
    others: BotLevel,
    budget: Budget,
    threads: u64,
) -> Vec<GameResult> {
    let mut results: Vec<(u64, GameResult)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..games)
                        .filter(|g| g % threads == t)
                        .map(|g| (g, play_game(config, g, tested, others, budget)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a game thread"))
            .collect()
    });
    results.sort_by_key(|(g, _)| *g);
    results.into_iter().map(|(_, r)| r).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let bidder_contract = args.iter().any(|a| a == "--bidder-contract");
    let budget = value("--playouts").map_or(Budget::DEFAULT, |p| {
        Budget::playouts(p.parse().expect("--playouts: a number"))
    });
    let table_filter = value("--tables").unwrap_or_else(|| "2,3,4p,4a".to_owned());
    let vs_filter = value("--vs").unwrap_or_else(|| "sensible,random".to_owned());
    let threads: u64 = value("--threads")
        .map_or(2, |t| t.parse().expect("--threads: a number"))
        .max(1);
    let mut skip_next = false;
    let games: u64 = args
        .iter()
        .find(|a| {
            if skip_next {
                skip_next = false;
                return false;
            }
            if matches!(a.as_str(), "--playouts" | "--tables" | "--vs" | "--threads") {
                skip_next = true;
            }
            !a.starts_with("--")
        })
        .map(|a| a.parse().expect("GAMES: a number"))
        .unwrap_or(200);
    let tables = [
        ("2", "2 players", Config::new(2)),
        ("3", "3 players", Config::new(3)),
        ("4p", "4 partnerships", Config::new(4)),
        ("4a", "4 alone", Config::new(4).with_partnerships(false)),
    ];
    let variant = if bidder_contract {
        ", the LH-13 variant (the bidder's contract)"
    } else {
        ""
    };
    println!(
        "Lost Heir{variant}: {games} games per line (seeds 0..{games}), expert budget {} playouts per decision",
        budget.playouts
    );
    println!();
    println!(
        "| table | tested seat | others | win share (95%) | seat share | mean margin (95%) | ms/decision mean | ms/decision max | elapsed |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (key, name, config) in tables {
        if !table_filter.split(',').any(|t| t == key) {
            continue;
        }
        let config = config.with_bidder_contract(bidder_contract);
        let sides = if config.partnerships {
            2
        } else {
            usize::from(config.players)
        };
        for others in [BotLevel::Sensible, BotLevel::Random] {
            if !vs_filter.split(',').any(|v| v == others.name()) {
                continue;
            }
            for tested in [BotLevel::Expert, BotLevel::Sensible] {
                let start = Instant::now();
                let results = run_line(config, games, tested, others, budget, threads);
                let elapsed = start.elapsed();
                let wins: Vec<f64> = results.iter().map(|r| r.win).collect();
                let margins: Vec<f64> = results.iter().map(|r| r.margin).collect();
                let (win, win_ci) = mean_ci(&wins);
                let (margin, margin_ci) = mean_ci(&margins);
                let times: Vec<f64> = results
                    .iter()
                    .flat_map(|r| r.decisions.iter().map(|d| d.as_secs_f64() * 1e3))
                    .collect();
                let (mean_ms, max_ms) = if times.is_empty() {
                    ("–".to_owned(), "–".to_owned())
                } else {
                    let mean = times.iter().sum::<f64>() / times.len() as f64;
                    let max = times.iter().copied().fold(0.0, f64::max);
                    (format!("{mean:.1}"), format!("{max:.1}"))
                };
                println!(
                    "| {name} | {tested} | {others} | {:.1}% ± {:.1} | {:.1}% | {margin:+.1} ± {margin_ci:.1} | {mean_ms} | {max_ms} | {:.1} s |",
                    100.0 * win,
                    100.0 * win_ci,
                    100.0 / sides as f64,
                    elapsed.as_secs_f64(),
                );
            }
        }
    }
}
