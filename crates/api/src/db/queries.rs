//! Every query the api runs. Each body is written once and compiled against
//! both backends by [`with_conn!`]. Every query of a move is scoped to one
//! game, by its id (the log's key is `(game_id, seq)`), so neither the
//! number of games nor a game's length slows a move (ARCHITECTURE.md, the
//! `api` invariants; docs/performance.md, sections 2 and 8).

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use super::append_pg::{AppendCounts, AppendStatement};
use super::models::{
    EventRow, GameRow, GameUpdate, IdempotencyRow, NewEvent, NewGame, NewIdempotency, PlayerRow,
    SeatChange, SeatRow, SeatWithName,
};
use super::status::GameStatus;
use super::{Db, DbError, Pools};
use crate::with_conn;

/// Filters for listing games.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    pub kind: Option<String>,
    pub status: Option<GameStatus>,
    /// Only games in progress where this player's seat must act now.
    pub to_act_for: Option<String>,
    /// Only games where this player holds a seat (any state).
    pub seated: Option<String>,
    /// Only games older than this `(created_at, id)` in the list's order
    /// (newest first): the keyset cursor of the previous page's last game.
    pub before: Option<(chrono::DateTime<Utc>, String)>,
    pub limit: i64,
    pub offset: i64,
}

/// Applies `$change` (a `&SeatChange`) to the game's seat row, guarded so
/// that it changes nothing when the seat is no longer as the decision saw
/// it. Evaluates to the diesel result: the number of rows changed (1, or 0
/// when the guard refused).
macro_rules! change_seat {
    ($conn:ident, $s:ident, $game_id:expr, $change:expr) => {
        match $change {
            SeatChange::Take {
                seat,
                player_id,
                entropy,
                ..
            } => {
                diesel::update(
                    $s::seats::table
                        .filter($s::seats::game_id.eq($game_id))
                        .filter($s::seats::seat.eq(*seat))
                        .filter($s::seats::is_bot.eq(false))
                        .filter($s::seats::player_id.is_null())
                        .filter(
                            $s::seats::invited_player_id
                                .is_null()
                                .or($s::seats::invited_player_id.eq(player_id)),
                        ),
                )
                .set((
                    $s::seats::player_id.eq(Some(player_id)),
                    $s::seats::entropy.eq(entropy),
                ))
                .execute($conn)
                .await
            }
            SeatChange::Release { seat, player_id } => {
                diesel::update(
                    $s::seats::table
                        .filter($s::seats::game_id.eq($game_id))
                        .filter($s::seats::seat.eq(*seat))
                        .filter($s::seats::player_id.eq(player_id)),
                )
                .set((
                    $s::seats::player_id.eq(None::<String>),
                    $s::seats::entropy.eq(None::<String>),
                ))
                .execute($conn)
                .await
            }
            SeatChange::Autoplay {
                seat,
                player_id,
                enabled,
                forfeit,
                level,
            } => {
                let target = $s::seats::table
                    .filter($s::seats::game_id.eq($game_id))
                    .filter($s::seats::seat.eq(*seat))
                    .filter($s::seats::player_id.eq(player_id));
                if *forfeit {
                    diesel::update(target)
                        .set((
                            $s::seats::autoplay.eq(true),
                            $s::seats::forfeited.eq(true),
                            $s::seats::bot_level.eq(*level),
                        ))
                        .execute($conn)
                        .await
                } else {
                    // A forfeited seat stays with the server.
                    diesel::update(target.filter($s::seats::forfeited.eq(false)))
                        .set((
                            $s::seats::autoplay.eq(*enabled),
                            $s::seats::bot_level.eq(*level),
                        ))
                        .execute($conn)
                        .await
                }
            }
            SeatChange::Forfeit {
                seat,
                player_id,
                seats,
            } => {
                // The resigner must still hold their seat; then their side.
                let held = $s::seats::table
                    .filter($s::seats::game_id.eq($game_id))
                    .filter($s::seats::seat.eq(*seat))
                    .filter($s::seats::player_id.eq(player_id))
                    .count()
                    .get_result::<i64>($conn)
                    .await?;
                if held != 1 {
                    Ok(0)
                } else {
                    diesel::update(
                        $s::seats::table
                            .filter($s::seats::game_id.eq($game_id))
                            .filter($s::seats::seat.eq_any(seats)),
                    )
                    .set($s::seats::forfeited.eq(true))
                    .execute($conn)
                    .await
                    .map(|_| 1)
                }
            }
        }
    };
}

/// Counts one use of an invite link (`$used`, a `&InviteUse`) of game
/// `$game_id` in the seat's transaction, only while it is live: not
/// revoked, not expired, uses left. When it is not, the transaction is
/// abandoned with [`DbError::Limited`] (the caller tells why from the
/// invite as it is now), so a single-use link seats one person however
/// many follow it at once.
macro_rules! use_invite {
    ($conn:ident, $s:ident, $game_id:expr, $used:expr) => {{
        let used = diesel::update(
            $s::game_invites::table
                .filter($s::game_invites::id.eq(&$used.invite_id))
                .filter($s::game_invites::game_id.eq($game_id))
                .filter($s::game_invites::revoked_at.is_null())
                .filter($s::game_invites::expires_at.gt($used.at))
                .filter($s::game_invites::uses.lt($s::game_invites::max_uses)),
        )
        .set($s::game_invites::uses.eq($s::game_invites::uses + 1))
        .execute($conn)
        .await?;
        if used != 1 {
            return Err(DbError::Limited);
        }
    }};
}

/// The condition "nothing refers to this player row": no seat, no game
/// it created, no logged action, no stored idempotent answer, no message
/// posted (table talk; mutes and chat settings go with the player), no
/// seek (quick play: an active one waits for a table, an ended one is
/// purged a day after it ended), no invite link minted (purged a day after
/// it expired), no challenge sent or received (purged a day after it
/// ended).
macro_rules! unused_player {
    ($s:ident) => {{
        use diesel::dsl::{exists, not};
        not(exists($s::seats::table.filter(
            $s::seats::player_id.eq($s::players::id.nullable()),
        )))
        .and(not(exists(
            $s::games::table.filter($s::games::created_by.eq($s::players::id)),
        )))
        .and(not(exists($s::game_events::table.filter(
            $s::game_events::actor_player_id.eq($s::players::id.nullable()),
        ))))
        .and(not(exists($s::idempotency_keys::table.filter(
            $s::idempotency_keys::player_id.eq($s::players::id),
        ))))
        .and(not(exists(
            $s::game_messages::table.filter($s::game_messages::author_id.eq($s::players::id)),
        )))
        .and(not(exists(
            $s::seeks::table.filter($s::seeks::player_id.eq($s::players::id)),
        )))
        .and(not(exists(
            $s::game_invites::table.filter($s::game_invites::created_by.eq($s::players::id)),
        )))
        .and(not(exists(
            $s::challenges::table.filter($s::challenges::challenger_id.eq($s::players::id)),
        )))
        .and(not(exists($s::challenge_players::table.filter(
            $s::challenge_players::player_id.eq($s::players::id),
        ))))
    }};
}

impl Db {
    /// `SELECT 1`: is the database reachable?
    pub async fn ping(&self) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            diesel::sql_query("SELECT 1").execute(conn).await?;
            Ok(())
        })
    }

    /// Takes a pooled connection and keeps it idle for `duration`, past the
    /// database timeout if asked (a query would be cut off there): lets the
    /// tests exhaust the pool to check the 503 on a database that is away.
    #[doc(hidden)]
    pub async fn hold_connection_for_test(
        &self,
        duration: std::time::Duration,
    ) -> Result<(), DbError> {
        match self.pools() {
            Pools::Postgres(pool) => {
                let _held = pool.get().await.map_err(DbError::pool)?;
                tokio::time::sleep(duration).await;
            }
            Pools::Sqlite(pool) => {
                let _held = pool.get().await.map_err(DbError::pool)?;
                tokio::time::sleep(duration).await;
            }
        }
        Ok(())
    }

    /// How many games are in progress (for the metrics).
    pub async fn count_in_progress(&self) -> Result<i64, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::status.eq(GameStatus::InProgress))
                .count()
                .get_result(conn)
                .await?)
        })
    }

    pub async fn insert_player(
        &self,
        player: &PlayerRow,
        idem: Option<&NewIdempotency>,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                diesel::insert_into(s::players::table)
                    .values((
                        s::players::id.eq(&player.id),
                        s::players::display_name.eq(&player.display_name),
                        s::players::created_at.eq(player.created_at),
                    ))
                    .execute(conn)
                    .await?;
                insert_idempotency!(conn, s, idem);
                Ok::<_, DbError>(())
            })
            .await
        })
    }

    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::players::table
                .find(id)
                .first::<PlayerRow>(conn)
                .await
                .optional()?)
        })
    }

    /// The record stored for `key` of `player_id`, unless it is older than
    /// the idempotency TTL: an expired record is deleted here (the purge
    /// may not have reached it yet), so that the retry it no longer
    /// answers can store its own.
    pub async fn idempotency(
        &self,
        player_id: &str,
        key: &str,
    ) -> Result<Option<IdempotencyRow>, DbError> {
        let cutoff = self.idempotency_cutoff();
        with_conn!(self, |conn, s| {
            let row = s::idempotency_keys::table
                .find((player_id, key))
                .first::<IdempotencyRow>(conn)
                .await
                .optional()?;
            let Some(cutoff) = cutoff.filter(|c| row.as_ref().is_some_and(|r| r.created_at < *c))
            else {
                return Ok(row);
            };
            diesel::delete(
                s::idempotency_keys::table
                    .find((player_id, key))
                    .filter(s::idempotency_keys::created_at.lt(cutoff)),
            )
            .execute(conn)
            .await?;
            Ok(None)
        })
    }

    /// Inserts a game with its seats and first events (seq 1..), at
    /// version = number of events, in one transaction. With `limit`
    /// (the new game has an expert bot seat or bots only), fails with
    /// [`DbError::Limited`], and inserts nothing, when its creator would
    /// then have more than `limit` open or running games of that sort
    /// (counted in the transaction, the creators' inserts serialized: a
    /// row lock on the creator with Postgres, the one writer with SQLite,
    /// whose first statement here is the insert).
    pub async fn create_game(
        &self,
        game: &NewGame,
        seats: &[SeatRow],
        events: &[NewEvent],
        idem: Option<&NewIdempotency>,
        limit: Option<i64>,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                if limit.is_some() && matches!(self.pools(), Pools::Postgres(_)) {
                    diesel::sql_query("SELECT 1 FROM players WHERE id = $1 FOR UPDATE")
                        .bind::<diesel::sql_types::Text, _>(&game.created_by)
                        .execute(conn)
                        .await?;
                }
                insert_game!(conn, s, game, events.len() as i64, game.created_at, seats);
                if let Some(limit) = limit {
                    let running: i64 = s::games::table
                        .filter(s::games::created_by.eq(&game.created_by))
                        .filter(bot_heavy_running!(s))
                        .count()
                        .get_result(conn)
                        .await?;
                    if running > limit {
                        return Err(DbError::Limited);
                    }
                }
                insert_events!(conn, s, &game.id, 1, events, super::now());
                insert_idempotency!(conn, s, idem);
                Ok::<_, DbError>(())
            })
            .await
        })
    }

    /// Stores an imported game in one transaction: placeholder
    /// players for its seats, the game row (finished, at version = number
    /// of events, updated at `ended`), its seats and its whole log.
    pub async fn import_game(
        &self,
        players: &[PlayerRow],
        game: &NewGame,
        ended: chrono::DateTime<Utc>,
        seats: &[SeatRow],
        events: &[NewEvent],
        idem: Option<&NewIdempotency>,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                for player in players {
                    diesel::insert_into(s::players::table)
                        .values((
                            s::players::id.eq(&player.id),
                            s::players::display_name.eq(&player.display_name),
                            s::players::created_at.eq(player.created_at),
                        ))
                        .execute(conn)
                        .await?;
                }
                insert_game!(conn, s, game, events.len() as i64, ended, seats);
                insert_events!(conn, s, &game.id, 1, events, super::now());
                insert_idempotency!(conn, s, idem);
                Ok::<_, DbError>(())
            })
            .await
        })
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .find(id)
                .first::<GameRow>(conn)
                .await
                .optional()?)
        })
    }

    /// The game's version (`None`: no such game), in a statement of its
    /// own: enough to tell whether a cached state is current
    /// (`Db::game_version` reads it with others when several wait).
    pub(super) async fn game_version_alone(&self, id: &str) -> Result<Option<i64>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .find(id)
                .select(s::games::version)
                .first::<i64>(conn)
                .await
                .optional()?)
        })
    }

    /// The game's version and the seq of its last message of table talk (0:
    /// none yet), in one statement (`None`: no such game): what a stream
    /// opened on a cached game needs, one round trip instead of two.
    pub async fn game_version_and_last_message(
        &self,
        id: &str,
    ) -> Result<Option<(i64, i64)>, DbError> {
        with_conn!(self, |conn, s| {
            let last_message = s::game_messages::table
                .filter(s::game_messages::game_id.eq(id))
                .select(diesel::dsl::max(s::game_messages::seq))
                .single_value();
            let found: Option<(i64, Option<i64>)> = s::games::table
                .find(id)
                .select((s::games::version, last_message))
                .first(conn)
                .await
                .optional()?;
            Ok(found.map(|(version, last)| (version, last.unwrap_or(0))))
        })
    }

    /// The seats of the given games with their occupants' names, by game then seat.
    pub async fn seats(&self, game_ids: &[String]) -> Result<Vec<SeatWithName>, DbError> {
        if game_ids.is_empty() {
            return Ok(Vec::new());
        }
        with_conn!(self, |conn, s| {
            let rows = s::seats::table
                .left_join(s::players::table.on(s::seats::player_id.eq(s::players::id.nullable())))
                .filter(s::seats::game_id.eq_any(game_ids))
                .order((s::seats::game_id, s::seats::seat))
                .select((
                    (
                        s::seats::game_id,
                        s::seats::seat,
                        s::seats::player_id,
                        s::seats::is_bot,
                        s::seats::entropy,
                        s::seats::autoplay,
                        s::seats::forfeited,
                        s::seats::invited_player_id,
                        s::seats::bot_level,
                    ),
                    s::players::display_name.nullable(),
                ))
                .load::<(SeatRow, Option<String>)>(conn)
                .await?;
            Ok(rows
                .into_iter()
                .map(|(seat, display_name)| SeatWithName { seat, display_name })
                .collect())
        })
    }

    /// Events with `seq > after`, in order, at most `limit`.
    pub async fn events(
        &self,
        game_id: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::game_events::table
                .filter(s::game_events::game_id.eq(game_id))
                .filter(s::game_events::seq.gt(after))
                .order(s::game_events::seq)
                .limit(limit)
                .load::<EventRow>(conn)
                .await?)
        })
    }

    /// Appends `events` at `expected_version + 1 ..` in one transaction,
    /// with the game row update, an optional seat change and an optional
    /// idempotency record. [`DbError::Conflict`] when the game is no longer
    /// at `expected_version` (or the seat changed hands): nothing is written.
    /// Returns the new version. Events without a time of their own get the
    /// row's `updated_at` ([`NewEvent::stored_as`]). `outbox`: the
    /// webhook candidates of the change (`db::webhooks`), written in the
    /// same transaction.
    #[allow(clippy::too_many_arguments)] // each part of the one transaction
    pub async fn append(
        &self,
        game_id: &str,
        expected_version: i64,
        events: &[NewEvent],
        update: &GameUpdate,
        seat_change: Option<&SeatChange>,
        idem: Option<&NewIdempotency>,
        outbox: &[super::webhooks::NewOutbox],
    ) -> Result<i64, DbError> {
        let new_version = expected_version + events.len() as i64;
        if let (None, Some(group)) = (seat_change, &self.group) {
            let append = super::append_pg::Append {
                game_id: game_id.to_owned(),
                expected_version,
                events: events.to_vec(),
                update: update.clone(),
                idem: idem.cloned(),
                outbox: outbox.to_vec(),
            };
            let counts = self.append_grouped(group, append).await?;
            return appended(counts, new_version, events.len());
        }
        if let (None, Pools::Postgres(pool)) = (seat_change, self.pools()) {
            let statement = AppendStatement {
                game_id,
                expected_version,
                new_version,
                events,
                update,
                idem,
                outbox,
                now: update.updated_at,
            };
            return self.append_in_one_statement(&pool, statement).await;
        }
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                // The write comes first, so SQLite takes its write lock (and
                // waits on busy_timeout) before reading anything, and a
                // concurrent Postgres appender blocks on the row lock and then
                // finds the version moved.
                let updated = diesel::update(
                    s::games::table
                        .filter(s::games::id.eq(game_id))
                        .filter(s::games::version.eq(expected_version)),
                )
                .set((
                    s::games::version.eq(new_version),
                    s::games::status.eq(&update.status),
                    s::games::to_act.eq(update.to_act),
                    s::games::deadline_at.eq(update.deadline_at),
                    s::games::updated_at.eq(update.updated_at),
                ))
                .execute(conn)
                .await
                .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
                if updated != 1 {
                    return Err(DbError::Conflict);
                }
                insert_events!(
                    conn,
                    s,
                    game_id,
                    expected_version + 1,
                    events,
                    update.updated_at
                );
                if let Some(change) = seat_change {
                    let changed = change_seat!(conn, s, game_id, change)
                        .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
                    if changed != 1 {
                        return Err(DbError::Conflict);
                    }
                    if let SeatChange::Take {
                        invite: Some(used), ..
                    } = change
                    {
                        use_invite!(conn, s, game_id, used);
                    }
                }
                insert_idempotency!(conn, s, idem);
                enqueue_outbox!(conn, s, outbox, update.updated_at);
                Ok::<_, DbError>(new_version)
            })
            .await
            .map_err(DbError::player_gone_or_same)
        })
    }

    /// A Postgres append without a seat change as one statement (one round
    /// trip, `append_pg.rs`), under the same version guard.
    async fn append_in_one_statement(
        &self,
        pool: &diesel_async::pooled_connection::deadpool::Pool<diesel_async::AsyncPgConnection>,
        statement: AppendStatement<'_>,
    ) -> Result<i64, DbError> {
        let (new_version, expected_events) = (statement.new_version, statement.events.len());
        let counts = crate::bounded!(self, pool, |conn: diesel_async::AsyncPgConnection| {
            statement
                .get_result::<AppendCounts>(conn)
                .await
                .map_err(DbError::unique_violation)
        })?;
        appended(counts, new_version, expected_events)
    }

    /// Games matching `filter`, newest first (`created_at`, then `id`,
    /// both descending). Each filter combination reads one index ending in
    /// `(created_at, id)` from the cursor on (`migrations/*/…_scale`);
    /// `to_act_for` reads the player's seats that must act (a partial index
    /// kept by triggers), never every seat of the player.
    pub async fn list_games(&self, filter: &GameFilter) -> Result<Vec<GameRow>, DbError> {
        with_conn!(self, |conn, s| {
            let mut query = s::games::table.into_boxed();
            if let Some(kind) = &filter.kind {
                query = query.filter(s::games::kind.eq(kind));
            }
            if let Some(status) = &filter.status {
                query = query.filter(s::games::status.eq(status));
            }
            if let Some((at, id)) = &filter.before {
                // `created_at <= at` bounds the index range; the second
                // test only sorts out the games created at the same instant.
                query = query.filter(s::games::created_at.le(*at)).filter(
                    s::games::created_at
                        .lt(*at)
                        .or(s::games::id.lt(id.as_str())),
                );
            }
            if let Some(player) = &filter.seated {
                // The player's seats, by `seats_player_status`, and the
                // rematch seats reserved for them (`seats_invited_player`).
                query = query.filter(
                    s::games::id
                        .eq_any(
                            s::seats::table
                                .filter(s::seats::player_id.eq(player))
                                .select(s::seats::game_id),
                        )
                        .or(s::games::id.eq_any(
                            s::seats::table
                                .filter(s::seats::invited_player_id.eq(player))
                                .select(s::seats::game_id),
                        )),
                );
            }
            if let Some(player) = &filter.to_act_for {
                query = query.filter(
                    s::games::id.eq_any(
                        s::seats::table
                            .filter(s::seats::player_id.eq(player))
                            .filter(s::seats::game_status.eq(GameStatus::InProgress))
                            .filter(s::seats::must_act)
                            .select(s::seats::game_id),
                    ),
                );
            }
            Ok(query
                .order((s::games::created_at.desc(), s::games::id.desc()))
                .limit(filter.limit)
                .offset(filter.offset)
                .load::<GameRow>(conn)
                .await?)
        })
    }

    /// Ids of games in progress with at least one seat the server plays (a
    /// bot or autoplay; to resume bots after a restart).
    pub async fn games_with_bots_in_progress(&self) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::status.eq(GameStatus::InProgress))
                .filter(
                    s::games::id.eq_any(
                        s::seats::table
                            .filter(s::seats::is_bot.eq(true).or(s::seats::autoplay.eq(true)))
                            .select(s::seats::game_id),
                    ),
                )
                .select(s::games::id)
                .load::<String>(conn)
                .await?)
        })
    }
}

impl Db {
    /// In-progress games whose move clock ran out by `now`, soonest first.
    pub async fn due_deadlines(
        &self,
        now: chrono::DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::status.eq(GameStatus::InProgress))
                .filter(s::games::deadline_at.le(now))
                .order(s::games::deadline_at)
                .select(s::games::id)
                .limit(limit)
                .load::<String>(conn)
                .await?)
        })
    }

    /// In-progress games where `player_id` must act now, with the seat they
    /// hold, the longest-waiting first (by when the game last changed): the
    /// player's running seats (`seats_player_status`), those whose
    /// `must_act` is set (kept by triggers from `games.to_act`; no index
    /// holds it, so that a move's update of it is HOT), then each game by
    /// its key.
    pub async fn games_awaiting(&self, player_id: &str) -> Result<Vec<(GameRow, i32)>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .inner_join(s::seats::table)
                .filter(s::seats::player_id.eq(player_id))
                .filter(s::seats::game_status.eq(GameStatus::InProgress))
                .filter(s::seats::must_act)
                .order((s::games::updated_at, s::games::id))
                .select((s::games::all_columns, s::seats::seat))
                .load::<(GameRow, i32)>(conn)
                .await?)
        })
    }

    /// Ids and versions of the games `player_id` holds a seat in that are
    /// open or in progress (not finished, not expired): the player's seats
    /// by their copy of the game's status (indexed), never every seat.
    pub async fn active_games_of(&self, player_id: &str) -> Result<Vec<(String, i64)>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .inner_join(s::seats::table)
                .filter(s::seats::player_id.eq(player_id))
                .filter(s::seats::game_status.eq_any([GameStatus::Open, GameStatus::InProgress]))
                .select((s::games::id, s::games::version))
                .load::<(String, i64)>(conn)
                .await?)
        })
    }

    /// Ids of up to `limit` open games nobody changed since `cutoff`, the
    /// longest idle first (the expiry sweep closes them one by one). The
    /// open games are read by status (`games_status_created`); no index
    /// holds `updated_at`, which every move changes (one would make every
    /// move's update of its game write into all the table's indexes:
    /// `migrations/*/…_hot_game_updates`).
    pub async fn idle_open_games(
        &self,
        cutoff: chrono::DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::status.eq(GameStatus::Open))
                .filter(s::games::updated_at.lt(cutoff))
                .order((s::games::updated_at, s::games::id))
                .select(s::games::id)
                .limit(limit)
                .load::<String>(conn)
                .await?)
        })
    }

    /// Deletes up to `limit` idempotency records stored before `cutoff`,
    /// the oldest first, in one statement; returns how many. (Diesel has no
    /// `DELETE … LIMIT` nor a two-column `IN`, hence the text, the same on
    /// both backends but for the placeholders.)
    pub async fn purge_idempotency(
        &self,
        cutoff: chrono::DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        use diesel::sql_types::BigInt;
        const DELETE: &str = "DELETE FROM idempotency_keys WHERE (player_id, idem_key) IN \
            (SELECT player_id, idem_key FROM idempotency_keys WHERE created_at < $1 \
             ORDER BY created_at LIMIT $2)";
        match self.pools() {
            Pools::Postgres(pool) => {
                crate::bounded!(self, pool, |conn: diesel_async::AsyncPgConnection| {
                    Ok(diesel::sql_query(DELETE)
                        .bind::<diesel::sql_types::Timestamptz, _>(cutoff)
                        .bind::<BigInt, _>(limit)
                        .execute(conn)
                        .await?)
                })
            }
            Pools::Sqlite(pool) => {
                let delete = DELETE.replace("$1", "?").replace("$2", "?");
                crate::bounded!(self, pool, |conn: super::SqliteConn| {
                    Ok(diesel::sql_query(delete)
                        .bind::<diesel::sql_types::TimestamptzSqlite, _>(cutoff)
                        .bind::<BigInt, _>(limit)
                        .execute(conn)
                        .await?)
                })
            }
        }
    }

    /// How many idempotency records are stored (for tests and operators).
    pub async fn idempotency_record_count(&self) -> Result<i64, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::idempotency_keys::table.count().get_result(conn).await?)
        })
    }

    /// Deletes up to `limit` players registered before `cutoff` that
    /// nothing refers to (no seat, no game created, no logged action, no
    /// stored idempotent answer); returns how many. The candidates are
    /// read first, then deleted by a statement that checks the same again,
    /// so a player who starts using the server in between is kept.
    pub async fn delete_unused_players(
        &self,
        cutoff: chrono::DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        with_conn!(self, |conn, s| {
            let candidates: Vec<String> = s::players::table
                .filter(s::players::created_at.lt(cutoff))
                .filter(unused_player!(s))
                .select(s::players::id)
                .limit(limit)
                .load(conn)
                .await?;
            if candidates.is_empty() {
                return Ok(0);
            }
            Ok(diesel::delete(
                s::players::table
                    .filter(s::players::id.eq_any(&candidates))
                    .filter(unused_player!(s)),
            )
            .execute(conn)
            .await?)
        })
    }

    /// Tells other processes on the same Postgres database which games
    /// reached which versions (`NOTIFY`, payload as
    /// [`super::listen::parse_payload`] reads it); nothing with SQLite.
    pub async fn notify_appended(&self, payload: &str) -> Result<(), DbError> {
        let Pools::Postgres(pool) = self.pools() else {
            return Ok(());
        };
        crate::bounded!(self, pool, |conn: diesel_async::AsyncPgConnection| {
            diesel::sql_query("SELECT pg_notify($1, $2)")
                .bind::<diesel::sql_types::Text, _>(super::listen::CHANNEL)
                .bind::<diesel::sql_types::Text, _>(payload)
                .execute(conn)
                .await?;
            Ok(())
        })
    }
}

/// The new version when the one-statement append moved the game and
/// logged every event; a conflict when the game had moved on.
fn appended(counts: AppendCounts, new_version: i64, events: usize) -> Result<i64, DbError> {
    match counts.moved {
        1 if counts.logged == events as i64 => Ok(new_version),
        1 => Err(DbError::Query(diesel::result::Error::NotFound)),
        _ => Err(DbError::Conflict),
    }
}
