//! Prints the record of a random seeded game, for the docs' examples:
//! `cargo run -p game-record --example sample_record -- lost-heir 3 5 1`
//! (kind, players, target, seed number).

use cards::{LegalMoves, Ruleset, Seed};
use game_record::{Actor, GameInfo, GameKind, GameRecord, RecordedMove};
use rules_cancel_hearts::CancelHearts;
use rules_lost_heir::LostHeir;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = GameKind::from_code(&args[0]).expect("lost-heir or cancellation-hearts");
    let players: u8 = args[1].parse().expect("a player count");
    let target: i32 = args[2].parse().expect("a target");
    let n: u64 = args[3].parse().expect("a seed number");
    let names = [
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
    ];
    let config = match kind {
        GameKind::LostHeir => {
            json!({"players": players, "partnerships": players == 4, "target": target})
        }
        GameKind::CancellationHearts => json!({"players": players, "target": target}),
    };
    let info = GameInfo {
        kind,
        config: config.clone(),
        players: names[..usize::from(players)]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        created: Some("2026-11-30T12:00:00Z".to_owned()),
        ended: Some("2026-11-30T12:41:07Z".to_owned()),
        server_seed: Seed::from_u64(n),
        entropy: (0..players)
            .map(|seat| {
                (seat != 1).then(|| format!("{} rolled {}", names[usize::from(seat)], 3 * seat + 1))
            })
            .collect(),
        resigned: None,
        hints: Vec::new(),
    };
    let seed = game_record::fairness::dealing_seed(&info.server_seed, &info.entropy);
    let moves = match kind {
        GameKind::LostHeir => play_out(
            LostHeir::new(serde_json::from_value(config).unwrap(), seed).unwrap(),
            n,
        ),
        GameKind::CancellationHearts => play_out(
            CancelHearts::new(serde_json::from_value(config).unwrap(), seed).unwrap(),
            n,
        ),
    };
    let record = GameRecord::build(&info, &moves).expect("a legal game");
    print!("{}", record.to_text());
}

fn play_out<G: Ruleset>(mut game: G, n: u64) -> Vec<RecordedMove>
where
    G::Move: serde::Serialize,
{
    let mut rng = Seed::from_u64(n ^ 0x5eed).rng();
    let mut moves = Vec::new();
    while let Some(seat) = game.to_act().first() {
        let mv = game.legal_moves(seat).random(&mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        // The last seat is a bot, to show the actor marks.
        let actor = if usize::from(seat.number()) + 1 == game.player_count().as_usize() {
            Actor::Bot
        } else {
            Actor::Player
        };
        moves.push(RecordedMove::typed(seat.number(), &mv, actor));
    }
    moves
}
