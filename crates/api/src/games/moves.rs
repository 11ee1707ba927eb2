//! Moves, by people and by bots: the service methods that build their
//! commands (`Command::Move`, `Command::BotTurn`) and run them through the
//! one write path (`write.rs`); the decisions are the core's
//! (`decide/play.rs`, `decide/bot_turn.rs`).

use std::sync::Arc;

use serde_json::Value;

use super::error::ServiceError;
use super::seats::expert_to_act;
use super::service::GameService;
use super::write::{Command, Render};
use crate::idempotency::{IdemRequest, Stored};

impl GameService {
    /// Plays `mv` for the seat `player_id` holds. `if_match`: the version the
    /// client saw; refused when the game has moved on since.
    pub async fn play(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        mv: &Value,
        if_match: Option<i64>,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Move {
            player_id,
            mv,
            if_match,
        };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }

    /// Plays one bot move if a bot seat must act; false when none must.
    ///
    /// A random or sensible bot's move is decided in the write path. An
    /// expert's is thought out first, off the write path (`bots::think`),
    /// on a snapshot, and then played only if the game is still at the
    /// version it thought about; otherwise it thinks again (at most
    /// `MAX_ATTEMPTS` times: every miss means the game moved on).
    pub(super) async fn bot_step(self: &Arc<Self>, game_id: &str) -> Result<bool, ServiceError> {
        let outcome = self
            .execute(game_id, &Command::BotTurn { plan: None }, None, None)
            .await?;
        if outcome.appended() {
            return Ok(true);
        }
        for _ in 0..super::write::MAX_ATTEMPTS {
            let snapshot = self.snapshot(game_id).await?;
            let Some(seat) = expert_to_act(&snapshot.row, &snapshot.seats, &*snapshot.game) else {
                return Ok(false);
            };
            let version = snapshot.row.version;
            let Some(plan) = self
                .think(
                    snapshot.game,
                    &snapshot.row.seed,
                    version,
                    seat,
                    &snapshot.row.created_by,
                )
                .await?
            else {
                return Ok(false);
            };
            let command = Command::BotTurn { plan: Some(&plan) };
            if self
                .execute(game_id, &command, None, None)
                .await?
                .appended()
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
