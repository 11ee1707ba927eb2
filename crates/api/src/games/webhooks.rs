//! Webhooks (docs/webhooks.md): a player's endpoints, the outbox rows a
//! change writes in its own transaction, and the worker every process runs
//! to deliver them.
//!
//! - **Outbox.** `write.rs` `commit` asks [`outbox_for`] what the change
//!   tells whom (`your_turn`, `game_started`, `game_over`, derived from the
//!   rows and states before and after, never from the command) and hands
//!   the candidates to the append, which writes one row per subscribed
//!   endpoint in the same transaction (`db::webhooks`). A crash after the
//!   commit loses nothing: the rows wait in the store for any process.
//! - **Deadline warnings.** The worker looks for move clocks past
//!   `WEBHOOK_DEADLINE_WARNING_SHARE` of their length and writes each
//!   (game, version, seat)'s warning once, marker and rows in one
//!   transaction (`Db::enqueue_deadline_warning`).
//! - **Chat.** [`chat_outbox`] builds the candidates of a table-talk
//!   message; the message's transaction writes them with
//!   `enqueue_outbox!` (or `Db::enqueue_outbox` on its own).
//! - **Delivery.** The worker claims due rows for a lease (no two
//!   processes send one row at once), signs each body (HMAC-SHA256 over
//!   `"<t>.<body>"`), checks the address (http(s) only; loopback, private,
//!   link-local… refused unless `WEBHOOK_ALLOW_PRIVATE`), connects to the
//!   checked address only, and records the attempt; a failure is retried
//!   with exponential back-off and given up after `WEBHOOK_MAX_ATTEMPTS`.
//!
//! A body never carries a card: only ids, seats, prompts, versions and
//! times (a chat message's text is the author's own).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::any_game::AnyGame;
use super::error::ServiceError;
use super::service::GameService;
use super::status::GameStatus;
use crate::config::WebhookSettings;
use crate::db::Db;
use crate::db::models::{GameRow, SeatWithName};
use crate::db::webhooks::{
    ClaimedDelivery, DeliveryEvent, DeliveryRow, DeliveryStatus, EndpointRow, NewOutbox,
};

/// Endpoints one player may have.
pub const MAX_ENDPOINTS: i64 = 10;
/// The longest URL an endpoint may have.
pub const MAX_URL_LEN: usize = 2048;
/// How much of an endpoint's answer is read (the rest is dropped).
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// How often the worker looks for due deliveries and deadline warnings.
const POLL: Duration = Duration::from_millis(200);
/// Deliveries claimed per look.
const CLAIM_BATCH: i64 = 32;
/// How long a claim holds a row (longer than any attempt: the timeout is
/// at most this minus a margin; a process that dies holding a claim
/// leaves the row to others after it).
const LEASE_MARGIN: Duration = Duration::from_secs(30);
/// Running clocks read per look for deadline warnings.
const WARNING_BATCH: i64 = 1000;
/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256>`.
pub const SIGNATURE_HEADER: &str = "Cardgames-Signature";
/// The event id header (the body's `event_id`).
pub const EVENT_ID_HEADER: &str = "Cardgames-Event-Id";
/// The event type header (the body's `type`).
pub const EVENT_TYPE_HEADER: &str = "Cardgames-Event-Type";

// ---------------------------------------------------------------------
// The bodies.

/// A webhook request's body, by `type`. Every delivery has an `event_id`
/// (unique per delivery, the same on every retry and redelivery: drop
/// duplicates by it) and `created_at` (when the change happened). None
/// carries a card.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WebhookDelivery {
    /// A seat of the receiver's must act now (and did not just before, or
    /// is asked something new).
    YourTurn(TurnDelivery),
    /// The configured share of the seat's move clock has passed.
    DeadlineWarning(TurnDelivery),
    /// A game the receiver is seated at started.
    GameStarted(GameDelivery),
    /// A game the receiver is seated at finished.
    GameOver(GameDelivery),
    /// A table-talk message at a game the receiver is seated at.
    Chat(ChatDelivery),
    /// A ping asked for with `test_webhook`.
    Test(TestDelivery),
}

/// `your_turn` and `deadline_warning`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TurnDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    pub seat: u8,
    /// What is asked of the seat (the kind's prompt, as in `YourTurn`).
    pub prompt: Option<String>,
    /// The game's version after the change (send it as `If-Match`).
    pub version: i64,
    /// When the move clock runs out (null: no clock).
    pub deadline_at: Option<DateTime<Utc>>,
}

/// `game_started` and `game_over`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    /// The game's version after the change.
    pub version: i64,
}

/// `chat`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    pub message_id: String,
    pub author_id: String,
    pub author_name: String,
    pub text: String,
}

/// `test`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TestDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    /// The endpoint pinged.
    pub webhook_id: String,
}

/// The body of `row`: its stored fields with its event id, type and time.
pub fn body_of(row: &DeliveryRow) -> Result<String, ServiceError> {
    let mut fields: serde_json::Map<String, Value> = serde_json::from_str(&row.payload)
        .map_err(|e| ServiceError::internal(format!("stored webhook payload: {e}")))?;
    fields.insert("type".into(), row.event_type.as_str().into());
    fields.insert("event_id".into(), row.id.clone().into());
    fields.insert(
        "created_at".into(),
        serde_json::to_value(row.created_at).map_err(ServiceError::internal)?,
    );
    // Through the type, so a stored payload that no longer fits fails here.
    let body: WebhookDelivery = serde_json::from_value(Value::Object(fields))
        .map_err(|e| ServiceError::internal(format!("stored webhook payload: {e}")))?;
    serde_json::to_string(&body).map_err(ServiceError::internal)
}

// ---------------------------------------------------------------------
// What a change tells whom.

/// The outbox candidates of a change of `game_id` from (`row`, `seats`,
/// `before`) to `status`, `after_seats`, `after` at `version` with the
/// clock `deadline_at`; `deadline_moved`: the seats the deadline moved for
/// in this change.
#[allow(clippy::too_many_arguments)]
pub(super) fn outbox_for(
    game_id: &str,
    row: &GameRow,
    before: &dyn AnyGame,
    status: GameStatus,
    after_seats: &[SeatWithName],
    after: &dyn AnyGame,
    version: i64,
    deadline_at: Option<DateTime<Utc>>,
    deadline_moved: i32,
) -> Vec<NewOutbox> {
    let mut out = Vec::new();
    let humans = after_seats
        .iter()
        .filter(|s| !s.seat.is_bot)
        .filter_map(|s| Some((s.seat.seat, s.seat.player_id.as_deref()?, s.seat.autoplay)));
    let game = || GameFields {
        game_id: game_id.to_owned(),
        kind: row.kind.clone(),
        version,
    };
    let started = status == GameStatus::InProgress && row.status != GameStatus::InProgress;
    let over = status == GameStatus::Finished && row.status != GameStatus::Finished;
    for (seat, player, autoplay) in humans {
        if started {
            out.push(candidate(
                player,
                DeliveryEvent::GameStarted,
                game_id,
                &game(),
            ));
        }
        if over {
            out.push(candidate(player, DeliveryEvent::GameOver, game_id, &game()));
        }
        let Ok(number) = u8::try_from(seat) else {
            continue;
        };
        if status != GameStatus::InProgress || autoplay || !(0..16).contains(&seat) {
            continue;
        }
        let seat_bit = 1 << seat;
        let s = cards::Seat::new(number);
        if !after.to_act().contains(s) {
            continue;
        }
        let was_asked = row.status == GameStatus::InProgress
            && row.to_act & seat_bit != 0
            && before.prompt(s) == after.prompt(s)
            && deadline_moved & seat_bit == 0;
        if !was_asked {
            let turn = TurnFields {
                game_id: game_id.to_owned(),
                kind: row.kind.clone(),
                seat: number,
                prompt: after.prompt(s).map(str::to_owned),
                version,
                deadline_at,
            };
            out.push(candidate(player, DeliveryEvent::YourTurn, game_id, &turn));
        }
    }
    out
}

/// The stored fields of `game_started` / `game_over`.
#[derive(Serialize)]
struct GameFields {
    game_id: String,
    kind: String,
    version: i64,
}

/// The stored fields of `your_turn` / `deadline_warning`.
#[derive(Serialize)]
struct TurnFields {
    game_id: String,
    kind: String,
    seat: u8,
    prompt: Option<String>,
    version: i64,
    deadline_at: Option<DateTime<Utc>>,
}

/// The stored fields of `chat`.
#[derive(Serialize)]
struct ChatFields<'a> {
    game_id: &'a str,
    message_id: &'a str,
    author_id: &'a str,
    author_name: &'a str,
    text: &'a str,
}

fn candidate(
    player: &str,
    event: DeliveryEvent,
    game_id: &str,
    fields: &impl Serialize,
) -> NewOutbox {
    let payload = serde_json::to_string(fields).unwrap_or_else(|_| "{}".to_owned());
    NewOutbox::new(player, event, Some(game_id), payload)
}

/// A table-talk message's `chat` candidates: one per recipient (the
/// players seated at the game other than the author). The message's
/// transaction writes them with `enqueue_outbox!` (same transaction as the
/// message) or, failing that, `Db::enqueue_outbox`.
pub fn chat_outbox(
    game_id: &str,
    message_id: &str,
    author_id: &str,
    author_name: &str,
    text: &str,
    recipients: &[&str],
) -> Vec<NewOutbox> {
    let fields = ChatFields {
        game_id,
        message_id,
        author_id,
        author_name,
        text,
    };
    recipients
        .iter()
        .filter(|p| **p != author_id)
        .map(|p| candidate(p, DeliveryEvent::Chat, game_id, &fields))
        .collect()
}

// ---------------------------------------------------------------------
// Signing.

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(message);
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// The `Cardgames-Signature` value for `body` sent at `t` (unix seconds):
/// `t=<t>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; the key is the
/// secret's text as shown at creation.
pub fn signature(secret: &str, t: i64, body: &str) -> String {
    let mac = hmac_sha256(secret.as_bytes(), format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac))
}

/// A new endpoint secret: `whsec_` and 32 random bytes in hex.
fn new_secret() -> String {
    format!("whsec_{}", hex::encode(crate::random::secret_bytes()))
}

// ---------------------------------------------------------------------
// Addresses.

/// Whether `ip` is one an endpoint may not be on by default: loopback,
/// private, link-local, unspecified, broadcast, multicast, CGNAT
/// (100.64/10), "this network" (0/8), IETF protocol assignments
/// (192.0.0/24), benchmarking (198.18/15), unique-local (fc00::/7),
/// and v4 addresses mapped or embedded in v6.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 192 && b == 0 && c == 0)
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                // ::a.b.c.d (deprecated v4-compatible) and NAT64 64:ff9b::/96.
                || (v6.segments()[..6] == [0; 6])
                || (v6.segments()[..6] == [0x64, 0xff9b, 0, 0, 0, 0])
        }
    }
}

/// The address a URL's host names literally (`1.2.3.4`, `[::1]`), if it does.
fn literal_ip(host: &str) -> Option<IpAddr> {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
        .parse()
        .ok()
}

/// Why a URL is refused at registration (a 422), if it is.
fn check_url(url: &str, allow_private: bool) -> Result<reqwest::Url, ServiceError> {
    let bad = |why: &str| ServiceError::invalid("invalid_webhook_url", why.to_owned());
    if url.len() > MAX_URL_LEN {
        return Err(bad("the URL is longer than 2048 bytes"));
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| bad(&format!("not a URL: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http and https URLs are allowed"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("a URL with credentials is not allowed"));
    }
    if parsed.fragment().is_some() {
        return Err(bad("a URL with a fragment is not allowed"));
    }
    let refused = || {
        ServiceError::invalid(
            "webhook_address_refused",
            "the URL's host is a loopback, private or link-local address, which this server does not call",
        )
    };
    let host = parsed
        .host_str()
        .ok_or_else(|| bad("the URL has no host"))?;
    let lower = host.to_ascii_lowercase();
    let named_local = lower == "localhost" || lower.ends_with(".localhost");
    if !allow_private && (named_local || literal_ip(host).is_some_and(is_private)) {
        return Err(refused());
    }
    Ok(parsed)
}

/// Where a delivery may connect: the URL's host resolved now, every
/// address checked (a name that resolves to any refused address is
/// refused). `Err(true)`: refused (never retried); `Err(false)`: not
/// resolvable now (retried).
async fn resolve(url: &reqwest::Url, allow_private: bool) -> Result<SocketAddr, (bool, String)> {
    let port = url
        .port_or_known_default()
        .ok_or((true, "no port".to_owned()))?;
    let host = url.host_str().ok_or((true, "no host".to_owned()))?;
    let addrs: Vec<SocketAddr> = match literal_ip(host) {
        Some(ip) => vec![SocketAddr::new(ip, port)],
        None => tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| (false, format!("could not resolve {host}: {e}")))?
            .collect(),
    };
    let first = *addrs
        .first()
        .ok_or((false, "the host resolved to no address".to_owned()))?;
    if !allow_private && let Some(bad) = addrs.iter().find(|a| is_private(a.ip())) {
        return Err((
            true,
            format!(
                "address refused: {} (loopback, private or link-local)",
                bad.ip()
            ),
        ));
    }
    Ok(first)
}

// ---------------------------------------------------------------------
// The service.

/// An endpoint as its owner sees it (never its secret after creation).
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub id: String,
    pub url: String,
    pub events: Vec<DeliveryEvent>,
    pub created_at: DateTime<Utc>,
}

impl From<EndpointRow> for Endpoint {
    fn from(row: EndpointRow) -> Self {
        Endpoint {
            id: row.id,
            url: row.url,
            events: DeliveryEvent::from_mask(row.events),
            created_at: row.created_at,
        }
    }
}

/// A page of an endpoint's deliveries, newest first; `next`: the cursor of
/// the next page.
#[derive(Debug, Clone)]
pub struct DeliveryPage {
    pub deliveries: Vec<DeliveryRow>,
    pub next: Option<String>,
}

/// Webhooks: the endpoints' service and the delivery worker.
#[derive(Debug)]
pub struct Webhooks {
    db: Db,
    settings: WebhookSettings,
}

fn webhook_not_found() -> ServiceError {
    ServiceError::NotFound(super::error::Refusal {
        code: "webhook_not_found",
        rule: None,
        message: "you have no webhook with this id".to_owned(),
    })
}

impl Webhooks {
    pub fn new(db: Db, settings: WebhookSettings) -> Arc<Self> {
        Arc::new(Webhooks { db, settings })
    }

    pub fn settings(&self) -> &WebhookSettings {
        &self.settings
    }

    /// Registers an endpoint for `events`; the answer's secret is shown
    /// this once.
    pub async fn create(
        &self,
        player_id: &str,
        url: &str,
        events: &[DeliveryEvent],
    ) -> Result<(Endpoint, String), ServiceError> {
        let parsed = check_url(url, self.settings.allow_private)?;
        let mask = events.iter().fold(0, |m, e| m | e.bit());
        if mask == 0 {
            return Err(ServiceError::invalid(
                "invalid_webhook_events",
                "subscribe to at least one event",
            ));
        }
        let secret = new_secret();
        let row = EndpointRow {
            id: uuid::Uuid::new_v4().to_string(),
            player_id: player_id.to_owned(),
            url: parsed.to_string(),
            secret: secret.clone(),
            events: mask,
            created_at: crate::db::now(),
        };
        if !self.db.create_webhook(&row, MAX_ENDPOINTS).await? {
            return Err(ServiceError::conflict(
                "too_many_webhooks",
                format!("a player may have at most {MAX_ENDPOINTS} webhooks"),
            ));
        }
        tracing::info!(player_id, webhook_id = row.id, "webhook registered");
        Ok((row.into(), secret))
    }

    pub async fn list(&self, player_id: &str) -> Result<Vec<Endpoint>, ServiceError> {
        Ok(self
            .db
            .webhooks_of(player_id)
            .await?
            .into_iter()
            .map(Endpoint::from)
            .collect())
    }

    pub async fn delete(&self, player_id: &str, id: &str) -> Result<(), ServiceError> {
        if self.db.delete_webhook(player_id, id).await? {
            Ok(())
        } else {
            Err(webhook_not_found())
        }
    }

    async fn own(&self, player_id: &str, id: &str) -> Result<EndpointRow, ServiceError> {
        self.db
            .webhook_of(player_id, id)
            .await?
            .ok_or_else(webhook_not_found)
    }

    /// Enqueues a `test` delivery to the endpoint; its row.
    pub async fn test(&self, player_id: &str, id: &str) -> Result<DeliveryRow, ServiceError> {
        let endpoint = self.own(player_id, id).await?;
        let payload = serde_json::json!({ "webhook_id": endpoint.id }).to_string();
        let event_id = self
            .db
            .enqueue_to_endpoint(&endpoint.id, DeliveryEvent::Test, &payload)
            .await?;
        self.db
            .delivery(&event_id)
            .await?
            .ok_or_else(|| ServiceError::internal("test delivery not read back"))
    }

    /// The endpoint's deliveries, newest first, `limit` per page, from
    /// `cursor` (a previous page's `next`).
    pub async fn deliveries(
        &self,
        player_id: &str,
        id: &str,
        cursor: Option<&str>,
        limit: i64,
    ) -> Result<DeliveryPage, ServiceError> {
        let endpoint = self.own(player_id, id).await?;
        let before = cursor.map(parse_cursor).transpose()?;
        let deliveries = self
            .db
            .deliveries_of(&endpoint.id, before, limit + 1)
            .await?;
        let mut deliveries = deliveries;
        let next = (deliveries.len() as i64 > limit).then(|| {
            deliveries.truncate(limit as usize);
            let last = deliveries.last().expect("a full page");
            format!("{}~{}", last.created_at.timestamp_micros(), last.id)
        });
        Ok(DeliveryPage { deliveries, next })
    }

    /// Makes a delivery due again (same event id, attempts from zero).
    pub async fn redeliver(
        &self,
        player_id: &str,
        id: &str,
        delivery_id: &str,
    ) -> Result<DeliveryRow, ServiceError> {
        let endpoint = self.own(player_id, id).await?;
        self.db
            .redeliver(&endpoint.id, delivery_id)
            .await?
            .ok_or_else(|| {
                ServiceError::NotFound(super::error::Refusal {
                    code: "delivery_not_found",
                    rule: None,
                    message: "this webhook has no delivery with this id".to_owned(),
                })
            })
    }

    /// Starts the worker (deadline warnings, deliveries) on `games`'
    /// runtime until the service stops; nothing when delivery is off.
    pub fn spawn(self: &Arc<Self>, games: Arc<GameService>) {
        if !self.settings.deliver {
            tracing::info!("webhook delivery is off in this process");
            return;
        }
        let this = self.clone();
        games.runtime.clone().spawn(async move {
            let client_lease = this.settings.timeout + LEASE_MARGIN;
            let mut stop = games.shutdown.subscribe();
            while !*stop.borrow() {
                if let Err(e) = this.warn_deadlines(&games).await {
                    tracing::warn!(error = %e, "deadline warnings failed");
                }
                let sent = match this.db.claim_deliveries(CLAIM_BATCH, client_lease).await {
                    Ok(claimed) => {
                        let n = claimed.len();
                        futures_util::future::join_all(
                            claimed.into_iter().map(|c| this.attempt(c)),
                        )
                        .await;
                        n
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "claiming webhook deliveries failed");
                        0
                    }
                };
                if sent as i64 == CLAIM_BATCH {
                    continue;
                }
                tokio::select! {
                    _ = stop.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        });
    }

    /// Writes the warnings of the clocks past their share: every seat to
    /// act is marked (so the game is not looked at again at this version),
    /// and the ones a person plays get a `deadline_warning` candidate.
    async fn warn_deadlines(&self, games: &GameService) -> Result<(), ServiceError> {
        let due = self
            .db
            .games_past_warning(self.settings.deadline_warning_share, WARNING_BATCH)
            .await?;
        for clock in due {
            let state = games.snapshot(&clock.game_id).await?;
            if state.row.version != clock.version {
                continue; // moved on since: its new clock is read next time
            }
            let mut seats = Vec::new();
            for s in &state.seats {
                let seat = s.seat.seat;
                if !(0..16).contains(&seat) || clock.to_act & (1 << seat) == 0 {
                    continue;
                }
                let person = s
                    .seat
                    .player_id
                    .as_deref()
                    .filter(|_| !s.seat.is_bot && !s.seat.autoplay);
                let outbox = person.map(|player| {
                    let number = u8::try_from(seat).unwrap_or_default();
                    let fields = TurnFields {
                        game_id: clock.game_id.clone(),
                        kind: state.row.kind.clone(),
                        seat: number,
                        prompt: state
                            .game
                            .prompt(cards::Seat::new(number))
                            .map(str::to_owned),
                        version: clock.version,
                        deadline_at: Some(clock.deadline_at),
                    };
                    candidate(
                        player,
                        DeliveryEvent::DeadlineWarning,
                        &clock.game_id,
                        &fields,
                    )
                });
                seats.push((seat, outbox.into_iter().collect()));
            }
            self.db
                .enqueue_deadline_warnings(&clock.game_id, clock.version, &seats)
                .await?;
        }
        Ok(())
    }

    /// One attempt of a claimed delivery, recorded.
    async fn attempt(&self, claimed: ClaimedDelivery) {
        let row = &claimed.delivery;
        let attempts = row.attempts + 1;
        let (status, last_status, error) = match self.send(&claimed).await {
            Ok(code) if (200..300).contains(&code) => (DeliveryStatus::Delivered, Some(code), None),
            Ok(code) => (
                self.after_failure(attempts),
                Some(code),
                Some(format!("the endpoint answered {code}")),
            ),
            Err((true, why)) => (DeliveryStatus::Failed, None, Some(why)),
            Err((false, why)) => (self.after_failure(attempts), None, Some(why)),
        };
        let next =
            Utc::now() + chrono::Duration::from_std(self.backoff(attempts)).unwrap_or_default();
        if let Err(e) = self
            .db
            .record_attempt(
                &row.id,
                status,
                attempts,
                last_status.map(i32::from),
                error.as_deref(),
                next,
            )
            .await
        {
            tracing::warn!(event_id = row.id, error = %e, "recording a webhook attempt failed");
        }
        tracing::debug!(event_id = row.id, ?status, attempts, "webhook attempt");
    }

    fn after_failure(&self, attempts: i32) -> DeliveryStatus {
        if attempts >= i32::try_from(self.settings.max_attempts).unwrap_or(i32::MAX) {
            DeliveryStatus::Failed
        } else {
            DeliveryStatus::Pending
        }
    }

    /// The wait after the `attempts`-th failed attempt.
    fn backoff(&self, attempts: i32) -> Duration {
        let doublings = u32::try_from(attempts.saturating_sub(1))
            .unwrap_or(0)
            .min(20);
        (self.settings.backoff_base * 2u32.pow(doublings)).min(MAX_BACKOFF)
    }

    /// Sends a delivery once: the endpoint's status code, or why not
    /// (`true`: refused, never retried).
    async fn send(&self, claimed: &ClaimedDelivery) -> Result<u16, (bool, String)> {
        let body = body_of(&claimed.delivery).map_err(|e| (true, e.to_string()))?;
        let url = reqwest::Url::parse(&claimed.url).map_err(|e| (true, e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err((true, "only http and https URLs are allowed".to_owned()));
        }
        let addr = resolve(&url, self.settings.allow_private).await?;
        let mut client = reqwest::Client::builder()
            .timeout(self.settings.timeout)
            .connect_timeout(self.settings.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .user_agent("cardgames-webhooks/1");
        // Connect to the address just checked, whatever DNS says later.
        if let Some(domain) = url.host_str().filter(|h| literal_ip(h).is_none()) {
            client = client.resolve(domain, addr);
        }
        let client = client.build().map_err(|e| (false, e.to_string()))?;
        let t = Utc::now().timestamp();
        let mut response = client
            .post(url)
            .header("content-type", "application/json")
            .header(SIGNATURE_HEADER, signature(&claimed.secret, t, &body))
            .header(EVENT_ID_HEADER, &claimed.delivery.id)
            .header(EVENT_TYPE_HEADER, claimed.delivery.event_type.as_str())
            .body(body)
            .send()
            .await
            .map_err(|e| (false, format!("request failed: {e}")))?;
        let code = response.status().as_u16();
        // Read (and drop) at most MAX_RESPONSE_BYTES of the answer.
        let mut read = 0;
        while read < MAX_RESPONSE_BYTES {
            match response.chunk().await {
                Ok(Some(chunk)) => read += chunk.len(),
                _ => break,
            }
        }
        Ok(code)
    }
}

fn parse_cursor(cursor: &str) -> Result<(DateTime<Utc>, String), ServiceError> {
    let bad = || ServiceError::bad_query("cursor is not a cursor this list gave");
    let (micros, id) = cursor.split_once('~').ok_or_else(bad)?;
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    let at = DateTime::<Utc>::from_timestamp_micros(micros).ok_or_else(bad)?;
    Ok((at, id.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231, test cases 1 and 2.
        assert_eq!(
            hex::encode(hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block.
        assert_eq!(
            hex::encode(hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn the_signature_is_over_the_time_and_the_body() {
        let s = signature("whsec_x", 1_700_000_000, "{}");
        let mac = hmac_sha256(b"whsec_x", b"1700000000.{}");
        assert_eq!(s, format!("t=1700000000,v1={}", hex::encode(mac)));
        assert_ne!(s, signature("whsec_x", 1_700_000_001, "{}"));
        assert_ne!(s, signature("whsec_y", 1_700_000_000, "{}"));
    }

    #[test]
    fn private_addresses_are_refused_and_public_ones_are_not() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(is_private(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "100.128.0.1"] {
            assert!(!is_private(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn registration_refuses_what_is_clearly_bad() {
        let code = |url: &str, allow: bool| match check_url(url, allow) {
            Ok(_) => "ok",
            Err(ServiceError::Invalid(r)) => r.code,
            Err(_) => "other",
        };
        assert_eq!(code("https://example.com/hook", false), "ok");
        assert_eq!(code("ftp://example.com/hook", false), "invalid_webhook_url");
        assert_eq!(code("not a url", false), "invalid_webhook_url");
        assert_eq!(
            code("https://u:p@example.com/", false),
            "invalid_webhook_url"
        );
        assert_eq!(
            code("http://127.0.0.1:9/", false),
            "webhook_address_refused"
        );
        assert_eq!(code("http://[::1]:9/", false), "webhook_address_refused");
        assert_eq!(
            code("http://localhost:9/", false),
            "webhook_address_refused"
        );
        assert_eq!(
            code("http://169.254.169.254/", false),
            "webhook_address_refused"
        );
        assert_eq!(code("http://127.0.0.1:9/", true), "ok");
    }

    #[test]
    fn chat_goes_to_everyone_seated_but_the_author() {
        let out = chat_outbox("g", "m", "ann", "Ann", "hi", &["ann", "bob", "cy"]);
        let to: Vec<_> = out.iter().map(|o| o.player_id.as_str()).collect();
        assert_eq!(to, ["bob", "cy"]);
        assert!(out.iter().all(|o| o.event == DeliveryEvent::Chat));
        let row = DeliveryRow {
            id: "k.e".into(),
            endpoint_id: "e".into(),
            event_type: DeliveryEvent::Chat,
            game_id: Some("g".into()),
            payload: out[0].payload.clone(),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: Utc::now(),
            claimed_until: None,
            claim: None,
            last_error: None,
            last_status: None,
            created_at: Utc::now(),
            finished_at: None,
        };
        let body: Value = serde_json::from_str(&body_of(&row).unwrap()).unwrap();
        assert_eq!(body["type"], "chat");
        assert_eq!(body["event_id"], "k.e");
        assert_eq!(body["text"], "hi");
        assert_eq!(body["author_name"], "Ann");
    }
}
