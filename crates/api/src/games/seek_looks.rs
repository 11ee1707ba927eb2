//! Quick play's last look at each kind's queue in this process, for the
//! waiting screens (`seeks/found.rs` takes and reads the looks): each
//! active seek's group so far, and when the look was taken. A leaf, held
//! by the service.

use std::collections::HashMap;
use std::time::Instant;

use chrono::{DateTime, Utc};
use tokio::sync::Mutex;

use super::seeks::Found;

/// One look per kind, each behind its own lock (a screen asking while the
/// look is taken waits for it rather than taking another).
#[derive(Debug)]
pub struct SeekLooks(Vec<(&'static str, Mutex<Option<Look>>)>);

/// A look at one kind's queue.
#[derive(Debug)]
pub struct Look {
    pub taken: Instant,
    /// The time of the look (a seek made after it is not in it).
    pub at: DateTime<Utc>,
    /// Each active seek's group, by seek id.
    pub found: HashMap<String, Found>,
}

impl Default for SeekLooks {
    fn default() -> Self {
        SeekLooks(
            super::kinds::all()
                .iter()
                .map(|kind| (kind.name(), Mutex::new(None)))
                .collect(),
        )
    }
}

impl SeekLooks {
    /// `kind`'s last look; `None` for a kind the server does not play.
    pub fn of(&self, kind: &str) -> Option<&Mutex<Option<Look>>> {
        self.0
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, look)| look)
    }
}
