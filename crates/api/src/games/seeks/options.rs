//! What a seek may ask of each kind: the table sizes it has and its named
//! variants (LH-3's partnerships, LH-13's contract, CH-8/CH-9's cancelled
//! tricks), each a value of one field of the kind's configuration. A seek
//! accepts a set of variants; a table takes, per group, the default when
//! every member accepts it, else the first variant every member accepts.
//!
//! The kinds' tables are here, one `impl Seekable` per engine, gathered by
//! the one list of kinds (`game_record::for_each_kind!`): a third game
//! does not compile until it says what a seek may ask of it.

use std::ops::RangeInclusive;

use serde_json::{Map, Value};

use rules_cancel_hearts::CancelHearts;
use rules_lost_heir::LostHeir;

/// One named variant: `field` of the configuration set to `value`.
#[derive(Debug)]
pub struct Variant {
    /// Its name in a seek (`bidder_contract`, `carry_over` …).
    pub name: &'static str,
    /// The field's value, as JSON text.
    pub value: &'static str,
    /// The table sizes at which it exists (Lost Heir's partnerships: 4).
    pub sizes: RangeInclusive<u8>,
    /// The ruling that defines it.
    pub rule: &'static str,
}

/// Variants that set the same field: a table has exactly one of them. The
/// first is the default (the rule texts' own, as the engine's default).
#[derive(Debug)]
pub struct VariantGroup {
    /// The configuration field the group sets.
    pub field: &'static str,
    pub variants: &'static [Variant],
}

/// What a seek may ask of one kind.
#[derive(Debug)]
pub struct SeekOptions {
    /// The table sizes the kind allows (LH-2, CH-1).
    pub sizes: RangeInclusive<u8>,
    pub groups: &'static [VariantGroup],
}

/// A kind a seek may ask for.
pub trait Seekable {
    const SEEK: SeekOptions;
}

impl Seekable for LostHeir {
    const SEEK: SeekOptions = SeekOptions {
        sizes: 2..=4,
        groups: &[
            VariantGroup {
                field: "bidder_contract",
                variants: &[
                    Variant {
                        name: "dealer_contract",
                        value: "false",
                        sizes: 2..=4,
                        rule: "LH-6",
                    },
                    Variant {
                        name: "bidder_contract",
                        value: "true",
                        sizes: 2..=4,
                        rule: "LH-13",
                    },
                ],
            },
            VariantGroup {
                field: "partnerships",
                variants: &[
                    Variant {
                        name: "partnerships",
                        value: "true",
                        sizes: 4..=4,
                        rule: "LH-3",
                    },
                    Variant {
                        name: "no_partnerships",
                        value: "false",
                        sizes: 2..=4,
                        rule: "LH-3",
                    },
                ],
            },
        ],
    };
}

impl Seekable for CancelHearts {
    const SEEK: SeekOptions = SeekOptions {
        sizes: 6..=10,
        groups: &[VariantGroup {
            field: "all_cancelled",
            variants: &[
                Variant {
                    name: "extend",
                    value: "\"extend\"",
                    sizes: 6..=10,
                    rule: "CH-8",
                },
                Variant {
                    name: "carry_over",
                    value: "\"carry_over\"",
                    sizes: 6..=10,
                    rule: "CH-9",
                },
            ],
        }],
    };
}

/// Builds [`of`] and [`variant_names`] from the registry's entries.
macro_rules! seek_table {
    ($($(#[$doc:meta])* $variant:ident = $title:literal, $engine:ty;)*) => {
        /// What a seek may ask of the kind named `kind`.
        pub fn of(kind: &str) -> Option<&'static SeekOptions> {
            $({
                static OPTIONS: SeekOptions = <$engine as Seekable>::SEEK;
                if kind == <$engine as cards::Ruleset>::KIND {
                    return Some(&OPTIONS);
                }
            })*
            None
        }

        /// The table sizes of every kind together (the document's bounds of
        /// a seek's `players`).
        pub fn all_sizes() -> std::ops::RangeInclusive<u8> {
            let mut sizes: Option<(u8, u8)> = None;
            $(
                let own = <$engine as Seekable>::SEEK.sizes;
                sizes = Some(match sizes {
                    None => (*own.start(), *own.end()),
                    Some((lo, hi)) => (lo.min(*own.start()), hi.max(*own.end())),
                });
            )*
            let (lo, hi) = sizes.unwrap_or((0, 0));
            lo..=hi
        }

        /// Every kind's variant names, in the registry's order (the
        /// document's `SeekVariant` enum).
        pub fn variant_names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $(
                for group in <$engine as Seekable>::SEEK.groups {
                    names.extend(group.variants.iter().map(|v| v.name));
                }
            )*
            names
        }
    };
}

game_record::for_each_kind!(seek_table);

/// A bit set of table sizes: bit n for n players.
pub type Sizes = u32;

/// A bit set of one kind's variants, in the order of its groups.
pub type Variants = u32;

impl SeekOptions {
    /// Every variant with its bit, group by group.
    fn bits(&self) -> impl Iterator<Item = (usize, Variants, &Variant)> {
        self.groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| group.variants.iter().map(move |v| (g, v)))
            .enumerate()
            .map(|(i, (g, v))| (g, 1 << i, v))
    }

    /// The bits of group `g`.
    fn group_bits(&self, g: usize) -> Variants {
        self.bits()
            .filter(|(group, _, _)| *group == g)
            .fold(0, |m, (_, bit, _)| m | bit)
    }

    /// The variants a seek naming `names` accepts: in each group, those it
    /// names, or all of them when it names none (any). `Err`: a name this
    /// kind does not have.
    pub fn accepted<'n>(&self, names: &[&'n str]) -> Result<Variants, &'n str> {
        let mut named = 0;
        for name in names {
            let (_, bit, _) = self.bits().find(|(_, _, v)| v.name == *name).ok_or(*name)?;
            named |= bit;
        }
        Ok((0..self.groups.len())
            .map(|g| match named & self.group_bits(g) {
                0 => self.group_bits(g),
                some => some,
            })
            .fold(0, |m, bits| m | bits))
    }

    /// The variant names of `accepted` that narrow a group (a group
    /// wholly accepted is "any" and not named), in the kind's order.
    pub fn names(&self, accepted: Variants) -> Vec<&'static str> {
        let mut out = Vec::new();
        for g in 0..self.groups.len() {
            let bits = self.group_bits(g);
            if accepted & bits != bits {
                out.extend(
                    self.bits()
                        .filter(|(group, bit, _)| *group == g && accepted & bit != 0)
                        .map(|(_, _, v)| v.name),
                );
            }
        }
        out
    }

    /// Whether a table of `size` can take one variant of every group from
    /// `accepted`.
    pub fn feasible_at(&self, size: u8, accepted: Variants) -> bool {
        (0..self.groups.len()).all(|g| self.choice(g, size, accepted).is_some())
    }

    /// The sizes from `min` to `max` that the kind has and at which
    /// `accepted` leaves a variant of every group.
    pub fn sizes(&self, min: u8, max: u8, accepted: Variants) -> Sizes {
        (min.max(*self.sizes.start())..=max.min(*self.sizes.end()))
            .filter(|&n| n < 32 && self.feasible_at(n, accepted))
            .fold(0, |m, n| m | 1 << n)
    }

    /// Group `g`'s variant for a table of `size` among `accepted`: the
    /// first (the default first) that exists at that size.
    fn choice(&self, g: usize, size: u8, accepted: Variants) -> Option<&Variant> {
        self.bits()
            .find(|(group, bit, v)| *group == g && accepted & bit != 0 && v.sizes.contains(&size))
            .map(|(_, _, v)| v)
    }

    /// The configuration of a table of `size` with `target` (the kind's
    /// default when `None`) and, per group, its variant among `accepted`.
    pub fn config(&self, size: u8, target: Option<i32>, accepted: Variants) -> Value {
        let mut config = Map::new();
        config.insert("players".into(), size.into());
        for (g, group) in self.groups.iter().enumerate() {
            if let Some(v) = self.choice(g, size, accepted) {
                let value = serde_json::from_str(v.value).expect("variant values are JSON");
                config.insert(group.field.into(), value);
            }
        }
        // After the variants: Lost Heir's partnerships reset the target.
        if let Some(target) = target {
            config.insert("target".into(), target.into());
        }
        Value::Object(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lost_heir() -> &'static SeekOptions {
        of("lost-heir").unwrap()
    }

    #[test]
    fn every_kind_has_options_and_the_names_are_unique() {
        for kind in game_record::GameKind::ALL {
            assert!(of(kind.code()).is_some(), "{kind}");
        }
        let mut names = variant_names();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a variant name means one thing");
    }

    /// The document bounds a seek's `players` by every kind's sizes
    /// (`resources::seeks::TableSizes`): 2 to 10.
    #[test]
    fn all_kinds_together_seat_two_to_ten() {
        assert_eq!(all_sizes(), 2..=10);
    }

    #[test]
    fn naming_no_variant_of_a_group_accepts_all_of_it() {
        let lh = lost_heir();
        let any = lh.accepted(&[]).unwrap();
        assert_eq!(any, 0b1111);
        assert_eq!(lh.names(any), Vec::<&str>::new());
        let bidder = lh.accepted(&["bidder_contract"]).unwrap();
        assert_eq!(lh.names(bidder), ["bidder_contract"]);
        assert_eq!(lh.accepted(&["carry_over"]), Err("carry_over"));
    }

    #[test]
    fn lh_3_partnerships_exist_at_four_players_only() {
        let lh = lost_heir();
        let partners = lh.accepted(&["partnerships"]).unwrap();
        assert_eq!(lh.sizes(2, 4, partners), 1 << 4);
        assert_eq!(lh.sizes(2, 3, partners), 0);
        let solo = lh.accepted(&["no_partnerships"]).unwrap();
        assert_eq!(lh.sizes(1, 9, solo), 0b11100);
    }

    #[test]
    fn a_table_takes_the_default_unless_excluded() {
        let lh = lost_heir();
        let any = lh.accepted(&[]).unwrap();
        assert_eq!(
            lh.config(4, None, any),
            json!({"players": 4, "bidder_contract": false, "partnerships": true})
        );
        assert_eq!(
            lh.config(3, Some(30), any),
            json!({"players": 3, "bidder_contract": false, "partnerships": false, "target": 30})
        );
        let bidder = lh
            .accepted(&["bidder_contract", "no_partnerships"])
            .unwrap();
        assert_eq!(
            lh.config(4, None, bidder),
            json!({"players": 4, "bidder_contract": true, "partnerships": false})
        );
        let ch = of("cancellation-hearts").unwrap();
        let carry = ch.accepted(&["carry_over"]).unwrap();
        assert_eq!(
            ch.config(7, None, carry),
            json!({"players": 7, "all_cancelled": "carry_over"})
        );
    }

    /// Every table a seek can ask for is a configuration the engine takes.
    #[test]
    fn every_feasible_table_is_a_valid_configuration() {
        for kind in crate::games::kinds::all() {
            let options = of(kind.name()).unwrap();
            let all = (0..options.bits().count()).fold(0, |m, i| m | 1 << i);
            for accepted in 1..=all {
                for size in options.sizes.clone() {
                    if !options.feasible_at(size, accepted) {
                        continue;
                    }
                    let config = options.config(size, None, accepted);
                    let game = kind.new_game(&config, cards::Seed::from_u64(1));
                    assert!(game.is_ok(), "{config}: {:?}", game.err());
                }
            }
        }
    }
}
