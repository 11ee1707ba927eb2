//! Random legal games of both kinds, for the round-trip and tamper tests.

#![allow(dead_code)]

use cards::{LegalMoves, Ruleset, Seed};
use game_record::{Actor, GameInfo, GameKind, RecordedMove};
use rand::RngExt;
use rules_cancel_hearts::CancelHearts;
use rules_lost_heir::LostHeir;
use serde_json::json;

/// A table to play at: kind, player count, and (Lost Heir, 4 players) partnerships.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub kind: GameKind,
    pub players: u8,
    pub partnerships: bool,
}

/// Every table the issue asks for: LH 2, 3, 4 (with and without
/// partnerships), CH 6..=10.
pub fn tables() -> Vec<Table> {
    let mut tables = vec![
        Table {
            kind: GameKind::LostHeir,
            players: 2,
            partnerships: false,
        },
        Table {
            kind: GameKind::LostHeir,
            players: 3,
            partnerships: false,
        },
        Table {
            kind: GameKind::LostHeir,
            players: 4,
            partnerships: true,
        },
        Table {
            kind: GameKind::LostHeir,
            players: 4,
            partnerships: false,
        },
    ];
    for players in 6..=10 {
        tables.push(Table {
            kind: GameKind::CancellationHearts,
            players,
            partnerships: false,
        });
    }
    tables
}

/// A short game's configuration (low targets keep games a few rounds long).
pub fn config(table: Table, variant: u64) -> serde_json::Value {
    match table.kind {
        GameKind::LostHeir => {
            let mut config =
                json!({"players": table.players, "partnerships": table.partnerships, "target": 12});
            if !variant.is_multiple_of(2) {
                // The LH-13 variant: the bidder's contract.
                config["bidder_contract"] = json!(true);
            }
            config
        }
        GameKind::CancellationHearts => {
            let rule = if variant.is_multiple_of(2) {
                "extend"
            } else {
                "carry_over"
            };
            json!({"players": table.players, "target": 40, "all_cancelled": rule})
        }
    }
}

/// The info of a game at `table` whose seeds and names come from `n`.
pub fn info(table: Table, n: u64) -> GameInfo {
    let names = [
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
    ];
    GameInfo {
        kind: table.kind,
        config: config(table, n),
        players: names[..usize::from(table.players)]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        created: Some("2026-11-30T12:00:00Z".to_owned()),
        ended: Some("2026-11-30T13:30:00Z".to_owned()),
        server_seed: Seed::from_u64(n),
        entropy: (0..table.players)
            .map(|seat| !(u64::from(seat) + n).is_multiple_of(3))
            .enumerate()
            .map(|(seat, some)| some.then(|| format!("seat {seat} says \"{n}\"")))
            .collect(),
        resigned: None,
        hints: Vec::new(),
    }
}

/// A random legal game to the end (or `max_moves`), from the record's dealing seed.
pub fn random_game(table: Table, n: u64, max_moves: usize) -> (GameInfo, Vec<RecordedMove>) {
    let info = info(table, n);
    let seed = game_record::fairness::dealing_seed(&info.server_seed, &info.entropy);
    let moves = match table.kind {
        GameKind::LostHeir => {
            let config = serde_json::from_value(info.config.clone()).unwrap();
            play_out(LostHeir::new(config, seed).unwrap(), n, max_moves)
        }
        GameKind::CancellationHearts => {
            let config = serde_json::from_value(info.config.clone()).unwrap();
            play_out(CancelHearts::new(config, seed).unwrap(), n, max_moves)
        }
    };
    (info, moves)
}

fn play_out<G: Ruleset>(mut game: G, n: u64, max_moves: usize) -> Vec<RecordedMove>
where
    G::Move: serde::Serialize,
{
    let mut rng = Seed::from_u64(n ^ 0x5eed).rng();
    let mut moves = Vec::new();
    while moves.len() < max_moves {
        // Several seats may act at once (passing): pick one at random.
        let acting: Vec<_> = game.to_act().iter().collect();
        if acting.is_empty() {
            break;
        }
        let seat = acting[rng.random_range(0..acting.len())];
        let mv = game.legal_moves(seat).random(&mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        let actor = match rng.random_range(0..10) {
            0 => Actor::Bot,
            1 => Actor::Deadline,
            _ => Actor::Player,
        };
        moves.push(RecordedMove::typed(seat.number(), &mv, actor));
    }
    moves
}
