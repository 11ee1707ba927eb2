//! Hints (issue 35, point 3), over HTTP on both backends: refused in rated
//! games (at creation) and in games created without them; in an unrated
//! game with hints the seat to act gets a legal move, the `hint_given`
//! event is its own while the game runs (others and spectators read only
//! that a hint was given, G-2), asking again for the same decision logs
//! nothing more, and after the end the record shows the hints and
//! verifies (replay passes over them). The hidden-card independence is
//! `games::any_game`'s unit test `a_hint_never_reads_hidden_cards`.

use std::time::Duration;

use crate::common::{Backend, Player, TestServer, rng, start};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn hint(ts: &TestServer, who: Option<&Player>, id: &str) -> crate::common::Answer {
    ts.post(
        &format!("/v1/games/{id}/hints"),
        who.map(|p| p.token.as_str()),
        &json!({}),
    )
    .await
}

fn hints_in(log: &[Value]) -> Vec<&Value> {
    log.iter().filter(|e| e["type"] == "hint_given").collect()
}

async fn hints_refused_in_rated_games(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let body = |extra: Value| {
        let mut body = json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
                              "seats": ["open", "bot"], "take_seat": 0});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    ts.post(
        "/v1/games",
        Some(&ann.token),
        &body(json!({"rated": true, "hints": true})),
    )
    .await
    .assert_problem(422, "hints_not_allowed");
    // Hints alone make the game unrated.
    let a = ts
        .post("/v1/games", Some(&ann.token), &body(json!({"hints": true})))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["hints"], true);
    assert_eq!(a.json["rated"], false);
    // A game created without hints (rated by default) refuses them.
    let a = ts
        .post("/v1/games", Some(&ann.token), &body(json!({})))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["hints"], false);
    assert_eq!(a.json["rated"], true);
    let id = a.json["id"].as_str().unwrap();
    hint(&ts, Some(&ann), id)
        .await
        .assert_problem(403, "hints_not_allowed");
    // So does an unrated one without them.
    let a = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &body(json!({"rated": false})),
        )
        .await;
    let id = a.json["id"].as_str().unwrap();
    hint(&ts, Some(&ann), id)
        .await
        .assert_problem(403, "hints_not_allowed");
    ts.server.stop().await;
}

on_both_backends!(hints_refused_in_rated_games);

async fn a_hint_in_an_unrated_game(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let created = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
                    "seats": ["open", "open"], "take_seat": 0, "hints": true}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    hint(&ts, Some(&ann), &id)
        .await
        .assert_problem(409, "game_not_started");
    assert_eq!(ts.join(&bob, &id, Some(1)).await.status, StatusCode::OK);
    let game = ts.game(&id, None).await.json;
    let to_act = game["to_act"][0].as_u64().unwrap();
    let (mover, waiter) = match to_act {
        0 => (&ann, &bob),
        _ => (&bob, &ann),
    };
    // Only the seat to act, only a seated player.
    hint(&ts, Some(waiter), &id)
        .await
        .assert_problem(409, "not_your_turn");
    let carol = ts.register("Carol").await;
    hint(&ts, Some(&carol), &id)
        .await
        .assert_problem(403, "not_seated");
    let version = game["version"].as_i64().unwrap();
    let a = hint(&ts, Some(mover), &id).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let given = a.json.clone();
    assert_eq!(given["seat"], to_act);
    assert_eq!(given["ply"], 0);
    assert_eq!(given["hints_used"], 1);
    let legal = ts.legal(mover, &id).await.json;
    let moves = legal["moves"].as_array().unwrap();
    assert!(moves.contains(&given["move"]), "{given} not in {legal}");
    let candidates = given["candidates"].as_array().unwrap();
    assert!(candidates.iter().any(|c| c["move"] == given["move"]));
    if given["forced"] == false && given["playouts"].as_u64().unwrap() > 0 {
        assert_eq!(given["value_kind"], "expected_standing");
    }
    // Asking again for the same decision: the same hint, logged once.
    let again = hint(&ts, Some(mover), &id).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json, given);
    // The hint is an event: the game's version moved by one.
    let after = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    assert_eq!(after, version + 1);
    // Its seat reads the suggestion; the other seat and spectators only
    // that a hint was given (G-2).
    let (mine, _) = ts.all_events(&id, Some(&mover.token)).await;
    let mine = hints_in(&mine);
    assert_eq!(mine.len(), 1);
    assert_eq!(
        mine[0]["payload"],
        json!({"seat": to_act, "ply": 0, "move": given["move"]})
    );
    assert_eq!(mine[0]["redacted"], false);
    assert_eq!(mine[0]["actor"]["player_id"], mover.id.as_str());
    for token in [Some(waiter.token.as_str()), None] {
        let (theirs, _) = ts.all_events(&id, token).await;
        let theirs = hints_in(&theirs);
        assert_eq!(theirs.len(), 1);
        assert_eq!(theirs[0]["payload"], json!({"seat": to_act, "ply": 0}));
        assert_eq!(theirs[0]["redacted"], true);
    }
    // Play on: the hint's move, then the rest at random.
    let played = ts.post_move(mover, &id, &given["move"]).await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.text);
    ts.play_out(&id, &[ann.clone(), bob.clone()], &mut rng(35))
        .await;
    ts.wait_finished(&id, Duration::from_secs(60)).await;
    hint(&ts, Some(mover), &id)
        .await
        .assert_problem(409, "game_over");
    // Once over, the hint is public and in the record, which verifies.
    let (log, _) = ts.all_events(&id, None).await;
    let public = hints_in(&log);
    assert_eq!(public[0]["payload"]["move"], given["move"]);
    let text = ts
        .get(&format!("/v1/games/{id}/record?format=text"), None)
        .await;
    assert_eq!(text.status, StatusCode::OK, "{}", text.text);
    assert!(
        text.text
            .contains(&format!("[Hint0 \"seat {to_act} at 0: ")),
        "{}",
        text.text
    );
    let json_record = ts
        .get(&format!("/v1/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(json_record.json["hints"][0]["move"], given["move"]);
    let report = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(report.json["ok"], true, "{}", report.text);
    // An import of the record keeps the hint.
    let response = ts
        .client
        .post(ts.url("/v1/records"))
        .bearer_auth(&ann.token)
        .header("content-type", "text/plain")
        .body(text.text.clone())
        .send()
        .await
        .unwrap();
    let imported =
        crate::common::read_answer(&reqwest::Method::POST, "/v1/records", response).await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.text);
    let copy = imported.json["id"].as_str().unwrap();
    let again = ts
        .get(&format!("/v1/games/{copy}/record?format=text"), None)
        .await;
    assert_eq!(again.text, text.text);
    ts.server.stop().await;
}

on_both_backends!(a_hint_in_an_unrated_game);
