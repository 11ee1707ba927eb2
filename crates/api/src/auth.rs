//! Bearer tokens: HS256 JWTs with an explicit algorithm, issuer and expiry.
//!
//! A token says which player is calling; which seats that player holds is
//! always read from the `seats` table, never from the request.

use std::future::{Ready, ready};
use std::path::Path;
use std::time::Duration;

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};

use crate::app::AppState;
use crate::error::ApiError;

const ISSUER: &str = "cards-api";

/// The signing keys and validation rules, built once at start-up.
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keys").field("ttl", &self.ttl).finish()
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
}

impl Keys {
    pub fn new(secret: &[u8], ttl: Duration) -> Result<Keys, jsonwebtoken::errors::Error> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.validate_exp = true;
        validation.leeway = 5;
        Ok(Keys {
            encoding: EncodingKey::from_secret(secret)?,
            decoding: DecodingKey::from_secret(secret)?,
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
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(ApiError::internal)?;
        Ok((token, expires))
    }

    /// Checks signature, algorithm, issuer and expiry.
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => {
                    ApiError::unauthorized("token_expired", "the bearer token has expired")
                }
                _ => ApiError::unauthorized("invalid_token", "the bearer token is not valid"),
            })
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

/// The calling player, from a valid `Authorization: Bearer` token (required).
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub player_id: String,
}

/// The calling player if a token was sent; a spectator otherwise. A token
/// that is sent but invalid is still refused (never silently downgraded).
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Authenticated>);

fn authenticate(req: &HttpRequest) -> Result<Option<Authenticated>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError::unauthorized(
                "invalid_token",
                "the Authorization header must be `Bearer <token>`",
            )
        })?;
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal("AppState missing from app data"))?;
    let claims = state.keys.verify(token)?;
    Ok(Some(Authenticated {
        player_id: claims.sub,
    }))
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req).and_then(|auth| {
            auth.ok_or_else(|| {
                ApiError::unauthorized("missing_token", "this endpoint needs a bearer token")
            })
        }))
    }
}

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req).map(MaybeAuthenticated))
    }
}
