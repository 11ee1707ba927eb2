use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, Problem};
use crate::resources::GameKind;
use crate::resources::ratings::{Leaderboard, LeaderboardEntry};
use crate::routes::{doc, paging};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// Where the page starts: the `next` of the previous page (opaque).
    pub after: Option<String>,
    /// At most this many rows (1 to 200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A page's cursor: the last row's (rating, subject), as hex of
/// `<rating's f64 bits>.<subject>` (exact, and opaque to clients).
fn encode_cursor(rating: f64, subject: &str) -> String {
    hex::encode(format!("{}.{subject}", rating.to_bits()))
}

fn decode_cursor(raw: &str) -> Result<(f64, String), ApiError> {
    let bad = || ApiError::bad_request("bad_cursor", "after is not a `next` this server sent");
    let text = String::from_utf8(hex::decode(raw).map_err(|_| bad())?).map_err(|_| bad())?;
    let (bits, subject) = text.split_once('.').ok_or_else(bad)?;
    let rating = f64::from_bits(bits.parse().map_err(|_| bad())?);
    if !rating.is_finite() {
        return Err(bad());
    }
    Ok((rating, subject.to_owned()))
}

/// Get a leaderboard
///
/// One kind's ratings, highest first (ties by subject), bots included
/// (`is_bot`), paged by a keyset cursor (docs/ratings.md).
#[utoipa::path(
    tag = "ratings",
    operation_id = "get_leaderboard",
    params(
        ("kind" = GameKind, Path, description = "The game kind"),
        LeaderboardQuery,
    ),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard,
            headers(("Link" = String, description = "`<url>; rel=\"next\"` (RFC 8288): this request for the next page, its cursor set to the answer's `next`; absent on the last page"))),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such kind", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/leaderboards/{kind}")]
pub async fn get_leaderboard(
    req: HttpRequest,
    state: web::Data<AppState>,
    kind: web::Path<GameKind>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::limit(query.limit)?;
    let after = query.after.as_deref().map(decode_cursor).transpose()?;
    let rows = state
        .games
        .leaderboard(
            kind.code(),
            after.as_ref().map(|(r, s)| (*r, s.as_str())),
            limit,
        )
        .await?;
    let next = match rows.last() {
        Some(last) if rows.len() as i64 == limit => {
            Some(encode_cursor(last.row.rating, &last.row.subject))
        }
        _ => None,
    };
    let board = Leaderboard {
        kind: kind.code().to_owned(),
        entries: rows.iter().map(LeaderboardEntry::build).collect(),
        next,
    };
    Ok(paging::page(
        &req,
        &board,
        board.next.as_deref(),
        "after",
        &[],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_exactly_and_bad_ones_are_refused() {
        let rating = 1_662.312_345_678_9_f64;
        let (r, s) = decode_cursor(&encode_cursor(rating, "bot:sensible")).unwrap();
        assert_eq!(r.to_bits(), rating.to_bits());
        assert_eq!(s, "bot:sensible");
        assert!(decode_cursor("zz").is_err());
        assert!(decode_cursor(&hex::encode("nan.x")).is_err());
    }
}
