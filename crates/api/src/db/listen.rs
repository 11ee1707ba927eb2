//! Postgres `LISTEN` on a dedicated, unpooled connection: how one api process
//! learns of another's appends to the same database (appends are followed
//! by `pg_notify(CHANNEL, '<game_id> <version> <player>,<player>…\n…')`
//! (the players seated in the game, for routing), batched: see
//! [`super::Db::notify_appended`]). The connection is re-established when it
//! drops; after each (re)connect the listener reports a resync, because
//! notifications sent while it was away are lost.
//!
//! The same connection keeps this process's copy of the token revocations
//! (channel [`revocations::CHANNEL`], see [`super::revocations`]).
//!
//! Each payload opens with a line naming the process that sent it
//! (`@<sender> 0 -`), so that a process passes over its own: it told its
//! own streams when it appended. An older reader takes that line for an
//! append to a game nobody follows, which changes nothing.

use std::sync::Arc;
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection as _};
use futures_util::{FutureExt as _, StreamExt};

use super::revocations::{self, HEARTBEAT, RELOAD_AFTER, Revocation, Revocations, TRUSTED_FOR};

/// The notification channel of appends.
pub const CHANNEL: &str = "cards_game_events";

/// What the listener hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A game reached a version (in some process); the players seated in
    /// it, when the payload names them.
    Appended {
        game_id: String,
        version: i64,
        players: Option<Vec<String>>,
    },
    /// A message was posted to a game (table talk): a line
    /// `"<game_id> m<seq>"`.
    Message { game_id: String, seq: i64 },
    /// Notifications may have been missed: look at everything again.
    Resync,
}

/// A notification payload read: who sent it, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload<'a> {
    /// The sending process (its `@` line), if named.
    pub sender: Option<&'a str>,
    pub heard: Vec<Heard>,
}

/// The line naming the process that sent a payload.
fn sender_line(sender: &str) -> String {
    format!("@{sender} 0 -")
}

/// Parses a notification payload: an optional `"@<sender> 0 -"` line, then
/// lines `"<game_id> <version>"`, then optionally ` <player>,<player>…` (a
/// game nobody sits in: ` -`), or `"<game_id> m<seq>"` for a message
/// posted (table talk).
pub fn parse_payload(payload: &str) -> Option<Payload<'_>> {
    let mut sender = None;
    let heard = payload
        .lines()
        .filter(|line| match line.strip_prefix('@') {
            Some(named) => {
                sender = named.split(' ').next();
                false
            }
            None => true,
        })
        .map(|line| {
            let mut parts = line.split(' ');
            let game_id = parts.next().filter(|g| !g.is_empty())?;
            let version = parts.next()?;
            if let Some(seq) = version.strip_prefix('m') {
                let seq = seq.parse().ok()?;
                if parts.next().is_some() {
                    return None;
                }
                return Some(Heard::Message {
                    game_id: game_id.to_owned(),
                    seq,
                });
            }
            let version = version.parse().ok()?;
            let players = match parts.next() {
                None => None,
                Some("-") => Some(Vec::new()),
                Some(list) => Some(list.split(',').map(str::to_owned).collect()),
            };
            if parts.next().is_some() {
                return None;
            }
            Some(Heard::Appended {
                game_id: game_id.to_owned(),
                version,
                players,
            })
        })
        .collect::<Option<Vec<Heard>>>()?;
    Some(Payload { sender, heard })
}

/// The payloads `sender` announces `appended` with (game, version, seated
/// players): one line each, split so that no payload exceeds Postgres'
/// limit (8000 bytes). Game and player ids are UUIDs: no spaces, no commas.
pub fn payloads<'a>(
    sender: &str,
    appended: impl IntoIterator<Item = (&'a str, i64, &'a [String])>,
) -> Vec<String> {
    lines_in_payloads(
        sender,
        appended.into_iter().map(|(game_id, version, players)| {
            let players = if players.is_empty() {
                "-".to_owned()
            } else {
                players.join(",")
            };
            format!("{game_id} {version} {players}")
        }),
    )
}

/// The line announcing a message posted to `game_id` at `seq`.
pub fn message_line(game_id: &str, seq: i64) -> String {
    format!("{game_id} m{seq}")
}

/// `lines` joined into payloads under Postgres' limit, each opening with
/// the line naming `sender`.
pub fn lines_in_payloads(sender: &str, lines: impl IntoIterator<Item = String>) -> Vec<String> {
    const MAX: usize = 7900;
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        match out.last_mut() {
            Some(last) if last.len() + 1 + line.len() <= MAX => {
                last.push('\n');
                last.push_str(&line);
            }
            _ => out.push(format!("{}\n{line}", sender_line(sender))),
        }
    }
    out
}

/// The longest pause between two tries of the `LISTEN` connection while
/// the database is away: a failover takes seconds, and streams resume, and
/// the revocation copy is trusted again, at the first try after the new
/// primary takes connections. One try a second per process costs nothing.
const MAX_RECONNECT_PAUSE: Duration = Duration::from_secs(1);

/// Listens until `stop` turns true, reconnecting with a growing pause (up
/// to [`MAX_RECONNECT_PAUSE`]) when the connection cannot be made or drops. Payloads `own`
/// sent are passed over. With `revocations`, the same connection also
/// keeps that copy of the token revocations (see [`super::revocations`]):
/// it loads it after each (re)connect and confirms itself every
/// [`HEARTBEAT`]; the copy is distrusted the moment the connection is lost.
pub async fn listen(
    url: String,
    own: String,
    revocations: Option<Arc<Revocations>>,
    mut stop: tokio::sync::watch::Receiver<bool>,
    deliver: impl Fn(Heard) + Send + 'static,
) {
    let mut pause = Duration::from_millis(100);
    let hearing = Hearing {
        own,
        revocations,
        deliver,
    };
    while !*stop.borrow() {
        match AsyncPgConnection::establish(&url).await {
            Ok(mut conn) => {
                let listening = conn
                    .batch_execute(&format!(
                        "LISTEN {CHANNEL}; LISTEN {}",
                        revocations::CHANNEL
                    ))
                    .await;
                match listening {
                    Ok(()) => {
                        pause = Duration::from_millis(100);
                        (hearing.deliver)(Heard::Resync);
                        let ended = hearing.follow(&mut conn, &mut stop).await;
                        if let Some(copy) = &hearing.revocations {
                            copy.distrust();
                        }
                        match ended {
                            Ended::Stopped => return,
                            Ended::Lost(why) => {
                                tracing::warn!(error = %why, "LISTEN connection lost; reconnecting");
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
        pause = (pause * 2).min(MAX_RECONNECT_PAUSE);
    }
}

/// Why [`Hearing::follow`] returned.
enum Ended {
    Stopped,
    Lost(String),
}

/// What the listener does with what it hears.
struct Hearing<F> {
    own: String,
    revocations: Option<Arc<Revocations>>,
    deliver: F,
}

impl<F: Fn(Heard)> Hearing<F> {
    /// Hears `conn`'s notifications until `stop` or until the connection
    /// fails, with a heartbeat every [`HEARTBEAT`] when keeping revocations.
    async fn follow(
        &self,
        conn: &mut AsyncPgConnection,
        stop: &mut tokio::sync::watch::Receiver<bool>,
    ) -> Ended {
        let mut beat = tokio::time::Instant::now();
        let mut last_load: Option<std::time::Instant> = None;
        loop {
            {
                let mut notifications = std::pin::pin!(conn.notifications_stream());
                loop {
                    tokio::select! {
                        _ = stop.changed() => return Ended::Stopped,
                        _ = tokio::time::sleep_until(beat), if self.revocations.is_some() => break,
                        next = notifications.next() => match next {
                            Some(Ok(n)) => self.hear(&n),
                            Some(Err(e)) => return Ended::Lost(e.to_string()),
                            None => return Ended::Lost("closed".to_owned()),
                        },
                    }
                }
            }
            let Some(copy) = &self.revocations else {
                continue;
            };
            let asked = std::time::Instant::now();
            if !copy.loaded() && last_load.is_none_or(|at| at.elapsed() >= RELOAD_AFTER) {
                last_load = Some(asked);
                match tokio::time::timeout(TRUSTED_FOR, revocations::load(conn)).await {
                    Ok(Ok(all)) => copy.replace(all),
                    Ok(Err(e)) => return Ended::Lost(e.to_string()),
                    Err(_) => return Ended::Lost("loading revocations timed out".to_owned()),
                }
            }
            // The server sends the notifications of everything committed
            // before it answers; the driver queues them before the answer.
            match tokio::time::timeout(TRUSTED_FOR, conn.batch_execute(HEARTBEAT_SQL)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Ended::Lost(e.to_string()),
                Err(_) => return Ended::Lost("heartbeat unanswered".to_owned()),
            }
            let mut notifications = std::pin::pin!(conn.notifications_stream());
            while let Some(Some(next)) = notifications.next().now_or_never() {
                match next {
                    Ok(n) => self.hear(&n),
                    Err(e) => return Ended::Lost(e.to_string()),
                }
            }
            copy.confirm(asked);
            beat = tokio::time::Instant::from_std(asked) + HEARTBEAT;
        }
    }

    fn hear(&self, n: &diesel::pg::PgNotification) {
        if n.channel == revocations::CHANNEL {
            let Some(copy) = &self.revocations else {
                return;
            };
            for line in n.payload.lines() {
                match Revocation::parse(line) {
                    Some(revocation) => copy.add(revocation),
                    None => tracing::warn!(line, "odd revocation"),
                }
            }
            return;
        }
        match parse_payload(&n.payload) {
            Some(p) if p.sender == Some(self.own.as_str()) => {}
            Some(p) => p.heard.into_iter().for_each(&self.deliver),
            None => tracing::warn!(payload = n.payload, "odd notification"),
        }
    }
}

/// The listener's heartbeat, named so that an operator (or a test) can
/// find the connection in `pg_stat_activity`.
pub const HEARTBEAT_SQL: &str = "SELECT 'cards_listener_heartbeat'";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_parse() {
        let heard = |g: &str, v, p: Option<&[&str]>| Heard::Appended {
            game_id: g.to_owned(),
            version: v,
            players: p.map(|p| p.iter().map(|s| s.to_string()).collect()),
        };
        let heard_in = |p: &str| parse_payload(p).map(|p| p.heard);
        // The old form (no players): every player stream looks.
        assert_eq!(heard_in("0b6f-x 12"), Some(vec![heard("0b6f-x", 12, None)]));
        assert_eq!(
            heard_in("a 1 p,q\nb 2 -"),
            Some(vec![
                heard("a", 1, Some(&["p", "q"])),
                heard("b", 2, Some(&[]))
            ])
        );
        assert_eq!(parse_payload("nonsense"), None);
        assert_eq!(parse_payload("a 1\nnonsense"), None);
        assert_eq!(parse_payload("a 1 p q"), None);
        assert_eq!(
            heard_in(&format!("a 1 p\n{}", message_line("b", 4))),
            Some(vec![
                heard("a", 1, Some(&["p"])),
                Heard::Message {
                    game_id: "b".to_owned(),
                    seq: 4
                }
            ])
        );
        assert_eq!(parse_payload("b mx"), None);
        assert_eq!(parse_payload("b m4 p"), None);
        // Who sent it; a payload without the line names nobody.
        let named = parse_payload("@9f2c 0 -\na 1 p").unwrap();
        assert_eq!(named.sender, Some("9f2c"));
        assert_eq!(named.heard, vec![heard("a", 1, Some(&["p"]))]);
        assert_eq!(parse_payload("a 1 p").unwrap().sender, None);
    }

    #[test]
    fn an_older_reader_takes_the_sender_line_for_a_game_nobody_follows() {
        // What a reader without `@` lines makes of it: an append to a
        // game whose id is `@…`, which no stream follows and no player
        // sits in.
        let line = sender_line("0123abcd");
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts, ["@0123abcd", "0", "-"]);
    }

    #[test]
    fn payloads_are_split_under_the_limit_and_read_back() {
        let ids: Vec<String> = (0..1000).map(|i| format!("{i:036}")).collect();
        let seated = vec![ids[0].clone(), ids[1].clone()];
        let sent = payloads(
            "0123abcd",
            ids.iter().map(|id| (id.as_str(), 7, seated.as_slice())),
        );
        assert!(sent.len() > 1 && sent.iter().all(|p| p.len() <= 7900));
        let read: Vec<Payload> = sent.iter().map(|p| parse_payload(p).unwrap()).collect();
        assert!(read.iter().all(|p| p.sender == Some("0123abcd")));
        let back: Vec<Heard> = read.into_iter().flat_map(|p| p.heard).collect();
        assert_eq!(back.len(), 1000);
        assert_eq!(
            back[999],
            Heard::Appended {
                game_id: ids[999].clone(),
                version: 7,
                players: Some(seated),
            }
        );
    }
}
