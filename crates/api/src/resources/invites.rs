//! Invite links' bodies (`routes/invites/`, docs/invites-and-challenges.md):
//! a link as asked for, as minted (with its token, shown once), as listed,
//! and as anyone holding it sees it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::GameSummary;
use crate::games::invites::{InvitePreview, MAX_INVITE_USES, MintInvite, Minted};
use crate::games::vocabulary::InviteRow;

/// How many people a link may seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InviteUses {
    /// One person: the first to follow it.
    #[default]
    Single,
    /// Several, each in a seat of their own: up to `max_uses` (default 10,
    /// the largest table).
    Reusable,
}

/// Mint an invite link (`create_invite`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seat": 2, "uses": "single", "expires_in_secs": 86400}))]
pub struct CreateInviteRequest {
    /// The seat the link grants (it must be open and a player's); any open
    /// seat when left out (never one a rematch reserved for another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(maximum = 9)]
    pub seat: Option<u8>,
    /// `single` (default) or `reusable`.
    #[serde(default)]
    pub uses: InviteUses,
    /// How many people a reusable link may seat, 1 to 10 (default 10); a
    /// single-use link seats one (`max_uses` other than 1 is 422
    /// `bad_invite_uses`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 10)]
    pub max_uses: Option<u32>,
    /// How long the link lives, 60 s to 30 days (default 7 days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 60, maximum = 2592000)]
    pub expires_in_secs: Option<u64>,
}

impl CreateInviteRequest {
    /// The service's request, or why the body does not add up.
    pub fn mint(&self) -> Result<MintInvite, crate::error::ApiError> {
        let max_uses = match (self.uses, self.max_uses) {
            (InviteUses::Single, None | Some(1)) => 1,
            (InviteUses::Single, Some(_)) => {
                return Err(crate::error::ApiError::unprocessable(
                    "bad_invite_uses",
                    "a single-use link seats one person: leave max_uses out or use \"reusable\"",
                ));
            }
            (InviteUses::Reusable, uses) => uses.unwrap_or(MAX_INVITE_USES),
        };
        Ok(MintInvite {
            seat: self.seat,
            max_uses,
            expires_in_secs: self.expires_in_secs,
        })
    }
}

/// Where a link stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InviteState {
    /// It may seat someone (while the game is open and its seat free).
    Live,
    /// It has seated as many people as it may.
    UsedUp,
    Revoked,
    Expired,
}

/// An invite link as its game's players see it (never its token).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "id": "5a0c8d9e-2b1f-4c3a-9e8d-7f6a5b4c3d2e",
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "seat": 2,
    "max_uses": 1,
    "uses": 0,
    "state": "live",
    "created_by": "3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b",
    "created_at": "2026-12-08T10:00:00Z",
    "expires_at": "2026-12-15T10:00:00Z"
}))]
pub struct InviteResource {
    pub id: String,
    pub game_id: String,
    /// The seat it grants; absent: any open seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    pub max_uses: u32,
    /// How many people it has seated.
    pub uses: u32,
    pub state: InviteState,
    /// The player who minted it.
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<DateTime<Utc>>,
}

impl InviteResource {
    pub fn build(row: &InviteRow, now: DateTime<Utc>) -> InviteResource {
        use crate::games::vocabulary::InviteSpent;
        InviteResource {
            id: row.id.clone(),
            game_id: row.game_id.clone(),
            seat: row.seat.and_then(|s| u8::try_from(s).ok()),
            max_uses: u32::try_from(row.max_uses).unwrap_or(0),
            uses: u32::try_from(row.uses).unwrap_or(0),
            state: match row.spent(now) {
                None => InviteState::Live,
                Some(InviteSpent::UsedUp) => InviteState::UsedUp,
                Some(InviteSpent::Revoked) => InviteState::Revoked,
                Some(InviteSpent::Expired) => InviteState::Expired,
            },
            created_by: row.created_by.clone(),
            created_at: row.created_at,
            expires_at: row.expires_at,
            revoked_at: row.revoked_at,
        }
    }
}

/// A new invite link: the invite, and its token and path, shown this once
/// (only the token's SHA-256 is stored).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteCreated {
    pub invite: InviteResource,
    /// The link's secret: 64 hex digits. Whoever holds it may take the seat
    /// it grants.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub token: String,
    /// The web table's page for the link, relative to the server's root:
    /// `/#/invite/{token}`.
    #[schema(
        example = "/#/invite/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    )]
    pub path: String,
    /// The api's view of the link: `/v1/invites/{token}` (`get_invite`,
    /// and `accept_invite` with `/accept`).
    pub href: String,
}

impl InviteCreated {
    pub fn build(minted: &Minted, now: DateTime<Utc>) -> InviteCreated {
        InviteCreated {
            invite: InviteResource::build(&minted.invite, now),
            token: minted.token.clone(),
            path: format!("/#/invite/{}", minted.token),
            href: format!("/v1/invites/{}", minted.token),
        }
    }
}

/// A game's invite links, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteList {
    pub invites: Vec<InviteResource>,
}

/// An invite link as anyone holding it sees it (`get_invite`): the game's
/// public facts (kind, seats and who sits in them), the seat the link
/// grants, and whether it may seat someone now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteView {
    pub game: GameSummary,
    /// The seat it grants; absent: any open seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    pub state: InviteState,
    pub expires_at: DateTime<Utc>,
    /// Whether following it now may seat someone (the link is live, the
    /// game open, its seat, or some seat, free).
    pub usable: bool,
    /// When not usable: the problem code `accept_invite` answers
    /// (`invite_expired`, `invite_revoked`, `invite_used`, `game_not_open`,
    /// `game_expired`, `seat_taken`, `no_open_seat`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

impl InviteView {
    pub fn build(preview: &InvitePreview, now: DateTime<Utc>) -> InviteView {
        let invite = InviteResource::build(&preview.invite, now);
        InviteView {
            game: GameSummary::build(&preview.game.row, &preview.game.seats),
            seat: invite.seat,
            state: invite.state,
            expires_at: invite.expires_at,
            usable: preview.refusal.is_none(),
            refusal: preview.refusal.as_ref().and_then(refusal_code),
        }
    }
}

fn refusal_code(e: &crate::games::ServiceError) -> Option<String> {
    use crate::games::ServiceError;
    match e {
        ServiceError::Conflict(r) | ServiceError::Invalid(r) => Some(r.code.to_owned()),
        _ => None,
    }
}

/// Follow an invite link (`accept_invite`): optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"entropy": "my dice: 3 5 1 6"}))]
pub struct AcceptInviteRequest {
    /// The player's contribution to the shuffle, as in `join_game`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 1024, pattern = r"^[^\x00-\x1F\x7F-\x9F]*(?![\s\S])")]
    pub entropy: Option<String>,
}
