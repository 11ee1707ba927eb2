//! Seats around the table and the arithmetic between them.
//!
//! Seats are numbered `0..n` clockwise; "left of X" is `(X + 1) mod n`
//! (RULINGS.md, preamble).

use std::fmt;

/// The most seats any game here supports (Cancellation Hearts: 10).
pub const MAX_SEATS: u8 = 16;

/// One seat at the table, `0..n` clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Seat(u8);

impl Seat {
    /// Seat number `index`. Whether it exists at a given table is checked by
    /// [`PlayerCount::seat`].
    pub const fn new(index: u8) -> Seat {
        Seat(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// The seat `steps` places clockwise (to the left) of this one.
    ///
    /// Engines call this on every move, so the common cases (fewer than two
    /// laps) avoid the division.
    #[inline]
    pub const fn offset(self, steps: u8, n: PlayerCount) -> Seat {
        let index = self.0 as u16 + steps as u16;
        let n = n.0 as u16;
        let wrapped = if index < n {
            index
        } else if index < 2 * n {
            index - n
        } else {
            index % n
        };
        Seat(wrapped as u8)
    }

    /// The next seat clockwise: the player on this seat's left.
    pub const fn left(self, n: PlayerCount) -> Seat {
        self.offset(1, n)
    }

    /// The player on this seat's right.
    pub const fn right(self, n: PlayerCount) -> Seat {
        self.offset(n.0 - 1, n)
    }

    /// `floor(n / 2)` seats to the left: opposite with an even count, the
    /// nearer of the two "almost opposite" seats with an odd one (CH-3).
    /// With four players this is the partner (LH-3).
    pub const fn across(self, n: PlayerCount) -> Seat {
        self.offset(n.0 / 2, n)
    }

    /// How many steps clockwise `other` is from this seat (`0..n`).
    pub const fn distance_to(self, other: Seat, n: PlayerCount) -> u8 {
        ((other.0 as u16 + n.0 as u16 - self.0 as u16) % n.0 as u16) as u8
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// How many seats a table has. Always at least 1 and at most [`MAX_SEATS`];
/// each engine checks its own range on top of that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct PlayerCount(u8);

impl PlayerCount {
    pub const fn new(n: u8) -> Option<PlayerCount> {
        if n >= 1 && n <= MAX_SEATS {
            Some(PlayerCount(n))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    pub const fn as_usize(self) -> usize {
        self.0 as usize
    }

    /// The seat numbered `index`, if the table has it.
    pub const fn seat(self, index: u8) -> Option<Seat> {
        if index < self.0 {
            Some(Seat(index))
        } else {
            None
        }
    }

    /// Every seat, `0..n`.
    pub fn seats(self) -> impl DoubleEndedIterator<Item = Seat> + ExactSizeIterator + Clone {
        (0..self.0).map(Seat)
    }

    /// Every seat in clockwise order starting with `first`.
    pub fn clockwise_from(self, first: Seat) -> impl Iterator<Item = Seat> + Clone {
        (0..self.0).map(move |k| first.offset(k, self))
    }

    /// All seats as a set.
    pub const fn all(self) -> SeatSet {
        SeatSet(((1u32 << self.0) - 1) as u16)
    }
}

impl TryFrom<u8> for PlayerCount {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        PlayerCount::new(n).ok_or_else(|| format!("a table has 1 to {MAX_SEATS} seats, not {n}"))
    }
}

impl From<PlayerCount> for u8 {
    fn from(n: PlayerCount) -> u8 {
        n.0
    }
}

impl fmt::Display for PlayerCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} players", self.0)
    }
}

/// A set of seats, e.g. the seats that must act now (several at once while
/// passing in Cancellation Hearts) or the winners of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u16);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | (1 << seat.0))
    }

    pub const fn without(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 & !(1 << seat.0))
    }

    pub fn insert(&mut self, seat: Seat) {
        *self = self.with(seat);
    }

    pub fn remove(&mut self, seat: Seat) {
        *self = self.without(seat);
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-numbered seat in the set.
    pub const fn first(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(Seat(self.0.trailing_zeros() as u8))
        }
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let seat = Seat(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(seat)
        })
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(SeatSet::EMPTY, SeatSet::with)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for SeatSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let seats = Vec::<u8>::deserialize(d)?;
        seats
            .into_iter()
            .map(|s| {
                if s < MAX_SEATS {
                    Ok(Seat(s))
                } else {
                    Err(serde::de::Error::custom(format!("no seat {s}")))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(k: u8) -> PlayerCount {
        PlayerCount::new(k).unwrap()
    }

    #[test]
    fn left_right_wrap_around() {
        assert_eq!(Seat::new(3).left(n(4)), Seat::new(0));
        assert_eq!(Seat::new(0).right(n(4)), Seat::new(3));
        assert_eq!(Seat::new(5).right(n(6)), Seat::new(4));
    }

    #[test]
    fn across_is_floor_half_to_the_left() {
        // CH-3: with odd n no seat is exactly opposite; floor(n/2) to the left.
        assert_eq!(Seat::new(0).across(n(7)), Seat::new(3));
        assert_eq!(Seat::new(5).across(n(7)), Seat::new(1));
        assert_eq!(Seat::new(0).across(n(10)), Seat::new(5));
        // LH-3: partners are 0+2 and 1+3.
        assert_eq!(Seat::new(1).across(n(4)), Seat::new(3));
    }

    #[test]
    fn offset_agrees_with_modular_arithmetic() {
        for players in 1..=MAX_SEATS {
            for seat in 0..players {
                for steps in 0..=u8::MAX {
                    let expected =
                        ((u16::from(seat) + u16::from(steps)) % u16::from(players)) as u8;
                    assert_eq!(
                        Seat::new(seat).offset(steps, n(players)),
                        Seat::new(expected)
                    );
                }
            }
        }
    }

    #[test]
    fn distance_and_clockwise_order() {
        assert_eq!(Seat::new(4).distance_to(Seat::new(1), n(6)), 3);
        let order: Vec<_> = n(4).clockwise_from(Seat::new(2)).collect();
        assert_eq!(order, [2, 3, 0, 1].map(Seat::new));
    }

    #[test]
    fn seat_set_basics() {
        let mut set = SeatSet::EMPTY.with(Seat::new(9)).with(Seat::new(2));
        assert_eq!(set.len(), 2);
        assert_eq!(set.first(), Some(Seat::new(2)));
        set.remove(Seat::new(2));
        assert_eq!(set.iter().collect::<Vec<_>>(), [Seat::new(9)]);
        assert_eq!(n(10).all().len(), 10);
        assert_eq!(n(16).all().len(), 16);
    }

    #[test]
    fn player_count_range() {
        assert!(PlayerCount::new(0).is_none());
        assert!(PlayerCount::new(17).is_none());
        assert_eq!(n(4).seat(3), Some(Seat::new(3)));
        assert_eq!(n(4).seat(4), None);
    }
}
