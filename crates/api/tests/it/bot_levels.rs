//! Bot levels (docs/bots.md), over HTTP on both backends: a seat is a
//! `random`, `sensible` or `expert` bot at creation and when handed to
//! autoplay; the level is in the seat, the log (`seat_taken`, `autoplay`)
//! and the record; an expert seat plays whole games (its search runs off
//! the write path, `games::bots`); each level is rated on its own.

use std::time::Duration;

use crate::common::{Backend, TestServer, rng, start_tuned};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A server whose expert thinks briefly: debug builds are slow, and what is
/// tested here is the plumbing, not the strength (`docs/bots.md`).
async fn server(backend: Backend) -> TestServer {
    server_with(backend, 2).await
}

async fn server_with(backend: Backend, thinkers: usize) -> TestServer {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    start_tuned(target, |c| {
        c.bots.expert_playouts = Some(24);
        c.bots.thinkers = thinkers;
    })
    .await
}

/// A value of the server's `/metrics`.
async fn metric(ts: &TestServer, name: &str) -> f64 {
    let m = ts.get("/metrics", None).await;
    m.text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing:\n{}", m.text))
}

fn seat(game: &Value, n: usize) -> &Value {
    &game["seats"][n]
}

async fn autoplay(ts: &TestServer, token: &str, id: &str, body: Value) -> crate::common::Answer {
    ts.post(&format!("/v1/games/{id}/autoplay"), Some(token), &body)
        .await
}

async fn bots_of_every_level_play_a_game_to_its_end(backend: Backend) {
    let ts = server(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 3, "target": 5}),
            &["bot_random", "bot", "bot_expert"],
            None,
        )
        .await;
    let id = game["id"].as_str().unwrap();
    for (n, level) in ["random", "sensible", "expert"].iter().enumerate() {
        assert_eq!(seat(&game, n)["occupant"], "bot");
        assert_eq!(seat(&game, n)["bot_level"], *level, "{game}");
    }
    let finished = ts.wait_finished(id, Duration::from_secs(240)).await;
    assert_eq!(seat(&finished, 2)["bot_level"], "expert");

    // The log says which bot sat where, and every seat moved.
    let (events, _) = ts.all_events(id, None).await;
    let levels: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "seat_taken")
        .map(|e| &e["payload"]["bot_level"])
        .collect();
    assert_eq!(
        levels,
        [&json!("random"), &json!("sensible"), &json!("expert")]
    );
    for n in 0..3 {
        assert!(
            events.iter().any(|e| e["type"] == "move"
                && e["actor"]["seat"] == n
                && e["actor"]["bot"] == true),
            "seat {n} never moved"
        );
    }

    // So does the record, which still verifies.
    let record = ts.get(&format!("/v1/games/{id}/record"), None).await;
    assert_eq!(record.status, StatusCode::OK, "{}", record.text);
    assert!(
        record
            .text
            .contains("[Seat0 \"bot (random)\"]\n[Seat1 \"bot\"]\n[Seat2 \"bot (expert)\"]"),
        "{}",
        record.text
    );
    let verify = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(verify.json["ok"], true, "{}", verify.text);

    // The expert's decisions were searched (and counted) off the write path.
    let expert_moves = events
        .iter()
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 2)
        .count();
    assert!(metric(&ts, "cards_expert_think_seconds_count").await >= 1.0);
    assert!(metric(&ts, "cards_expert_think_seconds_count").await <= expert_moves as f64 * 2.0);
    assert_eq!(metric(&ts, "cards_experts_thinking").await, 0.0);
    ts.server.stop().await;
}

on_both_backends!(bots_of_every_level_play_a_game_to_its_end);

/// Experts in several games think one at a time with `BOT_THINKERS=1`,
/// and every game still ends.
async fn expert_decisions_are_bounded_by_the_thinkers(backend: Backend) {
    let ts = server_with(backend, 1).await;
    let ann = ts.register("Ann").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let game = ts
            .create_game(
                &ann,
                "lost-heir",
                json!({"players": 2, "target": 3}),
                &["bot_expert", "bot_expert"],
                None,
            )
            .await;
        ids.push(game["id"].as_str().unwrap().to_owned());
    }
    let mut most = 0.0f64;
    let mut waited = 0.0f64;
    let start = std::time::Instant::now();
    loop {
        most = most.max(metric(&ts, "cards_experts_thinking").await);
        waited = waited.max(metric(&ts, "cards_experts_waiting").await);
        let mut done = 0;
        for id in &ids {
            if ts.game(id, None).await.json["status"] == "finished" {
                done += 1;
            }
        }
        if done == ids.len() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "the games did not end"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        most <= 1.0,
        "{most} expert decisions at once with one thinker"
    );
    println!("at most {most} thinking, {waited} waiting at once");
    ts.server.stop().await;
}

on_both_backends!(expert_decisions_are_bounded_by_the_thinkers);

async fn autoplay_hands_a_seat_to_the_level_asked_for(backend: Backend) {
    let ts = server(backend).await;
    let (ann, bob, id) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 5}))
        .await;

    let on = autoplay(
        &ts,
        &ann.token,
        &id,
        json!({"enabled": true, "level": "expert"}),
    )
    .await;
    assert_eq!(on.status, StatusCode::OK, "{}", on.text);
    assert_eq!(seat(&on.json, 0)["autoplay"], true);
    assert_eq!(seat(&on.json, 0)["bot_level"], "expert");
    assert!(seat(&on.json, 1).get("bot_level").is_none(), "{}", on.text);

    // Asking again for the same level changes nothing; another level is a
    // change of its own.
    let again = autoplay(
        &ts,
        &ann.token,
        &id,
        json!({"enabled": true, "level": "expert"}),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    let random = autoplay(
        &ts,
        &ann.token,
        &id,
        json!({"enabled": true, "level": "random"}),
    )
    .await;
    assert_eq!(seat(&random.json, 0)["bot_level"], "random");
    // No level: the sensible bot, as before levels existed.
    let sensible = autoplay(&ts, &ann.token, &id, json!({"enabled": true})).await;
    assert_eq!(seat(&sensible.json, 0)["bot_level"], "sensible");
    let off = autoplay(&ts, &ann.token, &id, json!({"enabled": false})).await;
    assert_eq!(seat(&off.json, 0)["autoplay"], false);
    assert!(
        seat(&off.json, 0).get("bot_level").is_none(),
        "{}",
        off.text
    );

    let (events, _) = ts.all_events(&id, None).await;
    let changes: Vec<(Value, Value)> = events
        .iter()
        .filter(|e| e["type"] == "autoplay")
        .map(|e| {
            (
                e["payload"]["enabled"].clone(),
                e["payload"]["level"].clone(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            (json!(true), json!("expert")),
            (json!(true), json!("random")),
            (json!(true), json!("sensible")),
            (json!(false), Value::Null),
        ]
    );

    // The expert plays Ann's seat to the end while Bob plays his.
    let on = autoplay(
        &ts,
        &ann.token,
        &id,
        json!({"enabled": true, "level": "expert"}),
    )
    .await;
    assert_eq!(on.status, StatusCode::OK, "{}", on.text);
    ts.play_out(&id, std::slice::from_ref(&bob), &mut rng(5))
        .await;
    let finished = ts.wait_finished(&id, Duration::from_secs(240)).await;
    assert_eq!(seat(&finished, 0)["bot_level"], "expert");
    ts.server.stop().await;
}

on_both_backends!(autoplay_hands_a_seat_to_the_level_asked_for);

async fn an_unknown_level_is_refused_and_changes_nothing(backend: Backend) {
    let ts = server(backend).await;
    let ann = ts.register("Ann").await;
    let refused = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2},
                    "seats": ["open", "bot_grandmaster"], "take_seat": 0}),
        )
        .await;
    refused.assert_problem(422, "invalid_body");
    assert!(refused.text.contains("bot_grandmaster"), "{}", refused.text);
    let mine = ts.get("/v1/games?mine=true", Some(&ann.token)).await;
    assert_eq!(
        mine.json["games"].as_array().unwrap().len(),
        0,
        "{}",
        mine.text
    );

    let (ann, _bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let before = ts.game(&id, None).await.json["version"].clone();
    let bad = autoplay(
        &ts,
        &ann.token,
        &id,
        json!({"enabled": true, "level": "genius"}),
    )
    .await;
    bad.assert_problem(422, "invalid_body");
    let after = ts.game(&id, None).await;
    assert_eq!(after.json["version"], before);
    assert_eq!(seat(&after.json, 0)["autoplay"], false);
    ts.server.stop().await;
}

on_both_backends!(an_unknown_level_is_refused_and_changes_nothing);

async fn each_level_is_rated_on_its_own(backend: Backend) {
    let ts = server(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 5}),
            &["open", "bot_expert"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    ts.play_out(id, std::slice::from_ref(&ann), &mut rng(3))
        .await;
    ts.server.state.games.rate_queued().await.unwrap();
    let board = ts.get("/v1/leaderboards/lost-heir", None).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text);
    let entries = board.json["entries"].as_array().unwrap();
    let bot = entries.iter().find(|e| e["is_bot"] == true).unwrap();
    assert_eq!(bot["subject"], "bot:expert", "{}", board.text);
    assert_eq!(bot["display_name"], "Expert bot");
    assert_eq!(bot["games"], 1);
    assert!(!entries.iter().any(|e| e["subject"] == "bot:sensible"));
    ts.server.stop().await;
}

on_both_backends!(each_level_is_rated_on_its_own);

/// `BOT_GAMES_PER_PLAYER`: a player's open and running games with an
/// expert bot seat, or with bots only, are bounded; one more is refused
/// with 409 `too_many_bot_games` and creates nothing, while games with a
/// person's seat and sensible bots, other players' games, and new ones
/// once the old have finished are not.
async fn the_bot_games_limit_refuses_one_more_and_changes_nothing(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let ts = start_tuned(target, |c| {
        c.bots.expert_playouts = Some(24);
        c.bots.games_per_player = 2;
    })
    .await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let lh = json!({"players": 2, "target": 3});
    // Two open games with an expert seat: they count before they start.
    for _ in 0..2 {
        ts.create_game(
            &ann,
            "lost-heir",
            lh.clone(),
            &["open", "bot_expert"],
            Some(0),
        )
        .await;
    }
    let all_games = async || {
        let page = ts.get("/v1/games?limit=100", None).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        page.json["games"].as_array().unwrap().len()
    };
    assert_eq!(all_games().await, 2);
    for seats in [
        json!(["open", "bot_expert"]),
        json!(["bot_expert", "bot_expert"]),
        json!(["bot", "bot"]),
        json!(["bot_random", "bot"]),
    ] {
        let refused = ts
            .post(
                "/v1/games",
                Some(&ann.token),
                &json!({"kind": "lost-heir", "config": lh, "seats": seats}),
            )
            .await;
        refused.assert_problem(409, "too_many_bot_games");
    }
    assert_eq!(all_games().await, 2, "a refused create changes nothing");

    // A person's seat and sensible bots: not limited.
    ts.create_game(&ann, "lost-heir", lh.clone(), &["open", "bot"], Some(0))
        .await;
    // Another player's limit is their own; finished games leave it. Bob
    // sits in his two expert games, so neither can end before he says so
    // (an all-bot game might finish before the next create is sent).
    let mut ids = Vec::new();
    for _ in 0..2 {
        let game = ts
            .post(
                "/v1/games",
                Some(&bob.token),
                &json!({"kind": "lost-heir", "config": lh, "seats": ["open", "bot_expert"],
                        "take_seat": 0, "on_resign": "end_game"}),
            )
            .await;
        assert_eq!(game.status, StatusCode::CREATED, "{}", game.text);
        ids.push(game.json["id"].as_str().unwrap().to_owned());
    }
    let bots_only = json!({"kind": "lost-heir", "config": lh, "seats": ["bot", "bot"]});
    ts.post("/v1/games", Some(&bob.token), &bots_only)
        .await
        .assert_problem(409, "too_many_bot_games");
    let resigned = ts
        .post(
            &format!("/v1/games/{}/resign", ids[0]),
            Some(&bob.token),
            &json!(null),
        )
        .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.text);
    assert_eq!(resigned.json["status"], "finished", "{}", resigned.text);
    let created = ts.post("/v1/games", Some(&bob.token), &bots_only).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(all_games().await, 6);
    ts.server.stop().await;
}

on_both_backends!(the_bot_games_limit_refuses_one_more_and_changes_nothing);
