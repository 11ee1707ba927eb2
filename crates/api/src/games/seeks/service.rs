//! Quick play's service methods, the decision the seeks' transaction
//! writes, and the sweep.
//!
//! Every change to the seeks of a kind (a new seek, a cancel, the sweep)
//! is one `Db::seek_change`: under the kind's lock it hands this module
//! the kind's active seeks, and [`GameService::decide_tables`] returns
//! what to write: the tables `matching::form_tables` makes now, each a new
//! game with its members seated (and its bots), the members' seeks marked
//! matched, the webhook outbox, when the sweep should look at each seek
//! next, and the idempotency record of a new seek's answer. Once that is
//! committed, each new game is cached and told like any created game.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use super::matching::{self, BotsWanted, Rules, Seeker, Table};
use super::options::{self, SeekOptions};
use super::request::{SeekRequest, checked, next_wake};
use crate::db::DbError;
use crate::db::seeks::{
    ActiveSeek, NewTableRows, SeekChange, SeekQueue, SeekRefused, SeekRow, SeekStatus, SeekWrites,
};
use crate::games::domain::{CreateGame, SeatSpec};
use crate::games::error::ServiceError;
use crate::games::lifecycle::{NewTable, Seated, seated_table, stored_rows};
use crate::games::service::GameService;
use crate::games::status::{BotLevel, ResignPolicy};
use crate::games::vocabulary::PlayerRow;
use crate::games::watch::SeekNotice;
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// The active seeks of a kind one change looks at, first come first: a
/// newer seek waits until older ones have matched, been cancelled or
/// expired (it bounds the work done under the kind's lock).
pub const MATCH_WINDOW: i64 = 500;

/// How long an ended seek (matched, cancelled, expired) is kept, readable
/// and in its player's list (a matched one in the inbox), before the
/// sweep deletes it.
pub const ENDED_SEEK_RETENTION: Duration = Duration::from_secs(24 * 3600);

/// How often the sweep looks for seeks whose time has come.
const SWEEP_TICK: Duration = Duration::from_millis(250);

/// Ended seeks deleted per statement, and how often the sweep purges.
const PURGE_BATCH: i64 = 500;
const PURGE_EVERY: Duration = Duration::from_secs(60);

/// Notices of matched seeks in the inbox, at most.
const INBOX_SEEKS: i64 = 20;

/// How a seek is answered (the HTTP layer's resource), rendered inside
/// the transaction that stores it so that an idempotency record holds the
/// very answer sent.
pub trait SeekRender: Sync {
    fn render(&self, seek: &SeekRow) -> Result<Stored, ServiceError>;
}

/// What one change of a kind's seeks formed, handed out of its
/// transaction.
struct Formed {
    tables: Vec<NewTable>,
    /// A new seek's answer.
    answer: Option<Stored>,
}

/// A new seek being stored, for its answer.
struct Asking<'a> {
    seek: &'a SeekRow,
    idem: Option<&'a IdemRequest>,
    render: &'a dyn SeekRender,
}

impl GameService {
    /// Stores `player`'s seek and forms the tables it makes possible, in
    /// one transaction; the answer is the seek as it stands then (matched
    /// at once, or active). A copy of an idempotent create answers the
    /// first one's answer.
    pub async fn create_seek(
        self: &Arc<Self>,
        player: &PlayerRow,
        request: &SeekRequest,
        idem: Option<&IdemRequest>,
        render: &dyn SeekRender,
    ) -> Result<Stored, ServiceError> {
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        let rating = self.rating_of(&player.id, request.kind).await?;
        let seek = checked(request, &player.id, rating, crate::db::now(), &self.seeks)?;
        self.check_expert_room(&seek).await?;
        let limit = i64::try_from(self.seeks.per_player).unwrap_or(i64::MAX);
        let change = SeekChange::Insert { seek: &seek, limit };
        let asking = Asking {
            seek: &seek,
            idem,
            render,
        };
        let decide = |queue: &SeekQueue| self.decide_tables(&seek.kind, queue, Some(&asking));
        let turn = self.seek_turns.turn(&seek.kind).await;
        let changed = self
            .db
            .seek_change(&seek.kind, change, MATCH_WINDOW, &decide)
            .await;
        drop(turn);
        let formed = match changed {
            Ok(Ok(formed)) => formed,
            Ok(Err(SeekRefused::TooMany)) => {
                return Err(ServiceError::conflict(
                    "too_many_seeks",
                    format!("you hold {limit} active seeks: cancel one or wait for a table first"),
                ));
            }
            Ok(Err(refused)) => return Err(ServiceError::internal(format!("{refused:?}"))),
            // A concurrent copy of this request stored the seek first.
            Err(DbError::IdempotencyTaken) => {
                return match idem {
                    Some(idem) => idem.replay_winner(&self.db).await,
                    None => Err(ServiceError::internal("idempotency race without a key")),
                };
            }
            Err(e) => return Err(e.into()),
        };
        let answer = formed
            .answer
            .ok_or_else(|| ServiceError::internal("a new seek without its answer"))?;
        self.tables_formed(formed.tables).await;
        Ok(answer)
    }

    /// `player_id`'s seek `seek_id`; another player's is not found.
    pub async fn seek(&self, player_id: &str, seek_id: &str) -> Result<SeekRow, ServiceError> {
        self.db
            .seek(seek_id)
            .await?
            .filter(|s| s.player_id == player_id)
            .ok_or_else(seek_not_found)
    }

    /// `player_id`'s seeks, newest first (only `status` ones when given),
    /// at most `limit`.
    pub async fn seeks_of(
        &self,
        player_id: &str,
        status: Option<SeekStatus>,
        limit: i64,
    ) -> Result<Vec<SeekRow>, ServiceError> {
        Ok(self.db.seeks_of(player_id, status, limit).await?)
    }

    /// Cancels `player_id`'s seek `seek_id`, if it is still active, and
    /// forms the tables its leaving makes possible; the seek as it is then.
    /// A seek that was matched (even a moment before: the cancel raced the
    /// table and lost), cancelled or expired is refused, and nothing changes.
    pub async fn cancel_seek(
        self: &Arc<Self>,
        player_id: &str,
        seek_id: &str,
    ) -> Result<SeekRow, ServiceError> {
        let seek = self.seek(player_id, seek_id).await?;
        let change = SeekChange::Cancel {
            id: seek_id,
            player_id,
        };
        let decide = |queue: &SeekQueue| self.decide_tables(&seek.kind, queue, None);
        let turn = self.seek_turns.turn(&seek.kind).await;
        let changed = self
            .db
            .seek_change(&seek.kind, change, MATCH_WINDOW, &decide)
            .await;
        drop(turn);
        match changed? {
            Ok(formed) => self.tables_formed(formed.tables).await,
            Err(SeekRefused::Ended(row)) => return Err(ended(&row)),
            Err(SeekRefused::NotFound) => return Err(seek_not_found()),
            Err(SeekRefused::TooMany) => return Err(ServiceError::internal("a cancel over limit")),
        }
        self.seek(player_id, seek_id).await
    }

    /// How many players seek a table of each kind now, every kind listed
    /// (in the registry's order).
    pub async fn seekers_by_kind(&self) -> Result<Vec<(&'static str, i64)>, ServiceError> {
        // A count for a waiting screen: the replica's, within its lag bound.
        let counts = self
            .db
            .read(self.recent_for(None), |db| async move {
                db.seekers_by_kind().await
            })
            .await?;
        Ok(crate::games::kinds::all()
            .iter()
            .map(|kind| {
                let n = counts
                    .iter()
                    .find(|(k, _)| k == kind.name())
                    .map_or(0, |(_, n)| *n);
                (kind.name(), n)
            })
            .collect())
    }

    /// The tables formed for `player_id`'s seeks within
    /// [`ENDED_SEEK_RETENTION`], newest first, at most [`INBOX_SEEKS`]
    /// (the inbox).
    pub async fn matched_seeks(&self, player_id: &str) -> Result<Vec<SeekNotice>, ServiceError> {
        let since = crate::db::now() - retention();
        let rows = self
            .db
            .matched_seeks_of(player_id, since, INBOX_SEEKS)
            .await?;
        Ok(rows.iter().filter_map(SeekNotice::of).collect())
    }

    /// One look at every kind with a seek whose time has come (its group
    /// has gathered, its bots may come, it expires): the tables that form
    /// now are formed. Returns how many. Any number of processes may run
    /// it at once (each kind's change is serialized).
    pub async fn seek_sweep(self: &Arc<Self>) -> Result<usize, ServiceError> {
        let mut formed = 0;
        for kind in self.db.kinds_with_due_seeks(crate::db::now()).await? {
            let decide = |queue: &SeekQueue| self.decide_tables(&kind, queue, None);
            let turn = self.seek_turns.turn(&kind).await;
            let outcome = self
                .db
                .seek_change(&kind, SeekChange::Sweep, MATCH_WINDOW, &decide)
                .await;
            drop(turn);
            let outcome = outcome?;
            if let Ok(done) = outcome {
                formed += done.tables.len();
                self.tables_formed(done.tables).await;
            }
        }
        Ok(formed)
    }

    /// Runs [`Self::seek_sweep`] every [`SWEEP_TICK`], and purges ended
    /// seeks past [`ENDED_SEEK_RETENTION`] every [`PURGE_EVERY`], until the
    /// service stops. A failed look (the database away) is logged and
    /// tried again at the next tick.
    pub(crate) async fn run_seek_sweep(self: Arc<Self>) {
        let mut stop = self.shutdown.subscribe();
        let mut purged_at = tokio::time::Instant::now();
        while !*stop.borrow() {
            if let Err(e) = self.seek_sweep().await {
                tracing::warn!(error = %e, "seek sweep failed");
            }
            if purged_at.elapsed() >= PURGE_EVERY {
                purged_at = tokio::time::Instant::now();
                if let Err(e) = self.purge_ended_seeks().await {
                    tracing::warn!(error = %e, "purging ended seeks failed");
                }
            }
            tokio::select! {
                _ = stop.changed() => {}
                _ = tokio::time::sleep(SWEEP_TICK) => {}
            }
        }
    }

    /// Deletes the seeks that ended more than [`ENDED_SEEK_RETENTION`]
    /// ago, a batch at a time; how many.
    pub async fn purge_ended_seeks(&self) -> Result<usize, ServiceError> {
        let cutoff = crate::db::now() - retention();
        let mut purged = 0;
        loop {
            let batch = self.db.purge_ended_seeks(cutoff, PURGE_BATCH).await?;
            purged += batch;
            if batch < PURGE_BATCH as usize {
                return Ok(purged);
            }
        }
    }

    /// `player_id`'s rating of `kind` (a newcomer's until they have one).
    async fn rating_of(&self, player_id: &str, kind: &str) -> Result<f64, ServiceError> {
        Ok(self
            .db
            .ratings_of(player_id)
            .await?
            .into_iter()
            .find(|r| r.kind == kind)
            .map_or(ratings::Rating::NEW.rating, |r| r.rating))
    }

    /// A seek whose bots fallback would start a game with expert bots
    /// counts against `BOT_GAMES_PER_PLAYER` like such a game: refused
    /// when its player has that many already (409 `too_many_bot_games`).
    /// The table itself waits while they still do (`matching`).
    async fn check_expert_room(&self, seek: &SeekRow) -> Result<(), ServiceError> {
        let limit = self.bots.games_per_player;
        if limit == 0 || seek.bot_level != Some(BotLevel::Expert) {
            return Ok(());
        }
        let running = self.db.bot_heavy_games_of(&seek.player_id).await?;
        if running >= i64::try_from(limit).unwrap_or(i64::MAX) {
            return Err(ServiceError::conflict(
                "too_many_bot_games",
                format!(
                    "you have {limit} open or running games with an expert bot or only bots: \
                     finish or leave one before seeking a table with expert bots"
                ),
            ));
        }
        Ok(())
    }

    /// What the change of `kind`'s seeks writes, from its active seeks (see
    /// the module). Runs inside the transaction, under the kind's lock.
    fn decide_tables(
        &self,
        kind: &str,
        queue: &SeekQueue,
        asking: Option<&Asking<'_>>,
    ) -> Result<SeekWrites<Formed>, DbError> {
        let abandon = |e: ServiceError| DbError::Abandoned(e.to_string());
        let options = options::of(kind)
            .ok_or_else(|| DbError::Abandoned(format!("seeks of an unknown kind {kind}")))?;
        let seekers: Vec<Seeker> = queue.active.iter().map(seeker).collect();
        let rules = Rules {
            options,
            now: queue.now,
            gather: chrono::Duration::from_std(self.seeks.gather).unwrap_or(chrono::Duration::MAX),
            expert_room: self.expert_room(queue),
        };
        let mut writes = SeekWrites {
            games: Vec::new(),
            matched: Vec::new(),
            wakes: Vec::new(),
            outbox: Vec::new(),
            idempotency: None,
            value: Formed {
                tables: Vec::new(),
                answer: None,
            },
        };
        let mut seated: HashMap<&str, (String, i32)> = HashMap::new();
        for table in matching::form_tables(&seekers, &rules) {
            let members: Vec<&ActiveSeek> =
                table.members.iter().map(|&i| &queue.active[i]).collect();
            let new = new_game(kind, options, &table, &members).map_err(abandon)?;
            let row = &new.snapshot.row;
            let mut notices = Vec::new();
            for (seat, member) in members.iter().enumerate() {
                seated.insert(&member.row.id, (row.id.clone(), seat as i32));
                writes
                    .matched
                    .push((member.row.id.clone(), row.id.clone(), seat as i32));
                notices.push((
                    member.row.player_id.as_str(),
                    member.row.id.as_str(),
                    seat as u8,
                ));
            }
            writes
                .outbox
                .extend(crate::games::webhooks::table_formed_outbox(
                    row,
                    &new.snapshot.seats,
                    new.game.as_ref(),
                    &notices,
                ));
            let (game, seats) = stored_rows(&new.snapshot);
            writes.games.push(NewTableRows {
                game,
                seats,
                events: new.events.clone(),
            });
            writes.value.tables.push(new);
        }
        let gather = chrono::Duration::from_std(self.seeks.gather).unwrap_or(chrono::Duration::MAX);
        // Each seek still waiting is looked at next at its next time; only
        // a time that changed is written (most of them are not).
        for active in &queue.active {
            let row = &active.row;
            if seated.contains_key(row.id.as_str()) {
                continue;
            }
            let wake = next_wake(row, queue.now, row.created_at + gather);
            if let Some(wake) = wake.filter(|w| *w != row.wake_at) {
                writes.wakes.push((row.id.clone(), wake));
            }
        }
        if let Some(asking) = asking {
            let mut seek = asking.seek.clone();
            if let Some((game_id, seat)) = seated.get(seek.id.as_str()) {
                seek.status = SeekStatus::Matched;
                seek.game_id = Some(game_id.clone());
                seek.seat = Some(*seat);
                seek.ended_at = Some(queue.now);
            }
            let answer = asking.render.render(&seek).map_err(abandon)?;
            writes.idempotency = asking.idem.map(|idem| idem.record(&answer));
            writes.value.answer = Some(answer);
        }
        Ok(writes)
    }

    /// How many more tables with expert bots each player whose expert
    /// fallback is due may start (`BOT_GAMES_PER_PLAYER`; none named when
    /// there is no limit).
    fn expert_room(&self, queue: &SeekQueue) -> HashMap<String, u32> {
        let limit = self.bots.games_per_player;
        if limit == 0 {
            return HashMap::new();
        }
        queue
            .active
            .iter()
            .filter(|a| a.row.bot_level == Some(BotLevel::Expert))
            .map(|a| {
                let running = queue.bot_games.get(&a.row.player_id).copied().unwrap_or(0);
                let room = (limit as i64 - running).max(0);
                (a.row.player_id.clone(), u32::try_from(room).unwrap_or(0))
            })
            .collect()
    }

    /// After a change of seeks committed: each new game cached, its
    /// players' streams told, its bots started (as any created game).
    async fn tables_formed(self: &Arc<Self>, tables: Vec<NewTable>) {
        for table in tables {
            self.created(table).await;
        }
    }
}

/// A stored active seek as the matcher sees it.
pub(super) fn seeker(active: &ActiveSeek) -> Seeker {
    let row = &active.row;
    let bots = match (row.bots_at, row.bot_level, row.bots_min_humans) {
        (Some(at), Some(level), Some(min_humans)) => Some(BotsWanted {
            at,
            level,
            min_humans: u8::try_from(min_humans).unwrap_or(u8::MAX),
        }),
        _ => None,
    };
    Seeker {
        player_id: row.player_id.clone(),
        created_at: row.created_at,
        sizes: row.sizes as u32,
        variants: row.variant_mask as u32,
        target: row.target,
        rated: row.rated,
        clock: row.move_deadline_secs,
        rating: active.rating.unwrap_or(ratings::Rating::NEW.rating),
        rating_min: row.rating_min,
        rating_max: row.rating_max,
        bots,
    }
}

/// The game of `table`: `members` in seats `0..`, in the order they came,
/// bots in the others; made by the first of them, through the create
/// path's own checks and construction.
fn new_game(
    kind: &str,
    options: &SeekOptions,
    table: &Table,
    members: &[&ActiveSeek],
) -> Result<NewTable, ServiceError> {
    let kind = crate::games::kinds::find(kind)
        .ok_or_else(|| ServiceError::internal(format!("unknown kind {kind}")))?
        .name();
    let specs = (0..usize::from(table.size))
        .map(|i| match table.bots {
            Some(level) if i >= members.len() => SeatSpec::bot(level),
            _ => SeatSpec::Open,
        })
        .collect();
    let command = CreateGame {
        kind,
        config: options.config(table.size, table.target, table.variants),
        seats: Some(specs),
        take_seat: None,
        entropy: None,
        move_deadline_secs: table.clock.map(|secs| secs as u64),
        on_deadline: None,
        on_resign: ResignPolicy::default(),
        rated: table.rated,
        players_may_invite: false,
        hints: false,
        rematch: None,
    };
    let seated: Vec<Seated<'_>> = members
        .iter()
        .enumerate()
        .map(|(seat, m)| Seated {
            seat: seat as u8,
            player_id: &m.row.player_id,
            display_name: &m.display_name,
            entropy: m.row.entropy.as_deref(),
        })
        .collect();
    let creator = members
        .first()
        .ok_or_else(|| ServiceError::internal("a table without members"))?;
    seated_table(&creator.row.player_id, &command, &seated)
}

/// [`ENDED_SEEK_RETENTION`] as a time span.
fn retention() -> chrono::Duration {
    chrono::Duration::from_std(ENDED_SEEK_RETENTION).unwrap_or(chrono::Duration::MAX)
}

fn seek_not_found() -> ServiceError {
    ServiceError::NotFound(crate::games::error::Refusal {
        code: "seek_not_found",
        rule: None,
        message: "no seek of yours with this id".to_owned(),
    })
}

/// The refusal of a change to a seek that has ended.
fn ended(row: &SeekRow) -> ServiceError {
    match row.status {
        SeekStatus::Matched => ServiceError::conflict(
            "seek_matched",
            format!(
                "the seek was matched: you are seated at game {} (seat {})",
                row.game_id.as_deref().unwrap_or("?"),
                row.seat.unwrap_or(-1)
            ),
        ),
        SeekStatus::Cancelled => ServiceError::conflict("seek_cancelled", "the seek was cancelled"),
        SeekStatus::Expired => {
            ServiceError::conflict("seek_expired", "the seek expired: no table formed in time")
        }
        SeekStatus::Active => ServiceError::internal("an active seek refused as ended"),
    }
}
