//! A card's string code: the error of a code that does not parse, and the
//! serde impls every card type shares (its code as a string).

/// A card code that could not be parsed (see each deck's `FromStr`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCardError {
    input: String,
}

impl ParseCardError {
    pub(crate) fn new(input: &str) -> Self {
        ParseCardError {
            input: input.to_owned(),
        }
    }
}

impl std::fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a card code", self.input)
    }
}

impl std::error::Error for ParseCardError {}

/// Implements `Serialize`/`Deserialize` as the card's string code.
#[cfg(feature = "serde")]
macro_rules! serde_via_str {
    ($ty:ty, $expecting:literal) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$ty, E> {
                        v.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(Visitor)
            }
        }
    };
}
#[cfg(feature = "serde")]
pub(crate) use serde_via_str;
