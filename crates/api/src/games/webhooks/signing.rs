//! Signing: the HMAC-SHA256 of a request's time and body under the
//! endpoint's secret (docs/webhooks.md has a receiver's check), and new
//! secrets. Its own file because receivers reimplement exactly this, and
//! the tests pin it to RFC 4231.

use sha2::{Digest, Sha256};

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(message);
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// The `Cardgames-Signature` value for `body` sent at `t` (unix seconds):
/// `t=<t>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; the key is the
/// secret's text as shown at creation.
pub fn signature(secret: &str, t: i64, body: &str) -> String {
    let mac = hmac_sha256(secret.as_bytes(), format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac))
}

/// A new endpoint secret: `whsec_` and 32 random bytes in hex.
pub(super) fn new_secret() -> String {
    format!("whsec_{}", hex::encode(crate::random::secret_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231, test cases 1 and 2.
        assert_eq!(
            hex::encode(hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block.
        assert_eq!(
            hex::encode(hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn the_signature_is_over_the_time_and_the_body() {
        let s = signature("whsec_x", 1_700_000_000, "{}");
        let mac = hmac_sha256(b"whsec_x", b"1700000000.{}");
        assert_eq!(s, format!("t=1700000000,v1={}", hex::encode(mac)));
        assert_ne!(s, signature("whsec_x", 1_700_000_001, "{}"));
        assert_ne!(s, signature("whsec_y", 1_700_000_000, "{}"));
    }
}
