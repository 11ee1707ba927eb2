//! Resigning a game in progress, over HTTP on both
//! backends: the `bot` policy (the bot plays the seat on, the seat is
//! forfeited and never wins), the `end_game` policy (finished at once, the
//! side forfeited: LH-3 partnerships; winners by the standings, LH-12), and
//! the refusals.

use std::time::Duration;

use crate::common::{Backend, Player, TestServer, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

async fn create(ts: &TestServer, who: &Player, body: Value) -> String {
    let a = ts.post("/v1/games", Some(&who.token), &body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.json["id"].as_str().unwrap().to_owned()
}

async fn resign(ts: &TestServer, who: &Player, id: &str) -> crate::common::Answer {
    ts.post(
        &format!("/v1/games/{id}/resign"),
        Some(&who.token),
        &json!(null),
    )
    .await
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

async fn export(ts: &TestServer, id: &str, format: &str) -> String {
    let a = ts
        .get(&format!("/v1/games/{id}/record?format={format}"), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.text
}

/// The finished game's record states the resignation (`tag`), verifies,
/// and imports (text and JSON) as a game whose record is the same bytes
/// and whose outcome is the same; returns the record's text.
async fn record_verifies(ts: &TestServer, who: &Player, id: &str, tag: &str) -> String {
    let text = export(ts, id, "text").await;
    assert!(text.contains(tag), "{text}");
    let report = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(report.json["ok"], true, "{}", report.text);
    let outcome = ts.game(id, None).await.json["outcome"].clone();
    for (content_type, body) in [
        ("text/plain", text.clone()),
        ("application/json", export(ts, id, "json").await),
    ] {
        let response = ts
            .client
            .post(ts.url("/v1/records"))
            .bearer_auth(&who.token)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let imported = crate::common::read_answer(&Method::POST, "/v1/records", response).await;
        assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.text);
        assert_eq!(imported.json["outcome"], outcome, "{}", imported.text);
        let copy = imported.json["id"].as_str().unwrap();
        assert_eq!(export(ts, copy, "text").await, text);
        let (log, _) = ts.all_events(copy, None).await;
        assert_eq!(
            log.iter().filter(|e| e["type"] == "seat_resigned").count(),
            1
        );
    }
    text
}

async fn resign_under_bot_policy(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "bot"], "take_seat": 0}),
    )
    .await;
    let game = ts.game(&id, Some(&ann.token)).await.json;
    assert_eq!(game["on_resign"], "bot", "the default policy");
    let a = resign(&ts, &ann, &id).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["seats"][0]["forfeited"], true);
    assert_eq!(a.json["seats"][0]["autoplay"], true);
    // The bot plays the seat to the end.
    let done = ts.wait_finished(&id, Duration::from_secs(60)).await;
    let outcome = &done["outcome"];
    assert_eq!(numbers(&outcome["forfeited"]), [0], "{done}");
    assert!(!numbers(&outcome["winners"]).contains(&0), "{done}");
    let (log, _) = ts.all_events(&id, None).await;
    let resigned: Vec<&Value> = log
        .iter()
        .filter(|e| e["type"] == "seat_resigned")
        .collect();
    assert_eq!(resigned.len(), 1);
    assert_eq!(
        resigned[0]["payload"],
        json!({"seat": 0, "player_id": ann.id, "policy": "bot"})
    );
    assert_eq!(resigned[0]["actor"]["player_id"], ann.id.as_str());
    // Moves after the resignation are the bot's.
    let after = log
        .iter()
        .skip_while(|e| e["type"] != "seat_resigned")
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 0);
    assert!(after.clone().count() > 0);
    assert!(after.into_iter().all(|e| e["actor"]["bot"] == true));
    let last = log.last().unwrap();
    assert_eq!(last["type"], "game_finished");
    assert_eq!(numbers(&last["payload"]["forfeited"]), [0]);
    let moves_before = log
        .iter()
        .take_while(|e| e["type"] != "seat_resigned")
        .filter(|e| e["type"] == "move")
        .count();
    let tag = format!("[Resigned \"seat 0 after {moves_before} bot; forfeited 0\"]");
    record_verifies(&ts, &ann, &id, &tag).await;
    ts.server.stop().await;
}

on_both_backends!(resign_under_bot_policy);

async fn resign_under_end_game_policy_forfeits_the_side(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    // LH-3: four players play in partnerships, seats 0+2 against 1+3.
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 4, "target": 25},
               "seats": ["open", "bot", "bot", "bot"], "take_seat": 0,
               "on_resign": "end_game"}),
    )
    .await;
    let a = resign(&ts, &ann, &id).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let game = &a.json;
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["on_resign"], "end_game");
    assert_eq!(game["viewer"], "omniscient");
    assert_eq!(game["seats"][0]["forfeited"], true);
    assert_eq!(game["seats"][2]["forfeited"], true, "the partner too");
    assert_eq!(game["seats"][1]["forfeited"], false);
    let outcome = &game["outcome"];
    assert_eq!(numbers(&outcome["forfeited"]), [0, 2], "{game}");
    // The other side is the only one left: it wins (LH-12 ranks the rest).
    assert_eq!(numbers(&outcome["winners"]), [1, 3], "{game}");
    assert!(game["seed"].is_string(), "the seed is revealed at the end");
    let read = ts.game(&id, None).await.json;
    assert_eq!(read["outcome"], *outcome);
    let (log, _) = ts.all_events(&id, None).await;
    let n = log.len();
    assert_eq!(log[n - 2]["type"], "seat_resigned");
    assert_eq!(log[n - 2]["payload"]["policy"], "end_game");
    assert_eq!(log[n - 1]["type"], "game_finished");
    assert_eq!(numbers(&log[n - 1]["payload"]["forfeited"]), [0, 2]);
    assert_eq!(
        numbers(&log[n - 1]["payload"]["outcome"]["winners"]),
        [1, 3]
    );
    // Nobody moves any more.
    let bob = ts.register("Bob").await;
    resign(&ts, &bob, &id)
        .await
        .assert_problem(403, "not_seated");
    resign(&ts, &ann, &id)
        .await
        .assert_problem(409, "game_not_in_progress");
    // The replay reaches the end.
    let version = read["version"].as_i64().unwrap();
    let replay = ts
        .get(&format!("/v1/games/{id}/replay?seq={version}"), None)
        .await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.text);
    assert_eq!(replay.json["seq"], version);
    let text = record_verifies(&ts, &ann, &id, " end_game; forfeited 0 2\"]").await;
    assert!(text.contains("[Result \"winners 1 3; "), "{text}");
    ts.server.stop().await;
}

on_both_backends!(resign_under_end_game_policy_forfeits_the_side);

async fn end_game_without_partners_ranks_the_others(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "bot"], "take_seat": 0, "on_resign": "end_game"}),
    )
    .await;
    let a = resign(&ts, &ann, &id).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["status"], "finished");
    assert_eq!(numbers(&a.json["outcome"]["forfeited"]), [0]);
    assert_eq!(numbers(&a.json["outcome"]["winners"]), [1]);
    ts.server.stop().await;
}

on_both_backends!(end_game_without_partners_ranks_the_others);

async fn resign_refusals(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let carol = ts.register("Carol").await;
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "open"], "take_seat": 0}),
    )
    .await;
    // Not started yet.
    resign(&ts, &ann, &id)
        .await
        .assert_problem(409, "game_not_in_progress");
    assert_eq!(ts.join(&bob, &id, Some(1)).await.status, StatusCode::OK);
    // Not seated.
    resign(&ts, &carol, &id)
        .await
        .assert_problem(403, "not_seated");
    let unknown = "00000000-0000-4000-8000-000000000000";
    resign(&ts, &ann, unknown)
        .await
        .assert_problem(404, "game_not_found");
    let before = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    // With an Idempotency-Key, a copy gets the first answer.
    let path = format!("/v1/games/{id}/resign");
    let headers = [("Idempotency-Key", "resign-1")];
    let first = ts
        .call(Method::POST, &path, Some(&bob.token), None, &headers)
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let copy = ts
        .call(Method::POST, &path, Some(&bob.token), None, &headers)
        .await;
    assert_eq!(copy.status, StatusCode::OK, "{}", copy.text);
    assert_eq!(copy.json["version"], first.json["version"]);
    // Twice, without the key: refused, nothing appended.
    resign(&ts, &bob, &id)
        .await
        .assert_problem(409, "already_resigned");
    let (log, _) = ts.all_events(&id, None).await;
    let resigned = log.iter().filter(|e| e["type"] == "seat_resigned").count();
    assert_eq!(resigned, 1);
    assert!(log.len() as i64 > before);
    // A resigned seat cannot be taken back from the bot.
    let back = ts
        .post(
            &format!("/v1/games/{id}/autoplay"),
            Some(&bob.token),
            &json!({"enabled": false}),
        )
        .await;
    back.assert_problem(409, "seat_forfeited");
    // An unknown policy is refused at creation.
    let bad = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2}, "on_resign": "sulk"}),
        )
        .await;
    bad.assert_problem(422, "invalid_body");
    ts.server.stop().await;
}

on_both_backends!(resign_refusals);

/// The resignation reaches a seat's game stream and the spectator's as its
/// own typed frame (checked against the document), then the end; another
/// game of the same players is untouched.
async fn a_resignation_is_streamed(backend: Backend) {
    use crate::streams::Sse;
    let ts = start(backend).await;
    let (ann, bob, id) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 10}))
        .await;
    // A second game, under end_game: it ends on the resignation.
    let created = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
                    "seats": ["open", "open"], "take_seat": 0, "on_resign": "end_game"}),
        )
        .await;
    let ended = created.json["id"].as_str().unwrap().to_owned();
    assert_eq!(ts.join(&bob, &ended, Some(1)).await.status, StatusCode::OK);
    let wait = Duration::from_secs(20);
    let path = format!("/v1/games/{ended}/stream");
    let mut seat = Sse::open(&ts, &path, Some(&bob.token), None).await;
    let mut spectator = Sse::open(&ts, &path, None, None).await;
    assert_eq!(seat.next(wait).await.unwrap().event, "snapshot");
    assert_eq!(spectator.next(wait).await.unwrap().event, "snapshot");
    let a = resign(&ts, &ann, &ended).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    for stream in [&mut seat, &mut spectator] {
        let resigned = stream
            .next_of(&["seat_resigned"], wait)
            .await
            .expect("the resignation");
        assert_eq!(resigned.data["payload"]["policy"], "end_game");
        assert_eq!(resigned.data["payload"]["seat"], 0);
        let end = stream.next_of(&["game_finished"], wait).await.unwrap();
        assert_eq!(end.data["payload"]["forfeited"], json!([0]));
    }
    // The other game (the bot policy) is untouched.
    assert_eq!(ts.game(&id, None).await.json["status"], "in_progress");
    ts.server.stop().await;
}

on_both_backends!(a_resignation_is_streamed);
