//! What a bot's move is made of, apart from the driver that makes it
//! (`bots.rs`): the reproducible randomness every bot move draws on, and
//! an expert's move thought out for one version of the game. A leaf, so
//! the decision core (`decide/`) plays bot moves without the driver.

use cards::{GameRng, Seat};
use rand::SeedableRng;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The RNG for the bot at `seat` choosing when the game is at `version`:
/// ChaCha8 keyed by SHA-256("bot" ‖ game seed ‖ version ‖ seat), so a bot
/// move can be recomputed by anyone who knows the seed.
pub fn rng_for(seed_hex: &str, version: i64, seat: Seat) -> GameRng {
    let mut hasher = Sha256::new();
    hasher.update(b"bot");
    hasher.update(seed_hex.as_bytes());
    hasher.update(version.to_le_bytes());
    hasher.update([seat.number()]);
    GameRng::from_seed(hasher.finalize().into())
}

/// An expert's move, thought out on the game at `version`.
#[derive(Debug, Clone)]
pub struct BotPlan {
    pub seat: Seat,
    pub version: i64,
    pub mv: Value,
}
