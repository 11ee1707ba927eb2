use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::vocabulary::SeekStatus;
use crate::resources::seeks::SeekList;
use crate::routes::doc;
use crate::state::AppState;

/// The most seeks one page lists.
const MAX_LIMIT: i64 = 100;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SeekListQuery {
    /// Only seeks in this state (e.g. `active`).
    pub status: Option<SeekStatus>,
    /// At most this many, newest first (1 to 100, default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// List my seeks
///
/// The caller's seeks, newest first: the active ones and those that ended
/// in the last day.
#[utoipa::path(
    tag = "seeks",
    operation_id = "list_seeks",
    params(SeekListQuery),
    responses(
        (status = 200, description = "The caller's seeks", body = SeekList),
        (status = 400, description = "`bad_query`: an unknown status, or a limit out of range", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/seeks")]
pub async fn list_seeks(
    state: web::Data<AppState>,
    auth: Authenticated,
    query: web::Query<SeekListQuery>,
) -> Result<web::Json<SeekList>, ApiError> {
    let limit = query.limit.unwrap_or(50);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("limit is 1 to {MAX_LIMIT}"),
        ));
    }
    let rows = state
        .games
        .seeks_of(&auth.player_id, query.status, limit)
        .await?;
    let seeks = rows.iter().map(super::resource).collect::<Result<_, _>>()?;
    Ok(web::Json(SeekList { seeks }))
}
