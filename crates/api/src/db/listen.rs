//! Postgres `LISTEN` on a dedicated, unpooled connection: how one api process
//! learns of another's appends to the same database (each append is followed
//! by `pg_notify(CHANNEL, '<game_id> <version>')`, sent when it commits: see
//! [`super::Db::append`]). The connection is re-established when it
//! drops; after each (re)connect the listener reports a resync, because
//! notifications sent while it was away are lost.

use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures_util::StreamExt;

/// The notification channel of appends.
pub const CHANNEL: &str = "cards_game_events";

/// What the listener hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A game reached a version (in some process).
    Appended { game_id: String, version: i64 },
    /// Notifications may have been missed: look at everything again.
    Resync,
}

/// Parses a notification payload `"<game_id> <version>"`.
pub fn parse_payload(payload: &str) -> Option<Heard> {
    let (game_id, version) = payload.rsplit_once(' ')?;
    Some(Heard::Appended {
        game_id: game_id.to_owned(),
        version: version.parse().ok()?,
    })
}

/// Listens until `stop` turns true, reconnecting with a growing pause (up
/// to 5 s) when the connection cannot be made or drops.
pub async fn listen(
    url: String,
    mut stop: tokio::sync::watch::Receiver<bool>,
    deliver: impl Fn(Heard) + Send + 'static,
) {
    let mut pause = Duration::from_millis(100);
    while !*stop.borrow() {
        match AsyncPgConnection::establish(&url).await {
            Ok(mut conn) => {
                let listening = diesel::sql_query(format!("LISTEN {CHANNEL}"))
                    .execute(&mut conn)
                    .await;
                match listening {
                    Ok(_) => {
                        pause = Duration::from_millis(100);
                        deliver(Heard::Resync);
                        let mut notifications = std::pin::pin!(conn.notifications_stream());
                        loop {
                            tokio::select! {
                                _ = stop.changed() => return,
                                next = notifications.next() => match next {
                                    Some(Ok(n)) => match parse_payload(&n.payload) {
                                        Some(heard) => deliver(heard),
                                        None => tracing::warn!(payload = n.payload, "odd notification"),
                                    },
                                    Some(Err(e)) => {
                                        tracing::warn!(error = %e, "LISTEN connection failed; reconnecting");
                                        break;
                                    }
                                    None => {
                                        tracing::warn!("LISTEN connection closed; reconnecting");
                                        break;
                                    }
                                },
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "LISTEN refused; retrying"),
                }
            }
            Err(e) => tracing::warn!(error = %e, "no LISTEN connection; retrying"),
        }
        tokio::select! {
            _ = stop.changed() => return,
            _ = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(Duration::from_secs(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_parse() {
        assert_eq!(
            parse_payload("0b6f-x 12"),
            Some(Heard::Appended {
                game_id: "0b6f-x".to_owned(),
                version: 12
            })
        );
        assert_eq!(parse_payload("nonsense"), None);
    }
}
