//! Resigning a game in progress: the service method that builds
//! `Command::Resign` and runs it through the one write path (`write.rs`);
//! the decision is the core's (`decide/resign.rs`). The game's
//! `on_resign` policy, set at creation, says what follows:
//!
//! - `bot` (default): the seat is forfeited and handed to the server's bot
//!   for the rest of the game, exactly like a deadline `forfeit`
//!   (`deadlines.rs`): it is never among the winners;
//! - `end_game`: the game ends at once (status `finished`); the resigning
//!   seat's side (with Lost Heir partnerships, LH-3, the partner too) is
//!   forfeited, and the winners are the best of the other seats by the
//!   standings at that moment, in the game's own direction (LH-12: highest
//!   total; CH-13: lowest), ties sharing (`cards::Ruleset::stopped`).
//!
//! Either way the log gets `seat_resigned {seat, player_id, policy}`;
//! under `end_game` a `game_finished` follows in the same append.

use std::sync::Arc;

use super::error::ServiceError;
use super::service::GameService;
use super::write::{Command, Render};
use crate::idempotency::{IdemRequest, Stored};

impl GameService {
    /// Resigns the seat `player_id` holds in a game in progress.
    pub async fn resign(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Resign { player_id };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }
}
