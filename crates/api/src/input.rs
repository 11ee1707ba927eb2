//! Game and seek ids in paths, checked at the HTTP edge before the
//! database: a `{game_id}` or `{seek_id}` that is no UUID (a NUL byte,
//! which Postgres `text` cannot hold, above all) is no game or seek,
//! answered the same on both backends.

use std::future::{Ready, ready};

use actix_web::{FromRequest, HttpRequest, dev::Payload};

use crate::error::ApiError;

/// The `{game_id}` of a path, checked to be a game id (a UUID, in its
/// canonical lower-case hyphenated form): anything else is no game, a 404
/// `game_not_found` on both backends, without asking the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameId(String);

impl GameId {
    pub fn parse(raw: &str) -> Result<GameId, ApiError> {
        uuid::Uuid::try_parse(raw)
            .map(|id| GameId(id.hyphenated().to_string()))
            .map_err(|_| ApiError::game_not_found())
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl std::ops::Deref for GameId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromRequest for GameId {
    type Error = ApiError;
    type Future = Ready<Result<GameId, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            req.match_info()
                .get("game_id")
                .ok_or_else(|| ApiError::internal("a route without {game_id} asked for one"))
                .and_then(GameId::parse),
        )
    }
}

/// The `{seek_id}` of a path, checked like a [`GameId`]: anything but a
/// UUID is no seek, a 404 `seek_not_found`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekId(String);

impl SeekId {
    pub fn parse(raw: &str) -> Result<SeekId, ApiError> {
        uuid::Uuid::try_parse(raw)
            .map(|id| SeekId(id.hyphenated().to_string()))
            .map_err(|_| ApiError::not_found("seek_not_found", "no seek of yours with this id"))
    }
}

impl std::ops::Deref for SeekId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl FromRequest for SeekId {
    type Error = ApiError;
    type Future = Ready<Result<SeekId, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            req.match_info()
                .get("seek_id")
                .ok_or_else(|| ApiError::internal("a route without {seek_id} asked for one"))
                .and_then(SeekId::parse),
        )
    }
}

/// The `{challenge_id}` of a path: a UUID, else no challenge (404
/// `challenge_not_found`) without asking the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeId(String);

impl std::ops::Deref for ChallengeId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl FromRequest for ChallengeId {
    type Error = ApiError;
    type Future = Ready<Result<ChallengeId, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_part(req, "challenge_id").and_then(|raw| {
            uuid::Uuid::try_parse(raw)
                .map(|id| ChallengeId(id.hyphenated().to_string()))
                .map_err(|_| {
                    ApiError::not_found("challenge_not_found", "no challenge of yours with this id")
                })
        }))
    }
}

/// The `{invite_id}` of a path: a UUID, else no invite (404
/// `invite_not_found`) without asking the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteId(String);

impl std::ops::Deref for InviteId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl FromRequest for InviteId {
    type Error = ApiError;
    type Future = Ready<Result<InviteId, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_part(req, "invite_id").and_then(|raw| {
            uuid::Uuid::try_parse(raw)
                .map(|id| InviteId(id.hyphenated().to_string()))
                .map_err(|_| invite_not_found())
        }))
    }
}

/// The `{token}` of an invite link's path: 64 lower-case hex digits, else
/// no invite (404 `invite_not_found`) without asking the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteToken(String);

impl InviteToken {
    pub fn parse(raw: &str) -> Result<InviteToken, ApiError> {
        let well_formed = raw.len() == 64
            && raw
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if well_formed {
            Ok(InviteToken(raw.to_owned()))
        } else {
            Err(invite_not_found())
        }
    }
}

impl std::ops::Deref for InviteToken {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl FromRequest for InviteToken {
    type Error = ApiError;
    type Future = Ready<Result<InviteToken, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_part(req, "token").and_then(InviteToken::parse))
    }
}

fn invite_not_found() -> ApiError {
    ApiError::not_found("invite_not_found", "no invite link with this token or id")
}

/// A named part of the matched path.
fn path_part<'r>(req: &'r HttpRequest, name: &str) -> Result<&'r str, ApiError> {
    req.match_info()
        .get(name)
        .ok_or_else(|| ApiError::internal(format!("a route without {{{name}}} asked for one")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_are_uuids_in_canonical_form() {
        let id = "0B6F3C52-5D0E-4BB4-9B1E-3C1F8F9A2D47";
        assert_eq!(
            &*GameId::parse(id).unwrap(),
            "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47"
        );
        assert!(InviteToken::parse(&"ab".repeat(32)).is_ok());
        for bad in [
            "AB".repeat(32),
            "ab".repeat(31),
            format!("{}g", "a".repeat(63)),
        ] {
            assert!(InviteToken::parse(&bad).is_err(), "{bad:?} was accepted");
        }
        for bad in ["", "\0", "nope", "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d4\0"] {
            assert!(GameId::parse(bad).is_err(), "{bad:?} was accepted");
            assert!(SeekId::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
