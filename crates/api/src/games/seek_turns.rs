//! Quick play's turns in this process: one change of a kind's seeks at a
//! time (`seeks/service.rs`). The kind's lock in the store serializes the
//! changes of every process (`db::seeks`); taking a turn here first means
//! that of this process's changes only the one whose turn it is holds a
//! database connection while it waits for that lock: a burst of seekers
//! of one kind waits here, holding none, and leaves the pool to the moves
//! of everyone else. A leaf, held by the service.

use tokio::sync::{Mutex, MutexGuard};

/// One turn per kind.
#[derive(Debug)]
pub struct SeekTurns(Vec<(&'static str, Mutex<()>)>);

impl Default for SeekTurns {
    fn default() -> Self {
        SeekTurns(
            super::kinds::all()
                .iter()
                .map(|kind| (kind.name(), Mutex::new(())))
                .collect(),
        )
    }
}

impl SeekTurns {
    /// Waits for `kind`'s turn (first come first served); `None` for a
    /// kind the server does not play (its change is refused anyway).
    pub async fn turn(&self, kind: &str) -> Option<MutexGuard<'_, ()>> {
        let (_, turn) = self.0.iter().find(|(k, _)| *k == kind)?;
        Some(turn.lock().await)
    }
}
