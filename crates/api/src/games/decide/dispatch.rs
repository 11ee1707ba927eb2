//! Which decision a command is: one `match`, each arm one file of the core.

use super::command::{Command, Decision, State};
use super::{autoplay, bot_turn, deadline_fired, expire_if_idle, hint, join, leave, play, resign};
use crate::service_error::ServiceError;

/// What `command` does to the game as `state` says it is: a change to
/// append, nothing, or a refusal.
pub fn decide(command: &Command<'_>, state: &State<'_>) -> Result<Decision, ServiceError> {
    match command {
        Command::Move {
            player_id,
            mv,
            if_match,
        } => play::decide_move(state, player_id, mv, *if_match),
        Command::Join {
            player,
            seat,
            entropy,
        } => join::decide_join(state, player, *seat, entropy.as_deref()),
        Command::JoinByInvite {
            player,
            seat,
            entropy,
            invite,
        } => join::decide_join_by_invite(state, player, *seat, entropy.as_deref(), invite),
        Command::Leave { player_id } => leave::decide_leave(state, player_id),
        Command::Autoplay {
            player_id,
            enabled,
            level,
        } => autoplay::decide_autoplay(state, player_id, *enabled, *level),
        Command::Resign { player_id } => resign::decide_resign(state, player_id),
        Command::BotTurn { plan } => bot_turn::decide_bot_turn(state, *plan),
        Command::DeadlineFired => deadline_fired::decide_deadline(state),
        Command::ExpireIfIdle { ttl } => expire_if_idle::decide_expiry(state, *ttl),
        Command::Hint {
            player_id,
            seat,
            ply,
            mv,
            version,
        } => hint::decide_hint(state, player_id, *seat, *ply, mv, *version),
    }
}
