//! The rules for text that clients send, whichever door it comes in by: one
//! set of display-name rules (registration, record import) and free text
//! without control characters (a seat's entropy).
//!
//! Why the service checks them before the database: Postgres `text` cannot
//! hold a NUL byte (the driver fails) where SQLite stores it, so without
//! these checks the same request would be answered differently by the two
//! backends.

use super::error::ServiceError;

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
pub fn display_name(raw: &str) -> Result<String, ServiceError> {
    let name = raw.trim();
    // The bound holds for the name as sent too (what the document's
    // `maxLength` says), so padding does not make a long name pass.
    let chars = name.chars().count().max(raw.chars().count());
    let shows = name.chars().any(|c| !c.is_whitespace() && !is_invisible(c));
    let clean = !name.chars().any(|c| c.is_control() || is_bidi_control(c));
    if chars == 0 || chars > MAX_NAME_CHARS || !shows || !clean {
        return Err(ServiceError::invalid(
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
pub fn printable(value: &str, code: &'static str, what: &str) -> Result<(), ServiceError> {
    if value.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            code,
            format!("{what} may not contain control characters"),
        ));
    }
    Ok(())
}

/// The longest message of table talk, in characters.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// A table-talk message as the api stores it, trimmed, or a 422: empty (or
/// nothing that shows) `empty_message`; over [`MAX_MESSAGE_CHARS`]
/// `message_too_long`; a control character other than a line break, or a
/// direction override, `invalid_message`.
pub fn message_text(raw: &str) -> Result<String, ServiceError> {
    let text = raw.trim();
    if !text.chars().any(|c| !c.is_whitespace() && !is_invisible(c)) {
        return Err(ServiceError::invalid(
            "empty_message",
            "a message needs at least one character that shows",
        ));
    }
    // As sent, too (the document's `maxLength`): padding counts.
    if raw.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ServiceError::invalid(
            "message_too_long",
            format!("a message is at most {MAX_MESSAGE_CHARS} characters"),
        ));
    }
    if text
        .chars()
        .any(|c| (c.is_control() && c != '\n') || is_bidi_control(c))
    {
        return Err(ServiceError::invalid(
            "invalid_message",
            "a message may not contain control characters (but line breaks) or direction overrides",
        ));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_trimmed_bounded_and_printable() {
        assert_eq!(message_text("  gg\nwp ").unwrap(), "gg\nwp");
        assert_eq!(message_text(&"é".repeat(500)).unwrap().chars().count(), 500);
        let code = |t: &str| match message_text(t) {
            Err(ServiceError::Invalid(r)) => r.code,
            other => panic!("{t:?}: {other:?}"),
        };
        assert_eq!(code(" \n "), "empty_message");
        assert_eq!(code("\u{200B}"), "empty_message");
        assert_eq!(code(&"x".repeat(501)), "message_too_long");
        assert_eq!(code("a\0b"), "invalid_message");
        assert_eq!(code("a\u{202E}b"), "invalid_message");
    }

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
    fn free_text_refuses_control_characters() {
        assert!(printable("my dice: 3 5 1 6", "bad_entropy", "entropy").is_ok());
        assert!(printable("a\0b", "bad_entropy", "entropy").is_err());
    }
}
