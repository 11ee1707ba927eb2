//! Tokens already verified, so that a token sent again is not decoded
//! again: every request of a player carries the same token, and checking
//! its signature (two base64 decodes, two JSON parses and an HMAC) was
//! about a twentieth of the api's CPU per move (`docs/performance.md`,
//! "The token checked once").
//!
//! Only a token that passed every check is kept, under its whole text: a
//! token that differs by one character is a different key and is decoded
//! in full. What a kept token proves does not change while the process
//! runs (the keys are fixed at start-up), except its expiry, which is
//! checked on every use with the same leeway as a full check. Revocation
//! is not kept here: the caller checks it on every request.
//!
//! Bounded: [`SHARDS`] maps of at most [`PER_SHARD`] tokens each. A full
//! shard drops its expired tokens first, then all of them (the next use
//! of each decodes it again, as every use did before).

use std::collections::HashMap;
use std::sync::Mutex;

/// Independent maps, so that workers checking different tokens rarely wait
/// for one another.
const SHARDS: usize = 16;

/// Tokens a shard holds at most: 16 × 1,024 tokens (about 500 bytes each
/// with their claims, 8 MB at most) cover the players active on one
/// process.
const PER_SHARD: usize = 1024;

/// What a token proved (`T`: its claims) and when it expires, by token.
pub(super) struct VerifiedTokens<T> {
    shards: [Mutex<Shard<T>>; SHARDS],
    leeway: i64,
}

/// A token's claims and their `exp` (Unix seconds), by the token's text.
type Shard<T> = HashMap<Box<str>, (T, i64)>;

impl<T: Clone> VerifiedTokens<T> {
    /// `leeway`: the seconds past `exp` a token still counts as valid (as
    /// in the full check).
    pub(super) fn new(leeway: u64) -> VerifiedTokens<T> {
        VerifiedTokens {
            shards: std::array::from_fn(|_| Mutex::new(HashMap::new())),
            leeway: i64::try_from(leeway).unwrap_or(i64::MAX),
        }
    }

    /// The claims of `token` if it was verified before and has not expired
    /// at `now` (Unix seconds).
    pub(super) fn get(&self, token: &str, now: i64) -> Option<T> {
        let shard = self.shard(token).lock().unwrap_or_else(|e| e.into_inner());
        let (claims, exp) = shard.get(token)?;
        self.unexpired(*exp, now).then(|| claims.clone())
    }

    /// Keeps `claims`, expiring at `exp`, which a full check of `token`
    /// gave at `now`.
    pub(super) fn keep(&self, token: &str, claims: &T, exp: i64, now: i64) {
        let mut shard = self.shard(token).lock().unwrap_or_else(|e| e.into_inner());
        if shard.len() >= PER_SHARD {
            shard.retain(|_, (_, exp)| self.unexpired(*exp, now));
            if shard.len() >= PER_SHARD {
                shard.clear();
            }
        }
        shard.insert(token.into(), (claims.clone(), exp));
    }

    /// Tokens kept, over every shard.
    #[cfg(test)]
    fn len(&self) -> usize {
        let lengths = self.shards.iter().map(|s| s.lock().map_or(0, |s| s.len()));
        lengths.sum()
    }

    fn unexpired(&self, exp: i64, now: i64) -> bool {
        exp >= now.saturating_sub(self.leeway)
    }

    /// A token's shard, by its last character: the end of the signature,
    /// which an HMAC spreads evenly (and only signed tokens are kept).
    fn shard(&self, token: &str) -> &Mutex<Shard<T>> {
        let last = token.as_bytes().last().copied().unwrap_or(0);
        &self.shards[usize::from(last) % SHARDS]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What these tests keep for a token: a player id.
    type Verified = VerifiedTokens<&'static str>;

    #[test]
    fn a_kept_token_is_found_by_its_whole_text_only() {
        let verified = Verified::new(5);
        verified.keep("a.b.signature", &"p1", 1_000, 100);
        assert_eq!(verified.get("a.b.signature", 100), Some("p1"));
        assert!(verified.get("a.b.signaturf", 100).is_none());
        assert!(verified.get("a.b.signatur", 100).is_none());
        assert!(verified.get("x.b.signature", 100).is_none());
    }

    #[test]
    fn a_kept_token_expires_with_the_same_leeway_as_a_full_check() {
        let verified = Verified::new(5);
        verified.keep("t", &"p1", 1_000, 900);
        assert!(verified.get("t", 1_000).is_some());
        assert!(verified.get("t", 1_005).is_some(), "within the leeway");
        assert!(verified.get("t", 1_006).is_none(), "past exp + leeway");
    }

    #[test]
    fn a_full_shard_drops_its_expired_tokens_then_everything() {
        let verified = Verified::new(0);
        // Every token ends in 'x': one shard.
        for i in 0..PER_SHARD {
            let exp = if i % 2 == 0 { 50 } else { 1_000 };
            verified.keep(&format!("{i}x"), &"p", exp, 10);
        }
        assert_eq!(verified.len(), PER_SHARD);
        verified.keep("newx", &"p", 1_000, 100);
        assert_eq!(
            verified.len(),
            PER_SHARD / 2 + 1,
            "the expired half dropped"
        );
        assert!(verified.get("1x", 100).is_some());
        for i in 0..PER_SHARD {
            verified.keep(&format!("more{i}x"), &"p", 1_000, 100);
        }
        assert!(verified.len() <= PER_SHARD, "never more than a shard holds");
        assert!(
            verified
                .get(&format!("more{}x", PER_SHARD - 1), 100)
                .is_some()
        );
    }
}
