//! What every request handler is given: the players' accounts, the signing
//! keys, the game service, the webhooks and the store's probe (built by
//! `app::build_state` from `services::Services`).

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::auth::Keys;
use crate::games::GameService;
use crate::services::StoreProbe;

/// Shared by every request.
#[derive(Debug)]
pub struct AppState {
    pub accounts: Accounts,
    pub keys: Arc<Keys>,
    pub games: Arc<GameService>,
    pub webhooks: Arc<crate::games::webhooks::Webhooks>,
    pub probe: StoreProbe,
}
