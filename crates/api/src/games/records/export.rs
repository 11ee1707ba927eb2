//! The portable record of a finished game (text or JSON), built once per
//! game (`games::finished`); before the end the seed is secret, so there
//! is none.

use std::sync::Arc;

use game_record::GameRecord;

use crate::games::error::ServiceError;
use crate::games::finished::Finished;
use crate::games::service::GameService;

impl GameService {
    /// The record of a finished game (before the end the seed is secret:
    /// 409 `game_not_finished`); computed once (`games::finished`).
    pub async fn export(&self, game_id: &str) -> Result<Arc<GameRecord>, ServiceError> {
        let game = self.finished_for_export(game_id).await?;
        game.record(build_record)
    }

    /// [`GameService::export`] in its text form (`json`: its JSON form),
    /// rendered once.
    pub async fn export_as(&self, game_id: &str, json: bool) -> Result<Arc<str>, ServiceError> {
        let game = self.finished_for_export(game_id).await?;
        game.record_form(json, build_record)
    }

    async fn finished_for_export(&self, game_id: &str) -> Result<Arc<Finished>, ServiceError> {
        self.finished_or_history(game_id).await?.map_err(|_| {
            ServiceError::conflict(
                "game_not_finished",
                "a game's record is public once it is over (its seed is revealed then)",
            )
        })
    }
}

fn build_record(game: &Finished) -> Result<GameRecord, ServiceError> {
    GameRecord::build(&game.info, &game.moves).map_err(ServiceError::internal)
}
