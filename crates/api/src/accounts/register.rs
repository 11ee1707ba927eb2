//! Registering a player. Its answer carries a bearer token, which is sent
//! once and kept nowhere: a key's idempotency record holds the player id
//! only, and a second use of the key is refused instead of replayed.

use chrono::Utc;

use super::service::Accounts;
use crate::db::DbError;
use crate::games::ServiceError;
use crate::games::vocabulary::PlayerRow;
use crate::idempotency::{IdemRequest, Stored};

/// The status a registration is answered with (and its record kept with).
const CREATED: u16 = 201;

/// A new player, and the credential made for them.
#[derive(Debug)]
pub struct Registered<T> {
    pub player: PlayerRow,
    pub credential: T,
}

impl Accounts {
    /// Registers a player named `display_name` (already checked). With a
    /// key, one that already registered a player is refused
    /// ([`ServiceError::IdempotencyKeyUsed`]), also when a concurrent
    /// registration stores it first. `issue` makes the player's credential
    /// before anything is stored, so that nothing is if it fails.
    pub async fn register<T, E>(
        &self,
        display_name: String,
        idem: Option<IdemRequest>,
        issue: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<Registered<T>, E>
    where
        E: From<ServiceError>,
    {
        if let Some(idem) = &idem {
            idem.refuse_if_used(&self.db).await?;
        }
        let player = PlayerRow {
            id: uuid::Uuid::new_v4().to_string(),
            display_name,
            created_at: Utc::now(),
        };
        let credential = issue(&player.id)?;
        let record = idem
            .map(|i| {
                let kept = serde_json::json!({ "player_id": player.id });
                Ok::<_, ServiceError>(i.record(&Stored::new(CREATED, kept)?))
            })
            .transpose()?;
        self.db
            .insert_player(&player, record.as_ref())
            .await
            .map_err(|e| match e {
                // Another client registered with this key at the same moment.
                DbError::IdempotencyTaken => ServiceError::IdempotencyKeyUsed,
                e => e.into(),
            })?;
        Ok(Registered { player, credential })
    }
}
