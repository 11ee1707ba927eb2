//! Challenges (docs/invites-and-challenges.md) over real HTTP, each on
//! both backends: all accept and exactly one game starts, everyone seated
//! (also when the last two accept at once); a decline changes nothing but
//! the challenge; withdraw and expiry; refusing strangers; every refusal
//! code; the inbox; idempotent replays.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, start};

async fn players(ts: &TestServer, names: &[&str]) -> Vec<Player> {
    let mut out = Vec::new();
    for name in names {
        out.push(ts.register(name).await);
    }
    out
}

/// A Lost Heir challenge for `1 + challenged` players.
fn lost_heir(challenged: &[&Player]) -> Value {
    json!({
        "kind": "lost-heir",
        "config": {"players": challenged.len() + 1, "target": 20},
        "challenged": challenged.iter().map(|p| p.id.clone()).collect::<Vec<_>>(),
        "move_deadline_secs": 3600,
    })
}

async fn challenge(ts: &TestServer, p: &Player, body: &Value) -> Answer {
    ts.post("/v1/challenges", Some(&p.token), body).await
}

/// A challenge that must be stored; its id.
#[track_caller]
fn created(a: &Answer) -> String {
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["status"], "pending");
    let id = a.json["id"].as_str().unwrap().to_owned();
    assert_eq!(
        a.header("location"),
        Some(format!("/v1/challenges/{id}").as_str())
    );
    id
}

async fn answer(ts: &TestServer, p: &Player, id: &str, what: &str) -> Answer {
    ts.post(
        &format!("/v1/challenges/{id}/{what}"),
        Some(&p.token),
        &json!(null),
    )
    .await
}

async fn withdraw(ts: &TestServer, p: &Player, id: &str) -> Answer {
    ts.call(
        Method::DELETE,
        &format!("/v1/challenges/{id}"),
        Some(&p.token),
        None,
        &[],
    )
    .await
}

/// The games `p` holds a seat in, any state.
async fn games_of(ts: &TestServer, p: &Player) -> Vec<Value> {
    let a = ts
        .get("/v1/games?mine=true&limit=100", Some(&p.token))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["games"].as_array().cloned().unwrap_or_default()
}

/// Three players challenged to a 4-player game: each accepts; the last
/// acceptance makes the game, started, everyone at their seat; it appears
/// once in every player's games; the challenge names it and changes no
/// more.
async fn all_accept_and_one_game_starts(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob, cid, dee] =
        <[Player; 4]>::try_from(players(&ts, &["Ann", "Bob", "Cid", "Dee"]).await).unwrap();
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob, &cid, &dee])).await);
    // The inbox of each challenged player shows it.
    let inbox = ts.get("/v1/players/me/inbox", Some(&bob.token)).await;
    assert_eq!(inbox.json["challenges"][0]["id"], id, "{}", inbox.text);
    assert_eq!(
        ts.get("/v1/players/me/inbox", Some(&ann.token)).await.json["challenges"],
        json!([]),
        "the challenger has nothing to answer"
    );
    let first = answer(&ts, &bob, &id, "accept").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["status"], "pending");
    assert_eq!(first.json["challenged"][0]["answer"], "accepted");
    let again = answer(&ts, &bob, &id, "accept").await;
    assert_eq!(
        again.json["status"], "pending",
        "accepting twice changes nothing"
    );
    assert!(games_of(&ts, &ann).await.is_empty());
    // The last two at once: exactly one of them makes the game.
    let (c, d) = tokio::join!(
        answer(&ts, &cid, &id, "accept"),
        answer(&ts, &dee, &id, "accept")
    );
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    assert_eq!(d.status, StatusCode::OK, "{}", d.text);
    let done = ts
        .get(&format!("/v1/challenges/{id}"), Some(&ann.token))
        .await;
    assert_eq!(done.json["status"], "accepted", "{}", done.text);
    let game_id = done.json["game_id"].as_str().unwrap().to_owned();
    for p in [&ann, &bob, &cid, &dee] {
        let games = games_of(&ts, p).await;
        assert_eq!(games.len(), 1, "{}: {games:?}", p.name);
        assert_eq!(games[0]["id"], game_id);
    }
    let game = ts.game(&game_id, None).await;
    assert_eq!(game.json["status"], "in_progress", "{}", game.text);
    assert_eq!(game.json["move_deadline_secs"], 3600);
    assert_eq!(game.json["config"]["target"], 20);
    let seated: Vec<&str> = game.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].as_str().unwrap())
        .collect();
    assert_eq!(seated, [&ann.id, &bob.id, &cid.id, &dee.id]);
    answer(&ts, &bob, &id, "decline")
        .await
        .assert_problem(409, "challenge_accepted");
    withdraw(&ts, &ann, &id)
        .await
        .assert_problem(409, "challenge_accepted");
    assert_eq!(
        ts.get("/v1/players/me/inbox", Some(&bob.token)).await.json["challenges"],
        json!([])
    );
    ts.server.stop().await;
}

on_both_backends!(all_accept_and_one_game_starts);

/// A decline ends the challenge for all and changes nothing else: no game,
/// nobody's games or inbox but for the challenge itself; later answers
/// are refused 409 `challenge_declined`.
async fn a_declined_challenge_changes_nothing(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob, cid] =
        <[Player; 3]>::try_from(players(&ts, &["Ann", "Bob", "Cid"]).await).unwrap();
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob, &cid])).await);
    assert_eq!(
        answer(&ts, &bob, &id, "accept").await.status,
        StatusCode::OK
    );
    let listed_before = ts.get("/v1/games?limit=100", None).await.json["games"].clone();
    let declined = answer(&ts, &cid, &id, "decline").await;
    assert_eq!(declined.status, StatusCode::OK, "{}", declined.text);
    assert_eq!(declined.json["status"], "declined");
    assert!(declined.json.get("game_id").is_none());
    assert_eq!(declined.json["challenged"][1]["answer"], "declined");
    assert_eq!(
        ts.get("/v1/games?limit=100", None).await.json["games"],
        listed_before,
        "a decline made a game"
    );
    for p in [&ann, &bob, &cid] {
        assert!(games_of(&ts, p).await.is_empty());
        let inbox = ts.get("/v1/players/me/inbox", Some(&p.token)).await;
        assert_eq!(inbox.json["challenges"], json!([]), "{}", inbox.text);
    }
    answer(&ts, &bob, &id, "accept")
        .await
        .assert_problem(409, "challenge_declined");
    withdraw(&ts, &ann, &id)
        .await
        .assert_problem(409, "challenge_declined");
    let listed = ts.get("/v1/challenges", Some(&bob.token)).await;
    assert_eq!(listed.json["challenges"][0]["status"], "declined");
    ts.server.stop().await;
}

on_both_backends!(a_declined_challenge_changes_nothing);

/// The challenger withdraws (only they may); an expired challenge ends
/// `expired` at the next answer, or by the sweep; neither makes a game.
async fn withdrawn_and_expired_challenges(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, &["Ann", "Bob"]).await).unwrap();
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    withdraw(&ts, &bob, &id)
        .await
        .assert_problem(403, "not_challenger");
    answer(&ts, &ann, &id, "accept")
        .await
        .assert_problem(403, "not_challenged");
    let gone = withdraw(&ts, &ann, &id).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.text);
    assert_eq!(gone.json["status"], "withdrawn");
    answer(&ts, &bob, &id, "accept")
        .await
        .assert_problem(409, "challenge_withdrawn");
    // Expiry: the store's clock is moved back by a test hook.
    let late = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    ts.server
        .state
        .games
        .db()
        .set_challenge_expiry_for_test(&late, chrono::Utc::now() - chrono::Duration::seconds(1))
        .await
        .unwrap();
    answer(&ts, &bob, &late, "accept")
        .await
        .assert_problem(409, "challenge_expired");
    let read = ts
        .get(&format!("/v1/challenges/{late}"), Some(&bob.token))
        .await;
    assert_eq!(read.json["status"], "expired", "{}", read.text);
    let swept = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    ts.server
        .state
        .games
        .db()
        .set_challenge_expiry_for_test(&swept, chrono::Utc::now() - chrono::Duration::seconds(1))
        .await
        .unwrap();
    let (expired, _) = ts.server.state.games.challenge_sweep().await.unwrap();
    assert_eq!(expired, 1);
    let read = ts
        .get(&format!("/v1/challenges/{swept}"), Some(&ann.token))
        .await;
    assert_eq!(read.json["status"], "expired", "{}", read.text);
    assert!(games_of(&ts, &ann).await.is_empty());
    ts.server.stop().await;
}

on_both_backends!(withdrawn_and_expired_challenges);

/// A player who takes challenges from known players only refuses one from
/// a stranger (403 `challenges_refused`, nothing stored) and takes one
/// from a player they finished a game with.
async fn a_player_may_refuse_strangers(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob, cid] =
        <[Player; 3]>::try_from(players(&ts, &["Ann", "Bob", "Cid"]).await).unwrap();
    let settings = ts.get("/v1/players/me/settings", Some(&bob.token)).await;
    assert_eq!(
        settings.json["challenges_from"], "anyone",
        "{}",
        settings.text
    );
    let set = ts
        .call(
            Method::PUT,
            "/v1/players/me/settings",
            Some(&bob.token),
            Some(&json!({"challenges_from": "known_players"})),
            &[],
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    assert_eq!(
        ts.get("/v1/players/me/settings", Some(&bob.token))
            .await
            .json["challenges_from"],
        "known_players"
    );
    challenge(&ts, &ann, &lost_heir(&[&bob]))
        .await
        .assert_problem(403, "challenges_refused");
    // Another player asked with Bob is refused with him: nothing stored.
    challenge(&ts, &ann, &lost_heir(&[&cid, &bob]))
        .await
        .assert_problem(403, "challenges_refused");
    assert_eq!(
        ts.get("/v1/challenges", Some(&cid.token)).await.json["challenges"],
        json!([])
    );
    // Ann and Bob finish a game (resigned: it ends at once).
    let game = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2}, "take_seat": 0,
                    "on_resign": "end_game"}),
        )
        .await;
    let game_id = game.json["id"].as_str().unwrap().to_owned();
    assert_eq!(
        ts.join(&bob, &game_id, Some(1)).await.status,
        StatusCode::OK
    );
    let resigned = ts
        .post(
            &format!("/v1/games/{game_id}/resign"),
            Some(&ann.token),
            &json!(null),
        )
        .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.text);
    assert_eq!(ts.game(&game_id, None).await.json["status"], "finished");
    created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    challenge(&ts, &cid, &lost_heir(&[&bob]))
        .await
        .assert_problem(403, "challenges_refused");
    ts.server.stop().await;
}

on_both_backends!(a_player_may_refuse_strangers);

/// Every refusal of a challenge as asked, each storing nothing: unknown
/// players, oneself, twice, none, a configuration of another size, a
/// refused configuration (with its ruling), a bad expiry, unknown fields,
/// an id that is no challenge, another player's challenge; and the limit
/// of pending challenges one player may send.
async fn bad_challenges_change_nothing(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob, cid] =
        <[Player; 3]>::try_from(players(&ts, &["Ann", "Bob", "Cid"]).await).unwrap();
    let nobody = "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47";
    let with = |changes: Value| {
        let mut body = lost_heir(&[&bob]);
        body.as_object_mut()
            .unwrap()
            .extend(changes.as_object().unwrap().clone());
        body
    };
    for (body, status, code) in [
        (
            with(json!({"challenged": [nobody]})),
            404,
            "player_not_found",
        ),
        (with(json!({"challenged": [ann.id]})), 422, "bad_challenged"),
        (
            with(json!({"challenged": [bob.id, bob.id], "config": {"players": 3}})),
            422,
            "bad_challenged",
        ),
        (with(json!({"challenged": []})), 422, "bad_challenged"),
        (
            with(json!({"config": {"players": 3}})),
            422,
            "seat_count_mismatch",
        ),
        (
            with(json!({"config": {"players": 2, "target": 0}})),
            422,
            "target_out_of_range",
        ),
        (
            with(json!({"expires_in_secs": 5})),
            422,
            "bad_challenge_expiry",
        ),
        (with(json!({"move_deadline_secs": 0})), 422, "bad_deadline"),
        (with(json!({"seats": ["open"]})), 422, "invalid_body"),
    ] {
        challenge(&ts, &ann, &body)
            .await
            .assert_problem(status, code);
    }
    for p in [&ann, &bob] {
        assert_eq!(
            ts.get("/v1/challenges", Some(&p.token)).await.json["challenges"],
            json!([]),
            "a refused challenge was stored"
        );
    }
    ts.get("/v1/challenges/nope", Some(&ann.token))
        .await
        .assert_problem(404, "challenge_not_found");
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    ts.get(&format!("/v1/challenges/{id}"), Some(&cid.token))
        .await
        .assert_problem(404, "challenge_not_found");
    answer(&ts, &cid, &id, "accept")
        .await
        .assert_problem(404, "challenge_not_found");
    ts.post(&format!("/v1/challenges/{id}/accept"), None, &json!(null))
        .await
        .assert_problem(401, "missing_token");
    // The limit of pending challenges sent: 10.
    for _ in 1..10 {
        created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    }
    challenge(&ts, &ann, &lost_heir(&[&cid]))
        .await
        .assert_problem(409, "too_many_challenges");
    assert_eq!(
        ts.get("/v1/challenges", Some(&cid.token)).await.json["challenges"],
        json!([])
    );
    assert_eq!(withdraw(&ts, &ann, &id).await.status, StatusCode::OK);
    created(&challenge(&ts, &ann, &lost_heir(&[&cid])).await);
    ts.server.stop().await;
}

on_both_backends!(bad_challenges_change_nothing);

/// With an `Idempotency-Key`, a copy of a create answers the first answer
/// (one challenge stored), and so does a copy of the accept that made the
/// game (one game).
async fn challenge_requests_are_idempotent(backend: Backend) {
    let ts = start(backend).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, &["Ann", "Bob"]).await).unwrap();
    let body = lost_heir(&[&bob]);
    let key = [("idempotency-key", "challenge-once")];
    let first = ts
        .call(
            Method::POST,
            "/v1/challenges",
            Some(&ann.token),
            Some(&body),
            &key,
        )
        .await;
    let again = ts
        .call(
            Method::POST,
            "/v1/challenges",
            Some(&ann.token),
            Some(&body),
            &key,
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(first.text, again.text);
    assert_eq!(
        ts.get("/v1/challenges", Some(&ann.token)).await.json["challenges"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let id = first.json["id"].as_str().unwrap();
    let path = format!("/v1/challenges/{id}/accept");
    let accept_key = [("idempotency-key", "accept-once")];
    let accepted = ts
        .call(Method::POST, &path, Some(&bob.token), None, &accept_key)
        .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(accepted.json["status"], "accepted");
    let replayed = ts
        .call(Method::POST, &path, Some(&bob.token), None, &accept_key)
        .await;
    assert_eq!(replayed.header("idempotent-replayed"), Some("true"));
    assert_eq!(accepted.text, replayed.text);
    assert_eq!(games_of(&ts, &bob).await.len(), 1);
    ts.server.stop().await;
}

on_both_backends!(challenge_requests_are_idempotent);

/// The player stream tells both sides: the challenged player a `challenge`
/// frame when it is made, the challenger one when it is answered (the
/// acceptance that made the game names it), and then the new game's
/// `game_started` as for any game.
async fn the_stream_tells_both_sides(backend: Backend) {
    use std::time::Duration;

    use crate::streams::Sse;
    const WAIT: Duration = Duration::from_secs(20);
    let ts = start(backend).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, &["Ann", "Bob"]).await).unwrap();
    let mut bobs = Sse::open(&ts, "/v1/players/me/stream", Some(&bob.token), None).await;
    bobs.position(WAIT).await;
    let mut anns = Sse::open(&ts, "/v1/players/me/stream", Some(&ann.token), None).await;
    anns.position(WAIT).await;
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    let received = bobs.next_of(&["challenge"], WAIT).await.unwrap();
    assert_eq!(received.data["id"], id);
    assert_eq!(received.data["status"], "pending");
    assert_eq!(received.data["challenger"]["display_name"], "Ann");
    let sent = anns.next_of(&["challenge"], WAIT).await.unwrap();
    assert_eq!(sent.data["status"], "pending");
    let accepted = answer(&ts, &bob, &id, "accept").await;
    let game_id = accepted.json["game_id"].as_str().unwrap().to_owned();
    // The new game's notices and the challenge's frame, in either order.
    for stream in [&mut anns, &mut bobs] {
        let (mut told, mut started) = (false, false);
        while !(told && started) {
            let e = stream
                .next_of(&["challenge", "game_started"], WAIT)
                .await
                .unwrap();
            assert_eq!(e.data["game_id"], game_id, "{e:?}");
            if e.event == "challenge" {
                assert_eq!(e.data["status"], "accepted");
                told = true;
            } else {
                started = true;
            }
        }
    }
    ts.server.stop().await;
}

on_both_backends!(the_stream_tells_both_sides);

/// Postgres, two api processes on one database: ten challenges of a
/// 4-player game whose last two acceptances (and a decline racing them in
/// half of them) come at once through different processes: each ends
/// once, its game made exactly once when all accepted, never when one
/// declined, and every player seated at most once per challenge.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_answers_through_two_processes_make_each_game_once() {
    let a = start(Backend::Postgres).await;
    let b = crate::common::start_on(a.target.clone()).await;
    let [ann, bob, cid, dee] =
        <[Player; 4]>::try_from(players(&a, &["Ann", "Bob", "Cid", "Dee"]).await).unwrap();
    for round in 0..10 {
        let id = created(&challenge(&a, &ann, &lost_heir(&[&bob, &cid, &dee])).await);
        assert_eq!(answer(&b, &bob, &id, "accept").await.status, StatusCode::OK);
        let dee_says = if round % 2 == 0 { "accept" } else { "decline" };
        let (c, d) = tokio::join!(
            answer(&a, &cid, &id, "accept"),
            answer(&b, &dee, &id, dee_says)
        );
        let read = a
            .get(&format!("/v1/challenges/{id}"), Some(&ann.token))
            .await;
        let status = read.json["status"].as_str().unwrap().to_owned();
        if dee_says == "accept" {
            assert_eq!((c.status, d.status), (StatusCode::OK, StatusCode::OK));
            assert_eq!(status, "accepted", "{}", read.text);
        } else {
            // Whichever came first: a decline ends it, and an acceptance
            // after it is refused; a decline after the last acceptance
            // cannot come (Dee's acceptance is the one missing).
            assert_eq!(d.status, StatusCode::OK, "{}", d.text);
            assert_eq!(status, "declined", "{}", read.text);
            if c.status != StatusCode::OK {
                c.assert_problem(409, "challenge_declined");
            }
        }
    }
    let games = games_of(&a, &ann).await;
    assert_eq!(games.len(), 5, "one game per accepted challenge: {games:?}");
    for g in &games {
        let ids: Vec<&str> = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["player_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [&ann.id, &bob.id, &cid.id, &dee.id]);
    }
    b.server.stop().await;
    a.server.stop().await;
}

/// The `challenge` webhook: the challenged player is told it was made; the
/// challenger that it was answered (naming who and how) and that it ended,
/// with the game when everyone accepted (and `game_started` as for any
/// game); nobody is told of their own change.
async fn the_webhook_tells_both_sides(backend: Backend) {
    use std::time::{Duration, Instant};
    let receiver = crate::webhooks::Receiver::start(0).await;
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let ts = crate::common::start_tuned(target, |c| c.webhooks.allow_private = true).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, &["Ann", "Bob"]).await).unwrap();
    for p in [&ann, &bob] {
        let hook = ts
            .post(
                "/v1/players/me/webhooks",
                Some(&p.token),
                &json!({"url": receiver.url(), "events": ["challenge", "game_started"]}),
            )
            .await;
        assert_eq!(hook.status, StatusCode::CREATED, "{}", hook.text);
    }
    let id = created(&challenge(&ts, &ann, &lost_heir(&[&bob])).await);
    let accepted = answer(&ts, &bob, &id, "accept").await;
    let game_id = accepted.json["game_id"].as_str().unwrap().to_owned();
    let start = Instant::now();
    let bodies = loop {
        let bodies: Vec<Value> = receiver
            .received()
            .iter()
            .map(|r| serde_json::from_str(&r.body).unwrap())
            .collect();
        if bodies.len() >= 4 {
            break bodies;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "deliveries: {bodies:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let challenges: Vec<&Value> = bodies.iter().filter(|b| b["type"] == "challenge").collect();
    assert_eq!(challenges.len(), 2, "{bodies:?}");
    for b in &challenges {
        crate::common::contract::check_schema("WebhookDelivery", b);
        assert_eq!(b["challenge_id"], id);
    }
    let made = challenges
        .iter()
        .find(|b| b["status"] == "pending")
        .unwrap();
    assert!(made.get("player_id").is_none(), "{made}");
    let ended = challenges
        .iter()
        .find(|b| b["status"] == "accepted")
        .unwrap();
    assert_eq!(
        (&ended["player_id"], &ended["answer"], &ended["game_id"]),
        (&json!(bob.id), &json!("accepted"), &json!(game_id))
    );
    assert_eq!(
        bodies
            .iter()
            .filter(|b| b["type"] == "game_started" && b["game_id"] == game_id)
            .count(),
        2,
        "both seats told the game started: {bodies:?}"
    );
    ts.server.stop().await;
}

on_both_backends!(the_webhook_tells_both_sides);
