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
//! Tokens can be revoked (`POST /v1/players/me/logout`, `…/revoke-tokens`).
//! On Postgres each process keeps the revocations in memory, kept current
//! by its `LISTEN` connection (`db::revocations`, asked through
//! [`Accounts`]): the process that revokes refuses the token at once, the
//! others as soon as the revocation's `NOTIFY` arrives, and never later
//! than `accounts::TRUSTED_FOR`
//! (3 s); while a process cannot vouch for its copy, each request reads
//! the database (one indexed `SELECT EXISTS … , EXISTS …`, `db::tokens`),
//! as every request does on SQLite.
//!
//! Stream tickets (`POST /v1/stream-tickets`): a browser's `EventSource`
//! cannot send `Authorization`, and a bearer token must never go in a URL
//! (URLs end up in logs and histories). A ticket is a JWT signed with the
//! same keys, with `aud: "stream"`, valid [`TICKET_TTL_SECS`], naming its
//! player and the bearer token it was minted with (`tid`). It is accepted
//! only as `?ticket=` on the stream endpoints ([`StreamCaller`]), reusable
//! within its minute (EventSource reconnects by itself), and refused as a
//! bearer token anywhere; a bearer token is refused as a ticket. Using a
//! ticket runs the same revocation lookup as a bearer token, on its parent
//! token and its own `iat`: a logout of the parent, or a `revoke-tokens`
//! after the ticket was minted, refuses it at once.

use std::path::Path;
use std::time::Duration;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, dev::Payload, web};
use chrono::{DateTime, Utc};
use futures_util::future::LocalBoxFuture;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::accounts::{self, Accounts};
use crate::error::ApiError;

mod verified;

use verified::VerifiedTokens;

const ISSUER: &str = "cards-api";

/// The `aud` claim of a stream ticket (bearer tokens carry none).
pub const TICKET_AUDIENCE: &str = "stream";

/// How long a stream ticket opens streams: long enough for a page to open
/// its streams and for `EventSource`'s own reconnects, short enough that a
/// ticket seen in a URL is soon worthless.
pub const TICKET_TTL_SECS: i64 = 60;

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
    /// Tokens that passed [`Keys::decode`], so a token sent again is not
    /// decoded again.
    verified: VerifiedTokens<Claims>,
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
    /// [`TICKET_AUDIENCE`] on a stream ticket; absent on a bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aud: Option<String>,
    /// A ticket's parent: the revocation id of the bearer token it was
    /// minted with (so logging that token out refuses the ticket too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tid: Option<String>,
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
        // Checked by `verify` and `verify_ticket`, which tell a ticket from a
        // token and say which was sent where.
        validation.validate_aud = false;
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
            verified: VerifiedTokens::new(crate::config::TOKEN_LEEWAY_SECS),
        })
    }

    /// A token for `player_id`, and when it expires.
    pub fn issue(&self, player_id: &str) -> Result<(String, DateTime<Utc>), ApiError> {
        let ttl = chrono::Duration::from_std(self.ttl).map_err(ApiError::internal)?;
        self.sign(player_id, ttl, None, None)
    }

    /// A stream ticket for the caller of `parent` (see the module docs),
    /// and when it expires.
    pub fn issue_ticket(
        &self,
        parent: &Authenticated,
    ) -> Result<(String, DateTime<Utc>), ApiError> {
        let ttl = chrono::Duration::seconds(TICKET_TTL_SECS);
        let tid = Some(parent.token_id.clone());
        self.sign(&parent.player_id, ttl, Some(TICKET_AUDIENCE), tid)
    }

    fn sign(
        &self,
        player_id: &str,
        ttl: chrono::Duration,
        aud: Option<&str>,
        tid: Option<String>,
    ) -> Result<(String, DateTime<Utc>), ApiError> {
        let now = Utc::now();
        let expires = now + ttl;
        let claims = Claims {
            sub: player_id.to_owned(),
            iss: ISSUER.to_owned(),
            iat: now.timestamp(),
            exp: expires.timestamp(),
            jti: Some(uuid::Uuid::new_v4().simple().to_string()),
            aud: aud.map(str::to_owned),
            tid,
        };
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(self.signing_kid.clone());
        let token =
            jsonwebtoken::encode(&header, &claims, &self.encoding).map_err(ApiError::internal)?;
        Ok((token, expires))
    }

    /// A bearer token: checks signature (by the key the `kid` names),
    /// algorithm, issuer and expiry, and that it is no stream ticket.
    /// Revocation is checked by [`Authenticated`], which has the database.
    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        let claims = self.decode(token, invalid_token(), || {
            ApiError::unauthorized("token_expired", "the bearer token has expired")
        })?;
        if claims.aud.is_some() {
            return Err(ApiError::unauthorized(
                "ticket_not_a_token",
                "a stream ticket is not a bearer token: it opens a stream as `?ticket=` only",
            ));
        }
        Ok(claims)
    }

    /// A stream ticket (`?ticket=`): the same checks as [`Keys::verify`],
    /// and that it is a ticket (a bearer token is refused here).
    pub fn verify_ticket(&self, ticket: &str) -> Result<Claims, ApiError> {
        let claims = self.decode(ticket, invalid_ticket(), || {
            ApiError::unauthorized(
                "ticket_expired",
                "the stream ticket has expired: mint a new one (POST /v1/stream-tickets)",
            )
        })?;
        match (claims.aud.as_deref(), &claims.tid) {
            (Some(TICKET_AUDIENCE), Some(_)) => Ok(claims),
            _ => Err(invalid_ticket()),
        }
    }

    /// The claims of `token` if one of the listed keys signed it and it
    /// has not expired; a token that passed before is taken from
    /// `verified` instead of being decoded again.
    fn decode(
        &self,
        token: &str,
        invalid: ApiError,
        expired: impl Fn() -> ApiError,
    ) -> Result<Claims, ApiError> {
        let now = Utc::now().timestamp();
        if let Some(claims) = self.verified.get(token, now) {
            return Ok(claims);
        }
        let Ok(header) = jsonwebtoken::decode_header(token) else {
            return Err(invalid);
        };
        let mut last = invalid;
        for (_, key) in self.candidates(header.kid.as_deref()) {
            match jsonwebtoken::decode::<Claims>(token, key, &self.validation) {
                Ok(data) => {
                    self.verified
                        .keep(token, &data.claims, data.claims.exp, now);
                    return Ok(data.claims);
                }
                Err(e) if *e.kind() == ErrorKind::ExpiredSignature => last = expired(),
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

fn invalid_ticket() -> ApiError {
    ApiError::unauthorized(
        "invalid_ticket",
        "`ticket` must be a stream ticket from POST /v1/stream-tickets (never a bearer token)",
    )
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
    /// When the credential was issued (a ticket's own time, not its
    /// token's): what a revocation of the player's tokens is compared with.
    pub issued_at: i64,
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
    let accounts = req
        .app_data::<web::Data<Accounts>>()
        .ok_or_else(|| ApiError::internal("Accounts missing from app data"))?;
    if revoked(accounts, &token_id, &claims.sub, claims.iat).await? {
        return Err(ApiError::unauthorized(
            "token_revoked",
            "the bearer token has been revoked",
        ));
    }
    let auth = Authenticated {
        player_id: claims.sub,
        token_id,
        issued_at: claims.iat,
        expires_at: DateTime::from_timestamp(claims.exp, 0).unwrap_or(DateTime::<Utc>::MAX_UTC),
    };
    req.extensions_mut().insert(auth.clone());
    Ok(Some(auth))
}

/// Whether the token is revoked ([`Accounts::is_revoked`]: from this
/// process's copy when it may answer, else from the database).
pub async fn revoked(
    accounts: &Accounts,
    token_id: &str,
    player_id: &str,
    issued_at: i64,
) -> Result<bool, ApiError> {
    Ok(accounts.is_revoked(token_id, player_id, issued_at).await?)
}

/// Resolves once `caller`'s credential is revoked (its token logged out, or
/// the player's tokens revoked; a ticket goes with the token it was minted
/// with): what an open stream waits on beside its events, so that it ends
/// within the revocation bound. It checks again whenever a revocation is
/// made here or heard from another process, and on a clock of
/// `accounts::TRUSTED_FOR` while this process cannot vouch that it
/// hears them all. A failed check (the database away) keeps the stream.
pub async fn until_revoked(accounts: Accounts, caller: Authenticated) {
    let mut changed = accounts.revocations_changed();
    // One made between the caller's authentication and now counts too.
    changed.mark_changed();
    loop {
        let poll = accounts.revocations_may_go_unheard();
        tokio::select! {
            heard = changed.changed() => {
                if heard.is_err() {
                    // The store is gone (the server stopping).
                    return std::future::pending().await;
                }
            }
            _ = tokio::time::sleep(accounts::TRUSTED_FOR), if poll => {}
        }
        let Authenticated {
            token_id,
            player_id,
            issued_at,
            ..
        } = &caller;
        if let Ok(true) = revoked(&accounts, token_id, player_id, *issued_at).await {
            return;
        }
    }
}

/// What an open stream of `caller` waits on to end: [`until_revoked`], or
/// nothing for a spectator (no credential to revoke).
pub fn revocation(
    req: &HttpRequest,
    caller: Option<Authenticated>,
) -> impl Future<Output = ()> + 'static {
    let accounts = req
        .app_data::<web::Data<Accounts>>()
        .map(|accounts| accounts.get_ref().clone());
    async move {
        match (accounts, caller) {
            (Some(accounts), Some(caller)) => until_revoked(accounts, caller).await,
            _ => std::future::pending().await,
        }
    }
}

/// The caller of a stream endpoint (`stream_game`, `stream_player`,
/// `wait_events`): a stream ticket in `?ticket=`, or a bearer token, or
/// (where the endpoint allows it) nobody. Both at once is refused: a
/// request says who it is once.
#[derive(Debug, Clone)]
pub struct StreamCaller(pub Option<Authenticated>);

impl StreamCaller {
    /// The caller, for an endpoint a spectator may not use.
    pub fn required(self) -> Result<Authenticated, ApiError> {
        self.0.ok_or_else(|| {
            ApiError::unauthorized(
                "missing_token",
                "this endpoint needs a bearer token or a stream ticket (`?ticket=`)",
            )
        })
    }
}

/// The `ticket` of a query string, if any (other parameters are the
/// endpoint's own).
#[derive(Deserialize)]
struct TicketParam {
    ticket: Option<String>,
}

/// The `ticket` of a query string; an error when it is given twice.
pub fn ticket_in_query(query: &str) -> Result<Option<String>, ApiError> {
    web::Query::<TicketParam>::from_query(query)
        .map(|q| q.into_inner().ticket)
        .map_err(|_| ApiError::bad_request("bad_query", "`ticket` must be given at most once"))
}

async fn authenticate_stream(req: HttpRequest) -> Result<Option<Authenticated>, ApiError> {
    let ticket = ticket_in_query(req.query_string())?;
    let Some(ticket) = ticket else {
        return authenticate(req).await;
    };
    if req.headers().contains_key(header::AUTHORIZATION) {
        return Err(ApiError::bad_request(
            "two_credentials",
            "send either `Authorization` or `?ticket=`, not both",
        ));
    }
    let keys = req
        .app_data::<web::Data<Keys>>()
        .ok_or_else(|| ApiError::internal("Keys missing from app data"))?;
    let claims = keys.verify_ticket(&ticket)?;
    let parent = claims.tid.clone().unwrap_or_default();
    let accounts = req
        .app_data::<web::Data<Accounts>>()
        .ok_or_else(|| ApiError::internal("Accounts missing from app data"))?;
    // The parent token logged out, or every token of the player revoked
    // since the ticket was minted: the ticket goes with them.
    if revoked(accounts, &parent, &claims.sub, claims.iat).await? {
        return Err(ApiError::unauthorized(
            "ticket_revoked",
            "the token this stream ticket was minted with has been revoked",
        ));
    }
    let auth = Authenticated {
        player_id: claims.sub,
        token_id: parent,
        issued_at: claims.iat,
        expires_at: DateTime::from_timestamp(claims.exp, 0).unwrap_or(DateTime::<Utc>::MAX_UTC),
    };
    req.extensions_mut().insert(auth.clone());
    Ok(Some(auth))
}

impl FromRequest for StreamCaller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { authenticate_stream(req).await.map(StreamCaller) })
    }
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

    /// A bearer token of player `p1`, and its caller (a ticket's parent).
    fn token_of_p1(keys: &Keys) -> (String, Authenticated) {
        let (token, _) = keys.issue("p1").unwrap();
        let parent = Authenticated {
            player_id: "p1".into(),
            token_id: revocation_id(&keys.verify(&token).unwrap(), &token),
            expires_at: Utc::now(),
            issued_at: 0,
        };
        (token, parent)
    }

    /// `ticket` refused as a bearer token, `token` as a ticket.
    fn refused_for_each_other(keys: &Keys, token: &str, ticket: &str) {
        assert_eq!(
            keys.verify(ticket).unwrap_err().code(),
            "ticket_not_a_token"
        );
        assert_eq!(
            keys.verify_ticket(token).unwrap_err().code(),
            "invalid_ticket"
        );
    }

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
    fn tickets_and_tokens_are_never_taken_for_each_other() {
        let keys = Keys::new(K1, TTL).unwrap();
        let (token, parent) = token_of_p1(&keys);
        let (ticket, expires) = keys.issue_ticket(&parent).unwrap();
        let left = (expires - Utc::now()).num_seconds();
        assert!(
            (TICKET_TTL_SECS - 2..=TICKET_TTL_SECS).contains(&left),
            "{left}"
        );
        let claims = keys.verify_ticket(&ticket).unwrap();
        assert_eq!(claims.sub, "p1");
        assert_eq!(claims.tid.as_deref(), Some(parent.token_id.as_str()));
        refused_for_each_other(&keys, &token, &ticket);
        assert_eq!(
            keys.verify_ticket("x.y.z").unwrap_err().code(),
            "invalid_ticket"
        );
        let stale = keys
            .sign(
                "p1",
                chrono::Duration::seconds(-600),
                Some(TICKET_AUDIENCE),
                parent.token_id.clone().into(),
            )
            .unwrap()
            .0;
        assert_eq!(
            keys.verify_ticket(&stale).unwrap_err().code(),
            "ticket_expired"
        );
        // Rotated keys verify old tickets, like old tokens.
        let rotated = Keys::with_previous(K2, &[K1], TTL).unwrap();
        assert!(rotated.verify_ticket(&ticket).is_ok());
        assert!(Keys::new(K2, TTL).unwrap().verify_ticket(&ticket).is_err());
    }

    #[test]
    fn a_token_without_kid_is_tried_against_every_listed_key() {
        let claims = Claims {
            sub: "p".into(),
            iss: ISSUER.into(),
            iat: Utc::now().timestamp(),
            exp: Utc::now().timestamp() + 60,
            jti: None,
            aud: None,
            tid: None,
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

    #[test]
    fn a_token_checked_again_gets_the_same_answer() {
        let keys = Keys::new(K1, TTL).unwrap();
        let (token, parent) = token_of_p1(&keys);
        let (ticket, _) = keys.issue_ticket(&parent).unwrap();
        for _ in 0..3 {
            assert_eq!(keys.verify(&token).unwrap().sub, "p1");
            assert_eq!(keys.verify_ticket(&ticket).unwrap().sub, "p1");
            refused_for_each_other(&keys, &token, &ticket);
        }
        // A kept token vouches for nothing but its own text: the same
        // claims under another signature are decoded, and refused.
        let (head, signature) = token.rsplit_once('.').unwrap();
        let flipped = if signature.starts_with('A') { 'B' } else { 'A' };
        let forged = format!("{head}.{flipped}{}", &signature[1..]);
        assert_eq!(keys.verify(&forged).unwrap_err().code(), "invalid_token");
        // Another process's keys know nothing of this one's kept tokens.
        assert!(Keys::new(K2, TTL).unwrap().verify(&token).is_err());
    }
}
