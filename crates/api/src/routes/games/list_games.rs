use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::app::AppState;
use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::games::ListQuery;
use crate::resources::{GameKind, GameList, GameStatus, GameSummary};
use crate::routes::doc;

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListGamesQuery {
    /// Only games of this kind.
    pub kind: Option<GameKind>,
    /// Only games in this state.
    pub status: Option<GameStatus>,
    /// Only games in progress where the caller's seat must act now (needs a token).
    pub mine_to_act: Option<bool>,
    /// At most this many games (1 to 200, default 50).
    pub limit: Option<i64>,
    /// Skip this many games.
    pub offset: Option<i64>,
}

/// List games
///
/// Games newest first, public facts only (no hands, no views).
#[utoipa::path(
    tag = "games",
    operation_id = "list_games",
    params(ListGamesQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "`mine_to_act` without a token, or a bad token", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    query: web::Query<ListGamesQuery>,
) -> Result<web::Json<GameList>, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let offset = query.offset.unwrap_or(0);
    if !(1..=MAX_LIMIT).contains(&limit) || offset < 0 {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("limit is 1 to {MAX_LIMIT} and offset at least 0"),
        ));
    }
    let to_act_for = match (query.mine_to_act, &auth.0) {
        (Some(true), Some(me)) => Some(me.player_id.clone()),
        (Some(true), None) => {
            return Err(ApiError::unauthorized(
                "missing_token",
                "mine_to_act needs a bearer token",
            ));
        }
        _ => None,
    };
    let rows = state
        .games
        .list(&ListQuery {
            kind: query.kind.map(|k| k.code().to_owned()),
            status: query.status,
            to_act_for,
            limit,
            offset,
        })
        .await?;
    Ok(web::Json(GameList {
        games: rows
            .iter()
            .map(|(row, seats)| GameSummary::build(row, seats))
            .collect(),
        limit,
        offset,
    }))
}
