//! What a verification answers, types only: the finished-games cache
//! (`games::finished`) keeps one per game without depending on the check
//! itself (`verify.rs`), which reads that cache.

use game_record::GameRecord;

use crate::db::models::GameRow;

/// One problem found by [`GameService::verify`].
#[derive(Debug, Clone)]
pub struct Finding {
    /// The line of the record's text form, when the problem is in the record.
    pub line: Option<usize>,
    pub code: String,
    pub rule: Option<String>,
    pub detail: String,
}

/// What [`GameService::verify`] checked and found.
#[derive(Debug)]
pub struct Verification {
    pub row: GameRow,
    /// The record built from the log, when the log replays at all.
    pub record: Option<GameRecord>,
    /// Each seat's entropy, revealed.
    pub entropy: Vec<Option<String>>,
    pub findings: Vec<Finding>,
}
