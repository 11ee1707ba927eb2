//! Which tables the active seekers of one kind make now: a pure function
//! of the seekers (first come first served) and the time, so that every
//! process that holds the kind's lock decides the same, and tests can
//! check it without a server (docs/quick-play.md, "When a table forms").
//!
//! For each seeker in order (the *anchor*), its group is built greedily:
//! every later seeker is taken, in order, if it is another player, each
//! member's rating is inside every other's range, and the group can still
//! sit at a table every member accepts (size, variants, target, rated,
//! clock) with room for it. Then:
//!
//! 1. **Full**: the group has as many members as the largest table all of
//!    them accept: it forms at once.
//! 2. **Quiet**: nobody joined the group for the gathering spell (its
//!    newest member is that old): the longest head of the group that makes
//!    a table all of its members accept forms.
//! 3. **Bots**: the anchor's bots time has come: the group of seekers whose
//!    bots time has come too, at the anchor's bot level, forms at the
//!    smallest size all accept with bots in the empty seats, once it has
//!    as many people as each member asked for (`min_humans`).
//!
//! Once a table forms its members leave the queue and the look starts
//! again from the first seeker; it ends when no anchor forms a table.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::options::{SeekOptions, Sizes, Variants};
use crate::games::status::BotLevel;

/// One active seek, as the matcher needs it.
#[derive(Debug, Clone)]
pub struct Seeker {
    pub player_id: String,
    pub created_at: DateTime<Utc>,
    /// The sizes accepted (bit n: n players), variants already counted.
    pub sizes: Sizes,
    pub variants: Variants,
    /// `None`: any.
    pub target: Option<i32>,
    pub rated: Option<bool>,
    /// `None`: any; `Some(0)`: no clock; else seconds per move.
    pub clock: Option<i64>,
    /// The seeker's current rating of the kind.
    pub rating: f64,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    pub bots: Option<BotsWanted>,
}

/// A seek's bots fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotsWanted {
    /// From when bots may fill the empty seats.
    pub at: DateTime<Utc>,
    pub level: BotLevel,
    /// The fewest people (the seeker included) the seeker sits down with.
    pub min_humans: u8,
}

impl Seeker {
    /// Whether `other`'s rating is inside this seeker's range.
    fn admits(&self, other: &Seeker) -> bool {
        self.rating_min.is_none_or(|m| other.rating >= f64::from(m))
            && self.rating_max.is_none_or(|m| other.rating <= f64::from(m))
    }
}

/// A table to form: who sits where and how it is set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The seekers seated, by their index in the slice given, first come
    /// first: seat i is `members[i]`.
    pub members: Vec<usize>,
    pub size: u8,
    /// The variants every member accepts (`SeekOptions::config` picks).
    pub variants: Variants,
    pub target: Option<i32>,
    pub rated: bool,
    /// Seconds per move; `None`: no clock.
    pub clock: Option<i64>,
    /// The level of the bots in seats `members.len()..size`, if any.
    pub bots: Option<BotLevel>,
}

/// What the matcher decides with: the kind's options, the time, the
/// gathering spell, and how many more tables with expert bots each player
/// may start (`BOT_GAMES_PER_PLAYER`; a player not named: no limit).
#[derive(Debug)]
pub struct Rules<'a> {
    pub options: &'a SeekOptions,
    pub now: DateTime<Utc>,
    pub gather: chrono::Duration,
    pub expert_room: HashMap<String, u32>,
}

/// What every member of a group accepts.
#[derive(Debug, Clone)]
struct Joint {
    members: Vec<usize>,
    sizes: Sizes,
    variants: Variants,
    target: Option<i32>,
    rated: Option<bool>,
    clock: Option<i64>,
}

/// Two wishes of one setting, one of which may be "any": the one they
/// share, or `Err` when both name different values.
fn both<T: PartialEq + Copy>(a: Option<T>, b: Option<T>) -> Result<Option<T>, ()> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => Err(()),
        (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
        (None, None) => Ok(None),
    }
}

impl Joint {
    fn of(i: usize, s: &Seeker) -> Joint {
        Joint {
            members: vec![i],
            sizes: s.sizes,
            variants: s.variants,
            target: s.target,
            rated: s.rated,
            clock: s.clock,
        }
    }

    /// The group with seeker `j` too, if it is another player whom every
    /// member admits and who admits them, and they share every setting.
    fn with(&self, j: usize, all: &[Seeker]) -> Option<Joint> {
        let s = &all[j];
        let compatible = self.members.iter().all(|&m| {
            let member = &all[m];
            member.player_id != s.player_id && member.admits(s) && s.admits(member)
        });
        if !compatible {
            return None;
        }
        let mut members = self.members.clone();
        members.push(j);
        Some(Joint {
            members,
            sizes: self.sizes & s.sizes,
            variants: self.variants & s.variants,
            target: both(self.target, s.target).ok()?,
            rated: both(self.rated, s.rated).ok()?,
            clock: both(self.clock, s.clock).ok()?,
        })
    }

    /// The sizes every member accepts at which they share a variant of
    /// every group, smallest first.
    fn feasible<'o>(&self, options: &'o SeekOptions) -> impl Iterator<Item = u8> + use<'o> {
        let (sizes, variants) = (self.sizes, self.variants);
        (0u8..32).filter(move |&n| sizes & (1 << n) != 0 && options.feasible_at(n, variants))
    }

    /// The largest table the group can make.
    fn largest(&self, options: &SeekOptions) -> Option<u8> {
        self.feasible(options).last()
    }

    /// Whether the group fits a table it can make.
    fn has_room(&self, options: &SeekOptions) -> bool {
        self.largest(options)
            .is_some_and(|n| usize::from(n) >= self.members.len())
    }

    fn table(&self, size: u8, bots: Option<BotLevel>) -> Table {
        Table {
            members: self.members.clone(),
            size,
            variants: self.variants,
            target: self.target,
            rated: self.rated.unwrap_or(true),
            clock: self.clock.filter(|&secs| secs > 0),
            bots,
        }
    }
}

/// The group of `anchor`: later seekers among `open` that `may_join`, taken
/// in order while the group keeps room, until it is full.
fn group(
    anchor: usize,
    open: &[usize],
    all: &[Seeker],
    options: &SeekOptions,
    may_join: impl Fn(&Seeker) -> bool,
) -> Joint {
    let mut joint = Joint::of(anchor, &all[anchor]);
    for &j in open.iter().filter(|&&j| j > anchor) {
        if joint.largest(options) == Some(joint.members.len() as u8) {
            break;
        }
        if !may_join(&all[j]) {
            continue;
        }
        if let Some(bigger) = joint.with(j, all).filter(|g| g.has_room(options)) {
            joint = bigger;
        }
    }
    joint
}

/// The group of `members` (in order) rebuilt, if they still go together.
fn rebuild(members: &[usize], all: &[Seeker]) -> Option<Joint> {
    let (&first, rest) = members.split_first()?;
    rest.iter()
        .try_fold(Joint::of(first, &all[first]), |g, &j| g.with(j, all))
}

/// The table `anchor` forms now, if any (the module's rules 1 to 3).
fn table_of(anchor: usize, open: &[usize], all: &[Seeker], rules: &Rules<'_>) -> Option<Table> {
    let options = rules.options;
    let people = group(anchor, open, all, options, |_| true);
    let n = people.members.len();
    if people.largest(options) == Some(n as u8) {
        return Some(people.table(n as u8, None));
    }
    let newest = people.members.iter().map(|&m| all[m].created_at).max()?;
    if newest + rules.gather <= rules.now {
        for k in (1..=n).rev() {
            let Some(head) = rebuild(&people.members[..k], all) else {
                continue;
            };
            if head.feasible(options).any(|size| usize::from(size) == k) {
                return Some(head.table(k as u8, None));
            }
        }
    }
    with_bots(anchor, open, all, rules)
}

/// Rule 3: the anchor's table with bots, if its bots time has come.
fn with_bots(anchor: usize, open: &[usize], all: &[Seeker], rules: &Rules<'_>) -> Option<Table> {
    let options = rules.options;
    let wanted = all[anchor].bots.filter(|b| b.at <= rules.now)?;
    if wanted.level == BotLevel::Expert
        && rules
            .expert_room
            .get(&all[anchor].player_id)
            .is_some_and(|&room| room == 0)
    {
        return None;
    }
    let ready = |s: &Seeker| {
        s.bots
            .is_some_and(|b| b.at <= rules.now && b.level == wanted.level)
    };
    let mut members = group(anchor, open, all, options, ready).members;
    // Too few people for someone's `min_humans`: the latest of those who
    // ask for the most leaves, until everyone is content (or the anchor
    // would have to leave).
    loop {
        let most = members
            .iter()
            .map(|&m| all[m].bots.map_or(1, |b| b.min_humans))
            .max()?;
        if members.len() >= usize::from(most) {
            break;
        }
        let leaver = members
            .iter()
            .rposition(|&m| all[m].bots.map_or(1, |b| b.min_humans) == most)?;
        if leaver == 0 {
            return None;
        }
        members.remove(leaver);
    }
    let joint = rebuild(&members, all)?;
    let size = joint
        .feasible(options)
        .find(|&size| usize::from(size) >= members.len())?;
    Some(joint.table(size, Some(wanted.level)))
}

/// The tables `seekers` (first come first) make now, in the order they
/// form. Each seeker sits at most once.
pub fn form_tables(seekers: &[Seeker], rules: &Rules<'_>) -> Vec<Table> {
    let mut expert_room = rules.expert_room.clone();
    let mut open: Vec<usize> = (0..seekers.len()).collect();
    let mut tables = Vec::new();
    'look: loop {
        for &anchor in &open {
            let rules_now = Rules {
                options: rules.options,
                now: rules.now,
                gather: rules.gather,
                expert_room: expert_room.clone(),
            };
            let Some(table) = table_of(anchor, &open, seekers, &rules_now) else {
                continue;
            };
            if table.bots == Some(BotLevel::Expert)
                && let Some(room) = expert_room.get_mut(&seekers[anchor].player_id)
            {
                *room = room.saturating_sub(1);
            }
            open.retain(|i| !table.members.contains(i));
            tables.push(table);
            continue 'look;
        }
        return tables;
    }
}

/// The table a waiting seeker would sit at as the queue stands: how many
/// people its group has found (the seeker included), and the smallest and
/// largest table those people can make together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub humans: u8,
    /// At this many the group may sit down once it has been quiet for the
    /// gathering spell (or with bots in the other seats).
    pub smallest: u8,
    /// At this many the table forms at once.
    pub largest: u8,
}

/// For each seeker, the group it belongs to now: the group of the first
/// anchor (first come first) that takes it, as `form_tables` would build
/// it, every seeker still waiting. Cost: one group per anchor until every
/// seeker has one (quadratic in the seekers at worst, as a look is).
pub fn found(seekers: &[Seeker], options: &SeekOptions) -> Vec<Option<Found>> {
    let open: Vec<usize> = (0..seekers.len()).collect();
    let mut found: Vec<Option<Found>> = vec![None; seekers.len()];
    for anchor in 0..seekers.len() {
        if found[anchor].is_some() {
            continue;
        }
        let joint = group(anchor, &open, seekers, options, |_| true);
        let humans = joint.members.len();
        let smallest = joint.feasible(options).find(|&n| usize::from(n) >= humans);
        let (Some(smallest), Some(largest)) = (smallest, joint.largest(options)) else {
            continue;
        };
        let at = Found {
            humans: u8::try_from(humans).unwrap_or(u8::MAX),
            smallest,
            largest,
        };
        for &m in &joint.members {
            found[m].get_or_insert(at);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::seeks::options;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    fn sizes(range: std::ops::RangeInclusive<u8>) -> Sizes {
        range.fold(0, |m, n| m | 1 << n)
    }

    /// A Lost Heir seeker `p` arriving at `t` for `range`, any variant.
    fn seeker(p: &str, t: i64, range: std::ops::RangeInclusive<u8>) -> Seeker {
        Seeker {
            player_id: p.to_owned(),
            created_at: at(t),
            sizes: sizes(range),
            variants: 0b1111,
            target: None,
            rated: None,
            clock: None,
            rating: 1500.0,
            rating_min: None,
            rating_max: None,
            bots: None,
        }
    }

    fn rules(now: i64) -> Rules<'static> {
        Rules {
            options: options::of("lost-heir").unwrap(),
            now: at(now),
            gather: chrono::Duration::seconds(30),
            expert_room: HashMap::new(),
        }
    }

    fn seated(tables: &[Table]) -> Vec<(Vec<usize>, u8)> {
        tables.iter().map(|t| (t.members.clone(), t.size)).collect()
    }

    #[test]
    fn a_group_forms_at_once_when_it_reaches_the_largest_size_all_accept() {
        let s = [
            seeker("a", 0, 2..=3),
            seeker("b", 1, 2..=4),
            seeker("c", 2, 3..=4),
        ];
        assert_eq!(seated(&form_tables(&s, &rules(2))), [(vec![0, 1, 2], 3)]);
        // Two of them alone wait: 3 is the most they both accept.
        assert_eq!(seated(&form_tables(&s[..2], &rules(2))), []);
    }

    #[test]
    fn a_quiet_group_forms_at_the_size_it_has() {
        let s = [seeker("a", 0, 2..=4), seeker("b", 10, 2..=4)];
        assert_eq!(seated(&form_tables(&s, &rules(39))), []);
        assert_eq!(seated(&form_tables(&s, &rules(40))), [(vec![0, 1], 2)]);
    }

    #[test]
    fn each_seeker_is_counted_in_the_first_group_that_takes_it() {
        let mut s = [
            seeker("a", 0, 3..=4),
            seeker("b", 1, 2..=4),
            seeker("c", 2, 2..=2),
            seeker("d", 3, 2..=2),
        ];
        s[1].clock = Some(0);
        s[2].clock = Some(600);
        s[3].rating_max = Some(1400);
        let lh = options::of("lost-heir").unwrap();
        let f = found(&s, lh);
        let ab = Some(Found {
            humans: 2,
            smallest: 3,
            largest: 4,
        });
        // a's group is a and b; c cannot sit with a (sizes) nor b (the
        // clock), so it is a group of its own; d admits nobody rated 1500.
        assert_eq!(
            f,
            [
                ab,
                ab,
                Some(Found {
                    humans: 1,
                    smallest: 2,
                    largest: 2
                }),
                Some(Found {
                    humans: 1,
                    smallest: 2,
                    largest: 2
                })
            ]
        );
        // Nothing forms from that queue yet: the counts are of people waiting.
        assert_eq!(seated(&form_tables(&s, &rules(3))), []);
    }

    #[test]
    fn nobody_sits_twice_nor_with_themselves() {
        let s = [
            seeker("a", 0, 2..=2),
            seeker("a", 1, 2..=2),
            seeker("b", 2, 2..=2),
        ];
        assert_eq!(seated(&form_tables(&s, &rules(2))), [(vec![0, 2], 2)]);
    }

    #[test]
    fn ratings_must_be_inside_each_others_range() {
        let mut s = [
            seeker("a", 0, 2..=2),
            seeker("b", 1, 2..=2),
            seeker("c", 2, 2..=2),
        ];
        s[0].rating_min = Some(1600);
        s[1].rating = 1550.0;
        s[2].rating = 1700.0;
        assert_eq!(seated(&form_tables(&s, &rules(2))), [(vec![0, 2], 2)]);
        s[2].rating_max = Some(1400);
        assert_eq!(seated(&form_tables(&s, &rules(2))), []);
    }

    #[test]
    fn settings_named_by_one_bind_all_and_conflicts_keep_apart() {
        let mut s = [
            seeker("a", 0, 2..=2),
            seeker("b", 1, 2..=2),
            seeker("c", 2, 2..=2),
        ];
        s[0].target = Some(30);
        s[1].target = Some(20);
        s[2].clock = Some(600);
        let tables = form_tables(&s, &rules(2));
        assert_eq!(seated(&tables), [(vec![0, 2], 2)]);
        assert_eq!(tables[0].target, Some(30));
        assert_eq!(tables[0].clock, Some(600));
        assert!(tables[0].rated);
    }

    #[test]
    fn variants_narrow_the_sizes() {
        let lh = options::of("lost-heir").unwrap();
        let mut s = [seeker("a", 0, 2..=4), seeker("b", 1, 2..=4)];
        let partners = lh.accepted(&["partnerships"]).unwrap();
        s[0].variants = partners;
        s[0].sizes = lh.sizes(2, 4, partners);
        // b alone could sit at 2; with a, only at 4: not yet.
        assert_eq!(seated(&form_tables(&s, &rules(100))), []);
    }

    #[test]
    fn bots_fill_the_empty_seats_once_the_wait_is_over() {
        let mut s = [seeker("a", 0, 3..=4), seeker("b", 5, 4..=4)];
        for x in &mut s {
            x.bots = Some(BotsWanted {
                at: x.created_at + chrono::Duration::seconds(60),
                level: BotLevel::Sensible,
                min_humans: 2,
            });
        }
        assert_eq!(seated(&form_tables(&s, &rules(64))), []);
        let tables = form_tables(&s, &rules(65));
        assert_eq!(seated(&tables), [(vec![0, 1], 4)]);
        assert_eq!(tables[0].bots, Some(BotLevel::Sensible));
        // Alone, a asks for two people: nothing.
        assert_eq!(seated(&form_tables(&s[..1], &rules(100))), []);
        s[0].bots.as_mut().unwrap().min_humans = 1;
        assert_eq!(seated(&form_tables(&s[..1], &rules(100))), [(vec![0], 3)]);
    }

    #[test]
    fn an_expert_table_waits_for_room_under_the_players_limit() {
        let mut s = [seeker("a", 0, 2..=2)];
        s[0].bots = Some(BotsWanted {
            at: at(0),
            level: BotLevel::Expert,
            min_humans: 1,
        });
        let mut r = rules(1);
        r.expert_room.insert("a".into(), 0);
        assert_eq!(seated(&form_tables(&s, &r)), []);
        r.expert_room.insert("a".into(), 1);
        assert_eq!(seated(&form_tables(&s, &r)), [(vec![0], 2)]);
    }

    #[test]
    fn first_come_first_served() {
        let s = [
            seeker("a", 0, 2..=2),
            seeker("b", 1, 2..=2),
            seeker("c", 2, 2..=2),
            seeker("d", 3, 2..=2),
            seeker("e", 4, 2..=2),
        ];
        assert_eq!(
            seated(&form_tables(&s, &rules(4))),
            [(vec![0, 1], 2), (vec![2, 3], 2)]
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// A Lost Heir seeker drawn at random: a range of sizes, the
        /// variants (a subset of every group, each group non-empty), some
        /// settings, a rating and a range, perhaps bots.
        fn any_seeker() -> impl Strategy<Value = Seeker> {
            let lh = options::of("lost-heir").unwrap();
            (
                (0usize..6, 2u8..=4, 0u8..=2, 1u32..4, 1u32..4),
                (
                    proptest::option::of(prop_oneof![Just(20), Just(30)]),
                    proptest::option::of(any::<bool>()),
                ),
                (
                    proptest::option::of(prop_oneof![Just(0i64), Just(600)]),
                    1400.0f64..1600.0,
                ),
                (
                    proptest::option::of(1400i32..1500),
                    proptest::option::of(1500i32..1600),
                ),
                (
                    0i64..60,
                    proptest::option::of((0i64..60, 0usize..3, 1u8..=4)),
                ),
            )
                .prop_map(
                    move |(
                        (p, min, extra, contract, partners),
                        (target, rated),
                        (clock, rating),
                        (lo, hi),
                        (t, bots),
                    )| {
                        let variants = contract | partners << 2;
                        let max = (min + extra).min(4);
                        let levels = [BotLevel::Random, BotLevel::Sensible, BotLevel::Expert];
                        Seeker {
                            player_id: format!("p{p}"),
                            created_at: at(t),
                            sizes: lh.sizes(min, max, variants),
                            variants,
                            target,
                            rated,
                            clock,
                            rating,
                            rating_min: lo,
                            rating_max: hi,
                            bots: bots.map(|(after, level, min_humans)| BotsWanted {
                                at: at(t + after),
                                level: levels[level],
                                min_humans,
                            }),
                        }
                    },
                )
                .prop_filter("a seek with a table size", |s| s.sizes != 0)
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

            /// Every table holds every member's constraints, nobody sits
            /// twice, and what is left forms nothing more at that time.
            #[test]
            fn tables_keep_every_constraint_and_leave_nothing_to_form(
                seekers in proptest::collection::vec(any_seeker(), 0..14),
                now in 0i64..200,
                gather in 0i64..60,
                room in proptest::option::of(0u32..2),
            ) {
                let lh = options::of("lost-heir").unwrap();
                let mut r = rules(now);
                r.gather = chrono::Duration::seconds(gather);
                if let Some(room) = room {
                    for s in &seekers {
                        r.expert_room.insert(s.player_id.clone(), room);
                    }
                }
                let tables = form_tables(&seekers, &r);
                let mut seated = std::collections::HashSet::new();
                for t in &tables {
                    let n = t.members.len();
                    prop_assert!(n >= 1 && n <= usize::from(t.size));
                    prop_assert!(lh.feasible_at(t.size, t.variants));
                    let players: std::collections::HashSet<&str> =
                        t.members.iter().map(|&m| seekers[m].player_id.as_str()).collect();
                    prop_assert_eq!(players.len(), n, "nobody twice at a table");
                    for &m in &t.members {
                        prop_assert!(seated.insert(m), "a seek seated twice");
                        let s = &seekers[m];
                        prop_assert!(s.sizes & (1 << t.size) != 0);
                        prop_assert_eq!(t.variants & s.variants, t.variants);
                        prop_assert!(s.target.is_none() || s.target == t.target);
                        prop_assert!(s.rated.is_none() || s.rated == Some(t.rated));
                        let clock_kept = match s.clock {
                            None => true,
                            Some(0) => t.clock.is_none(),
                            some => t.clock == some,
                        };
                        prop_assert!(clock_kept);
                        for &o in &t.members {
                            prop_assert!(o == m || s.admits(&seekers[o]));
                        }
                        if let Some(level) = t.bots {
                            let b = s.bots.expect("a member of a table with bots asked for them");
                            prop_assert!(b.at <= r.now && b.level == level);
                            prop_assert!(usize::from(b.min_humans) <= n);
                        }
                    }
                    if t.bots.is_none() {
                        prop_assert_eq!(n, usize::from(t.size), "a table without bots is full");
                    }
                }
                let left: Vec<Seeker> = (0..seekers.len())
                    .filter(|i| !seated.contains(i))
                    .map(|i| seekers[i].clone())
                    .collect();
                let mut again = rules(now);
                again.gather = r.gather;
                // The room the tables formed used up.
                for (player, room) in &r.expert_room {
                    let used = tables
                        .iter()
                        .filter(|t| t.bots == Some(BotLevel::Expert))
                        .filter(|t| &seekers[t.members[0]].player_id == player)
                        .count() as u32;
                    again.expert_room.insert(player.clone(), room.saturating_sub(used));
                }
                prop_assert_eq!(form_tables(&left, &again), vec![]);
            }
        }
    }
}
