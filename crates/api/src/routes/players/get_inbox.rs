use actix_web::{HttpResponse, get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::streams::{Inbox, YourTurn};
use crate::routes::doc;
use crate::state::AppState;

/// My inbox
///
/// The games where the caller must act now, the longest-waiting first
/// (by when the game last changed), each with what is asked (`prompt`:
/// `bid`, `pass_cards`, `play` …) and the move deadline, if any; the
/// open rematches with a seat reserved for the caller (`invitations`); and
/// the tables formed for the caller's seeks in the last day (`seeks`,
/// quick play); the challenges waiting for the caller's answer
/// (`challenges`).
#[utoipa::path(
    tag = "players",
    operation_id = "get_inbox",
    responses(
        (status = 200, description = "The games waiting for the caller", body = Inbox),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/inbox")]
pub async fn get_inbox(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let turns = state.games.inbox(&auth.player_id).await?;
    let games = turns.into_iter().map(YourTurn::from).collect();
    let invitations = state.games.invitations(&auth.player_id).await?;
    let seeks = state.games.matched_seeks(&auth.player_id).await?;
    let challenges = state.games.challenges_to_answer(&auth.player_id).await?;
    Ok(HttpResponse::Ok().json(Inbox {
        games,
        invitations,
        seeks: seeks.into_iter().map(Into::into).collect(),
        challenges: challenges
            .iter()
            .map(crate::routes::challenges::resource)
            .collect::<Result<_, _>>()?,
    }))
}
