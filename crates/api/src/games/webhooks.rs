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
//!   processes send one row at once), as many as it has send slots free
//!   and no more than [`MAX_IN_FLIGHT_PER_ENDPOINT`] held per endpoint,
//!   and sends each in a task of its own (so a hanging endpoint delays
//!   only its own deliveries): signs the body (HMAC-SHA256 over
//!   `"<t>.<body>"`), checks the address ([`address_refusal`], the one
//!   rule, also at registration; unless `WEBHOOK_ALLOW_PRIVATE`), connects
//!   to the checked addresses only, and records the attempt; a failure is
//!   retried with exponential back-off and given up after
//!   `WEBHOOK_MAX_ATTEMPTS`.
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
/// Sends in flight per process at most (each a task): the claim asks for
/// no more than the slots free.
pub const MAX_IN_FLIGHT: usize = 64;
/// Sends in flight per endpoint at most, across processes (the claim
/// counts the rows held): an endpoint that hangs holds this many slots
/// until `WEBHOOK_TIMEOUT_MS`, and nobody else's deliveries wait for it.
pub const MAX_IN_FLIGHT_PER_ENDPOINT: i64 = 2;
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

/// IPv4 ranges the server never calls by default: (network, prefix length,
/// what it is). Everything not globally reachable unicast (RFC 6890 and the
/// IANA special-purpose registry).
const V4_REFUSED: &[([u8; 4], u8, &str)] = &[
    ([0, 0, 0, 0], 8, "\"this network\""),
    ([10, 0, 0, 0], 8, "private"),
    ([100, 64, 0, 0], 10, "CGNAT shared"),
    ([127, 0, 0, 0], 8, "loopback"),
    ([169, 254, 0, 0], 16, "link-local"),
    ([172, 16, 0, 0], 12, "private"),
    ([192, 0, 0, 0], 24, "IETF protocol assignments"),
    ([192, 0, 2, 0], 24, "documentation"),
    ([192, 88, 99, 0], 24, "6to4 relay anycast"),
    ([192, 168, 0, 0], 16, "private"),
    ([198, 18, 0, 0], 15, "benchmarking"),
    ([198, 51, 100, 0], 24, "documentation"),
    ([203, 0, 113, 0], 24, "documentation"),
    ([224, 0, 0, 0], 4, "multicast"),
    // 255.255.255.255 (broadcast) included.
    ([240, 0, 0, 0], 4, "reserved"),
];

/// IPv6 ranges refused inside 2000::/3 (everything outside it is refused
/// already: unspecified, loopback, discard-only 100::/64, NAT64 local-use
/// 64:ff9b:1::/48, unique-local, site-local, link-local, multicast, SRv6,
/// unassigned).
const V6_REFUSED: &[(u128, u8, &str)] = &[
    (0x2001_0002 << 96, 48, "benchmarking"),
    // Teredo (2001::/32) is decided by its IPv4 addresses before this.
    (0x2001_0000 << 96, 23, "IETF protocol assignments"),
    (0x2001_0db8 << 96, 32, "documentation"),
    (0x3fff_0000 << 96, 20, "documentation"),
];

fn v4_in(ip: std::net::Ipv4Addr, net: [u8; 4], len: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
    u32::from(ip) & mask == u32::from_be_bytes(net) & mask
}

fn v6_in(bits: u128, net: u128, len: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
    bits & mask == net & mask
}

/// The IPv4 addresses an IPv6 address stands for, when it is one of the
/// forms that carry them: IPv4-mapped `::ffff:0:0/96`, IPv4-compatible
/// `::/96` (`::` and `::1` included: 0.0.0.0 and 0.0.0.1), IPv4-translated
/// `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16` (the relay's
/// v4 in bits 16..48) and Teredo `2001::/32` (the server's v4 and the
/// client's, stored inverted).
fn embedded_v4(ip: std::net::Ipv6Addr) -> Option<Vec<std::net::Ipv4Addr>> {
    let bits = u128::from(ip);
    let low = std::net::Ipv4Addr::from(bits as u32);
    if v6_in(bits, 0xffff << 32, 96)
        || v6_in(bits, 0, 96)
        || v6_in(bits, 0xffff << 48, 96)
        || v6_in(bits, 0x0064_ff9b << 96, 96)
    {
        return Some(vec![low]);
    }
    if v6_in(bits, 0x2002 << 112, 16) {
        return Some(vec![std::net::Ipv4Addr::from((bits >> 80) as u32)]);
    }
    if v6_in(bits, 0x2001_0000 << 96, 32) {
        let server = std::net::Ipv4Addr::from((bits >> 64) as u32);
        return Some(vec![server, std::net::Ipv4Addr::from(!(bits as u32))]);
    }
    None
}

/// Why the server may not connect to `ip` by default (without
/// `WEBHOOK_ALLOW_PRIVATE`), or `None` when it may: the one rule for
/// registration and for every address a send connects to. Allowed is
/// globally reachable unicast only: IPv4 outside [`V4_REFUSED`]; IPv6
/// in 2000::/3 outside [`V6_REFUSED`]; an IPv6 form that carries IPv4
/// addresses ([`embedded_v4`]) is decided by those, by the IPv4 rule.
pub fn address_refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => V4_REFUSED
            .iter()
            .find(|(net, len, _)| v4_in(v4, *net, *len))
            .map(|(_, _, what)| *what),
        IpAddr::V6(v6) => {
            if let Some(v4s) = embedded_v4(v6) {
                return v4s
                    .into_iter()
                    .find_map(|v4| address_refusal(IpAddr::V4(v4)));
            }
            let bits = u128::from(v6);
            if !v6_in(bits, 0x2000 << 112, 3) {
                return Some(match bits >> 120 {
                    0xff => "multicast",
                    0xfe if bits >> 118 & 0b11 == 0b10 => "link-local",
                    0xfe if bits >> 118 & 0b11 == 0b11 => "site-local",
                    0xfc | 0xfd => "unique-local",
                    _ => "not global unicast",
                });
            }
            V6_REFUSED
                .iter()
                .find(|(net, len, _)| v6_in(bits, *net, *len))
                .map(|(_, _, what)| *what)
        }
    }
}

/// Whether the server may connect to `ip` by default ([`address_refusal`]).
pub fn may_connect(ip: IpAddr) -> bool {
    address_refusal(ip).is_none()
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
    if !allow_private && (named_local || literal_ip(host).is_some_and(|ip| !may_connect(ip))) {
        return Err(refused());
    }
    Ok(parsed)
}

/// How a host name becomes addresses when a delivery is sent: the
/// system's resolver ([`system_lookup`]); tests substitute their own (no
/// DNS leaves the machine).
pub type Lookup = Arc<
    dyn Fn(
            String,
            u16,
        ) -> futures_util::future::BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>
        + Send
        + Sync,
>;

/// The system's resolver (`getaddrinfo`, on tokio's blocking pool).
pub fn system_lookup() -> Lookup {
    Arc::new(|host, port| {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host.as_str(), port))
                .await?
                .collect())
        })
    })
}

/// Where a delivery may connect: the URL's host resolved now by `lookup`,
/// every address checked by [`address_refusal`] (a name that resolves to
/// any refused address is refused). `Err(true)`: refused (never retried);
/// `Err(false)`: not resolvable now (retried).
async fn resolve(
    url: &reqwest::Url,
    allow_private: bool,
    lookup: &Lookup,
) -> Result<Vec<SocketAddr>, (bool, String)> {
    let port = url
        .port_or_known_default()
        .ok_or((true, "no port".to_owned()))?;
    let host = url.host_str().ok_or((true, "no host".to_owned()))?;
    let addrs: Vec<SocketAddr> = match literal_ip(host) {
        Some(ip) => vec![SocketAddr::new(ip, port)],
        None => lookup(host.to_owned(), port)
            .await
            .map_err(|e| (false, format!("could not resolve {host}: {e}")))?,
    };
    if addrs.is_empty() {
        return Err((false, "the host resolved to no address".to_owned()));
    }
    if !allow_private
        && let Some((bad, why)) = addrs
            .iter()
            .find_map(|a| Some((a.ip(), address_refusal(a.ip())?)))
    {
        return Err((true, format!("address refused: {bad} ({why})")));
    }
    Ok(addrs)
}

/// A resolver that resolves nothing: the client of a delivery connects to
/// the addresses [`resolve`] checked (pinned) and never looks a name up on
/// its own, so DNS answering differently a moment later cannot redirect it.
struct NoLookup;

impl reqwest::dns::Resolve for NoLookup {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let name = name.as_str().to_owned();
        Box::pin(async move {
            Err(format!("{name}: not among the addresses checked for this delivery").into())
        })
    }
}

/// Sends a delivery once: the endpoint's status code, or why not (`true`:
/// refused, never retried). Resolves and checks the host, then connects to
/// the checked addresses only.
async fn send_once(
    settings: &WebhookSettings,
    lookup: &Lookup,
    claimed: &ClaimedDelivery,
) -> Result<u16, (bool, String)> {
    let body = body_of(&claimed.delivery).map_err(|e| (true, e.to_string()))?;
    let url = reqwest::Url::parse(&claimed.url).map_err(|e| (true, e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err((true, "only http and https URLs are allowed".to_owned()));
    }
    let addrs = resolve(&url, settings.allow_private, lookup).await?;
    let mut client = reqwest::Client::builder()
        .timeout(settings.timeout)
        .connect_timeout(settings.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(Arc::new(NoLookup))
        .user_agent("cardgames-webhooks/1");
    // A name connects to the addresses just checked, whatever DNS says
    // later (an IP literal is connected to as it is, checked above).
    if let Some(domain) = url.host_str().filter(|h| literal_ip(h).is_none()) {
        client = client.resolve_to_addrs(domain, &addrs);
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
pub struct Webhooks {
    db: Db,
    settings: WebhookSettings,
    lookup: Lookup,
}

impl std::fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhooks")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
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
        Self::with_lookup(db, settings, system_lookup())
    }

    /// With another resolver for the endpoints' host names (tests).
    pub fn with_lookup(db: Db, settings: WebhookSettings, lookup: Lookup) -> Arc<Self> {
        Arc::new(Webhooks {
            db,
            settings,
            lookup,
        })
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
        let warner = games.clone();
        games.runtime.spawn(async move {
            let mut stop = warner.shutdown.subscribe();
            while !*stop.borrow() {
                if let Err(e) = this.warn_deadlines(&warner).await {
                    tracing::warn!(error = %e, "deadline warnings failed");
                }
                tokio::select! {
                    _ = stop.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        });
        let this = self.clone();
        let stop = games.shutdown.subscribe();
        games.runtime.spawn(this.deliver(stop));
    }

    /// The delivery loop: keeps up to [`MAX_IN_FLIGHT`] sends in flight,
    /// each its own task, and claims more whenever one ends or every
    /// [`POLL`]; the claim takes no more than the slots free (a claimed row
    /// is sent at once, never queued here) and no more of an endpoint's
    /// than [`MAX_IN_FLIGHT_PER_ENDPOINT`] held at once. So a slow or
    /// hanging endpoint holds only its own slots and nobody else's
    /// delivery waits for it. At the stop, the sends in flight finish and
    /// are recorded (each within the timeout).
    async fn deliver(self: Arc<Self>, mut stop: tokio::sync::watch::Receiver<bool>) {
        let lease = self.settings.timeout + LEASE_MARGIN;
        let mut sends = tokio::task::JoinSet::new();
        while !*stop.borrow() {
            while sends.try_join_next().is_some() {}
            let free = MAX_IN_FLIGHT.saturating_sub(sends.len());
            if free > 0 {
                match self
                    .db
                    .claim_deliveries(free as i64, MAX_IN_FLIGHT_PER_ENDPOINT, lease)
                    .await
                {
                    Ok(claimed) => {
                        for c in claimed {
                            let this = self.clone();
                            sends.spawn(async move { this.attempt(c).await });
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "claiming webhook deliveries failed"),
                }
            }
            tokio::select! {
                _ = stop.changed() => {}
                _ = tokio::time::sleep(POLL) => {}
                Some(_) = sends.join_next(), if !sends.is_empty() => {}
            }
        }
        while sends.join_next().await.is_some() {}
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
        let (status, last_status, error) = match send_once(&self.settings, &self.lookup, &claimed)
            .await
        {
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

    /// The one address rule, range by range: (address, why refused;
    /// `None`: may connect).
    #[test]
    fn the_address_rule_refuses_every_special_range() {
        let table: &[(&str, Option<&str>)] = &[
            // IPv4.
            ("0.0.0.0", Some("\"this network\"")),
            ("0.255.255.255", Some("\"this network\"")),
            ("10.0.0.1", Some("private")),
            ("10.255.255.255", Some("private")),
            ("100.64.0.1", Some("CGNAT shared")),
            ("100.127.255.255", Some("CGNAT shared")),
            ("127.0.0.1", Some("loopback")),
            ("127.255.0.9", Some("loopback")),
            ("169.254.169.254", Some("link-local")),
            ("172.16.0.1", Some("private")),
            ("172.31.255.255", Some("private")),
            ("192.0.0.8", Some("IETF protocol assignments")),
            ("192.0.2.1", Some("documentation")),
            ("192.88.99.1", Some("6to4 relay anycast")),
            ("192.168.1.1", Some("private")),
            ("198.18.0.1", Some("benchmarking")),
            ("198.19.255.255", Some("benchmarking")),
            ("198.51.100.7", Some("documentation")),
            ("203.0.113.9", Some("documentation")),
            ("224.0.0.1", Some("multicast")),
            ("239.255.255.250", Some("multicast")),
            ("240.0.0.1", Some("reserved")),
            ("255.255.255.255", Some("reserved")),
            // Just outside those ranges: public.
            ("1.1.1.1", None),
            ("8.8.8.8", None),
            ("9.255.255.255", None),
            ("11.0.0.0", None),
            ("100.63.255.255", None),
            ("100.128.0.1", None),
            ("126.255.255.255", None),
            ("128.0.0.1", None),
            ("169.253.255.255", None),
            ("172.15.255.255", None),
            ("172.32.0.0", None),
            ("192.0.1.1", None),
            ("192.0.3.1", None),
            ("192.167.255.255", None),
            ("192.169.0.0", None),
            ("198.17.255.255", None),
            ("198.20.0.0", None),
            ("223.255.255.255", None),
            // IPv6, not global unicast.
            ("::", Some("\"this network\"")),
            ("::1", Some("\"this network\"")),
            ("100::1", Some("not global unicast")),
            ("64:ff9b:1::a00:1", Some("not global unicast")),
            ("64:ff9b:1::808:808", Some("not global unicast")),
            ("fc00::1", Some("unique-local")),
            ("fd12:3456::1", Some("unique-local")),
            ("fe80::1", Some("link-local")),
            ("febf::1", Some("link-local")),
            ("fec0::1", Some("site-local")),
            ("ff02::1", Some("multicast")),
            ("ff0e::1", Some("multicast")),
            ("5f00::1", Some("not global unicast")),
            ("4000::1", Some("not global unicast")),
            // IPv6 special ranges inside 2000::/3.
            ("2001:db8::1", Some("documentation")),
            ("3fff::1", Some("documentation")),
            ("3fff:fff:ffff::1", Some("documentation")),
            ("2001:2::1", Some("benchmarking")),
            ("2001:10::1", Some("IETF protocol assignments")),
            ("2001:1ff::1", Some("IETF protocol assignments")),
            // IPv4 carried in IPv6: decided by the IPv4 rule.
            ("::ffff:127.0.0.1", Some("loopback")),
            ("::ffff:10.0.0.1", Some("private")),
            ("::ffff:169.254.169.254", Some("link-local")),
            ("::ffff:8.8.8.8", None),
            ("::127.0.0.1", Some("loopback")),
            ("::10.1.2.3", Some("private")),
            ("::8.8.8.8", None),
            ("::ffff:0:a9fe:a9fe", Some("link-local")),
            ("::ffff:0:7f00:1", Some("loopback")),
            ("::ffff:0:808:808", None),
            ("64:ff9b::a9fe:a9fe", Some("link-local")),
            ("64:ff9b::a00:1", Some("private")),
            ("64:ff9b::808:808", None),
            ("2002:a9fe:a9fe::", Some("link-local")),
            ("2002:7f00:1::1", Some("loopback")),
            ("2002:c000:204::1", Some("documentation")),
            ("2002:808:808::1", None),
            // Teredo: server 65.54.227.120, client 192.0.2.45 inverted.
            (
                "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                Some("documentation"),
            ),
            // Server 10.0.0.1: refused whatever the client.
            ("2001:0:a00:1::f7f7:f7f7", Some("private")),
            // Server 8.8.8.8, client 1.1.1.1 (fefe:fefe inverted).
            ("2001:0:808:808::fefe:fefe", None),
            // Client 127.0.0.1 (80ff:fffe inverted).
            ("2001:0:808:808::80ff:fffe", Some("loopback")),
            // Public IPv6.
            ("2606:4700:4700::1111", None),
            ("2001:4860:4860::8888", None),
            ("2a00:1450::1", None),
            ("2001:200::1", None),
            ("3ffe::1", None),
            ("3fff:1000::1", None),
        ];
        for (ip, why) in table {
            let addr: IpAddr = ip.parse().unwrap();
            assert_eq!(address_refusal(addr), *why, "{ip}");
            assert_eq!(may_connect(addr), why.is_none(), "{ip}");
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
        // IPv4 in IPv6 forms (translated, 6to4, NAT64, mapped) and
        // documentation ranges: the same rule as at send time.
        for url in [
            "http://[::ffff:0:a9fe:a9fe]/",
            "http://[2002:a9fe:a9fe::]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[::ffff:169.254.169.254]/",
            "http://[fe80::1]/",
            "http://[3fff::1]/",
            "http://192.0.2.1/",
            "http://0x7f.1/",
        ] {
            assert_eq!(code(url, false), "webhook_address_refused", "{url}");
            assert_eq!(code(url, true), "ok", "{url}");
        }
        assert_eq!(code("http://1.1.1.1/", false), "ok");
        assert_eq!(code("http://[2606:4700:4700::1111]/", false), "ok");
        assert_eq!(code("http://127.0.0.1:9/", true), "ok");
    }

    /// A resolver of fixed answers (no DNS leaves the machine).
    fn fixed_lookup(answers: Vec<SocketAddr>) -> Lookup {
        Arc::new(move |_host, _port| {
            let answers = answers.clone();
            Box::pin(async move { Ok(answers) })
        })
    }

    /// At send time the name's addresses are checked as resolved: one
    /// refused address among public ones refuses the send, whatever the
    /// name looked like at registration (DNS rebinding).
    #[tokio::test]
    async fn the_resolved_addresses_are_checked_at_send_time() {
        let url = reqwest::Url::parse("https://hooks.example/x").unwrap();
        let public: SocketAddr = "1.1.1.1:443".parse().unwrap();
        let metadata: SocketAddr = "[::ffff:0:a9fe:a9fe]:443".parse().unwrap();
        let ok = resolve(&url, false, &fixed_lookup(vec![public])).await;
        assert_eq!(ok, Ok(vec![public]));
        let rebound = resolve(&url, false, &fixed_lookup(vec![public, metadata])).await;
        assert_eq!(
            rebound,
            Err((
                true,
                "address refused: ::ffff:0:a9fe:a9fe (link-local)".to_owned()
            ))
        );
        let allowed = resolve(&url, true, &fixed_lookup(vec![metadata])).await;
        assert_eq!(allowed, Ok(vec![metadata]));
        let none = resolve(&url, false, &fixed_lookup(vec![])).await;
        assert!(matches!(none, Err((false, _))), "{none:?}");
        // An IP literal is checked as it is, never looked up.
        let literal = reqwest::Url::parse("http://[2002:a9fe:a9fe::]:8080/").unwrap();
        let refused = resolve(&literal, false, &fixed_lookup(vec![public])).await;
        assert!(matches!(refused, Err((true, _))), "{refused:?}");
    }

    fn claimed_ping(url: String) -> ClaimedDelivery {
        let now = Utc::now();
        ClaimedDelivery {
            delivery: DeliveryRow {
                id: "k.e".into(),
                endpoint_id: "e".into(),
                event_type: DeliveryEvent::Test,
                game_id: None,
                payload: r#"{"webhook_id":"e"}"#.into(),
                status: DeliveryStatus::Pending,
                attempts: 0,
                next_attempt_at: now,
                claimed_until: None,
                claim: None,
                last_error: None,
                last_status: None,
                created_at: now,
                finished_at: None,
            },
            url,
            secret: "whsec_x".into(),
        }
    }

    /// The send connects to the address the check saw (the name is never
    /// looked up again by the client): a name the substitute resolver maps
    /// to a loopback receiver is refused without a connection by default,
    /// and with private addresses allowed reaches exactly that receiver.
    #[tokio::test]
    async fn a_send_connects_to_the_checked_address_only() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = accepted.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let _ = socket
                    .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                    .await;
            }
        });
        let lookup = fixed_lookup(vec![SocketAddr::from(([127, 0, 0, 1], port))]);
        let ping = claimed_ping(format!("http://rebind.invalid:{port}/hook"));
        let settings = |allow_private| WebhookSettings {
            allow_private,
            timeout: Duration::from_secs(5),
            ..WebhookSettings::default()
        };
        let refused = send_once(&settings(false), &lookup, &ping).await;
        assert_eq!(
            refused,
            Err((true, "address refused: 127.0.0.1 (loopback)".to_owned()))
        );
        assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 0);
        let sent = send_once(&settings(true), &lookup, &ping).await;
        assert_eq!(sent, Ok(204));
        assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 1);
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
