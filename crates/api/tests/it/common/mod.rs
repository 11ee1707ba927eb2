//! Shared test support: a server per test on its own database (via
//! `test-db`), spoken to over real HTTP with reqwest.

#![allow(dead_code)]

pub mod contract;

use std::ops::Deref;
use std::sync::Arc;
use std::time::{Duration, Instant};

use api::app::RunningServer;
use api::config::{Config, DatabaseTarget};
use cards::{GameRng, Seed, random_below};
use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::{Value, json};

pub const JWT_SECRET: &str = "test-secret-0123456789abcdef0123456789abcdef";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

impl Backend {
    /// A fresh database of this backend, dropped when the last clone of the
    /// returned handle (and so the last server on it) is gone.
    pub fn fresh_target(self) -> TestDatabase {
        let owner = match self {
            Backend::Postgres => DatabaseOwner::Postgres(test_db::fresh_postgres_database()),
            Backend::Sqlite => DatabaseOwner::Sqlite(test_db::fresh_sqlite_file()),
        };
        let target = match &owner {
            DatabaseOwner::Postgres(db) => DatabaseTarget::Postgres(db.url().to_owned()),
            DatabaseOwner::Sqlite(file) => DatabaseTarget::Sqlite(file.path().to_path_buf()),
            DatabaseOwner::Elsewhere => unreachable!("a fresh database is owned here"),
        };
        TestDatabase {
            target,
            _owner: Arc::new(owner),
        }
    }
}

/// A test's database: where it is (derefs to the server's `DatabaseTarget`)
/// and, shared by every clone, the guard that drops it. Tests that restart a
/// server, or run two on one database, clone it into each `TestServer`, so
/// the database outlives all of them and goes when the test ends.
#[derive(Debug, Clone)]
pub struct TestDatabase {
    target: DatabaseTarget,
    _owner: Arc<DatabaseOwner>,
}

#[derive(Debug)]
enum DatabaseOwner {
    Postgres(test_db::PostgresDatabase),
    Sqlite(test_db::SqliteFile),
    /// Owned by the test (`TestDatabase::unowned`).
    Elsewhere,
}

impl TestDatabase {
    /// A database another guard owns (a replicated pair's, which the test
    /// holds): the handle only names it.
    pub fn unowned(target: DatabaseTarget) -> TestDatabase {
        TestDatabase {
            target,
            _owner: Arc::new(DatabaseOwner::Elsewhere),
        }
    }

    /// The same database (kept alive as long as this handle) reached
    /// through `target`, e.g. a relay in front of it.
    pub fn reached_through(&self, target: DatabaseTarget) -> TestDatabase {
        TestDatabase {
            target,
            _owner: Arc::clone(&self._owner),
        }
    }
}

impl Deref for TestDatabase {
    type Target = DatabaseTarget;

    fn deref(&self) -> &DatabaseTarget {
        &self.target
    }
}

/// A running server and a client for it. Holds its database and data dir,
/// so both go when the test is done with the server.
pub struct TestServer {
    pub server: RunningServer,
    pub client: reqwest::Client,
    pub target: TestDatabase,
    pub data_dir: test_db::TempDir,
}

/// A registered player.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
    pub name: String,
}

/// An HTTP answer: status, headers, the raw body and its JSON.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Answer {
    pub fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a problem+json error with this status and code.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.text);
        assert_eq!(self.code(), code, "{}", self.text);
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "{}",
            self.text
        );
        for field in ["type", "title", "status", "detail", "code"] {
            assert!(
                !self.json[field].is_null(),
                "problem lacks {field}: {}",
                self.text
            );
        }
    }
}

/// Reads an answer to `method path`, checked against the document
/// (`contract`): every test's answers are.
pub async fn read_answer(method: &Method, path: &str, response: reqwest::Response) -> Answer {
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body read");
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    let content_type = headers.get("content-type").and_then(|v| v.to_str().ok());
    contract::check(method, path, status.as_u16(), content_type, &text);
    Answer {
        status,
        headers,
        text,
        json,
    }
}

pub async fn start(backend: Backend) -> TestServer {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    start_on(target).await
}

pub async fn start_on(target: TestDatabase) -> TestServer {
    start_tuned(target, |_| {}).await
}

/// A server on `target` with the usual test settings, then `tune`.
pub async fn start_tuned(target: TestDatabase, tune: impl FnOnce(&mut Config)) -> TestServer {
    let data_dir = test_db::fresh_temp_dir();
    let mut config = Config {
        port: 0,
        database: Some(target.target.clone()),
        data_dir: data_dir.path().to_path_buf(),
        jwt_secret: Some(JWT_SECRET.to_owned()),
        pool_size: 6,
        workers: 2,
        body_limit: 16 * 1024,
        // Tests poll and race on purpose; `ops.rs` turns it on.
        rate_limit: 0.0,
        ..Config::default()
    };
    tune(&mut config);
    let server = api::app::spawn(config).await.expect("server starts");
    TestServer {
        server,
        client: test_client(),
        target,
        data_dir,
    }
}

/// The tests' HTTP client. It drops an idle connection before the server
/// would (actix closes one idle for 5 s): reusing one just as the server
/// closes it fails the request (`IncompleteMessage`), as a test that waits
/// several seconds between two requests once saw.
pub fn test_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(2))
        .build()
        .expect("an HTTP client")
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        self.server.url(path)
    }

    /// Sends a request; `body` as JSON when given.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = self.client.request(method.clone(), self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("request sent");
        read_answer(&method, path, response).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::GET, path, token, None, &[]).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Answer {
        self.call(Method::POST, path, token, Some(body), &[]).await
    }

    pub async fn register(&self, name: &str) -> Player {
        let a = self
            .post("/v1/players", None, &json!({ "display_name": name }))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        Player {
            id: a.json["player_id"].as_str().unwrap().to_owned(),
            token: a.json["token"].as_str().unwrap().to_owned(),
            name: name.to_owned(),
        }
    }

    /// Creates a game; returns its JSON (as the creator sees it).
    pub async fn create_game(
        &self,
        creator: &Player,
        kind: &str,
        config: Value,
        seats: &[&str],
        take_seat: Option<u8>,
    ) -> Value {
        let a = self
            .post(
                "/v1/games",
                Some(&creator.token),
                &json!({ "kind": kind, "config": config, "seats": seats, "take_seat": take_seat }),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        let id = a.json["id"].as_str().unwrap();
        assert_eq!(
            a.header("location"),
            Some(format!("/v1/games/{id}").as_str())
        );
        a.json
    }

    pub async fn join(&self, player: &Player, game_id: &str, seat: Option<u8>) -> Answer {
        self.post(
            &format!("/v1/games/{game_id}/join"),
            Some(&player.token),
            &json!({ "seat": seat }),
        )
        .await
    }

    /// Ann (seat 0) and Bob (seat 1) at a started 2-player Lost Heir game
    /// with `config`; returns them and the game id.
    pub async fn ann_and_bob_playing(&self, config: Value) -> (Player, Player, String) {
        let ann = self.register("Ann").await;
        let bob = self.register("Bob").await;
        let game = self
            .create_game(&ann, "lost-heir", config, &["open", "open"], Some(0))
            .await;
        let id = game["id"].as_str().unwrap().to_owned();
        let joined = self.join(&bob, &id, Some(1)).await;
        assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
        (ann, bob, id)
    }

    pub async fn game(&self, game_id: &str, token: Option<&str>) -> Answer {
        self.get(&format!("/v1/games/{game_id}"), token).await
    }

    pub async fn legal(&self, player: &Player, game_id: &str) -> Answer {
        self.get(
            &format!("/v1/games/{game_id}/legal-moves"),
            Some(&player.token),
        )
        .await
    }

    pub async fn post_move(&self, player: &Player, game_id: &str, mv: &Value) -> Answer {
        self.post(
            &format!("/v1/games/{game_id}/moves"),
            Some(&player.token),
            mv,
        )
        .await
    }

    /// Every event of the game, all pages, as `token` may see them.
    pub async fn all_events(
        &self,
        game_id: &str,
        token: Option<&str>,
    ) -> (Vec<Value>, Vec<Answer>) {
        let mut events = Vec::new();
        let mut pages = Vec::new();
        let mut after = 0;
        loop {
            let a = self
                .get(
                    &format!("/v1/games/{game_id}/events?after={after}&limit=500"),
                    token,
                )
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.text);
            events.extend(a.json["events"].as_array().unwrap().iter().cloned());
            let next = a.json["next_after"].as_i64();
            pages.push(a);
            match next {
                Some(n) => after = n,
                None => break,
            }
        }
        (events, pages)
    }

    /// Polls until the game is finished (bots play on their own).
    pub async fn wait_finished(&self, game_id: &str, timeout: Duration) -> Value {
        let start = Instant::now();
        loop {
            let a = self.game(game_id, None).await;
            if a.json["status"] == "finished" {
                return a.json;
            }
            assert!(
                start.elapsed() < timeout,
                "game {game_id} did not finish: {}",
                a.text
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Plays the game to its end: each human makes a uniformly random legal
    /// move from `get_legal_moves` whenever it must act; bots play on their own.
    pub async fn play_out(&self, game_id: &str, humans: &[Player], rng: &mut GameRng) -> usize {
        let mut moves = 0;
        let start = Instant::now();
        loop {
            let mut acted = false;
            for player in humans {
                let legal = self.legal(player, game_id).await;
                assert_eq!(legal.status, StatusCode::OK, "{}", legal.text);
                if legal.json["count"].as_u64().unwrap() == 0 {
                    continue;
                }
                let mv = random_move(&legal.json, rng);
                let a = self.post_move(player, game_id, &mv).await;
                assert_eq!(a.status, StatusCode::OK, "move {mv} refused: {}", a.text);
                // Bots may have moved since (simultaneous passing).
                assert!(a.json["seq"].as_i64().unwrap() > legal.json["version"].as_i64().unwrap());
                moves += 1;
                acted = true;
            }
            if !acted {
                let g = self.game(game_id, None).await;
                if g.json["status"] == "finished" {
                    return moves;
                }
                tokio::time::sleep(Duration::from_millis(3)).await;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "game {game_id} takes too long"
            );
        }
    }
}

/// A uniformly random move from a `get_legal_moves` answer: from the list
/// when given, else a random selection of `count` cards from `from`.
pub fn random_move(legal: &Value, rng: &mut GameRng) -> Value {
    if let Some(moves) = legal["moves"].as_array().filter(|m| !m.is_empty()) {
        let i = random_below(rng, moves.len() as u32) as usize;
        return moves[i].clone();
    }
    let description = &legal["legal"];
    let mut from: Vec<Value> = description["from"].as_array().expect("a selection").clone();
    let count = description["count"].as_u64().unwrap() as usize;
    let mut chosen = Vec::new();
    for _ in 0..count {
        let i = random_below(rng, from.len() as u32) as usize;
        chosen.push(from.swap_remove(i));
    }
    json!({ "type": description["prompt"], "cards": chosen })
}

pub fn rng(n: u64) -> GameRng {
    Seed::from_u64(n).rng()
}

/// The two tests that run `$name(Backend)` on each backend, as `$name::postgres`
/// and `$name::sqlite` (`cargo test $name` runs both).
#[allow(unused_macros)] // not every test file runs tests on both backends
macro_rules! on_both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name(crate::common::Backend::Postgres).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(crate::common::Backend::Sqlite).await;
            }
        }
    };
}

/// A game's view as a JSON value, to compare with an answer's `view`.
pub fn view_of(game: &dyn api::games::AnyGame, viewer: cards::Viewer) -> Value {
    serde_json::from_str(game.view(viewer).get()).expect("a view is JSON")
}

/// The player of `players` who must act in `game`, with a random legal move.
pub async fn to_act<'p>(
    ts: &TestServer,
    game: &str,
    players: &'p [Player],
    r: &mut cards::GameRng,
) -> Option<(&'p Player, Value)> {
    for player in players {
        let legal = ts.legal(player, game).await;
        assert_eq!(legal.status.as_u16(), 200, "{}", legal.text);
        if legal.json["count"].as_u64().unwrap() > 0 {
            return Some((player, random_move(&legal.json, r)));
        }
    }
    None
}
