//! Replay and audit: a game's portable record built from its log
//! (`game_record`), the view after any event, verification of a finished
//! game, and import of a record as a finished game.
//!
//! A record is config + server seed + each seat's entropy + moves (G-1);
//! everything else in it (deals, tricks, scores) is derived by the engine.
//!
//! One file per concern: `history` (a game's log read whole, as a
//! record's parts; a finished game through the cache), `replay` (the view
//! after an event), `export` (the record of a finished game), `verify`
//! (checking one, with its answer's types in `verification`, which the
//! finished-games cache holds), `codes` (the codes of a record's
//! problems) and `import` (a record stored as a finished game: the
//! service's second write path, besides `write.rs`, so it is kept apart
//! from the reads). This file only declares them and re-exports their
//! public surface, so `games::records::…` paths hold.

mod codes;
mod export;
mod history;
mod import;
mod replay;
mod verification;
mod verify;

pub use codes::{RECORD_CODES, problem_code};
pub use history::{BOT_NAME, History, bot_name, record_actor, record_time};
pub use replay::ReplayPoint;
pub use verification::{Finding, Verification};
