//! What more than one transaction writes or counts, as macros (each body
//! is written once and compiled for both backends, like
//! [`crate::with_conn`]): an idempotency record, a new game with its seats,
//! a game's events, and the games that count against
//! `BOT_GAMES_PER_PLAYER`. Creating a game (`queries.rs`) and forming a
//! table from seeks (`seeks.rs`) both insert games.

/// Inserts the idempotency record `$idem` (an `Option<&NewIdempotency>`),
/// failing with [`DbError::IdempotencyTaken`] when a concurrent request
/// stored the same key first.
macro_rules! insert_idempotency {
    ($conn:ident, $s:ident, $idem:expr) => {
        if let Some(i) = $idem {
            diesel::insert_into($s::idempotency_keys::table)
                .values((
                    $s::idempotency_keys::player_id.eq(&i.player_id),
                    $s::idempotency_keys::idem_key.eq(&i.idem_key),
                    $s::idempotency_keys::request_hash.eq(&i.request_hash),
                    $s::idempotency_keys::status_code.eq(i.status_code),
                    $s::idempotency_keys::response_body.eq(&i.response_body),
                    $s::idempotency_keys::location.eq(&i.location),
                    $s::idempotency_keys::created_at.eq(Utc::now()),
                ))
                .execute($conn)
                .await
                .map_err(|e| DbError::conflict_or(e, DbError::IdempotencyTaken))?;
        }
    };
}

/// Inserts the game row `$game` (a `&NewGame`) at `$version`, last updated
/// at `$updated_at`, and its `$seats` (`&[SeatRow]`).
macro_rules! insert_game {
    ($conn:ident, $s:ident, $game:expr, $version:expr, $updated_at:expr, $seats:expr) => {
        diesel::insert_into($s::games::table)
            .values((
                $s::games::id.eq(&$game.id),
                $s::games::kind.eq(&$game.kind),
                $s::games::config.eq(&$game.config),
                $s::games::status.eq(&$game.status),
                $s::games::version.eq($version),
                $s::games::to_act.eq($game.to_act),
                $s::games::seed_commitment.eq(&$game.seed_commitment),
                $s::games::seed.eq(&$game.seed),
                $s::games::created_by.eq(&$game.created_by),
                $s::games::created_at.eq($game.created_at),
                $s::games::updated_at.eq($updated_at),
                $s::games::move_deadline_secs.eq($game.move_deadline_secs),
                $s::games::on_deadline.eq(&$game.on_deadline),
                $s::games::deadline_at.eq($game.deadline_at),
                $s::games::on_resign.eq(&$game.on_resign),
                $s::games::series_id.eq(&$game.series_id),
                $s::games::previous_game_id.eq(&$game.previous_game_id),
                $s::games::rated.eq($game.rated),
                $s::games::players_may_invite.eq($game.players_may_invite),
                $s::games::hints_allowed.eq($game.hints_allowed),
            ))
            .execute($conn)
            .await?;
        for seat in $seats {
            diesel::insert_into($s::seats::table)
                .values((
                    $s::seats::game_id.eq(&$game.id),
                    $s::seats::seat.eq(seat.seat),
                    $s::seats::player_id.eq(&seat.player_id),
                    $s::seats::is_bot.eq(seat.is_bot),
                    $s::seats::entropy.eq(&seat.entropy),
                    $s::seats::autoplay.eq(seat.autoplay),
                    $s::seats::forfeited.eq(seat.forfeited),
                    $s::seats::invited_player_id.eq(&seat.invited_player_id),
                    $s::seats::bot_level.eq(seat.bot_level),
                ))
                .execute($conn)
                .await?;
        }
    };
}

/// Inserts `$events` at seqs `$first..`, failing with [`DbError::Conflict`]
/// when a seq is taken (the primary key is the cross-process guard).
macro_rules! insert_events {
    ($conn:ident, $s:ident, $game_id:expr, $first:expr, $events:expr, $now:expr) => {
        let now = $now;
        for (i, e) in $events.iter().enumerate() {
            diesel::insert_into($s::game_events::table)
                .values((
                    $s::game_events::game_id.eq($game_id),
                    $s::game_events::seq.eq($first + i as i64),
                    $s::game_events::event_type.eq(e.event_type),
                    $s::game_events::schema_version.eq(e.schema_version),
                    $s::game_events::payload.eq(&e.payload),
                    $s::game_events::actor_player_id.eq(&e.actor_player_id),
                    $s::game_events::actor_seat.eq(e.actor_seat),
                    $s::game_events::actor_bot.eq(e.actor_bot),
                    $s::game_events::actor_deadline.eq(e.actor_deadline),
                    $s::game_events::visible_to.eq(e.visible_to),
                    $s::game_events::created_at.eq(e.created_at.unwrap_or(now)),
                ))
                .execute($conn)
                .await
                .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
        }
    };
}

/// The condition on `$s::games` of a game that counts against its
/// creator's `BOT_GAMES_PER_PLAYER`: open or running, with an expert bot
/// seat or with no person seated (what the bots spend the CPU on).
macro_rules! bot_heavy_running {
    ($s:ident) => {{
        use diesel::dsl::{exists, not};
        let expert = exists(
            $s::seats::table
                .filter($s::seats::game_id.eq($s::games::id))
                .filter($s::seats::is_bot.eq(true))
                .filter($s::seats::bot_level.eq($crate::db::status::BotLevel::Expert)),
        );
        let person = exists(
            $s::seats::table
                .filter($s::seats::game_id.eq($s::games::id))
                .filter($s::seats::is_bot.eq(false)),
        );
        $s::games::status
            .eq_any([
                $crate::db::status::GameStatus::Open,
                $crate::db::status::GameStatus::InProgress,
            ])
            .and(expert.or(not(person)))
    }};
}
