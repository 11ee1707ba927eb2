//! Bearer tokens: HS256 JWTs with an explicit algorithm, issuer and expiry.
//!
//! A token says which player is calling; which seats that player holds is
//! always read from the `seats` table, never from the request.
//!
//! Keys rotate: one signing key (`JWT_SECRET`) and any number of
//! verification-only keys (`JWT_PREVIOUS_SECRETS`). Every token names its
//! key in the `kid` header (the first 16 hex digits of the key's SHA-256),
//! and verification uses that key only; a token whose key is no longer
//! listed is refused. Tokens issued before `kid` existed are tried against
//! every listed key.
//!
//! Tokens can be revoked (`POST /v1/players/me/logout`, `…/revoke-tokens`):
//! every authenticated request reads the database once (one indexed
//! `SELECT EXISTS … , EXISTS …`, see `db::tokens`), so a revocation made
//! by any process is seen by every process at once.

use std::path::Path;
use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, dev::Payload, web};
use chrono::{DateTime, Utc};
use futures_util::future::LocalBoxFuture;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::db::Db;
use crate::error::ApiError;

const ISSUER: &str = "cards-api";

/// The shortest accepted signing or verification key.
pub use crate::config::MIN_SECRET_BYTES;

/// The signing key, the verification keys by `kid`, and the validation
/// rules, built once at start-up.
pub struct Keys {
    signing_kid: String,
    encoding: EncodingKey,
    /// The signing key first, then the previous ones.
    verifying: Vec<(String, DecodingKey)>,
    validation: Validation,
    ttl: Duration,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kids: Vec<&str> = self.verifying.iter().map(|(kid, _)| kid.as_str()).collect();
        f.debug_struct("Keys")
            .field("signing_kid", &self.signing_kid)
            .field("verifying_kids", &kids)
            .field("ttl", &self.ttl)
            .finish()
    }
}

/// What a token asserts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The player id.
    pub sub: String,
    pub iss: String,
    pub iat: i64,
    pub exp: i64,
    /// A unique id, so one token can be revoked (absent from tokens issued
    /// before revocation existed: those are named by their hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<String>,
}

/// The `kid` of a key: the first 16 hex digits of its SHA-256 (names the key
/// without revealing it).
pub fn key_id(secret: &[u8]) -> String {
    hex::encode(Sha256::digest(secret))[..16].to_owned()
}

impl Keys {
    /// One key that signs and verifies.
    pub fn new(secret: &[u8], ttl: Duration) -> Result<Keys, jsonwebtoken::errors::Error> {
        Keys::with_previous(secret, &[], ttl)
    }

    /// `secret` signs new tokens; tokens signed by `previous` keys still
    /// verify (rotation: list the old key here until its tokens expire).
    pub fn with_previous(
        secret: &[u8],
        previous: &[&[u8]],
        ttl: Duration,
    ) -> Result<Keys, jsonwebtoken::errors::Error> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.validate_exp = true;
        validation.leeway = crate::config::TOKEN_LEEWAY_SECS;
        let mut verifying = Vec::with_capacity(1 + previous.len());
        for key in std::iter::once(secret).chain(previous.iter().copied()) {
            let kid = key_id(key);
            if !verifying.iter().any(|(k, _)| *k == kid) {
                verifying.push((kid, DecodingKey::from_secret(key)?));
            }
        }
        Ok(Keys {
            signing_kid: key_id(secret),
            encoding: EncodingKey::from_secret(secret)?,
            verifying,
            validation,
            ttl,
        })
    }

    /// A token for `player_id`, and when it expires.
    pub fn issue(&self, player_id: &str) -> Result<(String, DateTime<Utc>), ApiError> {
        let now = Utc::now();
        let expires = now + chrono::Duration::from_std(self.ttl).map_err(ApiError::internal)?;
        let claims = Claims {
            sub: player_id.to_owned(),
            iss: ISSUER.to_owned(),
            iat: now.timestamp(),
            exp: expires.timestamp(),
            jti: Some(uuid::Uuid::new_v4().simple().to_string()),
        };
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(self.signing_kid.clone());
        let token =
            jsonwebtoken::encode(&header, &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((token, expires))
    }

    /// Checks signature (by the key the `kid` names), algorithm, issuer and
    /// expiry. Revocation is checked by [`Authenticated`], which has the
    /// database.
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid_token())?;
        let mut last = invalid_token();
        for (_, key) in self.candidates(header.kid.as_deref()) {
            match jsonwebtoken::decode::<Claims>(token, key, &self.validation) {
                Ok(data) => return Ok(data.claims),
                Err(e) if *e.kind() == ErrorKind::ExpiredSignature => {
                    last = ApiError::unauthorized("token_expired", "the bearer token has expired")
                }
                Err(_) => {}
            }
        }
        Err(last)
    }

    /// The keys a token may be signed with: the one its `kid` names (none
    /// when that key is not listed any more), or all without a `kid`.
    fn candidates<'a>(
        &'a self,
        kid: Option<&'a str>,
    ) -> impl Iterator<Item = &'a (String, DecodingKey)> + 'a {
        self.verifying
            .iter()
            .filter(move |(k, _)| kid.is_none_or(|kid| kid == k))
    }
}

fn invalid_token() -> ApiError {
    ApiError::unauthorized("invalid_token", "the bearer token is not valid")
}

/// The token in an `Authorization` value: the scheme `Bearer` in any case
/// (RFC 9110 §11.1), whitespace around the scheme and the token ignored.
/// `None` when the value is not a bearer credential.
pub fn bearer_token(value: &HeaderValue) -> Option<&str> {
    let text = value.to_str().ok()?.trim();
    let (scheme, token) = text.split_once([' ', '\t'])?;
    let token = token.trim();
    let well_formed =
        scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains([' ', '\t']);
    well_formed.then_some(token)
}

/// What a revocation names a token by: its `jti`, or (tokens issued
/// before `jti` existed) the SHA-256 of the token itself.
pub fn revocation_id(claims: &Claims, token: &str) -> String {
    match &claims.jti {
        Some(jti) => format!("jti:{jti}"),
        None => format!("sha256:{}", hex::encode(Sha256::digest(token.as_bytes()))),
    }
}

/// The signing secret: `JWT_SECRET` if set, else the one kept in
/// `data_dir/jwt-secret`, generated on first use.
pub fn load_or_create_secret(data_dir: &Path) -> std::io::Result<String> {
    let path = data_dir.join("jwt-secret");
    match std::fs::read_to_string(&path) {
        Ok(secret) if secret.trim().len() >= 32 => return Ok(secret.trim().to_owned()),
        Ok(_) => {
            return Err(std::io::Error::other(format!(
                "{} holds less than 32 bytes",
                path.display()
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    std::fs::create_dir_all(data_dir)?;
    let secret = hex::encode(crate::random::secret_bytes());
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            std::io::Write::write_all(&mut file, secret.as_bytes())?;
            Ok(secret)
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            Ok(std::fs::read_to_string(&path)?.trim().to_owned())
        }
        Err(e) => Err(e),
    }
}

/// The calling player, from a valid, unrevoked `Authorization: Bearer`
/// token (required). Also left in the request's extensions, so middleware
/// (the private-cache marks) knows who was answered.
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub player_id: String,
    /// The token's revocation id (see [`revocation_id`]).
    pub token_id: String,
    /// When the token expires (a revocation is kept until then).
    pub expires_at: DateTime<Utc>,
}

/// The calling player if a token was sent; a spectator otherwise. A token
/// that is sent but invalid is still refused (never silently downgraded).
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Authenticated>);

async fn authenticate(req: HttpRequest) -> Result<Option<Authenticated>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = bearer_token(value).ok_or_else(|| {
        ApiError::unauthorized(
            "invalid_token",
            "the Authorization header must be `Bearer <token>`",
        )
    })?;
    let keys = req
        .app_data::<web::Data<Keys>>()
        .ok_or_else(|| ApiError::internal("Keys missing from app data"))?;
    let claims = keys.verify(token)?;
    let token_id = revocation_id(&claims, token);
    let db = req
        .app_data::<web::Data<Db>>()
        .ok_or_else(|| ApiError::internal("Db missing from app data"))?;
    if revoked(db, &token_id, &claims.sub, claims.iat).await? {
        return Err(ApiError::unauthorized(
            "token_revoked",
            "the bearer token has been revoked",
        ));
    }
    let auth = Authenticated {
        player_id: claims.sub,
        token_id,
        expires_at: DateTime::from_timestamp(claims.exp, 0).unwrap_or(DateTime::<Utc>::MAX_UTC),
    };
    req.extensions_mut().insert(auth.clone());
    Ok(Some(auth))
}

/// [`Db::token_revoked`] in a task of its own: the extractor runs before
/// the body is read, and actix drops a request's future when the
/// connection goes (a body too large, a client gone). Dropping an SQLite
/// query mid-way blocks in place, which panics on an HTTP worker's
/// single-threaded runtime; a task runs the lookup to its end instead.
async fn revoked(
    db: &web::Data<Db>,
    token_id: &str,
    player_id: &str,
    issued_at: i64,
) -> Result<bool, ApiError> {
    let (db, token_id, player_id) = (db.clone(), token_id.to_owned(), player_id.to_owned());
    let lookup =
        actix_web::rt::spawn(
            async move { db.token_revoked(&token_id, &player_id, issued_at).await },
        );
    Ok(lookup.await.map_err(ApiError::internal)??)
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            authenticate(req).await?.ok_or_else(|| {
                ApiError::unauthorized("missing_token", "this endpoint needs a bearer token")
            })
        })
    }
}

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate(req).await.map(MaybeAuthenticated) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K1: &[u8] = b"key-one-0123456789abcdef0123456789abcdef";
    const K2: &[u8] = b"key-two-0123456789abcdef0123456789abcdef";
    const TTL: Duration = Duration::from_secs(60);

    #[test]
    fn bearer_scheme_is_case_insensitive_and_whitespace_tolerant() {
        for value in [
            "Bearer abc",
            "bearer abc",
            "BEARER abc",
            "  Bearer   abc  ",
            "Bearer\tabc",
        ] {
            let v = HeaderValue::from_str(value).unwrap();
            assert_eq!(bearer_token(&v), Some("abc"), "{value:?}");
        }
        for value in ["Basic abc", "Bearer", "Bearer ", "Bearerabc", "Bearer a b"] {
            let v = HeaderValue::from_str(value).unwrap();
            assert_eq!(bearer_token(&v), None, "{value:?}");
        }
    }

    #[test]
    fn tokens_name_their_key_and_verify_while_it_is_listed() {
        let old = Keys::new(K1, TTL).unwrap();
        let (token, _) = old.issue("p1").unwrap();
        let header = jsonwebtoken::decode_header(&token).unwrap();
        assert_eq!(header.kid.as_deref(), Some(key_id(K1).as_str()));
        let claims = old.verify(&token).unwrap();
        assert!(claims.jti.is_some());

        let rotated = Keys::with_previous(K2, &[K1], TTL).unwrap();
        assert_eq!(rotated.verify(&token).unwrap().sub, "p1");
        let (new_token, _) = rotated.issue("p2").unwrap();
        let new_kid = jsonwebtoken::decode_header(&new_token).unwrap().kid;
        assert_eq!(new_kid.as_deref(), Some(key_id(K2).as_str()));

        let only_new = Keys::new(K2, TTL).unwrap();
        assert!(only_new.verify(&token).is_err());
        assert!(only_new.verify(&new_token).is_ok());
    }

    #[test]
    fn a_token_without_kid_is_tried_against_every_listed_key() {
        let claims = Claims {
            sub: "p".into(),
            iss: ISSUER.into(),
            iat: Utc::now().timestamp(),
            exp: Utc::now().timestamp() + 60,
            jti: None,
        };
        let legacy = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(K1).unwrap(),
        )
        .unwrap();
        let rotated = Keys::with_previous(K2, &[K1], TTL).unwrap();
        let verified = rotated.verify(&legacy).unwrap();
        assert!(revocation_id(&verified, &legacy).starts_with("sha256:"));
        assert!(Keys::new(K2, TTL).unwrap().verify(&legacy).is_err());
    }
}
