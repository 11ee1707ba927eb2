//! Players and their bearer tokens, in the application's terms:
//! registering a player (with its idempotency record), logging a token out,
//! revoking every token of a player, and the revocation check that every
//! authenticated request and open stream makes. Signing and verifying the
//! tokens is HTTP's (`auth`); this is what the store keeps of them.

mod register;
mod tokens;

pub use register::Registered;
pub use tokens::TRUSTED_FOR;

use crate::db::Db;
use crate::games::ServiceError;
use crate::games::vocabulary::PlayerRow;

/// The players' accounts, on the store the game service uses.
#[derive(Debug, Clone)]
pub struct Accounts {
    db: Db,
}

impl Accounts {
    pub fn new(db: Db) -> Self {
        Accounts { db }
    }

    /// The player with this id, if this database knows them.
    pub async fn player(&self, player_id: &str) -> Result<Option<PlayerRow>, ServiceError> {
        Ok(self.db.player(player_id).await?)
    }
}
