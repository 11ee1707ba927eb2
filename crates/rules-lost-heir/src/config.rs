//! What is chosen when a game is created (LH-2, LH-3, the LH-13 variant).

use std::fmt;

use cards::{PlayerCount, RuleViolation, Seat};

/// Default target without partnerships (the seed's "40 points", LH-3).
pub const DEFAULT_TARGET: i32 = 40;
/// Default target for 4 players in partnerships (LH-3).
pub const DEFAULT_PARTNERSHIP_TARGET: i32 = 25;
/// The largest target accepted, so that a game stays finite in practice.
pub const MAX_TARGET: i32 = 10_000;

/// A game's configuration: player count, partnerships, target, whose side a
/// bid binds.
///
/// [`Config::new`] gives the defaults (partnerships with 4 players, target 40
/// or 25, the dealer's contract); the fields are public and are checked by
/// [`Ruleset::new`](cards::Ruleset::new).
///
/// JSON (behind the `serde` feature): `{"players": 4, "partnerships": false,
/// "target": 30, "bidder_contract": true}`; all but `players` may be left out
/// for their defaults, unknown fields are refused. `bidder_contract` is
/// written only when true, so the canonical form of every configuration
/// without the variant (and every record made before it) is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirConfig))]
#[cfg_attr(feature = "serde", serde(from = "ConfigRepr"))]
pub struct Config {
    /// 2, 3 or 4 (LH-2).
    pub players: u8,
    /// Seats 0+2 against 1+3; only with 4 players (LH-3). Default: with 4 players.
    #[cfg_attr(feature = "utoipa", schema(required = false))]
    pub partnerships: bool,
    /// The score a side must reach to end the game (LH-3, LH-12). Default:
    /// 25 with partnerships, else 40.
    #[cfg_attr(feature = "utoipa", schema(required = false))]
    pub target: i32,
    /// The LH-13 variant: an accepted bid binds the highest bidder's side
    /// (it must take at least the bid, or it scores nothing that round)
    /// instead of the dealer's (LH-6). Default: false, the dealer's contract.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    // Written only when true: the document's extension tells the api's
    // `split_config` not to require it in the server's answers.
    #[cfg_attr(
        feature = "utoipa",
        schema(required = false, extensions(("x-omitted-when-default" = json!(true))))
    )]
    pub bidder_contract: bool,
}

impl Config {
    /// The defaults for `players`: partnerships and target 25 with 4 players,
    /// otherwise every player for themself and target 40 (LH-3).
    pub const fn new(players: u8) -> Config {
        let partnerships = players == 4;
        Config {
            players,
            partnerships,
            target: default_target(partnerships),
            bidder_contract: false,
        }
    }

    /// Turns partnerships on or off and resets the target to that mode's
    /// default (call [`Config::with_target`] afterwards to choose another).
    pub const fn with_partnerships(self, partnerships: bool) -> Config {
        Config {
            partnerships,
            target: default_target(partnerships),
            ..self
        }
    }

    pub const fn with_target(self, target: i32) -> Config {
        Config { target, ..self }
    }

    /// Chooses the LH-13 variant (true: the bidder's contract) or LH-6 (false).
    pub const fn with_bidder_contract(self, bidder_contract: bool) -> Config {
        Config {
            bidder_contract,
            ..self
        }
    }

    /// Checks the configuration against LH-2 and LH-3.
    pub fn validate(&self) -> Result<PlayerCount, ConfigError> {
        if !(2..=4).contains(&self.players) {
            return Err(ConfigError::PlayerCount {
                players: self.players,
            });
        }
        if self.partnerships && self.players != 4 {
            return Err(ConfigError::PartnershipsNeedFourPlayers {
                players: self.players,
            });
        }
        if !(1..=MAX_TARGET).contains(&self.target) {
            return Err(ConfigError::TargetOutOfRange {
                target: self.target,
            });
        }
        Ok(PlayerCount::new(self.players).expect("2..=4 seats"))
    }
}

const fn default_target(partnerships: bool) -> i32 {
    if partnerships {
        DEFAULT_PARTNERSHIP_TARGET
    } else {
        DEFAULT_TARGET
    }
}

/// The JSON form: optional fields resolve to the defaults of [`Config::new`].
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigRepr {
    players: u8,
    #[serde(default)]
    partnerships: Option<bool>,
    #[serde(default)]
    target: Option<i32>,
    #[serde(default)]
    bidder_contract: bool,
}

#[cfg(feature = "serde")]
impl From<ConfigRepr> for Config {
    fn from(repr: ConfigRepr) -> Config {
        let mut config = Config::new(repr.players);
        if let Some(partnerships) = repr.partnerships {
            config = config.with_partnerships(partnerships);
        }
        if let Some(target) = repr.target {
            config = config.with_target(target);
        }
        config.with_bidder_contract(repr.bidder_contract)
    }
}

/// Why a configuration or a hand-built deal was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// Lost Heir is for 2 to 4 players (LH-2).
    PlayerCount { players: u8 },
    /// Partnerships exist only with 4 players (LH-3).
    PartnershipsNeedFourPlayers { players: u8 },
    /// The target must be at least 1 and at most [`MAX_TARGET`] (LH-3).
    TargetOutOfRange { target: i32 },
    /// A hand-built deal must have one hand per player (LH-2).
    WrongNumberOfHands { expected: u8, got: usize },
    /// A hand-built deal gives every player the same number of cards (LH-2).
    WrongHandSize { seat: Seat, expected: u32, got: u32 },
    /// A hand-built deal must deal exactly the deck: every card once, both
    /// Blanks with 2 or 4 players, none with 3 (LH-1, LH-2).
    NotTheDeck,
    /// The dealer of a hand-built deal must sit at the table.
    NoSuchSeat { seat: Seat },
    /// Starting scores of a hand-built game: one per side, below the target.
    WrongScores,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::PlayerCount { players } => {
                write!(f, "Lost Heir is for 2 to 4 players, not {players} (LH-2)")
            }
            ConfigError::PartnershipsNeedFourPlayers { players } => {
                write!(f, "partnerships need 4 players, not {players} (LH-3)")
            }
            ConfigError::TargetOutOfRange { target } => write!(
                f,
                "the target must be between 1 and {MAX_TARGET}, not {target} (LH-3)"
            ),
            ConfigError::WrongNumberOfHands { expected, got } => {
                write!(f, "a deal needs {expected} hands, not {got} (LH-2)")
            }
            ConfigError::WrongHandSize {
                seat,
                expected,
                got,
            } => write!(f, "{seat} must be dealt {expected} cards, not {got} (LH-2)"),
            ConfigError::NotTheDeck => {
                f.write_str("the hands must hold the whole deck, every card once (LH-1, LH-2)")
            }
            ConfigError::NoSuchSeat { seat } => write!(f, "there is no {seat} at this table"),
            ConfigError::WrongScores => {
                f.write_str("starting scores: one per side, each below the target (LH-12)")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl RuleViolation for ConfigError {
    const CODES: &'static [&'static str] = &[
        "player_count",
        "partnerships_need_four_players",
        "target_out_of_range",
        "wrong_number_of_hands",
        "wrong_hand_size",
        "not_the_deck",
        "no_such_seat",
        "wrong_scores",
    ];

    fn code(&self) -> &'static str {
        match self {
            ConfigError::PlayerCount { .. } => "player_count",
            ConfigError::PartnershipsNeedFourPlayers { .. } => "partnerships_need_four_players",
            ConfigError::TargetOutOfRange { .. } => "target_out_of_range",
            ConfigError::WrongNumberOfHands { .. } => "wrong_number_of_hands",
            ConfigError::WrongHandSize { .. } => "wrong_hand_size",
            ConfigError::NotTheDeck => "not_the_deck",
            ConfigError::NoSuchSeat { .. } => "no_such_seat",
            ConfigError::WrongScores => "wrong_scores",
        }
    }

    fn rule(&self) -> Option<&'static str> {
        match self {
            ConfigError::PlayerCount { .. }
            | ConfigError::WrongNumberOfHands { .. }
            | ConfigError::WrongHandSize { .. } => Some("LH-2"),
            ConfigError::PartnershipsNeedFourPlayers { .. }
            | ConfigError::TargetOutOfRange { .. } => Some("LH-3"),
            ConfigError::NotTheDeck => Some("LH-1"),
            ConfigError::NoSuchSeat { .. } => None,
            ConfigError::WrongScores => Some("LH-12"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lh_3_defaults_depend_on_partnerships() {
        assert_eq!(Config::new(2).target, 40);
        assert!(!Config::new(3).partnerships);
        let four = Config::new(4);
        assert!(four.partnerships);
        assert_eq!(four.target, 25);
        let solo = four.with_partnerships(false);
        assert_eq!(solo.target, 40);
        assert_eq!(solo.with_target(12).target, 12);
    }

    #[test]
    fn lh_3_validation() {
        assert!(Config::new(4).validate().is_ok());
        assert_eq!(
            Config::new(5).validate(),
            Err(ConfigError::PlayerCount { players: 5 })
        );
        assert_eq!(
            Config::new(3).with_partnerships(true).validate(),
            Err(ConfigError::PartnershipsNeedFourPlayers { players: 3 })
        );
        assert_eq!(
            Config::new(2).with_target(0).validate(),
            Err(ConfigError::TargetOutOfRange { target: 0 })
        );
    }
}

#[cfg(test)]
mod code_list {
    use super::*;

    #[test]
    fn codes_lists_every_variant_once() {
        let seat = Seat::new(0);
        let every = [
            ConfigError::PlayerCount { players: 5 },
            ConfigError::PartnershipsNeedFourPlayers { players: 2 },
            ConfigError::TargetOutOfRange { target: 0 },
            ConfigError::WrongNumberOfHands {
                expected: 2,
                got: 3,
            },
            ConfigError::WrongHandSize {
                seat,
                expected: 16,
                got: 15,
            },
            ConfigError::NotTheDeck,
            ConfigError::NoSuchSeat { seat },
            ConfigError::WrongScores,
        ];
        let codes: Vec<&str> = every.iter().map(RuleViolation::code).collect();
        assert_eq!(codes, ConfigError::CODES);
    }
}
