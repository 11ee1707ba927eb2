//! What every request handler is given: the database, the signing keys,
//! the game service and the webhooks (built by `app::build_state`).

use std::sync::Arc;

use crate::auth::Keys;
use crate::db::Db;
use crate::games::GameService;

/// Shared by every request.
#[derive(Debug)]
pub struct AppState {
    pub db: Db,
    pub keys: Arc<Keys>,
    pub games: Arc<GameService>,
    pub webhooks: Arc<crate::games::webhooks::Webhooks>,
}
