//! End to end over HTTP: complete games of both kinds and every player
//! count, with bots and with token-holding players making random legal
//! moves, on Postgres and on SQLite; each finished game is rebuilt from its
//! log and compared with the live state (G-1).

use crate::common::view_of;
use std::time::Duration;

use crate::common::{Backend, Player, TestServer, rng, start};
use cards::{Seat, Viewer};
use futures_util::future::join_all;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

struct Setup {
    kind: &'static str,
    config: Value,
    /// Seats 0..humans are people with tokens; the rest are bots.
    humans: usize,
}

fn lost_heir() -> Vec<Setup> {
    let lh = |config: Value, humans| Setup {
        kind: "lost-heir",
        config,
        humans,
    };
    vec![
        lh(json!({"players": 2, "target": 10}), 2),
        lh(json!({"players": 3, "target": 10}), 1),
        lh(json!({"players": 4, "target": 8}), 2),
        lh(json!({"players": 4, "partnerships": false, "target": 8}), 1),
        lh(json!({"players": 3, "target": 10}), 0),
    ]
}

fn cancellation_hearts() -> Vec<Setup> {
    let ch = |players: u8, humans, variant: &str| Setup {
        kind: "cancellation-hearts",
        config: json!({"players": players, "target": 30, "all_cancelled": variant}),
        humans,
    };
    vec![
        ch(6, 2, "extend"),
        ch(7, 1, "carry_over"),
        ch(8, 2, "extend"),
        ch(9, 1, "extend"),
        ch(10, 2, "carry_over"),
        ch(6, 0, "extend"),
    ]
}

async fn play_one(ts: &TestServer, setup: &Setup, n: u64) {
    let creator = ts.register(&format!("creator {n}")).await;
    let players = setup.config["players"].as_u64().unwrap() as usize;
    let seats: Vec<&str> = (0..players)
        .map(|i| if i < setup.humans { "open" } else { "bot" })
        .collect();
    let take = (setup.humans > 0).then_some(0);
    let game = ts
        .create_game(&creator, setup.kind, setup.config.clone(), &seats, take)
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let mut humans: Vec<Player> = Vec::new();
    if setup.humans > 0 {
        humans.push(creator);
    }
    for seat in 1..setup.humans {
        let player = ts.register(&format!("player {n}.{seat}")).await;
        let a = ts.join(&player, &id, Some(seat as u8)).await;
        assert_eq!(a.status.as_u16(), 200, "{}", a.text);
        assert_eq!(a.json["your_seat"], seat);
        humans.push(player);
    }
    if humans.is_empty() {
        // All bots: it runs to the end with no client calls.
        assert_eq!(game["status"], "in_progress");
        ts.wait_finished(&id, Duration::from_secs(120)).await;
    } else {
        let moves = ts.play_out(&id, &humans, &mut rng(n)).await;
        assert!(moves > 0);
    }
    check_against_log(ts, &id).await;
}

/// Rebuilds the finished game from its public log (config + seed + moves,
/// G-1) and from the database, and compares both with the live view.
async fn check_against_log(ts: &TestServer, id: &str) {
    let live = ts.game(id, None).await.json;
    assert_eq!(live["status"], "finished");
    assert_eq!(live["viewer"], "omniscient");
    assert!(live["to_act"].as_array().unwrap().is_empty());
    let seed = live["seed"].as_str().expect("seed revealed at the end");
    let seed_bytes = hex::decode(seed).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&seed_bytes)),
        live["seed_commitment"].as_str().unwrap(),
        "the revealed seed matches the commitment"
    );
    let (events, pages) = ts.all_events(id, None).await;
    assert!(pages.iter().all(|p| p.json["complete"] == true));
    assert_eq!(events.len() as i64, live["version"].as_i64().unwrap());
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["seq"].as_i64().unwrap(), i as i64 + 1);
        assert_eq!(event["redacted"], false);
    }
    assert_eq!(events.last().unwrap()["type"], "game_finished");

    let kind = live["kind"].as_str().unwrap();
    let entropy: Vec<Option<String>> =
        serde_json::from_value(live["entropy"].clone()).expect("entropy revealed at the end");
    let finished = events.last().unwrap();
    assert_eq!(finished["payload"]["seed"], live["seed"]);
    assert_eq!(finished["payload"]["dealing_seed"], live["dealing_seed"]);
    let mut game = api::games::log::new_game(kind, &live["config"], seed, &entropy).unwrap();
    for event in events.iter().filter(|e| e["type"] == "move") {
        let seat = Seat::new(event["actor"]["seat"].as_u64().unwrap() as u8);
        game.play_mut(seat, &event["payload"])
            .expect("the log replays");
    }
    assert_eq!(view_of(&*game, Viewer::Omniscient), live["view"]);
    assert_eq!(
        serde_json::to_value(game.outcome()).unwrap(),
        live["outcome"]
    );

    let rebuilt = ts.server.state.games.rebuild_from_log(id).await.unwrap();
    assert_eq!(view_of(&*rebuilt.game, Viewer::Omniscient), live["view"]);
    assert_eq!(rebuilt.row.version, live["version"].as_i64().unwrap());
}

async fn play_all(backend: Backend, setups: Vec<Setup>, base: u64) {
    let ts = start(backend).await;
    let games = setups
        .iter()
        .enumerate()
        .map(|(i, setup)| play_one(&ts, setup, base + i as u64));
    join_all(games).await;
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_heir_every_player_count_sqlite() {
    play_all(Backend::Sqlite, lost_heir(), 100).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_heir_every_player_count_postgres() {
    play_all(Backend::Postgres, lost_heir(), 200).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_hearts_every_player_count_sqlite() {
    play_all(Backend::Sqlite, cancellation_hearts(), 300).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_hearts_every_player_count_postgres() {
    play_all(Backend::Postgres, cancellation_hearts(), 400).await;
}
