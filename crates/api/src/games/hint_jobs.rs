//! The hints this process is computing (`hints.rs`), held by the service:
//! a leaf, so that the service holds it without importing the hints
//! themselves. At most one hint in flight per player: a second request
//! while one is thought out is refused, 429 `hint_in_progress`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::error::ServiceError;

/// The players with a hint being computed.
#[derive(Debug, Default)]
pub struct HintsInFlight {
    players: Arc<Mutex<HashSet<String>>>,
}

/// A player's place while their hint is computed; given back when dropped
/// (answered, refused, or the request abandoned).
#[derive(Debug)]
pub struct HintPlace {
    players: Arc<Mutex<HashSet<String>>>,
    player: String,
}

impl Drop for HintPlace {
    fn drop(&mut self) {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        players.remove(&self.player);
    }
}

impl HintsInFlight {
    /// `player`'s place, unless a hint of theirs is being computed already.
    pub(super) fn start(&self, player: &str) -> Result<HintPlace, ServiceError> {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if !players.insert(player.to_owned()) {
            return Err(ServiceError::TooMany {
                code: "hint_in_progress",
                message: "a hint of yours is being computed: one at a time".to_owned(),
                retry_after_secs: 1,
            });
        }
        Ok(HintPlace {
            players: Arc::clone(&self.players),
            player: player.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_hint_in_flight_per_player() {
        let hints = HintsInFlight::default();
        let ann = hints.start("ann").unwrap();
        assert!(matches!(
            hints.start("ann"),
            Err(ServiceError::TooMany {
                code: "hint_in_progress",
                ..
            })
        ));
        // Another player is not held back by Ann's.
        let _bob = hints.start("bob").unwrap();
        drop(ann);
        assert!(hints.start("ann").is_ok());
    }
}
