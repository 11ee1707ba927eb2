//! Expiry, so that what nobody will use again does not pile up: an open
//! game nobody changes is closed by the server (status `expired`,
//! `game_expired` in its log, joining and leaving refused with 409
//! `game_expired`) while a started one
//! is never; a join racing the expiry lands or is refused, never both; an
//! idempotency record stops replaying once its TTL passed while a live one
//! still replays, and the purge removes records in bounded batches.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, start_on, start_tuned};

async fn fresh(backend: Backend) -> crate::common::TestDatabase {
    tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap()
}

/// A three-seat Lost Heir game with `host` at seat 0: it stays open.
async fn open_game(ts: &TestServer, host: &Player) -> String {
    let game = ts
        .create_game(
            host,
            "lost-heir",
            json!({"players": 3}),
            &["open", "open", "open"],
            Some(0),
        )
        .await;
    game["id"].as_str().unwrap().to_owned()
}

/// Polls `GET /v1/games/{id}` until its status is `status`.
async fn wait_status(ts: &TestServer, id: &str, status: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let a = ts.game(id, None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        if a.json["status"] == status {
            return a.json;
        }
        assert!(Instant::now() < deadline, "never {status}: {}", a.text);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The ids of the games `GET /v1/games?{query}` lists.
async fn listed(ts: &TestServer, query: &str) -> Vec<String> {
    let a = ts.get(&format!("/v1/games?{query}&limit=100"), None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["games"]
        .as_array()
        .unwrap_or_else(|| panic!("no games in {}", a.text))
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

fn leave(ts: &TestServer, player: &Player, id: &str) -> impl Future<Output = Answer> {
    let path = format!("/v1/games/{id}/leave");
    let token = player.token.clone();
    async move { ts.post(&path, Some(&token), &json!({})).await }
}

/// With `OPEN_GAME_TTL_SECS` of one second an open game is closed by the
/// server: status `expired`, its log ends with `game_expired` by the server
/// (nothing before it removed), joining and leaving answer 409
/// `game_expired`, its record 409 `game_not_finished`, and the lists file it
/// under `expired`. A game that started at the same time plays on.
async fn an_open_game_expires_and_a_started_one_does_not(backend: Backend) {
    let ts = start_tuned(fresh(backend).await, |c| {
        c.open_game_ttl = Some(Duration::from_secs(1))
    })
    .await;
    let host = ts.register("Host").await;
    let id = open_game(&ts, &host).await;
    let (ann, _bob, started) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let (before, _) = ts.all_events(&id, None).await;

    let game = wait_status(&ts, &id, "expired").await;
    assert_eq!(game["to_act"], json!([]), "{game}");
    assert_eq!(game["view"], json!({}), "never dealt for good: {game}");
    let (events, _) = ts.all_events(&id, None).await;
    assert_eq!(events.len(), before.len() + 1, "{events:?}");
    assert_eq!(
        &events[..before.len()],
        &before[..],
        "the log is only appended to"
    );
    let last = events.last().unwrap();
    assert_eq!(last["type"], "game_expired", "{last}");
    assert_eq!(last["payload"], json!({"ttl_secs": 1}), "{last}");
    assert_eq!(
        last["actor"],
        json!({"seat": null, "player_id": null, "bot": false, "deadline": false}),
        "the server closed it: {last}"
    );
    assert_eq!(game["version"], last["seq"], "{game}");
    // Nothing more will happen: a stream resumed at the last event ends at
    // once (204), and a long poll there answers without waiting.
    let version = last["seq"].as_i64().unwrap();
    let resumed = ts
        .get(&format!("/v1/games/{id}/stream?after={version}"), None)
        .await;
    assert_eq!(resumed.status.as_u16(), 204, "{}", resumed.text);
    let waited_from = std::time::Instant::now();
    let polled = ts
        .get(
            &format!("/v1/games/{id}/events/wait?after={version}&timeout=8"),
            None,
        )
        .await;
    assert_eq!(polled.status.as_u16(), 200, "{}", polled.text);
    assert!(
        waited_from.elapsed() < std::time::Duration::from_secs(4),
        "a long poll on an expired game waited"
    );

    let carl = ts.register("Carl").await;
    ts.join(&carl, &id, None)
        .await
        .assert_problem(409, "game_expired");
    ts.join(&carl, &id, Some(2))
        .await
        .assert_problem(409, "game_expired");
    leave(&ts, &host, &id)
        .await
        .assert_problem(409, "game_expired");
    ts.get(&format!("/v1/games/{id}/record"), None)
        .await
        .assert_problem(409, "game_not_finished");
    let (after, _) = ts.all_events(&id, None).await;
    assert_eq!(after, events, "refusals append nothing");

    assert!(listed(&ts, "status=expired").await.contains(&id));
    assert!(!listed(&ts, "status=open").await.contains(&id));
    assert!(!listed(&ts, "status=expired").await.contains(&started));

    // Several sweeps later the started game is still in progress, playable.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let playing = ts.game(&started, Some(&ann.token)).await;
    assert_eq!(playing.json["status"], "in_progress", "{}", playing.text);
    let (log, _) = ts.all_events(&started, None).await;
    assert!(log.iter().all(|e| e["type"] != "game_expired"), "{log:?}");
    let legal = ts.legal(&ann, &started).await;
    assert_eq!(legal.status, StatusCode::OK, "{}", legal.text);
}
on_both_backends!(an_open_game_expires_and_a_started_one_does_not);

/// A game that keeps changing is not idle: a join resets its clock.
async fn a_join_keeps_an_open_game_alive(backend: Backend) {
    let ts = start_tuned(fresh(backend).await, |c| {
        c.open_game_ttl = Some(Duration::from_secs(2))
    })
    .await;
    let host = ts.register("Host").await;
    let guest = ts.register("Guest").await;
    let id = open_game(&ts, &host).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let joined = ts.join(&guest, &id, Some(1)).await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    // Past the creation's TTL, within the join's.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(ts.game(&id, None).await.json["status"], "open");
    wait_status(&ts, &id, "expired").await;
}
on_both_backends!(a_join_keeps_an_open_game_alive);

/// A join (through one server) racing the expiry (by another on the same
/// database, so only the version guard orders them): either the join lands
/// and the game, changed now, does not expire, or the game expires and the
/// join is refused 409 `game_expired`; never both, never neither.
async fn a_join_racing_the_expiry_lands_or_is_refused(backend: Backend) {
    const TTL: Duration = Duration::from_millis(300);
    let target = fresh(backend).await;
    let a = start_on(target.clone()).await;
    let b = start_on(target).await;
    let host = a.register("Host").await;
    let mut outcomes = [0, 0];
    for round in 0..10 {
        let guest = a.register(&format!("Guest {round}")).await;
        let id = open_game(&a, &host).await;
        tokio::time::sleep(TTL + Duration::from_millis(100)).await;
        let games = a.server.state.games.clone();
        let expire = {
            let id = id.clone();
            // Staggered so that either may go first (the join goes
            // through HTTP, the expiry straight to the service).
            let stagger = Duration::from_millis(round);
            tokio::spawn(async move {
                tokio::time::sleep(stagger).await;
                games.expire_if_idle(&id, TTL).await.unwrap()
            })
        };
        let joined = b.join(&guest, &id, Some(1)).await;
        let expired = expire.await.unwrap();
        let game = a.game(&id, None).await.json;
        let (events, _) = a.all_events(&id, None).await;
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        let guest_seated = events
            .iter()
            .any(|e| e["type"] == "seat_taken" && e["payload"]["player_id"] == guest.id.as_str());
        if expired {
            joined.assert_problem(409, "game_expired");
            assert_eq!(game["status"], "expired", "{game}");
            assert!(!guest_seated, "{types:?}");
            outcomes[0] += 1;
        } else {
            assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
            assert_eq!(game["status"], "open", "{game}");
            assert!(guest_seated, "{types:?}");
            assert!(!types.contains(&"game_expired"), "{types:?}");
            outcomes[1] += 1;
        }
    }
    eprintln!("expired first / joined first: {outcomes:?}");
}
on_both_backends!(a_join_racing_the_expiry_lands_or_is_refused);

/// `POST /v1/games` with `key` as its `Idempotency-Key`.
async fn create_with_key(ts: &TestServer, host: &Player, key: &str, players: u8) -> Answer {
    let seats = vec!["open"; usize::from(players)];
    let body = json!({"kind": "lost-heir", "config": {"players": players}, "seats": seats});
    ts.call(
        Method::POST,
        "/v1/games",
        Some(&host.token),
        Some(&body),
        &[("Idempotency-Key", key)],
    )
    .await
}

/// With `IDEMPOTENCY_TTL_SECS` of two seconds: a retry within the TTL is
/// replayed (same bytes, no new game); a retry after it is a new request
/// (a new game, not marked replayed), and the expired key may even be
/// used for another request; the sweep purges the expired records.
async fn an_expired_key_no_longer_replays_and_a_live_one_does(backend: Backend) {
    let ts = start_tuned(fresh(backend).await, |c| {
        c.idempotency_ttl = Some(Duration::from_secs(2))
    })
    .await;
    let host = ts.register("Host").await;
    let first = create_with_key(&ts, &host, "old", 3).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let live = create_with_key(&ts, &host, "old", 3).await;
    assert_eq!(
        live.header("idempotent-replayed"),
        Some("true"),
        "{}",
        live.text
    );
    assert_eq!(live.text, first.text);

    tokio::time::sleep(Duration::from_millis(2500)).await;
    let fresh_key = create_with_key(&ts, &host, "fresh", 3).await;
    let again = create_with_key(&ts, &host, "fresh", 3).await;
    assert_eq!(
        again.header("idempotent-replayed"),
        Some("true"),
        "{}",
        again.text
    );
    assert_eq!(again.text, fresh_key.text, "a live key still replays");

    let retried = create_with_key(&ts, &host, "old", 3).await;
    assert_eq!(retried.status, StatusCode::CREATED, "{}", retried.text);
    assert_eq!(
        retried.header("idempotent-replayed"),
        None,
        "{}",
        retried.text
    );
    assert_ne!(retried.json["id"], first.json["id"], "a new game");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    // Expired again: the key is free, even for a different request.
    let other = create_with_key(&ts, &host, "old", 2).await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text);
    assert_eq!(other.header("idempotent-replayed"), None, "{}", other.text);

    // The sweep purges the expired records ("fresh" and the first "old"
    // retry) and keeps the live one.
    let db = ts.server.state.games.db().clone();
    let deadline = Instant::now() + Duration::from_secs(15);
    while db.idempotency_record_count().await.unwrap() != 1 {
        assert!(Instant::now() < deadline, "expired records never purged");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let replayed = create_with_key(&ts, &host, "old", 2).await;
    assert_eq!(replayed.text, other.text, "the live record was kept");
}
on_both_backends!(an_expired_key_no_longer_replays_and_a_live_one_does);

/// The purge deletes at most its batch per statement, the oldest first, and
/// never a record younger than the cutoff (counted in the store).
async fn the_purge_removes_records_in_bounded_batches(backend: Backend) {
    let ts = start_on(fresh(backend).await).await;
    let host = ts.register("Host").await;
    let db = ts.server.state.games.db().clone();
    for i in 0..5 {
        let a = create_with_key(&ts, &host, &format!("old-{i}"), 2).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let cutoff = chrono::Utc::now();
    tokio::time::sleep(Duration::from_millis(50)).await;
    for i in 0..2 {
        let a = create_with_key(&ts, &host, &format!("young-{i}"), 2).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    }
    assert_eq!(db.idempotency_record_count().await.unwrap(), 7);
    let mut batches = Vec::new();
    loop {
        let n = db.purge_idempotency(cutoff, 2).await.unwrap();
        batches.push(n);
        if n == 0 {
            break;
        }
    }
    assert_eq!(batches, [2, 2, 1, 0]);
    assert_eq!(db.idempotency_record_count().await.unwrap(), 2);
    // The young ones still replay.
    let again = create_with_key(&ts, &host, "young-1", 2).await;
    assert_eq!(
        again.header("idempotent-replayed"),
        Some("true"),
        "{}",
        again.text
    );
}
on_both_backends!(the_purge_removes_records_in_bounded_batches);

/// A logged-out token's revocation outlives the token: while the verifier's
/// leeway still accepts the expired token it answers 401 `token_revoked`
/// (purging at `exp` let it in again), and once it no longer verifies the
/// sweep forgets the revocation, even when nobody logs out again.
async fn expired_revocations_are_purged_by_the_sweep(backend: Backend) {
    let ts = start_tuned(fresh(backend).await, |c| {
        c.token_ttl = Duration::from_secs(1);
        c.idempotency_ttl = Some(Duration::from_secs(1));
    })
    .await;
    let ada = ts.register("Ada").await;
    let out = ts
        .post("/v1/players/me/logout", Some(&ada.token), &json!({}))
        .await;
    assert!(out.status.is_success(), "{}", out.text);
    let db = ts.server.state.games.db().clone();
    assert_eq!(db.revoked_token_count().await.unwrap(), 1);
    // Past `exp`, within the leeway: still refused as revoked.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    ts.get("/v1/players/me/inbox", Some(&ada.token))
        .await
        .assert_problem(401, "token_revoked");
    let deadline = Instant::now() + Duration::from_secs(20);
    while db.revoked_token_count().await.unwrap() != 0 {
        assert!(Instant::now() < deadline, "the revocation was never purged");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ts.get("/v1/players/me/inbox", Some(&ada.token))
        .await
        .assert_problem(401, "token_expired");
}
on_both_backends!(expired_revocations_are_purged_by_the_sweep);
