//! Portable game records, the verifiable shuffle and replays, for
//! both games. Pure: no I/O (the `cardgames-record` binary reads files).
//!
//! * [`fairness`]: the server seed's commitment, the dealing seed that mixes
//!   in every player's entropy, and every deal recomputed from it
//!   (`docs/fairness.md`).
//! * [`GameRecord`]: a whole game, built from its configuration, seeds and
//!   moves by replaying them through the engine (G-1). It renders to the
//!   line-oriented text format of `docs/record-format.md` ([`GameRecord::to_text`])
//!   and to JSON (serde).
//! * [`parse`]: text back to a record, re-validating every move with the
//!   engine and checking every derived line (deals, tricks, scores, result);
//!   errors carry the 1-based line number and, for a refused move, the
//!   engine's code and ruling.
//! * [`verify`]: everything a player checks without trusting the server,
//!   each problem reported on its own.
//! * [`view_after`] / [`GameRecord::view_after`]: the game after any move, as
//!   one viewer saw it then (the engine's view, G-2).
//! * [`replay`]: a finished game printed trick by trick for a terminal.
//! * [`for_each_kind!`] / [`GameKind`]: the one list of game kinds.
//!
//! ```
//! use game_record::{GameRecord, parse};
//!
//! # fn example(text: &str) -> Result<(), game_record::RecordError> {
//! let record: GameRecord = parse(text)?; // every move re-validated
//! assert_eq!(record.to_text(), text); // canonical: byte-identical
//! assert!(game_record::verify(text).is_empty());
//! # Ok(())
//! # }
//! ```

pub mod analysis;
mod engines;
pub mod fairness;
mod kinds;
mod model;
mod parse;
pub mod replay;
#[cfg(feature = "utoipa")]
mod schema;
mod text;
mod verify;

pub use model::{
    Actor, BuildError, Event, GameInfo, GameKind, GameRecord, GameResult, HintUsed, Play,
    RecordedMove, Resign, ResignPolicy, Resignation, RoundRecord, TrickRecord, view_after,
};
pub use parse::{Problem, RecordError, parse, parse_json};
pub use verify::{verify, verify_record};

// The engines, for the paths in `for_each_kind!` (usable from any crate).
#[doc(hidden)]
pub use rules_cancel_hearts;
#[doc(hidden)]
pub use rules_lost_heir;
