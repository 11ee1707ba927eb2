//! On Postgres, every process keeps a copy of the token revocations in
//! memory, so that an authenticated request costs no statement to check
//! them (it cost one of a move's four: docs/performance.md, section 1).
//!
//! **Invariant.** A revocation is refused at once by the process that made
//! it, and by every other process as soon as its `NOTIFY` arrives (sent in
//! the revoking transaction, so it exists if and only if the revocation
//! does): normally within milliseconds, and never later than
//! [`TRUSTED_FOR`] after the commit. A process answers from its copy only
//! while its `LISTEN` connection has confirmed, within [`TRUSTED_FOR`],
//! that it is alive and has handed over every notification the server sent
//! before answering the confirmation ([`HEARTBEAT`]: a statement on that
//! connection, then the notifications already queued); a copy loaded since
//! the connection was (re)made. Otherwise (the listener connecting,
//! loading, lost, or more than [`MAX_IN_MEMORY`] revocations stored) a
//! request asks the database, as every request did before.
//!
//! SQLite keeps no copy: one process, and the lookup is an in-process
//! B-tree read.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};
use std::time::{Duration, Instant};

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

/// The notification channel of revocations: a payload is lines of
/// [`Revocation::line`].
pub const CHANNEL: &str = "cards_revocations";

/// How often the listener confirms its connection.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long after a confirmation was asked the copy answers requests.
pub const TRUSTED_FOR: Duration = Duration::from_secs(3);

/// The most revocations (logged-out tokens plus players' cut-offs) kept in
/// memory (about 100 bytes each); past it, requests ask the database.
pub const MAX_IN_MEMORY: usize = 200_000;

/// How often a copy that could not be loaded (too many) is tried again.
pub const RELOAD_AFTER: Duration = Duration::from_secs(60);

/// One revocation, as stored and as announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revocation {
    /// One token logged out, remembered until it expires (unix seconds).
    Token { token_id: String, expires_at: i64 },
    /// Every token of the player issued at or before `through` (unix seconds).
    Cutoff { player_id: String, through: i64 },
}

impl Revocation {
    /// The line announcing it: `t <token_id> <expires_at>` or
    /// `c <player_id> <through>` (token ids are `jti:…` or `sha256:…` and
    /// player ids UUIDs: no spaces).
    pub fn line(&self) -> String {
        match self {
            Revocation::Token {
                token_id,
                expires_at,
            } => format!("t {token_id} {expires_at}"),
            Revocation::Cutoff { player_id, through } => format!("c {player_id} {through}"),
        }
    }

    pub fn parse(line: &str) -> Option<Revocation> {
        let mut parts = line.split(' ');
        let (kind, id, at) = (parts.next()?, parts.next()?, parts.next()?.parse().ok()?);
        if id.is_empty() || parts.next().is_some() {
            return None;
        }
        match kind {
            "t" => Some(Revocation::Token {
                token_id: id.to_owned(),
                expires_at: at,
            }),
            "c" => Some(Revocation::Cutoff {
                player_id: id.to_owned(),
                through: at,
            }),
            _ => None,
        }
    }
}

/// A process's copy of the revocations (see the module's invariant).
#[derive(Debug, Default)]
pub struct Revocations {
    copy: RwLock<Copy>,
    /// Bumped whenever a revocation is added or the copy reloaded, so that
    /// open streams check their own credentials again (`Db::revocations_changed`).
    changed: tokio::sync::watch::Sender<u64>,
}

#[derive(Debug, Default)]
struct Copy {
    /// Loaded from the database since the listener last connected.
    loaded: bool,
    /// Requests are answered from the copy until then.
    trusted_until: Option<Instant>,
    /// Logged-out tokens and when they expire (unix seconds).
    tokens: HashMap<String, i64>,
    /// Each player's cut-off (unix seconds).
    cutoffs: HashMap<String, i64>,
}

impl Copy {
    fn add(&mut self, revocation: Revocation) {
        match revocation {
            Revocation::Token {
                token_id,
                expires_at,
            } => {
                self.tokens.insert(token_id, expires_at);
            }
            Revocation::Cutoff { player_id, through } => {
                let at = self.cutoffs.entry(player_id).or_insert(through);
                *at = (*at).max(through);
            }
        }
        if self.tokens.len() + self.cutoffs.len() > MAX_IN_MEMORY {
            self.forget();
        }
    }

    /// Whether requests may be answered from the copy now.
    fn trusted(&self) -> bool {
        self.loaded
            && self
                .trusted_until
                .is_some_and(|until| Instant::now() < until)
    }

    /// Drops the copy: requests ask the database until it is loaded again.
    fn forget(&mut self) {
        *self = Copy::default();
    }
}

impl Revocations {
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Copy> {
        self.copy.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the token `token_id` of `player_id`, issued at `issued_at`,
    /// is revoked, when the copy may answer; `None`: ask the database.
    pub fn answer(&self, token_id: &str, player_id: &str, issued_at: i64) -> Option<bool> {
        let copy = self.copy.read().unwrap_or_else(PoisonError::into_inner);
        if !copy.trusted() {
            return None;
        }
        Some(
            copy.tokens.contains_key(token_id)
                || copy.cutoffs.get(player_id).is_some_and(|&t| t >= issued_at),
        )
    }

    /// Whether requests are answered from the copy now.
    pub fn trusted(&self) -> bool {
        self.copy
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .trusted()
    }

    /// Whether the copy is loaded (the listener loads it when not).
    pub fn loaded(&self) -> bool {
        self.copy
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .loaded
    }

    /// Adds a revocation made here (before its transaction, so that no
    /// request of this process passes it once it commits) or heard.
    pub fn add(&self, revocation: Revocation) {
        self.write().add(revocation);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Tells whoever watches that revocations changed.
    pub fn changed(&self) -> &tokio::sync::watch::Sender<u64> {
        &self.changed
    }

    /// Replaces the copy with what the database holds (`None`: too many).
    pub fn replace(&self, all: Option<Vec<Revocation>>) {
        let mut copy = self.write();
        copy.forget();
        let Some(all) = all else {
            return;
        };
        for revocation in all {
            copy.add(revocation);
        }
        copy.loaded = true;
        drop(copy);
        // Some may have been made while the copy was not kept.
        self.changed.send_modify(|n| *n += 1);
    }

    /// The listener's connection answered a confirmation asked at `asked`,
    /// and every notification sent before the answer has been added.
    pub fn confirm(&self, asked: Instant) {
        self.write().trusted_until = Some(asked + TRUSTED_FOR);
    }

    /// The listener's connection is gone: ask the database until it is
    /// back and the copy loaded again.
    pub fn distrust(&self) {
        self.write().forget();
    }

    /// Forgets logged-out tokens that expired before `before` (unix
    /// seconds), as the database does: they no longer verify.
    pub fn forget_expired(&self, before: i64) {
        self.write()
            .tokens
            .retain(|_, &mut expires| expires >= before);
    }
}

/// Every stored revocation, or `None` when there are more than
/// [`MAX_IN_MEMORY`].
pub async fn load(conn: &mut AsyncPgConnection) -> QueryResult<Option<Vec<Revocation>>> {
    use super::schema::pg::{revoked_tokens as t, token_cutoffs as c};
    let limit = MAX_IN_MEMORY as i64 + 1;
    let tokens: Vec<(String, chrono::DateTime<chrono::Utc>)> = t::table
        .select((t::token_id, t::expires_at))
        .limit(limit)
        .load(conn)
        .await?;
    let cutoffs: Vec<(String, i64)> = c::table
        .select((c::player_id, c::revoked_through))
        .limit(limit)
        .load(conn)
        .await?;
    if tokens.len() + cutoffs.len() > MAX_IN_MEMORY {
        return Ok(None);
    }
    let tokens = tokens
        .into_iter()
        .map(|(token_id, expires)| Revocation::Token {
            token_id,
            expires_at: expires.timestamp(),
        });
    let cutoffs = cutoffs
        .into_iter()
        .map(|(player_id, through)| Revocation::Cutoff { player_id, through });
    Ok(Some(tokens.chain(cutoffs).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(id: &str) -> Revocation {
        Revocation::Token {
            token_id: id.to_owned(),
            expires_at: 2_000_000_000,
        }
    }

    #[test]
    fn lines_round_trip() {
        let cutoff = Revocation::Cutoff {
            player_id: "0b6f".to_owned(),
            through: 1_700_000_000,
        };
        for r in [token("jti:abc"), cutoff] {
            assert_eq!(Revocation::parse(&r.line()), Some(r));
        }
        for odd in ["", "t", "t x", "t x y", "x a 1", "t  1", "t a 1 2"] {
            assert_eq!(Revocation::parse(odd), None, "{odd:?}");
        }
    }

    #[test]
    fn answers_only_when_loaded_and_confirmed() {
        let copy = Revocations::default();
        copy.add(token("jti:a"));
        assert_eq!(copy.answer("jti:a", "p", 1), None, "never loaded");
        copy.replace(Some(vec![token("jti:a")]));
        assert_eq!(copy.answer("jti:a", "p", 1), None, "never confirmed");
        copy.confirm(Instant::now());
        assert_eq!(copy.answer("jti:a", "p", 1), Some(true));
        assert_eq!(copy.answer("jti:b", "p", 1), Some(false));
        copy.confirm(Instant::now() - TRUSTED_FOR);
        assert_eq!(copy.answer("jti:a", "p", 1), None, "confirmation too old");
        copy.confirm(Instant::now());
        copy.distrust();
        assert_eq!(copy.answer("jti:a", "p", 1), None, "listener lost");
        assert!(!copy.loaded());
    }

    #[test]
    fn cutoffs_revoke_tokens_issued_at_or_before() {
        let copy = Revocations::default();
        copy.replace(Some(vec![]));
        copy.confirm(Instant::now());
        let cutoff = |through| Revocation::Cutoff {
            player_id: "p".to_owned(),
            through,
        };
        copy.add(cutoff(100));
        copy.add(cutoff(50)); // an older cut-off heard late changes nothing
        assert_eq!(copy.answer("jti:x", "p", 100), Some(true));
        assert_eq!(copy.answer("jti:x", "p", 101), Some(false));
        assert_eq!(copy.answer("jti:x", "q", 1), Some(false));
    }

    #[test]
    fn too_many_or_unloadable_means_ask_the_database() {
        let copy = Revocations::default();
        copy.replace(None);
        copy.confirm(Instant::now());
        assert_eq!(copy.answer("jti:a", "p", 1), None);
        copy.replace(Some(
            (0..MAX_IN_MEMORY).map(|i| token(&i.to_string())).collect(),
        ));
        copy.confirm(Instant::now());
        assert_eq!(copy.answer("0", "p", 1), Some(true));
        copy.add(token("one more"));
        assert_eq!(copy.answer("0", "p", 1), None);
        assert!(!copy.loaded());
    }

    #[test]
    fn expired_tokens_are_forgotten() {
        let copy = Revocations::default();
        copy.replace(Some(vec![Revocation::Token {
            token_id: "old".to_owned(),
            expires_at: 10,
        }]));
        copy.confirm(Instant::now());
        copy.forget_expired(11);
        assert_eq!(copy.answer("old", "p", 1), Some(false));
    }
}
