use actix_web::{get, web};

use crate::error::{ApiError, Problem};
use crate::input::InviteToken;
use crate::resources::invites::InviteView;
use crate::routes::doc;
use crate::state::AppState;

/// See an invite link
///
/// What anyone holding the link may see before following it, without
/// signing in: the game's kind and public facts, its seats and who sits
/// in them, the seat the link grants, and whether it may seat someone now
/// (else the code `accept_invite` would answer).
#[utoipa::path(
    tag = "invites",
    operation_id = "get_invite",
    params(("token" = String, Path, description = "The link's token (64 hex digits)")),
    responses(
        (status = 200, description = "The link and its game", body = InviteView),
        (status = 404, description = "`invite_not_found`: no link with this token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(())
)]
#[get("/invites/{token}")]
pub async fn get_invite(
    state: web::Data<AppState>,
    token: InviteToken,
) -> Result<web::Json<InviteView>, ApiError> {
    let preview = state.games.invite_preview(&token).await?;
    Ok(web::Json(InviteView::build(&preview, chrono::Utc::now())))
}
