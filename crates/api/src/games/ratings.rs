//! Ratings (docs/ratings.md): each rated game that finishes by
//! play updates its subjects' Glicko-2 ratings for its kind, derived from
//! the log in a fixed order.
//!
//! - **Subjects.** A seat's player, or for a bot seat [`bot_subject`] of
//!   its level (`bot:expert`…: one rating per bot level and game kind). A
//!   seat on autoplay is its player's.
//! - **Standings** ([`standings`]): rank 0 is `stopped(forfeited)`'s
//!   winners, rank 1 `stopped(forfeited ∪ rank 0)`'s, and so on, each in
//!   the game's own direction (LH-12 highest total, CH-13 lowest);
//!   forfeited seats (a deadline forfeit, a resignation) rank after
//!   everyone, level with each other. Partners share their side's standing
//!   (LH-3).
//! - **Pairs.** Each subject against every seat of another side held by
//!   another subject (partners, and two bot seats, are not compared), won,
//!   drawn or lost by rank (`ratings::pairwise_results`); one rating period
//!   per game, every update from the ratings before it. A subject with no
//!   pair is not rated in the game; a game with no pair changes nothing.
//! - **Order.** A trigger queues the game in its finishing transaction
//!   (`rating_queue`); [`spawn`]'s projector, in every process, rates the
//!   queue head one game per transaction, serialized across processes
//!   (`db::ratings`), kicked after a commit that finished a rated game and
//!   polling every second besides. `rating_changes.seq` records the order.
//! - **Rebuild** ([`GameService::rebuild_ratings`]): every rating again
//!   from scratch, replaying the rated games in that order from their logs.
//! - **Against farming** ([`Policy`], docs/ratings.md): a game in which a
//!   seat resigned before the first trick was complete is unrated; results
//!   between the same two players count in at most
//!   [`PAIR_GAMES_PER_DAY`] games per UTC day; a player rated in fewer than
//!   [`ESTABLISHED_AFTER`] games moves no established player's rating.
//!   Each is a function of the rated games before, in the same order, so
//!   the rebuild applies it exactly as the projector did.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use cards::{Seat, SeatSet};
use ratings::{Entrant, Glicko2, Rating};

use super::any_game::AnyGame;
use super::error::ServiceError;
use super::event::GameEvent;
use super::service::{GameService, forfeited_seats};
use super::status::{BotLevel, GameStatus};
use crate::db::models::SeatWithName;
use crate::db::ratings::{RatedSubject, RatingChangeRow, RatingHistory, RatingRow};
use crate::db::{DbError, now};

/// What the subjects of bot seats start with: `bot:random`,
/// `bot:sensible`, `bot:expert` (one rating per bot level and game kind,
/// `docs/bots.md`).
pub const BOT_SUBJECT_PREFIX: &str = "bot:";

/// The subject of the bot seats played at `level`.
pub fn bot_subject(level: BotLevel) -> String {
    format!("{BOT_SUBJECT_PREFIX}{}", level.as_str())
}

/// What a bot subject is called on the leaderboard ("Sensible bot").
fn bot_name(subject: &str) -> Option<String> {
    let level = subject.strip_prefix(BOT_SUBJECT_PREFIX)?;
    let mut name: String = level.chars().take(1).flat_map(char::to_uppercase).collect();
    name.push_str(level.get(1..).unwrap_or(""));
    name.push_str(" bot");
    Some(name)
}

/// How often the projector looks at the queue when nothing kicked it.
const POLL: Duration = Duration::from_secs(1);

/// Games per UTC day (by the time each game finished) in which the results
/// between the same two players count: one account losing to another on
/// purpose lifts it by at most this many games a day.
pub const PAIR_GAMES_PER_DAY: usize = 3;

/// Rated games a player needs (in the kind) before its results move an
/// established player's rating: a fresh account's losses lift nobody.
pub const ESTABLISHED_AFTER: i64 = 5;

/// What a finished game's log says, besides the standings, that the rating
/// policy reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameFacts {
    /// When it finished (its last append; never changes after).
    pub finished_at: chrono::DateTime<chrono::Utc>,
    /// A seat resigned before the first trick was complete (fewer card
    /// plays than seats before the first resignation).
    pub resigned_early: bool,
}

impl GameFacts {
    /// The UTC day it finished on, [start, end).
    pub fn day(&self) -> (chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>) {
        let start = self
            .finished_at
            .date_naive()
            .and_hms_opt(0, 0, 0)
            .expect("midnight exists")
            .and_utc();
        (start, start + chrono::Duration::days(1))
    }
}

/// Which results of a game count (docs/ratings.md, "Against farming"),
/// from the rated games before it.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The game is not rated at all (a resignation before the first trick).
    unrated: bool,
    /// By subject: a player's (not a bot's).
    player: Vec<bool>,
    /// By subject: rated games before this one, in the kind.
    games: Vec<i64>,
    /// By subject: the games of the day it was rated in (players only).
    day_games: Vec<HashSet<String>>,
}

impl Policy {
    pub fn new(subjects: &[RatedSubject], facts: GameFacts, history: &RatingHistory) -> Self {
        Policy {
            unrated: facts.resigned_early,
            player: subjects.iter().map(|s| is_player(&s.subject)).collect(),
            games: history.games.clone(),
            day_games: history
                .day_games
                .iter()
                .map(|g| g.iter().cloned().collect())
                .collect(),
        }
    }

    fn established(&self, k: usize) -> bool {
        !self.player[k] || self.games[k] >= ESTABLISHED_AFTER
    }

    /// Whether subject `m`'s results against subject `k` move `k`'s rating.
    /// A bot's rating takes every result, as before (one rating shared by
    /// every game of its level). Between two players: not once they met in
    /// [`PAIR_GAMES_PER_DAY`] rated games that day, and not from a
    /// provisional player to an established one.
    pub fn counts(&self, k: usize, m: usize) -> bool {
        if self.unrated {
            return false;
        }
        if !self.player[k] || !self.player[m] {
            return true;
        }
        let met = self.day_games[k].intersection(&self.day_games[m]).count();
        if met >= PAIR_GAMES_PER_DAY {
            return false;
        }
        self.established(m) || !self.established(k)
    }
}

/// Whether a subject is a player (else a bot level, [`bot_subject`]).
fn is_player(subject: &str) -> bool {
    !subject.starts_with(BOT_SUBJECT_PREFIX)
}

/// One seat as the rating sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatStanding {
    pub seat: u8,
    pub subject: String,
    /// 0 for the winners, then 1, 2…; forfeited seats last.
    pub rank: u32,
    /// The lowest seat of the seat's side (partners share it, LH-3).
    pub side: u8,
}

/// A seat's subject: its player, or [`bot_subject`] of its level for a bot
/// seat.
fn subject(seat: &SeatWithName) -> Option<String> {
    if seat.seat.is_bot {
        Some(bot_subject(seat.seat.bot_level))
    } else {
        seat.seat.player_id.clone()
    }
}

/// Every seat's standing in the finished `game` (see the module's doc).
pub fn standings(game: &dyn AnyGame, seats: &[SeatWithName]) -> Vec<SeatStanding> {
    let all: SeatSet = (0..game.seat_count()).map(Seat::new).collect();
    let forfeited = forfeited_seats(seats);
    let mut rank_of = vec![None; usize::from(game.seat_count())];
    let mut out = forfeited;
    let mut rank = 0;
    while out != all {
        let winners = game.stopped(out).winners;
        let fresh: SeatSet = winners.iter().filter(|s| !out.contains(*s)).collect();
        if fresh.is_empty() {
            break;
        }
        for seat in fresh.iter() {
            rank_of[seat.index()] = Some(rank);
            out.insert(seat);
        }
        rank += 1;
    }
    seats
        .iter()
        .filter_map(|s| {
            let seat = u8::try_from(s.seat.seat).ok()?;
            let index = usize::from(seat);
            Some(SeatStanding {
                seat,
                subject: subject(s)?,
                // Forfeited seats (and any seat left unranked) come last.
                rank: rank_of.get(index).copied().flatten().unwrap_or(rank),
                side: game
                    .side(Seat::new(seat))
                    .first()
                    .map_or(seat, |s| s.index() as u8),
            })
        })
        .collect()
}

/// The game's distinct subjects (first seat first), each with its best
/// standing, and each seat's subject index.
fn subjects_of(standings: &[SeatStanding]) -> (Vec<RatedSubject>, Vec<usize>) {
    let mut subjects: Vec<RatedSubject> = Vec::new();
    let mut index = Vec::with_capacity(standings.len());
    for s in standings {
        let rank = i32::try_from(s.rank).unwrap_or(i32::MAX);
        match subjects.iter().position(|x| x.subject == s.subject) {
            Some(i) => {
                subjects[i].rank = subjects[i].rank.min(rank);
                index.push(i);
            }
            None => {
                index.push(subjects.len());
                subjects.push(RatedSubject {
                    subject: s.subject.clone(),
                    rank,
                });
            }
        }
    }
    (subjects, index)
}

/// Each subject's rating after the game from `before` (by subject index):
/// the results of each of its seats against every seat of another side
/// held by another subject whose results count for it (`policy`), rated as
/// one period; `None` without a pair.
fn rate(
    system: &Glicko2,
    standings: &[SeatStanding],
    subject_of: &[usize],
    before: &[Rating],
    policy: &Policy,
) -> Vec<Option<Rating>> {
    (0..before.len())
        .map(|k| {
            let mut results = Vec::new();
            for (i, seat) in standings.iter().enumerate() {
                if subject_of[i] != k {
                    continue;
                }
                // The subject's other seats count as this seat's side:
                // never compared with it. Seats whose results do not count
                // for it are left out.
                let mut me = 0;
                let entrants: Vec<Entrant> = standings
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| subject_of[j] == k || policy.counts(k, subject_of[j]))
                    .enumerate()
                    .map(|(n, (j, other))| {
                        if j == i {
                            me = n;
                        }
                        Entrant {
                            rating: before[subject_of[j]],
                            rank: other.rank,
                            side: if subject_of[j] == k {
                                seat.side
                            } else {
                                other.side
                            },
                        }
                    })
                    .collect();
                results.extend(ratings::pairwise_results(&entrants, me));
            }
            (!results.is_empty()).then(|| system.rate(before[k], &results))
        })
        .collect()
}

/// What a rebuild found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rebuilt {
    /// Rated games replayed.
    pub games: usize,
    /// Stored changes that differed from the replay (or were missing).
    pub changes_differing: usize,
    /// Stored ratings that differed from the replay (or were missing).
    pub ratings_differing: usize,
    /// Whether the stored ratings and changes were rewritten.
    pub rewritten: bool,
}

impl GameService {
    /// A finished game's standings, folded from its log, and the facts of
    /// its log the rating policy reads.
    async fn standings_from_log(
        &self,
        game_id: &str,
    ) -> Result<(String, Vec<SeatStanding>, GameFacts), ServiceError> {
        let snapshot = self.rebuild_from_log(game_id).await?;
        if snapshot.row.status != GameStatus::Finished {
            return Err(ServiceError::internal(format!(
                "rated game {game_id} is not finished"
            )));
        }
        let standings = standings(&*snapshot.game, &snapshot.seats);
        let events = self
            .db
            .events(game_id, 0, snapshot.row.version.max(1))
            .await?;
        let seats = usize::from(snapshot.game.seat_count());
        let mut plays = 0;
        let mut resigned_early = false;
        for row in &events {
            match &row.event {
                GameEvent::Move(mv) if mv.0["type"] == "play" => plays += 1,
                GameEvent::SeatResigned(_) => {
                    resigned_early = plays < seats;
                    break;
                }
                _ => {}
            }
        }
        let facts = GameFacts {
            finished_at: snapshot.row.updated_at,
            resigned_early,
        };
        Ok((snapshot.row.kind, standings, facts))
    }

    /// Rates the queue's head; false when the queue is empty.
    pub async fn rate_next(&self) -> Result<bool, ServiceError> {
        let Some((queued, game_id)) = self.db.rating_queue_head().await? else {
            return Ok(false);
        };
        let (kind, standings, facts) = self.standings_from_log(&game_id).await?;
        let (subjects, subject_of) = subjects_of(&standings);
        let players: Vec<bool> = subjects.iter().map(|s| is_player(&s.subject)).collect();
        let system = Glicko2::default();
        let rate = |before: &[Rating], history: &RatingHistory| {
            let policy = Policy::new(&subjects, facts, history);
            rate(&system, &standings, &subject_of, before, &policy)
        };
        match self
            .db
            .apply_rating(
                queued,
                &game_id,
                &kind,
                &subjects,
                &players,
                facts.day(),
                &rate,
            )
            .await
        {
            // Rated here, or by another process meanwhile: next.
            Ok(_) | Err(DbError::Conflict) => Ok(true),
            Err(e) => Err(e.into()),
        }
    }

    /// Rates every queued game, in order; returns how many heads were
    /// taken (here or elsewhere). When it returns, every game queued
    /// before the call is rated.
    pub async fn rate_queued(&self) -> Result<usize, ServiceError> {
        let mut taken = 0;
        while self.rate_next().await? {
            taken += 1;
        }
        Ok(taken)
    }

    /// Recomputes every rating from scratch: replays the rated games in
    /// the order of `rating_changes` from their logs, compares with what
    /// is stored, and rewrites it all when anything differs (or is
    /// missing).
    pub async fn rebuild_ratings(&self) -> Result<Rebuilt, ServiceError> {
        let (stored_ratings, stored_changes) = self.db.all_ratings().await?;
        let last_seq = stored_changes.last().map(|c| c.seq);
        let mut order: Vec<(i64, String)> = stored_changes
            .iter()
            .map(|c| (c.seq, c.game_id.clone()))
            .collect();
        order.dedup();
        let stored_at: HashMap<(&str, &str), _> = stored_changes
            .iter()
            .map(|c| ((c.game_id.as_str(), c.subject.as_str()), c.created_at))
            .collect();
        let system = Glicko2::default();
        let mut current: HashMap<(String, String), RatingRow> = HashMap::new();
        // The games each (kind, player) was rated in, by the UTC day they
        // finished on: the policy's history, as the projector reads it.
        let mut rated_on: HashMap<(String, String, chrono::NaiveDate), Vec<String>> =
            HashMap::new();
        let mut changes = Vec::with_capacity(stored_changes.len());
        for (seq, game_id) in &order {
            let (kind, standings, facts) = self.standings_from_log(game_id).await?;
            let (subjects, subject_of) = subjects_of(&standings);
            let before: Vec<Rating> = subjects
                .iter()
                .map(|s| {
                    current
                        .get(&(kind.clone(), s.subject.clone()))
                        .map_or(Rating::NEW, RatingRow::value)
                })
                .collect();
            let day = facts.finished_at.date_naive();
            let history = RatingHistory {
                games: subjects
                    .iter()
                    .map(|s| {
                        current
                            .get(&(kind.clone(), s.subject.clone()))
                            .map_or(0, |r| r.games)
                    })
                    .collect(),
                day_games: subjects
                    .iter()
                    .map(|s| {
                        if is_player(&s.subject) {
                            rated_on
                                .get(&(kind.clone(), s.subject.clone(), day))
                                .cloned()
                                .unwrap_or_default()
                        } else {
                            Vec::new()
                        }
                    })
                    .collect(),
            };
            let policy = Policy::new(&subjects, facts, &history);
            let after = rate(&system, &standings, &subject_of, &before, &policy);
            for ((subject, before), after) in subjects.iter().zip(&before).zip(&after) {
                let Some(after) = after else { continue };
                rated_on
                    .entry((kind.clone(), subject.subject.clone(), day))
                    .or_default()
                    .push(game_id.clone());
                let at = stored_at
                    .get(&(game_id.as_str(), subject.subject.as_str()))
                    .copied()
                    .unwrap_or_else(now);
                changes.push(RatingChangeRow {
                    seq: *seq,
                    game_id: game_id.clone(),
                    kind: kind.clone(),
                    subject: subject.subject.clone(),
                    rank: subject.rank,
                    rating_before: before.rating,
                    deviation_before: before.deviation,
                    volatility_before: before.volatility,
                    rating_after: after.rating,
                    deviation_after: after.deviation,
                    volatility_after: after.volatility,
                    created_at: at,
                });
                let games = current
                    .get(&(kind.clone(), subject.subject.clone()))
                    .map_or(0, |r| r.games);
                current.insert(
                    (kind.clone(), subject.subject.clone()),
                    RatingRow {
                        kind: kind.clone(),
                        subject: subject.subject.clone(),
                        rating: after.rating,
                        deviation: after.deviation,
                        volatility: after.volatility,
                        games: games + 1,
                        updated_at: at,
                    },
                );
            }
        }
        let mut ratings: Vec<RatingRow> = current.into_values().collect();
        ratings.sort_by(|a, b| (&a.kind, &a.subject).cmp(&(&b.kind, &b.subject)));
        changes.sort_by(|a, b| (a.seq, &a.subject).cmp(&(b.seq, &b.subject)));
        let changes_differing = differing(&changes, &stored_changes);
        let ratings_differing = differing(&ratings, &stored_ratings);
        let rewritten = changes_differing > 0 || ratings_differing > 0;
        if rewritten {
            self.db
                .replace_ratings(last_seq, &ratings, &changes)
                .await?;
        }
        Ok(Rebuilt {
            games: order.len(),
            changes_differing,
            ratings_differing,
            rewritten,
        })
    }
}

/// A leaderboard row: the rating, and the subject's display name (a
/// player's, or [`BOT_NAME`]).
#[derive(Debug, Clone)]
pub struct Ranked {
    pub row: RatingRow,
    pub is_bot: bool,
    pub display_name: String,
}

impl GameService {
    /// Every kind's rating of `player_id` (empty before a rated game).
    /// Ratings are written by the projector after a game, never by the
    /// reader's own request, so they may come from the replica (within its
    /// lag bound); a player the replica does not know yet is looked up on
    /// the primary.
    pub async fn player_ratings(&self, player_id: &str) -> Result<Vec<RatingRow>, ServiceError> {
        let found = self
            .db
            .read_where(
                self.recent_for(None),
                |db| async move {
                    Ok(match db.player(player_id).await? {
                        Some(_) => Some(db.ratings_of(player_id).await?),
                        None => None,
                    })
                },
                Option::is_some,
            )
            .await?;
        self.found_player(player_id, found).await
    }

    /// `player_id`'s rating changes in `kind` after processing seq `after`
    /// (from the replica as [`Self::player_ratings`]).
    pub async fn rating_history(
        &self,
        player_id: &str,
        kind: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RatingChangeRow>, ServiceError> {
        let found = self
            .db
            .read_where(
                self.recent_for(None),
                |db| async move {
                    Ok(match db.player(player_id).await? {
                        Some(_) => Some(db.rating_history(player_id, kind, after, limit).await?),
                        None => None,
                    })
                },
                Option::is_some,
            )
            .await?;
        self.found_player(player_id, found).await
    }

    /// What was read of a player, or the 404 of a player nobody knows.
    async fn found_player<T>(&self, player_id: &str, found: Option<T>) -> Result<T, ServiceError> {
        match found {
            Some(found) => Ok(found),
            None => {
                self.known_player(player_id).await?;
                Err(ServiceError::internal(format!(
                    "player {player_id} appeared between two reads"
                )))
            }
        }
    }

    /// `kind`'s leaderboard page after `after` (rating, subject), from the
    /// replica within its lag bound.
    pub async fn leaderboard(
        &self,
        kind: &str,
        after: Option<(f64, &str)>,
        limit: i64,
    ) -> Result<Vec<Ranked>, ServiceError> {
        let (rows, names) = self
            .db
            .read(self.recent_for(None), |db| async move {
                let rows = db.leaderboard(kind, after, limit).await?;
                let ids: Vec<&str> = rows
                    .iter()
                    .map(|r| r.subject.as_str())
                    .filter(|s| !s.starts_with(BOT_SUBJECT_PREFIX))
                    .collect();
                let names = db.display_names(&ids).await?;
                Ok((rows, names))
            })
            .await?;
        let names: HashMap<String, String> = names.into_iter().collect();
        Ok(rows
            .into_iter()
            .map(|row| {
                let bot = bot_name(&row.subject);
                let is_bot = bot.is_some();
                let display_name =
                    bot.unwrap_or_else(|| names.get(&row.subject).cloned().unwrap_or_default());
                Ranked {
                    row,
                    is_bot,
                    display_name,
                }
            })
            .collect())
    }
}

/// How many of `rebuilt` differ from `stored` (both in the same order),
/// counting rows only one side has. The values compare as f64: bit for bit
/// but for signed zeros, which Glicko-2 never produces.
fn differing<T: PartialEq>(rebuilt: &[T], stored: &[T]) -> usize {
    let common = rebuilt.iter().zip(stored).filter(|(a, b)| a != b).count();
    common + rebuilt.len().abs_diff(stored.len())
}

/// The projector: rates queued games until the service stops, at each
/// kick (a commit that finished a rated game) and every [`POLL`] besides.
/// A failure (the database away) is logged and tried again.
pub fn spawn(games: Arc<GameService>) {
    tokio::spawn(async move {
        let mut stop = games.shutdown.subscribe();
        let kick = games.ratings_kick.clone();
        while !*stop.borrow() {
            if let Err(e) = games.rate_queued().await {
                tracing::warn!(error = %e, "rating the finished games failed");
            }
            tokio::select! {
                _ = stop.changed() => continue,
                _ = kick.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(subjects: &[&str], games: &[i64], met: usize, early: bool) -> Policy {
        let subjects: Vec<RatedSubject> = subjects
            .iter()
            .map(|s| RatedSubject {
                subject: (*s).to_owned(),
                rank: 0,
            })
            .collect();
        // `met` earlier games of the day shared by every player subject.
        let shared: Vec<String> = (0..met).map(|i| format!("g{i}")).collect();
        let history = RatingHistory {
            games: games.to_vec(),
            day_games: subjects
                .iter()
                .map(|s| {
                    if is_player(&s.subject) {
                        shared.clone()
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        };
        let facts = GameFacts {
            finished_at: chrono::DateTime::UNIX_EPOCH,
            resigned_early: early,
        };
        Policy::new(&subjects, facts, &history)
    }

    /// Two established players: their results count in the day's first
    /// PAIR_GAMES_PER_DAY games together, then not, for either.
    #[test]
    fn a_pair_counts_in_a_few_games_a_day() {
        for met in 0..PAIR_GAMES_PER_DAY {
            assert!(policy(&["a", "b"], &[9, 9], met, false).counts(0, 1));
        }
        let capped = policy(&["a", "b"], &[9, 9], PAIR_GAMES_PER_DAY, false);
        assert!(!capped.counts(0, 1) && !capped.counts(1, 0));
    }

    /// A provisional player moves no established player (but its own
    /// rating moves, and two provisional players rate each other); bots'
    /// ratings take every result, and bots count as established.
    #[test]
    fn a_provisional_player_moves_no_established_one() {
        let new = ESTABLISHED_AFTER - 1;
        let p = policy(&["a", "b"], &[ESTABLISHED_AFTER, new], 0, false);
        assert!(!p.counts(0, 1), "b is provisional: a does not move");
        assert!(p.counts(1, 0), "b's own rating moves");
        let both = policy(&["a", "b"], &[new, 0], 0, false);
        assert!(both.counts(0, 1) && both.counts(1, 0));
        let bot = policy(&["a", "bot:expert"], &[0, 0], 0, false);
        assert!(bot.counts(0, 1) && bot.counts(1, 0));
    }

    /// A resignation before the first trick: nothing counts.
    #[test]
    fn an_early_resignation_is_unrated() {
        let p = policy(&["a", "b", "bot:sensible"], &[9, 9, 9], 0, true);
        for k in 0..3 {
            for m in 0..3 {
                assert!(!p.counts(k, m));
            }
        }
    }

    #[test]
    fn bot_subjects_are_named_by_level() {
        assert_eq!(bot_subject(BotLevel::Expert), "bot:expert");
        assert_eq!(bot_name("bot:sensible").as_deref(), Some("Sensible bot"));
        assert_eq!(bot_name("bot:expert").as_deref(), Some("Expert bot"));
        assert_eq!(bot_name("6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11"), None);
    }
}
