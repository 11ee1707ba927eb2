//! How strong is the sensible bot? Simulated games, deterministic seeds.
//!
//! ```text
//! cargo run --release -p rules-lost-heir --example lost_heir_bot_strength -- [games] [--bidder-contract]
//! ```
//!
//! For each table (2 and 3 players, 4 in partnerships, 4 without), `games`
//! games (default 1000) of:
//!
//! * one sensible bot against random bots, the bot's seat rotating from game
//!   to game (game `g` puts it in seat `g mod n`);
//! * with partnerships, also two sensible partners against two random ones;
//! * sensible bots in every seat: the win rate by seat, and how the rounds
//!   went (bids accepted, contracts made, the dealer's side scoring), which
//!   is where the LH-13 variant (`--bidder-contract`) differs.
//!
//! Wins are counted per side (a partnership's win is a win for both its
//! seats); a shared win would count as a fraction (Lost Heir has none: a tie
//! at the top means another round, LH-12). The baseline is the seat's share,
//! 1 / sides. Scores are final game totals.

use cards::{Bot, GameRng, LegalMoves, Ruleset, Seat, Seed};
use rules_lost_heir::{Config, LostHeir};

/// Who sits where: `true` for a sensible bot.
fn play_game(config: Config, seed: u64, bots: &[bool]) -> cards::Outcome {
    play_to_the_end(config, seed, bots)
        .outcome()
        .expect("the game is over")
}

fn play_to_the_end(config: Config, seed: u64, bots: &[bool]) -> LostHeir {
    let mut game = LostHeir::new(config, Seed::from_u64(seed)).expect("a valid config");
    let mut rng: GameRng = Seed::from_u64(seed ^ 0x5eed_b075).rng();
    let mut moves = 0u32;
    while let Some(seat) = game.turn() {
        let mv = if bots[seat.index()] {
            game.bot_move(seat, &mut rng)
        } else {
            game.legal_moves(seat).random(&mut rng)
        }
        .expect("a seat to act has a move");
        game.play_mut(seat, &mv).expect("bots play legal moves");
        moves += 1;
        assert!(moves < 1_000_000, "a game that does not end");
    }
    game
}

/// The share of a win `seat` gets: 1 / (winning sides) if its side won.
fn win_share(config: &Config, outcome: &cards::Outcome, seat: Seat) -> f64 {
    let side = |s: Seat| {
        if config.partnerships {
            s.number() % 2
        } else {
            s.number()
        }
    };
    let mut sides: Vec<u8> = outcome.winners.iter().map(side).collect();
    sides.sort_unstable();
    sides.dedup();
    if sides.contains(&side(seat)) {
        1.0 / sides.len() as f64
    } else {
        0.0
    }
}

fn main() {
    // `[games] [--bidder-contract]`: the second plays the LH-13 variant.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bidder_contract = args.iter().any(|a| a == "--bidder-contract");
    let games: u64 = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(|a| a.parse().expect("games: a number"))
        .unwrap_or(1000);
    let tables = [
        ("2 players", Config::new(2)),
        ("3 players", Config::new(3)),
        ("4 partnerships", Config::new(4)),
        ("4 alone", Config::new(4).with_partnerships(false)),
    ]
    .map(|(name, config)| (name, config.with_bidder_contract(bidder_contract)));
    let variant = if bidder_contract {
        ", the LH-13 variant (the bidder's contract)"
    } else {
        ""
    };
    println!("Lost Heir{variant}, {games} games per line (seeds 0..{games})");
    println!();
    println!("One sensible bot, the other seats random (the bot's seat rotates):");
    println!();
    println!("| table | bot wins | seat share | bot mean score | random mean score |");
    println!("|---|---|---|---|---|");
    for (name, config) in tables {
        let n = usize::from(config.players);
        let sides = if config.partnerships { 2 } else { n };
        let (mut wins, mut bot_score, mut other_score, mut others) = (0.0, 0.0, 0.0, 0.0);
        for g in 0..games {
            let bot = Seat::new((g % n as u64) as u8);
            let mut bots = vec![false; n];
            bots[bot.index()] = true;
            let outcome = play_game(config, g, &bots);
            wins += win_share(&config, &outcome, bot);
            for (s, &score) in outcome.scores.iter().enumerate() {
                let same_side = config.partnerships && s % 2 == bot.index() % 2;
                if s == bot.index() {
                    bot_score += f64::from(score);
                } else if !same_side {
                    other_score += f64::from(score);
                    others += 1.0;
                }
            }
        }
        let g = games as f64;
        println!(
            "| {name} | {:.1}% | {:.1}% | {:.1} | {:.1} |",
            100.0 * wins / g,
            100.0 / sides as f64,
            bot_score / g,
            other_score / others,
        );
    }

    println!();
    println!("Two sensible partners against two random ones (4 players, partnerships):");
    println!();
    println!(
        "| table | bot side wins | side share | bot side mean score | random side mean score |"
    );
    println!("|---|---|---|---|---|");
    {
        let config = Config::new(4).with_bidder_contract(bidder_contract);
        let (mut wins, mut bot_score, mut other_score) = (0.0, 0.0, 0.0);
        for g in 0..games {
            let side = (g % 2) as usize;
            let bots: Vec<bool> = (0..4).map(|s| s % 2 == side).collect();
            let outcome = play_game(config, g, &bots);
            wins += win_share(&config, &outcome, Seat::new(side as u8));
            bot_score += f64::from(outcome.scores[side]);
            other_score += f64::from(outcome.scores[1 - side]);
        }
        let g = games as f64;
        println!(
            "| 4 partnerships | {:.1}% | 50.0% | {:.1} | {:.1} |",
            100.0 * wins / g,
            bot_score / g,
            other_score / g
        );
    }

    println!();
    println!("Sensible bots in every seat: win rate (mean score) by seat:");
    println!();
    println!("| table | seat 0 | seat 1 | seat 2 | seat 3 |");
    println!("|---|---|---|---|---|");
    for (name, config) in tables {
        let n = usize::from(config.players);
        let mut wins = vec![0.0; n];
        let mut scores = vec![0.0; n];
        for g in 0..games {
            let outcome = play_game(config, g, &vec![true; n]);
            for s in 0..n {
                wins[s] += win_share(&config, &outcome, Seat::new(s as u8));
                scores[s] += f64::from(outcome.scores[s]);
            }
        }
        let g = games as f64;
        let cells: Vec<String> = (0..4)
            .map(|s| {
                if s < n {
                    format!("{:.1}% ({:.1})", 100.0 * wins[s] / g, scores[s] / g)
                } else {
                    "–".to_owned()
                }
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }

    println!();
    println!("Sensible bots in every seat: the rounds (LH-6 / LH-13):");
    println!();
    println!("| table | rounds | bid accepted | contract made | dealer's side scored > 0 |");
    println!("|---|---|---|---|---|");
    for (name, config) in tables {
        let n = usize::from(config.players);
        let (mut rounds, mut accepted, mut made, mut dealer_scored) = (0u64, 0u64, 0u64, 0u64);
        for g in 0..games {
            let game = play_to_the_end(config, g, &vec![true; n]);
            for line in game.score_sheet() {
                rounds += 1;
                let dealer_side = if config.partnerships {
                    line.dealer.index() % 2
                } else {
                    line.dealer.index()
                };
                if line.round_scores[dealer_side] > 0 {
                    dealer_scored += 1;
                }
                if let Some(contract) = line.contract {
                    accepted += 1;
                    let side = contract.side.index();
                    if line.points[side] >= i32::from(contract.points.0) {
                        made += 1;
                    }
                }
            }
        }
        let pct = |k: u64, of: u64| 100.0 * k as f64 / of.max(1) as f64;
        println!(
            "| {name} | {rounds} | {:.1}% | {:.1}% of accepted | {:.1}% |",
            pct(accepted, rounds),
            pct(made, accepted),
            pct(dealer_scored, rounds),
        );
    }
}
