use actix_web::{get, web};

use crate::error::ApiError;
use crate::resources::GameKind;
use crate::resources::seeks::{KindSeekers, SeekersByKind};
use crate::state::AppState;

/// Who is seeking
///
/// How many players seek a table of each kind now (every kind listed):
/// for a waiting screen. Public.
#[utoipa::path(
    tag = "seeks",
    operation_id = "count_seekers",
    responses(
        (status = 200, description = "Players seeking, by kind", body = SeekersByKind),
    ),
    security((), ("bearer" = []))
)]
#[get("/seekers")]
pub async fn count_seekers(
    state: web::Data<AppState>,
) -> Result<web::Json<SeekersByKind>, ApiError> {
    let kinds = state
        .games
        .seekers_by_kind()
        .await?
        .into_iter()
        .filter_map(|(code, seekers)| {
            Some(KindSeekers {
                kind: GameKind::from_code(code)?,
                seekers,
            })
        })
        .collect();
    Ok(web::Json(SeekersByKind { kinds }))
}
