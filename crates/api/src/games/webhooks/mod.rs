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
//! - **Quick play.** [`table_formed_outbox`] builds the candidates of a
//!   table formed from seeks (`seek_matched` to each member, then the
//!   game's start); the seeks' transaction writes them (`db::seeks`).
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
//!
//! One file per concern, in the order a delivery passes through them:
//! `candidates` (what a change tells whom: the rows for the webhook outbox
//! in the store; not `games::outbox`, which is a stream's in-memory queue),
//! `schema` (the bodies), `signing`, `address_guard` (where the server may
//! connect), `send` (one attempt), `subscriptions` (a player's endpoints)
//! and `worker` (the loops that deliver). This file only declares them and
//! re-exports their public surface, so `games::webhooks::…` paths hold.

mod address_guard;
mod candidates;
mod schema;
mod send;
mod signing;
mod subscriptions;
mod worker;

pub use address_guard::{Lookup, MAX_URL_LEN, address_refusal, may_connect, system_lookup};
pub use candidates::chat_outbox;
pub(super) use candidates::{challenge_outbox, outbox_for, table_formed_outbox};
pub use schema::{
    ChallengeDelivery, ChatDelivery, GameDelivery, SeekMatchedDelivery, TestDelivery, TurnDelivery,
    WebhookDelivery, body_of,
};
pub use send::{EVENT_ID_HEADER, EVENT_TYPE_HEADER, MAX_RESPONSE_BYTES, SIGNATURE_HEADER};
pub use signing::{hmac_sha256, signature};
pub use subscriptions::{DeliveryPage, Endpoint, MAX_ENDPOINTS, Webhooks};
pub use worker::{MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_ENDPOINT};
