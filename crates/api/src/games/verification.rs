//! What verifying a game found (`GameService::verify`, `records.rs`): a
//! leaf of its own, so that the finished games' cache (`finished.rs`)
//! keeps verifications without importing the records that compute them.

use game_record::GameRecord;

use crate::db::models::GameRow;

/// One problem found by `GameService::verify`.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The line of the record's text form, when the problem is in the record.
    pub line: Option<usize>,
    pub code: String,
    pub rule: Option<String>,
    pub detail: String,
}

/// What `GameService::verify` checked and found.
#[derive(Debug)]
pub struct Verification {
    pub row: GameRow,
    /// The record built from the log, when the log replays at all.
    pub record: Option<GameRecord>,
    /// Each seat's entropy, revealed.
    pub entropy: Vec<Option<String>>,
    pub findings: Vec<Finding>,
}
