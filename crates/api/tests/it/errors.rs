//! Every client mistake is a 4xx problem+json with a stable code, never a
//! 500, and a refused request changes nothing.

use crate::common::{Backend, JWT_SECRET, Player, TestServer, start};
use reqwest::Method;
use serde_json::{Value, json};

/// A 2-player Lost Heir game between two people, started; returns (id, players by seat).
async fn two_player_game(ts: &TestServer) -> (String, Vec<Player>) {
    let a = ts.register("Ada").await;
    let b = ts.register("Bob").await;
    let game = ts
        .create_game(
            &a,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let joined = ts.join(&b, &id, None).await;
    assert_eq!(joined.json["status"], "in_progress", "{}", joined.text);
    (id, vec![a, b])
}

/// The game's version and log length, to check a refusal changed nothing.
async fn fingerprint(ts: &TestServer, id: &str) -> (i64, usize, Value) {
    let game = ts.game(id, None).await.json;
    let (events, _) = ts.all_events(id, None).await;
    (
        game["version"].as_i64().unwrap(),
        events.len(),
        game["view"].clone(),
    )
}

fn token(secret: &str, sub: &str, exp_offset: i64) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({"sub": sub, "iss": "cards-api", "iat": now, "exp": now + exp_offset});
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()).unwrap(),
    )
    .unwrap()
}

async fn body_and_extractor_errors(ts: &TestServer) {
    let raw = |body: &'static str, content_type: &'static str| {
        ts.client
            .post(ts.url("/v1/players"))
            .header("content-type", content_type)
            .body(body)
    };
    let send = |req: reqwest::RequestBuilder| async move {
        let r = req.send().await.unwrap();
        let a = crate::common::read_answer(&reqwest::Method::POST, "/v1/players", r).await;
        let ct = a.header("content-type").unwrap().to_owned();
        (a.status.as_u16(), ct, a.json)
    };
    let (status, ct, json) = send(raw("{\"display_name\":", "application/json")).await;
    assert_eq!(
        (status, json["code"].as_str()),
        (400, Some("malformed_json"))
    );
    assert_eq!(ct, "application/problem+json");
    let (status, _, json) = send(raw("{\"display_name\": 5}", "application/json")).await;
    assert_eq!((status, json["code"].as_str()), (422, Some("invalid_body")));
    let (status, _, json) = send(raw(
        "{\"display_name\":\"x\",\"admin\":true}",
        "application/json",
    ))
    .await;
    assert_eq!((status, json["code"].as_str()), (422, Some("invalid_body")));
    let (status, _, json) = send(raw("display_name=x", "application/x-www-form-urlencoded")).await;
    assert_eq!(
        (status, json["code"].as_str()),
        (415, Some("unsupported_media_type"))
    );
    let big = json!({ "display_name": "x".repeat(20_000) });
    ts.post("/v1/players", None, &big)
        .await
        .assert_problem(413, "body_too_large");
    ts.post("/v1/players", None, &json!({"display_name": "   "}))
        .await
        .assert_problem(422, "invalid_display_name");

    ts.get("/v1/nothing-here", None)
        .await
        .assert_problem(404, "no_route");
    ts.get("/v1/games/no-such-game", None)
        .await
        .assert_problem(404, "game_not_found");
    ts.get("/v1/games/no-such-game/events", None)
        .await
        .assert_problem(404, "game_not_found");
    for query in [
        "status=bogus",
        "limit=0",
        "limit=abc",
        "kind=chess",
        "color=red",
    ] {
        ts.get(&format!("/v1/games?{query}"), None)
            .await
            .assert_problem(400, "bad_query");
    }
    ts.get("/v1/games?mine_to_act=true", None)
        .await
        .assert_problem(401, "missing_token");
}

async fn token_errors(ts: &TestServer) {
    let create = json!({"kind": "lost-heir", "config": {"players": 2}});
    ts.post("/v1/games", None, &create)
        .await
        .assert_problem(401, "missing_token");
    let forged = token("another-secret-0123456789abcdef0123456789", "someone", 3600);
    ts.post("/v1/games", Some(&forged), &create)
        .await
        .assert_problem(401, "invalid_token");
    ts.post("/v1/games", Some("not.a.jwt"), &create)
        .await
        .assert_problem(401, "invalid_token");
    let expired = token(JWT_SECRET, "someone", -3600);
    let a = ts.post("/v1/games", Some(&expired), &create).await;
    a.assert_problem(401, "token_expired");
    assert!(a.header("www-authenticate").unwrap().starts_with("Bearer"));
    let ghost = token(JWT_SECRET, "no-such-player", 3600);
    ts.post("/v1/games", Some(&ghost), &create)
        .await
        .assert_problem(401, "unknown_player");
    let basic = ts
        .call(
            Method::GET,
            "/v1/games",
            None,
            None,
            &[("Authorization", "Basic abc")],
        )
        .await;
    basic.assert_problem(401, "invalid_token");
}

async fn creation_errors(ts: &TestServer) {
    let p = ts.register("Cy").await;
    let cases = [
        (json!({"kind": "chess", "config": {}}), 422, "invalid_body"),
        (
            json!({"kind": "lost-heir", "config": {"players": 5}}),
            422,
            "player_count",
        ),
        (
            json!({"kind": "lost-heir", "config": {"players": 2, "colour": 1}}),
            422,
            "invalid_config",
        ),
        (
            json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["open"]}),
            422,
            "seat_count_mismatch",
        ),
        (
            json!({"kind": "lost-heir", "config": {"players": 2}, "take_seat": 2}),
            422,
            "no_such_seat",
        ),
        (
            json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["bot", "open"], "take_seat": 0}),
            422,
            "seat_is_bot",
        ),
        (
            json!({"kind": "cancellation-hearts", "config": {"players": 5}}),
            422,
            "",
        ),
    ];
    for (body, status, code) in cases {
        let a = ts.post("/v1/games", Some(&p.token), &body).await;
        assert_eq!(a.status.as_u16(), status, "{body}: {}", a.text);
        if !code.is_empty() {
            assert_eq!(a.code(), code, "{body}: {}", a.text);
        }
    }
    let games = ts.get("/v1/games", None).await;
    assert!(
        games.json["games"].as_array().unwrap().is_empty(),
        "refusals created nothing"
    );
}

async fn seat_errors(ts: &TestServer) {
    let a = ts.register("Dee").await;
    let b = ts.register("Eve").await;
    let c = ts.register("Fay").await;
    let game = ts
        .create_game(
            &a,
            "lost-heir",
            json!({"players": 3}),
            &["open", "open", "bot"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    ts.join(&a, id, None)
        .await
        .assert_problem(409, "already_seated");
    ts.join(&b, id, Some(2))
        .await
        .assert_problem(409, "seat_taken");
    ts.join(&b, id, Some(7))
        .await
        .assert_problem(422, "no_such_seat");
    let bad = ts
        .client
        .post(ts.url(&format!("/v1/games/{id}/join")))
        .bearer_auth(&b.token)
        .header("content-type", "application/json")
        .body("{seat")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400);
    let huge = ts
        .client
        .post(ts.url(&format!("/v1/games/{id}/join")))
        .bearer_auth(&b.token)
        .header("content-type", "application/json")
        .body(format!(
            "{{\"seat\": 1, \"pad\": \"{}\"}}",
            "x".repeat(40_000)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(huge.status().as_u16(), 413);
    assert_eq!(huge.headers()["content-type"], "application/problem+json");
    ts.post(&format!("/v1/games/{id}/leave"), Some(&b.token), &json!({}))
        .await
        .assert_problem(403, "not_seated");
    ts.post_move(&a, id, &json!({"type": "pass"}))
        .await
        .assert_problem(409, "game_not_started");
    // Leave and come back; then the game fills and starts.
    let left = ts
        .post(&format!("/v1/games/{id}/leave"), Some(&a.token), &json!({}))
        .await;
    assert_eq!(left.status.as_u16(), 200, "{}", left.text);
    assert_eq!(left.json["seats"][0]["occupant"], "open");
    assert_eq!(ts.join(&a, id, Some(0)).await.status.as_u16(), 200);
    assert_eq!(ts.join(&b, id, None).await.status.as_u16(), 200);
    ts.join(&c, id, None)
        .await
        .assert_problem(409, "game_not_open");
    ts.post(&format!("/v1/games/{id}/leave"), Some(&a.token), &json!({}))
        .await
        .assert_problem(409, "game_started");
    ts.legal(&c, id).await.assert_problem(403, "not_seated");
}

async fn move_errors(ts: &TestServer) {
    let (id, players) = two_player_game(ts).await;
    let game = ts.game(&id, None).await.json;
    let to_act = game["to_act"][0].as_u64().unwrap() as usize;
    let (actor, other) = (&players[to_act], &players[1 - to_act]);
    let outsider = ts.register("Gus").await;
    let before = fingerprint(ts, &id).await;

    ts.post_move(&outsider, &id, &json!({"type": "pass"}))
        .await
        .assert_problem(403, "not_seated");
    // G-4, or the engine's more specific ruling: bidding is LH-5's.
    let early = ts.post_move(other, &id, &json!({"type": "pass"})).await;
    early.assert_problem(409, "not_your_turn");
    assert_eq!(early.json["rule"], "LH-5", "{}", early.text);
    let fly = ts.post_move(actor, &id, &json!({"type": "fly"})).await;
    fly.assert_problem(422, "malformed_move");
    assert_eq!(fly.json["rule"], "G-3", "{}", fly.text);
    ts.post_move(actor, &id, &json!({"type": "play", "card": "no-such-card"}))
        .await
        .assert_problem(422, "malformed_move");
    let illegal = ts
        .post_move(actor, &id, &json!({"type": "bid", "points": 99}))
        .await;
    illegal.assert_problem(422, "bid_out_of_range");
    assert_eq!(illegal.json["rule"], "LH-5", "{}", illegal.text);
    let path = format!("/v1/games/{id}/moves");
    let stale = ts
        .call(
            Method::POST,
            &path,
            Some(&actor.token),
            Some(&json!({"type": "pass"})),
            &[("If-Match", "\"1\"")],
        )
        .await;
    stale.assert_problem(412, "version_mismatch");
    ts.call(
        Method::POST,
        &path,
        Some(&actor.token),
        Some(&json!({"type": "pass"})),
        &[("If-Match", "soon")],
    )
    .await
    .assert_problem(400, "bad_if_match");
    ts.call(
        Method::POST,
        &path,
        Some(&actor.token),
        Some(&json!({"type": "pass"})),
        &[("Idempotency-Key", "")],
    )
    .await
    .assert_problem(400, "bad_idempotency_key");
    assert_eq!(
        fingerprint(ts, &id).await,
        before,
        "refused moves change nothing"
    );

    // An idempotency key reused for a different request is refused.
    let key = [("Idempotency-Key", "k-1")];
    let first = ts
        .call(
            Method::POST,
            &path,
            Some(&actor.token),
            Some(&json!({"type": "pass"})),
            &key,
        )
        .await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.text);
    ts.call(
        Method::POST,
        &path,
        Some(&actor.token),
        Some(&json!({"type": "bid", "points": 3})),
        &key,
    )
    .await
    .assert_problem(422, "idempotency_key_reused");
}

/// A documented path asked with a method it does not take is 405 with
/// `Allow` naming the documented methods (RFC 9110), whether actix routes
/// it to the path's resource (`/healthz`) or finds no route at all (one
/// route per method: `/v1/players`).
async fn method_errors(ts: &TestServer) {
    for (method, path, allow) in [
        (Method::DELETE, "/v1/players", "POST"),
        (Method::PATCH, "/v1/stream-tickets", "POST"),
        (Method::PUT, "/v1/games/some-game/moves", "POST"),
        (Method::PATCH, "/v1/players/me/mutes/someone", "PUT, DELETE"),
        (Method::POST, "/healthz", "GET"),
        (Method::TRACE, "/readyz", "GET"),
    ] {
        let answer = ts.call(method.clone(), path, None, None, &[]).await;
        answer.assert_problem(405, "method_not_allowed");
        assert_eq!(answer.header("allow"), Some(allow), "{method} {path}");
    }
    ts.call(Method::DELETE, "/v1/no-such-path", None, None, &[])
        .await
        .assert_problem(404, "no_route");
}

async fn every_client_mistake(backend: Backend) {
    let ts = start(backend).await;
    method_errors(&ts).await;
    body_and_extractor_errors(&ts).await;
    token_errors(&ts).await;
    creation_errors(&ts).await;
    seat_errors(&ts).await;
    move_errors(&ts).await;
    ts.server.stop().await;
}

on_both_backends!(every_client_mistake);

/// Every refusal of a move names its ruling (`rule`): a body that is not a
/// move of the game at all is `422 malformed_move` citing G-3 (a move that
/// breaks a rule is refused, and the game unchanged), whatever its shape;
/// a move in a game that has not started is G-4's (no seat must act).
async fn every_refused_move_names_a_ruling(backend: Backend) {
    let ts = start(backend).await;
    let (id, players) = two_player_game(&ts).await;
    let game = ts.game(&id, None).await.json;
    let actor = &players[game["to_act"][0].as_u64().unwrap() as usize];
    let before = fingerprint(&ts, &id).await;
    let malformed = [
        json!({"type": "name_trumps", "city": "ottawa"}),
        json!({"type": "name_trumps"}),
        json!({"type": "name_trumps", "city": 3}),
        json!({"type": "fly"}),
        json!({"type": "PASS"}),
        json!({"type": "play", "card": "no-such-card"}),
        json!({"type": "play", "card": ["QS"]}),
        json!({"type": "bid"}),
        json!({"type": "bid", "points": "7"}),
        json!({"type": "bid", "points": -1}),
        json!({"type": "bid", "points": 1.5}),
        json!({"type": "bid", "points": 1e300}),
        json!({"type": "pass_cards", "cards": "QS"}),
        json!({"type": null}),
        json!({}),
        json!([]),
        json!([{"type": "pass"}]),
        json!("pass"),
        json!(7),
        json!(true),
        json!(null),
    ];
    for mv in &malformed {
        let answer = ts.post_move(actor, &id, mv).await;
        answer.assert_problem(422, "malformed_move");
        assert_eq!(answer.json["rule"], "G-3", "{mv}: {}", answer.text);
    }
    assert_eq!(
        fingerprint(&ts, &id).await,
        before,
        "refusals change nothing"
    );

    // The same forms at a Cancellation Hearts table.
    let ann = ts.register("Ann").await;
    let hearts = ts
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({"players": 6}),
            &["open", "bot", "bot", "bot", "bot", "bot"],
            Some(0),
        )
        .await;
    let hearts_id = hearts["id"].as_str().unwrap();
    for mv in &malformed {
        let answer = ts.post_move(&ann, hearts_id, mv).await;
        // Ann's seat may have nothing to do while the bots play (409
        // not_your_turn, G-4); either way the refusal names its ruling.
        assert!(
            [409, 422].contains(&answer.status.as_u16()) && answer.json["rule"].is_string(),
            "{mv}: {}",
            answer.text
        );
        if answer.status.as_u16() == 422 {
            answer.assert_problem(422, "malformed_move");
            assert_eq!(answer.json["rule"], "G-3", "{mv}: {}", answer.text);
        }
    }

    // Not started: no seat must act (G-4).
    let open = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let open_id = open["id"].as_str().unwrap();
    let early = ts.post_move(&ann, open_id, &json!({"type": "pass"})).await;
    early.assert_problem(409, "game_not_started");
    assert_eq!(early.json["rule"], "G-4", "{}", early.text);
    ts.server.stop().await;
}

on_both_backends!(every_refused_move_names_a_ruling);

/// A retry with the same Idempotency-Key returns the first answer and
/// changes nothing, for creation and moves; a registration's key is
/// refused the second time (its token is never stored). (On Postgres a
/// move's answer is stored by the same single statement that appends the
/// move: `db/append_pg.rs`.)
async fn idempotent_retries_change_nothing(backend: Backend) {
    let ts = start(backend).await;
    let key = |k: &'static str| [("Idempotency-Key", k)];
    let reg = json!({"display_name": "Hal"});
    let r1 = ts
        .call(Method::POST, "/v1/players", None, Some(&reg), &key("reg-1"))
        .await;
    let r2 = ts
        .call(Method::POST, "/v1/players", None, Some(&reg), &key("reg-1"))
        .await;
    assert_eq!(r1.status.as_u16(), 201);
    // A registration is never replayed: its token is sent once (12.2).
    r2.assert_problem(409, "idempotency_key_used");
    let hal = Player {
        id: r1.json["player_id"].as_str().unwrap().to_owned(),
        token: r1.json["token"].as_str().unwrap().to_owned(),
        name: "Hal".to_owned(),
    };
    let create = json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["open", "bot"], "take_seat": 0});
    let c1 = ts
        .call(
            Method::POST,
            "/v1/games",
            Some(&hal.token),
            Some(&create),
            &key("game-1"),
        )
        .await;
    let c2 = ts
        .call(
            Method::POST,
            "/v1/games",
            Some(&hal.token),
            Some(&create),
            &key("game-1"),
        )
        .await;
    assert_eq!(c1.status.as_u16(), 201, "{}", c1.text);
    assert_eq!(c2.status.as_u16(), 201);
    assert_eq!(c1.json["id"], c2.json["id"]);
    assert_eq!(c1.header("location"), c2.header("location"));
    let listed = ts.get("/v1/games", None).await;
    assert_eq!(listed.json["games"].as_array().unwrap().len(), 1);

    let id = c1.json["id"].as_str().unwrap();
    // Wait for the human's turn (the bot may act first).
    let legal = loop {
        let l = ts.legal(&hal, id).await;
        if l.json["count"].as_u64().unwrap() > 0 {
            break l;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    };
    let mv = legal.json["moves"][0].clone();
    let path = format!("/v1/games/{id}/moves");
    let m1 = ts
        .call(
            Method::POST,
            &path,
            Some(&hal.token),
            Some(&mv),
            &key("move-1"),
        )
        .await;
    assert_eq!(m1.status.as_u16(), 200, "{}", m1.text);
    let (events_after_first, _) = ts.all_events(id, None).await;
    let m2 = ts
        .call(
            Method::POST,
            &path,
            Some(&hal.token),
            Some(&mv),
            &key("move-1"),
        )
        .await;
    assert_eq!(m2.status.as_u16(), 200, "{}", m2.text);
    assert_eq!(
        m1.text, m2.text,
        "the replay sends the very bytes first sent"
    );
    assert_eq!(m1.header("etag"), m2.header("etag"));
    assert_eq!(m2.header("idempotent-replayed"), Some("true"));
    let moves_by_hal = |events: &[Value]| {
        events
            .iter()
            .filter(|e| e["type"] == "move" && e["actor"]["player_id"] == hal.id.as_str())
            .count()
    };
    let (events_after_retry, _) = ts.all_events(id, None).await;
    assert_eq!(moves_by_hal(&events_after_first), 1);
    assert_eq!(
        moves_by_hal(&events_after_retry),
        1,
        "the retry appended nothing"
    );
    ts.server.stop().await;
}

on_both_backends!(idempotent_retries_change_nothing);
