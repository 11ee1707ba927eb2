//! Players and their bearer tokens, in the application's terms:
//! registering a player (with its idempotency record), logging a token out,
//! revoking every token of a player, and the revocation check that every
//! authenticated request and open stream makes. Signing and verifying the
//! tokens is HTTP's (`auth`); this is what the store keeps of them.

mod register;
mod service;
mod tokens;

pub use register::Registered;
pub use service::Accounts;
pub use tokens::TRUSTED_FOR;
