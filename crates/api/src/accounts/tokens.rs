//! Revoking tokens and asking whether one is revoked. The store keeps the
//! revocations and, in each process, a copy its `LISTEN` connection keeps
//! current (`db::revocations`); these are the questions HTTP asks of them.

use chrono::{DateTime, Utc};

use super::service::Accounts;
use crate::games::ServiceError;

/// How long this process's copy of the revocations may go unconfirmed
/// before the database is asked again: the bound on how late another
/// process's revocation is heard.
pub const TRUSTED_FOR: std::time::Duration = crate::db::revocations::TRUSTED_FOR;

impl Accounts {
    /// Revokes one token (logging out) until it would expire anyway.
    pub async fn log_out(
        &self,
        token_id: &str,
        player_id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        Ok(self
            .db
            .revoke_token(token_id, player_id, expires_at)
            .await?)
    }

    /// Revokes every token of the player issued up to `through` (a Unix
    /// second, compared with their `iat`).
    pub async fn revoke_all(&self, player_id: &str, through: i64) -> Result<(), ServiceError> {
        Ok(self.db.revoke_tokens_through(player_id, through).await?)
    }

    /// Whether the token is revoked: from this process's copy when it may
    /// answer, else from the database. (Called before a request's body is
    /// read and dropped with the request when the client goes: the store's
    /// queries may be abandoned anywhere, `db::checkout`.)
    pub async fn is_revoked(
        &self,
        token_id: &str,
        player_id: &str,
        issued_at: i64,
    ) -> Result<bool, ServiceError> {
        if let Some(answer) = self.db.revoked_in_memory(token_id, player_id, issued_at) {
            return Ok(answer);
        }
        Ok(self
            .db
            .token_revoked(token_id, player_id, issued_at)
            .await?)
    }

    /// Changes whenever a revocation is made here or heard from another
    /// process; an error once the store is gone.
    pub fn revocations_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.db.revocations_changed()
    }

    /// Whether a revocation made by another process may go unheard here
    /// just now (then a waiter asks again every [`TRUSTED_FOR`]).
    pub fn revocations_may_go_unheard(&self) -> bool {
        self.db.revocations_may_go_unheard()
    }
}
