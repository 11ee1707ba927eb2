//! Secret randomness for shuffle seeds and signing keys.
//!
//! The workspace's `rand` has no OS source enabled; `uuid`'s v4 generator
//! reads the operating system's CSPRNG (getrandom), so a secret is the
//! SHA-256 of three fresh v4 UUIDs (366 random bits).

use sha2::{Digest, Sha256};

/// 32 bytes from the operating system's random source.
pub fn secret_bytes() -> [u8; 32] {
    let mut hasher = Sha256::new();
    for _ in 0..3 {
        hasher.update(uuid::Uuid::new_v4().as_bytes());
    }
    hasher.finalize().into()
}

/// Hex SHA-256 of `data`: the public commitment to a secret seed.
pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}
