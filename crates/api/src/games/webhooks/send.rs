//! One attempt of a delivery: the body signed, the host resolved and
//! checked by the address guard, a connection to the checked addresses
//! only, and the endpoint's status code (or why not).

use std::sync::Arc;

use chrono::Utc;

use super::address_guard::{Lookup, NoLookup, literal_ip, resolve};
use super::schema::body_of;
use super::signing::signature;
use crate::config::WebhookSettings;
use crate::db::webhooks::ClaimedDelivery;

/// How much of an endpoint's answer is read (the rest is dropped).
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256>`.
pub const SIGNATURE_HEADER: &str = "Cardgames-Signature";
/// The event id header (the body's `event_id`).
pub const EVENT_ID_HEADER: &str = "Cardgames-Event-Id";
/// The event type header (the body's `type`).
pub const EVENT_TYPE_HEADER: &str = "Cardgames-Event-Type";

/// Sends a delivery once: the endpoint's status code, or why not (`true`:
/// refused, never retried). Resolves and checks the host, then connects to
/// the checked addresses only.
pub(super) async fn send_once(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::webhooks::{DeliveryEvent, DeliveryRow, DeliveryStatus};
    use crate::games::webhooks::address_guard::fixed_lookup;
    use std::net::SocketAddr;
    use std::time::Duration;

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
}
