//! Reads from a replica (`DATABASE_REPLICA_URL`), on a real streaming
//! standby: a private primary and a `pg_basebackup -R` hot standby of it
//! (`test_db::fresh_replicated_database`). Pausing the standby's replay
//! makes it lag on purpose, missing every commit made since, so each test
//! can tell which database answered a read: the lobby from the replica
//! (stale), a player's own reads after their write and their own games from
//! the primary, a finished game from the replica when it holds it finished
//! and from the primary when not yet. A replica too far behind, or down,
//! sends the reads to the primary: never a 500. With SQLite the setting is
//! refused at start.
//!
//! The standby's replay is paused for the whole pair, so these tests take
//! turns ([`PAIR`]).

use std::time::{Duration, Instant};

use api::config::DatabaseTarget;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Backend, Player, TestDatabase, TestServer, start_tuned};

/// One test at a time pauses the standby.
static PAIR: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long the standby may take to replay what the primary committed.
const CATCH_UP: Duration = Duration::from_secs(20);

/// Replay resumed when a test ends, even a failing one, so the next test
/// starts with a standby that follows.
struct Resumes;

impl Drop for Resumes {
    fn drop(&mut self) {
        std::thread::spawn(|| test_db::pause_standby_replay(false))
            .join()
            .ok();
    }
}

async fn pause_replay() -> Resumes {
    tokio::task::spawn_blocking(|| test_db::pause_standby_replay(true))
        .await
        .unwrap();
    Resumes
}

/// A server on a fresh replicated database, its reads that may lag on the
/// standby at `replica_url` (the standby itself unless given).
async fn start_replicated(
    max_lag: Duration,
    replica_url: impl FnOnce(&str) -> String,
) -> (TestServer, test_db::ReplicatedDatabase) {
    let database = tokio::task::spawn_blocking(test_db::fresh_replicated_database)
        .await
        .unwrap();
    let replica = replica_url(database.standby_url());
    // The server goes before the database's guard (dropped in this order).
    let target = TestDatabase::unowned(DatabaseTarget::Postgres(database.url().to_owned()));
    let ts = start_tuned(target, |c| {
        c.replica.url = Some(replica);
        c.replica.max_lag = max_lag;
    })
    .await;
    (ts, database)
}

/// Waits until the api has measured its replica caught up (its lag gauge
/// shows in `/metrics`): the first measure comes within a tick of the
/// start, on new connections.
async fn replica_measured(ts: &TestServer) {
    let until = Instant::now() + CATCH_UP;
    while !ts
        .get("/metrics", None)
        .await
        .text
        .contains("\ncards_replica_lag_seconds ")
    {
        assert!(Instant::now() < until, "the replica was never measured");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One of `/metrics`' counters (0 when absent).
async fn metric(ts: &TestServer, name: &str) -> f64 {
    let m = ts.get("/metrics", None).await;
    m.text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// The ids in the lobby's first page (open games), as `token` reads it.
async fn lobby(ts: &TestServer, token: Option<&str>) -> Vec<String> {
    let a = ts.get("/v1/games?status=open", token).await;
    assert_eq!(a.status.as_u16(), 200, "{}", a.text);
    ids(&a.json)
}

fn ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn open_game(ts: &TestServer, who: &Player) -> String {
    let game = ts
        .create_game(
            who,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    game["id"].as_str().unwrap().to_owned()
}

/// A game `who` finishes at once: against a bot, resigned under `end_game`.
async fn finished_game(ts: &TestServer, who: &Player) -> String {
    let a = ts
        .post(
            "/v1/games",
            Some(&who.token),
            &json!({"kind": "lost-heir", "config": {"players": 2},
                    "seats": ["open", "bot"], "take_seat": 0, "on_resign": "end_game"}),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_owned();
    let resigned = ts
        .post(
            &format!("/v1/games/{id}/resign"),
            Some(&who.token),
            &json!(null),
        )
        .await;
    assert_eq!(resigned.status.as_u16(), 200, "{}", resigned.text);
    assert_eq!(ts.game(&id, None).await.json["status"], "finished");
    id
}

/// Waits until the standby itself (asked directly) holds `game_id`: it has
/// replayed every commit up to that game's.
async fn replica_has(standby_url: &str, game_id: &str) {
    use diesel_async::{AsyncConnection as _, RunQueryDsl as _};
    let until = Instant::now() + CATCH_UP;
    let mut conn = diesel_async::AsyncPgConnection::establish(standby_url)
        .await
        .expect("the standby answers");
    loop {
        let held: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(&format!(
            "(SELECT count(*) FROM games WHERE id = '{game_id}')"
        )))
        .get_result(&mut conn)
        .await
        .expect("a read on the standby");
        if held == 1 {
            return;
        }
        assert!(Instant::now() < until, "the replica never had {game_id}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The lobby from a lagging replica, and read-your-writes: with the
/// standby paused, a game created since is missing from the lobby an
/// anonymous reader (and another player) gets from the replica, but its
/// creator's lobby and every player's own games (`mine`) show it: those
/// come from the primary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_comes_from_the_replica_and_a_player_reads_their_own_writes() {
    let _turn = PAIR.lock().await;
    let (ts, db) = start_replicated(Duration::from_secs(60), str::to_owned).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let before = open_game(&ts, &ann).await;
    replica_has(db.standby_url(), &before).await;
    replica_measured(&ts).await;
    assert!(lobby(&ts, None).await.contains(&before));
    let served = metric(&ts, "cards_replica_reads_total").await;
    assert!(served >= 1.0, "the replica answered the lobby");

    let _resumes = pause_replay().await;
    let during = open_game(&ts, &ann).await;

    // Anonymous, and Bob (no write of his since): the replica's lobby.
    for token in [None, Some(bob.token.as_str())] {
        let lobby = lobby(&ts, token).await;
        assert!(lobby.contains(&before), "{lobby:?}");
        assert!(!lobby.contains(&during), "the paused replica lacks it");
    }
    assert!(metric(&ts, "cards_replica_reads_total").await > served);
    // Ann wrote it: her lobby comes from the primary.
    let own = lobby(&ts, Some(&ann.token)).await;
    assert!(own.contains(&during), "read-your-writes: {own:?}");
    // A player's own games always come from the primary.
    let mine = ts.get("/v1/games?mine=true", Some(&ann.token)).await;
    assert!(ids(&mine.json).contains(&during), "{}", mine.text);
    // Bob joins the new game: his write, so his reads now see it (the
    // game is no longer open: it started).
    let joined = ts.join(&bob, &during, Some(1)).await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
    let bobs = ts
        .get("/v1/games?status=in_progress", Some(&bob.token))
        .await;
    assert!(ids(&bobs.json).contains(&during), "{}", bobs.text);
    let anyones = ts.get("/v1/games?status=in_progress", None).await;
    assert!(!ids(&anyones.json).contains(&during), "{}", anyones.text);

    drop(_resumes);
    // Once the replica replays again, everyone's lobby has it.
    let until = Instant::now() + CATCH_UP;
    loop {
        let anyones = ts.get("/v1/games?status=in_progress", None).await;
        if ids(&anyones.json).contains(&during) {
            break;
        }
        assert!(Instant::now() < until, "the replica never caught up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A finished game never changes: its record, replay and verification come
/// from the replica when it holds the game finished, whatever its lag, and
/// from the primary when it does not yet (a game finished while the replica
/// was paused), with the same answer either way. Leaderboards and ratings
/// answer too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_come_from_the_replica_once_it_holds_them_finished() {
    let _turn = PAIR.lock().await;
    // No finished-game cache: every read goes to a database.
    let database = tokio::task::spawn_blocking(test_db::fresh_replicated_database)
        .await
        .unwrap();
    let target = TestDatabase::unowned(DatabaseTarget::Postgres(database.url().to_owned()));
    let standby = database.standby_url().to_owned();
    let ts = start_tuned(target, |c| {
        c.replica.url = Some(standby);
        c.replica.max_lag = Duration::from_millis(300);
        c.finished_cache = 0;
    })
    .await;
    let ann = ts.register("Ann").await;
    let old = finished_game(&ts, &ann).await;
    let marker = open_game(&ts, &ann).await;
    replica_has(database.standby_url(), &marker).await;
    replica_measured(&ts).await;

    let _resumes = pause_replay().await;
    let new = finished_game(&ts, &ann).await;
    // Past the lag bound: only what is settled may still come from it.
    tokio::time::sleep(Duration::from_millis(600)).await;

    let (served, not_there) = (
        metric(&ts, "cards_replica_reads_total").await,
        metric(&ts, "cards_replica_not_there_total").await,
    );
    for path in ["record", "replay", "verify"] {
        let a = ts.get(&format!("/v1/games/{old}/{path}"), None).await;
        assert_eq!(a.status.as_u16(), 200, "{path}: {}", a.text);
    }
    assert_eq!(
        metric(&ts, "cards_replica_reads_total").await,
        served + 3.0,
        "the old game's three reads came from the replica, lagging as it is"
    );
    let mut from_primary = Vec::new();
    for path in ["record", "replay", "verify"] {
        let a = ts.get(&format!("/v1/games/{new}/{path}"), None).await;
        assert_eq!(a.status.as_u16(), 200, "{path}: {}", a.text);
        from_primary.push(a.text);
    }
    assert_eq!(
        metric(&ts, "cards_replica_not_there_total").await,
        not_there + 3.0,
        "the new game is not finished on the replica: read on the primary"
    );
    let verified: Value = serde_json::from_str(&from_primary[2]).unwrap();
    assert_eq!(verified["ok"], true, "{verified}");

    // The lag bound passed: the lobby, leaderboards and ratings come from
    // the primary (fresh), still answered.
    assert!(lobby(&ts, None).await.contains(&marker));
    for path in [
        "/v1/leaderboards/lost-heir".to_owned(),
        format!("/v1/players/{}/ratings", ann.id),
        format!("/v1/players/{}/ratings/lost-heir/history", ann.id),
        "/v1/seekers".to_owned(),
    ] {
        let a = ts.get(&path, None).await;
        assert_eq!(a.status.as_u16(), 200, "{path}: {}", a.text);
    }
    drop(_resumes);

    // Replaying again: the new game's record now comes from the replica,
    // byte for byte what the primary gave.
    let until = Instant::now() + CATCH_UP;
    loop {
        let served = metric(&ts, "cards_replica_reads_total").await;
        let a = ts.get(&format!("/v1/games/{new}/record"), None).await;
        assert_eq!(a.status.as_u16(), 200, "{}", a.text);
        if metric(&ts, "cards_replica_reads_total").await > served {
            assert_eq!(a.text, from_primary[0]);
            break;
        }
        assert!(Instant::now() < until, "the replica never caught up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A player unknown to the lagging replica (registered since) has ratings:
/// the read goes on to the primary rather than answering 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_the_replica_does_not_know_yet_is_found_on_the_primary() {
    let _turn = PAIR.lock().await;
    let (ts, db) = start_replicated(Duration::from_secs(60), str::to_owned).await;
    let ann = ts.register("Ann").await;
    let marker = open_game(&ts, &ann).await;
    replica_has(db.standby_url(), &marker).await;
    replica_measured(&ts).await;
    let _resumes = pause_replay().await;
    let newcomer = ts.register("Newcomer").await;
    let a = ts
        .get(&format!("/v1/players/{}/ratings", newcomer.id), None)
        .await;
    assert_eq!(a.status.as_u16(), 200, "{}", a.text);
    assert_eq!(a.json["ratings"], json!([]));
    let a = ts.get("/v1/players/nobody-at-all/ratings", None).await;
    a.assert_problem(404, "player_not_found");
}

/// The replica dies under a serving api (its connections cut, new ones
/// refused): every read still answers, from the primary, never a 500; and
/// an api whose replica was never reachable serves every read too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_is_down_sends_every_read_to_the_primary() {
    let _turn = PAIR.lock().await;
    let database = tokio::task::spawn_blocking(test_db::fresh_replicated_database)
        .await
        .unwrap();
    let relay = crate::failover::HostRelay::start(host_of(database.standby_url())).await;
    let through_relay = url_via(database.standby_url(), relay.address);
    let target = TestDatabase::unowned(DatabaseTarget::Postgres(database.url().to_owned()));
    let ts = start_tuned(target.clone(), |c| {
        c.replica.url = Some(through_relay);
        c.replica.max_lag = Duration::from_secs(60);
        c.db_timeout = Duration::from_secs(2);
    })
    .await;
    let ann = ts.register("Ann").await;
    let marker = open_game(&ts, &ann).await;
    let finished = finished_game(&ts, &ann).await;
    replica_has(database.standby_url(), &marker).await;
    replica_measured(&ts).await;
    assert!(lobby(&ts, None).await.contains(&marker));
    assert!(metric(&ts, "cards_replica_reads_total").await >= 1.0);

    relay.cut();
    let after_cut = open_game(&ts, &ann).await;
    let paths = [
        "/v1/games?status=open".to_owned(),
        format!("/v1/games/{finished}/record"),
        "/v1/leaderboards/lost-heir".to_owned(),
        "/v1/seekers".to_owned(),
    ];
    for _ in 0..3 {
        for path in &paths {
            let a = ts.call(Method::GET, path, None, None, &[]).await;
            assert_eq!(a.status.as_u16(), 200, "{path}: {}", a.text);
        }
    }
    // The lobby is the primary's now: it has the game made after the cut.
    assert!(lobby(&ts, None).await.contains(&after_cut));

    // Never reachable at all: a closed port.
    let closed = url_via(database.standby_url(), closed_port());
    let other = start_tuned(target, |c| c.replica.url = Some(closed)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    for path in &paths {
        let a = other.call(Method::GET, path, None, None, &[]).await;
        assert_eq!(a.status.as_u16(), 200, "{path}: {}", a.text);
    }
    assert_eq!(metric(&other, "cards_replica_reads_total").await, 0.0);
}

/// Two api processes: a player's write through one is heard by the other
/// (`NOTIFY` names the game's players), whose reads of that player then
/// wait for the replica too, while an anonymous reader there still gets the
/// replica's stale lobby.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_through_another_process_is_read_back_here() {
    let _turn = PAIR.lock().await;
    let (one, database) = start_replicated(Duration::from_secs(60), str::to_owned).await;
    let target = TestDatabase::unowned(DatabaseTarget::Postgres(database.url().to_owned()));
    let standby = database.standby_url().to_owned();
    let two = start_tuned(target, |c| {
        c.replica.url = Some(standby);
        c.replica.max_lag = Duration::from_secs(60);
    })
    .await;
    let ann = one.register("Ann").await;
    let bob = one.register("Bob").await;
    let game = open_game(&one, &ann).await;
    replica_has(database.standby_url(), &game).await;
    replica_measured(&two).await;

    let _resumes = pause_replay().await;
    // Bob joins through process one: the game starts.
    let joined = one.join(&bob, &game, Some(1)).await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let bobs = two
            .get("/v1/games?status=in_progress", Some(&bob.token))
            .await;
        if ids(&bobs.json).contains(&game) {
            break;
        }
        assert!(Instant::now() < until, "process two never read Bob's write");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let anyones = two.get("/v1/games?status=in_progress", None).await;
    assert!(!ids(&anyones.json).contains(&game), "{}", anyones.text);
}

/// SQLite has no replica: the setting is refused at start, with a message
/// that says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_refuses_a_replica_at_start() {
    let target = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    let data_dir = test_db::fresh_temp_dir();
    let config = api::config::Config {
        port: 0,
        database: Some((*target).clone()),
        data_dir: data_dir.path().to_path_buf(),
        jwt_secret: Some(crate::common::JWT_SECRET.to_owned()),
        replica: api::config::ReplicaSettings {
            url: Some("postgres://nobody@127.0.0.1:1/cards".to_owned()),
            ..Default::default()
        },
        ..Default::default()
    };
    let Err(refused) = api::app::spawn(config).await else {
        panic!("an api on SQLite started with a replica");
    };
    let message = refused.to_string();
    assert!(
        message.contains("DATABASE_REPLICA_URL") && message.contains("Postgres"),
        "{message}"
    );
}

fn host_of(url: &str) -> String {
    let at = url.rfind('@').unwrap() + 1;
    let slash = at + url[at..].find('/').unwrap();
    url[at..slash].to_owned()
}

fn url_via(url: &str, address: std::net::SocketAddr) -> String {
    url.replacen(&host_of(url), &address.to_string(), 1)
}

fn closed_port() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}
