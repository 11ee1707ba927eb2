//! Rematches and series (docs/streams.md). A rematch of a finished game
//! is a new game created like any other (`lifecycle.rs`), with the same
//! kind, configuration, clock and resign policy; bot seats stay bots, and
//! each human seat is reserved for the player who held it
//! (`seats.invited_player_id`): only they may join it, and each confirms by
//! joining. The new game's row names the game it follows
//! (`previous_game_id`, unique, so racing rematch calls create one game)
//! and the series' first game (`series_id`).
//!
//! The first dealer is not carried over: LH-4 and CH-2 draw it from each
//! game's own seeded RNG, so every game of a series deals (and verifies)
//! from its own seed.

use std::sync::Arc;

use super::domain::{CreateGame, Rematch, SeatSpec};
use super::error::ServiceError;
use super::kinds;
use super::service::{GameService, Snapshot, seat_of};
use super::status::GameStatus;
use super::write::Render;
use crate::db::models::PlayerRow;
use crate::idempotency::Stored;

/// What a rematch call came to.
#[derive(Debug)]
pub struct Rematched {
    pub answer: Stored,
    /// Whether this call created the next game (else it already existed).
    pub created: bool,
}

impl GameService {
    /// The next game of `game_id`'s series, created if there is none yet:
    /// `created` renders a new one, `existing` the one already there.
    pub async fn rematch(
        self: &Arc<Self>,
        game_id: &str,
        caller: &PlayerRow,
        created: &dyn Render,
        existing: &dyn Render,
    ) -> Result<Rematched, ServiceError> {
        let previous = self.snapshot(game_id).await?;
        if seat_of(&previous.seats, &caller.id).is_none() {
            return Err(ServiceError::NotSeated);
        }
        if previous.row.status != GameStatus::Finished {
            return Err(ServiceError::conflict(
                "game_not_finished",
                "a rematch follows a finished game",
            ));
        }
        if let Some(next) = self.db.next_game_id(game_id).await? {
            return self.existing(&next, existing).await;
        }
        let command = rematch_of(&previous)?;
        match self.create(caller, &command, None, created).await {
            Ok(answer) => Ok(Rematched {
                answer,
                created: true,
            }),
            // A racing call created it first (the unique index on
            // `previous_game_id` refused this one): answer that game.
            Err(e) => match self.db.next_game_id(game_id).await? {
                Some(next) => self.existing(&next, existing).await,
                None => Err(e),
            },
        }
    }

    async fn existing(&self, next: &str, render: &dyn Render) -> Result<Rematched, ServiceError> {
        let snapshot = self.snapshot(next).await?;
        Ok(Rematched {
            answer: render.render(snapshot.lend(), snapshot.row.version)?,
            created: false,
        })
    }

    /// The open rematches with a seat reserved for `player_id` that they
    /// have not taken yet, newest first.
    pub async fn invitations(&self, player_id: &str) -> Result<Vec<String>, ServiceError> {
        Ok(self.db.invitations(player_id).await?)
    }

    /// The rematch of `game_id`, if one was created.
    pub async fn next_game_id(&self, game_id: &str) -> Result<Option<String>, ServiceError> {
        Ok(self.db.next_game_id(game_id).await?)
    }

    /// The games of the series whose first game is `series_id`, in order,
    /// each as it is now; 404 when there is no such series.
    pub async fn series(&self, series_id: &str) -> Result<Vec<Snapshot>, ServiceError> {
        let ids = self.db.series_game_ids(series_id).await?;
        if ids.is_empty() {
            return Err(ServiceError::SeriesNotFound);
        }
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            games.push(self.snapshot(&id).await?);
        }
        Ok(games)
    }
}

/// The create command of `previous`'s rematch.
fn rematch_of(previous: &Snapshot) -> Result<CreateGame, ServiceError> {
    let row = &previous.row;
    let kind = kinds::find(&row.kind)
        .ok_or_else(|| ServiceError::internal(format!("unknown kind {}", row.kind)))?;
    let seats = previous
        .seats
        .iter()
        .map(|s| match s.seat.is_bot {
            true => SeatSpec::bot(s.seat.bot_level),
            false => SeatSpec::Open,
        })
        .collect();
    let invited = previous
        .seats
        .iter()
        .map(|s| s.seat.player_id.clone().filter(|_| !s.seat.is_bot))
        .collect();
    Ok(CreateGame {
        kind: kind.name(),
        config: row.config.clone(),
        seats: Some(seats),
        take_seat: None,
        entropy: None,
        move_deadline_secs: row.move_deadline_secs.and_then(|s| u64::try_from(s).ok()),
        on_deadline: row.move_deadline_secs.and(row.on_deadline),
        on_resign: row.on_resign,
        rated: row.rated,
        players_may_invite: row.players_may_invite,
        hints: row.hints_allowed,
        rematch: Some(Rematch {
            series_id: row.series_id.clone().unwrap_or_else(|| row.id.clone()),
            previous_game_id: row.id.clone(),
            invited,
        }),
    })
}
