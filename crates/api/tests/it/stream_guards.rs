//! Open streams answer to revocation and to their client's share: a
//! stream of a revoked token, or of a ticket minted with it, ends within
//! the revocation bound on every process (`revocations::TRUSTED_FOR`,
//! 3 s); a client holds at most `STREAMS_PER_CLIENT` streams and
//! spectators at most `ANONYMOUS_STREAMS` in all (`too_many_streams`).

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Backend, JWT_SECRET, Player, TestServer, start_tuned};
use crate::streams::Sse;

/// The server's bound is 3 s; the test allows for a loaded machine.
const ENDS_WITHIN: Duration = Duration::from_secs(10);

async fn fresh(backend: Backend) -> crate::common::TestDatabase {
    tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap()
}

async fn ticket(ts: &TestServer, who: &Player) -> String {
    let minted = ts
        .call(
            Method::POST,
            "/v1/stream-tickets",
            Some(&who.token),
            None,
            &[],
        )
        .await;
    assert_eq!(minted.status.as_u16(), 201, "{}", minted.text);
    minted.json["ticket"].as_str().unwrap().to_owned()
}

/// Reads `stream` until it ends; how long that took, or a failure after
/// [`ENDS_WITHIN`].
async fn ended(stream: &mut Sse, what: &str) -> Duration {
    let start = Instant::now();
    while start.elapsed() < ENDS_WITHIN {
        if let Ok(None) = stream.next_within(Duration::from_millis(200)).await {
            return start.elapsed();
        }
    }
    panic!("{what} still open {ENDS_WITHIN:?} after the revocation");
}

/// Revoking a token ends its streams, and a ticket's with it, on the
/// server that revoked it and (two processes on one database) on another;
/// a spectator's stream and the player's other token's stay open.
async fn revocation_ends_open_streams(backend: Backend) {
    let target = fresh(backend).await;
    let a = start_tuned(target.clone(), |_| {}).await;
    let b = start_tuned(target.clone(), |_| {}).await;
    let (ann, bob, game_id) = a.ann_and_bob_playing(json!({"players": 2})).await;
    let game_stream = format!("/v1/games/{game_id}/stream");

    // Ann: a seat's stream and her player stream on each server.
    let mut ann_game_a = Sse::open(&a, &game_stream, Some(&ann.token), None).await;
    let mut ann_player_b = Sse::open(&b, "/v1/players/me/stream", Some(&ann.token), None).await;
    // Bob: a ticket's stream on the other server, and his second token's.
    let bob_ticket = ticket(&a, &bob).await;
    let mut bob_ticket_b = Sse::open(
        &b,
        &format!("{game_stream}?ticket={bob_ticket}"),
        None,
        None,
    )
    .await;
    let bob_second = second_token(&bob);
    let mut bob_second_b = Sse::open(&b, &game_stream, Some(&bob_second), None).await;
    let mut spectator_b = Sse::open(&b, &game_stream, None, None).await;

    // Ann revokes every token of hers; Bob logs his first token out.
    let out = a
        .post("/v1/players/me/revoke-tokens", Some(&ann.token), &json!({}))
        .await;
    assert_eq!(out.status.as_u16(), 204, "{}", out.text);
    let out = a
        .post("/v1/players/me/logout", Some(&bob.token), &json!({}))
        .await;
    assert_eq!(out.status.as_u16(), 204, "{}", out.text);

    let here = ended(&mut ann_game_a, "Ann's game stream on the revoking server").await;
    let there = ended(&mut ann_player_b, "Ann's player stream on another server").await;
    let ticket_there = ended(&mut bob_ticket_b, "Bob's ticket stream on another server").await;
    println!("streams ended after {here:?} (same server), {there:?} and {ticket_there:?} (other)");

    // What was not revoked stays open: Bob's other token's, a spectator's.
    for stream in [&mut bob_second_b, &mut spectator_b] {
        while let Ok(event) = stream.next_within(Duration::from_millis(500)).await {
            assert!(event.is_some(), "a stream that was not revoked ended");
        }
    }
    // Reopening with what was revoked is refused.
    let again = a
        .client
        .get(a.url(&format!("{game_stream}?ticket={bob_ticket}")))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 401);
}
on_both_backends!(revocation_ends_open_streams);

/// Another token of `who`'s, as the server (signing with the test
/// secret) would issue it.
fn second_token(who: &Player) -> String {
    let keys = api::auth::Keys::new(JWT_SECRET.as_bytes(), Duration::from_secs(600)).unwrap();
    keys.issue(&who.id).unwrap().0
}

/// A client (a player; else an address) holds at most its share of
/// streams; spectators' streams are bounded in all. A refusal says `too_many_streams` with `Retry-After`.
async fn streams_are_bounded_per_client(backend: Backend) {
    let ts = start_tuned(fresh(backend).await, |c| {
        c.streams_per_client = 3;
        c.anonymous_streams = 2;
    })
    .await;
    let (ann, _bob, game_id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let path = format!("/v1/games/{game_id}/stream");

    let mut held = Vec::new(); // open until the end
    held.push(Sse::open(&ts, &path, Some(&ann.token), None).await);
    held.push(Sse::open(&ts, &path, Some(&ann.token), None).await);
    held.push(Sse::open(&ts, "/v1/players/me/stream", Some(&ann.token), None).await);
    let refused = ts.get(&path, Some(&ann.token)).await;
    refused.assert_problem(429, "too_many_streams");
    assert!(refused.header("retry-after").is_some());
    let refused = ts.get("/v1/players/me/stream", Some(&ann.token)).await;
    refused.assert_problem(429, "too_many_streams");

    // Spectators: two in all, whoever they are.
    let _first = Sse::open(&ts, &path, None, None).await;
    let _second = Sse::open(&ts, &path, None, None).await;
    let refused = ts.get(&path, None).await;
    refused.assert_problem(503, "too_many_streams");
    assert!(refused.header("retry-after").is_some());

    // (A closed stream's slot comes back when the server sees it closed,
    // at its next write: `ops::stream_limits`' unit tests hold the count.)
    // Other requests are not streams: never counted.
    let game: Value = ts.game(&game_id, Some(&ann.token)).await.json;
    assert_eq!(game["id"], json!(game_id));
}
on_both_backends!(streams_are_bounded_per_client);
