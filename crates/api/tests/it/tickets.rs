//! Stream tickets over HTTP: minted by a bearer token, they open the game
//! stream, the player stream and the long poll as `?ticket=` (reusable
//! within their minute), and nothing else; a ticket is no bearer token and
//! a bearer token no ticket; expired, forged, foreign or revoked tickets
//! are 401 problems and change nothing.

use std::time::Duration;

use api::auth::{TICKET_AUDIENCE, key_id};
use chrono::Utc;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Answer, Backend, JWT_SECRET, Player, TestServer, start};
use crate::streams::Sse;

const WAIT: Duration = Duration::from_secs(20);

async fn mint(ts: &TestServer, player: &Player) -> String {
    let a = ts
        .call(
            Method::POST,
            "/v1/stream-tickets",
            Some(&player.token),
            None,
            &[],
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    a.json["ticket"].as_str().unwrap().to_owned()
}

/// A GET of `path` with `?ticket=` (or `&ticket=`) appended.
async fn get_with_ticket(ts: &TestServer, path: &str, ticket: &str) -> Answer {
    let sep = if path.contains('?') { '&' } else { '?' };
    ts.get(&format!("{path}{sep}ticket={ticket}"), None).await
}

/// A ticket signed with the test key as the server would sign it, but
/// with the claims given.
fn forged(claims: Value) -> String {
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(key_id(JWT_SECRET.as_bytes()));
    let key = EncodingKey::from_secret(JWT_SECRET.as_bytes()).unwrap();
    jsonwebtoken::encode(&header, &claims, &key).unwrap()
}

/// Opens `path` with `ticket` and returns its first event.
async fn first_event(ts: &TestServer, path: &str, ticket: &str) -> crate::streams::SseEvent {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut stream = Sse::open(ts, &format!("{path}{sep}ticket={ticket}"), None, None).await;
    stream.next(WAIT).await.expect("an event")
}

async fn a_ticket_opens_the_streams_of_its_player(backend: Backend) {
    let ts = start(backend).await;
    let (ann, _bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let minted = ts
        .call(
            Method::POST,
            "/v1/stream-tickets",
            Some(&ann.token),
            None,
            &[],
        )
        .await;
    assert_eq!(minted.status.as_u16(), 201, "{}", minted.text);
    assert_eq!(minted.json["expires_in_secs"], 60);
    assert_eq!(minted.header("cache-control"), Some("no-store"));
    let expires: chrono::DateTime<Utc> =
        serde_json::from_value(minted.json["expires_at"].clone()).unwrap();
    let left = (expires - Utc::now()).num_seconds();
    assert!((55..=60).contains(&left), "{left}");
    let ticket = minted.json["ticket"].as_str().unwrap();

    // The game stream as Ann's seat sees it, twice with the same ticket
    // (an EventSource reconnecting by itself).
    for _ in 0..2 {
        let snapshot = first_event(&ts, &format!("/v1/games/{id}/stream"), ticket).await;
        assert_eq!(snapshot.event, "snapshot");
        assert_eq!(snapshot.data["your_seat"], 0, "{:?}", snapshot.data);
        assert!(snapshot.data["view"]["hand"].is_array() || snapshot.data["view"].is_object());
    }
    // The player stream: Ann's turns (someone must act at the start).
    let mut player = Sse::open(
        &ts,
        &format!("/v1/players/me/stream?ticket={ticket}"),
        None,
        None,
    )
    .await;
    let position = player.position(WAIT).await;
    assert!(position.starts_with('1'), "{position}");
    // The long poll, with its own parameters beside the ticket.
    let wait = get_with_ticket(
        &ts,
        &format!("/v1/games/{id}/events/wait?after=0&timeout=0"),
        ticket,
    )
    .await;
    assert_eq!(wait.status.as_u16(), 200, "{}", wait.text);
    assert!(!wait.json["events"].as_array().unwrap().is_empty());
    ts.server.stop().await;
}

on_both_backends!(a_ticket_opens_the_streams_of_its_player);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ticket_is_no_token_and_a_token_no_ticket() {
    let ts = start(Backend::Sqlite).await;
    let (ann, _bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let ticket = mint(&ts, &ann).await;
    let before = ts.game(&id, Some(&ann.token)).await.json["version"].clone();

    // As a bearer token: refused everywhere, the streams included.
    for path in [
        "/v1/players/me/inbox".to_owned(),
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/stream"),
        "/v1/players/me/stream".to_owned(),
    ] {
        ts.get(&path, Some(&ticket))
            .await
            .assert_problem(401, "ticket_not_a_token");
    }
    let legal = ts.legal(&ann, &id).await;
    let mv = legal.json["moves"]
        .get(0)
        .cloned()
        .unwrap_or(json!({"type": "bid", "points": 0}));
    ts.post(&format!("/v1/games/{id}/moves"), Some(&ticket), &mv)
        .await
        .assert_problem(401, "ticket_not_a_token");
    ts.call(Method::POST, "/v1/stream-tickets", Some(&ticket), None, &[])
        .await
        .assert_problem(401, "ticket_not_a_token");
    ts.call(
        Method::POST,
        "/v1/players/me/logout",
        Some(&ticket),
        None,
        &[],
    )
    .await
    .assert_problem(401, "ticket_not_a_token");
    assert_eq!(
        ts.game(&id, Some(&ann.token)).await.json["version"],
        before,
        "nothing changed"
    );

    // A bearer token, garbage, a tampered or a foreign ticket as ?ticket=.
    let mut tampered = ticket.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    let other = crate::common::start(Backend::Sqlite).await;
    let stranger = other.register("Stranger").await;
    // Signed by another key (the other server's own, from its data dir).
    let foreign_keys = api::auth::Keys::new(
        b"another-key-0123456789abcdef0123456789abcdef",
        Duration::from_secs(60),
    )
    .unwrap();
    let parent = api::auth::Authenticated {
        player_id: ann.id.clone(),
        token_id: "jti:x".into(),
        expires_at: Utc::now(),
        issued_at: 0,
    };
    let foreign = foreign_keys.issue_ticket(&parent).unwrap().0;
    for bad in [ann.token.as_str(), "abc", "a.b.c", &tampered, &foreign] {
        for path in [
            format!("/v1/games/{id}/stream"),
            "/v1/players/me/stream".to_owned(),
            format!("/v1/games/{id}/events/wait?after=0&timeout=0"),
        ] {
            get_with_ticket(&ts, &path, bad)
                .await
                .assert_problem(401, "invalid_ticket");
        }
    }
    // A valid ticket (the test servers share a key) of a player this
    // server does not know: refused, as that player's token would be.
    let theirs = mint(&other, &stranger).await;
    get_with_ticket(&ts, "/v1/players/me/stream", &theirs)
        .await
        .assert_problem(401, "unknown_player");
    // Expired (past the leeway): refused with its own code.
    let now = Utc::now().timestamp();
    let expired = forged(json!({
        "sub": ann.id, "iss": "cards-api", "iat": now - 600, "exp": now - 120,
        "jti": "x", "aud": TICKET_AUDIENCE, "tid": "jti:y",
    }));
    get_with_ticket(&ts, "/v1/players/me/stream", &expired)
        .await
        .assert_problem(401, "ticket_expired");
    // A ticket without its parent, or for another purpose: not a ticket.
    for claims in [
        json!({"sub": ann.id, "iss": "cards-api", "iat": now, "exp": now + 60, "aud": TICKET_AUDIENCE}),
        json!({"sub": ann.id, "iss": "cards-api", "iat": now, "exp": now + 60, "aud": "other", "tid": "jti:y"}),
    ] {
        get_with_ticket(&ts, "/v1/players/me/stream", &forged(claims))
            .await
            .assert_problem(401, "invalid_ticket");
    }
    // Both credentials at once, or the ticket twice: a 400.
    ts.get(
        &format!("/v1/players/me/stream?ticket={ticket}"),
        Some(&ann.token),
    )
    .await
    .assert_problem(400, "two_credentials");
    ts.get(
        &format!("/v1/players/me/stream?ticket={ticket}&ticket={ticket}"),
        None,
    )
    .await
    .assert_problem(400, "bad_query");
    // No credential at all: the player stream needs one.
    ts.get("/v1/players/me/stream", None)
        .await
        .assert_problem(401, "missing_token");
    ts.call(Method::POST, "/v1/stream-tickets", None, None, &[])
        .await
        .assert_problem(401, "missing_token");
    other.server.stop().await;
    ts.server.stop().await;
}

async fn a_revoked_token_takes_its_tickets_with_it(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let ticket = mint(&ts, &ann).await;
    let path = "/v1/players/me/stream";
    // Logging out the parent token refuses its ticket, and it mints no more.
    ts.call(
        Method::POST,
        "/v1/players/me/logout",
        Some(&ann.token),
        None,
        &[],
    )
    .await;
    get_with_ticket(&ts, path, &ticket)
        .await
        .assert_problem(401, "ticket_revoked");
    ts.call(
        Method::POST,
        "/v1/stream-tickets",
        Some(&ann.token),
        None,
        &[],
    )
    .await
    .assert_problem(401, "token_revoked");

    // Revoking every token refuses the tickets minted before it.
    let bob = ts.register("Bob").await;
    let ticket = mint(&ts, &bob).await;
    let mut open = Sse::open(&ts, &format!("{path}?ticket={ticket}"), None, None).await;
    open.position(WAIT).await;
    drop(open);
    let revoked = ts
        .call(
            Method::POST,
            "/v1/players/me/revoke-tokens",
            Some(&bob.token),
            None,
            &[],
        )
        .await;
    assert_eq!(revoked.status.as_u16(), 204, "{}", revoked.text);
    get_with_ticket(&ts, path, &ticket)
        .await
        .assert_problem(401, "ticket_revoked");
    ts.server.stop().await;
}

on_both_backends!(a_revoked_token_takes_its_tickets_with_it);
