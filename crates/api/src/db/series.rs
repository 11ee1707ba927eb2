//! Series of games (issue #16, rematch): a rematch's row names the game it
//! follows (`previous_game_id`, unique: a game has one next game) and the
//! series' first game (`series_id`). These read the links.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use super::{Db, DbError};
use crate::with_conn;

impl Db {
    /// The rematch of `game_id`, if one was created (the unique index
    /// `games_previous_game`).
    pub async fn next_game_id(&self, game_id: &str) -> Result<Option<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::previous_game_id.eq(game_id))
                .select(s::games::id)
                .first::<String>(conn)
                .await
                .optional()?)
        })
    }

    /// The games of the series whose first game is `first`, in order of
    /// creation (the first one first); empty when `first` is no game, or
    /// is itself the rematch of another game.
    pub async fn series_game_ids(&self, first: &str) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            let head = s::games::table
                .filter(s::games::id.eq(first))
                .filter(s::games::series_id.is_null())
                .select(s::games::id)
                .first::<String>(conn)
                .await
                .optional()?;
            let Some(head) = head else {
                return Ok(Vec::new());
            };
            let rest = s::games::table
                .filter(s::games::series_id.eq(first))
                .order((s::games::created_at, s::games::id))
                .select(s::games::id)
                .load::<String>(conn)
                .await?;
            Ok(std::iter::once(head).chain(rest).collect())
        })
    }
}
