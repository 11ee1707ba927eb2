//! Series of games (rematches): a rematch's row names the game it
//! follows (`previous_game_id`, unique: a game has one next game) and the
//! series' first game (`series_id`). These read the links.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use super::status::GameStatus;
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

    /// Open games with a seat reserved for `player_id` and not yet taken
    /// (`seats_invited_player`), newest first, at most 50.
    pub async fn invitations(&self, player_id: &str) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::seats::table
                .inner_join(s::games::table)
                .filter(s::seats::invited_player_id.eq(player_id))
                .filter(s::seats::player_id.is_null())
                .filter(s::games::status.eq(GameStatus::Open))
                .order((s::games::created_at.desc(), s::games::id.desc()))
                .select(s::games::id)
                .limit(50)
                .load::<String>(conn)
                .await?)
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
