//! A seek as asked, checked against its kind and turned into the row it is
//! stored as. Every refusal here is a 422 that changes nothing: a kind the
//! server does not play, no table size in range (`no_table_size`), a
//! variant the kind does not have (`unknown_variant`), a target or
//! configuration the engine refuses (its own code and ruling), a rating
//! range the seeker is outside of (`rating_range_excludes_you`), a clock
//! or a bots fallback out of bounds.

use chrono::{DateTime, Utc};

use super::options::{self, SeekOptions, Sizes, Variants};
use crate::config::SeekSettings;
use crate::db::seeks::{SeekRow, SeekStatus};
use crate::games::domain::MAX_MOVE_DEADLINE_SECS;
use crate::games::error::{Refusal, ServiceError};
use crate::games::kinds;
use crate::games::status::BotLevel;

/// A seek: a kind and what the seeker accepts (the HTTP body in the
/// service's words; `None` is "any").
#[derive(Debug, Clone, Default)]
pub struct SeekRequest {
    /// A kind's name, as `games::kinds` knows it.
    pub kind: &'static str,
    /// The table sizes accepted, inclusive; every size of the kind when
    /// `None`.
    pub players: Option<(u8, u8)>,
    pub target: Option<i32>,
    /// Variant names: per group, those named; a group none is named of: any.
    pub variants: Vec<String>,
    pub rated: Option<bool>,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    /// Seconds per move; `Some(0)`: no clock.
    pub move_deadline_secs: Option<u64>,
    pub bots: Option<BotsRequest>,
    /// The seeker's contribution to the shuffle, given to their seat.
    pub entropy: Option<String>,
}

/// "After `after_secs`, start with bots at `level` in the empty seats,
/// with at least `min_humans` people (me included)".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotsRequest {
    pub after_secs: u64,
    pub level: BotLevel,
    pub min_humans: u8,
}

/// The seek `request` of `player_id` (whose rating of the kind is
/// `rating`) made at `now`, checked: the row to store, or why not.
pub(super) fn checked(
    request: &SeekRequest,
    player_id: &str,
    rating: f64,
    now: DateTime<Utc>,
    settings: &SeekSettings,
) -> Result<SeekRow, ServiceError> {
    let options = options::of(request.kind)
        .ok_or_else(|| ServiceError::invalid("unknown_kind", "no such game kind"))?;
    let (min, max) = request
        .players
        .unwrap_or((*options.sizes.start(), *options.sizes.end()));
    let names: Vec<&str> = request.variants.iter().map(String::as_str).collect();
    let accepted = options.accepted(&names).map_err(|name| {
        ServiceError::invalid(
            "unknown_variant",
            format!(
                "{} has no variant `{name}`; its variants: {}",
                request.kind,
                all_names(options)
            ),
        )
    })?;
    let sizes = table_sizes(options, request.kind, min, max, accepted)?;
    check_configs(request, options, sizes, accepted)?;
    check_rating_range(request, rating)?;
    let clock = checked_clock(request.move_deadline_secs)?;
    check_bots(request.bots, sizes, settings)?;
    let entropy = crate::games::lifecycle::checked_entropy(request.entropy.as_deref())?;
    let expires_at = now + duration(settings.ttl);
    let bots_at = request
        .bots
        .map(|b| now + chrono::Duration::seconds(b.after_secs as i64));
    let gather_at = now + duration(settings.gather);
    let mut row = SeekRow {
        id: uuid::Uuid::new_v4().to_string(),
        player_id: player_id.to_owned(),
        kind: request.kind.to_owned(),
        status: SeekStatus::Active,
        min_players: i32::from(min),
        max_players: i32::from(max),
        sizes: sizes as i32,
        target: request.target,
        variants: serde_json::to_string(&options.names(accepted))
            .map_err(ServiceError::internal)?,
        variant_mask: accepted as i32,
        rated: request.rated,
        rating_min: request.rating_min,
        rating_max: request.rating_max,
        move_deadline_secs: clock,
        bots_at,
        bot_level: request.bots.map(|b| b.level),
        bots_min_humans: request.bots.map(|b| i32::from(b.min_humans)),
        entropy,
        created_at: now,
        expires_at,
        wake_at: expires_at,
        ended_at: None,
        game_id: None,
        seat: None,
    };
    row.wake_at = next_wake(&row, now, gather_at).unwrap_or(expires_at);
    Ok(row)
}

/// When the sweep next looks at `seek` after `now`: its gathering spell's
/// end (`gather_at`: when it would be the quiet newest member of a group),
/// its bots time, its expiry, whichever comes first after `now`.
pub(super) fn next_wake(
    seek: &SeekRow,
    now: DateTime<Utc>,
    gather_at: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    [Some(gather_at), seek.bots_at, Some(seek.expires_at)]
        .into_iter()
        .flatten()
        .filter(|t| *t > now)
        .min()
}

fn duration(d: std::time::Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// Every variant name of `options`, for a message.
fn all_names(options: &SeekOptions) -> String {
    let all = options
        .groups
        .iter()
        .flat_map(|g| g.variants)
        .map(|v| v.name)
        .collect::<Vec<_>>();
    if all.is_empty() {
        "none".to_owned()
    } else {
        all.join(", ")
    }
}

/// The sizes from `min` to `max` the kind has and the variants allow.
fn table_sizes(
    options: &SeekOptions,
    kind: &str,
    min: u8,
    max: u8,
    accepted: Variants,
) -> Result<Sizes, ServiceError> {
    let (first, last) = (*options.sizes.start(), *options.sizes.end());
    if min > max {
        return Err(ServiceError::invalid(
            "no_table_size",
            format!("players: min {min} is above max {max}"),
        ));
    }
    let every = options::all_sizes();
    if !every.contains(&min) || !every.contains(&max) {
        return Err(ServiceError::invalid(
            "no_table_size",
            format!(
                "players: no game here is for fewer than {} or more than {}",
                every.start(),
                every.end()
            ),
        ));
    }
    match options.sizes(min, max, accepted) {
        0 => Err(ServiceError::invalid(
            "no_table_size",
            format!(
                "no table of {min} to {max} players: {kind} is for {first} to {last}{}",
                if options.sizes(first, last, accepted) == options.sizes(first, last, !0) {
                    String::new()
                } else {
                    " (and the variants asked for narrow that)".to_owned()
                }
            ),
        )),
        sizes => Ok(sizes),
    }
}

/// Every table the seek accepts is a configuration the engine takes (the
/// target, for one): else the engine's refusal, with its ruling.
fn check_configs(
    request: &SeekRequest,
    options: &SeekOptions,
    sizes: Sizes,
    accepted: Variants,
) -> Result<(), ServiceError> {
    let kind = kinds::find(request.kind)
        .ok_or_else(|| ServiceError::invalid("unknown_kind", "no such game kind"))?;
    for size in (0u8..32).filter(|n| sizes & (1 << n) != 0) {
        let config = options.config(size, request.target, accepted);
        kind.new_game(&config, cards::Seed::from_u64(0))
            .map_err(|e| {
                ServiceError::Invalid(Refusal {
                    code: e.code,
                    rule: e.rule,
                    message: e.message,
                })
            })?;
    }
    Ok(())
}

/// The range is a range, and the seeker is inside it.
fn check_rating_range(request: &SeekRequest, rating: f64) -> Result<(), ServiceError> {
    let (min, max) = (request.rating_min, request.rating_max);
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        return Err(ServiceError::invalid(
            "bad_rating_range",
            format!("rating_range: min {lo} is above max {hi}"),
        ));
    }
    let below = min.is_some_and(|lo| rating < f64::from(lo));
    let above = max.is_some_and(|hi| rating > f64::from(hi));
    if below || above {
        return Err(ServiceError::invalid(
            "rating_range_excludes_you",
            format!(
                "your rating of this kind is {rating:.0}, outside the range asked for: \
                 nobody you accept would accept you"
            ),
        ));
    }
    Ok(())
}

/// The clock as stored: `None` any, `Some(0)` none, else seconds.
fn checked_clock(secs: Option<u64>) -> Result<Option<i64>, ServiceError> {
    match secs {
        Some(s) if s > MAX_MOVE_DEADLINE_SECS => Err(ServiceError::invalid(
            "bad_deadline",
            format!("move_deadline_secs is 0 (no clock) to {MAX_MOVE_DEADLINE_SECS} (30 days)"),
        )),
        other => Ok(other.map(|s| s as i64)),
    }
}

/// The bots come before the seek expires, and the people asked for fit
/// the largest table accepted.
fn check_bots(
    bots: Option<BotsRequest>,
    sizes: Sizes,
    settings: &SeekSettings,
) -> Result<(), ServiceError> {
    let Some(bots) = bots else {
        return Ok(());
    };
    if bots.after_secs > MAX_MOVE_DEADLINE_SECS || bots.after_secs >= settings.ttl.as_secs() {
        return Err(ServiceError::invalid(
            "bad_bots",
            format!(
                "bots.after_secs is at most 30 days and below the seeks' lifetime ({} s): the \
                 seek would expire first",
                settings.ttl.as_secs()
            ),
        ));
    }
    let largest = 31 - sizes.leading_zeros() as u8;
    if !(1..=largest).contains(&bots.min_humans) {
        return Err(ServiceError::invalid(
            "bad_bots",
            format!("bots.min_humans is 1 (you alone) to {largest}, the largest table you accept"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SeekSettings {
        SeekSettings::default()
    }

    fn ask(kind: &'static str) -> SeekRequest {
        SeekRequest {
            kind,
            ..SeekRequest::default()
        }
    }

    fn code(r: Result<SeekRow, ServiceError>) -> &'static str {
        match r {
            Err(ServiceError::Invalid(refusal)) => refusal.code,
            other => panic!("not refused: {other:?}"),
        }
    }

    fn check(request: &SeekRequest) -> Result<SeekRow, ServiceError> {
        checked(request, "p", 1500.0, Utc::now(), &settings())
    }

    #[test]
    fn a_seek_of_any_table_accepts_every_size_of_its_kind() {
        let row = check(&ask("cancellation-hearts")).unwrap();
        assert_eq!(row.sizes, 0b111_1100_0000);
        assert_eq!(row.variants, "[]");
        assert_eq!((row.min_players, row.max_players), (6, 10));
        assert!(row.wake_at > row.created_at && row.wake_at <= row.expires_at);
    }

    #[test]
    fn impossible_seeks_are_refused_with_their_code() {
        let mut r = ask("cancellation-hearts");
        r.players = Some((2, 5));
        assert_eq!(code(check(&r)), "no_table_size");
        r.players = Some((8, 7));
        assert_eq!(code(check(&r)), "no_table_size");
        let mut r = ask("lost-heir");
        r.players = Some((2, 3));
        r.variants = vec!["partnerships".into()];
        assert_eq!(code(check(&r)), "no_table_size");
        r.variants = vec!["carry_over".into()];
        assert_eq!(code(check(&r)), "unknown_variant");
        let mut r = ask("lost-heir");
        r.target = Some(0);
        assert_eq!(code(check(&r)), "target_out_of_range");
        let mut r = ask("lost-heir");
        r.rating_min = Some(1600);
        assert_eq!(code(check(&r)), "rating_range_excludes_you");
        r.rating_min = Some(1400);
        r.rating_max = Some(1300);
        assert_eq!(code(check(&r)), "bad_rating_range");
        let mut r = ask("lost-heir");
        r.move_deadline_secs = Some(MAX_MOVE_DEADLINE_SECS + 1);
        assert_eq!(code(check(&r)), "bad_deadline");
        let mut r = ask("lost-heir");
        let bots = BotsRequest {
            after_secs: 3600,
            level: BotLevel::Sensible,
            min_humans: 1,
        };
        r.bots = Some(bots);
        assert_eq!(code(check(&r)), "bad_bots");
        r.bots = Some(BotsRequest {
            after_secs: 60,
            min_humans: 5,
            ..bots
        });
        assert_eq!(code(check(&r)), "bad_bots");
        let mut r = ask("lost-heir");
        r.entropy = Some("a\nb".into());
        assert_eq!(code(check(&r)), "invalid_entropy");
    }

    #[test]
    fn the_sweep_wakes_a_seek_at_its_next_time() {
        let now = Utc::now();
        let mut r = ask("lost-heir");
        r.bots = Some(BotsRequest {
            after_secs: 5,
            level: BotLevel::Random,
            min_humans: 1,
        });
        let row = checked(
            &r,
            "p",
            1500.0,
            now,
            &SeekSettings {
                gather: std::time::Duration::from_secs(10),
                ..settings()
            },
        )
        .unwrap();
        assert_eq!(row.wake_at, now + chrono::Duration::seconds(5));
        let later = now + chrono::Duration::seconds(5);
        let gather_at = now + chrono::Duration::seconds(10);
        assert_eq!(next_wake(&row, later, gather_at), Some(gather_at));
        assert_eq!(next_wake(&row, gather_at, gather_at), Some(row.expires_at));
        assert_eq!(next_wake(&row, row.expires_at, gather_at), None);
    }
}
