//! A player's endpoints: register (the URL checked by the address guard,
//! a secret shown once), list, delete, ping, the deliveries' pages and
//! redelivery. [`Webhooks`] is defined here, with the delivery worker's
//! half of it in `worker.rs`.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::address_guard::{Lookup, check_url, system_lookup};
use super::signing::new_secret;
use crate::config::WebhookSettings;
use crate::db::Db;
use crate::db::webhooks::{DeliveryEvent, DeliveryRow, EndpointRow};
use crate::games::error::{Refusal, ServiceError};

/// Endpoints one player may have.
pub const MAX_ENDPOINTS: i64 = 10;

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
    pub(super) db: Db,
    pub(super) settings: WebhookSettings,
    pub(super) lookup: Lookup,
}

impl std::fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhooks")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

fn webhook_not_found() -> ServiceError {
    ServiceError::NotFound(Refusal {
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
                ServiceError::NotFound(Refusal {
                    code: "delivery_not_found",
                    rule: None,
                    message: "this webhook has no delivery with this id".to_owned(),
                })
            })
    }
}

fn parse_cursor(cursor: &str) -> Result<(DateTime<Utc>, String), ServiceError> {
    let bad = || ServiceError::bad_query("cursor is not a cursor this list gave");
    let (micros, id) = cursor.split_once('~').ok_or_else(bad)?;
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    let at = DateTime::<Utc>::from_timestamp_micros(micros).ok_or_else(bad)?;
    Ok((at, id.to_owned()))
}
