//! Replay and audit: a game's portable record built from its log
//! (`game_record`), the view after any event, verification of a finished
//! game, and import of a record as a finished game.
//!
//! A record is config + server seed + each seat's entropy + moves (G-1);
//! everything else in it (deals, tricks, scores) is derived by the engine.

use cards::{Seat, Viewer};
use chrono::{DateTime, SecondsFormat, Utc};
use game_record::{
    Actor as RecordActor, GameInfo, GameKind as RecordKind, GameRecord, RecordError, RecordedMove,
};

use std::sync::Arc;

use serde_json::Value;

use super::error::ServiceError;
use super::event::{GameEvent, MovePlayed};
use super::finished::Finished;
use super::log::{self, Actor};
use super::service::{GameService, Snapshot, seat_of};
use super::status::{BotLevel, GameStatus};
use super::write::Render;
use crate::db::DbError;
use crate::db::models::{EventRow, GameRow, NewEvent, NewGame, PlayerRow, SeatRow, SeatWithName};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// Events read per query while reading a whole log.
const PAGE: i64 = 1000;

/// The name a bot seat has in a record.
pub const BOT_NAME: &str = "bot";

/// A bot seat's name in a record: `bot` for the sensible bot (as every
/// record before bot levels says), `bot (random)`, `bot (expert)`.
pub fn bot_name(level: BotLevel) -> String {
    match level {
        BotLevel::Sensible => BOT_NAME.to_owned(),
        level => format!("{BOT_NAME} ({})", level.as_str()),
    }
}

/// A game's row, seats and whole log, read consistently (the log up to the
/// row's version).
#[derive(Debug)]
pub struct History {
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    pub events: Vec<EventRow>,
}

/// The game after one event, as one viewer saw it.
#[derive(Debug)]
pub struct ReplayPoint {
    pub version: i64,
    pub seq: i64,
    /// Moves played up to `seq`.
    pub moves: usize,
    /// Whose eyes: the caller's seat while the game runs, a spectator's
    /// without one, everyone's once it is over.
    pub viewer: Viewer,
    pub your_seat: Option<u8>,
    pub view: serde_json::Value,
}

/// One problem found by [`GameService::verify`].
#[derive(Debug, Clone)]
pub struct Finding {
    /// The line of the record's text form, when the problem is in the record.
    pub line: Option<usize>,
    pub code: String,
    pub rule: Option<String>,
    pub detail: String,
}

/// What [`GameService::verify`] checked and found.
#[derive(Debug)]
pub struct Verification {
    pub row: GameRow,
    /// The record built from the log, when the log replays at all.
    pub record: Option<GameRecord>,
    /// Each seat's entropy, revealed.
    pub entropy: Vec<Option<String>>,
    pub findings: Vec<Finding>,
}

/// Who made a logged move, as a record says it. The one place that maps
/// the log's actor columns to a record's actor.
pub fn record_actor(event: &EventRow) -> RecordActor {
    if event.actor_deadline {
        RecordActor::Deadline
    } else if event.actor_bot {
        RecordActor::Bot
    } else {
        RecordActor::Player
    }
}

/// A time as a record writes it: RFC 3339, UTC, whole seconds.
pub fn record_time(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The record library's code for a refused record: the engine's code for
/// an illegal move, else the kind of problem.
/// The codes of [`problem_code`] that are not an engine's (those are the
/// kinds' `RuleViolation::CODES`).
pub const RECORD_CODES: &[&str] = &[
    "record_syntax",
    "record_missing_tag",
    "record_bad_setup",
    "bad_commitment",
    "deal_mismatch",
    "trick_mismatch",
    "score_mismatch",
    "record_mismatch",
];

pub fn problem_code(problem: &game_record::Problem) -> (String, Option<String>) {
    use game_record::Problem as P;
    let code = match problem {
        P::IllegalMove { code, rule, .. } => return (code.clone(), rule.clone()),
        P::Syntax(_) => "record_syntax",
        P::MissingTag(_) => "record_missing_tag",
        P::BadSetup(_) => "record_bad_setup",
        P::BadCommitment { .. } => "bad_commitment",
        P::DealMismatch { .. } => "deal_mismatch",
        P::TrickMismatch { .. } => "trick_mismatch",
        P::ScoreMismatch { .. } => "score_mismatch",
        P::Mismatch { .. } => "record_mismatch",
    };
    (code.to_owned(), None)
}

fn finding(e: &RecordError) -> Finding {
    let (code, rule) = problem_code(&e.problem);
    Finding {
        line: Some(e.line),
        code,
        rule,
        detail: e.to_string(),
    }
}

fn record_kind(row: &GameRow) -> Result<RecordKind, ServiceError> {
    RecordKind::from_code(&row.kind)
        .ok_or_else(|| ServiceError::internal(format!("unknown kind {}", row.kind)))
}

/// The moves of the log, in order, as a record lists them.
fn recorded_moves(events: &[EventRow]) -> Result<Vec<RecordedMove>, ServiceError> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            GameEvent::Move(MovePlayed(mv)) => Some((e, mv)),
            _ => None,
        })
        .map(|(e, mv)| {
            let seat = e
                .actor_seat
                .and_then(|s| u8::try_from(s).ok())
                .ok_or_else(|| ServiceError::internal(format!("move {} has no seat", e.seq)))?;
            Ok(RecordedMove::new(seat, mv.clone(), record_actor(e)))
        })
        .collect()
}

/// The log's resignation (`seat_resigned`), at its place: after the moves
/// logged before it.
fn resignation(events: &[EventRow]) -> Option<game_record::Resign> {
    let mut moves = 0;
    for e in events {
        match &e.event {
            GameEvent::Move(_) => moves += 1,
            GameEvent::SeatResigned(r) => {
                return Some(game_record::Resign {
                    seat: r.seat,
                    after_moves: moves,
                    policy: match r.policy {
                        super::status::ResignPolicy::Bot => game_record::ResignPolicy::Bot,
                        super::status::ResignPolicy::EndGame => game_record::ResignPolicy::EndGame,
                    },
                });
            }
            _ => {}
        }
    }
    None
}

impl History {
    fn finished(&self) -> bool {
        self.row.status == GameStatus::Finished
    }

    /// Everything but the moves. The seed is the stored one: callers reveal
    /// it only once the game is over.
    fn info(&self) -> Result<GameInfo, ServiceError> {
        let ended = self
            .events
            .iter()
            .find(|e| matches!(e.event, GameEvent::GameFinished(_)))
            .map(|e| record_time(e.created_at));
        Ok(GameInfo {
            kind: record_kind(&self.row)?,
            config: self.row.config.clone(),
            players: self
                .seats
                .iter()
                .map(|s| match (&s.display_name, s.seat.is_bot) {
                    (Some(name), _) => name.clone(),
                    (None, true) => bot_name(s.seat.bot_level),
                    (None, false) => format!("seat {}", s.seat.seat),
                })
                .collect(),
            created: Some(record_time(self.row.created_at)),
            ended,
            server_seed: self.row.seed.parse().map_err(|_| {
                ServiceError::internal(format!("game {} has a malformed seed", self.row.id))
            })?,
            entropy: log::entropy_by_seat(&self.seats),
            resigned: resignation(&self.events),
        })
    }
}

impl GameService {
    /// The game's row, seats and whole log up to the row's version.
    pub async fn history(&self, game_id: &str) -> Result<History, ServiceError> {
        let (row, seats) = self.row_and_seats(game_id).await?;
        let mut events = Vec::with_capacity(usize::try_from(row.version).unwrap_or(0));
        let mut after = 0;
        while after < row.version {
            let page = self
                .db
                .events(&row.id, after, PAGE.min(row.version - after))
                .await?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            events.extend(page);
        }
        Ok(History { row, seats, events })
    }

    /// A finished game's derived answers, from the cache or (once) from its
    /// log; any other game's history as read (`Err`).
    async fn finished_or_history(
        &self,
        game_id: &str,
    ) -> Result<Result<Arc<Finished>, History>, ServiceError> {
        if let Some(game) = self.finished.get(game_id) {
            return Ok(Ok(game));
        }
        let history = self.history(game_id).await?;
        if !history.finished() {
            return Ok(Err(history));
        }
        let info = history.info()?;
        let published = history.events.iter().find_map(|e| match &e.event {
            GameEvent::GameStarted(started) => Some(started.seed_commitment.clone()),
            _ => None,
        });
        let moves = recorded_moves_with_seqs(&history.events)?;
        let game = Arc::new(Finished::new(
            history.row,
            history.seats,
            info,
            moves,
            published,
        ));
        self.finished.insert(game.clone());
        Ok(Ok(game))
    }

    /// The record of a finished game (before the end the seed is secret:
    /// 409 `game_not_finished`); computed once (`games::finished`).
    pub async fn export(&self, game_id: &str) -> Result<Arc<GameRecord>, ServiceError> {
        let game = self.finished_for_export(game_id).await?;
        game.record(build_record)
    }

    /// [`GameService::export`] in its text form (`json`: its JSON form),
    /// rendered once.
    pub async fn export_as(&self, game_id: &str, json: bool) -> Result<Arc<str>, ServiceError> {
        let game = self.finished_for_export(game_id).await?;
        game.record_form(json, build_record)
    }

    async fn finished_for_export(&self, game_id: &str) -> Result<Arc<Finished>, ServiceError> {
        self.finished_or_history(game_id).await?.map_err(|_| {
            ServiceError::conflict(
                "game_not_finished",
                "a game's record is public once it is over (its seed is revealed then)",
            )
        })
    }

    /// The game after the event `seq` (default: the last), as the caller
    /// saw it then: their seat's view, the public view without a seat, the
    /// whole table for everyone once the game is over (G-2). A finished
    /// game's points are computed once (`games::finished`).
    pub async fn replay(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        seq: Option<i64>,
    ) -> Result<ReplayPoint, ServiceError> {
        let history = match self.finished_or_history(game_id).await? {
            Ok(game) => {
                let version = game.row.version;
                let seq = seq.unwrap_or(version);
                check_seq(seq, version)?;
                let (moves, view) = game.view_after(seq, |g, moves| {
                    game_record::view_after(&g.info, moves, Viewer::Omniscient)
                        .map_err(ServiceError::internal)
                })?;
                return Ok(ReplayPoint {
                    version,
                    seq,
                    moves,
                    viewer: Viewer::Omniscient,
                    your_seat: player_id
                        .and_then(|p| seat_of(&game.seats, p))
                        .map(Seat::number),
                    view: Value::clone(&view),
                });
            }
            Err(history) => history,
        };
        if history.row.status == GameStatus::Open {
            return Err(ServiceError::conflict(
                "game_not_started",
                "nothing is dealt before every seat is filled",
            ));
        }
        let version = history.row.version;
        let seq = seq.unwrap_or(version);
        check_seq(seq, version)?;
        let seat = player_id.and_then(|p| seat_of(&history.seats, p));
        let viewer = match seat {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        };
        let upto: Vec<EventRow> = history
            .events
            .iter()
            .take_while(|e| e.seq <= seq)
            .cloned()
            .collect();
        let moves = recorded_moves(&upto)?;
        let view = game_record::view_after(&history.info()?, &moves, viewer)
            .map_err(ServiceError::internal)?;
        Ok(ReplayPoint {
            version,
            seq,
            moves: moves.len(),
            viewer,
            your_seat: seat.map(Seat::number),
            view,
        })
    }

    /// Checks a finished game as an outsider would: the commitment
    /// published at creation against the revealed seed, every deal
    /// recomputed from the seed and entropy, every move replayed, every
    /// trick, score and the result (`game_record::verify`); once per game
    /// (`games::finished`).
    pub async fn verify(&self, game_id: &str) -> Result<Arc<Verification>, ServiceError> {
        let Ok(game) = self.finished_or_history(game_id).await? else {
            return Err(ServiceError::conflict(
                "game_not_finished",
                "a game can be verified once it is over (its seed is revealed then)",
            ));
        };
        game.verification(verification)
    }

    /// Stores a record (already parsed, so every move re-validated) as a
    /// finished game: a placeholder player per seat (named as in the
    /// record; nobody can sign in as one), its events as they would have
    /// been logged, timed at the record's creation (the end at `Ended`),
    /// and the seed stored as revealed. `importer` is the game's creator.
    /// The answer is `render`ed from the imported game (its whole log one
    /// change, so `first_seq` is 1) and stored with it under `idem`.
    pub async fn import(
        &self,
        importer: &PlayerRow,
        record: &GameRecord,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        if !record.is_finished() {
            return Err(ServiceError::invalid(
                "record_unfinished",
                "only a finished game's record can be imported (its result is `*`)",
            ));
        }
        let now = Utc::now();
        let created = record_time_or(&record.created, "Created", now)?;
        let ended = record_time_or(&record.ended, "Ended", now)?;
        let id = uuid::Uuid::new_v4().to_string();
        let players = placeholder_players(record, now)?;
        let mut seats = imported_seats(&id, &players, &record.entropy);
        if let Some(r) = &record.resignation {
            for s in seats.iter_mut() {
                let seat = u8::try_from(s.seat.seat).unwrap_or(u8::MAX);
                s.seat.forfeited = r.forfeited.contains(&seat);
                s.seat.autoplay = s.seat.forfeited && r.policy == game_record::ResignPolicy::Bot;
            }
        }
        let (game, mut events) = imported_log(record, &seats)?;
        for event in &mut events {
            event.created_at = Some(created);
        }
        if let Some(last) = events.last_mut() {
            last.created_at = Some(ended);
        }
        let version = events.len() as i64;
        let (row, new_game) = imported_rows(record, id, importer, &*game, version, created, ended);
        let seat_rows: Vec<SeatRow> = seats.iter().map(|s| s.seat.clone()).collect();
        let snapshot = Snapshot { row, seats, game };
        let stored = render.render(&snapshot, 1)?;
        let idem_row = idem.map(|i| i.record(&stored));
        let imported = self
            .db
            .import_game(
                &players,
                &new_game,
                ended,
                &seat_rows,
                &events,
                idem_row.as_ref(),
            )
            .await;
        match (imported, idem) {
            (Ok(()), _) => Ok(stored),
            // A concurrent copy of this request imported first: its answer.
            (Err(DbError::IdempotencyTaken), Some(idem)) => idem.replay_winner(&self.db).await,
            (Err(e), _) => Err(e.into()),
        }
    }
}

/// A time tag of a record (`tag`, for the message), or `default` when the
/// record has none.
fn record_time_or(
    value: &Option<String>,
    tag: &str,
    default: DateTime<Utc>,
) -> Result<DateTime<Utc>, ServiceError> {
    let Some(text) = value else {
        return Ok(default);
    };
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| {
            ServiceError::invalid(
                "record_bad_time",
                format!("[{tag} \"{text}\"] is not an RFC 3339 time: {e}"),
            )
        })
}

/// The seats of imported game `id`: `players` in order, with the record's
/// entropy.
fn imported_seats(
    id: &str,
    players: &[PlayerRow],
    entropy: &[Option<String>],
) -> Vec<SeatWithName> {
    players
        .iter()
        .zip(entropy)
        .enumerate()
        .map(|(i, (player, entropy))| SeatWithName {
            display_name: Some(player.display_name.clone()),
            seat: SeatRow {
                game_id: id.to_owned(),
                seat: i as i32,
                player_id: Some(player.id.clone()),
                is_bot: false,
                entropy: entropy.clone(),
                autoplay: false,
                forfeited: false,
                invited_player_id: None,
                bot_level: BotLevel::Sensible,
            },
        })
        .collect()
}

/// The row of imported game `id` (finished at `version`, the length of its
/// log, its seed revealed, created by `importer`) as the cache keeps it and
/// as it is inserted.
fn imported_rows(
    record: &GameRecord,
    id: String,
    importer: &PlayerRow,
    game: &dyn super::AnyGame,
    version: i64,
    created: DateTime<Utc>,
    ended: DateTime<Utc>,
) -> (GameRow, NewGame) {
    let row = GameRow {
        id,
        kind: record.kind.code().to_owned(),
        config: game.config_json(),
        status: GameStatus::Finished,
        version,
        to_act: 0,
        seed_commitment: record.commitment.clone(),
        seed: record.seed.to_string(),
        created_by: importer.id.clone(),
        created_at: created,
        updated_at: ended,
        move_deadline_secs: None,
        on_deadline: None,
        deadline_at: None,
        on_resign: match record.resignation.as_ref().map(|r| r.policy) {
            Some(game_record::ResignPolicy::EndGame) => super::status::ResignPolicy::EndGame,
            _ => super::status::ResignPolicy::Bot,
        },
        series_id: None,
        previous_game_id: None,
        // Never played here: never rated (docs/ratings.md).
        rated: false,
    };
    let new_game = NewGame {
        id: row.id.clone(),
        kind: row.kind.clone(),
        config: row.config.clone(),
        status: row.status,
        to_act: 0,
        seed_commitment: row.seed_commitment.clone(),
        seed: row.seed.clone(),
        created_by: row.created_by.clone(),
        created_at: created,
        move_deadline_secs: None,
        on_deadline: None,
        deadline_at: None,
        on_resign: row.on_resign,
        series_id: None,
        previous_game_id: None,
        // Never played here: never rated (docs/ratings.md).
        rated: false,
    };
    (row, new_game)
}

/// A placeholder player per seat of `record`, named as in the record under
/// the rules every name follows (`text::display_name`: the same door as
/// registration, so an import cannot store what registering refuses), after
/// checking its entropy is text both backends can store.
fn placeholder_players(
    record: &GameRecord,
    now: DateTime<Utc>,
) -> Result<Vec<PlayerRow>, ServiceError> {
    for entropy in record.entropy.iter().flatten() {
        super::text::printable(entropy, "invalid_entropy", "a seat's entropy")?;
    }
    record
        .players
        .iter()
        .map(|name| {
            Ok(PlayerRow {
                id: uuid::Uuid::new_v4().to_string(),
                display_name: super::text::display_name(name)?,
                created_at: now,
            })
        })
        .collect()
}

/// The events a game played as `record` says would have logged, and its
/// final state: the seats taken, the start, every move (replayed through
/// the api's own engines) and the end.
fn imported_log(
    record: &GameRecord,
    seats: &[SeatWithName],
) -> Result<(Box<dyn super::AnyGame>, Vec<NewEvent>), ServiceError> {
    let seed = record.seed.to_string();
    let entropy = log::entropy_by_seat(seats);
    let mut game = log::new_game(record.kind.code(), &record.config, &seed, &entropy)
        .map_err(ServiceError::internal)?;
    let player_of = |seat: u8| {
        seats
            .get(usize::from(seat))
            .and_then(|s| s.seat.player_id.clone())
            .ok_or_else(|| ServiceError::internal(format!("no seat {seat}")))
    };
    let mut events = Vec::new();
    for s in seats {
        let seat = Seat::new(s.seat.seat as u8);
        let player_id = player_of(seat.number())?;
        let actor = Actor::Player {
            player_id: player_id.clone(),
            seat: Some(seat),
        };
        events.push(log::seat_taken(seat, &player_id, &actor));
    }
    events.push(log::game_started(&record.commitment, game.to_act()));
    let resigned = |at: usize| {
        let r = record
            .resignation
            .as_ref()
            .filter(|r| r.after_moves == at)?;
        let policy = match r.policy {
            game_record::ResignPolicy::Bot => super::status::ResignPolicy::Bot,
            game_record::ResignPolicy::EndGame => super::status::ResignPolicy::EndGame,
        };
        Some(player_of(r.seat).map(|p| log::seat_resigned(Seat::new(r.seat), &p, policy)))
    };
    let moves = record.moves();
    for (index, mv) in moves.iter().enumerate() {
        if let Some(event) = resigned(index) {
            events.push(event?);
        }
        let seat = Seat::new(mv.seat);
        let played = game.play_mut(seat, &mv.mv).map_err(|e| {
            ServiceError::internal(format!("a parsed record's move is refused: {e:?}"))
        })?;
        let actor = match mv.actor {
            RecordActor::Player => Actor::Player {
                player_id: player_of(mv.seat)?,
                seat: Some(seat),
            },
            RecordActor::Bot => Actor::Bot { seat },
            RecordActor::Deadline => Actor::Deadline { seat },
        };
        events.push(log::moved(seat, played, &actor));
    }
    if let Some(event) = resigned(moves.len()) {
        events.push(event?);
    }
    let forfeited = super::service::forfeited_seats(seats);
    let ended_by_resignation = record
        .resignation
        .as_ref()
        .is_some_and(|r| r.policy == game_record::ResignPolicy::EndGame);
    if ended_by_resignation {
        events.push(log::game_stopped(&*game, &seed, &entropy, forfeited));
        return Ok((game, events));
    }
    if game.outcome().is_none() {
        return Err(ServiceError::internal(
            "a finished record replays unfinished",
        ));
    }
    events.push(log::game_finished(&*game, &seed, &entropy, forfeited));
    Ok((game, events))
}

fn check_seq(seq: i64, version: i64) -> Result<(), ServiceError> {
    if (0..=version).contains(&seq) {
        Ok(())
    } else {
        Err(ServiceError::bad_query(format!(
            "seq is 0 to {version}, the game's version"
        )))
    }
}

/// [`recorded_moves`], each with its event's seq.
fn recorded_moves_with_seqs(events: &[EventRow]) -> Result<Vec<(i64, RecordedMove)>, ServiceError> {
    let seqs = events
        .iter()
        .filter(|e| matches!(e.event, GameEvent::Move(_)))
        .map(|e| e.seq);
    Ok(seqs.zip(recorded_moves(events)?).collect())
}

/// The check behind [`GameService::verify`], on a finished game.
fn verification(game: &Finished) -> Result<Verification, ServiceError> {
    let info = &game.info;
    let mut findings = Vec::new();
    let computed = game_record::fairness::commitment(&info.server_seed);
    for claimed in [
        Some(game.row.seed_commitment.clone()),
        game.published_commitment.clone(),
    ]
    .into_iter()
    .flatten()
    {
        if claimed != computed {
            findings.push(Finding {
                line: None,
                code: "bad_commitment".to_owned(),
                rule: None,
                detail: format!(
                    "the commitment published for this game, {claimed}, is not SHA-256 of \
                     the revealed seed, which is {computed}"
                ),
            });
        }
    }
    let record = match GameRecord::build(info, &game.moves) {
        Ok(record) => {
            findings.extend(game_record::verify_record(&record).iter().map(finding));
            Some(record)
        }
        Err(game_record::BuildError::IllegalMove {
            index,
            seat,
            code,
            rule,
            message,
        }) => {
            findings.push(Finding {
                line: None,
                code,
                rule,
                detail: format!(
                    "move {} of the log (by seat {seat}) does not replay from the revealed \
                     seed: {message}",
                    index + 1
                ),
            });
            None
        }
        Err(other) => return Err(ServiceError::internal(other)),
    };
    Ok(Verification {
        row: game.row.clone(),
        record,
        entropy: info.entropy.clone(),
        findings,
    })
}

fn build_record(game: &Finished) -> Result<GameRecord, ServiceError> {
    GameRecord::build(&game.info, &game.moves).map_err(ServiceError::internal)
}
