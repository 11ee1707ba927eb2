//! Settings from command-line flags and environment variables (a flag wins
//! over its variable), read by clap into `Args` and turned into a [`Config`].
//! `--help` is clap's; README.md's "Configuration" quotes it (a test in
//! tests/it/cli.rs keeps the two the same).

use std::ffi::{OsStr, OsString};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};

/// The shortest accepted signing or verification key.
pub const MIN_SECRET_BYTES: usize = 32;

/// The shortest accepted `METRICS_TOKEN`.
const MIN_METRICS_TOKEN_BYTES: usize = 16;

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
                    "`{origin}` is not an origin (scheme://host[:port], no path)"
                ));
            }
        }
        Ok(CorsOrigins::Only(origins))
    }
}

/// The most moves of different games that Postgres commits together by
/// default (`DB_GROUP_COMMIT`, `db::group_commit`).
pub const GROUP_COMMIT_DEFAULT: usize = 32;

/// How many groups of moves Postgres commits at once by default
/// (`DB_GROUPS_IN_FLIGHT`, `db::group_commit`).
pub const GROUPS_IN_FLIGHT_DEFAULT: usize = 1;

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
    /// Postgres: the most moves of different games committed together in
    /// one transaction when several wait at once; 1: each alone.
    pub group_commit: usize,
    /// Postgres: how many such groups commit at once, each on its own
    /// connection of the background pool.
    pub groups_in_flight: usize,
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
    /// Reads that tolerate a little staleness from a streaming replica
    /// (Postgres; `db::replica`, docs/operations.md).
    pub replica: ReplicaSettings,
    pub log_filter: String,
    /// Print the OpenAPI document and exit.
    pub print_openapi: bool,
    /// Recompute every rating from the log, rewrite what differs, and exit
    /// (docs/ratings.md).
    pub rebuild_ratings: bool,
    /// SQLite: copy the database to this file while servers may be using
    /// it, check the copy, and exit (docs/operations.md, "Backups").
    pub backup_to: Option<PathBuf>,
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
            group_commit: GROUP_COMMIT_DEFAULT,
            groups_in_flight: GROUPS_IN_FLIGHT_DEFAULT,
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
            replica: ReplicaSettings::default(),
            log_filter: "info".to_owned(),
            print_openapi: false,
            rebuild_ratings: false,
            backup_to: None,
        }
    }
}

/// A read replica (docs/operations.md, "Reads from a replica").
#[derive(Clone, PartialEq, Eq)]
pub struct ReplicaSettings {
    /// A `postgres://` URL of a streaming standby (hot standby); `None`:
    /// every read goes to the primary.
    pub url: Option<String>,
    /// Its connections per process for requests, split among the HTTP
    /// workers like the primary's (`DB_POOL_SIZE`).
    pub pool_size: usize,
    /// A read that may be stale goes to the replica only while it holds
    /// every commit made on the primary up to this long ago.
    pub max_lag: Duration,
}

impl Default for ReplicaSettings {
    fn default() -> Self {
        ReplicaSettings {
            url: None,
            pool_size: 8,
            max_lag: Duration::from_millis(1000),
        }
    }
}

/// The URL may hold a password: never printed.
impl std::fmt::Debug for ReplicaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplicaSettings")
            .field("url", &self.url.as_ref().map(|_| "***"))
            .field("pool_size", &self.pool_size)
            .field("max_lag", &self.max_lag)
            .finish()
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

/// The command line as clap reads it: every setting with its flag and
/// environment variable. The defaults written here are `Config::default()`'s
/// (a test holds them equal); the computed ones are `None` and described.
#[derive(Debug, Parser)]
#[command(
    name = "api",
    about = "Card table server: Lost Heir and Cancellation Hearts over HTTP.",
    after_help = "Every setting is a flag or an environment variable; a flag wins over its \
                  variable, and a variable set to the empty string counts as unset.",
    // Deterministic help (README.md quotes it), whatever the terminal.
    term_width = 100,
    next_line_help = true,
    // As before clap: a repeated flag's last value counts, and a value may
    // start with `-` (a secret may).
    args_override_self = true,
    allow_hyphen_values = true
)]
struct Args {
    /// print the OpenAPI document and exit (`api --print-openapi > openapi/openapi.json`)
    #[arg(long)]
    print_openapi: bool,
    /// migrate the database, recompute every rating from the log, rewrite those that differ,
    /// print what was found and exit (docs/ratings.md)
    #[arg(long)]
    rebuild_ratings: bool,
    /// SQLite: copy the database into a new file PATH while servers keep using it (one consistent
    /// snapshot, `VACUUM INTO`), check the copy and exit (docs/operations.md)
    #[arg(long, value_name = "PATH")]
    backup_to: Option<PathBuf>,
    #[command(flatten)]
    server: ServerArgs,
    #[command(flatten)]
    storage: StorageArgs,
    #[command(flatten)]
    tokens: TokenArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    expiry: ExpiryArgs,
    #[command(flatten)]
    bots: BotArgs,
    #[command(flatten)]
    webhooks: WebhookArgs,
    #[command(flatten)]
    seeks: SeekArgs,
}

/// A time to live; 0 on the command line: `None`, never. Named so that
/// clap takes it as one value rather than as an optional setting.
type Ttl = Option<Duration>;

/// A list given as one comma-separated value (named for the same reason).
type Keys = Vec<String>;

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Server")]
struct ServerArgs {
    /// address to listen on
    #[arg(long, env = "BIND", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// TCP port (0 = any free port)
    #[arg(long, env = "PORT", default_value = "8080")]
    port: u16,
    /// HTTP worker threads
    #[arg(long, env = "WORKERS", value_parser = positive::<usize>, default_value = "2")]
    workers: usize,
    /// largest accepted JSON request body, bytes (larger: 413 `body_too_large`)
    #[arg(long, env = "BODY_LIMIT", value_parser = positive::<usize>, default_value = "65536")]
    body_limit: usize,
    /// a request with no response head after this is dropped: 503 `timeout` (retry with the
    /// same `Idempotency-Key`)
    #[arg(long, env = "REQUEST_TIMEOUT_MS", value_parser = positive_ms, default_value = "10000")]
    request_timeout_ms: Duration,
    /// web origins that may call the api from a browser: `*` (any), a comma-separated list
    /// (`https://table.example,http://localhost:5173`), or `none`
    #[arg(long, env = "CORS_ORIGINS", value_parser = CorsOrigins::parse, default_value = "*")]
    cors_origins: CorsOrigins,
    /// tracing filter, e.g. `api=debug,info`
    #[arg(long, env = "RUST_LOG", value_name = "FILTER", default_value = "info")]
    log: String,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Storage")]
struct StorageArgs {
    /// `postgres://…` for Postgres; `sqlite://PATH` or a file path for SQLite (default: the
    /// SQLite file DATA_DIR/cards.sqlite)
    #[arg(long, env = "DATABASE_URL", value_parser = Unechoed(parse_database_url))]
    database_url: Option<DatabaseTarget>,
    /// directory for the default SQLite file and the generated signing key
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// database connections per process for requests (Postgres: split among the HTTP workers,
    /// at least 2 each, each made on its worker's thread; and as many again for background
    /// work: bots, deadlines, webhooks, ratings)
    #[arg(long, env = "DB_POOL_SIZE", value_parser = positive::<usize>, default_value = "8")]
    db_pool_size: usize,
    /// Postgres: the most moves of different games committed together, in one transaction, when
    /// several wait at once (group commit; each keeps its own version guard and idempotency
    /// record, and none is answered before the commit); 1 = each move alone
    #[arg(long, env = "DB_GROUP_COMMIT", value_parser = positive::<usize>, default_value = "32")]
    db_group_commit: usize,
    /// Postgres: how many groups of moves commit at once, each on its own connection; a move that
    /// arrives while they all commit waits and goes with the next group
    #[arg(long, env = "DB_GROUPS_IN_FLIGHT", value_parser = positive::<usize>, default_value = "1")]
    db_groups_in_flight: usize,
    /// longest wait on the database for one query, the pooled or new connection included
    /// (Postgres also gets it as `statement_timeout`); past it: 503 `unavailable`
    #[arg(long, env = "DB_TIMEOUT_MS", value_parser = positive_ms, default_value = "5000")]
    db_timeout_ms: Duration,
    /// game states kept in memory (least recently used are dropped)
    #[arg(long, env = "STATE_CACHE", value_parser = positive::<usize>, default_value = "1024")]
    state_cache: usize,
    /// finished games whose replay, record and verification are kept in memory once computed
    /// (least recently used are dropped); 0 = none
    #[arg(long, env = "FINISHED_CACHE", value_parser = count, default_value = "256")]
    finished_cache: usize,
    /// Postgres only (with SQLite the server refuses to start): a streaming standby
    /// (`postgres://…`) for the reads that tolerate a little staleness (lists of games, finished
    /// games' replays and records, leaderboards, ratings, seeker counts); each goes to the
    /// primary while the replica is down or behind, and a player's reads after their own write
    /// until the replica has it (docs/operations.md) (default: none, every read on the primary)
    #[arg(long, env = "DATABASE_REPLICA_URL", value_parser = Unechoed(parse_replica_url))]
    database_replica_url: Option<String>,
    /// connections per process to the replica for requests (split among the HTTP workers like
    /// DB_POOL_SIZE's)
    #[arg(long, env = "DB_REPLICA_POOL_SIZE", value_parser = positive::<usize>, default_value = "8")]
    db_replica_pool_size: usize,
    /// the replica serves a list, leaderboard or count only while it holds every commit made on
    /// the primary up to this long ago (its lag is measured 10 times a second), else the primary
    /// does; a finished game it holds, whatever its lag
    #[arg(long, env = "DB_REPLICA_MAX_LAG_MS", value_parser = positive_ms, default_value = "1000")]
    db_replica_max_lag_ms: Duration,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Tokens")]
struct TokenArgs {
    /// HS256 key for bearer tokens, at least 32 bytes (default: generated once, kept in
    /// DATA_DIR/jwt-secret)
    #[arg(long, env = "JWT_SECRET", value_parser = Unechoed(secret::<MIN_SECRET_BYTES>))]
    jwt_secret: Option<String>,
    /// comma-separated old keys that still verify tokens (each at least 32 bytes); remove one
    /// to refuse its tokens (default: none)
    #[arg(long, env = "JWT_PREVIOUS_SECRETS", value_parser = Unechoed(parse_previous_secrets),
          default_value = "", hide_default_value = true)]
    jwt_previous_secrets: Keys,
    /// lifetime of issued tokens, seconds (2592000: 30 days)
    #[arg(long, env = "TOKEN_TTL_SECS", value_parser = positive_secs, default_value = "2592000")]
    token_ttl_secs: Duration,
    /// when set, GET /metrics needs `Authorization: Bearer <it>` (at least 16 bytes); else 401
    /// `metrics_token` (default: none, /metrics is open)
    #[arg(long, env = "METRICS_TOKEN", value_parser = Unechoed(secret::<MIN_METRICS_TOKEN_BYTES>))]
    metrics_token: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Limits")]
struct LimitArgs {
    /// requests per second per player (a bearer token that verifies), else per peer IP
    /// (X-Forwarded-For is ignored); over it: 429 `rate_limited`; 0 = off
    #[arg(long, env = "RATE_LIMIT", value_parser = parse_rate, default_value = "50")]
    rate_limit: f64,
    /// requests a client may make at once before the rate applies
    #[arg(long, env = "RATE_BURST", value_parser = burst, default_value = "100")]
    rate_burst: f64,
    /// game and player streams one client may hold open (the player of a token or ticket, else
    /// the peer IP); past it: 429 `too_many_streams`; 0 = no limit
    #[arg(long, env = "STREAMS_PER_CLIENT", value_parser = count, default_value = "32")]
    streams_per_client: usize,
    /// streams open without a token or ticket (spectators), in all; past it: 503
    /// `too_many_streams`; 0 = no limit
    #[arg(long, env = "ANONYMOUS_STREAMS", value_parser = count, default_value = "4096")]
    anonymous_streams: usize,
    /// a spectator's game stream sends the moves made within this spell together, one write per
    /// spell (a popular game's spectators cost less CPU, and see moves this much later); 0 = each
    /// at once; at most 5000
    #[arg(long, env = "SPECTATOR_GATHER_MS", value_parser = gather_ms, default_value = "200")]
    spectator_gather_ms: Duration,
    /// table talk: messages one player may post to one game within CHAT_WINDOW_SECS; past it:
    /// 429 `chat_rate_limited`
    #[arg(long, env = "CHAT_MAX_MESSAGES", value_parser = positive::<i64>, default_value = "5")]
    chat_max_messages: i64,
    /// table talk: the window of CHAT_MAX_MESSAGES, seconds
    #[arg(long, env = "CHAT_WINDOW_SECS", value_parser = positive_secs, default_value = "10")]
    chat_window_secs: Duration,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Expiry")]
struct ExpiryArgs {
    /// a player that never created, joined or played a game is removed this long after
    /// registering, seconds (2592000: 30 days); 0 = never
    #[arg(long, env = "IDLE_PLAYER_TTL_SECS", value_parser = ttl_secs, default_value = "2592000")]
    idle_player_ttl_secs: Ttl,
    /// an open game nobody joined, left or otherwise changed for this long is closed by the
    /// server (status `expired`), seconds (604800: 7 days); 0 = never
    #[arg(long, env = "OPEN_GAME_TTL_SECS", value_parser = ttl_secs, default_value = "604800")]
    open_game_ttl_secs: Ttl,
    /// an `Idempotency-Key` answers retries this long, then its record is purged and the key is
    /// new again, seconds (86400: 24 h); 0 = for ever
    #[arg(long, env = "IDEMPOTENCY_TTL_SECS", value_parser = ttl_secs, default_value = "86400")]
    idempotency_ttl_secs: Ttl,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Bots")]
struct BotArgs {
    /// the expert bot's playouts per decision, for every game (default: each game's own, Lost
    /// Heir 600, Cancellation Hearts 2400, at most about 100 ms on one core in a release build;
    /// docs/bots.md)
    #[arg(long, env = "EXPERT_PLAYOUTS", value_parser = positive::<u32>)]
    expert_playouts: Option<u32>,
    /// expert bot decisions computed at once, off the HTTP workers; more wait their turn, shared
    /// fairly between the games' creators (default: the number of CPUs; docs/bots.md)
    #[arg(long, env = "BOT_THINKERS", value_parser = positive::<usize>)]
    bot_thinkers: Option<usize>,
    /// expert bot decisions that may wait for a thinker, all players together; past it (or
    /// BOT_QUEUE_PER_PLAYER) a decision waits and asks again every 250 ms, and after 10 s is the
    /// sensible bot's
    #[arg(long, env = "BOT_QUEUE_MAX", value_parser = positive::<usize>, default_value = "256")]
    bot_queue_max: usize,
    /// expert bot decisions of the games one player created that may wait for a thinker at once
    #[arg(long, env = "BOT_QUEUE_PER_PLAYER", value_parser = positive::<usize>,
          default_value = "32")]
    bot_queue_per_player: usize,
    /// open or running games with an expert bot seat, or with bots only, one player may have
    /// created; past it: 409 `too_many_bot_games`; 0 = no limit
    #[arg(long, env = "BOT_GAMES_PER_PLAYER", value_parser = count, default_value = "10")]
    bot_games_per_player: usize,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Webhooks")]
struct WebhookArgs {
    /// whether this process sends webhook deliveries (the outbox is written either way)
    #[arg(long, env = "WEBHOOK_DELIVERY", action = ArgAction::Set, value_parser = parse_bool,
          default_value = "true")]
    webhook_delivery: bool,
    /// allow webhook endpoints on loopback, private, link-local, CGNAT and unique-local addresses
    #[arg(long, env = "WEBHOOK_ALLOW_PRIVATE", action = ArgAction::Set, value_parser = parse_bool,
          default_value = "false")]
    webhook_allow_private: bool,
    /// the longest one webhook request may take, connecting included
    #[arg(long, env = "WEBHOOK_TIMEOUT_MS", value_parser = positive_ms, default_value = "5000")]
    webhook_timeout_ms: Duration,
    /// wait before the first webhook retry; doubled for each further one (at most 1 h)
    #[arg(long, env = "WEBHOOK_BACKOFF_BASE_MS", value_parser = positive_ms,
          default_value = "2000")]
    webhook_backoff_base_ms: Duration,
    /// attempts before a webhook delivery is given up (status `failed`)
    #[arg(long, env = "WEBHOOK_MAX_ATTEMPTS", value_parser = positive::<u32>, default_value = "10")]
    webhook_max_attempts: u32,
    /// `deadline_warning` is sent when this share of a move clock has passed (0 < share < 1)
    #[arg(long, env = "WEBHOOK_DEADLINE_WARNING_SHARE", value_parser = parse_share,
          default_value = "0.75")]
    webhook_deadline_warning_share: f64,
    /// finished webhook deliveries are purged this long after they finished, seconds (604800: 7
    /// days); 0 = kept
    #[arg(long, env = "WEBHOOK_RETENTION_SECS", value_parser = ttl_secs, default_value = "604800")]
    webhook_retention_secs: Ttl,
}

#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Quick play")]
struct SeekArgs {
    /// a seek that found no table in this long expires (status `expired`), seconds (3600: 1 h)
    #[arg(long, env = "SEEK_TTL_SECS", value_parser = positive_secs, default_value = "3600")]
    seek_ttl_secs: Duration,
    /// active seeks one player may hold at once; past it: 409 `too_many_seeks`
    #[arg(long, env = "SEEKS_PER_PLAYER", value_parser = positive::<usize>, default_value = "5")]
    seeks_per_player: usize,
    /// seekers who could sit down, but not at the largest table they all accept, start at the
    /// size they have once nobody joined them for this long; 0 = at once; at most 3600000
    #[arg(long, env = "SEEK_GATHER_MS", value_parser = seek_gather_ms, default_value = "30000")]
    seek_gather_ms: Duration,
}

impl From<SeekArgs> for SeekSettings {
    fn from(seeks: SeekArgs) -> SeekSettings {
        SeekSettings {
            ttl: seeks.seek_ttl_secs,
            per_player: seeks.seeks_per_player,
            gather: seeks.seek_gather_ms,
        }
    }
}

/// Quick play's gathering spell: 0 to an hour, in ms.
fn seek_gather_ms(v: &str) -> Result<Duration, String> {
    match v.parse::<u64>() {
        Ok(ms) if ms <= 3_600_000 => Ok(Duration::from_millis(ms)),
        _ => Err("not a number of ms from 0 to 3600000".to_owned()),
    }
}

impl From<Args> for Config {
    fn from(args: Args) -> Config {
        Config {
            bind: args.server.bind,
            port: args.server.port,
            database: args.storage.database_url,
            data_dir: args.storage.data_dir,
            jwt_secret: args.tokens.jwt_secret,
            jwt_previous_secrets: args.tokens.jwt_previous_secrets,
            metrics_token: args.tokens.metrics_token,
            cors: args.server.cors_origins,
            token_ttl: args.tokens.token_ttl_secs,
            pool_size: args.storage.db_pool_size,
            group_commit: args.storage.db_group_commit,
            groups_in_flight: args.storage.db_groups_in_flight,
            cache_capacity: args.storage.state_cache,
            finished_cache: args.storage.finished_cache,
            body_limit: args.server.body_limit,
            workers: args.server.workers,
            rate_limit: args.limits.rate_limit,
            rate_burst: args.limits.rate_burst,
            request_timeout: args.server.request_timeout_ms,
            db_timeout: args.storage.db_timeout_ms,
            spectator_gather: args.limits.spectator_gather_ms,
            streams_per_client: args.limits.streams_per_client,
            anonymous_streams: args.limits.anonymous_streams,
            idle_player_ttl: args.expiry.idle_player_ttl_secs,
            open_game_ttl: args.expiry.open_game_ttl_secs,
            idempotency_ttl: args.expiry.idempotency_ttl_secs,
            chat_rate_max: args.limits.chat_max_messages,
            chat_rate_window: args.limits.chat_window_secs,
            webhooks: args.webhooks.into(),
            bots: args.bots.into(),
            seeks: args.seeks.into(),
            replica: ReplicaSettings {
                url: args.storage.database_replica_url,
                pool_size: args.storage.db_replica_pool_size,
                max_lag: args.storage.db_replica_max_lag_ms,
            },
            log_filter: args.server.log,
            print_openapi: args.print_openapi,
            rebuild_ratings: args.rebuild_ratings,
            backup_to: args.backup_to,
        }
    }
}

impl From<BotArgs> for BotSettings {
    fn from(bots: BotArgs) -> BotSettings {
        BotSettings {
            expert_playouts: bots.expert_playouts,
            thinkers: bots
                .bot_thinkers
                .unwrap_or_else(|| BotSettings::default().thinkers),
            queue_max: bots.bot_queue_max,
            queue_per_player: bots.bot_queue_per_player,
            games_per_player: bots.bot_games_per_player,
        }
    }
}

impl From<WebhookArgs> for WebhookSettings {
    fn from(webhooks: WebhookArgs) -> WebhookSettings {
        WebhookSettings {
            deliver: webhooks.webhook_delivery,
            allow_private: webhooks.webhook_allow_private,
            timeout: webhooks.webhook_timeout_ms,
            backoff_base: webhooks.webhook_backoff_base_ms,
            max_attempts: webhooks.webhook_max_attempts,
            deadline_warning_share: webhooks.webhook_deadline_warning_share,
            retention: webhooks.webhook_retention_secs,
        }
    }
}

/// The api's command line: every setting's flag and environment variable,
/// and `--help`. A variable set to the empty string counts as unset (a
/// blank `DATABASE_URL=` in a compose file means the default, as it always
/// has); help names each variable without its value, which may be a secret.
fn command() -> clap::Command {
    Args::command().mut_args(|arg| {
        let blank = arg
            .get_env()
            .and_then(std::env::var_os)
            .is_some_and(|value| value.is_empty());
        let arg = arg.hide_env_values(true);
        if blank { arg.env(None::<&str>) } else { arg }
    })
}

impl Config {
    /// The settings from `args` (the program's name first) and, for what
    /// they leave out, the environment. `Err` is clap's: a refusal (exit 2)
    /// or the help (exit 0), for [`clap::Error::exit`].
    pub fn try_parse_from<I, T>(args: I) -> Result<Config, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        Config::from_command(command(), args)
    }

    fn from_command<I, T>(command: clap::Command, args: I) -> Result<Config, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let matches = command.try_get_matches_from(args)?;
        Ok(Args::from_arg_matches(&matches)?.into())
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

/// A whole number above 0 that fits `T`.
fn positive<T: TryFrom<u64>>(v: &str) -> Result<T, String> {
    match v.parse::<u64>() {
        Ok(n) if n > 0 => T::try_from(n).map_err(|_| "too large".to_owned()),
        _ => Err("not a whole number above 0".to_owned()),
    }
}

fn positive_ms(v: &str) -> Result<Duration, String> {
    positive(v).map(Duration::from_millis)
}

fn positive_secs(v: &str) -> Result<Duration, String> {
    positive(v).map(Duration::from_secs)
}

/// Requests at once: a whole number, as a bucket's size.
fn burst(v: &str) -> Result<f64, String> {
    positive::<u32>(v).map(f64::from)
}

/// A count where 0 means none or no limit.
fn count(v: &str) -> Result<usize, String> {
    v.trim()
        .parse()
        .map_err(|_| "not a whole number (0 or more)".to_owned())
}

/// A time to live in seconds; 0: `None` (never expires).
fn ttl_secs(v: &str) -> Result<Ttl, String> {
    let secs: u64 = v
        .parse()
        .map_err(|_| "not a whole number of seconds".to_owned())?;
    Ok((secs > 0).then(|| Duration::from_secs(secs)))
}

/// A spectator's gathering spell in ms: 0 to 5000 (longer would hold a
/// watched move back for longer than anyone watching would wait).
fn gather_ms(v: &str) -> Result<Duration, String> {
    match v.parse::<u64>() {
        Ok(ms) if ms <= 5000 => Ok(Duration::from_millis(ms)),
        _ => Err("not a number of ms from 0 to 5000".to_owned()),
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err("not true or false (nor 1/0, yes/no, on/off)".to_owned()),
    }
}

fn parse_rate(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(n) if n >= 0.0 && n.is_finite() => Ok(n),
        _ => Err("not a rate (a number, 0 = off)".to_owned()),
    }
}

fn parse_share(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err("not a share between 0 and 1".to_owned()),
    }
}

/// A parser for values that may be secrets (keys, tokens, a database URL
/// with its password): a refusal names the setting and the reason, never the
/// value, which would otherwise end up in a log.
#[derive(Clone)]
struct Unechoed<T>(fn(&str) -> Result<T, String>);

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Unechoed<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let setting = arg.map_or_else(String::new, |arg| format!(" for '{arg}'"));
        let parsed = value.to_str().ok_or_else(|| "not UTF-8".to_owned());
        parsed.and_then(self.0).map_err(|reason| {
            let message = format!("invalid value{setting}: {reason} (the value is not shown)\n");
            clap::Error::raw(ErrorKind::ValueValidation, message).with_cmd(cmd)
        })
    }
}

/// A key or token of at least `MIN` bytes.
fn secret<const MIN: usize>(v: &str) -> Result<String, String> {
    if v.len() < MIN {
        return Err(format!("must be at least {MIN} bytes"));
    }
    Ok(v.to_owned())
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
        return Err(format!(
            "every previous secret must be at least {MIN_SECRET_BYTES} bytes"
        ));
    }
    Ok(keys)
}

/// A replica is a Postgres standby: `postgres://…` or `postgresql://…` only.
fn parse_replica_url(url: &str) -> Result<String, String> {
    match parse_database_url(url)? {
        DatabaseTarget::Postgres(url) => Ok(url),
        DatabaseTarget::Sqlite(_) => {
            Err("a replica is a Postgres standby: postgres://… or postgresql://…".to_owned())
        }
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
    } else if let Some((scheme, _)) = url.split_once("://") {
        Err(format!("unsupported database URL scheme: {scheme}"))
    } else {
        Ok(DatabaseTarget::Sqlite(PathBuf::from(url)))
    }
}

#[cfg(test)]
mod tests;
