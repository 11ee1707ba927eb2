//! What is chosen when a game is created, and the hand-built deals that tests
//! and analysis start from.

use cards::standard::Card;
use cards::{Hand, PlayerCount, RuleViolation, Seat};

/// Fewest players at the table (CH-1).
pub const MIN_PLAYERS: u8 = 6;
/// Most players at the table (CH-1).
pub const MAX_PLAYERS: u8 = 10;

/// Array size for per-seat data: the most players a table has (CH-1).
pub(crate) const SEATS: usize = MAX_PLAYERS as usize;

/// Two 52-card decks (CH-1).
pub const DECK_SIZE: u32 = 104;
/// The score that ends the game unless the config says otherwise (CH-13).
pub const DEFAULT_TARGET: i32 = 100;

/// What happens to a trick in which every card of the suit led is cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = AllCancelled))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AllCancelled {
    /// Everyone plays another card to the same trick until it has a winner
    /// (CH-8, the seed's rule and the default).
    #[default]
    Extend,
    /// The trick is set aside and goes to the winner of the next trick (CH-9).
    CarryOver,
}

/// A game's configuration: `{"players": 6..=10, "target": 100, "all_cancelled": "extend"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsConfig))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Config {
    /// 6 to 10 (CH-1).
    pub players: u8,
    /// The game ends after a round in which someone reaches this many points (CH-13).
    #[cfg_attr(feature = "serde", serde(default = "default_target"))]
    pub target: i32,
    /// Extension (CH-8, default) or carry-over (CH-9).
    #[cfg_attr(feature = "serde", serde(default))]
    pub all_cancelled: AllCancelled,
}

#[cfg(feature = "serde")]
fn default_target() -> i32 {
    DEFAULT_TARGET
}

impl Config {
    /// `players` at the table, target 100, extension (CH-8).
    pub const fn new(players: u8) -> Config {
        Config {
            players,
            target: DEFAULT_TARGET,
            all_cancelled: AllCancelled::Extend,
        }
    }

    pub const fn with_target(mut self, target: i32) -> Config {
        self.target = target;
        self
    }

    pub const fn with_all_cancelled(mut self, rule: AllCancelled) -> Config {
        self.all_cancelled = rule;
        self
    }

    /// Checks the ranges; returns the table size.
    pub fn validate(&self) -> Result<PlayerCount, ConfigError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            return Err(ConfigError::PlayerCount {
                players: self.players,
            });
        }
        if self.target < 1 {
            return Err(ConfigError::TargetNotPositive {
                target: self.target,
            });
        }
        Ok(PlayerCount::new(self.players).expect("6..=10 is a valid table size"))
    }
}

/// Cards each player is dealt: floor(104 / n) (CH-1).
pub const fn hand_size(players: PlayerCount) -> u32 {
    DECK_SIZE / players.get() as u32
}

/// Cards left over for the kitty: 104 mod n (CH-1).
pub const fn kitty_size(players: PlayerCount) -> u32 {
    DECK_SIZE % players.get() as u32
}

/// A hand-built deal, for tests and analysis (see `CancelHearts::from_deal`).
///
/// It is checked like a real one: the right number of hands, each of
/// floor(104 / n) cards, a kitty of 104 mod n, and together exactly two decks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    pub dealer: Seat,
    /// The round number k (0-based); it sets the pass direction (CH-3).
    pub round: u32,
    /// One hand per seat, seat 0 first.
    pub hands: Vec<Hand<Card>>,
    pub kitty: Hand<Card>,
    /// Scores before this round, one per seat; empty means all zero.
    pub scores: Vec<i32>,
}

impl Deal {
    /// Round 0 (pass left), scores all zero.
    pub fn new(dealer: Seat, hands: Vec<Hand<Card>>, kitty: Hand<Card>) -> Deal {
        Deal {
            dealer,
            round: 0,
            hands,
            kitty,
            scores: Vec::new(),
        }
    }

    pub fn with_round(mut self, round: u32) -> Deal {
        self.round = round;
        self
    }

    pub fn with_scores(mut self, scores: Vec<i32>) -> Deal {
        self.scores = scores;
        self
    }

    /// Checks the deal against the table size (CH-1).
    pub(crate) fn validate(&self, players: PlayerCount) -> Result<(), ConfigError> {
        let n = players.as_usize();
        if self.dealer.index() >= n {
            return Err(ConfigError::NoSuchDealer {
                dealer: self.dealer,
            });
        }
        if self.hands.len() != n {
            return Err(ConfigError::HandCount {
                expected: n,
                got: self.hands.len(),
            });
        }
        let expected = hand_size(players);
        if let Some((seat, hand)) = self
            .hands
            .iter()
            .enumerate()
            .find(|(_, hand)| hand.len() != expected)
        {
            return Err(ConfigError::HandSize {
                seat: Seat::new(seat as u8),
                expected,
                got: hand.len(),
            });
        }
        if self.kitty.len() != kitty_size(players) {
            return Err(ConfigError::KittySize {
                expected: kitty_size(players),
                got: self.kitty.len(),
            });
        }
        if !self.is_two_decks() {
            return Err(ConfigError::NotTwoDecks);
        }
        if !self.scores.is_empty() && self.scores.len() != n {
            return Err(ConfigError::ScoreCount {
                expected: n,
                got: self.scores.len(),
            });
        }
        Ok(())
    }

    /// Whether hands and kitty hold every card exactly twice.
    fn is_two_decks(&self) -> bool {
        let mut all = Hand::EMPTY;
        for hand in self.hands.iter().chain(std::iter::once(&self.kitty)) {
            for card in hand.iter() {
                if all.insert(card).is_err() {
                    return false;
                }
            }
        }
        all.len() == DECK_SIZE
    }
}

/// A configuration or hand-built deal that was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("Cancellation Hearts is for 6 to 10 players, not {players} (CH-1)")]
    PlayerCount { players: u8 },
    #[error("the target score must be at least 1, not {target} (CH-13)")]
    TargetNotPositive { target: i32 },
    #[error("the dealer must be one of the seats, not {dealer} (CH-2)")]
    NoSuchDealer { dealer: Seat },
    #[error("a deal needs one hand per player: {expected}, not {got} (CH-1)")]
    HandCount { expected: usize, got: usize },
    #[error("{seat} must be dealt {expected} cards, not {got} (CH-1)")]
    HandSize { seat: Seat, expected: u32, got: u32 },
    #[error("the kitty must hold {expected} cards, not {got} (CH-1)")]
    KittySize { expected: u32, got: u32 },
    #[error("the hands and kitty must hold exactly two decks, every card twice (CH-1)")]
    NotTwoDecks,
    #[error("scores must be given for all {expected} players, not {got}")]
    ScoreCount { expected: usize, got: usize },
}

impl RuleViolation for ConfigError {
    const CODES: &'static [&'static str] = &[
        "player_count",
        "target_not_positive",
        "no_such_dealer",
        "deal_hand_count",
        "deal_hand_size",
        "deal_kitty_size",
        "deal_not_two_decks",
        "deal_score_count",
    ];

    fn code(&self) -> &'static str {
        match self {
            ConfigError::PlayerCount { .. } => "player_count",
            ConfigError::TargetNotPositive { .. } => "target_not_positive",
            ConfigError::NoSuchDealer { .. } => "no_such_dealer",
            ConfigError::HandCount { .. } => "deal_hand_count",
            ConfigError::HandSize { .. } => "deal_hand_size",
            ConfigError::KittySize { .. } => "deal_kitty_size",
            ConfigError::NotTwoDecks => "deal_not_two_decks",
            ConfigError::ScoreCount { .. } => "deal_score_count",
        }
    }

    fn rule(&self) -> Option<&'static str> {
        match self {
            ConfigError::TargetNotPositive { .. } => Some("CH-13"),
            ConfigError::NoSuchDealer { .. } => Some("CH-2"),
            ConfigError::ScoreCount { .. } => None,
            _ => Some("CH-1"),
        }
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
            ConfigError::TargetNotPositive { target: 0 },
            ConfigError::NoSuchDealer { dealer: seat },
            ConfigError::HandCount {
                expected: 6,
                got: 5,
            },
            ConfigError::HandSize {
                seat,
                expected: 17,
                got: 16,
            },
            ConfigError::KittySize {
                expected: 2,
                got: 1,
            },
            ConfigError::NotTwoDecks,
            ConfigError::ScoreCount {
                expected: 6,
                got: 5,
            },
        ];
        let codes: Vec<&str> = every.iter().map(RuleViolation::code).collect();
        assert_eq!(codes, ConfigError::CODES);
    }
}
