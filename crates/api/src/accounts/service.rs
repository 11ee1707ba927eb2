//! The accounts' service: what `register.rs` and `tokens.rs` add methods to.

use crate::db::Db;
use crate::games::ServiceError;
use crate::games::vocabulary::PlayerRow;

/// The players' accounts, on the store the game service uses.
#[derive(Debug, Clone)]
pub struct Accounts {
    pub(super) db: Db,
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
