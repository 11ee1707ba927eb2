//! Losing the database host (Postgres): the api on a multi-host URL
//! (`target_session_attrs=read-write`) moves to the next host by itself,
//! without a restart; its `LISTEN` connection comes back (a stream on
//! another process gets the next move, the revocation copy is trusted
//! again); and a connection to a server demoted to read-only (SQLSTATE
//! 25006) is closed, never handed on. Meanwhile every request is answered
//! 2xx or 503 with `Retry-After`, never 500, and a move retried with its
//! `Idempotency-Key` is made once. The real failover (pg_auto_failover, a
//! standby promoted) is `scripts/db-failover-test.sh`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use api::config::DatabaseTarget;
use diesel_async::{AsyncConnection, AsyncPgConnection};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, random_move, rng, start_tuned};
use crate::streams::Sse;

/// How long the api may take to find the database again.
const RECOVERY: Duration = Duration::from_secs(15);

/// A TCP relay to Postgres standing for one host of a multi-host URL:
/// cut, it closes every connection it carries and refuses new ones, as a
/// database machine that died does.
pub(crate) struct HostRelay {
    pub(crate) address: std::net::SocketAddr,
    cut: Arc<AtomicBool>,
    closing: tokio::sync::watch::Sender<bool>,
}

impl HostRelay {
    pub(crate) async fn start(upstream: String) -> HostRelay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let (closing, _) = tokio::sync::watch::channel(false);
        let (flag, closed) = (cut.clone(), closing.subscribe());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if flag.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
                    continue;
                };
                let mut closed = closed.clone();
                tokio::spawn(async move {
                    let (mut client, mut server) = (client, server);
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = closed.wait_for(|c| *c) => {}
                    }
                });
            }
        });
        HostRelay {
            address,
            cut,
            closing,
        }
    }

    /// The host dies: every connection through it closes, new ones fail.
    pub(crate) fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        self.closing.send_replace(true);
    }
}

/// The `host:port` and the parts around it of a `postgres://` URL.
fn split_url(url: &str) -> (&str, &str, &str) {
    let at = url
        .rfind('@')
        .map_or_else(|| url.find("://").unwrap() + 3, |i| i + 1);
    let slash = at + url[at..].find('/').unwrap();
    (&url[..at], &url[at..slash], &url[slash..])
}

fn postgres_url(target: &DatabaseTarget) -> String {
    let DatabaseTarget::Postgres(url) = target else {
        unreachable!("a Postgres target")
    };
    url.clone()
}

/// A move for whoever must act, sent with `key` until it is answered
/// other than 503; every answer meanwhile must be a 503 `unavailable` (or
/// `timeout`) problem with `Retry-After`. Returns the final answer.
async fn post_move_until_answered(
    ts: &TestServer,
    player: &Player,
    game_id: &str,
    mv: &Value,
    key: &str,
) -> Answer {
    let until = Instant::now() + RECOVERY;
    loop {
        let answer = ts
            .call(
                Method::POST,
                &format!("/v1/games/{game_id}/moves"),
                Some(&player.token),
                Some(mv),
                &[("Idempotency-Key", key)],
            )
            .await;
        if answer.status.as_u16() != 503 {
            return answer;
        }
        assert!(
            matches!(answer.code(), "unavailable" | "timeout"),
            "{}",
            answer.text
        );
        assert_eq!(answer.header("retry-after"), Some("1"), "{}", answer.text);
        assert!(Instant::now() < until, "no recovery in {RECOVERY:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Who of `players` must act in `game_id`, and a legal move of theirs.
async fn next_move<'a>(
    ts: &TestServer,
    players: &'a [Player],
    game_id: &str,
) -> (&'a Player, Value) {
    let mut r = rng(11);
    for player in players {
        let legal = ts.legal(player, game_id).await;
        assert_eq!(legal.status.as_u16(), 200, "{}", legal.text);
        if legal.json["count"].as_u64().unwrap_or(0) > 0 {
            return (player, random_move(&legal.json, &mut r));
        }
    }
    panic!("nobody must act in {game_id}")
}

/// Two api processes on a two-host URL (`host A,host B`,
/// `target_session_attrs=read-write`), both hosts one database through a
/// relay each. Host A dies under them: each moves to host B by itself,
/// with no restart; a move retried with its key is made once; a spectator
/// stream on the other process gets it (its `LISTEN` is back, or the
/// stream re-read the log from its cursor); and the revocation copy is
/// trusted again (reloaded by the new `LISTEN` connection).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_moves_to_the_next_host_when_its_database_host_dies() {
    let database = tokio::task::spawn_blocking(|| Backend::Postgres.fresh_target())
        .await
        .unwrap();
    let url = postgres_url(&database);
    let (head, host, tail) = split_url(&url);
    let (a, b) = tokio::join!(
        HostRelay::start(host.to_owned()),
        HostRelay::start(host.to_owned())
    );
    let separator = if tail.contains('?') { '&' } else { '?' };
    let two_hosts = format!(
        "{head}{},{}{tail}{separator}target_session_attrs=read-write",
        a.address, b.address
    );
    let target = database.reached_through(DatabaseTarget::Postgres(two_hosts));
    let tune = |c: &mut api::config::Config| c.db_timeout = Duration::from_secs(2);
    let one = start_tuned(target.clone(), tune).await;
    let other = start_tuned(target, tune).await;
    let (ann, bob, id) = one.ann_and_bob_playing(json!({"players": 2})).await;
    let players = [ann, bob];
    let (mover, mv) = next_move(&one, &players, &id).await;
    let first = post_move_until_answered(&one, mover, &id, &mv, "before-the-cut").await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.text);
    let version = first.json["version"].as_i64().unwrap();
    let mut stream = Sse::open(
        &other,
        &format!("/v1/games/{id}/stream"),
        None,
        Some(version),
    )
    .await;
    assert_eq!(stream.next(RECOVERY).await.unwrap().event, "snapshot");

    a.cut();
    let (mover, mv) = loop {
        // The legal moves are a read: 503 while no host answers.
        let legal = one.legal(&players[0], &id).await;
        if legal.status.as_u16() == 200 {
            break next_move(&one, &players, &id).await;
        }
        legal.assert_problem(503, "unavailable");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let moved = post_move_until_answered(&one, mover, &id, &mv, "after-the-cut").await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    assert_eq!(moved.json["version"].as_i64(), Some(version + 1));
    let again = post_move_until_answered(&one, mover, &id, &mv, "after-the-cut").await;
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["version"], moved.json["version"]);

    // The other process's stream gets the move (it may have been cut by
    // the outage: a client resumes it from its last id).
    let seq = moved.json["seq"].as_i64();
    let until = Instant::now() + RECOVERY;
    loop {
        match stream.next_of(&["move"], RECOVERY).await {
            Some(event) => {
                assert_eq!(event.id, seq);
                break;
            }
            None => {
                assert!(Instant::now() < until, "the stream never resumed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                stream = Sse::open(
                    &other,
                    &format!("/v1/games/{id}/stream"),
                    None,
                    Some(version),
                )
                .await;
            }
        }
    }
    let (events, _) = other.all_events(&id, None).await;
    let moves = events.iter().filter(|e| e["type"] == "move").count();
    assert_eq!(moves, 2, "each key made one move: {events:?}");
    for ts in [&one, &other] {
        let db = ts.server.state.games.db();
        let until = Instant::now() + RECOVERY;
        while !db.revocations_in_memory() {
            assert!(
                Instant::now() < until,
                "the revocation copy is never trusted again"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    one.server.stop().await;
    other.server.stop().await;
    drop(b);
}

#[derive(diesel::QueryableByName)]
struct Killed {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    #[allow(dead_code)]
    killed: bool,
}

/// Makes every new session of the test's database read-only (or not);
/// demoting, closes the api's connections too, as a primary demoted to a
/// standby does. Undoing it leaves the read-only sessions open: what a
/// multi-host URL would now reach is a writable server, and what the pool
/// may still hold is not.
async fn demote(admin: &mut AsyncPgConnection, read_only: bool) {
    use diesel_async::RunQueryDsl;
    let setting = if read_only { "on" } else { "off" };
    // This session itself may have opened read-only.
    diesel::sql_query("SET default_transaction_read_only = off")
        .execute(admin)
        .await
        .unwrap();
    diesel::sql_query(format!(
        "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only = {setting}', current_database()); END $$"
    ))
    .execute(admin)
    .await
    .unwrap();
    if !read_only {
        return;
    }
    diesel::sql_query(
        "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .load::<Killed>(admin)
    .await
    .unwrap();
}

/// The api on a one-host URL without `target_session_attrs`, whose server
/// turns read-only (a primary demoted to a standby): writes are answered
/// 503 `unavailable` with `Retry-After` (SQLSTATE 25006), never 500, and
/// each such connection is closed, not handed on: once the server takes
/// writes again, a write goes through within moments instead of meeting
/// read-only sessions kept in the pool. The move retried with its key
/// was made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_to_a_demoted_primary_is_closed_not_reused() {
    let database = tokio::task::spawn_blocking(|| Backend::Postgres.fresh_target())
        .await
        .unwrap();
    let url = postgres_url(&database);
    let ts = start_tuned(database, |c| c.db_timeout = Duration::from_secs(2)).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let players = [ann, bob];
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    let mut admin = AsyncPgConnection::establish(&url).await.unwrap();

    demote(&mut admin, true).await;
    let (mover, mv) = loop {
        let legal = ts.legal(&players[0], &id).await;
        if legal.status.as_u16() == 200 {
            break next_move(&ts, &players, &id).await;
        }
        legal.assert_problem(503, "unavailable");
    };
    // Enough writes to meet every read-only connection the pool made.
    for _ in 0..20 {
        let refused = ts
            .call(
                Method::POST,
                &format!("/v1/games/{id}/moves"),
                Some(&mover.token),
                Some(&mv),
                &[("Idempotency-Key", "while-read-only")],
            )
            .await;
        refused.assert_problem(503, "unavailable");
        assert_eq!(refused.header("retry-after"), Some("1"));
    }

    let mut admin = AsyncPgConnection::establish(&url).await.unwrap();
    demote(&mut admin, false).await;
    let moved = post_move_until_answered(&ts, mover, &id, &mv, "while-read-only").await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    assert_eq!(moved.json["version"].as_i64(), Some(version + 1));
    // The pool keeps no read-only session: writes go through from now on.
    let (mover, mv) = next_move(&ts, &players, &id).await;
    let next = ts.post_move(mover, &id, &mv).await;
    assert_eq!(next.status.as_u16(), 200, "{}", next.text);
    ts.server.stop().await;
}
