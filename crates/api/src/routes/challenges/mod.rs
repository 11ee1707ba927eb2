//! `/v1/challenges`: challenge named players to a game, read and list
//! one's challenges, accept, decline, withdraw (docs/invites-and-challenges.md).

pub mod accept_challenge;
pub mod create_challenge;
pub mod decline_challenge;
pub mod get_challenge;
pub mod list_challenges;
pub mod withdraw_challenge;

use actix_web::HttpResponse;
use actix_web::http::StatusCode;

use crate::error::ApiError;
use crate::games::ServiceError;
use crate::games::challenges::{ChallengeMove, ChallengeRender};
use crate::games::vocabulary::Challenge;
use crate::idempotency::IdemRequest;
use crate::idempotency::Stored;
use crate::input::ChallengeId;
use crate::resources::challenges::ChallengeResource;
use crate::routes::games::known_player;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// A challenge answered as it stands after the change: `201 Created` with
/// `Location` for a new one, else `200`.
#[derive(Debug, Clone, Copy)]
pub struct ChallengeAnswered {
    pub created: bool,
}

impl ChallengeRender for ChallengeAnswered {
    fn render(&self, challenge: &Challenge) -> Result<Stored, ServiceError> {
        let resource = ChallengeResource::build(challenge).map_err(ServiceError::internal)?;
        if self.created {
            Ok(Stored::new(StatusCode::CREATED.as_u16(), resource)?
                .with_location(format!("/v1/challenges/{}", challenge.row.id)))
        } else {
            Stored::new(StatusCode::OK.as_u16(), resource)
        }
    }
}

/// A stored challenge as its resource (a row the server cannot read is a 500).
pub(crate) fn resource(c: &Challenge) -> Result<ChallengeResource, crate::error::ApiError> {
    ChallengeResource::build(c).map_err(crate::error::ApiError::internal)
}

/// Accept, decline or withdraw: the caller's `change` to a challenge,
/// answered as it stands after (the three operations differ only in the
/// change and in what their documents say). `operation` names the request
/// for its idempotency record.
pub(crate) async fn change(
    state: &AppState,
    player_id: &str,
    key: IdempotencyKey,
    challenge_id: &ChallengeId,
    change: ChallengeMove,
    operation: &str,
) -> Result<HttpResponse, ApiError> {
    let player = known_player(state, player_id).await?;
    let idem = IdemRequest::new(
        Some(&player.id),
        key.0,
        &format!("{operation} {}", &**challenge_id),
        &serde_json::Value::Null,
    );
    let answer = state
        .games
        .change_challenge(
            challenge_id,
            &player,
            change,
            idem.as_ref(),
            &ChallengeAnswered { created: false },
        )
        .await?;
    respond(answer)
}
