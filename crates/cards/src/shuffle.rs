//! The deterministic shuffle (G-1).
//!
//! Construction, so that anyone can recompute a deal from a revealed seed:
//! the 32-byte seed keys a ChaCha8 stream (`rand::rngs::ChaCha8Rng::from_seed`);
//! a deck is shuffled by Fisher–Yates from the last position down, where for
//! position `i` the swap partner `j` is `random_below(i + 1)`; `random_below(n)`
//! takes 32-bit words from the stream and maps each with Lemire's
//! multiply-shift, rejecting the biased low products, so every `j` is exactly
//! uniform. We implement these steps here rather than call `rand`'s helpers,
//! whose algorithms may change between versions.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};

/// The random stream a game draws from: dealers, deals, bots in tests.
pub type GameRng = rand::rngs::ChaCha8Rng;

/// A game's 32-byte shuffle seed, written as 64 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// The seed's random stream, from its start.
    pub fn rng(&self) -> GameRng {
        GameRng::from_seed(self.0)
    }

    /// A seed for tests and examples: `n` in the first eight bytes, little-endian.
    pub fn from_u64(n: u64) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(bytes)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({self})")
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// A seed's random stream kept as plain data: the seed and the position of
/// the next 32-bit word. `GameRng` is not `Clone`; this is `Copy`, so a game
/// state that owns its stream stays cheap to clone. Each [`SeedStream::draw`]
/// rebuilds the generator at the stored position, so the draws are exactly
/// those of one long-lived generator (G-1). `Debug` hides the seed: it would
/// reveal every future deal (G-2).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeedStream {
    seed: Seed,
    word_pos: u128,
}

impl SeedStream {
    /// The stream from its start.
    pub const fn new(seed: Seed) -> SeedStream {
        SeedStream { seed, word_pos: 0 }
    }

    /// Runs `f` on the generator, continuing where the last draw stopped.
    pub fn draw<T>(&mut self, f: impl FnOnce(&mut GameRng) -> T) -> T {
        let mut rng = self.seed.rng();
        rng.set_word_pos(self.word_pos);
        let out = f(&mut rng);
        self.word_pos = rng.get_word_pos();
        out
    }
}

impl fmt::Debug for SeedStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeedStream(<secret>)")
    }
}

/// A seed that is not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSeedError;

impl fmt::Display for ParseSeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a seed is 64 hexadecimal digits")
    }
}

impl std::error::Error for ParseSeedError {}

impl FromStr for Seed {
    type Err = ParseSeedError;
    fn from_str(s: &str) -> Result<Seed, ParseSeedError> {
        if s.len() != 64 || !s.is_ascii() {
            return Err(ParseSeedError);
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| ParseSeedError)?;
        }
        Ok(Seed(bytes))
    }
}

#[cfg(feature = "serde")]
crate::serde_via_str!(Seed, "a seed of 64 hexadecimal digits");

/// A uniform integer in `0..n` (`n >= 1`), by Lemire's method with rejection.
pub fn random_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0, "random_below(0)");
    let mut product = u64::from(rng.next_u32()) * u64::from(n);
    // The rejection threshold `2^32 mod n` is below `n`, so a low half of at
    // least `n` is always accepted: only then skip the (slow) division. Same
    // words consumed, same results as always computing the threshold.
    if (product as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (product >> 32) as u32
}

/// Shuffles `items` in place: Fisher–Yates from the end (see the module docs).
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = random_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_shuffle() {
        let mut a: Vec<u32> = (0..104).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut Seed::from_u64(7).rng());
        shuffle(&mut b, &mut Seed::from_u64(7).rng());
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..104).collect();
        shuffle(&mut c, &mut Seed::from_u64(8).rng());
        assert_ne!(a, c);
        c.sort();
        assert_eq!(c, (0..104).collect::<Vec<_>>());
    }

    #[test]
    fn shuffle_is_pinned() {
        // The construction is documented for players to verify deals with:
        // a change to it must be deliberate, so pin one output.
        let mut deck: Vec<u8> = (0..10).collect();
        shuffle(&mut deck, &mut Seed([0; 32]).rng());
        let pinned = deck.clone();
        let mut again: Vec<u8> = (0..10).collect();
        shuffle(&mut again, &mut Seed([0; 32]).rng());
        assert_eq!(again, pinned);
        assert_eq!(format!("{:?}", deck), PINNED_ZERO_SEED_SHUFFLE);
    }

    const PINNED_ZERO_SEED_SHUFFLE: &str = "[5, 3, 0, 2, 9, 6, 4, 8, 7, 1]";

    #[test]
    fn g_1_seed_stream_continues_the_stream_exactly() {
        let seed = Seed::from_u64(42);
        let mut long_lived = seed.rng();
        let mut stream = SeedStream::new(seed);
        for n in [4u32, 2, 32, 31, 30, 7, 1000, 3] {
            let mut a = [0u32; 40];
            let mut b = [0u32; 40];
            for slot in a.iter_mut() {
                *slot = random_below(&mut long_lived, n);
            }
            stream.draw(|rng| b.iter_mut().for_each(|slot| *slot = random_below(rng, n)));
            assert_eq!(a, b);
        }
        assert_eq!(format!("{stream:?}"), "SeedStream(<secret>)");
    }

    #[test]
    fn random_below_is_roughly_uniform() {
        let mut rng = Seed::from_u64(1).rng();
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[random_below(&mut rng, 6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn seed_hex_round_trips() {
        let seed = Seed::from_u64(0xdead_beef);
        let text = seed.to_string();
        assert_eq!(text.len(), 64);
        assert_eq!(text.parse::<Seed>(), Ok(seed));
        assert!("zz".parse::<Seed>().is_err());
        assert!("g".repeat(64).parse::<Seed>().is_err());
    }
}
