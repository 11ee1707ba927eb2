//! G-2 on every endpoint: for games in progress, everything a seat or a
//! spectator can reach (game, legal moves, log, lists, errors, headers) is
//! searched for the codes of cards the viewer may not see. The truth comes
//! from rebuilding the game from the database and asking the engine.

use crate::common::view_of;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::common::{Answer, Backend, Player, TestServer, random_move, rng, start};
use cards::{Seat, Viewer};
use serde_json::{Value, json};

/// Every string in `value` that is the canonical code of a card of `kind`.
fn card_codes(kind: &str, value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => {
            let canonical = if kind == "lost-heir" {
                s.parse::<cards::heir::HeirCard>()
                    .ok()
                    .map(|c| c.to_string())
            } else {
                s.parse::<cards::standard::Card>()
                    .ok()
                    .map(|c| c.to_string())
            };
            if canonical.as_deref() == Some(s.as_str()) {
                out.insert(s.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| card_codes(kind, v, out)),
        Value::Object(map) => map.values().for_each(|v| card_codes(kind, v, out)),
        _ => {}
    }
}

/// Codes the viewer may not see now: on the table somewhere (omniscient
/// view) but neither in the viewer's own view nor ever played face up.
async fn secret_codes(ts: &TestServer, id: &str, seat: Option<Seat>) -> (i64, BTreeSet<String>) {
    let truth = ts.server.state.games.rebuild_from_log(id).await.unwrap();
    let kind_name = truth.row.kind.clone();
    let mut all = BTreeSet::new();
    card_codes(
        &kind_name,
        &view_of(&*truth.game, Viewer::Omniscient),
        &mut all,
    );
    let mut known = BTreeSet::new();
    let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
    card_codes(&kind_name, &view_of(&*truth.game, viewer), &mut known);
    let log = ts
        .server
        .state
        .games
        .db()
        .events(id, 0, 100_000)
        .await
        .unwrap();
    // Face up: every move but a pass or a discard (CH-3, CH-10), judged
    // here from the move itself, not from the audience the server stored.
    for event in log.iter().filter(|e| e.event_type() == "move") {
        let payload = event.payload();
        if !matches!(payload["type"].as_str(), Some("pass_cards" | "discard")) {
            card_codes(&kind_name, &payload, &mut known);
        }
    }
    let secret: BTreeSet<String> = all.difference(&known).cloned().collect();
    assert!(
        !secret.is_empty(),
        "other hands hold cards this viewer cannot see"
    );
    (truth.row.version, secret)
}

#[track_caller]
fn assert_hides(what: &str, answer: &Answer, secret: &BTreeSet<String>) {
    for code in secret {
        let quoted = format!("\"{code}\"");
        assert!(
            !answer.text.contains(&quoted),
            "{what} reveals {code}: {}",
            answer.text
        );
        for (name, value) in &answer.headers {
            assert!(
                !value.to_str().unwrap_or("").contains(code.as_str()),
                "{what} header {name} reveals {code}"
            );
        }
    }
}

/// Fetches everything `viewer` can reach and checks none of it shows a secret.
async fn check_viewer(ts: &TestServer, id: &str, viewer: Option<(&Player, Seat)>) {
    let seat = viewer.map(|(_, s)| s);
    let token = viewer.map(|(p, _)| p.token.as_str());
    let (version, secret) = secret_codes(ts, id, seat).await;
    let mut answers = vec![
        ("get_game", ts.game(id, token).await),
        (
            "list_games",
            ts.get("/v1/games?status=in_progress", token).await,
        ),
        ("list_games", ts.get("/v1/games", token).await),
    ];
    let (_, pages) = ts.all_events(id, token).await;
    answers.extend(pages.into_iter().map(|p| ("get_events", p)));
    // Replay to now (earlier points may show cards the viewer has since
    // passed on, which it legitimately saw); record and verify refuse.
    for path in ["replay", "record", "verify"] {
        let answer = ts.get(&format!("/v1/games/{id}/{path}"), token).await;
        answers.push((path, answer));
    }
    if let Some((player, _)) = viewer {
        answers.push(("get_legal_moves", ts.legal(player, id).await));
        answers.push((
            "mine_to_act",
            ts.get("/v1/games?mine_to_act=true", token).await,
        ));
        // Refused moves: their problem documents must not reveal anything either.
        answers.push((
            "bad move",
            ts.post_move(player, id, &json!({"type": "fly"})).await,
        ));
        answers.push((
            "stale move",
            ts.call(
                reqwest::Method::POST,
                &format!("/v1/games/{id}/moves"),
                token,
                Some(&json!({"type": "pass"})),
                &[("If-Match", "\"1\"")],
            )
            .await,
        ));
    }
    for (what, answer) in &answers {
        assert!(answer.status.as_u16() < 500, "{what}: {}", answer.text);
        assert_hides(what, answer, &secret);
    }
    let game = &answers[0].1;
    assert_eq!(
        game.json["version"].as_i64(),
        Some(version),
        "nobody moved meanwhile"
    );
    assert!(
        game.json["seed"].is_null(),
        "the seed stays secret until the end"
    );
    let expected_viewer = if seat.is_some() { "seat" } else { "spectator" };
    assert_eq!(game.json["viewer"], expected_viewer);
}

/// Waits until only people must act (bots are done), so the game holds still.
async fn until_humans_to_act(ts: &TestServer, id: &str, humans: &[u64]) -> Vec<u64> {
    let start = Instant::now();
    loop {
        let g = ts.game(id, None).await.json;
        let to_act: Vec<u64> = g["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        if g["status"] == "finished" {
            return Vec::new();
        }
        if !to_act.is_empty() && to_act.iter().all(|s| humans.contains(s)) {
            return to_act;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "bots stuck: {g}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Plays a game with two people (seats 0 and 1) and bots, checking every
/// viewer at each point where only people must act, up to `checkpoints`.
async fn hidden_everywhere(
    ts: &TestServer,
    kind: &str,
    config: Value,
    seats: &[&str],
    checkpoints: usize,
) {
    let a = ts.register("Ann").await;
    let b = ts.register("Ben").await;
    let game = ts.create_game(&a, kind, config, seats, Some(0)).await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(ts.join(&b, &id, Some(1)).await.status.as_u16(), 200);
    let humans = [&a, &b];
    let mut r = rng(5);
    for _ in 0..checkpoints {
        let to_act = until_humans_to_act(ts, &id, &[0, 1]).await;
        if to_act.is_empty() {
            break;
        }
        check_viewer(ts, &id, Some((&a, Seat::new(0)))).await;
        check_viewer(ts, &id, Some((&b, Seat::new(1)))).await;
        check_viewer(ts, &id, None).await;
        let seat = to_act[0] as usize;
        let legal = ts.legal(humans[seat], &id).await;
        let mv = random_move(&legal.json, &mut r);
        let played = ts.post_move(humans[seat], &id, &mv).await;
        assert_eq!(played.status.as_u16(), 200, "{}", played.text);
    }
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_hearts_hides_hands_passes_and_kitty() {
    let ts = start(Backend::Sqlite).await;
    hidden_everywhere(
        &ts,
        "cancellation-hearts",
        json!({"players": 7}),
        &["open", "open", "bot", "bot", "bot", "bot", "bot"],
        14,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_heir_hides_hands() {
    let ts = start(Backend::Postgres).await;
    hidden_everywhere(
        &ts,
        "lost-heir",
        json!({"players": 3}),
        &["open", "open", "bot"],
        12,
    )
    .await;
}
