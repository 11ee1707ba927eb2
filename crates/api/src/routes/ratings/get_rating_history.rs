use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, Problem};
use crate::resources::GameKind;
use crate::resources::ratings::{RatingChange, RatingHistory};
use crate::routes::doc;
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    /// Only changes after this `seq` (the `next` of the previous page).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many changes (1 to 200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// Get a player's rating history
///
/// The player's rating changes in one kind, one per rated game, oldest
/// first, paged by `seq`.
#[utoipa::path(
    tag = "ratings",
    operation_id = "get_rating_history",
    params(
        ("player_id" = String, Path, description = "The player's id"),
        ("kind" = GameKind, Path, description = "The game kind"),
        HistoryQuery,
    ),
    responses(
        (status = 200, description = "A page of rating changes", body = RatingHistory),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No player with this id, or no such kind", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/players/{player_id}/ratings/{kind}/history")]
pub async fn get_rating_history(
    state: web::Data<AppState>,
    path: web::Path<(String, GameKind)>,
    query: web::Query<HistoryQuery>,
) -> Result<web::Json<RatingHistory>, ApiError> {
    let (player_id, kind) = path.into_inner();
    let limit = super::limit(query.limit)?;
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::bad_request("bad_query", "after is at least 0"));
    }
    let rows = state
        .games
        .rating_history(&player_id, kind.code(), after, limit)
        .await?;
    let next = match rows.last() {
        Some(last) if rows.len() as i64 == limit => Some(last.seq),
        _ => None,
    };
    Ok(web::Json(RatingHistory {
        player_id,
        kind: kind.code().to_owned(),
        changes: rows.iter().map(RatingChange::build).collect(),
        next,
    }))
}
