//! Settings from environment variables and command-line flags (flags win).
//!
//! `--help` prints the table below. Parsing is by hand: the workspace has no
//! argument-parsing crate and the surface is small.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// The shortest accepted signing or verification key.
pub const MIN_SECRET_BYTES: usize = 32;

/// Seconds past its `exp` a token still verifies (clock skew between
/// processes). A logged-out token's revocation is kept at least this long
/// past its expiry, or it would verify again meanwhile (`db::tokens`).
pub const TOKEN_LEEWAY_SECS: u64 = 5;

/// Which database to store in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseTarget {
    /// A `postgres://` or `postgresql://` URL.
    Postgres(String),
    /// An SQLite file (created if missing).
    Sqlite(PathBuf),
}

/// The web origins a browser may call the api from (CORS). Credentials
/// are a bearer header, never cookies, so any origin is safe by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Every origin (`Access-Control-Allow-Origin: *`).
    Any,
    /// Only these, each `scheme://host[:port]` as a browser sends it.
    Only(Vec<String>),
    /// No CORS headers at all: browsers on other origins are refused.
    None,
}

impl CorsOrigins {
    pub fn parse(value: &str) -> Result<CorsOrigins, String> {
        match value.trim() {
            "*" => return Ok(CorsOrigins::Any),
            "none" | "" => return Ok(CorsOrigins::None),
            _ => {}
        }
        let origins: Vec<String> = value
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(str::to_owned)
            .collect();
        for origin in &origins {
            let rest = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            if rest.is_none_or(|host| host.is_empty() || host.contains(['/', ' ', '*'])) {
                return Err(format!(
                    "CORS_ORIGINS: `{origin}` is not an origin (scheme://host[:port], no path)"
                ));
            }
        }
        Ok(CorsOrigins::Only(origins))
    }
}

/// Everything the server needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: IpAddr,
    pub port: u16,
    /// `None`: an SQLite file `cards.sqlite` under `data_dir`.
    pub database: Option<DatabaseTarget>,
    pub data_dir: PathBuf,
    /// HS256 signing key; `None`: generated once and kept in `data_dir/jwt-secret`.
    pub jwt_secret: Option<String>,
    /// Keys that still verify tokens but sign none (key rotation).
    pub jwt_previous_secrets: Vec<String>,
    /// When set, `GET /metrics` needs `Authorization: Bearer <it>`.
    pub metrics_token: Option<String>,
    /// Which web origins may call the api from a browser (`ops::cors`).
    pub cors: CorsOrigins,
    pub token_ttl: Duration,
    pub pool_size: usize,
    pub cache_capacity: usize,
    /// Finished games whose replay, record and verification are kept in
    /// memory (`games::finished`); 0 = none.
    pub finished_cache: usize,
    pub body_limit: usize,
    pub workers: usize,
    /// Requests per second per client (the player of a valid bearer token,
    /// else the peer IP); 0 = no limit.
    pub rate_limit: f64,
    pub rate_burst: f64,
    /// The longest a request may take to produce its response head.
    pub request_timeout: Duration,
    /// The longest wait on the database for one query (the wait for a
    /// connection included): past it, a 503 `unavailable`.
    pub db_timeout: Duration,
    /// How long a spectator's game stream gathers a game's appends before
    /// sending them: one wake-up and one write per connection per spell
    /// instead of one per move. A write costs more than the frame (a system
    /// call, and on loopback the receiver's TCP work too), and a popular
    /// game's spectators get every move: 200 ms (the default) is about what
    /// a person watching notices and caps a fast game's writes at 5 a
    /// second per spectator (docs/performance.md, section 12). Zero sends
    /// each at once, as seats' streams always are.
    pub spectator_gather: Duration,
    /// Streams (game and player streams) one client may hold open: the
    /// player of a token or ticket, else the peer IP; 0 = no limit
    /// (`ops::stream_limits`).
    pub streams_per_client: usize,
    /// Streams without a token or ticket (spectators) open in all; 0 = no
    /// limit.
    pub anonymous_streams: usize,
    /// Players that never used the server are removed after this
    /// (`games::expiry`); `None`: never.
    pub idle_player_ttl: Option<Duration>,
    /// Open games nobody changed for this long are closed by the server,
    /// status `expired` (`games::expiry`); `None`: never.
    pub open_game_ttl: Option<Duration>,
    /// Idempotency records answer retries for this long, then are purged;
    /// `None`: kept for ever.
    pub idempotency_ttl: Option<Duration>,
    /// Table talk: at most this many messages per player and game within
    /// `chat_rate_window` (`games::chat`).
    pub chat_rate_max: i64,
    pub chat_rate_window: Duration,
    /// Webhook delivery (`games::webhooks`, docs/webhooks.md).
    pub webhooks: WebhookSettings,
    /// How the expert bot thinks (`games::bots`, docs/bots.md).
    pub bots: BotSettings,
    /// Quick play (`games::seeks`, docs/quick-play.md).
    pub seeks: SeekSettings,
    pub log_filter: String,
    /// Print the OpenAPI document and exit.
    pub print_openapi: bool,
    /// Recompute every rating from the log, rewrite what differs, and exit
    /// (docs/ratings.md).
    pub rebuild_ratings: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            database: None,
            data_dir: PathBuf::from("./data"),
            jwt_secret: None,
            jwt_previous_secrets: Vec::new(),
            metrics_token: None,
            cors: CorsOrigins::Any,
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            pool_size: 8,
            cache_capacity: 1024,
            finished_cache: 256,
            body_limit: 64 * 1024,
            workers: 2,
            rate_limit: 50.0,
            rate_burst: 100.0,
            request_timeout: Duration::from_secs(10),
            db_timeout: Duration::from_secs(5),
            spectator_gather: Duration::from_millis(200),
            streams_per_client: 32,
            anonymous_streams: 4096,
            idle_player_ttl: Some(Duration::from_secs(30 * 24 * 3600)),
            open_game_ttl: Some(Duration::from_secs(7 * 24 * 3600)),
            idempotency_ttl: Some(Duration::from_secs(24 * 3600)),
            chat_rate_max: 5,
            chat_rate_window: Duration::from_secs(10),
            webhooks: WebhookSettings::default(),
            bots: BotSettings::default(),
            seeks: SeekSettings::default(),
            log_filter: "info".to_owned(),
            print_openapi: false,
            rebuild_ratings: false,
        }
    }
}

/// How the expert bot thinks (docs/bots.md, "Levels").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotSettings {
    /// Playouts per expert decision (`cards::search::Budget`); `None`:
    /// each game's own (`cards::Determinize::DEFAULT_BUDGET`: Lost Heir
    /// 600, Cancellation Hearts 2,400, about the same time per decision).
    pub expert_playouts: Option<u32>,
    /// Expert decisions computed at once, each on its own blocking thread
    /// (never on an HTTP worker); further ones wait their turn, shared
    /// fairly between the games' creators.
    pub thinkers: usize,
    /// Expert decisions that may wait for a thinker, all players together;
    /// past it (or `queue_per_player`) a decision waits and asks again,
    /// and after about 10 s is the sensible bot's (`games::bots`).
    pub queue_max: usize,
    /// Expert decisions of one player's games that may wait at once.
    pub queue_per_player: usize,
    /// Open or running games with an expert bot seat, or with only bot
    /// seats, one player may have created; past it a new one is refused
    /// (409 `too_many_bot_games`). 0: no limit.
    pub games_per_player: usize,
}

impl Default for BotSettings {
    fn default() -> Self {
        BotSettings {
            expert_playouts: None,
            thinkers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            queue_max: 256,
            queue_per_player: 32,
            games_per_player: 10,
        }
    }
}

/// Quick play: how long seeks live, how many one player holds, how long
/// a table that could start smaller waits for more (docs/quick-play.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeekSettings {
    /// A seek that found no table in this long expires.
    pub ttl: Duration,
    /// Active seeks one player may hold at once (past it: 409
    /// `too_many_seeks`).
    pub per_player: usize,
    /// A group of seekers smaller than the largest table they all accept
    /// sits down at the size it has once nobody joined it for this long.
    pub gather: Duration,
}

impl Default for SeekSettings {
    fn default() -> Self {
        SeekSettings {
            ttl: Duration::from_secs(3600),
            per_player: 5,
            gather: Duration::from_secs(30),
        }
    }
}

/// How webhooks are delivered (docs/webhooks.md).
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// Whether this process delivers (every process may; off: the outbox
    /// is only written, e.g. for a process that must not call out).
    pub deliver: bool,
    /// Whether endpoints may be on loopback, private, link-local, CGNAT or
    /// unique-local addresses (refused by default: SSRF).
    pub allow_private: bool,
    /// The longest one request may take, connecting included.
    pub timeout: Duration,
    /// The wait before the first retry; each further one doubles it (at
    /// most an hour).
    pub backoff_base: Duration,
    /// Attempts before a delivery is given up (`failed`).
    pub max_attempts: u32,
    /// The share of a move clock after which `deadline_warning` is sent.
    pub deadline_warning_share: f64,
    /// Finished deliveries (delivered or failed) are purged this long
    /// after they finished (`games::expiry`); `None`: kept.
    pub retention: Option<Duration>,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        WebhookSettings {
            deliver: true,
            allow_private: false,
            timeout: Duration::from_secs(5),
            backoff_base: Duration::from_secs(2),
            max_attempts: 10,
            deadline_warning_share: 0.75,
            retention: Some(Duration::from_secs(7 * 24 * 3600)),
        }
    }
}

/// One setting: flag, environment variable, default, meaning.
struct Setting {
    flag: &'static str,
    env: &'static str,
    default: &'static str,
    help: &'static str,
    apply: fn(&mut Config, &str) -> Result<(), String>,
}

const SETTINGS: &[Setting] = &[
    Setting {
        flag: "--bind",
        env: "BIND",
        default: "127.0.0.1",
        help: "address to listen on",
        apply: |c, v| {
            c.bind = v.parse().map_err(|_| format!("not an IP address: {v}"))?;
            Ok(())
        },
    },
    Setting {
        flag: "--port",
        env: "PORT",
        default: "8080",
        help: "TCP port (0 = any free port)",
        apply: |c, v| {
            c.port = v.parse().map_err(|_| format!("not a port: {v}"))?;
            Ok(())
        },
    },
    Setting {
        flag: "--database-url",
        env: "DATABASE_URL",
        default: "sqlite file DATA_DIR/cards.sqlite",
        help: "postgres://… for Postgres; sqlite://PATH or a file path for SQLite",
        apply: |c, v| {
            c.database = Some(parse_database_url(v)?);
            Ok(())
        },
    },
    Setting {
        flag: "--data-dir",
        env: "DATA_DIR",
        default: "./data",
        help: "directory for the default SQLite file and the generated signing key",
        apply: |c, v| {
            c.data_dir = PathBuf::from(v);
            Ok(())
        },
    },
    Setting {
        flag: "--jwt-secret",
        env: "JWT_SECRET",
        default: "generated once, kept in DATA_DIR/jwt-secret",
        help: "HS256 key for bearer tokens (at least 32 bytes)",
        apply: |c, v| {
            if v.len() < MIN_SECRET_BYTES {
                return Err("JWT_SECRET must be at least 32 bytes".to_owned());
            }
            c.jwt_secret = Some(v.to_owned());
            Ok(())
        },
    },
    Setting {
        flag: "--jwt-previous-secrets",
        env: "JWT_PREVIOUS_SECRETS",
        default: "none",
        help: "comma-separated old keys that still verify tokens (each at least 32 bytes); remove one to refuse its tokens",
        apply: |c, v| {
            c.jwt_previous_secrets = parse_previous_secrets(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--token-ttl-secs",
        env: "TOKEN_TTL_SECS",
        default: "2592000 (30 days)",
        help: "lifetime of issued tokens",
        apply: |c, v| {
            c.token_ttl = Duration::from_secs(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--db-pool-size",
        env: "DB_POOL_SIZE",
        default: "8",
        help: "database connections per process for requests (Postgres: split among the HTTP workers, at least 2 each, each made on its worker's thread; and as many again for background work: bots, deadlines, webhooks, ratings)",
        apply: |c, v| {
            c.pool_size = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--state-cache",
        env: "STATE_CACHE",
        default: "1024",
        help: "game states kept in memory (least recently used are dropped)",
        apply: |c, v| {
            c.cache_capacity = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--finished-cache",
        env: "FINISHED_CACHE",
        default: "256",
        help: "finished games whose replay, record and verification are kept in memory once computed (least recently used are dropped); 0 = none",
        apply: |c, v| {
            c.finished_cache = v
                .trim()
                .parse()
                .map_err(|_| format!("`{v}` is not a count"))?;
            Ok(())
        },
    },
    Setting {
        flag: "--body-limit",
        env: "BODY_LIMIT",
        default: "65536",
        help: "largest accepted JSON request body, bytes",
        apply: |c, v| {
            c.body_limit = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--workers",
        env: "WORKERS",
        default: "2",
        help: "HTTP worker threads",
        apply: |c, v| {
            c.workers = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--rate-limit",
        env: "RATE_LIMIT",
        default: "50",
        help: "requests per second per player (valid bearer token), else per peer IP (X-Forwarded-For is ignored); 0 = off",
        apply: |c, v| {
            c.rate_limit = parse_rate(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--rate-burst",
        env: "RATE_BURST",
        default: "100",
        help: "requests a client may make at once before the rate applies",
        apply: |c, v| {
            c.rate_burst = parse_positive(v)? as f64;
            Ok(())
        },
    },
    Setting {
        flag: "--metrics-token",
        env: "METRICS_TOKEN",
        default: "none (/metrics is open)",
        help: "when set, GET /metrics needs `Authorization: Bearer <it>` (at least 16 bytes)",
        apply: |c, v| {
            if v.len() < 16 {
                return Err("METRICS_TOKEN must be at least 16 bytes".to_owned());
            }
            c.metrics_token = Some(v.to_owned());
            Ok(())
        },
    },
    Setting {
        flag: "--cors-origins",
        env: "CORS_ORIGINS",
        default: "* (any origin)",
        help: "web origins that may call the api from a browser: `*`, a comma-separated list (`https://table.example,http://localhost:5173`), or `none`",
        apply: |c, v| {
            c.cors = CorsOrigins::parse(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--request-timeout-ms",
        env: "REQUEST_TIMEOUT_MS",
        default: "10000",
        help: "a request still unanswered after this is dropped with 503 `timeout`",
        apply: |c, v| {
            c.request_timeout = Duration::from_millis(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--db-timeout-ms",
        env: "DB_TIMEOUT_MS",
        default: "5000",
        help: "longest wait on the database for one query, the pooled or new connection included; past it: 503 `unavailable`",
        apply: |c, v| {
            c.db_timeout = Duration::from_millis(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--spectator-gather-ms",
        env: "SPECTATOR_GATHER_MS",
        default: "200",
        help: "a spectator's game stream sends the moves made within this spell together, one write per spell (a popular game's spectators cost less CPU, and see moves this much later); 0 = each at once; at most 5000",
        apply: |c, v| {
            c.spectator_gather = Duration::from_millis(parse_gather_ms(v)?);
            Ok(())
        },
    },
    Setting {
        flag: "--streams-per-client",
        env: "STREAMS_PER_CLIENT",
        default: "32",
        help: "game and player streams one client may hold open (the player of a token or ticket, else the peer IP); past it: 429 `too_many_streams`; 0 = no limit",
        apply: |c, v| {
            c.streams_per_client = parse_count(v, "STREAMS_PER_CLIENT")?;
            Ok(())
        },
    },
    Setting {
        flag: "--anonymous-streams",
        env: "ANONYMOUS_STREAMS",
        default: "4096",
        help: "streams open without a token or ticket (spectators), in all; past it: 503 `too_many_streams`; 0 = no limit",
        apply: |c, v| {
            c.anonymous_streams = parse_count(v, "ANONYMOUS_STREAMS")?;
            Ok(())
        },
    },
    Setting {
        flag: "--idle-player-ttl-secs",
        env: "IDLE_PLAYER_TTL_SECS",
        default: "2592000 (30 days)",
        help: "a player that never created, joined or played a game is removed this long after registering; 0 = never",
        apply: |c, v| {
            c.idle_player_ttl = parse_ttl(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--expert-playouts",
        env: "EXPERT_PLAYOUTS",
        default: "each game's own",
        help: "the expert bot's playouts per decision, for every game (by default each game's own: Lost Heir 600, Cancellation Hearts 2400, at most about 100 ms on one core in a release build; docs/bots.md)",
        apply: |c, v| {
            c.bots.expert_playouts = Some(
                u32::try_from(parse_positive(v)?).map_err(|_| "at most 4294967295".to_owned())?,
            );
            Ok(())
        },
    },
    Setting {
        flag: "--bot-thinkers",
        env: "BOT_THINKERS",
        default: "the number of CPUs",
        help: "expert bot decisions computed at once, off the HTTP workers; more wait their turn, shared fairly between the games' creators (docs/bots.md)",
        apply: |c, v| {
            c.bots.thinkers = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--bot-queue-max",
        env: "BOT_QUEUE_MAX",
        default: "256",
        help: "expert bot decisions that may wait for a thinker, all players together; past it (or BOT_QUEUE_PER_PLAYER) a decision waits and asks again every 250 ms, and after 10 s is the sensible bot's",
        apply: |c, v| {
            c.bots.queue_max = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--bot-queue-per-player",
        env: "BOT_QUEUE_PER_PLAYER",
        default: "32",
        help: "expert bot decisions of the games one player created that may wait for a thinker at once",
        apply: |c, v| {
            c.bots.queue_per_player = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--bot-games-per-player",
        env: "BOT_GAMES_PER_PLAYER",
        default: "10",
        help: "open or running games with an expert bot seat, or with bots only, one player may have created; past it: 409 `too_many_bot_games`; 0 = no limit",
        apply: |c, v| {
            c.bots.games_per_player = v.parse().map_err(|_| format!("not a number: {v}"))?;
            Ok(())
        },
    },
    Setting {
        flag: "--chat-max-messages",
        env: "CHAT_MAX_MESSAGES",
        default: "5",
        help: "table talk: messages one player may post to one game within CHAT_WINDOW_SECS; past it: 429 `chat_rate_limited`",
        apply: |c, v| {
            c.chat_rate_max = parse_positive(v)? as i64;
            Ok(())
        },
    },
    Setting {
        flag: "--chat-window-secs",
        env: "CHAT_WINDOW_SECS",
        default: "10",
        help: "table talk: the window of CHAT_MAX_MESSAGES, seconds",
        apply: |c, v| {
            c.chat_rate_window = Duration::from_secs(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--open-game-ttl-secs",
        env: "OPEN_GAME_TTL_SECS",
        default: "604800 (7 days)",
        help: "an open game nobody joined, left or otherwise changed for this long is closed by the server (status `expired`); 0 = never",
        apply: |c, v| {
            c.open_game_ttl = parse_ttl(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--idempotency-ttl-secs",
        env: "IDEMPOTENCY_TTL_SECS",
        default: "86400 (24 h)",
        help: "an `Idempotency-Key` answers retries this long, then its record is purged and the key is new again; 0 = for ever",
        apply: |c, v| {
            c.idempotency_ttl = parse_ttl(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-delivery",
        env: "WEBHOOK_DELIVERY",
        default: "true",
        help: "whether this process sends webhook deliveries (the outbox is written either way)",
        apply: |c, v| {
            c.webhooks.deliver = parse_bool(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-allow-private",
        env: "WEBHOOK_ALLOW_PRIVATE",
        default: "false",
        help: "allow webhook endpoints on loopback, private, link-local, CGNAT and unique-local addresses",
        apply: |c, v| {
            c.webhooks.allow_private = parse_bool(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-timeout-ms",
        env: "WEBHOOK_TIMEOUT_MS",
        default: "5000",
        help: "the longest one webhook request may take",
        apply: |c, v| {
            c.webhooks.timeout = Duration::from_millis(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-backoff-base-ms",
        env: "WEBHOOK_BACKOFF_BASE_MS",
        default: "2000",
        help: "wait before the first webhook retry; doubled for each further one (at most 1 h)",
        apply: |c, v| {
            c.webhooks.backoff_base = Duration::from_millis(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-max-attempts",
        env: "WEBHOOK_MAX_ATTEMPTS",
        default: "10",
        help: "attempts before a webhook delivery is given up (status `failed`)",
        apply: |c, v| {
            c.webhooks.max_attempts =
                u32::try_from(parse_positive(v)?).map_err(|e| e.to_string())?;
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-deadline-warning-share",
        env: "WEBHOOK_DEADLINE_WARNING_SHARE",
        default: "0.75",
        help: "`deadline_warning` is sent when this share of a move clock has passed (0 < share < 1)",
        apply: |c, v| {
            c.webhooks.deadline_warning_share = match v.parse::<f64>() {
                Ok(x) if x > 0.0 && x < 1.0 => x,
                _ => return Err(format!("not a share between 0 and 1: {v}")),
            };
            Ok(())
        },
    },
    Setting {
        flag: "--webhook-retention-secs",
        env: "WEBHOOK_RETENTION_SECS",
        default: "604800 (7 days)",
        help: "finished webhook deliveries are purged this long after they finished; 0 = kept",
        apply: |c, v| {
            c.webhooks.retention = parse_ttl(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--seek-ttl-secs",
        env: "SEEK_TTL_SECS",
        default: "3600 (1 h)",
        help: "quick play: a seek that found no table in this long expires (status `expired`)",
        apply: |c, v| {
            c.seeks.ttl = Duration::from_secs(parse_positive(v)? as u64);
            Ok(())
        },
    },
    Setting {
        flag: "--seeks-per-player",
        env: "SEEKS_PER_PLAYER",
        default: "5",
        help: "quick play: active seeks one player may hold at once; past it: 409 `too_many_seeks`",
        apply: |c, v| {
            c.seeks.per_player = parse_positive(v)?;
            Ok(())
        },
    },
    Setting {
        flag: "--seek-gather-ms",
        env: "SEEK_GATHER_MS",
        default: "30000",
        help: "quick play: seekers who could sit down, but not at the largest table they all accept, start at the size they have once nobody joined them for this long; 0 = at once; at most 3600000",
        apply: |c, v| {
            match v.parse::<u64>() {
                Ok(ms) if ms <= 3_600_000 => c.seeks.gather = Duration::from_millis(ms),
                _ => return Err(format!("not a number of ms from 0 to 3600000: {v}")),
            }
            Ok(())
        },
    },
    Setting {
        flag: "--log",
        env: "RUST_LOG",
        default: "info",
        help: "tracing filter, e.g. `api=debug,info`",
        apply: |c, v| {
            c.log_filter = v.to_owned();
            Ok(())
        },
    },
];

/// What the command line asked for.
#[derive(Debug)]
pub enum Command {
    Serve(Box<Config>),
    Help,
}

impl Config {
    /// Reads the environment, then the flags (`--flag value` or `--flag=value`).
    pub fn from_env_and_args(
        env: impl Fn(&str) -> Option<String>,
        args: impl IntoIterator<Item = String>,
    ) -> Result<Command, String> {
        let mut config = Config::default();
        for setting in SETTINGS {
            if let Some(value) = env(setting.env).filter(|v| !v.is_empty()) {
                (setting.apply)(&mut config, &value)
                    .map_err(|e| format!("{}: {e}", setting.env))?;
            }
        }
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "-h" | "--help" => return Ok(Command::Help),
                "--print-openapi" => {
                    config.print_openapi = true;
                    continue;
                }
                "--rebuild-ratings" => {
                    config.rebuild_ratings = true;
                    continue;
                }
                _ => {}
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) => (flag.to_owned(), Some(value.to_owned())),
                None => (arg.clone(), None),
            };
            let setting = SETTINGS
                .iter()
                .find(|s| s.flag == flag)
                .ok_or_else(|| format!("unknown argument `{arg}` (try --help)"))?;
            let value = match inline {
                Some(value) => value,
                None => args.next().ok_or_else(|| format!("{flag} needs a value"))?,
            };
            (setting.apply)(&mut config, &value).map_err(|e| format!("{flag}: {e}"))?;
        }
        Ok(Command::Serve(Box::new(config)))
    }

    pub fn listen_addr(&self) -> SocketAddr {
        SocketAddr::new(self.bind, self.port)
    }

    /// The database to use, resolving the default SQLite file.
    pub fn database_target(&self) -> DatabaseTarget {
        self.database
            .clone()
            .unwrap_or_else(|| DatabaseTarget::Sqlite(self.data_dir.join("cards.sqlite")))
    }
}

/// The `--help` text: usage and the settings table.
pub fn help_text() -> String {
    let mut out = String::from(
        "Card table server: Lost Heir and Cancellation Hearts over HTTP.\n\n\
         usage: api [FLAGS]\n       api --print-openapi > openapi/openapi.json\n\n",
    );
    out.push_str(&format!(
        "{:<22} {:<21} {:<44} {}\n",
        "flag", "env", "default", "meaning"
    ));
    for s in SETTINGS {
        out.push_str(&format!(
            "{:<22} {:<21} {:<44} {}\n",
            s.flag, s.env, s.default, s.help
        ));
    }
    out.push_str(&format!(
        "{:<22} {:<21} {:<44} {}\n",
        "--print-openapi", "", "", "print the OpenAPI document and exit"
    ));
    out.push_str(&format!(
        "{:<22} {:<21} {:<44} {}\n",
        "--rebuild-ratings", "", "", "recompute every rating from the log and exit"
    ));
    out
}

fn parse_positive(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("not a positive number: {v}")),
    }
}

/// A count where 0 means "no limit".
fn parse_count(v: &str, name: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .map_err(|_| format!("{name} must be a whole number (0 = no limit): {v}"))
}

/// A spectator's gathering spell in ms: 0 to 5000 (longer would hold a
/// watched move back for longer than anyone watching would wait).
fn parse_gather_ms(v: &str) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(ms) if ms <= 5000 => Ok(ms),
        _ => Err(format!("not a number of ms from 0 to 5000: {v}")),
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(format!("not true or false: {v}")),
    }
}

/// A time to live in seconds; 0: `None` (never expires).
fn parse_ttl(v: &str) -> Result<Option<Duration>, String> {
    let secs: u64 = v
        .parse()
        .map_err(|_| format!("not a number of seconds: {v}"))?;
    Ok((secs > 0).then(|| Duration::from_secs(secs)))
}

/// Old signing keys, comma-separated; each must be a usable key.
fn parse_previous_secrets(v: &str) -> Result<Vec<String>, String> {
    let keys: Vec<String> = v
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_owned)
        .collect();
    if keys.iter().any(|k| k.len() < MIN_SECRET_BYTES) {
        return Err("every previous secret must be at least 32 bytes".to_owned());
    }
    Ok(keys)
}

fn parse_rate(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(n) if n >= 0.0 && n.is_finite() => Ok(n),
        _ => Err(format!("not a rate (a number, 0 = off): {v}")),
    }
}

/// `postgres://…`, `postgresql://…`, `sqlite://PATH`, `sqlite:PATH` or a bare path.
pub fn parse_database_url(url: &str) -> Result<DatabaseTarget, String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(DatabaseTarget::Postgres(url.to_owned()))
    } else if let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    {
        if path.is_empty() {
            Err("sqlite URL without a path".to_owned())
        } else {
            Ok(DatabaseTarget::Sqlite(PathBuf::from(path)))
        }
    } else if url.contains("://") {
        Err(format!("unsupported database URL scheme: {url}"))
    } else {
        Ok(DatabaseTarget::Sqlite(PathBuf::from(url)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(env: &[(&str, &str)], args: &[&str]) -> Result<Command, String> {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_env_and_args(
            |key| env.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
            args.iter().map(|s| s.to_string()),
        )
    }

    #[test]
    fn defaults_listen_on_localhost_8080_with_sqlite_under_data() {
        let Command::Serve(c) = parse(&[], &[]).unwrap() else {
            panic!("expected serve")
        };
        assert_eq!(c.listen_addr().to_string(), "127.0.0.1:8080");
        assert_eq!(
            c.database_target(),
            DatabaseTarget::Sqlite(PathBuf::from("./data/cards.sqlite"))
        );
    }

    #[test]
    fn flags_override_env() {
        let Command::Serve(c) = parse(
            &[("PORT", "9000"), ("DATABASE_URL", "postgres://x@h/db")],
            &["--port=9001", "--bind", "0.0.0.0"],
        )
        .unwrap() else {
            panic!("expected serve")
        };
        assert_eq!(c.port, 9001);
        assert_eq!(c.bind.to_string(), "0.0.0.0");
        assert_eq!(
            c.database_target(),
            DatabaseTarget::Postgres("postgres://x@h/db".into())
        );
    }

    #[test]
    fn the_spectators_spell_is_200_ms_unless_set_and_may_be_zero() {
        let gather = |env: &[(&str, &str)]| match parse(env, &[]).unwrap() {
            Command::Serve(c) => c.spectator_gather,
            _ => panic!("expected serve"),
        };
        assert_eq!(gather(&[]), Duration::from_millis(200));
        assert_eq!(gather(&[("SPECTATOR_GATHER_MS", "0")]), Duration::ZERO);
        assert_eq!(
            gather(&[("SPECTATOR_GATHER_MS", "600")]),
            Duration::from_millis(600)
        );
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
    }

    #[test]
    fn previous_secrets_are_a_comma_separated_list() {
        let (a, b) = ("a".repeat(32), "b".repeat(40));
        let Command::Serve(c) =
            parse(&[("JWT_PREVIOUS_SECRETS", &format!(" {a}, {b} ,"))], &[]).unwrap()
        else {
            panic!("expected serve")
        };
        assert_eq!(c.jwt_previous_secrets, vec![a, b]);
    }

    #[test]
    fn bad_input_is_reported() {
        assert!(parse(&[("PORT", "http")], &[]).is_err());
        assert!(parse(&[], &["--nope"]).is_err());
        assert!(parse(&[], &["--port"]).is_err());
        assert!(parse(&[("JWT_SECRET", "short")], &[]).is_err());
        let long = "k".repeat(32);
        assert!(parse(&[("JWT_PREVIOUS_SECRETS", &format!("{long},short"))], &[]).is_err());
        assert!(parse(&[("METRICS_TOKEN", "short")], &[]).is_err());
        assert!(parse(&[("CORS_ORIGINS", "https://a.example/path")], &[]).is_err());
        assert!(parse(&[("CORS_ORIGINS", "a.example")], &[]).is_err());
        assert!(parse(&[("SPECTATOR_GATHER_MS", "5001")], &[]).is_err());
        assert!(parse(&[("SPECTATOR_GATHER_MS", "-1")], &[]).is_err());
        assert!(matches!(parse(&[], &["--help"]), Ok(Command::Help)));
        assert!(parse_database_url("mysql://x").is_err());
    }
}
