//! Invite links (docs/invites-and-challenges.md): `/v1/games/{game_id}/invites`
//! to mint, list and revoke a game's links; `/v1/invites/{token}` to see
//! one and follow it into a seat.

pub mod accept_invite;
pub mod create_invite;
pub mod get_invite;
pub mod list_invites;
pub mod revoke_invite;
