//! The moves of the game, the small types they carry, and where a round
//! stands ([`Phase`], shown in every view).

use std::fmt;

use cards::standard::Card;
use cards::{Hand, PlayerCount, Seat};

/// Cards passed each round (CH-3).
pub const PASS_COUNT: u32 = 3;

/// One move by one seat.
///
/// JSON (with the `serde` feature): `{"type":"pass_cards","cards":["QS","2C","AH"]}`,
/// `{"type":"play","card":"QS"}`, `{"type":"discard","cards":["2C","3C"]}`,
/// `{"type":"moon","choice":"subtract_own"}`.
///
/// Card selections are [`Hand`]s (multisets, so the order they are written in
/// does not matter and both copies of a card may be chosen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsMove))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)
)]
pub enum Move {
    /// Choose the three cards to pass this round (CH-3).
    PassCards {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
        cards: Hand<Card>,
    },
    /// Lead or follow to the current trick (CH-4..CH-8).
    Play { card: Card },
    /// Put back as many cards as the kitty held, face down (CH-10).
    Discard {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
        cards: Hand<Card>,
    },
    /// The shooter's choice after taking every scoring card (CH-12).
    Moon { choice: MoonChoice },
}

impl Move {
    /// Its `type` tag, also the prompt that asks for it.
    pub const fn kind(&self) -> &'static str {
        match self {
            Move::PassCards { .. } => "pass_cards",
            Move::Play { .. } => "play",
            Move::Discard { .. } => "discard",
            Move::Moon { .. } => "moon",
        }
    }
}

/// What a player who shot the moon does with the 26 (CH-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = MoonChoice))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MoonChoice {
    /// Subtract 26 from the shooter's own score.
    SubtractOwn,
    /// Add 26 to every other player's score.
    AddToOthers,
}

impl MoonChoice {
    pub const ALL: [MoonChoice; 2] = [MoonChoice::SubtractOwn, MoonChoice::AddToOthers];
}

impl fmt::Display for MoonChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoonChoice::SubtractOwn => "subtract 26 from own score",
            MoonChoice::AddToOthers => "add 26 to every other score",
        })
    }
}

/// Where this round's passes go (CH-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = PassDirection))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PassDirection {
    Left,
    Right,
    /// floor(n/2) seats to the left; with odd n no seat is exactly opposite.
    Across,
    /// Every fourth round nobody passes.
    #[cfg_attr(feature = "serde", serde(rename = "none"))]
    NoPass,
}

impl PassDirection {
    /// The cycle left, right, across, none (CH-3).
    pub const fn for_round(round: Round) -> PassDirection {
        match round.0 % 4 {
            0 => PassDirection::Left,
            1 => PassDirection::Right,
            2 => PassDirection::Across,
            _ => PassDirection::NoPass,
        }
    }

    /// Who receives what `from` passes; `None` in a round without passing.
    pub const fn receiver(self, from: Seat, players: PlayerCount) -> Option<Seat> {
        match self {
            PassDirection::Left => Some(from.left(players)),
            PassDirection::Right => Some(from.right(players)),
            PassDirection::Across => Some(from.across(players)),
            PassDirection::NoPass => None,
        }
    }

    /// Whose pass `to` receives: the inverse of [`PassDirection::receiver`].
    pub const fn giver(self, to: Seat, players: PlayerCount) -> Option<Seat> {
        match self {
            PassDirection::Left => Some(to.right(players)),
            PassDirection::Right => Some(to.left(players)),
            // Across is floor(n/2) to the left, so the giver is that far to the right.
            PassDirection::Across => Some(to.offset(players.get() - players.get() / 2, players)),
            PassDirection::NoPass => None,
        }
    }
}

impl fmt::Display for PassDirection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PassDirection::Left => "left",
            PassDirection::Right => "right",
            PassDirection::Across => "across",
            PassDirection::NoPass => "none",
        })
    }
}

/// A round's number, 0 for the first round of the game (CH-3 counts from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsRound))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Round(pub u32);

impl Round {
    pub const fn number(self) -> u32 {
        self.0
    }

    pub const fn next(self) -> Round {
        Round(self.0 + 1)
    }

    pub const fn pass_direction(self) -> PassDirection {
        PassDirection::for_round(self)
    }
}

/// Where a round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsPhase))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", tag = "name"))]
pub enum Phase {
    /// Everyone still in `to_act` chooses three cards (CH-3).
    Passing,
    /// Cards are led and followed (CH-4..CH-9).
    Playing,
    /// The first trick's winner puts back as many cards as the kitty held (CH-10).
    Discarding { seat: Seat },
    /// The shooter chooses how to use the moon (CH-12).
    Moon { shooter: Seat },
    /// Someone reached the target (CH-13).
    Over,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn giver_inverts_receiver_for_every_table() {
        for n in 6..=10 {
            let players = PlayerCount::new(n).unwrap();
            for direction in [
                PassDirection::Left,
                PassDirection::Right,
                PassDirection::Across,
            ] {
                for seat in players.seats() {
                    let to = direction.receiver(seat, players).unwrap();
                    assert_ne!(to, seat);
                    assert_eq!(direction.giver(to, players), Some(seat));
                }
            }
            assert_eq!(PassDirection::NoPass.receiver(Seat::new(0), players), None);
        }
    }

    #[test]
    fn rounds_cycle_through_the_four_directions() {
        let cycle: Vec<_> = (0..8).map(|k| Round(k).pass_direction()).collect();
        assert_eq!(cycle[..4], cycle[4..]);
        assert_eq!(cycle[2], PassDirection::Across);
        assert_eq!(cycle[3], PassDirection::NoPass);
    }
}
