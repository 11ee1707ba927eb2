//! Importing a record as a finished game: the service's second write
//! path (besides `write.rs`), so kept apart from the reads. Every move is
//! replayed through the api's own engines into the events the game would
//! have logged, and the game, its placeholder players, seats, log and the
//! idempotent answer are stored in one transaction.

use cards::Seat;
use chrono::{DateTime, Utc};
use game_record::{Actor as RecordActor, GameRecord};

use crate::db::DbError;
use crate::db::models::{GameRow, NewEvent, NewGame, PlayerRow, SeatRow, SeatWithName};
use crate::db::status::{BotLevel, GameStatus, ResignPolicy};
use crate::games::any_game::AnyGame;
use crate::games::error::ServiceError;
use crate::games::log::{self, Actor};
use crate::games::service::{GameService, Snapshot, forfeited_seats};
use crate::games::text;
use crate::games::write::Render;
use crate::idempotency::{IdemRequest, Stored, committed_answer};

impl GameService {
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
        let stored = render.render(snapshot.lend(), 1)?;
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
    game: &dyn AnyGame,
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
            Some(game_record::ResignPolicy::EndGame) => ResignPolicy::EndGame,
            _ => ResignPolicy::Bot,
        },
        series_id: None,
        previous_game_id: None,
        // Never played here: never rated (docs/ratings.md).
        rated: false,
        players_may_invite: false,
        hints_allowed: !record.hints.is_empty(),
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
        players_may_invite: false,
        hints_allowed: !record.hints.is_empty(),
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
        text::printable(entropy, "invalid_entropy", "a seat's entropy")?;
    }
    record
        .players
        .iter()
        .map(|name| {
            Ok(PlayerRow {
                id: uuid::Uuid::new_v4().to_string(),
                display_name: text::display_name(name)?,
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
) -> Result<(Box<dyn AnyGame>, Vec<NewEvent>), ServiceError> {
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
            game_record::ResignPolicy::Bot => ResignPolicy::Bot,
            game_record::ResignPolicy::EndGame => ResignPolicy::EndGame,
        };
        Some(player_of(r.seat).map(|p| log::seat_resigned(Seat::new(r.seat), &p, policy)))
    };
    let hinted = |at: usize| -> Result<Vec<NewEvent>, ServiceError> {
        record
            .hints
            .iter()
            .filter(|h| h.ply == at)
            .map(|h| {
                let ply = u32::try_from(h.ply).map_err(ServiceError::internal)?;
                let player = player_of(h.seat)?;
                Ok(log::hint_given(
                    Seat::new(h.seat),
                    &player,
                    ply,
                    h.mv.clone(),
                ))
            })
            .collect()
    };
    let moves = record.moves();
    for (index, mv) in moves.iter().enumerate() {
        if let Some(event) = resigned(index) {
            events.push(event?);
        }
        events.extend(hinted(index)?);
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
    events.extend(hinted(moves.len())?);
    let forfeited = forfeited_seats(seats);
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
