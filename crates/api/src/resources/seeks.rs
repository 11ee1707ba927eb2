//! Quick play's bodies (`routes/seeks/`, docs/quick-play.md): a seek as
//! asked and as it stands, the seekers per kind, and the notice of a
//! matched seek (player stream `seek_matched`, inbox `seeks`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::GameKind;
use crate::games::seeks::{BotsRequest, Found, SeekRequest};
use crate::games::status::BotLevel;
use crate::games::vocabulary::{SeekRow, SeekStatus};
use crate::games::watch::SeekNotice;

/// The table sizes a seek accepts, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"min": 6, "max": 8}))]
pub struct TableSizes {
    #[schema(minimum = 2, maximum = 10)]
    pub min: u8,
    #[schema(minimum = 2, maximum = 10)]
    pub max: u8,
}

/// The ratings (of the seek's kind) a seek accepts at its table, both ends
/// included; an end left out is open. The seeker's own rating must be
/// inside (else 422 `rating_range_excludes_you`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"min": 1300, "max": 1700}))]
pub struct RatingRange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
}

/// The bots fallback: after `after_secs`, start the table with bots at
/// `level` in the empty seats, once it has `min_humans` people (the
/// seeker included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"after_secs": 120, "level": "sensible", "min_humans": 2}))]
pub struct BotsFallback {
    /// Seconds after the seek is made; below the server's `SEEK_TTL_SECS`
    /// (else 422 `bad_bots`). 0: bots may come at once.
    #[schema(maximum = 2592000)]
    pub after_secs: u64,
    /// How strongly the bots play (default `sensible`, docs/bots.md).
    /// `expert` counts against `BOT_GAMES_PER_PLAYER` as a game with an
    /// expert bot does.
    #[serde(default)]
    pub level: Option<BotLevel>,
    /// The fewest people at the table, the seeker included (default 1:
    /// the seeker alone with bots); at most the largest table accepted.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub min_humans: Option<u8>,
}

/// Ask for a table (`create_seek`). Every setting left out is "any".
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "kind": "cancellation-hearts",
    "players": {"min": 6, "max": 8},
    "variants": ["carry_over"],
    "rated": true,
    "rating_range": {"min": 1300, "max": 1700},
    "move_deadline_secs": 86400,
    "bots": {"after_secs": 300, "level": "sensible", "min_humans": 4}
}))]
pub struct CreateSeekRequest {
    pub kind: GameKind,
    /// The table sizes accepted (default: every size of the kind: Lost Heir
    /// 2-4, Cancellation Hearts 6-10); at least one must be the kind's and
    /// possible with the variants (else 422 `no_table_size`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<TableSizes>,
    /// The target score (default: any; the kind's own unless another
    /// member names one). Checked as a game's configuration is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// The variants accepted: in each of the kind's groups, those named;
    /// a group none is named of is "any" (a table takes the default when
    /// all accept it). Lost Heir: `dealer_contract` (LH-6) or
    /// `bidder_contract` (LH-13); `partnerships` (4 players only) or
    /// `no_partnerships` (LH-3). Cancellation Hearts: `extend` (CH-8) or
    /// `carry_over` (CH-9). Another kind's variant: 422 `unknown_variant`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = crate::openapi::seek_variants)]
    pub variants: Option<Vec<String>>,
    /// Rated or not (default: either; a table is rated unless a member
    /// asks for unrated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
    /// Seconds per move, or 0 for a table without a clock (default: any;
    /// no clock unless a member names one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 2592000)]
    pub move_deadline_secs: Option<u64>,
    /// Start with bots if not enough people come in time (default: never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<BotsFallback>,
    /// The seeker's contribution to the shuffle of their table (as in
    /// `create_game`: at most 1024 bytes, no control characters), private
    /// until the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 1024, pattern = r"^[^\x00-\x1F\x7F-\x9F]*(?![\s\S])")]
    pub entropy: Option<String>,
}

impl CreateSeekRequest {
    /// The service's request for this body.
    pub fn request(&self) -> SeekRequest {
        SeekRequest {
            kind: self.kind.code(),
            players: self.players.map(|p| (p.min, p.max)),
            target: self.target,
            variants: self.variants.clone().unwrap_or_default(),
            rated: self.rated,
            rating_min: self.rating_range.and_then(|r| r.min),
            rating_max: self.rating_range.and_then(|r| r.max),
            move_deadline_secs: self.move_deadline_secs,
            bots: self.bots.map(|b| BotsRequest {
                after_secs: b.after_secs,
                level: b.level.unwrap_or_default(),
                min_humans: b.min_humans.unwrap_or(1),
            }),
            entropy: self.entropy.clone(),
        }
    }
}

/// A seek's bots fallback as it stands: when the bots may come.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeekBots {
    /// From when bots may fill the empty seats.
    pub at: DateTime<Utc>,
    pub level: BotLevel,
    pub min_humans: u8,
}

/// A seek: what it asks, and where it is.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "5b0c8f0e-2f7a-4b61-9f1e-0d6c3a2b1e47",
    "kind": "cancellation-hearts",
    "status": "matched",
    "players": {"min": 6, "max": 8},
    "target": null,
    "variants": ["carry_over"],
    "rated": true,
    "rating_range": {"min": 1300, "max": 1700},
    "move_deadline_secs": 86400,
    "bots": {"at": "2026-12-07T12:05:00Z", "level": "sensible", "min_humans": 4},
    "created_at": "2026-12-07T12:00:00Z",
    "expires_at": "2026-12-07T13:00:00Z",
    "ended_at": "2026-12-07T12:01:30Z",
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "seat": 3,
    "found": null
}))]
pub struct SeekResource {
    pub id: String,
    pub kind: GameKind,
    /// `active` until it is `matched` (then `game_id` and `seat` say where),
    /// `cancelled` or `expired`; it changes once.
    pub status: SeekStatus,
    pub players: TableSizes,
    /// Null: any.
    pub target: Option<i32>,
    /// The variants asked for (empty: any).
    #[schema(schema_with = crate::openapi::seek_variants)]
    pub variants: Vec<String>,
    /// Null: rated or not.
    pub rated: Option<bool>,
    /// Null: any rating.
    pub rating_range: Option<RatingRange>,
    /// Null: any clock; 0: no clock.
    pub move_deadline_secs: Option<i64>,
    /// Null: no bots.
    pub bots: Option<SeekBots>,
    pub created_at: DateTime<Utc>,
    /// When it expires if no table forms first.
    pub expires_at: DateTime<Utc>,
    /// When it was matched, cancelled or expired (null while active).
    pub ended_at: Option<DateTime<Utc>>,
    /// The game it seated the seeker at (`matched` only).
    pub game_id: Option<String>,
    /// The seeker's seat there (`matched` only).
    pub seat: Option<u8>,
    /// The table this seek would sit at as the seekers wait now: how many
    /// people are found for it. Only `get_seek` of an active seek says it
    /// (at most a second old); null in lists, in `create_seek`'s answer,
    /// once ended, and for a seek still waiting its turn to be looked at.
    pub found: Option<SeekFound>,
}

/// Who has been found so far for a waiting seek's table: counts only (the
/// other seekers' names and ratings stay private). The group is the one
/// the first come first served look would seat the seek with
/// (docs/quick-play.md, "When a table forms").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"humans": 3, "smallest": 3, "largest": 4}))]
pub struct SeekFound {
    /// People in the group, the seeker included.
    #[schema(minimum = 1, maximum = 10)]
    pub humans: u8,
    /// The smallest table they can make: at this many it starts once
    /// nobody joined for the gathering spell (or with bots, when due).
    #[schema(minimum = 2, maximum = 10)]
    pub smallest: u8,
    /// The largest table they can make: at this many it starts at once.
    #[schema(minimum = 2, maximum = 10)]
    pub largest: u8,
}

impl From<Found> for SeekFound {
    fn from(f: Found) -> Self {
        SeekFound {
            humans: f.humans,
            smallest: f.smallest,
            largest: f.largest,
        }
    }
}

impl SeekResource {
    pub fn build(row: &SeekRow) -> Result<SeekResource, String> {
        let kind = GameKind::from_code(&row.kind).ok_or_else(|| format!("kind {}", row.kind))?;
        let variants = row.variant_names().map_err(|e| e.to_string())?;
        let small = |n: i32| u8::try_from(n).map_err(|_| format!("stored size {n}"));
        let rating_range =
            (row.rating_min.is_some() || row.rating_max.is_some()).then_some(RatingRange {
                min: row.rating_min,
                max: row.rating_max,
            });
        let bots = match (row.bots_at, row.bot_level, row.bots_min_humans) {
            (Some(at), Some(level), Some(min_humans)) => Some(SeekBots {
                at,
                level,
                min_humans: small(min_humans)?,
            }),
            _ => None,
        };
        Ok(SeekResource {
            id: row.id.clone(),
            kind,
            status: row.status,
            players: TableSizes {
                min: small(row.min_players)?,
                max: small(row.max_players)?,
            },
            target: row.target,
            variants,
            rated: row.rated,
            rating_range,
            move_deadline_secs: row.move_deadline_secs,
            bots,
            created_at: row.created_at,
            expires_at: row.expires_at,
            ended_at: row.ended_at,
            game_id: row.game_id.clone(),
            seat: row.seat.map(small).transpose()?,
            found: None,
        })
    }

    /// The seek with its group so far (`get_seek`).
    pub fn with_found(self, found: Option<Found>) -> SeekResource {
        SeekResource {
            found: found.map(SeekFound::from),
            ..self
        }
    }
}

/// The caller's seeks, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeekList {
    pub seeks: Vec<SeekResource>,
}

/// How many players seek a table of one kind now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"kind": "cancellation-hearts", "seekers": 4}))]
pub struct KindSeekers {
    pub kind: GameKind,
    /// Players with an active seek of this kind.
    pub seekers: i64,
}

/// Who is seeking, by kind (every kind listed).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeekersByKind {
    pub kinds: Vec<KindSeekers>,
}

/// A table formed for a seek of the caller's (player stream event
/// `seek_matched`, and an inbox entry).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "seek_id": "5b0c8f0e-2f7a-4b61-9f1e-0d6c3a2b1e47",
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "kind": "cancellation-hearts",
    "seat": 3,
    "matched_at": "2026-12-07T12:01:30Z"
}))]
pub struct SeekMatched {
    pub seek_id: String,
    /// The game the seek seated the caller at.
    pub game_id: String,
    #[schema(value_type = GameKind)]
    pub kind: String,
    /// The caller's seat there.
    pub seat: u8,
    pub matched_at: DateTime<Utc>,
}

impl From<SeekNotice> for SeekMatched {
    fn from(n: SeekNotice) -> Self {
        SeekMatched {
            seek_id: n.seek_id,
            game_id: n.game_id,
            kind: n.kind,
            seat: n.seat,
            matched_at: n.matched_at,
        }
    }
}
