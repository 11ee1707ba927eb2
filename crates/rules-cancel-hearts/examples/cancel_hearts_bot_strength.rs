//! How strong is the sensible bot? Simulated games, deterministic seeds.
//!
//! ```text
//! cargo run --release -p rules-cancel-hearts --example cancel_hearts_bot_strength -- [games]
//! ```
//!
//! For 6, 8 and 10 players, `games` games (default 1000) of:
//!
//! * one sensible bot against random bots, the bot's seat rotating from game
//!   to game (game `g` puts it in seat `g mod n`);
//! * sensible bots in every seat: the win rate by seat.
//!
//! The lowest score wins; players tied for lowest share the win (CH-13), and
//! a shared win counts as `1 / winners`. The baseline is the seat share 1 / n.
//! Scores are final game totals (lower is better).

use cards::{Bot, GameRng, LegalMoves, Ruleset, Seat, Seed};
use rules_cancel_hearts::{CancelHearts, Config};

fn play_game(config: &Config, seed: u64, bots: &[bool]) -> cards::Outcome {
    let mut game = CancelHearts::new(config.clone(), Seed::from_u64(seed)).expect("a valid config");
    let mut rng: GameRng = Seed::from_u64(seed ^ 0x5eed_b075).rng();
    let mut moves = 0u32;
    while let Some(seat) = game.to_act().first() {
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
    game.outcome().expect("the game is over")
}

fn win_share(outcome: &cards::Outcome, seat: Seat) -> f64 {
    if outcome.winners.contains(seat) {
        1.0 / f64::from(outcome.winners.len())
    } else {
        0.0
    }
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("games: a number"))
        .unwrap_or(1000);
    let tables = [6u8, 8, 10];
    println!("Cancellation Hearts, {games} games per line (seeds 0..{games})");
    println!();
    println!("One sensible bot, the other seats random (the bot's seat rotates):");
    println!();
    println!("| players | bot wins | seat share | bot mean score | random mean score |");
    println!("|---|---|---|---|---|");
    for players in tables {
        let config = Config::new(players);
        let n = usize::from(players);
        let (mut wins, mut bot_score, mut other_score) = (0.0, 0.0, 0.0);
        for g in 0..games {
            let bot = Seat::new((g % n as u64) as u8);
            let mut bots = vec![false; n];
            bots[bot.index()] = true;
            let outcome = play_game(&config, g, &bots);
            wins += win_share(&outcome, bot);
            for (s, &score) in outcome.scores.iter().enumerate() {
                if s == bot.index() {
                    bot_score += f64::from(score);
                } else {
                    other_score += f64::from(score);
                }
            }
        }
        let g = games as f64;
        println!(
            "| {players} | {:.1}% | {:.1}% | {:.1} | {:.1} |",
            100.0 * wins / g,
            100.0 / n as f64,
            bot_score / g,
            other_score / (g * (n - 1) as f64),
        );
    }

    println!();
    println!("Sensible bots in every seat: win rate (mean score) by seat:");
    println!();
    let header: Vec<String> = (0..10).map(|s| format!("seat {s}")).collect();
    println!("| players | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(10));
    for players in tables {
        let config = Config::new(players);
        let n = usize::from(players);
        let mut wins = vec![0.0; n];
        let mut scores = vec![0.0; n];
        for g in 0..games {
            let outcome = play_game(&config, g, &vec![true; n]);
            for s in 0..n {
                wins[s] += win_share(&outcome, Seat::new(s as u8));
                scores[s] += f64::from(outcome.scores[s]);
            }
        }
        let g = games as f64;
        let cells: Vec<String> = (0..10)
            .map(|s| {
                if s < n {
                    format!("{:.1}% ({:.1})", 100.0 * wins[s] / g, scores[s] / g)
                } else {
                    "–".to_owned()
                }
            })
            .collect();
        println!("| {players} | {} |", cells.join(" | "));
    }
}
