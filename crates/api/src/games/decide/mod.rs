//! The decision core: what a command does to a game, decided on the game
//! as it is, with no I/O. A [`Command`] and the [`State`] it is decided on
//! come in (`command.rs`); a [`Decision`] comes out: the events to append
//! and what they change, nothing, or a refusal (`ServiceError`).
//! `dispatch.rs` maps each command to its file (`play.rs` for a person's
//! move, `bot_turn.rs`, `join.rs`, `leave.rs`, `autoplay.rs`, `resign.rs`,
//! `deadline_fired.rs`, `expire_if_idle.rs`, `hint.rs`); `shared.rs` holds what they
//! share, `row_update.rs` what a change does to the game's row.
//!
//! The core imports only its own types, the engines (`AnyGame`), the log's
//! events, the domain types and the service's error: never the service,
//! the store's connection or the write path (`games/write.rs`), which
//! executes its decisions. So each decision is tested given a state, when
//! a command, then events or a refusal (`given.rs`, `tests.rs`). Its items
//! are `pub` inside this private module: `games` sees what is re-exported
//! here.

mod autoplay;
mod bot_turn;
mod command;
mod deadline_fired;
mod dispatch;
mod expire_if_idle;
mod hint;
mod join;
mod leave;
mod play;
mod resign;
mod row_update;
mod shared;

#[cfg(test)]
mod given;
#[cfg(test)]
mod tests;

pub use command::Command;
pub(super) use command::{Change, Decision, State};
pub(super) use dispatch::decide;
pub(super) use expire_if_idle::cutoff;
pub(super) use hint::{MOVED_ON, hint_allowed, must_act};
pub(super) use row_update::row_update;
