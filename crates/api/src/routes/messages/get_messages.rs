use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::chat::MessageList;
use crate::routes::doc;
use crate::state::AppState;

/// Messages per page unless the query says.
pub const DEFAULT_LIMIT: i64 = 100;
/// The most messages a page may hold.
pub const MAX_LIMIT: i64 = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MessagesQuery {
    /// Only messages with a larger seq (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many messages (1 to 500, default 100).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

/// Read a game's table talk
///
/// The game's messages in seq order, a page at a time, as the caller may
/// read them: never those of a player the caller muted, nor spectators'
/// when the caller is seated and hid them (`set_chat_settings`); the
/// caller's own always. Without a token: every message.
#[utoipa::path(
    tag = "chat",
    operation_id = "get_messages",
    params(("game_id" = String, Path, description = doc::GAME_ID), MessagesQuery),
    responses(
        (status = 200, description = "A page of messages", body = MessageList),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/messages")]
pub async fn get_messages(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    game_id: GameId,
    query: web::Query<MessagesQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if after < 0 || !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("after is at least 0 and limit 1 to {MAX_LIMIT}"),
        ));
    }
    let player_id = auth.0.map(|me| me.player_id);
    let page = state
        .games
        .messages_page(&game_id, player_id.as_deref(), after, limit)
        .await?;
    Ok(HttpResponse::Ok().json(MessageList::build(page, limit)))
}
