//! Hardening: bytes Postgres cannot store refused before the
//! database, the same on both backends; record import under the rules of
//! every other door; migrations of processes started together; a frozen
//! database answering 503 `unavailable` within `DB_TIMEOUT_MS`; an open
//! table that shows nothing dealt.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use api::config::DatabaseTarget;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, start, start_on, start_tuned};

/// A valid game id that names no game.
const NO_GAME: &str = "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47";

async fn open_three_seat_game(ts: &TestServer, ann: &Player) -> String {
    let game = ts
        .create_game(
            ann,
            "lost-heir",
            json!({"players": 3}),
            &["open", "open", "open"],
            Some(0),
        )
        .await;
    game["id"].as_str().unwrap().to_owned()
}

/// Every endpoint under `/v1/games/{game_id}` answers a NUL (or any other
/// non-id) with 404 `game_not_found` on both backends; Postgres used to
/// fail with a 500 on the NUL.
async fn game_ids_with_nul_are_not_found(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let token = Some(ann.token.as_str());
    for id in [
        "%00",
        "a%00b",
        "nope",
        "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d4%00",
    ] {
        for tail in [
            "",
            "/events",
            "/events/wait?timeout=0",
            "/replay",
            "/record",
            "/verify",
            "/legal-moves",
            "/stream",
        ] {
            let a = ts.get(&format!("/v1/games/{id}{tail}"), token).await;
            a.assert_problem(404, "game_not_found");
        }
        for (tail, body) in [
            ("/moves", json!({"type": "bid", "points": 7})),
            ("/join", json!({"seat": 1})),
            ("/leave", json!({})),
            ("/autoplay", json!({"enabled": true})),
        ] {
            let a = ts
                .post(&format!("/v1/games/{id}{tail}"), token, &body)
                .await;
            a.assert_problem(404, "game_not_found");
        }
    }
    // A well-formed id that names no game is the same answer.
    ts.get(&format!("/v1/games/{NO_GAME}"), None)
        .await
        .assert_problem(404, "game_not_found");
    // An id in another spelling of the same UUID finds the game.
    let id = open_three_seat_game(&ts, &ann).await;
    let upper = ts
        .get(&format!("/v1/games/{}", id.to_uppercase()), None)
        .await;
    assert_eq!(upper.status, StatusCode::OK, "{}", upper.text);
    assert_eq!(upper.json["id"], id.as_str());
}
on_both_backends!(game_ids_with_nul_are_not_found);

/// Entropy with a NUL (or another control character) is a 422
/// `invalid_entropy` at create and at join, and nothing is stored.
async fn entropy_with_control_characters_is_refused(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    for entropy in ["a\u{0}b", "line\nbreak", "\u{1b}[31m"] {
        let created = ts
            .post(
                "/v1/games",
                Some(&ann.token),
                &json!({"kind": "lost-heir", "config": {"players": 3},
                        "seats": ["open", "open", "open"], "take_seat": 0, "entropy": entropy}),
            )
            .await;
        created.assert_problem(422, "invalid_entropy");
    }
    let listed = ts.get("/v1/games?limit=200", None).await;
    assert_eq!(listed.json["games"], json!([]), "{}", listed.text);

    let id = open_three_seat_game(&ts, &ann).await;
    let before = ts.game(&id, None).await.json["version"].clone();
    let joined = ts
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&bob.token),
            &json!({"seat": 1, "entropy": "a\u{0}b"}),
        )
        .await;
    joined.assert_problem(422, "invalid_entropy");
    let after = ts.game(&id, None).await;
    assert_eq!(after.json["version"], before, "{}", after.text);
    assert_eq!(after.json["seats"][1]["occupant"], "open");
    // Ordinary entropy is still welcome.
    let joined = ts
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&bob.token),
            &json!({"seat": 1, "entropy": "my dice: 3 5 1 6 ✓"}),
        )
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
}
on_both_backends!(entropy_with_control_characters_is_refused);

/// Registration refuses the names import used to take.
async fn registration_refuses_invisible_and_control_names(backend: Backend) {
    let ts = start(backend).await;
    // (A million characters is over the body limit there: a 413.)
    for name in bad_names().into_iter().filter(|n| n.len() < 1000) {
        let a = ts
            .post("/v1/players", None, &json!({ "display_name": name }))
            .await;
        a.assert_problem(422, "invalid_display_name");
    }
}
on_both_backends!(registration_refuses_invisible_and_control_names);

fn bad_names() -> Vec<String> {
    vec![
        String::new(),
        "x".repeat(1_000_000),
        "x".repeat(65),
        "two\nlines".to_owned(),
        "\u{1b}[2J\u{1b}[31mred".to_owned(),
        "\u{200B}\u{200B}\u{200B}".to_owned(),
        "\u{FEFF}\u{2060}".to_owned(),
        "nul\u{0}byte".to_owned(),
        "evil\u{202E}gpj.exe".to_owned(),
    ]
}

/// A finished bots-only game's JSON record.
async fn finished_record(ts: &TestServer, who: &Player) -> Value {
    let game = ts
        .create_game(
            who,
            "lost-heir",
            json!({"players": 2, "target": 5}),
            &["bot", "bot"],
            None,
        )
        .await;
    let id = game["id"].as_str().unwrap();
    ts.wait_finished(id, Duration::from_secs(120)).await;
    let a = ts
        .get(&format!("/v1/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json
}

async fn import_json(ts: &TestServer, who: &Player, record: &Value) -> Answer {
    ts.call(
        Method::POST,
        "/v1/records",
        Some(&who.token),
        Some(record),
        &[],
    )
    .await
}

/// Import applies registration's name rules and refuses unknown JSON
/// fields; nothing refused is stored, and a full list page stays small.
async fn import_follows_the_rules_of_every_other_door(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let record = finished_record(&ts, &ann).await;
    for name in bad_names() {
        let mut bad = record.clone();
        bad["players"][0] = json!(name);
        let a = import_json(&ts, &ann, &bad).await;
        assert_eq!(a.status.as_u16(), 422, "{name:?}: {}", a.text);
        // A newline cannot even be written in the text form the JSON is
        // checked through: a syntax error. Every other bad name is the
        // name rule's.
        if !name.contains('\n') {
            a.assert_problem(422, "invalid_display_name");
        }
    }

    let mut nul_entropy = record.clone();
    nul_entropy["entropy"][0] = json!("a\u{0}b");
    let a = import_json(&ts, &ann, &nul_entropy).await;
    assert_eq!(a.status.as_u16(), 422, "{}", a.text);

    for pointer in ["", "/rounds/0", "/result"] {
        let mut extra = record.clone();
        extra
            .pointer_mut(pointer)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert("smuggled".to_owned(), json!("x".repeat(1000)));
        let a = import_json(&ts, &ann, &extra).await;
        a.assert_problem(422, "record_syntax");
        assert!(a.text.contains("smuggled"), "{}", a.text);
    }

    let mut fine = record.clone();
    fine["players"] = json!(["  Zoë 🂡 ", "Bob"]);
    let a = import_json(&ts, &ann, &fine).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["seats"][0]["display_name"], "Zoë 🂡");

    // The bots' game and the one import: nothing refused was stored.
    let listed = ts.get("/v1/games?limit=200", None).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.json["games"].as_array().unwrap().len(), 2);
    assert!(listed.text.len() < 8 * 1024, "{} bytes", listed.text.len());
}
on_both_backends!(import_follows_the_rules_of_every_other_door);

/// The fields of an open game anyone can see, less what a seat change is
/// meant to change.
fn visible_except_seats(game: &Value) -> Value {
    let mut game = game.clone();
    let object = game.as_object_mut().unwrap();
    for field in ["seats", "version", "updated_at", "your_seat", "viewer"] {
        object.remove(field);
    }
    game
}

/// Nothing derived from the dealing seed shows while a game is open (no
/// hand, no dealer), so leaving and rejoining with other entropy changes
/// nothing anyone sees but the seats; the deal appears with the start.
async fn an_open_table_shows_nothing_dealt(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let carol = ts.register("Carol").await;
    let id = open_three_seat_game(&ts, &ann).await;
    let join = |entropy: String| {
        let ts = &ts;
        let bob = &bob;
        let id = &id;
        async move {
            ts.post(
                &format!("/v1/games/{id}/join"),
                Some(&bob.token),
                &json!({"seat": 1, "entropy": entropy}),
            )
            .await
        }
    };
    let mut seen = Vec::new();
    for attempt in 0..6 {
        let joined = join(format!("roll {attempt}")).await;
        assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
        for token in [None, Some(ann.token.as_str()), Some(bob.token.as_str())] {
            let game = ts.game(&id, token).await;
            assert_eq!(game.json["status"], "open");
            assert_eq!(game.json["view"], json!({}), "{}", game.text);
            assert_eq!(game.json["to_act"], json!([]));
            seen.push(visible_except_seats(&game.json));
        }
        let (events, _) = ts.all_events(&id, Some(&bob.token)).await;
        for event in &events {
            assert!(
                event["type"].as_str().unwrap().starts_with("seat"),
                "{event}"
            );
        }
        let left = ts
            .post(
                &format!("/v1/games/{id}/leave"),
                Some(&bob.token),
                &json!({}),
            )
            .await;
        assert_eq!(left.status, StatusCode::OK, "{}", left.text);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:#?}");
    ts.get(&format!("/v1/games/{id}/replay"), None)
        .await
        .assert_problem(409, "game_not_started");

    // Once every seat is filled the deal is shown.
    assert_eq!(ts.join(&bob, &id, Some(1)).await.status, StatusCode::OK);
    assert_eq!(ts.join(&carol, &id, Some(2)).await.status, StatusCode::OK);
    let started = ts.game(&id, Some(&ann.token)).await;
    assert_eq!(started.json["status"], "in_progress", "{}", started.text);
    assert_ne!(started.json["view"], json!({}));
}
on_both_backends!(an_open_table_shows_nothing_dealt);

/// A Postgres URL with its host and port replaced by `address`.
fn via(url: &str, address: std::net::SocketAddr) -> String {
    let at = url
        .rfind('@')
        .map_or_else(|| url.find("://").unwrap() + 3, |i| i + 1);
    let slash = at + url[at..].find('/').unwrap();
    format!("{}{address}{}", &url[..at], &url[slash..])
}

/// A TCP relay to Postgres that can be frozen: bytes still arrive, nothing
/// is passed on either way, as when the server is stopped with SIGSTOP
/// (connections stay open, nothing answers, no timeout of its own fires).
struct FreezableRelay {
    address: std::net::SocketAddr,
    frozen: Arc<AtomicBool>,
}

impl FreezableRelay {
    async fn start(upstream: String) -> FreezableRelay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let frozen = Arc::new(AtomicBool::new(false));
        let flag = frozen.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
                    continue;
                };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                tokio::spawn(Self::pass(client_read, server_write, flag.clone()));
                tokio::spawn(Self::pass(server_read, client_write, flag.clone()));
            }
        });
        FreezableRelay { address, frozen }
    }

    async fn pass(
        mut from: tokio::net::tcp::OwnedReadHalf,
        mut to: tokio::net::tcp::OwnedWriteHalf,
        frozen: Arc<AtomicBool>,
    ) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut buffer = vec![0u8; 16 * 1024];
        loop {
            let Ok(n) = from.read(&mut buffer).await else {
                return;
            };
            if n == 0 {
                return;
            }
            while frozen.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if to.write_all(&buffer[..n]).await.is_err() {
                return;
            }
        }
    }

    fn freeze(&self, frozen: bool) {
        self.frozen.store(frozen, Ordering::SeqCst);
    }
}

/// A database that stops answering (frozen, not gone) is a 503
/// `unavailable` within `DB_TIMEOUT_MS`, not the request timeout's 503
/// `timeout`, for reads and writes alike; the server recovers when the
/// database does. Postgres only: an SQLite file cannot freeze this way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_database_answers_unavailable_within_the_db_timeout() {
    let database = tokio::task::spawn_blocking(|| Backend::Postgres.fresh_target())
        .await
        .unwrap();
    let DatabaseTarget::Postgres(url) = &*database else {
        unreachable!("a Postgres target")
    };
    let at = url.rfind('@').unwrap() + 1;
    let upstream = url[at..at + url[at..].find('/').unwrap()].to_owned();
    let relay = FreezableRelay::start(upstream).await;
    let db_timeout = Duration::from_millis(1500);
    let relayed = database.reached_through(DatabaseTarget::Postgres(via(url, relay.address)));
    let ts = start_tuned(relayed, |c| {
        // Room to spare: the background tasks (deadlines, notifications)
        // that hang on the frozen database must not be what refuses the
        // requests below by leaving no connection to take.
        c.pool_size = 32;
        c.request_timeout = Duration::from_secs(8);
        c.db_timeout = db_timeout;
    })
    .await;
    let ann = ts.register("Ann").await;
    let id = open_three_seat_game(&ts, &ann).await;

    relay.freeze(true);
    let bob_body = json!({"display_name": "Bob"});
    let requests: [(Method, String, Option<&Value>); 4] = [
        (Method::GET, format!("/v1/games/{id}"), None),
        (Method::GET, "/v1/games".to_owned(), None),
        (Method::POST, "/v1/players".to_owned(), Some(&bob_body)),
        (Method::GET, "/readyz".to_owned(), None),
    ];
    for (method, path, body) in requests {
        let began = Instant::now();
        let a = ts.call(method, &path, None, body, &[]).await;
        let took = began.elapsed();
        eprintln!("{path}: {took:?} {}", a.text);
        a.assert_problem(503, "unavailable");
        assert!(
            took < db_timeout + Duration::from_millis(700),
            "{path} took {took:?}"
        );
    }

    relay.freeze(false);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let a = ts.game(&id, None).await;
        if a.status == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "no recovery: {}", a.text);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Servers started at the same moment on a new Postgres database all
/// start (their migrations wait on one advisory lock), and the schema is
/// whole: a game can be created and read through either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_started_together_on_a_new_database_all_start() {
    for _ in 0..4 {
        let target = tokio::task::spawn_blocking(|| Backend::Postgres.fresh_target())
            .await
            .unwrap();
        let (a, b, c) = tokio::join!(
            start_on(target.clone()),
            start_on(target.clone()),
            start_on(target.clone())
        );
        let ann = a.register("Ann").await;
        let id = open_three_seat_game(&b, &ann).await;
        let seen = c.game(&id, None).await;
        assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    }
}

/// With a tiny `IDLE_PLAYER_TTL_SECS`, a player who never used the server
/// is removed (its token answers 401 `unknown_player`), while players who
/// created, joined, or joined and left a game stay.
async fn unused_players_expire_and_players_in_use_stay(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    // Three seconds: long enough that the players in use are seated before
    // the sweep may take them on a loaded machine (a join that loses that
    // race is `a_join_racing_the_sweep_of_unused_players_is_unknown_player`).
    let ts = start_tuned(target, |c| c.idle_player_ttl = Some(Duration::from_secs(3))).await;
    let idle = ts.register("Idle").await;
    let host = ts.register("Host").await;
    let guest = ts.register("Guest").await;
    let leaver = ts.register("Leaver").await;
    let id = open_three_seat_game(&ts, &host).await;
    assert_eq!(ts.join(&leaver, &id, Some(2)).await.status, StatusCode::OK);
    let left = ts
        .post(
            &format!("/v1/games/{id}/leave"),
            Some(&leaver.token),
            &json!({}),
        )
        .await;
    assert_eq!(left.status, StatusCode::OK, "{}", left.text);
    assert_eq!(ts.join(&guest, &id, Some(1)).await.status, StatusCode::OK);

    // Asked of the store, not over HTTP: a request that checks the player
    // (creating a game) would make it a player in use.
    let db = ts.server.state.games.db().clone();
    let deadline = Instant::now() + Duration::from_secs(15);
    while db.player(&idle.id).await.unwrap().is_some() {
        assert!(Instant::now() < deadline, "the unused player never expired");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let refused = ts
        .post(
            "/v1/games",
            Some(&idle.token),
            &json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["open", "open"]}),
        )
        .await;
    refused.assert_problem(401, "unknown_player");
    // Well past the TTL (several sweeps), the players in use are all kept.
    tokio::time::sleep(Duration::from_secs(4)).await;
    for player in [&host, &guest, &leaver] {
        assert!(
            db.player(&player.id).await.unwrap().is_some(),
            "{}",
            player.name
        );
    }
    let a = ts.get(&format!("/v1/games/{id}"), Some(&guest.token)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}
on_both_backends!(unused_players_expire_and_players_in_use_stay);

/// An answer the test does not read: the service's join wants one.
struct NoAnswer;

impl api::games::Render for NoAnswer {
    fn render(
        &self,
        _after: api::games::SnapshotRef<'_>,
        _first_seq: i64,
    ) -> Result<api::idempotency::Stored, api::games::ServiceError> {
        Ok(api::idempotency::Stored {
            status: 200,
            body: "{}".into(),
            location: None,
            version: None,
            replayed: false,
        })
    }
}

/// The sweep of unused players may remove a player between the check of
/// its token and its join (seen under load with a tiny TTL): the join is
/// then 401 `unknown_player`, as for any token whose player is gone, and
/// the seat stays open; never a 500.
async fn a_join_racing_the_sweep_of_unused_players_is_unknown_player(backend: Backend) {
    let ts = start(backend).await;
    let host = ts.register("Host").await;
    let guest = ts.register("Guest").await;
    let id = open_three_seat_game(&ts, &host).await;
    let db = ts.server.state.games.db().clone();
    // The row the token check read, then the sweep, then the join.
    let checked = db.player(&guest.id).await.unwrap().unwrap();
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    assert!(db.delete_unused_players(later, 100).await.unwrap() >= 1);
    let refused = ts
        .server
        .state
        .games
        .join(&id, &checked, Some(1), None, None, &NoAnswer)
        .await
        .unwrap_err();
    let problem = api::error::ApiError::from(refused);
    assert_eq!(problem.status().as_u16(), 401, "{problem:?}");
    assert_eq!(problem.code(), "unknown_player");
    let game = ts.game(&id, None).await.json;
    assert!(game["seats"][1]["player_id"].is_null(), "{game}");
}
on_both_backends!(a_join_racing_the_sweep_of_unused_players_is_unknown_player);
