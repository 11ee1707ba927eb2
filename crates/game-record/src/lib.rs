//! Portable game records, the verifiable shuffle and replays (issue 6), for
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
//! * [`replay`]: a finished game printed trick by trick for a terminal.

mod engines;
pub mod fairness;
mod model;
mod parse;
pub mod replay;
mod text;
mod verify;

pub use model::{
    Actor, BuildError, Event, GameInfo, GameKind, GameRecord, GameResult, Play, RecordedMove,
    RoundRecord, TrickRecord,
};
pub use parse::{Problem, RecordError, parse, parse_json};
pub use verify::{verify, verify_record};
