//! Idempotency under concurrency and for registration: fifty identical
//! requests with one `Idempotency-Key` sent at the same moment (to one
//! server, or split between two on one database) all get the first answer
//! and append one event; a key used for a registration never hands out the
//! token it produced, and no token is kept in the idempotency records.

use crate::common::{Answer, Backend, TestServer, start, start_on};
use futures_util::future::join_all;
use reqwest::Method;
use serde_json::{Value, json};

const COPIES: usize = 50;

/// Sends `COPIES` identical POSTs with one key at once.
async fn fire(ts: &TestServer, path: &str, token: &str, body: &Value, key: &str) -> Vec<Answer> {
    let headers = [("Idempotency-Key", key)];
    let posts = (0..COPIES).map(|_| ts.call(Method::POST, path, Some(token), Some(body), &headers));
    join_all(posts).await
}

/// Every answer is the first answer: same status, same bytes (a replay
/// sends the stored body as first sent).
#[track_caller]
fn assert_all_first(answers: &[Answer]) {
    let first = answers
        .iter()
        .find(|a| a.header("idempotent-replayed").is_none())
        .expect("one answer is the original");
    assert!(first.status.is_success(), "{}", first.text);
    for a in answers {
        assert_eq!(a.status, first.status, "{}", a.text);
        assert_eq!(a.text, first.text);
    }
    let originals = answers
        .iter()
        .filter(|a| a.header("idempotent-replayed").is_none())
        .count();
    assert_eq!(originals, 1, "exactly one request did the work");
}

/// 50 concurrent identical moves, for three moves in a row: every caller
/// gets the mover's answer (never `409 not_your_turn` that the first
/// copy's success caused) and each appends exactly one move.
async fn concurrent_identical_moves_get_the_first_answer(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let path = format!("/v1/games/{id}/moves");
    for round in 0..3 {
        let game = ts.game(&id, Some(&ann.token)).await;
        let to_act = game.json["to_act"][0].as_u64().unwrap();
        let mover = if to_act == 0 { &ann } else { &bob };
        let legal = ts.legal(mover, &id).await;
        let mv = legal.json["moves"][0].clone();
        let (before, _) = ts.all_events(&id, None).await;
        let answers = fire(&ts, &path, &mover.token, &mv, &format!("move-{round}")).await;
        assert_all_first(&answers);
        let (after, _) = ts.all_events(&id, None).await;
        let moves = |events: &[Value]| events.iter().filter(|e| e["type"] == "move").count();
        assert_eq!(moves(&after), moves(&before) + 1, "one move appended");
    }
    ts.server.stop().await;
}

on_both_backends!(concurrent_identical_moves_get_the_first_answer);

/// The same race split between two servers on one database: the copies
/// in the process that lost find the winner's record after their own
/// decision is refused (or their record is refused), and answer with it.
async fn identical_moves_across_two_servers_get_the_first_answer(backend: Backend) {
    let a = start(backend).await;
    let b = start_on(a.target.clone()).await;
    let (ann, bob, id) = a.ann_and_bob_playing(json!({"players": 2})).await;
    let path = format!("/v1/games/{id}/moves");
    for round in 0..3 {
        let game = a.game(&id, Some(&ann.token)).await;
        let mover = match game.json["to_act"][0].as_u64() {
            Some(0) => &ann,
            _ => &bob,
        };
        let mv = a.legal(mover, &id).await.json["moves"][0].clone();
        let (before, _) = a.all_events(&id, None).await;
        let key = format!("split-{round}");
        let (on_a, on_b) = futures_util::join!(
            fire(&a, &path, &mover.token, &mv, &key),
            fire(&b, &path, &mover.token, &mv, &key)
        );
        let answers: Vec<Answer> = on_a.into_iter().chain(on_b).collect();
        assert_all_first(&answers);
        let (after, _) = a.all_events(&id, None).await;
        let moves = |events: &[Value]| events.iter().filter(|e| e["type"] == "move").count();
        assert_eq!(moves(&after), moves(&before) + 1, "one move appended");
    }
    b.server.stop().await;
    a.server.stop().await;
}

on_both_backends!(identical_moves_across_two_servers_get_the_first_answer);

/// 50 concurrent identical joins, for five players in turn: every caller
/// gets the join's answer (never `409 already_seated`) and each player
/// takes one seat.
async fn concurrent_identical_joins_get_the_first_answer(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({"players": 6}),
            &["open"; 6],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    let path = format!("/v1/games/{id}/join");
    for i in 1..6 {
        let joiner = ts.register(&format!("p{i}")).await;
        let answers = fire(&ts, &path, &joiner.token, &json!({}), "join").await;
        assert_all_first(&answers);
        let (events, _) = ts.all_events(id, None).await;
        let seats_taken = events
            .iter()
            .filter(|e| e["type"] == "seat_taken" && e["actor"]["player_id"] == joiner.id.as_str())
            .count();
        assert_eq!(seats_taken, 1, "one seat taken");
    }
    ts.server.stop().await;
}

on_both_backends!(concurrent_identical_joins_get_the_first_answer);

/// 50 concurrent identical creates (no game lock to wait on: the key's
/// unique record decides): every caller gets the created game's answer,
/// and one game exists.
async fn concurrent_identical_creates_get_the_first_answer(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let body = json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["open", "open"], "take_seat": 0});
    let answers = fire(&ts, "/v1/games", &ann.token, &body, "create-1").await;
    assert_all_first(&answers);
    assert_eq!(answers[0].status.as_u16(), 201);
    let listed = ts.get("/v1/games", None).await;
    assert_eq!(
        listed.json["games"].as_array().unwrap().len(),
        1,
        "one game"
    );
    ts.server.stop().await;
}

on_both_backends!(concurrent_identical_creates_get_the_first_answer);

/// Two clients registering with the same key and name: the first gets
/// its token; the second is told the key was used (`409
/// idempotency_key_used`) and sees no token, and no second player is
/// made. The stored record holds no token.
async fn registration_key_never_yields_a_token(backend: Backend) {
    let ts = start(backend).await;
    let body = json!({"display_name": "Hal"});
    let key = [("Idempotency-Key", "reg-1")];
    let first = ts
        .call(Method::POST, "/v1/players", None, Some(&body), &key)
        .await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.text);
    let token = first.json["token"].as_str().unwrap().to_owned();
    let second = ts
        .call(Method::POST, "/v1/players", None, Some(&body), &key)
        .await;
    second.assert_problem(409, "idempotency_key_used");
    assert!(!second.text.contains(&token), "{}", second.text);
    assert!(second.json.get("token").is_none());
    assert!(second.header("idempotent-replayed").is_none());
    // A different body under the used key is still "reused for another request".
    let other = ts
        .call(
            Method::POST,
            "/v1/players",
            None,
            Some(&json!({"display_name": "Eve"})),
            &key,
        )
        .await;
    other.assert_problem(422, "idempotency_key_reused");
    let record = ts
        .server
        .state
        .games
        .db()
        .idempotency("-", "reg-1")
        .await
        .unwrap()
        .expect("the registration is recorded");
    assert!(!record.response_body.contains(&token));
    assert!(
        !record.response_body.contains("token"),
        "{}",
        record.response_body
    );
    assert!(
        record
            .response_body
            .contains(first.json["player_id"].as_str().unwrap()),
        "the record keeps the player id: {}",
        record.response_body
    );
    ts.server.stop().await;
}

on_both_backends!(registration_key_never_yields_a_token);

/// Fifty clients racing one registration key: one gets a token, every
/// other gets `409 idempotency_key_used` (never the token, never a 500).
async fn concurrent_registrations_hand_out_one_token(backend: Backend) {
    let ts = start(backend).await;
    let body = json!({"display_name": "Hal"});
    let headers = [("Idempotency-Key", "reg-race")];
    let posts =
        (0..COPIES).map(|_| ts.call(Method::POST, "/v1/players", None, Some(&body), &headers));
    let answers = join_all(posts).await;
    let created: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status.as_u16() == 201)
        .collect();
    assert_eq!(created.len(), 1, "one registration");
    let token = created[0].json["token"].as_str().unwrap();
    for a in answers.iter().filter(|a| a.status.as_u16() != 201) {
        a.assert_problem(409, "idempotency_key_used");
        assert!(!a.text.contains(token));
    }
    ts.server.stop().await;
}

on_both_backends!(concurrent_registrations_hand_out_one_token);
