//! Clients that leave mid-request: reads, writes, long polls and streams
//! dropped at random moments while their queries are in flight. No worker
//! panics (SQLite's blocking calls are detached, `db::checkout`), every
//! worker keeps serving, and the log stays whole: the game plays on to its
//! end and its record verifies.

use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Backend, Player, TestServer, random_move, rng, start};

/// Panics on any HTTP worker of any server of this test binary.
static WORKER_PANICS: AtomicUsize = AtomicUsize::new(0);

/// Counts panics on actix's threads (the servers' workers and their
/// runtime), then lets the usual hook print them.
fn count_worker_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            if thread.name().is_some_and(|n| n.starts_with("actix")) {
                WORKER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// One request, abandoned after `patience` (the connection is closed with
/// the future): a read, a move, a long poll or a stream, at random.
async fn impatient_request(
    ts: &TestServer,
    game_id: &str,
    finished_id: &str,
    players: &[Player],
    pick: u32,
    patience: Duration,
) {
    let player = &players[pick as usize % players.len()];
    let client = &ts.client;
    let auth = format!("Bearer {}", player.token);
    let request = match pick % 8 {
        // Writes that contend for SQLite's one writer, so some wait in its
        // busy handler when their client leaves.
        6 => client
            .post(ts.url("/v1/players"))
            .json(&json!({"display_name": format!("Storm {pick}")})),
        7 => client
            .post(ts.url("/v1/games"))
            .header("authorization", &auth)
            .json(&json!({
                "kind": "lost-heir",
                "config": {"players": 3},
                "seats": ["open", "bot", "bot"],
            })),
        0 => client.get(ts.url(&format!("/v1/games/{game_id}"))),
        1 => client.get(ts.url(&format!("/v1/games/{game_id}/events?after=0&limit=200"))),
        2 => client
            .get(ts.url(&format!("/v1/games/{game_id}/legal-moves")))
            .header("authorization", &auth),
        // A finished game's whole log, from its start: the stream reads
        // page after page while its client leaves.
        3 => client.get(ts.url(&format!("/v1/games/{finished_id}/stream?after=0"))),
        4 => {
            // A long poll at the game's end of log: it waits, then leaves.
            let version = ts.game(game_id, None).await.json["version"].clone();
            client.get(ts.url(&format!(
                "/v1/games/{game_id}/events/wait?after={version}&timeout=2"
            )))
        }
        _ => {
            // A move: legal or not, it is decided and committed (or
            // refused) while its client may already be gone.
            let legal = ts.legal(player, game_id).await;
            let mv = match legal.json["count"].as_u64() {
                Some(n) if n > 0 => random_move(&legal.json, &mut rng(u64::from(pick))),
                _ => json!({"type": "bid", "points": 1}),
            };
            client
                .post(ts.url(&format!("/v1/games/{game_id}/moves")))
                .header("authorization", &auth)
                .header("idempotency-key", format!("storm-{pick}"))
                .json(&mv)
        }
    };
    let _ = tokio::time::timeout(patience, async {
        if let Ok(response) = request.send().await {
            let _ = response.bytes().await;
        }
    })
    .await;
}

async fn clients_leaving_mid_request_break_nothing(backend: Backend) {
    count_worker_panics();
    let ts = start(backend).await;
    let (ann, bob, finished_id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let players = [ann.clone(), bob.clone()];
    ts.play_out(&finished_id, &players, &mut rng(1)).await;
    let game_id = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        ts.join(&bob, &game_id, Some(1)).await.status,
        StatusCode::OK
    );
    let panics_before = WORKER_PANICS.load(Ordering::SeqCst);

    // Three hundred clients in waves of fifty, each gone after 0-30 ms:
    // mostly while its query runs (reads, moves, polls, stream catch-up).
    for wave in 0..6u32 {
        let requests = (0..50u32).map(|i| {
            let pick = wave * 50 + i;
            let patience = Duration::from_micros(u64::from(pick * 7919 % 30_000));
            impatient_request(&ts, &game_id, &finished_id, &players, pick, patience)
        });
        futures_util::future::join_all(requests).await;
    }

    // Every worker still serves: fresh connections, spread over them.
    for _ in 0..20 {
        let client = reqwest::Client::new();
        let answer = client
            .get(ts.url(&format!("/v1/games/{game_id}")))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .expect("the server still answers");
        assert_eq!(answer.status(), StatusCode::OK);
    }
    assert_eq!(
        WORKER_PANICS.load(Ordering::SeqCst) - panics_before,
        0,
        "an HTTP worker panicked while clients left"
    );

    // The log is whole: its seqs run 1..=version, the game plays on to
    // its end, and the record (every deal, move and score) verifies.
    let (events, _) = ts.all_events(&game_id, None).await;
    let seqs: Vec<i64> = events.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let version = ts.game(&game_id, None).await.json["version"]
        .as_i64()
        .unwrap();
    assert_eq!(seqs, (1..=version).collect::<Vec<_>>());
    ts.play_out(&game_id, &players, &mut rng(7)).await;
    let verified = ts.get(&format!("/v1/games/{game_id}/verify"), None).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    assert_eq!(verified.json["ok"], Value::Bool(true), "{}", verified.text);
}
on_both_backends!(clients_leaving_mid_request_break_nothing);
