//! Why a move was refused: one variant per broken rule (G-3).
//!
//! Messages name the rule and only ever mention cards the mover named or
//! holds, never another player's cards or the kitty (G-2).

use cards::RuleViolation;
use cards::standard::{Card, Suit};

/// What the game is waiting for, named in [`RuleError::WrongPhase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsWaiting))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Waiting {
    Passes,
    Play,
    Discard,
    Moon,
}

impl std::fmt::Display for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Waiting::Passes => "the players to choose their passes",
            Waiting::Play => "a card to be played",
            Waiting::Discard => "the kitty taker's discard",
            Waiting::Moon => "the moon shooter's choice",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over (CH-13)")]
    GameOver,
    #[error("there is no seat {seat} at this table (G-3)")]
    NoSuchSeat { seat: u8 },
    #[error("that move is not allowed now: the game is waiting for {waiting} (G-3)")]
    WrongPhase { waiting: Waiting },
    #[error("it is not your turn: only a seat that must act now may move (G-4)")]
    NotYourTurn,
    #[error("nobody passes in this round: every fourth round has no pass (CH-3)")]
    NoPassThisRound,
    #[error("you have already chosen your pass for this round (CH-3)")]
    AlreadyPassed,
    #[error("you must pass exactly three cards, not {given} (CH-3)")]
    MustPassThree { given: u32 },
    #[error("you do not hold {card} (G-3)")]
    CardNotInHand { card: Card },
    #[error("you do not hold all of those cards (G-3)")]
    CardsNotInHand,
    #[error("the first trick must be led with the two of clubs, which you hold (CH-4)")]
    MustLeadTwoOfClubs,
    #[error(
        "both twos of clubs are in the kitty: the first trick must be led with your {card}, the lowest club in any hand (CH-4)"
    )]
    MustLeadLowestClub { card: Card },
    #[error("must follow suit: you hold {suit} (CH-5)")]
    MustFollowSuit { suit: Suit },
    #[error(
        "no hearts or queen of spades on the first trick while you hold another card you may play (CH-5)"
    )]
    NoPointsOnFirstTrick,
    #[error(
        "hearts are not broken: no heart or queen of spades has been played this round, and you hold other cards (CH-6)"
    )]
    HeartsNotBroken,
    #[error(
        "you must discard exactly {expected} cards, as many as the kitty held, not {given} (CH-10)"
    )]
    WrongDiscardCount { expected: u32, given: u32 },
    #[error("only the player who shot the moon chooses what to do with it (CH-12)")]
    NotTheShooter,
}

impl RuleViolation for RuleError {
    const CODES: &'static [&'static str] = &[
        "game_over",
        "no_such_seat",
        "wrong_phase",
        "not_your_turn",
        "no_pass_this_round",
        "already_passed",
        "must_pass_three",
        "card_not_in_hand",
        "cards_not_in_hand",
        "must_lead_two_of_clubs",
        "must_lead_lowest_club",
        "must_follow_suit",
        "no_points_on_first_trick",
        "hearts_not_broken",
        "wrong_discard_count",
        "not_the_shooter",
    ];

    fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::WrongPhase { .. } => "wrong_phase",
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::NoPassThisRound => "no_pass_this_round",
            RuleError::AlreadyPassed => "already_passed",
            RuleError::MustPassThree { .. } => "must_pass_three",
            RuleError::CardNotInHand { .. } => "card_not_in_hand",
            RuleError::CardsNotInHand => "cards_not_in_hand",
            RuleError::MustLeadTwoOfClubs => "must_lead_two_of_clubs",
            RuleError::MustLeadLowestClub { .. } => "must_lead_lowest_club",
            RuleError::MustFollowSuit { .. } => "must_follow_suit",
            RuleError::NoPointsOnFirstTrick => "no_points_on_first_trick",
            RuleError::HeartsNotBroken => "hearts_not_broken",
            RuleError::WrongDiscardCount { .. } => "wrong_discard_count",
            RuleError::NotTheShooter => "not_the_shooter",
        }
    }

    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            RuleError::GameOver => "CH-13",
            RuleError::NoSuchSeat { .. }
            | RuleError::WrongPhase { .. }
            | RuleError::CardNotInHand { .. }
            | RuleError::CardsNotInHand => "G-3",
            RuleError::NotYourTurn => "G-4",
            RuleError::NoPassThisRound
            | RuleError::AlreadyPassed
            | RuleError::MustPassThree { .. } => "CH-3",
            RuleError::MustLeadTwoOfClubs | RuleError::MustLeadLowestClub { .. } => "CH-4",
            RuleError::MustFollowSuit { .. } | RuleError::NoPointsOnFirstTrick => "CH-5",
            RuleError::HeartsNotBroken => "CH-6",
            RuleError::WrongDiscardCount { .. } => "CH-10",
            RuleError::NotTheShooter => "CH-12",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_error() -> Vec<RuleError> {
        let card = Card::QUEEN_OF_SPADES;
        vec![
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat: 11 },
            RuleError::WrongPhase {
                waiting: Waiting::Passes,
            },
            RuleError::NotYourTurn,
            RuleError::NoPassThisRound,
            RuleError::AlreadyPassed,
            RuleError::MustPassThree { given: 2 },
            RuleError::CardNotInHand { card },
            RuleError::CardsNotInHand,
            RuleError::MustLeadTwoOfClubs,
            RuleError::MustLeadLowestClub { card },
            RuleError::MustFollowSuit { suit: Suit::Clubs },
            RuleError::NoPointsOnFirstTrick,
            RuleError::HeartsNotBroken,
            RuleError::WrongDiscardCount {
                expected: 2,
                given: 3,
            },
            RuleError::NotTheShooter,
        ]
    }

    #[test]
    fn codes_lists_every_variant_once() {
        let codes: Vec<&str> = every_error().iter().map(RuleViolation::code).collect();
        assert_eq!(codes, RuleError::CODES);
    }

    #[test]
    fn codes_are_unique_and_messages_name_their_rule() {
        let errors = every_error();
        let mut codes: Vec<_> = errors.iter().map(RuleViolation::code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
        for error in errors {
            let rule = error.rule().expect("every refusal names a rule");
            assert!(
                error.to_string().ends_with(&format!("({rule})")),
                "{error} should name {rule}"
            );
        }
    }
}
