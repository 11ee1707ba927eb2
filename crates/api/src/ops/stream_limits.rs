//! How many streams one client may hold open, and how many spectators'
//! streams there may be in all (`STREAMS_PER_CLIENT`, `ANONYMOUS_STREAMS`).
//!
//! An open stream costs its process a connection, a task's state and,
//! while it catches up, reads of the log and their frames; a client that
//! opens hundreds and never reads them would otherwise take the workers
//! from everyone else. A client is the player of the token or ticket, else
//! the peer IP (as for the rate limit: `X-Forwarded-For` is not trusted).
//! Every stream endpoint asks for a [`StreamSlot`] before it answers and
//! holds it in the response body, so the slot is given back when the
//! connection ends, however it ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};

use crate::error::ApiError;

/// A client, as the limits count them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Client {
    Player(String),
    Peer(IpAddr),
}

/// The limits and the streams open now.
#[derive(Debug)]
pub struct StreamLimits {
    /// Streams per client; 0: no limit.
    per_client: usize,
    /// Streams without a token or ticket, in all; 0: no limit.
    anonymous: usize,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    by_client: HashMap<Client, usize>,
    anonymous: usize,
}

/// One open stream, counted until dropped.
#[derive(Debug)]
pub struct StreamSlot {
    limits: Arc<StreamLimits>,
    client: Client,
    anonymous: bool,
}

/// How long a refused client is told to wait: streams end when their
/// clients close them, so a slot may be free at once.
const RETRY_AFTER_SECS: u32 = 5;

impl StreamLimits {
    pub fn new(per_client: usize, anonymous: usize) -> Arc<StreamLimits> {
        Arc::new(StreamLimits {
            per_client,
            anonymous,
            open: Mutex::default(),
        })
    }

    /// A slot for a stream of `player` (a token or ticket), else of the
    /// peer at `peer`; refused (429, or 503 when the spectators' streams
    /// are all taken) with `too_many_streams`.
    pub fn admit(
        self: &Arc<Self>,
        player: Option<&str>,
        peer: Option<IpAddr>,
    ) -> Result<StreamSlot, ApiError> {
        let client = match (player, peer) {
            (Some(player), _) => Client::Player(player.to_owned()),
            (None, Some(ip)) => Client::Peer(ip),
            // No peer address (a test's in-memory request): one client.
            (None, None) => Client::Peer(IpAddr::from([0, 0, 0, 0])),
        };
        let anonymous = player.is_none();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let held = open.by_client.get(&client).copied().unwrap_or(0);
        if self.per_client > 0 && held >= self.per_client {
            return Err(refused(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this client holds {held} open streams, the most allowed \
                     (STREAMS_PER_CLIENT); close one first"
                ),
            ));
        }
        if anonymous && self.anonymous > 0 && open.anonymous >= self.anonymous {
            return Err(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "every stream for spectators is taken (ANONYMOUS_STREAMS); \
                 retry later, or follow the game with a token"
                    .to_owned(),
            ));
        }
        *open.by_client.entry(client.clone()).or_insert(0) += 1;
        open.anonymous += usize::from(anonymous);
        Ok(StreamSlot {
            limits: self.clone(),
            client,
            anonymous,
        })
    }

    /// Streams open now (all, and without a token or ticket).
    pub fn open(&self) -> (usize, usize) {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        (open.by_client.values().sum(), open.anonymous)
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self
            .limits
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = open.by_client.get_mut(&self.client) {
            *held -= 1;
            if *held == 0 {
                open.by_client.remove(&self.client);
            }
        }
        open.anonymous -= usize::from(self.anonymous);
    }
}

fn refused(status: StatusCode, detail: String) -> ApiError {
    let title = match status {
        StatusCode::TOO_MANY_REQUESTS => "Too many requests",
        _ => "Service unavailable",
    };
    ApiError::new(status, "too_many_streams", title, detail)
        .with_header(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANN: Option<&str> = Some("ann");
    const HOME: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1)));

    #[test]
    fn a_client_holds_at_most_its_share_and_gets_it_back() {
        let limits = StreamLimits::new(2, 0);
        let first = limits.admit(ANN, HOME).unwrap();
        let _second = limits.admit(ANN, HOME).unwrap();
        let refused = limits.admit(ANN, HOME).unwrap_err();
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        // Another client, and the same address without a token, are others.
        limits.admit(Some("bob"), HOME).unwrap();
        limits.admit(None, HOME).unwrap();
        drop(first);
        limits.admit(ANN, HOME).unwrap();
    }

    #[test]
    fn spectators_streams_are_bounded_in_all() {
        let limits = StreamLimits::new(0, 2);
        let peer = |n: u8| Some(IpAddr::from([198, 51, 100, n]));
        let _a = limits.admit(None, peer(1)).unwrap();
        let b = limits.admit(None, peer(2)).unwrap();
        let refused = limits.admit(None, peer(3)).unwrap_err();
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        // A player's stream is not a spectator's.
        let _ann = limits.admit(ANN, peer(3)).unwrap();
        drop(b);
        let _c = limits.admit(None, peer(3)).unwrap();
        assert_eq!(limits.open(), (3, 2));
    }
}
