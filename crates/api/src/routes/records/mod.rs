//! Replay and audit: the view after any event, a finished game's
//! portable record (`docs/record-format.md`), importing one, and verifying
//! a finished game's shuffle and moves (`docs/fairness.md`).

pub mod export_record;
pub mod get_replay;
pub mod import_record;
pub mod verify_game;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::resources::ViewerKind;

/// The media type of a record's text form.
pub const TEXT: &str = "text/plain; charset=utf-8";

/// The game after one event of its log, as the caller saw it then.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "version": 57,
    "seq": 12,
    "moves": 8,
    "viewer": "seat",
    "your_seat": 0,
    // Replaced by a real view (`openapi::kinds::example_view`).
    "view": {}
}))]
pub struct ReplayResource {
    pub game_id: String,
    /// The game's version (its last event's seq) when read.
    pub version: i64,
    /// The event the view is after (0: before any).
    pub seq: i64,
    /// How many moves had been played by then (seat and start events are
    /// not moves).
    pub moves: u64,
    /// Whose eyes: the caller's seat while the game runs, a spectator's
    /// without one, the whole table (`omniscient`) once it is over.
    pub viewer: ViewerKind,
    pub your_seat: Option<u8>,
    /// The kind's view of the game then (see `docs/rules/`).
    #[schema(schema_with = crate::openapi::game_view)]
    pub view: Value,
}

/// One problem found by `verify_game`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VerifyProblem {
    /// The line of the game's record (its text form, `export_record`)
    /// where the problem is, when it is in the record.
    pub line: Option<usize>,
    /// `bad_commitment`, `deal_mismatch`, `trick_mismatch`,
    /// `score_mismatch`, `record_mismatch`, or an engine's code for a move
    /// the rules refuse.
    pub code: String,
    /// The ruling a refused move breaks.
    pub rule: Option<String>,
    pub detail: String,
}

/// What `verify_game` checked, and what it found.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "ok": true,
    "seed_commitment": "01d0fabd251fcbbe2b93b4b927b26ad2a1a99077152e45ded1e678afa45dbec5",
    "seed": "0100000000000000000000000000000000000000000000000000000000000000",
    "entropy": ["alice rolled 1", null, "carol rolled 7", "dave rolled 10"],
    "dealing_seed": "7a4da2d4a894733c5b0c63697b6863726baae728b57d07da7300a2edfd04bc48",
    "rounds": 1,
    "moves": 37,
    "problems": []
}))]
pub struct VerifyReport {
    pub game_id: String,
    /// No problem found: the commitment published at creation is SHA-256
    /// of the revealed seed, every deal is the one the dealing seed gives,
    /// every move is legal, every trick, score and the result are the
    /// engine's.
    pub ok: bool,
    /// The commitment published when the game was created.
    pub seed_commitment: String,
    /// The revealed server seed.
    pub seed: String,
    /// Each seat's entropy, revealed.
    #[schema(value_type = Vec<Option<String>>)]
    pub entropy: Vec<Option<String>>,
    /// The seed the deals were shuffled from, when the log replays.
    pub dealing_seed: Option<String>,
    /// Rounds dealt, when the log replays.
    pub rounds: Option<usize>,
    /// Moves replayed, when the log replays.
    pub moves: Option<usize>,
    pub problems: Vec<VerifyProblem>,
}
