//! Invite links (docs/invites-and-challenges.md): a game's creator (or any
//! seated player, when the game was created with `players_may_invite`)
//! mints a link to one open seat or to any open seat, single-use or
//! reusable, expiring, revocable. Following it seats the follower through
//! the write path (`Command::JoinByInvite`, decided as a join for the seat
//! the link names), and the link's use is counted in the same transaction
//! as the seat (`db::queries`, `use_invite!`): a single-use link seats one
//! person however many follow it at once, and a link never grants a seat
//! other than the one it names.
//!
//! The token is 32 random bytes in hex, shown once (in the answer to the
//! mint) and stored only as its SHA-256.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::error::ServiceError;
use super::service::{GameService, Snapshot, seat_of};
use super::status::GameStatus;
use super::write::{Command, Render, invite_spent_meanwhile};
use crate::db::DbError;
use crate::db::invites::{InviteRow, InviteSpent};
use crate::db::models::{InviteUse, PlayerRow, SeatWithName};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// Live invites (not revoked, not expired, uses left) a game may have at
/// once; past it `409 too_many_invites`.
pub const MAX_LIVE_INVITES_PER_GAME: i64 = 20;

/// Invites a game keeps in all (live, and spent ones until the sweep
/// deletes them a day after they expired or were revoked): so minting and
/// revoking in a loop stores a bounded number of rows; past it `409
/// too_many_invites` until the sweep makes room.
pub const MAX_KEPT_INVITES_PER_GAME: i64 = 100;

/// How long a link lives unless its minter says otherwise: a week.
pub const DEFAULT_INVITE_TTL: Duration = Duration::from_secs(7 * 86_400);

/// The shortest and longest lifetimes a minter may ask for.
pub const MIN_INVITE_TTL: Duration = Duration::from_secs(60);
pub const MAX_INVITE_TTL: Duration = Duration::from_secs(30 * 86_400);

/// The most uses a reusable link may have (the largest table's seats: a
/// link seats at most one person per use); the default of a reusable one.
pub const MAX_INVITE_USES: u32 = 10;

/// A game's invites listed, at most (the live ones are bounded, the spent
/// ones are purged a day after they expire).
pub const INVITES_LISTED: i64 = 100;

/// How long an expired (or revoked) invite is kept (listed, its link
/// answering `invite_expired`, `invite_revoked`) before the sweep deletes
/// it.
pub const EXPIRED_INVITE_RETENTION: Duration = Duration::from_secs(86_400);

/// What a minter asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MintInvite {
    /// The seat the link grants; `None`: any open seat.
    pub seat: Option<u8>,
    /// How many people the link may seat.
    pub max_uses: u32,
    /// How long the link lives; `None`: [`DEFAULT_INVITE_TTL`].
    pub expires_in_secs: Option<u64>,
}

/// A new invite and its token, which is never stored.
#[derive(Debug, Clone)]
pub struct Minted {
    pub invite: InviteRow,
    pub token: String,
}

/// What anyone holding a link may see of it: the invite and its game.
#[derive(Debug)]
pub struct InvitePreview {
    pub invite: InviteRow,
    pub game: Snapshot,
    /// Why the link cannot seat anyone now, if it cannot.
    pub refusal: Option<ServiceError>,
}

impl GameService {
    /// Mints an invite link to `game_id` for `caller`.
    pub async fn create_invite(
        self: &Arc<Self>,
        game_id: &str,
        caller: &PlayerRow,
        mint: &MintInvite,
    ) -> Result<Minted, ServiceError> {
        let game = self.snapshot(game_id).await?;
        may_mint(&game, &caller.id)?;
        open_for_invites(game.row.status)?;
        check_seat(&game.seats, mint.seat)?;
        let uses = checked_uses(mint.max_uses)?;
        let ttl = checked_ttl(mint.expires_in_secs)?;
        let token = hex::encode(crate::random::secret_bytes());
        let now = crate::db::now();
        let invite = InviteRow {
            id: uuid::Uuid::new_v4().to_string(),
            game_id: game.row.id.clone(),
            token_hash: token_hash(&token),
            seat: mint.seat.map(i32::from),
            max_uses: uses,
            uses: 0,
            created_by: caller.id.clone(),
            created_at: now,
            expires_at: now + ttl,
            revoked_at: None,
        };
        match self
            .db
            .insert_invite(
                &invite,
                (MAX_LIVE_INVITES_PER_GAME, MAX_KEPT_INVITES_PER_GAME),
            )
            .await
        {
            Ok(()) => Ok(Minted { invite, token }),
            Err(DbError::Limited) => Err(ServiceError::conflict(
                "too_many_invites",
                format!(
                    "the game has {MAX_LIVE_INVITES_PER_GAME} live invite links (revoke one), \
                     or {MAX_KEPT_INVITES_PER_GAME} kept in all (spent ones go a day after they end)"
                ),
            )),
            Err(e) => Err(e.into()),
        }
    }

    /// A game's invites, newest first, for its creator and its seated
    /// players.
    pub async fn game_invites(
        self: &Arc<Self>,
        game_id: &str,
        caller_id: &str,
    ) -> Result<Vec<InviteRow>, ServiceError> {
        let game = self.snapshot(game_id).await?;
        if !is_creator_or_seated(&game, caller_id) {
            return Err(ServiceError::NotSeated);
        }
        Ok(self.db.game_invites(game_id, INVITES_LISTED).await?)
    }

    /// Revokes an invite: its minter or the game's creator may. Revoking
    /// one already revoked answers it as it is (the first revocation's
    /// time stands).
    pub async fn revoke_invite(
        self: &Arc<Self>,
        game_id: &str,
        invite_id: &str,
        caller_id: &str,
    ) -> Result<InviteRow, ServiceError> {
        let game = self.snapshot(game_id).await?;
        let invite = self
            .db
            .invite(game_id, invite_id)
            .await?
            .ok_or_else(invite_not_found)?;
        if invite.created_by != caller_id && game.row.created_by != caller_id {
            return Err(ServiceError::forbidden(
                "not_invite_owner",
                "only the player who minted this link, or the game's creator, may revoke it",
            ));
        }
        self.db
            .revoke_invite(game_id, invite_id, crate::db::now())
            .await?
            .ok_or_else(invite_not_found)
    }

    /// The invite a token names, with its game, for anyone holding the link.
    pub async fn invite_preview(
        self: &Arc<Self>,
        token: &str,
    ) -> Result<InvitePreview, ServiceError> {
        let invite = self.invite_of_token(token).await?;
        let game = self.snapshot(&invite.game_id).await?;
        let refusal = refusal_now(&invite, &game, crate::db::now()).err();
        Ok(InvitePreview {
            invite,
            game,
            refusal,
        })
    }

    /// Seats `player` through the link `token` names: at its seat, or
    /// (naming none) at the seat a plain join takes. A copy of an
    /// idempotent accept answers the first one's answer, even once the
    /// link is spent.
    pub async fn accept_invite(
        self: &Arc<Self>,
        token: &str,
        player: &PlayerRow,
        entropy: Option<&str>,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        let invite = self.invite_of_token(token).await?;
        let now = crate::db::now();
        if let Some(spent) = invite.spent(now) {
            return Err(spent_refusal(spent));
        }
        let command = Command::JoinByInvite {
            player,
            seat: invite.seat.and_then(|s| u8::try_from(s).ok()),
            entropy: super::lifecycle::checked_entropy(entropy)?,
            invite: InviteUse {
                invite_id: invite.id.clone(),
                at: now,
            },
        };
        match self
            .execute(&invite.game_id, &command, idem, Some(render))
            .await
        {
            Ok(outcome) => outcome.answer(),
            Err(e) if is_spent_meanwhile(&e) => Err(self.why_spent(&invite).await),
            Err(e) => Err(e),
        }
    }

    /// The invite `token` names; a token that names none (or is not one)
    /// is `404 invite_not_found`.
    async fn invite_of_token(&self, token: &str) -> Result<InviteRow, ServiceError> {
        self.db
            .invite_by_token_hash(&token_hash(token))
            .await?
            .ok_or_else(invite_not_found)
    }

    /// Why a link the append found spent is spent, read afresh.
    async fn why_spent(&self, invite: &InviteRow) -> ServiceError {
        let fresh = match self.db.invite(&invite.game_id, &invite.id).await {
            Ok(Some(fresh)) => fresh,
            Ok(None) => return invite_not_found(),
            Err(e) => return e.into(),
        };
        fresh
            .spent(crate::db::now())
            .map_or_else(invite_spent_meanwhile, spent_refusal)
    }
}

fn is_spent_meanwhile(e: &ServiceError) -> bool {
    matches!(e, ServiceError::Conflict(r) if r.code == "invite_used")
}

/// The SHA-256 (hex) a token is stored as.
pub fn token_hash(token: &str) -> String {
    crate::random::sha256_hex(token.as_bytes())
}

fn invite_not_found() -> ServiceError {
    ServiceError::not_found("invite_not_found", "no invite link with this token")
}

/// The refusal for a spent link.
fn spent_refusal(spent: InviteSpent) -> ServiceError {
    match spent {
        InviteSpent::Revoked => {
            ServiceError::conflict("invite_revoked", "the invite link was revoked")
        }
        InviteSpent::Expired => {
            ServiceError::conflict("invite_expired", "the invite link has expired")
        }
        InviteSpent::UsedUp => ServiceError::conflict(
            "invite_used",
            "the invite link has seated as many people as it may",
        ),
    }
}

/// Whether the link could seat someone now, as far as the link and the
/// game say (not who follows it): its own state first, then the game's,
/// then its seat.
fn refusal_now(
    invite: &InviteRow,
    game: &Snapshot,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    if let Some(spent) = invite.spent(now) {
        return Err(spent_refusal(spent));
    }
    open_for_invites(game.row.status)?;
    check_seat(&game.seats, invite.seat.and_then(|s| u8::try_from(s).ok()))
}

/// The creator may mint; a seated player only when the game allows it.
fn may_mint(game: &Snapshot, player_id: &str) -> Result<(), ServiceError> {
    if game.row.created_by == player_id {
        return Ok(());
    }
    if seat_of(&game.seats, player_id).is_none() {
        return Err(ServiceError::NotSeated);
    }
    if !game.row.players_may_invite {
        return Err(ServiceError::forbidden(
            "invites_creator_only",
            "only the game's creator may invite to this game (it was created without players_may_invite)",
        ));
    }
    Ok(())
}

fn is_creator_or_seated(game: &Snapshot, player_id: &str) -> bool {
    game.row.created_by == player_id || seat_of(&game.seats, player_id).is_some()
}

/// Links are to open games: one that started (or ended) has no seat to
/// give.
fn open_for_invites(status: GameStatus) -> Result<(), ServiceError> {
    match status {
        GameStatus::Open => Ok(()),
        GameStatus::Expired => Err(ServiceError::conflict(
            "game_expired",
            "the game expired before it started",
        )),
        GameStatus::InProgress | GameStatus::Finished => Err(ServiceError::conflict(
            "game_not_open",
            "the game has already started",
        )),
    }
}

/// A named seat must exist, be a player's seat, be open and be reserved
/// for nobody else (a rematch's); naming none, some seat must be open to
/// anyone.
fn check_seat(seats: &[SeatWithName], seat: Option<u8>) -> Result<(), ServiceError> {
    let open = |s: &SeatWithName| !s.seat.is_bot && s.seat.player_id.is_none();
    let Some(n) = seat else {
        return if seats
            .iter()
            .any(|s| open(s) && s.seat.invited_player_id.is_none())
        {
            Ok(())
        } else {
            Err(ServiceError::conflict(
                "no_open_seat",
                "every seat is taken",
            ))
        };
    };
    let Some(s) = seats.iter().find(|s| s.seat.seat == i32::from(n)) else {
        return Err(ServiceError::invalid(
            "no_such_seat",
            format!("seats are numbered 0 to {}", seats.len().saturating_sub(1)),
        ));
    };
    if s.seat.is_bot {
        return Err(ServiceError::invalid(
            "seat_is_bot",
            "a bot plays that seat",
        ));
    }
    if s.seat.player_id.is_some() {
        return Err(ServiceError::conflict(
            "seat_taken",
            "that seat is not open",
        ));
    }
    if s.seat.invited_player_id.is_some() {
        return Err(ServiceError::conflict(
            "seat_reserved",
            "this seat of a rematch is reserved for the player who held it",
        ));
    }
    Ok(())
}

fn checked_uses(max_uses: u32) -> Result<i32, ServiceError> {
    if (1..=MAX_INVITE_USES).contains(&max_uses) {
        Ok(max_uses as i32)
    } else {
        Err(ServiceError::invalid(
            "bad_invite_uses",
            format!("max_uses is 1 to {MAX_INVITE_USES}"),
        ))
    }
}

fn checked_ttl(expires_in_secs: Option<u64>) -> Result<chrono::Duration, ServiceError> {
    let ttl = expires_in_secs.map_or(DEFAULT_INVITE_TTL, Duration::from_secs);
    if !(MIN_INVITE_TTL..=MAX_INVITE_TTL).contains(&ttl) {
        return Err(ServiceError::invalid(
            "bad_invite_expiry",
            format!(
                "expires_in_secs is {} to {} (30 days)",
                MIN_INVITE_TTL.as_secs(),
                MAX_INVITE_TTL.as_secs()
            ),
        ));
    }
    chrono::Duration::from_std(ttl).map_err(ServiceError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invite(max_uses: i32, uses: i32) -> InviteRow {
        let now = Utc::now();
        InviteRow {
            id: "i".into(),
            game_id: "g".into(),
            token_hash: token_hash("t"),
            seat: None,
            max_uses,
            uses,
            created_by: "p".into(),
            created_at: now,
            expires_at: now + chrono::Duration::hours(1),
            revoked_at: None,
        }
    }

    #[test]
    fn a_link_is_spent_when_revoked_expired_or_used_up_revoked_first() {
        let now = Utc::now();
        assert_eq!(invite(1, 0).spent(now), None);
        assert_eq!(invite(1, 1).spent(now), Some(InviteSpent::UsedUp));
        let late = now + chrono::Duration::hours(2);
        assert_eq!(invite(2, 0).spent(late), Some(InviteSpent::Expired));
        let mut revoked = invite(1, 1);
        revoked.revoked_at = Some(now);
        assert_eq!(revoked.spent(late), Some(InviteSpent::Revoked));
    }

    #[test]
    fn uses_and_lifetimes_are_bounded() {
        assert!(checked_uses(0).is_err());
        assert!(checked_uses(MAX_INVITE_USES + 1).is_err());
        assert_eq!(checked_uses(1).unwrap(), 1);
        assert!(checked_ttl(Some(59)).is_err());
        assert!(checked_ttl(Some(30 * 86_400 + 1)).is_err());
        assert_eq!(
            checked_ttl(None).unwrap(),
            chrono::Duration::days(7),
            "a week by default"
        );
    }

    #[test]
    fn the_stored_hash_is_not_the_token() {
        let token = hex::encode([7u8; 32]);
        assert_ne!(token_hash(&token), token);
        assert_eq!(token_hash(&token).len(), 64);
    }
}
