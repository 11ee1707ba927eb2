//! Checks on text that clients send, made at the HTTP edge and before the
//! database: one set of display-name rules for every door a name comes in
//! by (registration, record import), free text without control
//! characters, and game ids in paths that are ids.
//!
//! Why before the database: Postgres `text` cannot hold a NUL byte (the
//! driver fails, a 500) where SQLite stores it, so the same request would
//! be answered differently by the two backends.

use std::future::{Ready, ready};

use actix_web::{FromRequest, HttpRequest, dev::Payload};

use crate::error::ApiError;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Characters that take no room on screen (or reorder what follows): a
/// name of nothing else looks empty, and direction overrides let one name
/// pass for another.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

/// Direction overrides and isolates: refused anywhere in a name, since they
/// make the text after them display in another order.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A display name as the api stores it, trimmed, or a 422
/// `invalid_display_name`: 1 to [`MAX_NAME_CHARS`] characters, no control
/// characters (newlines, ESC, NUL), no direction overrides, and at least
/// one character that shows.
pub fn display_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    let chars = name.chars().count();
    let shows = name.chars().any(|c| !c.is_whitespace() && !is_invisible(c));
    let clean = !name.chars().any(|c| c.is_control() || is_bidi_control(c));
    if chars == 0 || chars > MAX_NAME_CHARS || !shows || !clean {
        return Err(ApiError::unprocessable(
            "invalid_display_name",
            format!(
                "a display name is 1 to {MAX_NAME_CHARS} printable characters, not all of them \
                 invisible"
            ),
        ));
    }
    Ok(name.to_owned())
}

/// Refuses free text with a control character (a NUL above all, which
/// Postgres cannot store): a 422 with `code`.
pub fn printable(value: &str, code: &'static str, what: &str) -> Result<(), ApiError> {
    if value.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            code,
            format!("{what} may not contain control characters"),
        ));
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_registrations_rules_and_refuse_invisible_ones() {
        assert_eq!(display_name("  Ada ").unwrap(), "Ada");
        assert_eq!(display_name("Zoë 🂡").unwrap(), "Zoë 🂡");
        for bad in [
            "",
            "   ",
            "\u{200B}\u{200B}",
            "\u{FEFF}",
            "a\nb",
            "\u{1b}[31mred",
            "nul\0",
            "evil\u{202E}txt",
        ] {
            assert!(display_name(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(display_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        assert!(display_name(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
    }

    #[test]
    fn game_ids_are_uuids_in_canonical_form() {
        let id = "0B6F3C52-5D0E-4BB4-9B1E-3C1F8F9A2D47";
        assert_eq!(
            &*GameId::parse(id).unwrap(),
            "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47"
        );
        for bad in ["", "\0", "nope", "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d4\0"] {
            assert!(GameId::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn free_text_refuses_control_characters() {
        assert!(printable("my dice: 3 5 1 6", "bad_entropy", "entropy").is_ok());
        assert!(printable("a\0b", "bad_entropy", "entropy").is_err());
    }
}
