//! `/v1/players/me/webhooks`: the caller's webhook endpoints, a ping, the
//! delivery log and redelivery (docs/webhooks.md).

pub mod create_webhook;
pub mod delete_webhook;
pub mod list_deliveries;
pub mod list_webhooks;
pub mod redeliver;
pub mod test_webhook;
