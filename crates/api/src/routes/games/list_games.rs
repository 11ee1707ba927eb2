use actix_web::{HttpRequest, HttpResponse, get, web};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::games::ListQuery;
use crate::input::GameId;
use crate::resources::{GameKind, GameList, GameStatus, GameSummary};
use crate::routes::{doc, paging};
use crate::state::AppState;

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
    /// Only games where the caller holds a seat, in any state (needs a
    /// token): a player's own games, with `status` to narrow them.
    pub mine: Option<bool>,
    /// At most this many games (1 to 200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// Where the page starts: the `next` of the previous page (opaque).
    /// Without it, the newest games.
    pub cursor: Option<String>,
    /// Skip this many games (after `cursor`, if any). Kept for old clients:
    /// the database still reads the skipped games, so deep offsets get
    /// slower; page with `cursor` instead.
    #[param(minimum = 0)]
    pub offset: Option<i64>,
}

/// A page's cursor: the last game's `(created_at, id)`, as hex of
/// `<unix nanoseconds>.<id>` (clients treat it as opaque).
fn encode_cursor(created_at: DateTime<Utc>, id: &str) -> String {
    let nanos = created_at.timestamp_nanos_opt().unwrap_or(i64::MAX);
    hex::encode(format!("{nanos}.{id}"))
}

fn decode_cursor(raw: &str) -> Result<(DateTime<Utc>, String), ApiError> {
    let bad = || ApiError::bad_request("bad_cursor", "cursor is not a `next` this server sent");
    let text = String::from_utf8(hex::decode(raw).map_err(|_| bad())?).map_err(|_| bad())?;
    let (nanos, id) = text.split_once('.').ok_or_else(bad)?;
    let nanos: i64 = nanos.parse().map_err(|_| bad())?;
    let id = GameId::parse(id).map_err(|_| bad())?.into_inner();
    Ok((DateTime::from_timestamp_nanos(nanos), id))
}

/// The caller's player id when the filter `name` is on (it needs a token).
fn caller_if(
    on: Option<bool>,
    auth: &MaybeAuthenticated,
    name: &str,
) -> Result<Option<String>, ApiError> {
    match (on, &auth.0) {
        (Some(true), Some(me)) => Ok(Some(me.player_id.clone())),
        (Some(true), None) => Err(ApiError::unauthorized(
            "missing_token",
            format!("{name} needs a bearer token"),
        )),
        _ => Ok(None),
    }
}

/// List games
///
/// Games newest first, public facts only (no hands, no views). Page with
/// `cursor`: each full page carries `next`, the cursor of the page after it
/// (null on the last page).
#[utoipa::path(
    tag = "games",
    operation_id = "list_games",
    params(ListGamesQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList,
            headers(("Link" = String, description = "`<url>; rel=\"next\"` (RFC 8288): this request for the next page, its cursor set to the answer's `next`; absent on the last page"))),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "`mine` or `mine_to_act` without a token, or a bad token", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games")]
pub async fn list_games(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    query: web::Query<ListGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let offset = query.offset.unwrap_or(0);
    if !(1..=MAX_LIMIT).contains(&limit) || offset < 0 {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("limit is 1 to {MAX_LIMIT} and offset at least 0"),
        ));
    }
    let after = query.cursor.as_deref().map(decode_cursor).transpose()?;
    let to_act_for = caller_if(query.mine_to_act, &auth, "mine_to_act")?;
    let seated = caller_if(query.mine, &auth, "mine")?;
    let rows = state
        .games
        .list(&ListQuery {
            kind: query.kind.map(|k| k.code().to_owned()),
            status: query.status,
            to_act_for,
            seated,
            after,
            limit,
            offset,
            reader: auth.0.as_ref().map(|me| me.player_id.clone()),
        })
        .await?;
    // A full page may have a next one; a short page is the last.
    let next = match rows.last() {
        Some((last, _)) if rows.len() as i64 == limit => {
            Some(encode_cursor(last.created_at, &last.id))
        }
        _ => None,
    };
    let list = GameList {
        next,
        games: rows
            .iter()
            .map(|(row, seats)| GameSummary::build(row, seats))
            .collect(),
        limit,
        offset,
    };
    // The cursor replaces the offset: the next page's link skips nothing more.
    let next = list.next.as_deref();
    Ok(paging::page(&req, &list, next, "cursor", &["offset"]))
}
