//! Operators' view: request ids, `/metrics`, the rate limit (429 with
//! `Retry-After`), and the database outage answer (503, not 500).

use std::time::Duration;

use crate::common::{Backend, TestServer, rng};
use api::config::Config;
use serde_json::json;

/// A server like `crate::common::start`, with `tune` applied to its config.
async fn start_with(tune: impl FnOnce(&mut Config)) -> TestServer {
    let target = Backend::Sqlite.fresh_target();
    let data_dir = test_db::fresh_temp_dir();
    let mut config = Config {
        port: 0,
        database: Some((*target).clone()),
        data_dir: data_dir.path().to_path_buf(),
        jwt_secret: Some(crate::common::JWT_SECRET.to_owned()),
        pool_size: 4,
        ..Config::default()
    };
    tune(&mut config);
    let server = api::app::spawn(config).await.expect("server starts");
    TestServer {
        server,
        client: crate::common::test_client(),
        target,
        data_dir,
    }
}

#[tokio::test]
async fn request_ids_are_echoed_and_named_in_problems() {
    let ts = crate::common::start(Backend::Sqlite).await;
    let a = ts
        .call(
            reqwest::Method::GET,
            "/v1/games/nope",
            None,
            None,
            &[("x-request-id", "trace-42.a")],
        )
        .await;
    a.assert_problem(404, "game_not_found");
    assert_eq!(a.header("x-request-id"), Some("trace-42.a"));
    assert_eq!(a.json["request_id"], "trace-42.a");

    // Without one (or with an unusable one) the server makes one up.
    let b = ts
        .call(
            reqwest::Method::GET,
            "/healthz",
            None,
            None,
            &[("x-request-id", "a b")],
        )
        .await;
    let id = b.header("x-request-id").expect("an id");
    assert_ne!(id, "a b");
    assert_eq!(id.len(), 36, "a UUID: {id}");
}

#[tokio::test]
async fn metrics_count_requests_moves_appends_and_games() {
    let ts = crate::common::start(Backend::Sqlite).await;
    let ada = ts.register("Ada").await;
    let game = ts
        .create_game(
            &ada,
            "lost-heir",
            json!({"players": 2, "target": 10}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap();
    // One human move (bots answer on their own).
    let mut rng = rng(7);
    let mut moved = false;
    for _ in 0..200 {
        let legal = ts.legal(&ada, id).await;
        if legal.json["count"].as_u64().unwrap_or(0) > 0 {
            let mv = crate::common::random_move(&legal.json, &mut rng);
            let a = ts.post_move(&ada, id, &mv).await;
            assert_eq!(a.status.as_u16(), 200, "{}", a.text);
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(moved, "the human never had a move");

    let m = ts.get("/metrics", None).await;
    assert_eq!(m.status.as_u16(), 200);
    assert!(m.header("content-type").unwrap().starts_with("text/plain"));
    let value = |name: &str| -> f64 {
        m.text
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing:\n{}", m.text))
    };
    assert!(value("cards_appends_total") >= 1.0, "at least the move");
    assert!(value("cards_move_latency_seconds_count") >= 1.0);
    assert!(value("cards_state_cache_size") >= 1.0);
    assert_eq!(value("cards_active_games"), 1.0);
    assert_eq!(value("cards_open_streams"), 0.0);
    assert!(
        value(
            "cards_http_requests_total{method=\"POST\",route=\"/v1/games/{game_id}/moves\",status=\"200\"}"
        ) >= 1.0
    );
    assert!(
        value("cards_http_requests_total{method=\"POST\",route=\"/v1/players\",status=\"201\"}")
            >= 1.0
    );
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after_per_client() {
    let ts = start_with(|c| {
        c.rate_limit = 0.5;
        c.rate_burst = 3.0;
    })
    .await;
    // Anonymous: per IP. Three registrations pass, the fourth is refused.
    let ada = ts.register("Ada").await;
    let bob = ts.register("Bob").await;
    ts.register("Cy").await;
    let refused = ts
        .post("/v1/players", None, &json!({"display_name": "Dee"}))
        .await;
    refused.assert_problem(429, "rate_limited");
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    // Probes are never limited.
    assert_eq!(ts.get("/healthz", None).await.status.as_u16(), 200);

    // With a token: per token, each its own bucket.
    for _ in 0..3 {
        assert_eq!(
            ts.get("/v1/games", Some(&ada.token)).await.status.as_u16(),
            200
        );
    }
    ts.get("/v1/games", Some(&ada.token))
        .await
        .assert_problem(429, "rate_limited");
    assert_eq!(
        ts.get("/v1/games", Some(&bob.token)).await.status.as_u16(),
        200
    );

    let m = ts.get("/metrics", None).await;
    assert!(
        m.text.contains("cards_rate_limited_total 2\n"),
        "{}",
        m.text
    );
}

#[tokio::test]
async fn a_lost_database_is_a_prompt_503_and_readyz_fails() {
    // SQLite: remove the file's directory's permissions is unreliable as
    // root, so close the door at the pool instead: a 1-connection pool held
    // by a slow statement makes the next request wait past DB_TIMEOUT_MS.
    let ts = start_with(|c| {
        c.pool_size = 1;
        c.db_timeout = Duration::from_millis(200);
        c.request_timeout = Duration::from_secs(5);
    })
    .await;
    let db = ts.server.state.games.db().clone();
    let holder = tokio::spawn(async move {
        // Holds the only connection for 1.5 s.
        db.hold_connection_for_test(Duration::from_millis(1500))
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let a = ts.get("/readyz", None).await;
    a.assert_problem(503, "unavailable");
    let b = ts.get("/v1/games", None).await;
    b.assert_problem(503, "unavailable");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "answered after {:?}",
        started.elapsed()
    );
    holder.await.unwrap().unwrap();
    assert_eq!(ts.get("/readyz", None).await.status.as_u16(), 200);
}

#[tokio::test]
async fn a_request_past_the_timeout_is_a_503_timeout_with_its_id() {
    let ts = start_with(|c| {
        c.pool_size = 1;
        c.db_timeout = Duration::from_secs(5);
        c.request_timeout = Duration::from_millis(200);
    })
    .await;
    let db = ts.server.state.games.db().clone();
    let holder = tokio::spawn(async move {
        db.hold_connection_for_test(Duration::from_millis(800))
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let a = ts
        .call(
            reqwest::Method::GET,
            "/v1/games",
            None,
            None,
            &[("x-request-id", "slow-1")],
        )
        .await;
    a.assert_problem(503, "timeout");
    assert_eq!(a.json["request_id"], "slow-1");
    assert_eq!(a.header("x-request-id"), Some("slow-1"));
    assert!(started.elapsed() < Duration::from_millis(600));
    holder.await.unwrap().unwrap();
    let m = ts.get("/metrics", None).await;
    assert!(
        m.text.contains("cards_request_timeouts_total 1\n"),
        "{}",
        m.text
    );
}

/// A server on a fresh `backend` database with `tune` applied.
async fn start_on_with(backend: Backend, tune: impl FnOnce(&mut Config)) -> TestServer {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    crate::common::start_tuned(target, tune).await
}

/// `GET /v1/games` with this raw `Authorization` value; the status.
async fn list_with(ts: &TestServer, authorization: &str) -> u16 {
    ts.call(
        reqwest::Method::GET,
        "/v1/games",
        None,
        None,
        &[("authorization", authorization)],
    )
    .await
    .status
    .as_u16()
}

async fn the_rate_limit_keys_on_the_player_then_the_peer(backend: Backend) {
    let ts = start_on_with(backend, |c| {
        c.rate_limit = 0.2;
        c.rate_burst = 5.0;
    })
    .await;
    // The peer's bucket: 1 of 5.
    let ada = ts.register("Ada").await;
    // The player's bucket: the same token written five ways is one client.
    let t = &ada.token;
    for written in [
        format!("Bearer {t}"),
        format!("bearer {t}"),
        format!("BEARER   {t}  "),
        format!("  Bearer {t}"),
        format!("Bearer\t{t}"),
    ] {
        assert_eq!(list_with(&ts, &written).await, 200, "{written:?}");
    }
    assert_eq!(list_with(&ts, &format!("Bearer   {t}   ")).await, 429);
    // Another token of the same player shares the bucket.
    let keys = api::auth::Keys::new(
        crate::common::JWT_SECRET.as_bytes(),
        Duration::from_secs(60),
    )
    .unwrap();
    let second = keys.issue(&ada.id).unwrap().0;
    assert_eq!(list_with(&ts, &format!("Bearer {second}")).await, 429);
    // So does a stream ticket of hers in `?ticket=` (else: the peer's
    // bucket, and a 404 for this game nobody created).
    let parent = api::auth::Authenticated {
        player_id: ada.id.clone(),
        token_id: "jti:parent".into(),
        expires_at: chrono::Utc::now(),
        issued_at: 0,
    };
    let ticket = keys.issue_ticket(&parent).unwrap().0;
    let nowhere = "/v1/games/00000000-0000-4000-8000-000000000000/events/wait";
    ts.get(
        &format!("{nowhere}?after=0&timeout=0&ticket={ticket}"),
        None,
    )
    .await
    .assert_problem(429, "rate_limited");

    // Garbage tokens count against the peer (4 left), each new one too.
    for i in 0..4 {
        assert_eq!(list_with(&ts, &format!("Bearer garbage-{i}")).await, 401);
    }
    ts.call(
        reqwest::Method::GET,
        "/v1/games",
        None,
        None,
        &[("authorization", "Bearer garbage-new")],
    )
    .await
    .assert_problem(429, "rate_limited");
    // And so does an anonymous request from the same peer.
    ts.get("/v1/games", None)
        .await
        .assert_problem(429, "rate_limited");
}
on_both_backends!(the_rate_limit_keys_on_the_player_then_the_peer);

/// The request series in a `/metrics` exposition.
fn request_series(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("cards_http_requests_total{"))
        .count()
}

async fn made_up_methods_and_paths_leave_metrics_bounded(backend: Backend) {
    use futures_util::StreamExt as _;
    let ts = start_on_with(backend, |c| c.rate_limit = 0.0).await;
    // Made-up methods on a real route and on made-up paths, made-up paths
    // with a real method.
    let answered: Vec<u16> = futures_util::stream::iter(0..2_000)
        .map(|i| {
            let (method, path) = match i % 3 {
                0 => (format!("FOO{i}"), "/v1/games".to_owned()),
                1 => (format!("BAR{i}"), format!("/made/up/{i}")),
                _ => ("GET".to_owned(), format!("/v1/made/up/{i}")),
            };
            let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
            let ts = &ts;
            async move {
                ts.call(method, &path, None, None, &[])
                    .await
                    .status
                    .as_u16()
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    assert!(
        answered.iter().all(|s| (400..500).contains(s)),
        "all refused"
    );
    let m = ts.get("/metrics", None).await;
    let series = request_series(&m.text);
    assert!(series <= 6, "{series} series:\n{}", m.text);
    assert!(m.text.contains("method=\"OTHER\""), "{}", m.text);
    assert!(m.text.contains("route=\"unmatched\""), "{}", m.text);
    assert!(!m.text.contains("FOO"), "no made-up method is a label");
    assert!(!m.text.contains("/made/up"), "no path is a label");
    assert!(m.text.len() < 16 * 1024, "{} bytes", m.text.len());
}
on_both_backends!(made_up_methods_and_paths_leave_metrics_bounded);

async fn metrics_token_protects_the_scrape(backend: Backend) {
    const TOKEN: &str = "scrape-me-0123456789";
    let ts = start_on_with(backend, |c| c.metrics_token = Some(TOKEN.to_owned())).await;
    ts.get("/metrics", None)
        .await
        .assert_problem(401, "metrics_token");
    ts.get("/metrics", Some("scrape-me-012345678X"))
        .await
        .assert_problem(401, "metrics_token");
    // A player's token is not the metrics token.
    let ada = ts.register("Ada").await;
    ts.get("/metrics", Some(&ada.token))
        .await
        .assert_problem(401, "metrics_token");
    let ok = ts.get("/metrics", Some(TOKEN)).await;
    assert_eq!(ok.status.as_u16(), 200, "{}", ok.text);
    assert!(ok.text.contains("cards_appends_total"));
    // Probes stay open.
    assert_eq!(ts.get("/healthz", None).await.status.as_u16(), 200);
}
on_both_backends!(metrics_token_protects_the_scrape);

/// With Postgres, a request's queries run on a pool of its HTTP worker's
/// own, whose connections live on the worker's thread (no hop to another
/// thread and back per query); with SQLite there is one shared pool.
async fn requests_query_on_their_workers_pools(backend: Backend) {
    let ts = crate::common::start(backend).await;
    let ann = ts.register("Ann").await;
    for _ in 0..8 {
        assert_eq!(
            ts.get("/v1/games", Some(&ann.token)).await.status.as_u16(),
            200
        );
    }
    let pools = || ts.server.state.games.db().worker_pools();
    let before = pools();
    let workers = Config::default().workers;
    match backend {
        Backend::Postgres => assert!((1..=workers).contains(&before), "{before} pools"),
        Backend::Sqlite => assert_eq!(before, 0),
    }
    // The scrape itself queries the database (games in progress), and may
    // land on a worker with no pool yet, which then makes one: the count it
    // reports lies between the counts read before and after it.
    let metrics = ts.get("/metrics", None).await;
    let after = pools();
    assert!(after <= workers, "{after} pools");
    let reported: usize = metrics
        .text
        .lines()
        .find_map(|line| line.strip_prefix("cards_db_worker_pools "))
        .unwrap_or_else(|| panic!("no cards_db_worker_pools: {}", metrics.text))
        .parse()
        .expect("a count");
    assert!(
        (before..=after).contains(&reported),
        "reported {reported}, counted {before} before and {after} after"
    );
    ts.server.stop().await;
}

on_both_backends!(requests_query_on_their_workers_pools);

/// One sample line of an exposition: its name, labels and value.
fn parse_sample(line: &str) -> (String, Vec<(String, String)>, f64) {
    let (series, value) = line.rsplit_once(' ').expect("a value");
    let value = value.parse().unwrap_or_else(|_| panic!("a number: {line}"));
    let Some((name, rest)) = series.split_once('{') else {
        return (series.to_owned(), Vec::new(), value);
    };
    let mut labels = Vec::new();
    let mut chars = rest.chars();
    loop {
        let key: String = chars.by_ref().take_while(|c| *c != '=').collect();
        assert_eq!(chars.next(), Some('"'), "a quoted value: {line}");
        let mut value = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.push(chars.next().expect("an escaped character")),
                '"' => break,
                c => value.push(c),
            }
        }
        labels.push((key, value));
        match chars.next() {
            Some(',') => continue,
            Some('}') => break,
            other => panic!("{other:?} after a label: {line}"),
        }
    }
    (name.to_owned(), labels, value)
}

/// Every metric family of `/metrics`, with its type and help text exactly
/// as operators' dashboards and alerts know them, each sample under a
/// declared family, the request counter's labels exactly method, route and
/// status, and the histograms' buckets the fixed ones, cumulative, ending
/// in `+Inf` = the count. The exposition format 0.0.4 names a counter's
/// family with its `_total`.
#[tokio::test]
async fn every_metric_family_keeps_its_name_type_help_and_labels() {
    use std::collections::BTreeMap;
    const FAMILIES: &[(&str, &str, &str)] = &[
        (
            "cards_http_requests_total",
            "counter",
            "HTTP requests answered, by route pattern and status.",
        ),
        (
            "cards_move_latency_seconds",
            "histogram",
            "post_move latency (request to response head).",
        ),
        (
            "cards_expert_think_seconds",
            "histogram",
            "Time each expert bot decision searched (BOT_THINKERS at once).",
        ),
        (
            "cards_appends_total",
            "counter",
            "Transactions appended to game logs.",
        ),
        (
            "cards_append_conflicts_retried_total",
            "counter",
            "Appends that met a concurrent change and were decided again.",
        ),
        (
            "cards_state_cache_hits_total",
            "counter",
            "Changes and reads served from a cached state.",
        ),
        (
            "cards_state_cache_misses_total",
            "counter",
            "Game states rebuilt by folding the whole log.",
        ),
        (
            "cards_stream_log_reads_total",
            "counter",
            "Log pages read by game streams.",
        ),
        (
            "cards_stream_appends_handed_total",
            "counter",
            "Appends game streams sent as handed over by this process's append, without a read.",
        ),
        (
            "cards_appends_heard_total",
            "counter",
            "Appends of other api processes heard on LISTEN (Postgres).",
        ),
        (
            "cards_stream_frames_shared_total",
            "counter",
            "Frames game streams sent as another spectator's stream rendered them (an append's, a fresh stream's snapshot).",
        ),
        (
            "cards_experts_refused_total",
            "counter",
            "Expert bot decisions made by the sensible bot because the thinkers' queues were full.",
        ),
        (
            "cards_rate_limited_total",
            "counter",
            "Requests refused with 429 by the rate limit.",
        ),
        (
            "cards_request_timeouts_total",
            "counter",
            "Requests answered 503 after the request timeout.",
        ),
        (
            "cards_state_cache_size",
            "gauge",
            "Game states held in the cache.",
        ),
        (
            "cards_state_cache_capacity",
            "gauge",
            "Most game states the cache holds (STATE_CACHE).",
        ),
        (
            "cards_db_worker_pools",
            "gauge",
            "HTTP workers with a database pool of their own, made on their thread (Postgres).",
        ),
        ("cards_open_streams", "gauge", "Event streams open now."),
        (
            "cards_experts_thinking",
            "gauge",
            "Expert bot decisions being computed now.",
        ),
        (
            "cards_experts_waiting",
            "gauge",
            "Expert bot decisions waiting for a thinking permit.",
        ),
        (
            "cards_active_games",
            "gauge",
            "Games in progress (from the database).",
        ),
    ];
    let ts = crate::common::start(Backend::Sqlite).await;
    let ada = ts.register("Ada").await;
    ts.get("/v1/games", Some(&ada.token)).await;
    ts.get("/v1/games/nope", None).await;
    let m = ts.get("/metrics", None).await;
    assert_eq!(
        m.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );

    let (mut helps, mut types) = (BTreeMap::new(), BTreeMap::new());
    let mut samples = Vec::new();
    for line in m.text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').unwrap();
            assert!(helps.insert(name, help).is_none(), "one HELP: {name}");
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(types.insert(name, kind).is_none(), "one TYPE: {name}");
        } else {
            assert!(!line.starts_with('#'), "no other comment: {line}");
            samples.push(parse_sample(line));
        }
    }
    let expected: BTreeMap<_, _> = FAMILIES.iter().map(|(n, k, _)| (*n, *k)).collect();
    assert_eq!(types, expected, "{}", m.text);
    for (name, _, help) in FAMILIES {
        assert_eq!(helps.get(name), Some(help), "{name}");
    }

    let family_of = |sample: &str| -> &str {
        if let Some(kind) = types.get(sample) {
            assert_ne!(*kind, "histogram", "a histogram's samples are suffixed");
            return types.get_key_value(sample).unwrap().0;
        }
        ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| {
                let base = sample.strip_suffix(s)?;
                let (family, kind) = types.get_key_value(base)?;
                (*kind == "histogram").then_some(*family)
            })
            .unwrap_or_else(|| panic!("{sample} is in no declared family"))
    };
    let mut requests = 0;
    for (name, labels, _) in &samples {
        let family = family_of(name);
        let keys: Vec<&str> = labels.iter().map(|(k, _)| k.as_str()).collect();
        match family {
            "cards_http_requests_total" => {
                requests += 1;
                assert_eq!(keys, ["method", "route", "status"], "{name}");
            }
            _ if name.ends_with("_bucket") => assert_eq!(keys, ["le"], "{name}"),
            _ => assert!(keys.is_empty(), "{name} {labels:?}"),
        }
    }
    assert!(requests >= 3, "{}", m.text);
    assert!(m.text.contains(
        "cards_http_requests_total{method=\"GET\",route=\"/v1/games/{game_id}\",status=\"404\"} 1\n"
    ));

    let mut bounds: Vec<String> = api::metrics::LATENCY_BUCKETS
        .iter()
        .map(|b| b.to_string())
        .collect();
    bounds.push("+Inf".to_owned());
    for histogram in ["cards_move_latency_seconds", "cards_expert_think_seconds"] {
        let buckets: Vec<(&str, f64)> = samples
            .iter()
            .filter(|(n, _, _)| *n == format!("{histogram}_bucket"))
            .map(|(_, labels, v)| (labels[0].1.as_str(), *v))
            .collect();
        let les: Vec<&str> = buckets.iter().map(|(le, _)| *le).collect();
        assert_eq!(les, bounds, "{histogram}");
        assert!(buckets.windows(2).all(|w| w[0].1 <= w[1].1), "cumulative");
        let count = samples
            .iter()
            .find(|(n, _, _)| *n == format!("{histogram}_count"))
            .map(|(_, _, v)| *v);
        assert_eq!(count, Some(buckets.last().unwrap().1), "{histogram}");
        assert!(
            samples
                .iter()
                .any(|(n, _, _)| *n == format!("{histogram}_sum"))
        );
    }
}
