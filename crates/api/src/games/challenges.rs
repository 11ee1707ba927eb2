//! Challenges (docs/invites-and-challenges.md): a player asks one or more
//! named players to a new game with given options; each accepts or
//! declines; when all have accepted the game is made with everyone seated
//! (the challenger at seat 0, the others in the order named) and starts.
//! A decline ends the challenge for all; the challenger may withdraw it;
//! it expires. A player may take challenges only from players they have
//! finished a game with (`ChallengesFrom::KnownPlayers`).
//!
//! Every change to a challenge is one `Db::challenge_change`: under the
//! challenge's lock it is read, and [`decide_answer`] (pure) says what to
//! write. The game the last acceptance makes is built before the
//! transaction (through the create path's checks and construction,
//! `lifecycle::seated_table`) and inserted inside it only if, under the
//! lock, that acceptance is the last: so it is made exactly once, whichever
//! process takes the last acceptance.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::domain::{CreateGame, DeadlinePolicy, ResignPolicy};
use super::error::ServiceError;
use super::lifecycle::{NewTable, Seated, seated_table, stored_rows};
use super::service::GameService;
use super::webhooks::challenge_outbox;
use crate::db::challenges::{
    Challenge, ChallengeAnswer, ChallengeLimit, ChallengeRow, ChallengeStatus, ChallengeWrites,
    ChallengedRow, ChallengesFrom,
};
use crate::db::models::PlayerRow;
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// Pending challenges one player may have sent at once; past it `409
/// too_many_challenges`.
pub const CHALLENGES_SENT_PER_PLAYER: i64 = 10;

/// Pending challenges one player may be asked at once (so that nobody can
/// bury another's inbox); past it `409 too_many_challenges`.
pub const CHALLENGES_RECEIVED_PER_PLAYER: i64 = 50;

/// How long a challenge waits for answers unless its challenger says
/// otherwise, and the bounds they may ask for.
pub const DEFAULT_CHALLENGE_TTL: Duration = Duration::from_secs(86_400);
pub const MIN_CHALLENGE_TTL: Duration = Duration::from_secs(60);
pub const MAX_CHALLENGE_TTL: Duration = Duration::from_secs(7 * 86_400);

/// The most players one challenge may ask (the largest table less the
/// challenger).
pub const MAX_CHALLENGED: usize = 9;

/// How long an ended challenge is kept, readable and listed, before the
/// sweep deletes it.
pub const ENDED_CHALLENGE_RETENTION: Duration = Duration::from_secs(86_400);

/// A player's challenges listed, at most; the inbox's, at most.
pub const CHALLENGES_LISTED: i64 = 100;
pub const INBOX_CHALLENGES: i64 = 20;

/// Challenges the sweep ends or deletes per statement.
const SWEEP_BATCH: i64 = 200;

/// The game a challenge asks for, as stored with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameOptions {
    pub config: Value,
    pub rated: bool,
    pub move_deadline_secs: Option<u64>,
    pub on_deadline: Option<DeadlinePolicy>,
    pub on_resign: ResignPolicy,
}

/// A challenge as asked.
#[derive(Debug, Clone)]
pub struct ChallengeRequest {
    /// A kind's name, as `games::kinds` knows it.
    pub kind: &'static str,
    pub options: GameOptions,
    /// The players asked, in seat order (seats 1..).
    pub challenged: Vec<String>,
    pub expires_in_secs: Option<u64>,
}

/// How a challenge is answered (the HTTP layer's resource), rendered inside
/// the transaction that changes it so an idempotency record holds the very
/// answer sent.
pub trait ChallengeRender: Sync {
    fn render(&self, challenge: &Challenge) -> Result<Stored, ServiceError>;
}

/// What a change of a challenge asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeMove {
    Accept,
    Decline,
    Withdraw,
    /// The sweep: a pending challenge past its expiry ends.
    Expire,
}

impl GameService {
    /// Stores `challenger`'s challenge; the answer is the challenge,
    /// pending. A copy of an idempotent create answers the first answer.
    pub async fn create_challenge(
        self: &Arc<Self>,
        challenger: &PlayerRow,
        request: &ChallengeRequest,
        idem: Option<&IdemRequest>,
        render: &dyn ChallengeRender,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        check_challenged(&challenger.id, &request.challenged)?;
        let ttl = checked_ttl(request.expires_in_secs)?;
        let mut asked = Vec::new();
        for id in &request.challenged {
            let player = self.db.player(id).await?.ok_or_else(|| {
                ServiceError::not_found("player_not_found", format!("no player {id}"))
            })?;
            self.takes_challenges_from(&player, &challenger.id).await?;
            asked.push(player);
        }
        let now = crate::db::now();
        let row = ChallengeRow {
            id: uuid::Uuid::new_v4().to_string(),
            challenger_id: challenger.id.clone(),
            kind: request.kind.to_owned(),
            options: serde_json::to_string(&request.options).map_err(ServiceError::internal)?,
            status: ChallengeStatus::Pending,
            changes: 0,
            created_at: now,
            expires_at: now + ttl,
            ended_at: None,
            game_id: None,
        };
        let challenge = Challenge {
            players: asked
                .iter()
                .zip(1..)
                .map(|(p, seat)| (asked_row(&row.id, &p.id, seat), p.display_name.clone()))
                .collect(),
            row,
            challenger_name: challenger.display_name.clone(),
        };
        // The game it asks for must be one the create path makes, full.
        the_game(&challenge)?;
        let answer = render.render(&challenge)?;
        let record = idem.map(|i| i.record(&answer));
        let rows: Vec<ChallengedRow> = challenge.players.iter().map(|(p, _)| p.clone()).collect();
        let limits = (CHALLENGES_SENT_PER_PLAYER, CHALLENGES_RECEIVED_PER_PLAYER);
        let outbox = challenge_outbox(&challenge, Some(&challenger.id), None);
        match self
            .db
            .insert_challenge(&challenge.row, &rows, limits, record.as_ref(), &outbox)
            .await
        {
            Ok(Ok(())) => {
                self.challenge_changed(&challenge);
                Ok(answer)
            }
            Ok(Err(limit)) => Err(too_many(&limit)),
            Err(crate::db::DbError::IdempotencyTaken) => match idem {
                Some(idem) => idem.replay_winner(&self.db).await,
                None => Err(ServiceError::internal("idempotency race without a key")),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// One challenge, for its challenger and the players it asks (anyone
    /// else: `404 challenge_not_found`).
    pub async fn challenge_for(
        self: &Arc<Self>,
        id: &str,
        caller_id: &str,
    ) -> Result<Challenge, ServiceError> {
        self.db
            .challenge(id)
            .await?
            .filter(|c| concerns(c, caller_id))
            .ok_or_else(challenge_not_found)
    }

    /// The challenges `caller_id` sent or was asked, newest first.
    pub async fn challenges_for(
        self: &Arc<Self>,
        caller_id: &str,
    ) -> Result<Vec<Challenge>, ServiceError> {
        Ok(self.db.challenges_of(caller_id, CHALLENGES_LISTED).await?)
    }

    /// The pending challenges `player_id` has to answer (the inbox).
    pub async fn challenges_to_answer(
        self: &Arc<Self>,
        player_id: &str,
    ) -> Result<Vec<Challenge>, ServiceError> {
        Ok(self
            .db
            .challenges_awaiting(player_id, crate::db::now(), INBOX_CHALLENGES)
            .await?)
    }

    /// Accepts, declines or withdraws challenge `id` for `caller`. The
    /// last acceptance makes the game, started, with everyone seated. A
    /// copy of an idempotent change answers the first answer.
    pub async fn change_challenge(
        self: &Arc<Self>,
        id: &str,
        caller: &PlayerRow,
        asked: ChallengeMove,
        idem: Option<&IdemRequest>,
        render: &dyn ChallengeRender,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        let seen = self.challenge_for(id, &caller.id).await?;
        // Built before the lock, inserted under it only by the last
        // acceptance: the players and options never change.
        let table = match asked {
            ChallengeMove::Accept => Some(the_game(&seen)?),
            _ => None,
        };
        let decide = |c: &Challenge, now: DateTime<Utc>| {
            decide_change(c, &caller.id, asked, now, table.as_ref(), idem, render)
        };
        let decided = self
            .db
            .challenge_change(id, &decide)
            .await?
            .ok_or_else(challenge_not_found)?;
        let (answer, made) = decided?;
        if made && let Some(table) = table {
            self.created(table).await;
        }
        self.tell_players_of(id).await;
        Ok(answer)
    }

    /// Whom `player_id` takes challenges from.
    pub async fn challenges_from(
        self: &Arc<Self>,
        player_id: &str,
    ) -> Result<ChallengesFrom, ServiceError> {
        Ok(self.db.challenges_from(player_id).await?)
    }

    pub async fn set_challenges_from(
        self: &Arc<Self>,
        player_id: &str,
        from: ChallengesFrom,
    ) -> Result<(), ServiceError> {
        Ok(self.db.set_challenges_from(player_id, from).await?)
    }

    /// The sweep's part: pending challenges past their expiry end
    /// (`expired`, through the one change path), and challenges ended a
    /// day ago are deleted. Returns how many of each.
    pub async fn challenge_sweep(self: &Arc<Self>) -> Result<(usize, usize), ServiceError> {
        let now = crate::db::now();
        let mut expired = 0;
        for id in self.db.expired_challenges(now, SWEEP_BATCH).await? {
            let decide = |c: &Challenge, now: DateTime<Utc>| expire(c, now);
            if self.db.challenge_change(&id, &decide).await? == Some(true) {
                expired += 1;
                self.tell_players_of(&id).await;
            }
        }
        let retention =
            chrono::Duration::from_std(ENDED_CHALLENGE_RETENTION).unwrap_or(chrono::Duration::MAX);
        let deleted = self
            .db
            .delete_ended_challenges(now - retention, SWEEP_BATCH)
            .await?;
        Ok((expired, deleted))
    }

    /// Tells the players of challenge `id` (their streams) that it
    /// changed, as it stands now; a failed read only delays them (the
    /// inbox and the list hold the state).
    async fn tell_players_of(&self, id: &str) {
        match self.db.challenge(id).await {
            Ok(Some(c)) => self.challenge_changed(&c),
            Ok(None) => {}
            Err(e) => tracing::warn!(challenge_id = id, error = %e, "challenge not announced"),
        }
    }

    /// Signals the streams of `c`'s players, in this process and (through
    /// the usual `NOTIFY`) in others: the challenge's topic in their
    /// mailboxes (`notify::CHALLENGE_TOPIC`), at its count of changes.
    fn challenge_changed(&self, c: &Challenge) {
        let players: Arc<[String]> = std::iter::once(c.row.challenger_id.clone())
            .chain(c.players.iter().map(|(p, _)| p.player_id.clone()))
            .collect();
        let topic = format!("{}{}", super::notify::CHALLENGE_TOPIC, c.row.id);
        self.appended(&topic, i64::from(c.row.changes) + 1, players, None);
    }

    /// Refuses a challenge from `challenger_id` to `player` if they take
    /// challenges from known players only and have finished no game with
    /// the challenger.
    async fn takes_challenges_from(
        &self,
        player: &PlayerRow,
        challenger_id: &str,
    ) -> Result<(), ServiceError> {
        match self.db.challenges_from(&player.id).await? {
            ChallengesFrom::Anyone => Ok(()),
            ChallengesFrom::KnownPlayers => {
                if self
                    .db
                    .shared_finished_game(&player.id, challenger_id)
                    .await?
                {
                    Ok(())
                } else {
                    Err(ServiceError::forbidden(
                        "challenges_refused",
                        format!(
                            "{} takes challenges only from players they have finished a game with",
                            player.display_name
                        ),
                    ))
                }
            }
        }
    }
}

/// What the sweep writes for a challenge found past its expiry: its end,
/// if it is still pending (true) under the lock.
fn expire(c: &Challenge, now: DateTime<Utc>) -> ChallengeWrites<bool> {
    let due = c.row.status == ChallengeStatus::Pending && c.row.expires_at <= now;
    if !due {
        return ChallengeWrites::nothing(false);
    }
    ChallengeWrites {
        end: Some((ChallengeStatus::Expired, None)),
        outbox: challenge_outbox(&ended_at(c, ChallengeStatus::Expired, now), None, None),
        ..ChallengeWrites::nothing(true)
    }
}

/// `c` as it stands once it ended with `status` at `now`.
fn ended_at(c: &Challenge, status: ChallengeStatus, now: DateTime<Utc>) -> Challenge {
    let mut after = c.clone();
    after.row.status = status;
    after.row.ended_at = Some(now);
    after
}

/// The answer of a change: the rendered challenge and whether it made the
/// game, or the refusal (a refusal may still write: a challenge found
/// past its expiry ends as `expired`).
type Decided = Result<(Stored, bool), ServiceError>;

/// What `asked` by `caller_id` writes to `c` as it is under its lock at
/// `now`: the answer (and the end, and the game for the last acceptance),
/// or a refusal.
fn decide_change(
    c: &Challenge,
    caller_id: &str,
    asked: ChallengeMove,
    now: DateTime<Utc>,
    table: Option<&NewTable>,
    idem: Option<&IdemRequest>,
    render: &dyn ChallengeRender,
) -> ChallengeWrites<Decided> {
    let refuse = |e: ServiceError| ChallengeWrites::nothing(Err(e));
    let decision = match decide_answer(c, caller_id, asked, now) {
        Ok(d) => d,
        Err(Refused::Expired) => {
            return ChallengeWrites {
                end: Some((ChallengeStatus::Expired, None)),
                outbox: challenge_outbox(&ended_at(c, ChallengeStatus::Expired, now), None, None),
                ..ChallengeWrites::nothing(Err(ended(ChallengeStatus::Expired)))
            };
        }
        Err(Refused::Because(e)) => return refuse(e),
    };
    let mut after = c.clone();
    if let Some(answer) = decision.answer
        && let Some((p, _)) = after
            .players
            .iter_mut()
            .find(|(p, _)| p.player_id == caller_id)
    {
        p.answer = answer;
        p.answered_at = Some(now);
    }
    let mut game = None;
    let mut outbox = Vec::new();
    let mut end = None;
    if let Some(status) = decision.end {
        let game_id = match (status, table) {
            (ChallengeStatus::Accepted, Some(table)) => {
                let (row, seats) = stored_rows(&table.snapshot);
                outbox = crate::games::webhooks::table_formed_outbox(
                    &table.snapshot.row,
                    &table.snapshot.seats,
                    table.game.as_ref(),
                    &[],
                );
                game = Some((row, seats, table.events.clone()));
                Some(table.snapshot.row.id.clone())
            }
            (ChallengeStatus::Accepted, None) => {
                return refuse(ServiceError::internal("an acceptance without its game"));
            }
            _ => None,
        };
        after.row.status = status;
        after.row.ended_at = Some(now);
        after.row.game_id.clone_from(&game_id);
        end = Some((status, game_id));
    }
    let answer = match render.render(&after) {
        Ok(answer) => answer,
        Err(e) => return refuse(e),
    };
    if decision.answer.is_some() || decision.end.is_some() {
        outbox.extend(challenge_outbox(&after, Some(caller_id), decision.answer));
    }
    let made = game.is_some();
    ChallengeWrites {
        answer: decision.answer.map(|a| (caller_id.to_owned(), a)),
        end,
        game,
        idempotency: idem.map(|i| i.record(&answer)),
        outbox,
        value: Ok((answer, made)),
    }
}

/// What a change decides, before it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerDecision {
    /// The caller's new answer, if it changes.
    pub answer: Option<ChallengeAnswer>,
    /// The challenge's end, if this change ends it.
    pub end: Option<ChallengeStatus>,
}

/// Why a change is refused.
#[derive(Debug)]
pub enum Refused {
    /// The challenge was pending but its time ran out: it ends `expired`.
    Expired,
    Because(ServiceError),
}

/// The rules of a change, pure: only a pending challenge changes, and
/// never past its expiry; the challenger withdraws, a challenged player
/// accepts or declines (accepting again changes nothing); a decline ends
/// it for all; the last acceptance ends it `accepted` (the game is made).
pub fn decide_answer(
    c: &Challenge,
    caller_id: &str,
    asked: ChallengeMove,
    now: DateTime<Utc>,
) -> Result<AnswerDecision, Refused> {
    if c.row.status != ChallengeStatus::Pending {
        return Err(Refused::Because(ended(c.row.status)));
    }
    if c.row.expires_at <= now {
        return Err(Refused::Expired);
    }
    let nothing = AnswerDecision {
        answer: None,
        end: None,
    };
    let mine = c.players.iter().find(|(p, _)| p.player_id == caller_id);
    match (asked, mine) {
        (ChallengeMove::Expire, _) => Ok(nothing),
        (ChallengeMove::Withdraw, _) if c.row.challenger_id == caller_id => Ok(AnswerDecision {
            answer: None,
            end: Some(ChallengeStatus::Withdrawn),
        }),
        (ChallengeMove::Withdraw, _) => Err(Refused::Because(ServiceError::forbidden(
            "not_challenger",
            "only the challenger may withdraw a challenge",
        ))),
        (_, None) => Err(Refused::Because(ServiceError::forbidden(
            "not_challenged",
            "the challenger does not answer their own challenge",
        ))),
        (ChallengeMove::Decline, Some(_)) => Ok(AnswerDecision {
            answer: Some(ChallengeAnswer::Declined),
            end: Some(ChallengeStatus::Declined),
        }),
        (ChallengeMove::Accept, Some((p, _))) if p.answer == ChallengeAnswer::Accepted => {
            Ok(nothing)
        }
        (ChallengeMove::Accept, Some(_)) => {
            let others_accepted = c
                .players
                .iter()
                .filter(|(p, _)| p.player_id != caller_id)
                .all(|(p, _)| p.answer == ChallengeAnswer::Accepted);
            Ok(AnswerDecision {
                answer: Some(ChallengeAnswer::Accepted),
                end: others_accepted.then_some(ChallengeStatus::Accepted),
            })
        }
    }
}

/// The refusal of a change to a challenge that has ended.
fn ended(status: ChallengeStatus) -> ServiceError {
    let (code, what) = match status {
        ChallengeStatus::Accepted => ("challenge_accepted", "everyone accepted: its game is made"),
        ChallengeStatus::Declined => ("challenge_declined", "someone declined it"),
        ChallengeStatus::Withdrawn => ("challenge_withdrawn", "its challenger withdrew it"),
        ChallengeStatus::Expired => ("challenge_expired", "it expired"),
        ChallengeStatus::Pending => ("challenge_pending", "it is pending"),
    };
    ServiceError::conflict(code, format!("the challenge has ended: {what}"))
}

fn challenge_not_found() -> ServiceError {
    ServiceError::not_found("challenge_not_found", "no challenge of yours with this id")
}

fn concerns(c: &Challenge, player_id: &str) -> bool {
    c.row.challenger_id == player_id || c.players.iter().any(|(p, _)| p.player_id == player_id)
}

fn too_many(limit: &ChallengeLimit) -> ServiceError {
    let message = match limit {
        ChallengeLimit::Sent => format!(
            "you have {CHALLENGES_SENT_PER_PLAYER} pending challenges: withdraw one or wait for answers"
        ),
        ChallengeLimit::Received(player) => format!(
            "player {player} has {CHALLENGES_RECEIVED_PER_PLAYER} challenges to answer already"
        ),
    };
    ServiceError::conflict("too_many_challenges", message)
}

/// One to nine other players, each once.
fn check_challenged(challenger_id: &str, challenged: &[String]) -> Result<(), ServiceError> {
    let bad = |why: &str| Err(ServiceError::invalid("bad_challenged", why.to_owned()));
    if challenged.is_empty() || challenged.len() > MAX_CHALLENGED {
        return bad("challenge 1 to 9 players");
    }
    if challenged.iter().any(|p| p == challenger_id) {
        return bad("you cannot challenge yourself");
    }
    let mut unique = challenged.to_vec();
    unique.sort_unstable();
    unique.dedup();
    if unique.len() != challenged.len() {
        return bad("a player is named twice");
    }
    Ok(())
}

fn checked_ttl(expires_in_secs: Option<u64>) -> Result<chrono::Duration, ServiceError> {
    let ttl = expires_in_secs.map_or(DEFAULT_CHALLENGE_TTL, Duration::from_secs);
    if !(MIN_CHALLENGE_TTL..=MAX_CHALLENGE_TTL).contains(&ttl) {
        return Err(ServiceError::invalid(
            "bad_challenge_expiry",
            format!(
                "expires_in_secs is {} to {} (7 days)",
                MIN_CHALLENGE_TTL.as_secs(),
                MAX_CHALLENGE_TTL.as_secs()
            ),
        ));
    }
    chrono::Duration::from_std(ttl).map_err(ServiceError::internal)
}

fn asked_row(challenge_id: &str, player_id: &str, seat: i32) -> ChallengedRow {
    ChallengedRow {
        challenge_id: challenge_id.to_owned(),
        player_id: player_id.to_owned(),
        seat,
        answer: ChallengeAnswer::Pending,
        answered_at: None,
    }
}

/// The game `c` asks for, everyone seated (the challenger at seat 0),
/// through the create path's checks: its kind's refusal of the options
/// (with the ruling), or `seat_count_mismatch` when the configuration's
/// seats are not exactly the players.
fn the_game(c: &Challenge) -> Result<NewTable, ServiceError> {
    let options: GameOptions =
        serde_json::from_str(&c.row.options).map_err(ServiceError::internal)?;
    let kind = super::kinds::find(&c.row.kind)
        .ok_or_else(|| ServiceError::invalid("unknown_kind", "no such game kind"))?
        .name();
    let command = CreateGame {
        kind,
        config: options.config,
        seats: None,
        take_seat: None,
        entropy: None,
        move_deadline_secs: options.move_deadline_secs,
        on_deadline: options.on_deadline,
        on_resign: options.on_resign,
        rated: options.rated,
        players_may_invite: false,
        hints: false,
        rematch: None,
    };
    let mut seated = vec![Seated {
        seat: 0,
        player_id: &c.row.challenger_id,
        display_name: &c.challenger_name,
        entropy: None,
    }];
    seated.extend(c.players.iter().map(|(p, name)| Seated {
        seat: u8::try_from(p.seat).unwrap_or(u8::MAX),
        player_id: &p.player_id,
        display_name: name,
        entropy: None,
    }));
    let table = seated_table(&c.row.challenger_id, &command, &seated)?;
    let seats = table.snapshot.seats.len();
    if seats != seated.len() {
        return Err(ServiceError::invalid(
            "seat_count_mismatch",
            format!(
                "this configuration has {seats} seats, the challenge {} players",
                seated.len()
            ),
        ));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(answers: &[ChallengeAnswer]) -> Challenge {
        let now = Utc::now();
        Challenge {
            row: ChallengeRow {
                id: "c".into(),
                challenger_id: "ann".into(),
                kind: "lost-heir".into(),
                options: "{}".into(),
                status: ChallengeStatus::Pending,
                changes: 0,
                created_at: now,
                expires_at: now + chrono::Duration::hours(1),
                ended_at: None,
                game_id: None,
            },
            challenger_name: "Ann".into(),
            players: answers
                .iter()
                .zip(1..)
                .map(|(a, seat)| {
                    let mut row = asked_row("c", &format!("p{seat}"), seat);
                    row.answer = *a;
                    (row, format!("P{seat}"))
                })
                .collect(),
        }
    }

    fn code(r: Result<AnswerDecision, Refused>) -> &'static str {
        match r {
            Err(Refused::Because(ServiceError::Conflict(r) | ServiceError::Forbidden(r))) => r.code,
            Err(Refused::Expired) => "expired",
            other => panic!("not a refusal: {other:?}"),
        }
    }

    #[test]
    fn the_last_acceptance_ends_it_accepted() {
        use ChallengeAnswer::*;
        let now = Utc::now();
        let first = decide_answer(
            &challenge(&[Pending, Pending]),
            "p1",
            ChallengeMove::Accept,
            now,
        );
        assert_eq!(
            first.unwrap(),
            AnswerDecision {
                answer: Some(Accepted),
                end: None
            }
        );
        let last = decide_answer(
            &challenge(&[Accepted, Pending]),
            "p2",
            ChallengeMove::Accept,
            now,
        );
        assert_eq!(last.unwrap().end, Some(ChallengeStatus::Accepted));
        let again = decide_answer(
            &challenge(&[Accepted, Pending]),
            "p1",
            ChallengeMove::Accept,
            now,
        );
        assert_eq!(
            again.unwrap(),
            AnswerDecision {
                answer: None,
                end: None
            },
            "accepting twice changes nothing"
        );
    }

    #[test]
    fn a_decline_ends_it_for_all_and_only_pending_challenges_change() {
        use ChallengeAnswer::*;
        let now = Utc::now();
        let declined = decide_answer(
            &challenge(&[Accepted, Pending]),
            "p2",
            ChallengeMove::Decline,
            now,
        );
        assert_eq!(declined.unwrap().end, Some(ChallengeStatus::Declined));
        let mut over = challenge(&[Pending]);
        over.row.status = ChallengeStatus::Declined;
        assert_eq!(
            code(decide_answer(&over, "p1", ChallengeMove::Accept, now)),
            "challenge_declined"
        );
        let late = now + chrono::Duration::hours(2);
        assert_eq!(
            code(decide_answer(
                &challenge(&[Pending]),
                "p1",
                ChallengeMove::Accept,
                late
            )),
            "expired"
        );
    }

    #[test]
    fn only_the_challenger_withdraws_and_only_the_challenged_answer() {
        let c = challenge(&[ChallengeAnswer::Pending]);
        let now = Utc::now();
        assert_eq!(
            decide_answer(&c, "ann", ChallengeMove::Withdraw, now)
                .unwrap()
                .end,
            Some(ChallengeStatus::Withdrawn)
        );
        assert_eq!(
            code(decide_answer(&c, "p1", ChallengeMove::Withdraw, now)),
            "not_challenger"
        );
        assert_eq!(
            code(decide_answer(&c, "ann", ChallengeMove::Accept, now)),
            "not_challenged"
        );
    }

    #[test]
    fn the_challenged_are_one_to_nine_others_each_once() {
        let ids = |n: usize| (0..n).map(|i| format!("p{i}")).collect::<Vec<_>>();
        assert!(check_challenged("ann", &ids(1)).is_ok());
        assert!(check_challenged("ann", &ids(9)).is_ok());
        assert!(check_challenged("ann", &[]).is_err());
        assert!(check_challenged("ann", &ids(10)).is_err());
        assert!(check_challenged("ann", &["ann".into()]).is_err());
        assert!(check_challenged("ann", &["p1".into(), "p1".into()]).is_err());
    }
}
