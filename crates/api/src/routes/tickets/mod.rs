//! `/v1/stream-tickets`: short-lived tickets that open streams from a
//! browser's `EventSource` (see `auth`).

pub mod create_stream_ticket;
