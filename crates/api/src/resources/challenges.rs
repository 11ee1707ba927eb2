//! Challenges' bodies (`routes/challenges/`, docs/invites-and-challenges.md):
//! a challenge as asked and as it stands, a player's list, and the
//! player's settings (whom they take challenges from).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::GameKind;
use crate::games::DeadlinePolicy;
use crate::games::ResignPolicy;
use crate::games::challenges::{ChallengeRequest, GameOptions};
use crate::games::vocabulary::{Challenge, ChallengeAnswer, ChallengeStatus, ChallengesFrom};

/// Challenge players to a game (`create_challenge`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "kind": "lost-heir",
    "config": {"players": 3, "target": 20},
    "challenged": ["3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"],
    "rated": true,
    "move_deadline_secs": 86400,
    "expires_in_secs": 86400
}))]
pub struct CreateChallengeRequest {
    pub kind: GameKind,
    /// The kind's configuration, as in `create_game`; its number of players
    /// must be the challenger and the players challenged (else 422
    /// `seat_count_mismatch`).
    #[schema(schema_with = crate::openapi::game_config_input)]
    pub config: Value,
    /// The players challenged (1 to 9, each once, not the challenger), in
    /// the order of their seats: seat 1 onwards (the challenger sits at 0).
    #[schema(min_items = 1, max_items = 9)]
    pub challenged: Vec<String>,
    /// Whether the game is rated (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// Time allowed per move, 1 s to 30 days; no clock when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 2592000)]
    pub move_deadline_secs: Option<u64>,
    /// What happens when the time runs out (default `bot`); only with
    /// `move_deadline_secs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_deadline: Option<DeadlinePolicy>,
    /// What happens when a seated player resigns (default `bot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_resign: Option<ResignPolicy>,
    /// How long the challenge waits for answers, 60 s to 7 days (default
    /// 1 day).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 60, maximum = 604800)]
    pub expires_in_secs: Option<u64>,
}

impl CreateChallengeRequest {
    /// The service's request.
    pub fn request(&self) -> ChallengeRequest {
        ChallengeRequest {
            kind: self.kind.code(),
            options: GameOptions {
                config: self.config.clone(),
                rated: self.rated.unwrap_or(true),
                move_deadline_secs: self.move_deadline_secs,
                on_deadline: self.on_deadline,
                on_resign: self.on_resign.unwrap_or_default(),
            },
            challenged: self.challenged.clone(),
            expires_in_secs: self.expires_in_secs,
        }
    }
}

/// A player in a challenge.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengePlayer {
    pub player_id: String,
    pub display_name: String,
    /// Their seat in the game (the challenger's is 0).
    pub seat: u8,
    /// The challenger's is always `accepted`.
    pub answer: ChallengeAnswer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_at: Option<DateTime<Utc>>,
}

/// A challenge as it stands.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeResource {
    pub id: String,
    pub kind: String,
    /// The configuration asked for, as given.
    #[schema(schema_with = crate::openapi::game_config_input)]
    pub config: Value,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_deadline_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_deadline: Option<DeadlinePolicy>,
    pub on_resign: ResignPolicy,
    pub challenger: ChallengePlayer,
    /// The players challenged, by seat.
    pub challenged: Vec<ChallengePlayer>,
    /// `pending` until everyone accepted (`accepted`, with `game_id`),
    /// someone declined, the challenger withdrew it, or it expired.
    pub status: ChallengeStatus,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<DateTime<Utc>>,
    /// The game everyone accepted, started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

impl ChallengeResource {
    pub fn build(c: &Challenge) -> Result<ChallengeResource, serde_json::Error> {
        let options: GameOptions = serde_json::from_str(&c.row.options)?;
        Ok(ChallengeResource {
            id: c.row.id.clone(),
            kind: c.row.kind.clone(),
            config: options.config,
            rated: options.rated,
            move_deadline_secs: options.move_deadline_secs,
            on_deadline: options.on_deadline,
            on_resign: options.on_resign,
            challenger: ChallengePlayer {
                player_id: c.row.challenger_id.clone(),
                display_name: c.challenger_name.clone(),
                seat: 0,
                answer: ChallengeAnswer::Accepted,
                answered_at: Some(c.row.created_at),
            },
            challenged: c
                .players
                .iter()
                .map(|(p, name)| ChallengePlayer {
                    player_id: p.player_id.clone(),
                    display_name: name.clone(),
                    seat: u8::try_from(p.seat).unwrap_or(u8::MAX),
                    answer: p.answer,
                    answered_at: p.answered_at,
                })
                .collect(),
            status: c.row.status,
            created_at: c.row.created_at,
            expires_at: c.row.expires_at,
            ended_at: c.row.ended_at,
            game_id: c.row.game_id.clone(),
        })
    }
}

/// The caller's challenges, sent and received, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeList {
    pub challenges: Vec<ChallengeResource>,
}

/// A player's settings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"challenges_from": "known_players"}))]
pub struct PlayerSettings {
    /// Whom the player takes challenges from: `anyone` (default) or
    /// `known_players` (players they have finished a game with).
    pub challenges_from: ChallengesFrom,
}
