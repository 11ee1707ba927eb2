//! The verifiable shuffle: the server's seed commitment, the dealing seed
//! that mixes the server's seed with every player's entropy, and every deal
//! recomputed from it, independently of the engines.
//!
//! The exact constructions are specified in `docs/fairness.md`; the test
//! vectors below pin them, so a change must be deliberate.

use cards::heir::{self, HeirCard};
use cards::standard::{self, Card};
use cards::{CardKind, Hand, Seed, random_below, shuffle};
use sha2::{Digest, Sha256};

use crate::engines::codes;
use crate::kinds::GameKind;

/// The domain tag that opens the dealing-seed input, so that no other use
/// of SHA-256 in the project can produce the same bytes by accident.
pub const DEALING_SEED_DOMAIN: &str = "cardgames dealing seed v1";

/// The commitment the server publishes before any card is dealt:
/// the SHA-256 of the 32 raw bytes of its secret seed, as 64 lower-case hex
/// digits. Plain SHA-256, so that anyone can check it with `sha256sum`.
pub fn commitment(server_seed: &Seed) -> String {
    hex::encode(Sha256::digest(server_seed.0))
}

/// The seed every deal is shuffled from (`cards::shuffle`, G-1):
///
/// ```text
/// field(b)     = u32_be(len(b)) || b
/// entropy(e)   = 0x00                    when the seat gave none
///              | 0x01 || field(e)        when it gave e (UTF-8 bytes, may be empty)
/// dealing_seed = SHA-256( field("cardgames dealing seed v1")
///                      || field(server_seed)            -- its 32 raw bytes
///                      || u32_be(number of seats)
///                      || entropy(seat 0) || … || entropy(seat n-1) )
/// ```
///
/// Every part is length-prefixed, so no two different inputs share an
/// encoding; a player's entropy changes the deal even if the server's seed
/// was chosen in advance, and the server's seed keeps the deal unpredictable
/// to players.
pub fn dealing_seed<E: AsRef<[u8]>>(server_seed: &Seed, entropy_by_seat: &[Option<E>]) -> Seed {
    let mut hasher = Sha256::new();
    update_field(&mut hasher, DEALING_SEED_DOMAIN.as_bytes());
    update_field(&mut hasher, &server_seed.0);
    hasher.update(seat_count(entropy_by_seat.len()).to_be_bytes());
    for entropy in entropy_by_seat {
        match entropy {
            None => hasher.update([0u8]),
            Some(bytes) => {
                hasher.update([1u8]);
                update_field(&mut hasher, bytes.as_ref());
            }
        }
    }
    Seed(hasher.finalize().into())
}

fn seat_count(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 seats")
}

fn update_field(hasher: &mut Sha256, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("a field is shorter than 4 GiB");
    hasher.update(len.to_be_bytes());
    hasher.update(bytes);
}

/// One round's deal: the dealer and every hand (card codes in deck order),
/// and the kitty for Cancellation Hearts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    pub dealer: u8,
    pub hands: Vec<Vec<String>>,
    /// Cancellation Hearts only (CH-1); `None` for Lost Heir.
    pub kitty: Option<Vec<String>>,
}

/// The deals of the first `rounds` rounds, recomputed from the dealing seed
/// alone (deals never depend on the moves):
///
/// * the seed keys `cards::GameRng` (ChaCha8); one stream serves the game;
/// * first dealer: `random_below(n)` (LH-4, CH-2); the deal passes left;
/// * each round shuffles the deck in index order with `cards::shuffle`,
///   continuing the same stream: Lost Heir's 32 cards (30 without the Blanks
///   for 3 players, LH-2), or two standard decks for Cancellation Hearts (CH-1);
/// * cards go one at a time clockwise from the dealer's left; in
///   Cancellation Hearts each player gets floor(104 / n) and the rest is the kitty.
///
/// `players` must be valid for the kind.
pub fn deals(kind: GameKind, players: u8, dealing_seed: &Seed, rounds: usize) -> Vec<Deal> {
    let mut rng = dealing_seed.rng();
    let mut dealer = random_below(&mut rng, u32::from(players)) as u8;
    let mut out = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let deal = match kind {
            GameKind::LostHeir => {
                let (mut deck, len) = heir::deck(players != 3);
                shuffle(&mut deck[..len], &mut rng);
                deal_out::<HeirCard>(&deck[..len], players, dealer, len / usize::from(players))
                    .without_kitty()
            }
            GameKind::CancellationHearts => {
                let mut deck = standard::double_deck();
                shuffle(&mut deck, &mut rng);
                deal_out::<Card>(&deck, players, dealer, deck.len() / usize::from(players))
            }
        };
        out.push(deal);
        dealer = (dealer + 1) % players;
    }
    out
}

/// Deals `per_hand` cards to each seat, one at a time from the dealer's
/// left; what is left over is the kitty.
fn deal_out<C: CardKind + std::fmt::Display>(
    deck: &[C],
    players: u8,
    dealer: u8,
    per_hand: usize,
) -> Deal {
    let n = usize::from(players);
    let dealt = per_hand * n;
    let mut hands = vec![Hand::<C>::EMPTY; n];
    for (i, &card) in deck[..dealt].iter().enumerate() {
        let seat = (usize::from(dealer) + 1 + i % n) % n;
        hands[seat]
            .insert(card)
            .expect("a deck holds at most two copies of a card");
    }
    let kitty: Hand<C> = deck[dealt..].iter().copied().collect();
    Deal {
        dealer,
        hands: hands.iter().map(codes).collect(),
        kitty: Some(codes(&kitty)),
    }
}

impl Deal {
    fn without_kitty(self) -> Deal {
        Deal {
            kitty: None,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_from_hex(s: &str) -> Seed {
        s.parse().unwrap()
    }

    #[test]
    fn commitment_is_plain_sha256_of_the_seed_bytes() {
        // sha256 of 32 zero bytes.
        assert_eq!(
            commitment(&Seed([0; 32])),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn dealing_seed_test_vector() {
        let server = seed_from_hex(&"00".repeat(31).chain_hex("01"));
        let entropy = [Some("alice's dice: 4 2 6"), None, Some("")];
        assert_eq!(
            dealing_seed(&server, &entropy).to_string(),
            DEALING_SEED_VECTOR
        );
    }

    /// Pinned in `docs/fairness.md` too.
    const DEALING_SEED_VECTOR: &str =
        "002e36e086242ef546328a9de7298f8d08044cc31bd8ab3ce25b41dd72b72c8d";

    /// The worked example of `docs/fairness.md`.
    #[test]
    fn fairness_doc_worked_example() {
        let server: Seed = format!("01{}", "00".repeat(31)).parse().unwrap();
        assert_eq!(
            commitment(&server),
            "01d0fabd251fcbbe2b93b4b927b26ad2a1a99077152e45ded1e678afa45dbec5"
        );
        let entropy = [
            Some("alice rolled 1"),
            None,
            Some("carol rolled 7"),
            Some("dave rolled 10"),
        ];
        let seed = dealing_seed(&server, &entropy);
        assert_eq!(
            seed.to_string(),
            "7a4da2d4a894733c5b0c63697b6863726baae728b57d07da7300a2edfd04bc48"
        );
        let round_one = &deals(GameKind::LostHeir, 4, &seed, 1)[0];
        assert_eq!(round_one.dealer, 2);
        assert_eq!(
            round_one.hands[0].join(" "),
            "toronto-policeman toronto-sergeant winnipeg-captain winnipeg-chief \
             winnipeg-mayor halifax-detective montreal-detective heir"
        );
    }

    trait ChainHex {
        fn chain_hex(self, tail: &str) -> String;
    }
    impl ChainHex for String {
        fn chain_hex(mut self, tail: &str) -> String {
            self.push_str(tail);
            self
        }
    }

    #[test]
    fn every_part_of_the_input_changes_the_dealing_seed() {
        let server = Seed::from_u64(7);
        let base = dealing_seed(&server, &[Some("a"), None]);
        assert_ne!(base, dealing_seed(&Seed::from_u64(8), &[Some("a"), None]));
        assert_ne!(base, dealing_seed(&server, &[Some("b"), None]));
        assert_ne!(base, dealing_seed(&server, &[Some("a"), Some("")]));
        assert_ne!(base, dealing_seed(&server, &[None, Some("a")]));
        assert_ne!(base, dealing_seed(&server, &[Some("a"), None, None]));
        // Length prefixes: moving bytes between seats changes the seed.
        assert_ne!(
            dealing_seed(&server, &[Some("ab"), Some("c")]),
            dealing_seed(&server, &[Some("a"), Some("bc")])
        );
    }
}
