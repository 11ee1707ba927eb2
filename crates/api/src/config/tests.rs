//! The command line parsed in process, without the environment.

use super::*;

/// `args` as the command line, with no environment: clap reads the
/// process's, which is the developer's or CI's here, and a test may not
/// change it. tests/it/cli.rs runs the binary with variables set.
fn parse(args: &[&str]) -> Result<Config, clap::Error> {
    let command = command().mut_args(|arg| arg.env(None::<&str>));
    Config::from_command(command, std::iter::once("api").chain(args.iter().copied()))
}

fn refusal(args: &[&str]) -> String {
    parse(args).expect_err("refused").to_string()
}

/// Every setting's flag and variable, as they were before clap.
const SETTINGS: [(&str, &str); 47] = [
    ("bind", "BIND"),
    ("port", "PORT"),
    ("database-url", "DATABASE_URL"),
    ("data-dir", "DATA_DIR"),
    ("jwt-secret", "JWT_SECRET"),
    ("jwt-previous-secrets", "JWT_PREVIOUS_SECRETS"),
    ("token-ttl-secs", "TOKEN_TTL_SECS"),
    ("db-pool-size", "DB_POOL_SIZE"),
    ("db-group-commit", "DB_GROUP_COMMIT"),
    ("db-groups-in-flight", "DB_GROUPS_IN_FLIGHT"),
    ("state-cache", "STATE_CACHE"),
    ("finished-cache", "FINISHED_CACHE"),
    ("body-limit", "BODY_LIMIT"),
    ("workers", "WORKERS"),
    ("rate-limit", "RATE_LIMIT"),
    ("rate-burst", "RATE_BURST"),
    ("metrics-token", "METRICS_TOKEN"),
    ("cors-origins", "CORS_ORIGINS"),
    ("request-timeout-ms", "REQUEST_TIMEOUT_MS"),
    ("db-timeout-ms", "DB_TIMEOUT_MS"),
    ("database-replica-url", "DATABASE_REPLICA_URL"),
    ("db-replica-pool-size", "DB_REPLICA_POOL_SIZE"),
    ("db-replica-max-lag-ms", "DB_REPLICA_MAX_LAG_MS"),
    ("spectator-gather-ms", "SPECTATOR_GATHER_MS"),
    ("streams-per-client", "STREAMS_PER_CLIENT"),
    ("anonymous-streams", "ANONYMOUS_STREAMS"),
    ("idle-player-ttl-secs", "IDLE_PLAYER_TTL_SECS"),
    ("expert-playouts", "EXPERT_PLAYOUTS"),
    ("bot-thinkers", "BOT_THINKERS"),
    ("bot-queue-max", "BOT_QUEUE_MAX"),
    ("bot-queue-per-player", "BOT_QUEUE_PER_PLAYER"),
    ("bot-games-per-player", "BOT_GAMES_PER_PLAYER"),
    ("chat-max-messages", "CHAT_MAX_MESSAGES"),
    ("chat-window-secs", "CHAT_WINDOW_SECS"),
    ("open-game-ttl-secs", "OPEN_GAME_TTL_SECS"),
    ("idempotency-ttl-secs", "IDEMPOTENCY_TTL_SECS"),
    ("webhook-delivery", "WEBHOOK_DELIVERY"),
    ("webhook-allow-private", "WEBHOOK_ALLOW_PRIVATE"),
    ("webhook-timeout-ms", "WEBHOOK_TIMEOUT_MS"),
    ("webhook-backoff-base-ms", "WEBHOOK_BACKOFF_BASE_MS"),
    ("webhook-max-attempts", "WEBHOOK_MAX_ATTEMPTS"),
    (
        "webhook-deadline-warning-share",
        "WEBHOOK_DEADLINE_WARNING_SHARE",
    ),
    ("webhook-retention-secs", "WEBHOOK_RETENTION_SECS"),
    ("seek-ttl-secs", "SEEK_TTL_SECS"),
    ("seeks-per-player", "SEEKS_PER_PLAYER"),
    ("seek-gather-ms", "SEEK_GATHER_MS"),
    ("log", "RUST_LOG"),
];

#[test]
fn every_setting_keeps_its_flag_and_variable() {
    // Not `command()`: it drops the variable of a setting set blank here.
    let command = Args::command();
    let mut named: Vec<(String, Option<String>)> = command
        .get_arguments()
        .filter_map(|arg| {
            let env = arg.get_env().map(|e| e.to_string_lossy().into_owned());
            Some((arg.get_long()?.to_owned(), env))
        })
        .collect();
    named.sort();
    let mut expected: Vec<(String, Option<String>)> = SETTINGS
        .iter()
        .map(|(flag, env)| (flag.to_string(), Some(env.to_string())))
        .chain(["print-openapi", "rebuild-ratings", "backup-to"].map(|f| (f.to_owned(), None)))
        .collect();
    expected.sort();
    assert_eq!(named, expected);
}

#[test]
fn the_defaults_are_config_default() {
    let parsed = parse(&[]).unwrap();
    assert_eq!(format!("{parsed:?}"), format!("{:?}", Config::default()));
}

#[test]
fn defaults_listen_on_localhost_8080_with_sqlite_under_data() {
    let c = parse(&[]).unwrap();
    assert_eq!(c.listen_addr().to_string(), "127.0.0.1:8080");
    assert_eq!(
        c.database_target(),
        DatabaseTarget::Sqlite(PathBuf::from("./data/cards.sqlite"))
    );
}

/// The variable's side is tested over the binary (tests/it/cli.rs).
#[test]
fn flags_override_env() {
    let c = parse(&[
        "--port=9001",
        "--bind",
        "0.0.0.0",
        "--database-url",
        "postgres://x@h/db",
    ])
    .unwrap();
    assert_eq!(c.port, 9001);
    assert_eq!(c.bind.to_string(), "0.0.0.0");
    assert_eq!(
        c.database_target(),
        DatabaseTarget::Postgres("postgres://x@h/db".into())
    );
}

#[test]
fn a_repeated_flag_keeps_its_last_value() {
    assert_eq!(parse(&["--port", "1", "--port=2"]).unwrap().port, 2);
}

#[test]
fn a_value_may_start_with_a_hyphen() {
    let key = format!("-{}", "k".repeat(40));
    let c = parse(&["--jwt-secret", &key]).unwrap();
    assert_eq!(c.jwt_secret, Some(key));
}

#[test]
fn the_spectators_spell_is_200_ms_unless_set_and_may_be_zero() {
    let gather = |args: &[&str]| parse(args).unwrap().spectator_gather;
    assert_eq!(gather(&[]), Duration::from_millis(200));
    assert_eq!(gather(&["--spectator-gather-ms", "0"]), Duration::ZERO);
    assert_eq!(
        gather(&["--spectator-gather-ms", "600"]),
        Duration::from_millis(600)
    );
}

/// Postgres commits up to 32 waiting moves together unless set; 1 turns
/// grouping off, 0 is refused.
#[test]
fn the_group_commit_is_32_unless_set_and_at_least_one() {
    let group = |args: &[&str]| parse(args).map(|c| c.group_commit);
    assert_eq!(group(&[]).unwrap(), 32);
    assert_eq!(group(&["--db-group-commit", "1"]).unwrap(), 1);
    assert!(group(&["--db-group-commit", "0"]).is_err());
}

/// One group of moves commits at a time unless set; 0 is refused.
#[test]
fn one_group_commits_at_a_time_unless_set() {
    let in_flight = |args: &[&str]| parse(args).map(|c| c.groups_in_flight);
    assert_eq!(in_flight(&[]).unwrap(), 1);
    assert_eq!(in_flight(&["--db-groups-in-flight", "2"]).unwrap(), 2);
    assert!(in_flight(&["--db-groups-in-flight", "0"]).is_err());
}

/// Quick play: a seek lives a positive time, a player holds at least one,
/// and the gathering spell is 0 to an hour.
#[test]
fn the_seek_settings_take_their_ranges() {
    let c = parse(&[
        "--seek-ttl-secs=60",
        "--seeks-per-player=2",
        "--seek-gather-ms=0",
    ])
    .unwrap();
    assert_eq!(c.seeks.ttl, Duration::from_secs(60));
    assert_eq!(c.seeks.per_player, 2);
    assert_eq!(c.seeks.gather, Duration::ZERO);
    let hour = parse(&["--seek-gather-ms=3600000"]).unwrap();
    assert_eq!(hour.seeks.gather, Duration::from_secs(3600));
    for bad in [
        "--seek-ttl-secs=0",
        "--seeks-per-player=0",
        "--seek-gather-ms=3600001",
    ] {
        assert!(parse(&[bad]).is_err(), "{bad} was taken");
    }
}

#[test]
fn a_zero_ttl_never_expires() {
    let c = parse(&[
        "--idle-player-ttl-secs=0",
        "--open-game-ttl-secs=0",
        "--idempotency-ttl-secs=0",
        "--webhook-retention-secs=0",
        "--token-ttl-secs=60",
    ])
    .unwrap();
    assert_eq!(c.idle_player_ttl, None);
    assert_eq!(c.open_game_ttl, None);
    assert_eq!(c.idempotency_ttl, None);
    assert_eq!(c.webhooks.retention, None);
    assert_eq!(c.token_ttl, Duration::from_secs(60));
}

#[test]
fn computed_defaults_give_way_to_a_setting() {
    let c = parse(&["--bot-thinkers", "3", "--expert-playouts", "50"]).unwrap();
    assert_eq!(c.bots.thinkers, 3);
    assert_eq!(c.bots.expert_playouts, Some(50));
}

#[test]
fn switches_take_a_value() {
    let c = parse(&["--webhook-delivery", "off", "--webhook-allow-private=yes"]).unwrap();
    assert!(!c.webhooks.deliver);
    assert!(c.webhooks.allow_private);
    assert!(parse(&["--webhook-delivery"]).is_err());
}

#[test]
fn cors_origins_are_any_a_list_or_none() {
    assert_eq!(CorsOrigins::parse("*"), Ok(CorsOrigins::Any));
    assert_eq!(CorsOrigins::parse("none"), Ok(CorsOrigins::None));
    assert_eq!(
        CorsOrigins::parse(" https://a.example, http://localhost:5173 "),
        Ok(CorsOrigins::Only(vec![
            "https://a.example".to_owned(),
            "http://localhost:5173".to_owned()
        ]))
    );
    let c = parse(&["--cors-origins", "none"]).unwrap();
    assert_eq!(c.cors, CorsOrigins::None);
}

#[test]
fn previous_secrets_are_a_comma_separated_list() {
    let (a, b) = ("a".repeat(32), "b".repeat(40));
    let c = parse(&["--jwt-previous-secrets", &format!(" {a}, {b} ,")]).unwrap();
    assert_eq!(c.jwt_previous_secrets, vec![a, b]);
}

#[test]
fn bad_input_is_reported() {
    assert!(parse(&["--port", "http"]).is_err());
    assert!(parse(&["--nope"]).is_err());
    assert!(parse(&["--port"]).is_err());
    assert!(parse(&["--jwt-secret", "short"]).is_err());
    let long = "k".repeat(32);
    assert!(parse(&["--jwt-previous-secrets", &format!("{long},short")]).is_err());
    assert!(parse(&["--metrics-token", "short"]).is_err());
    assert!(parse(&["--cors-origins", "https://a.example/path"]).is_err());
    assert!(parse(&["--cors-origins", "a.example"]).is_err());
    assert!(parse(&["--spectator-gather-ms", "5001"]).is_err());
    assert!(parse(&["--spectator-gather-ms", "-1"]).is_err());
    let help = parse(&["--help"]).expect_err("help is clap's error");
    assert_eq!(help.kind(), ErrorKind::DisplayHelp);
    assert!(parse_database_url("mysql://x").is_err());
}

#[test]
fn an_invalid_value_names_the_setting_and_why() {
    for (args, names, why) in [
        (["--port", "http"], "--port <PORT>", "invalid digit"),
        (["--workers", "0"], "--workers <WORKERS>", "above 0"),
        (
            ["--rate-limit", "-1"],
            "--rate-limit <RATE_LIMIT>",
            "not a rate",
        ),
        (
            ["--finished-cache", "x"],
            "--finished-cache <FINISHED_CACHE>",
            "whole",
        ),
        (
            ["--webhook-deadline-warning-share", "1"],
            "<WEBHOOK_DEADLINE_WARNING_SHARE>",
            "share",
        ),
        (
            ["--expert-playouts", "5000000000"],
            "--expert-playouts <EXPERT_PLAYOUTS>",
            "too large",
        ),
        (
            ["--open-game-ttl-secs", "soon"],
            "--open-game-ttl-secs <OPEN_GAME_TTL_SECS>",
            "seconds",
        ),
        (
            ["--cors-origins", "a.example"],
            "--cors-origins <CORS_ORIGINS>",
            "not an origin",
        ),
    ] {
        let message = refusal(&args);
        assert!(message.contains(names), "{message}");
        assert!(message.contains(why), "{message}");
        assert!(message.contains(args[1]), "the value is shown: {message}");
    }
}

#[test]
fn a_secret_is_never_repeated_in_a_refusal() {
    let long = "k".repeat(32);
    for (args, names) in [
        (
            ["--jwt-secret", "short-secret"],
            "--jwt-secret <JWT_SECRET>",
        ),
        (
            ["--metrics-token", "short-secret"],
            "--metrics-token <METRICS_TOKEN>",
        ),
        (
            ["--jwt-previous-secrets", &format!("{long},short-secret")],
            "--jwt-previous-secrets <JWT_PREVIOUS_SECRETS>",
        ),
        (
            ["--database-url", "mysql://u:short-secret@h/db"],
            "--database-url <DATABASE_URL>",
        ),
    ] {
        let message = refusal(&args);
        assert!(message.contains(names), "{message}");
        assert!(
            message.contains("at least") || message.contains("mysql"),
            "{message}"
        );
        assert!(!message.contains("short-secret"), "{message}");
        assert!(!message.contains(&long), "{message}");
    }
}

#[test]
fn unknown_flags_and_words_are_refused() {
    for args in [
        &["--nope"][..],
        &["serve"],
        &["-x"],
        &["--port", "1", "extra"],
    ] {
        let error = parse(args).expect_err("refused");
        assert_eq!(error.kind(), ErrorKind::UnknownArgument, "{args:?}");
    }
}

#[test]
fn a_replica_is_a_postgres_url_and_has_a_pool_and_a_lag_bound() {
    let c = parse(&[]).unwrap();
    assert_eq!(c.replica, ReplicaSettings::default());
    assert_eq!(c.replica.max_lag, Duration::from_millis(1000));
    let c = parse(&[
        "--database-replica-url",
        "postgres://r@standby/cards",
        "--db-replica-pool-size",
        "4",
        "--db-replica-max-lag-ms",
        "250",
    ])
    .unwrap();
    assert_eq!(c.replica.url.as_deref(), Some("postgres://r@standby/cards"));
    assert_eq!(c.replica.pool_size, 4);
    assert_eq!(c.replica.max_lag, Duration::from_millis(250));
    assert!(refusal(&["--database-replica-url", "sqlite://x.sqlite"]).contains("Postgres standby"));
    assert!(refusal(&["--db-replica-max-lag-ms", "0"]).contains("db-replica-max-lag-ms"));
    // The URL (a password) is never printed.
    let c = parse(&[
        "--database-replica-url",
        "postgres://r:hunter2pass@standby/cards",
    ])
    .unwrap();
    assert!(!format!("{c:?}").contains("hunter2pass"));
}
