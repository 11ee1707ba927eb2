//! The one list of game kinds.
//!
//! [`for_each_kind!`](crate::for_each_kind) is the only place a kind is
//! listed. Everything that enumerates kinds is generated from it: this
//! crate's [`GameKind`] (its `ALL`, code, title, serde form and the OpenAPI
//! enum behind the `utoipa` feature) and the api's table of playable kinds
//! (`api::games::kinds`). A kind's code is its engine's `Ruleset::KIND`, so
//! it is written once, in the engine. Adding a game: ARCHITECTURE.md, "Adding
//! a third game".

use std::fmt;

use cards::Ruleset;
use serde_json::Value;

use crate::engines::{Engine, Notation};

/// Calls the macro `$callback` with every game kind, one entry each:
/// `Variant = "Title", engine type;` (each with its doc comment).
///
/// ```
/// macro_rules! titles {
///     ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
///         [$($title),*]
///     };
/// }
/// assert_eq!(game_record::for_each_kind!(titles), ["Lost Heir", "Cancellation Hearts"]);
/// ```
#[macro_export]
macro_rules! for_each_kind {
    ($callback:ident) => {
        $callback! {
            /// Lost Heir: 2 to 4 players, partnerships at 4 (`docs/rules/lost-heir.md`).
            LostHeir = "Lost Heir", $crate::rules_lost_heir::LostHeir;
            /// Cancellation Hearts: 6 to 10 players, two decks
            /// (`docs/rules/cancellation-hearts.md`).
            CancellationHearts = "Cancellation Hearts", $crate::rules_cancel_hearts::CancelHearts;
        }
    };
}

/// A generic use of a kind's engine, for [`GameKind::visit`]: what the
/// record builder does the same way for every kind.
pub(crate) trait EngineVisitor {
    type Output;
    fn visit<E: Engine + Ruleset>(self) -> Self::Output;
}

/// Generates [`GameKind`] from the entries of [`for_each_kind!`](crate::for_each_kind).
macro_rules! declare_game_kind {
    ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
        /// Which game a record is of. Its serde form is the code
        /// (`"lost-heir"`); the list is [`for_each_kind!`](crate::for_each_kind).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($(#[$doc])* $variant,)*
        }

        impl GameKind {
            /// Every kind, in the registry's order.
            pub const ALL: [GameKind; [$(GameKind::$variant),*].len()] = [$(GameKind::$variant),*];

            /// Every kind's code, in the same order.
            pub const CODES: [&'static str; GameKind::ALL.len()] =
                [$(<$engine as Ruleset>::KIND),*];

            /// The stable name (the engine's `Ruleset::KIND`): `lost-heir`, `cancellation-hearts`.
            pub const fn code(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$engine as Ruleset>::KIND,)*
                }
            }

            /// A readable title: "Lost Heir", "Cancellation Hearts".
            pub const fn title(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $title,)*
                }
            }

            /// How this kind is written in records.
            pub(crate) fn notation(self) -> &'static Notation {
                match self {
                    $(GameKind::$variant => &<$engine as Engine>::NOTATION,)*
                }
            }

            /// Runs `visitor` with this kind's engine type.
            pub(crate) fn visit<V: EngineVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(GameKind::$variant => visitor.visit::<$engine>(),)*
                }
            }
        }
    };
}

for_each_kind!(declare_game_kind);

impl GameKind {
    /// The kind whose code is `code`.
    pub fn from_code(code: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Code;
        impl serde::de::Visitor<'_> for Code {
            type Value = GameKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a game kind")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<GameKind, E> {
                // The same message a derived enum gives (`unknown variant …,
                // expected one of …`), which clients already see.
                GameKind::from_code(v).ok_or_else(|| E::unknown_variant(v, &GameKind::CODES))
            }
        }
        d.deserialize_str(Code)
    }
}

/// The document's enum of kinds, from the same list. The schema keeps the
/// name the api has always published (`GameKindName`) so the document does
/// not change for clients.
#[cfg(feature = "utoipa")]
impl utoipa::PartialSchema for GameKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("A game kind."))
            .enum_values(Some(GameKind::CODES))
            .into()
    }
}

#[cfg(feature = "utoipa")]
impl utoipa::ToSchema for GameKind {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("GameKindName")
    }
}

// ---- each kind's notation, through its engine's `Notation` ----

impl GameKind {
    /// A move's text form (a play is written inside its trick line). A move
    /// this kind cannot read is written as its JSON, which parsing refuses.
    pub(crate) fn move_text(self, mv: &Value) -> String {
        (self.notation().move_text)(mv).unwrap_or_else(|| mv.to_string())
    }

    /// Reads a move's text form back to its JSON form.
    pub(crate) fn parse_move(self, text: &str) -> Result<Value, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        (self.notation().parse_move)(&words)
    }

    /// The card code if `mv` plays a card to a trick.
    pub(crate) fn played_card(self, mv: &Value) -> Option<String> {
        (mv.get("type")? == "play")
            .then(|| mv.get("card")?.as_str().map(str::to_owned))
            .flatten()
    }

    /// The JSON move playing `card`, if `card` is a card of this kind's deck.
    pub(crate) fn play_move(self, card: &str) -> Result<Value, String> {
        self.parse_move(&format!("play {card}"))
    }

    /// A score-sheet row as its one-line text form.
    pub(crate) fn score_text(self, row: &Value) -> String {
        let parts: Vec<String> = (self.notation().score_fields)
            .iter()
            .map(|(label, key)| format!("{label} {}", numbers(row.get(*key))))
            .collect();
        format!("score: {}", parts.join(" | "))
    }

    /// A card's readable name: Lost Heir cards by name ("Toronto Mayor"),
    /// standard cards with suit symbols (`Q♠`) or plain (`QS`).
    pub fn card_name(self, code: &str, symbols: bool) -> String {
        (self.notation().card_name)(code, symbols)
    }
}

fn numbers(value: Option<&Value>) -> String {
    let items = value.and_then(Value::as_array).map(Vec::as_slice);
    let items: Vec<String> = items
        .unwrap_or_default()
        .iter()
        .map(Value::to_string)
        .collect();
    items.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_titles_and_serde_come_from_the_one_list() {
        assert_eq!(GameKind::CODES, ["lost-heir", "cancellation-hearts"]);
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_code(kind.code()), Some(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.code());
            let back: GameKind = serde_json::from_value(kind.code().into()).unwrap();
            assert_eq!(back, kind);
        }
        assert_eq!(GameKind::LostHeir.title(), "Lost Heir");
        assert_eq!(GameKind::from_code("poker"), None);
    }

    #[test]
    fn an_unknown_code_is_refused_naming_the_known_ones() {
        let err = serde_json::from_str::<GameKind>("\"poker\"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant `poker`, expected `lost-heir` or `cancellation-hearts` at line 1 column 7"
        );
    }

    #[test]
    fn each_kind_visits_its_own_engine() {
        struct Kind;
        impl EngineVisitor for Kind {
            type Output = &'static str;
            fn visit<E: Engine + Ruleset>(self) -> &'static str {
                E::KIND
            }
        }
        for kind in GameKind::ALL {
            assert_eq!(kind.visit(Kind), kind.code());
        }
    }
}
