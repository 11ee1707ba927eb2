//! Post-game analysis timing and agreement (docs/analysis.md): a whole
//! game between sensible bots, every seat analysed at the engine's default
//! budget, twice with different random streams. Prints the time of each run
//! and how often the two runs prefer the same move at a judged decision.
//!
//!   cargo run --release -p game-record --example analysis_bench -- lost-heir 3 [games]
//!   cargo run --release -p game-record --example analysis_bench -- cancellation-hearts 10 [games]
//!
//! `scripts/bench-analysis.sh` runs both on one core.

use std::time::Instant;

use cards::analysis::{SeatAnalysis, analyse_seat};
use cards::{Bot, Determinize, Ruleset, Seat, Seed};
use rules_cancel_hearts::CancelHearts;
use rules_lost_heir::LostHeir;

/// A whole game between sensible bots from `seed`: the start and the log.
fn bot_game<G: Bot>(start: G, seed: u64) -> (G, Vec<(Seat, G::Move)>) {
    let mut game = start.clone();
    let mut rng = Seed::from_u64(seed).rng();
    let mut moves = Vec::new();
    while let Some(seat) = game.to_act().first() {
        let mv = game
            .bot_move(seat, &mut rng)
            .expect("a seat to act has a move");
        game.play_mut(seat, &mv).expect("the bot's move is legal");
        moves.push((seat, mv));
    }
    (start, moves)
}

/// Every seat analysed with `seed`; the seconds it took.
fn analyse_all<G: Determinize>(
    start: &G,
    moves: &[(Seat, G::Move)],
    seed: u64,
) -> (Vec<SeatAnalysis<G::Move>>, f64) {
    let began = Instant::now();
    let analyses = start
        .player_count()
        .seats()
        .map(|seat| {
            analyse_seat(start, moves, seat, G::DEFAULT_BUDGET, &Seed::from_u64(seed))
                .expect("the log replays")
        })
        .collect();
    (analyses, began.elapsed().as_secs_f64())
}

/// (judged decisions, of which both runs preferred the same move, of which
/// both gave the same mark).
fn agreement<M: PartialEq>(a: &[SeatAnalysis<M>], b: &[SeatAnalysis<M>]) -> (usize, usize, usize) {
    let (mut judged, mut same_best, mut same_mark) = (0, 0, 0);
    for (sa, sb) in a.iter().zip(b) {
        for (da, db) in sa.decisions.iter().zip(&sb.decisions) {
            if da.mark.is_judged() {
                judged += 1;
                same_best += usize::from(da.best == db.best);
                same_mark += usize::from(da.mark == db.mark);
            }
        }
    }
    (judged, same_best, same_mark)
}

fn run<G: Determinize>(name: &str, make: impl Fn(u64) -> G, games: u64) {
    let (mut judged, mut same_best, mut same_mark) = (0, 0, 0);
    for g in 0..games {
        let (start, moves) = bot_game(make(g), 1000 + g);
        let (a, secs_a) = analyse_all(&start, &moves, 1);
        let (b, secs_b) = analyse_all(&start, &moves, 2);
        let decisions: usize = a.iter().map(|s| s.decisions.len()).sum();
        let searched: usize = a.iter().map(|s| s.summary.judged).sum();
        let mistakes: usize = a.iter().map(|s| s.summary.mistakes).sum();
        println!(
            "{name} game {g}: {} moves, {decisions} decisions, {searched} searched, \
             {mistakes} mistakes; {secs_a:.2} s and {secs_b:.2} s",
            moves.len()
        );
        let (j, sb, sm) = agreement(&a, &b);
        judged += j;
        same_best += sb;
        same_mark += sm;
    }
    let pct = |n: usize| 100.0 * n as f64 / judged.max(1) as f64;
    println!(
        "{name}: {judged} judged decisions; same preferred move {same_best} ({:.1}%), \
         same mark {same_mark} ({:.1}%)",
        pct(same_best),
        pct(same_mark)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("lost-heir", String::as_str);
    let players: u8 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(3);
    let games: u64 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(1);
    match kind {
        "lost-heir" => run(
            kind,
            |g| LostHeir::new(rules_lost_heir::Config::new(players), Seed::from_u64(g)).unwrap(),
            games,
        ),
        "cancellation-hearts" => run(
            kind,
            |g| {
                CancelHearts::new(rules_cancel_hearts::Config::new(players), Seed::from_u64(g))
                    .unwrap()
            },
            games,
        ),
        other => {
            eprintln!("unknown kind {other}: lost-heir or cancellation-hearts");
            std::process::exit(2);
        }
    }
}
