//! Tokens over HTTP: the `Bearer` scheme in any case, logout and "revoke all
//! my tokens" (seen by every server on the database; on Postgres from each
//! server's copy kept by its `LISTEN` connection), signing-key rotation
//! by `kid`, and the private-cache marks and per-viewer ETags on
//! personalised answers.

use std::time::Duration;

use api::auth::{Keys, key_id};
use api::config::Config;
use reqwest::Method;
use serde_json::json;

use crate::common::{Answer, Backend, JWT_SECRET, TestDatabase, TestServer};

const K1: &str = "rotation-key-one-0123456789abcdef0123456789";
const K2: &str = "rotation-key-two-0123456789abcdef0123456789";

/// A server on `target` (shared with others when given twice) with `tune`
/// applied to the usual test config.
async fn server_on(target: &TestDatabase, tune: impl FnOnce(&mut Config)) -> TestServer {
    crate::common::start_tuned(target.clone(), tune).await
}

async fn fresh_target(backend: Backend) -> TestDatabase {
    tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap()
}

/// Waits until `ts` refuses `token` as revoked: at once on the server that
/// revoked it, within `revocations::TRUSTED_FOR` (3 s) on another one.
async fn refused_soon(ts: &TestServer, token: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let answer = ts.get("/v1/players/me/inbox", Some(token)).await;
        if answer.status.as_u16() == 401 || std::time::Instant::now() > deadline {
            answer.assert_problem(401, "token_revoked");
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A second token for `player_id`, as the server (signing with the test
/// secret) would issue it.
fn another_token(player_id: &str) -> String {
    let keys = Keys::new(JWT_SECRET.as_bytes(), Duration::from_secs(600)).unwrap();
    keys.issue(player_id).unwrap().0
}

/// `GET /v1/players/me/inbox` with this raw `Authorization` value.
async fn inbox_with(ts: &TestServer, authorization: &str) -> Answer {
    ts.call(
        Method::GET,
        "/v1/players/me/inbox",
        None,
        None,
        &[("authorization", authorization)],
    )
    .await
}

async fn bearer_scheme_is_case_insensitive(backend: Backend) {
    let ts = crate::common::start(backend).await;
    let ada = ts.register("Ada").await;
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let a = inbox_with(&ts, &format!("{scheme} {}", ada.token)).await;
        assert_eq!(a.status.as_u16(), 200, "{scheme}: {}", a.text);
    }
    let padded = inbox_with(&ts, &format!("  Bearer    {}   ", ada.token)).await;
    assert_eq!(padded.status.as_u16(), 200, "{}", padded.text);
    inbox_with(&ts, &format!("Basic {}", ada.token))
        .await
        .assert_problem(401, "invalid_token");
    inbox_with(&ts, "Bearer")
        .await
        .assert_problem(401, "invalid_token");
}
on_both_backends!(bearer_scheme_is_case_insensitive);

async fn logout_revokes_that_token_on_every_server(backend: Backend) {
    let target = fresh_target(backend).await;
    let a = server_on(&target, |_| {}).await;
    let b = server_on(&target, |_| {}).await;
    let ada = a.register("Ada").await;
    let second = another_token(&ada.id);
    assert_eq!(
        a.get("/v1/players/me/inbox", Some(&ada.token)).await.status,
        200
    );

    let out = a
        .post("/v1/players/me/logout", Some(&ada.token), &json!({}))
        .await;
    assert_eq!(out.status.as_u16(), 204, "{}", out.text);

    // Refused at once by the server that revoked it, and by the other one
    // as soon as it hears of it (Postgres: its NOTIFY, within TRUSTED_FOR).
    a.get("/v1/players/me/inbox", Some(&ada.token))
        .await
        .assert_problem(401, "token_revoked");
    refused_soon(&b, &ada.token).await;
    for ts in [&a, &b] {
        ts.get("/v1/players/me/inbox", Some(&ada.token))
            .await
            .assert_problem(401, "token_revoked");
        ts.game("00000000-0000-4000-8000-000000000000", Some(&ada.token))
            .await
            .assert_problem(401, "token_revoked");
        // The player's other token is untouched.
        let other = ts.get("/v1/players/me/inbox", Some(&second)).await;
        assert_eq!(other.status.as_u16(), 200, "{}", other.text);
    }
    // Logging out again with a revoked token is refused, and changes nothing.
    a.post("/v1/players/me/logout", Some(&ada.token), &json!({}))
        .await
        .assert_problem(401, "token_revoked");
    assert_eq!(
        a.server
            .state
            .games
            .db()
            .revoked_token_count()
            .await
            .unwrap(),
        1
    );
    a.post("/v1/players/me/logout", None, &json!({}))
        .await
        .assert_problem(401, "missing_token");
}
on_both_backends!(logout_revokes_that_token_on_every_server);

async fn revoke_tokens_refuses_every_token_issued_so_far(backend: Backend) {
    let target = fresh_target(backend).await;
    let a = server_on(&target, |_| {}).await;
    let b = server_on(&target, |_| {}).await;
    let ada = a.register("Ada").await;
    let bob = a.register("Bob").await;
    let second = another_token(&ada.id);

    let out = b
        .post("/v1/players/me/revoke-tokens", Some(&second), &json!({}))
        .await;
    assert_eq!(out.status.as_u16(), 204, "{}", out.text);
    for token in [&ada.token, &second] {
        refused_soon(&a, token).await;
    }
    for ts in [&a, &b] {
        for token in [&ada.token, &second] {
            ts.get("/v1/players/me/inbox", Some(token))
                .await
                .assert_problem(401, "token_revoked");
        }
        // Another player is not affected.
        assert_eq!(
            ts.get("/v1/players/me/inbox", Some(&bob.token))
                .await
                .status,
            200
        );
    }
    // A token issued after the cut-off (a later `iat` second) is accepted.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let fresh = another_token(&ada.id);
    let a_fresh = a.get("/v1/players/me/inbox", Some(&fresh)).await;
    assert_eq!(a_fresh.status.as_u16(), 200, "{}", a_fresh.text);
}
on_both_backends!(revoke_tokens_refuses_every_token_issued_so_far);

/// Postgres: while its `LISTEN` connection vouches for it, a process
/// answers the revocation check from its copy, without a statement (a
/// revocation written behind its back, with no NOTIFY, is not seen); when
/// that connection is lost it asks the database at once, and after
/// reconnecting it loads the copy again (db::revocations' invariant).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revocations_are_checked_in_memory_while_the_listener_vouches() {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    let target = fresh_target(Backend::Postgres).await;
    let a = server_on(&target, |_| {}).await;
    let ada = a.register("Ada").await;
    let db = a.server.state.games.db();
    wait_until(|| db.revocations_in_memory()).await;

    let api::config::DatabaseTarget::Postgres(url) = &*target else {
        unreachable!()
    };
    let mut raw = AsyncPgConnection::establish(url).await.unwrap();
    let behind_its_back = "INSERT INTO token_cutoffs (player_id, revoked_through, updated_at) \
         VALUES ($1, extract(epoch FROM now())::bigint + 60, now())";
    diesel::sql_query(behind_its_back)
        .bind::<diesel::sql_types::Text, _>(&ada.id)
        .execute(&mut raw)
        .await
        .unwrap();
    let from_memory = a.get("/v1/players/me/inbox", Some(&ada.token)).await;
    assert_eq!(from_memory.status.as_u16(), 200, "{}", from_memory.text);

    // The listener's connection goes: the next requests read the table.
    let killed: Vec<bool> = diesel::sql_query(
        "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity \
         WHERE datname = current_database() AND query = $1",
    )
    .bind::<diesel::sql_types::Text, _>(api::db::listen::HEARTBEAT_SQL)
    .load::<Killed>(&mut raw)
    .await
    .unwrap()
    .into_iter()
    .map(|k| k.killed)
    .collect();
    assert_eq!(killed, [true]);
    refused_soon(&a, &ada.token).await;
    // Back, and loaded again: the copy now holds the cut-off too.
    wait_until(|| db.revocations_in_memory()).await;
    a.get("/v1/players/me/inbox", Some(&ada.token))
        .await
        .assert_problem(401, "token_revoked");
}

#[derive(diesel::QueryableByName)]
struct Killed {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    killed: bool,
}

/// Waits (up to 10 s) until `ready` holds.
async fn wait_until(ready: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !ready() {
        assert!(std::time::Instant::now() < deadline, "not ready in 10 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn a_rotated_key_verifies_old_tokens_until_it_is_removed(backend: Backend) {
    let target = fresh_target(backend).await;
    let a = server_on(&target, |c| c.jwt_secret = Some(K1.to_owned())).await;
    let ada = a.register("Ada").await;
    let kid = jsonwebtoken::decode_header(&ada.token).unwrap().kid;
    assert_eq!(kid.as_deref(), Some(key_id(K1.as_bytes()).as_str()));

    // B signs with K2 and still lists K1: A's token works there.
    let b = server_on(&target, |c| {
        c.jwt_secret = Some(K2.to_owned());
        c.jwt_previous_secrets = vec![K1.to_owned()];
    })
    .await;
    let on_b = b.get("/v1/players/me/inbox", Some(&ada.token)).await;
    assert_eq!(on_b.status.as_u16(), 200, "{}", on_b.text);
    let bob = b.register("Bob").await;
    let kid = jsonwebtoken::decode_header(&bob.token).unwrap().kid;
    assert_eq!(kid.as_deref(), Some(key_id(K2.as_bytes()).as_str()));

    // C knows only K2: A's token is refused, B's accepted.
    let c = server_on(&target, |c| c.jwt_secret = Some(K2.to_owned())).await;
    c.get("/v1/players/me/inbox", Some(&ada.token))
        .await
        .assert_problem(401, "invalid_token");
    assert_eq!(
        c.get("/v1/players/me/inbox", Some(&bob.token)).await.status,
        200
    );
}
on_both_backends!(a_rotated_key_verifies_old_tokens_until_it_is_removed);

async fn personal_answers_are_private_and_tagged_per_viewer(backend: Backend) {
    let ts = crate::common::start(backend).await;
    let (ann, bob, id) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 10}))
        .await;
    let as_ann = ts.game(&id, Some(&ann.token)).await;
    let as_bob = ts.game(&id, Some(&bob.token)).await;
    let as_spectator = ts.game(&id, None).await;
    let mut tags = Vec::new();
    for a in [&as_ann, &as_bob, &as_spectator] {
        assert_eq!(a.status.as_u16(), 200, "{}", a.text);
        assert_eq!(a.header("cache-control"), Some("private"));
        let vary: Vec<_> = a.headers.get_all("vary").iter().collect();
        assert!(
            vary.iter()
                .any(|v| v.to_str().unwrap().contains("Authorization")),
            "{vary:?}"
        );
        tags.push(a.header("etag").unwrap().to_owned());
    }
    let version = as_ann.json["version"].as_i64().unwrap();
    assert_eq!(tags[2], format!("\"{version}-s\""));
    assert!(
        tags[0].starts_with(&format!("\"{version}-p")),
        "{}",
        tags[0]
    );
    assert_ne!(tags[0], tags[1], "different views, different tags");

    let ann_view = revalidate(&ts, &id, Some(&ann.token), &tags[0]).await;
    assert_eq!(ann_view, 304);
    // Ann's tag is not Bob's view, nor a spectator's.
    assert_eq!(revalidate(&ts, &id, Some(&bob.token), &tags[0]).await, 200);
    assert_eq!(revalidate(&ts, &id, None, &tags[0]).await, 200);
    // The plain version (what clients kept before) still revalidates.
    let plain = format!("\"{version}\"");
    assert_eq!(revalidate(&ts, &id, None, &plain).await, 304);

    // Other personalised reads carry the marks too.
    let legal = ts.legal(&ann, &id).await;
    assert_eq!(legal.header("cache-control"), Some("private"));
    assert!(legal.header("etag").unwrap().contains("-p"));
    let events = ts
        .get(&format!("/v1/games/{id}/events"), Some(&ann.token))
        .await;
    assert_eq!(events.header("cache-control"), Some("private"));
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    assert_eq!(inbox.header("cache-control"), Some("private"));

    // If-Match takes the new form (and the plain one) for a move.
    let (mover, legal) = if legal.json["count"].as_u64().unwrap() > 0 {
        (&ann, legal)
    } else {
        (&bob, ts.legal(&bob, &id).await)
    };
    let tag = legal.header("etag").unwrap().to_owned();
    let mv = crate::common::random_move(&legal.json, &mut crate::common::rng(3));
    let moved = ts
        .call(
            Method::POST,
            &format!("/v1/games/{id}/moves"),
            Some(&mover.token),
            Some(&mv),
            &[("if-match", &tag)],
        )
        .await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    // The tag is now stale: a 412, not a 400.
    let stale = ts
        .call(
            Method::POST,
            &format!("/v1/games/{id}/moves"),
            Some(&mover.token),
            Some(&mv),
            &[("if-match", &tag)],
        )
        .await;
    assert_eq!(stale.status.as_u16(), 412, "{}", stale.text);
}
on_both_backends!(personal_answers_are_private_and_tagged_per_viewer);

/// The status of `GET /v1/games/{id}` with `If-None-Match: tag`.
async fn revalidate(ts: &TestServer, id: &str, token: Option<&str>, tag: &str) -> u16 {
    ts.call(
        Method::GET,
        &format!("/v1/games/{id}"),
        token,
        None,
        &[("if-none-match", tag)],
    )
    .await
    .status
    .as_u16()
}

/// Sends `head` (a whole request head, CRLFs included) on a fresh TCP
/// connection and reads until the server closes or 2 s pass.
async fn raw_request(ts: &TestServer, head: &[u8]) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(ts.server.addr)
        .await
        .unwrap();
    stream.write_all(head).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

async fn bad_header_bytes_are_refused_not_failed(backend: Backend) {
    let ts = crate::common::start(backend).await;
    // A non-ASCII byte in Authorization reaches the server: a 401 problem.
    let answer = raw_request(
        &ts,
        b"GET /v1/players/me/inbox HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains("\"code\":\"invalid_token\""), "{answer}");
    // A DEL byte is refused by the HTTP parser before any handler runs: a
    // 400 (without a problem body: see the report), never a 500, and the
    // server goes on serving.
    let answer = raw_request(
        &ts,
        b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Odd: a\x7fb\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert_eq!(ts.get("/v1/games", None).await.status.as_u16(), 200);
}
on_both_backends!(bad_header_bytes_are_refused_not_failed);
