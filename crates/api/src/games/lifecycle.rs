//! A game's life before play. Creation inserts the game, its seats (bots,
//! the creator's) and its first events in one transaction (a new game has
//! no version to guard, so it is not a `write::Command`); joining, leaving
//! and autoplay are commands built here, run by the write path and decided
//! by the core (`decide/join.rs`, `leave.rs`, `autoplay.rs`).

use std::sync::Arc;

use cards::{Seat, Seed};

use super::any_game::AnyGame;
use super::any_game::GameKind;
use super::cache::LoadedGame;
use super::domain::{CreateGame, DeadlinePolicy, MAX_MOVE_DEADLINE_SECS, SeatSpec};
use super::error::{Refusal, ServiceError};
use super::kinds;
use super::log::{self, Actor};
use super::seats::bot_seats;
use super::service::{GameService, Snapshot};
use super::status::{BotLevel, GameStatus};
use super::write::{Command, Outcome, Render};
use crate::db::DbError;
use crate::db::models::{GameRow, NewEvent, NewGame, PlayerRow, SeatRow, SeatWithName};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// A create command, checked: what the new game is made of.
struct Checked {
    kind: &'static dyn GameKind,
    specs: Vec<SeatSpec>,
    take_seat: Option<u8>,
    entropy: Option<String>,
    move_deadline_secs: Option<i64>,
    on_deadline: Option<DeadlinePolicy>,
}

/// A new game as it is stored: its row, seats and first events, and its
/// engine state.
#[derive(Debug)]
pub(super) struct NewTable {
    pub(super) snapshot: Snapshot,
    pub(super) events: Vec<NewEvent>,
    pub(super) game: Box<dyn AnyGame>,
}

/// A player who takes a seat as the game is made (the creator's
/// `take_seat`; every member of a table formed from seeks).
#[derive(Debug, Clone, Copy)]
pub(super) struct Seated<'a> {
    pub(super) seat: u8,
    pub(super) player_id: &'a str,
    pub(super) display_name: &'a str,
    /// Their contribution to the shuffle.
    pub(super) entropy: Option<&'a str>,
}

impl GameService {
    /// Creates a game; it starts at once if no seat is left open. A copy of
    /// an idempotent create answers the first one's answer.
    pub async fn create(
        self: &Arc<Self>,
        creator: &PlayerRow,
        command: &CreateGame,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        let checked = check_create(command)?;
        let seated: Vec<Seated<'_>> = checked
            .take_seat
            .map(|seat| Seated {
                seat,
                player_id: &creator.id,
                display_name: &creator.display_name,
                entropy: checked.entropy.as_deref(),
            })
            .into_iter()
            .collect();
        let table = new_table(&creator.id, command, &checked, &seated)?;
        let answer = render.render(table.snapshot.lend(), 1)?;
        let record = idem.map(|i| i.record(&answer));
        let (new_game, seat_rows) = stored_rows(&table.snapshot);
        let limit = self.bot_games_limit(&checked.specs);
        match self
            .db
            .create_game(&new_game, &seat_rows, &table.events, record.as_ref(), limit)
            .await
        {
            Ok(()) => {}
            Err(DbError::Limited) => {
                return Err(ServiceError::conflict(
                    "too_many_bot_games",
                    format!(
                        "you have {} open or running games with an expert bot or only bots: finish or leave one first",
                        limit.unwrap_or_default()
                    ),
                ));
            }
            // A concurrent copy of this request created the game first.
            Err(DbError::IdempotencyTaken) => {
                if let Some(idem) = idem {
                    return idem.replay_winner(&self.db).await;
                }
                return Err(ServiceError::internal("idempotency race without a key"));
            }
            Err(e) => return Err(e.into()),
        }
        self.created(table).await;
        Ok(answer)
    }

    /// The most open or running games like this one (with an expert bot
    /// seat, or bots only) its creator may have, if it is one and there is
    /// a limit (`BOT_GAMES_PER_PLAYER`): they are what the expert
    /// thinkers and the bot drivers spend the server's CPU on.
    fn bot_games_limit(&self, specs: &[SeatSpec]) -> Option<i64> {
        let max = self.bots.games_per_player;
        let expert = specs.contains(&SeatSpec::BotExpert);
        let bots_only = specs.iter().all(|s| s.bot_level().is_some());
        (max > 0 && (expert || bots_only)).then(|| i64::try_from(max).unwrap_or(i64::MAX))
    }

    /// After a game is stored: its state cached, watchers told, its bots
    /// started if it is under way.
    pub(super) async fn created(self: &Arc<Self>, table: NewTable) {
        let id = table.snapshot.row.id.clone();
        let version = table.events.len() as i64;
        *self.cache.slot(&id).lock().await = Some(LoadedGame {
            version,
            game: table.game,
            known: None,
        });
        let players = super::notify::seated_players(&table.snapshot.seats);
        self.appended(&id, version, players, None);
        let started = table.snapshot.status() == GameStatus::InProgress;
        if started && !bot_seats(&table.snapshot.seats).is_empty() {
            self.kick_bots(id);
        }
    }

    /// Seats `player` at an open game (a chosen seat or the lowest open one);
    /// the game starts when the last seat fills.
    pub async fn join(
        self: &Arc<Self>,
        game_id: &str,
        player: &PlayerRow,
        seat: Option<u8>,
        entropy: Option<&str>,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Join {
            player,
            seat,
            entropy: checked_entropy(entropy)?,
        };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }

    /// Hands `player_id`'s seat to the server's bot (`enabled`) or takes it
    /// back. A forfeited seat cannot be taken back; asking for the state the
    /// seat is already in appends nothing and answers the game as it is.
    pub async fn set_autoplay(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        enabled: bool,
        level: BotLevel,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Autoplay {
            player_id,
            enabled,
            level,
        };
        match self.execute(game_id, &command, idem, Some(render)).await? {
            Outcome::Unchanged => {
                let snapshot = self.snapshot(game_id).await?;
                render.render(snapshot.lend(), snapshot.row.version)
            }
            outcome => outcome.answer(),
        }
    }

    /// Gives up `player`'s seat in a game that has not started.
    pub async fn leave(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Leave { player_id };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }
}

/// Checks a create command against its kind: the config (the engine's
/// refusal names its ruling), the seats, the creator's seat and entropy,
/// the clock.
fn check_create(command: &CreateGame) -> Result<Checked, ServiceError> {
    let kind = kinds::find(command.kind)
        .ok_or_else(|| ServiceError::invalid("unknown_kind", "no such game kind"))?;
    if command.hints && command.rated {
        // A rating measures the players alone: the expert's help is for
        // unrated games (docs/analysis.md, "Hints").
        return Err(ServiceError::invalid(
            "hints_not_allowed",
            "a rated game never allows hints: create it with rated false",
        ));
    }
    let entropy = checked_entropy(command.entropy.as_deref())?;
    if entropy.is_some() && command.take_seat.is_none() {
        return Err(ServiceError::invalid(
            "entropy_without_seat",
            "entropy is added to the shuffle by a seat: give take_seat too",
        ));
    }
    let (move_deadline_secs, on_deadline) = deadline_settings(command)?;
    // Checks the configuration only; the deal is made once the seats'
    // entropy is known.
    let n = kind
        .new_game(&command.config, Seed(crate::random::secret_bytes()))
        .map_err(|e| {
            ServiceError::Invalid(Refusal {
                code: e.code,
                rule: e.rule,
                message: e.message,
            })
        })?
        .seat_count();
    let specs = command
        .seats
        .clone()
        .unwrap_or_else(|| vec![SeatSpec::Open; usize::from(n)]);
    if specs.len() != usize::from(n) {
        return Err(ServiceError::invalid(
            "seat_count_mismatch",
            format!(
                "this configuration has {n} seats, `seats` lists {}",
                specs.len()
            ),
        ));
    }
    check_take_seat(&specs, command.take_seat)?;
    Ok(Checked {
        kind,
        specs,
        take_seat: command.take_seat,
        entropy,
        move_deadline_secs,
        on_deadline,
    })
}

/// The seat the creator takes must exist and be open.
fn check_take_seat(specs: &[SeatSpec], take_seat: Option<u8>) -> Result<(), ServiceError> {
    let Some(t) = take_seat else {
        return Ok(());
    };
    match specs.get(usize::from(t)) {
        None => Err(ServiceError::invalid(
            "no_such_seat",
            format!("seats are numbered 0 to {}", specs.len().saturating_sub(1)),
        )),
        Some(SeatSpec::Open) => Ok(()),
        Some(_) => Err(ServiceError::invalid(
            "seat_is_bot",
            "take_seat names a bot seat",
        )),
    }
}

/// A new game of `command` made by `creator_id` with `seated` in their
/// seats (the command takes no seat of its own): checked as a create
/// command is, then made as [`new_table`] makes it.
pub(super) fn seated_table(
    creator_id: &str,
    command: &CreateGame,
    seated: &[Seated<'_>],
) -> Result<NewTable, ServiceError> {
    let checked = check_create(command)?;
    new_table(creator_id, command, &checked, seated)
}

/// The new game: a fresh secret seed (its SHA-256 public at once), the
/// seats as specified with the players `seated`, the deal from the seed
/// and the seats' entropy (G-1), and its first events; started when no
/// seat is left open.
fn new_table(
    creator_id: &str,
    command: &CreateGame,
    checked: &Checked,
    seated: &[Seated<'_>],
) -> Result<NewTable, ServiceError> {
    let id = uuid::Uuid::new_v4().to_string();
    let seed = Seed(crate::random::secret_bytes());
    let seed_hex = seed.to_string();
    let commitment = crate::random::sha256_hex(&seed.0);
    let invited = command.rematch.as_ref().map(|r| r.invited.as_slice());
    let (seats, mut events) = initial_seats(
        &id,
        creator_id,
        &checked.specs,
        seated,
        invited.unwrap_or(&[]),
    );
    let game = log::new_game(
        checked.kind.name(),
        &command.config,
        &seed_hex,
        &log::entropy_by_seat(&seats),
    )
    .map_err(ServiceError::internal)?;
    let full = seats
        .iter()
        .all(|s| s.seat.is_bot || s.seat.player_id.is_some());
    if full {
        events.push(log::game_started(&commitment, game.to_act()));
    }
    let now = crate::db::now();
    let row = GameRow {
        id,
        kind: checked.kind.name().to_owned(),
        config: game.config_json(),
        status: if full {
            GameStatus::InProgress
        } else {
            GameStatus::Open
        },
        version: events.len() as i64,
        to_act: if full {
            log::seat_mask(game.to_act())
        } else {
            0
        },
        seed_commitment: commitment,
        seed: seed_hex,
        created_by: creator_id.to_owned(),
        created_at: now,
        updated_at: now,
        move_deadline_secs: checked.move_deadline_secs,
        on_deadline: checked.on_deadline,
        deadline_at: super::deadlines::first_deadline(checked.move_deadline_secs, full),
        on_resign: command.on_resign,
        series_id: command.rematch.as_ref().map(|r| r.series_id.clone()),
        previous_game_id: command.rematch.as_ref().map(|r| r.previous_game_id.clone()),
        rated: command.rated,
        players_may_invite: command.players_may_invite,
        hints_allowed: command.hints,
    };
    let snapshot = Snapshot {
        row,
        seats,
        game: game.clone_box(),
    };
    Ok(NewTable {
        snapshot,
        events,
        game,
    })
}

/// The seats of a new game (bots, the players seated, open ones) and their
/// `seat_taken` and `bot_seated` events (a bot seated by the creator).
fn initial_seats(
    game_id: &str,
    creator_id: &str,
    specs: &[SeatSpec],
    seated: &[Seated<'_>],
    invited: &[Option<String>],
) -> (Vec<SeatWithName>, Vec<NewEvent>) {
    let creator_actor = Actor::Player {
        player_id: creator_id.to_owned(),
        seat: None,
    };
    let mut seats = Vec::new();
    let mut events = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let seat = Seat::new(i as u8);
        let taker = seated.iter().find(|s| usize::from(s.seat) == i);
        let player_id = taker.map(|t| t.player_id.to_owned());
        let level = spec.bot_level();
        let is_bot = level.is_some();
        if let Some(level) = level {
            events.push(log::bot_seated(seat, level, &creator_actor));
        } else if let Some(pid) = &player_id {
            let actor = Actor::Player {
                player_id: pid.clone(),
                seat: Some(seat),
            };
            events.push(log::seat_taken(seat, pid, &actor));
        }
        seats.push(SeatWithName {
            display_name: taker.map(|t| t.display_name.to_owned()),
            seat: SeatRow {
                game_id: game_id.to_owned(),
                seat: i32::from(seat.number()),
                entropy: taker.and_then(|t| t.entropy.map(str::to_owned)),
                player_id,
                is_bot,
                autoplay: false,
                forfeited: false,
                invited_player_id: invited.get(i).cloned().flatten().filter(|_| !is_bot),
                bot_level: level.unwrap_or_default(),
            },
        });
    }
    (seats, events)
}

/// The rows a new game is inserted as.
pub(super) fn stored_rows(snapshot: &Snapshot) -> (NewGame, Vec<SeatRow>) {
    let row = &snapshot.row;
    let new_game = NewGame {
        id: row.id.clone(),
        kind: row.kind.clone(),
        config: row.config.clone(),
        status: row.status,
        to_act: row.to_act,
        seed_commitment: row.seed_commitment.clone(),
        seed: row.seed.clone(),
        created_by: row.created_by.clone(),
        created_at: row.created_at,
        move_deadline_secs: row.move_deadline_secs,
        on_deadline: row.on_deadline,
        deadline_at: row.deadline_at,
        on_resign: row.on_resign,
        series_id: row.series_id.clone(),
        previous_game_id: row.previous_game_id.clone(),
        rated: row.rated,
        players_may_invite: row.players_may_invite,
        hints_allowed: row.hints_allowed,
    };
    let seats = snapshot.seats.iter().map(|s| s.seat.clone()).collect();
    (new_game, seats)
}

/// The most a player may add to the shuffle, in bytes.
pub const MAX_ENTROPY_BYTES: usize = 1024;

/// A seat's entropy as given, if it is not too long.
pub(super) fn checked_entropy(entropy: Option<&str>) -> Result<Option<String>, ServiceError> {
    if let Some(e) = entropy {
        super::text::printable(e, "invalid_entropy", "entropy")?;
    }
    match entropy {
        Some(e) if e.len() > MAX_ENTROPY_BYTES => Err(ServiceError::invalid(
            "entropy_too_long",
            format!("entropy is at most {MAX_ENTROPY_BYTES} bytes"),
        )),
        other => Ok(other.map(str::to_owned)),
    }
}

/// The clock settings of a create command, checked: the time per move and
/// the stored policy.
fn deadline_settings(
    command: &CreateGame,
) -> Result<(Option<i64>, Option<DeadlinePolicy>), ServiceError> {
    match (command.move_deadline_secs, command.on_deadline) {
        (None, None) => Ok((None, None)),
        (None, Some(_)) => Err(ServiceError::invalid(
            "bad_deadline",
            "on_deadline needs move_deadline_secs",
        )),
        (Some(secs), _) if !(1..=MAX_MOVE_DEADLINE_SECS).contains(&secs) => {
            Err(ServiceError::invalid(
                "bad_deadline",
                format!("move_deadline_secs is 1 to {MAX_MOVE_DEADLINE_SECS} (30 days)"),
            ))
        }
        (Some(secs), policy) => Ok((Some(secs as i64), Some(policy.unwrap_or_default()))),
    }
}
