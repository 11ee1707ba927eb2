//! Table talk (docs/chat.md): short messages posted to a game by its
//! seated players and spectators. Messages are not game events: they are
//! stored apart (`db::chat`), never bump the game's version, never enter
//! its log or record, and so never change what a record verifies. They are
//! paged like the log, and the game's streams and long polls carry them
//! (`watch.rs`), filtered for the viewer: never by someone the viewer
//! muted, and not by spectators when a seated viewer hid them; a viewer's
//! own messages always show.

use super::error::ServiceError;
use super::service::{GameService, seat_of};
use crate::db::DbError;
use crate::db::chat::{MessageRow, MuteRow, NewMessage, Posted, Reader};
use crate::idempotency::{IdemRequest, Stored};

pub use super::chat_rate::DEFAULT_RATE;

/// How often a post that raced another for its seq is tried again.
const MAX_ATTEMPTS: usize = 20;

/// One page of a game's messages as the viewer may read them.
#[derive(Debug, Clone)]
pub struct MessagePage {
    pub messages: Vec<MessageRow>,
    /// Whether spectators' messages were left out (the viewer is seated
    /// and hid them).
    pub spectators_hidden: bool,
}

/// Builds a posted message's answer (the HTTP layer's), once to store with
/// an idempotency key and once to send.
pub type RenderMessage<'a> = &'a (dyn Fn(&MessageRow) -> Result<Stored, ServiceError> + Sync);

impl GameService {
    /// Posts `text` to `game_id` as `player_id` (seated or a spectator:
    /// the message records which), within the rate limit.
    pub async fn post_message(
        &self,
        game_id: &str,
        player_id: &str,
        text: &str,
        idem: Option<&IdemRequest>,
        render: RenderMessage<'_>,
    ) -> Result<Stored, ServiceError> {
        let body = super::text::message_text(text)?;
        if let Some(stored) = crate::idempotency::committed_answer(&self.db, idem).await? {
            return Ok(stored);
        }
        if self.db.game_version(game_id).await?.is_none() {
            return Err(ServiceError::GameNotFound);
        }
        let seats = self.db.seats(&[game_id.to_owned()]).await?;
        let author_seat = seat_of(&seats, player_id).map(|s| s.index() as i32);
        let record = |row: &MessageRow| {
            let idem = idem?;
            render(row).ok().map(|stored| idem.record(&stored))
        };
        // Everyone seated (but the author) is told by their `chat` webhooks,
        // unless they would not see the message (they muted the author, or
        // hide spectators and the author is one): `db::chat::post_message`
        // leaves those out in the message's transaction, as `messages` does.
        let recipients: Vec<&str> = seats
            .iter()
            .filter_map(|s| s.seat.player_id.as_deref())
            .collect();
        let outbox = |row: &MessageRow| {
            super::webhooks::chat_outbox(
                game_id,
                &row.seq.to_string(),
                &row.author_id,
                &row.author_name,
                &row.body,
                &recipients,
            )
        };
        for _ in 0..MAX_ATTEMPTS {
            let message = NewMessage {
                game_id,
                author_id: player_id,
                author_seat,
                body: &body,
                created_at: crate::db::now(),
            };
            match self
                .db
                .post_message(&message, self.chat_rate, &record, &outbox)
                .await
            {
                Ok(Posted::Message(row)) => {
                    self.message_posted(game_id, row.seq);
                    return render(&row);
                }
                Ok(Posted::RateLimited { retry_after_secs }) => {
                    return Err(ServiceError::TooMany {
                        code: "chat_rate_limited",
                        message: format!(
                            "at most {} messages per {} s in one game; retry in {retry_after_secs} s",
                            self.chat_rate.max,
                            self.chat_rate.window.as_secs()
                        ),
                        retry_after_secs,
                    });
                }
                Err(DbError::Conflict) => continue,
                Err(DbError::IdempotencyTaken) => {
                    return match idem {
                        Some(idem) => idem.replay_winner(&self.db).await,
                        None => Err(ServiceError::internal("idempotency record without a key")),
                    };
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServiceError::Contention)
    }

    /// Whether spectators' messages are hidden from `player_id` in
    /// `game_id`: they sit in the game and chose so (`None`, an anonymous
    /// spectator: never).
    async fn hides_spectators(
        &self,
        game_id: &str,
        player_id: Option<&str>,
    ) -> Result<bool, ServiceError> {
        let Some(player_id) = player_id else {
            return Ok(false);
        };
        if self.db.show_spectators(game_id, player_id).await? != Some(false) {
            return Ok(false);
        }
        // The setting counts only while its player is seated.
        let seats = self.db.seats(&[game_id.to_owned()]).await?;
        Ok(seat_of(&seats, player_id).is_some())
    }

    /// Up to `limit` of `game_id`'s messages after `after`, as `player_id`
    /// (or, with `None`, an anonymous spectator) may read them.
    pub async fn messages_page(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
    ) -> Result<MessagePage, ServiceError> {
        if self.db.game_version(game_id).await?.is_none() {
            return Err(ServiceError::GameNotFound);
        }
        self.visible_messages(game_id, player_id, after, limit)
            .await
    }

    /// [`Self::messages_page`] of a game known to exist (streams).
    pub(super) async fn visible_messages(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
    ) -> Result<MessagePage, ServiceError> {
        let hide_spectators = self.hides_spectators(game_id, player_id).await?;
        let reader = Reader {
            player_id,
            hide_spectators,
        };
        let messages = self.db.messages(game_id, reader, after, limit).await?;
        Ok(MessagePage {
            messages,
            spectators_hidden: hide_spectators,
        })
    }

    /// A seated player shows or hides spectators' messages in `game_id`
    /// (for themselves). 403 `not_seated` for anyone else.
    pub async fn set_show_spectators(
        &self,
        game_id: &str,
        player_id: &str,
        show: bool,
    ) -> Result<(), ServiceError> {
        if self.db.game_version(game_id).await?.is_none() {
            return Err(ServiceError::GameNotFound);
        }
        let seats = self.db.seats(&[game_id.to_owned()]).await?;
        if seat_of(&seats, player_id).is_none() {
            return Err(ServiceError::NotSeated);
        }
        Ok(self
            .db
            .set_show_spectators(game_id, player_id, show)
            .await?)
    }

    /// `player_id` mutes `muted_id` everywhere (idempotent): 404
    /// `player_not_found` for an unknown player, 422 `cannot_mute_self`.
    pub async fn mute(&self, player_id: &str, muted_id: &str) -> Result<(), ServiceError> {
        if player_id == muted_id {
            return Err(ServiceError::invalid(
                "cannot_mute_self",
                "your own messages always show to you",
            ));
        }
        self.known_player(muted_id).await?;
        Ok(self.db.mute(player_id, muted_id).await?)
    }

    /// `player_id` unmutes `muted_id` (idempotent; an unknown player 404).
    pub async fn unmute(&self, player_id: &str, muted_id: &str) -> Result<(), ServiceError> {
        self.known_player(muted_id).await?;
        Ok(self.db.unmute(player_id, muted_id).await?)
    }

    /// Everyone `player_id` muted, the latest first.
    pub async fn mutes(&self, player_id: &str) -> Result<Vec<MuteRow>, ServiceError> {
        Ok(self.db.mutes(player_id).await?)
    }

    /// Refuses an unknown player: 404 `player_not_found` (also `ratings.rs`).
    pub(super) async fn known_player(&self, player_id: &str) -> Result<(), ServiceError> {
        match self.db.player(player_id).await? {
            Some(_) => Ok(()),
            None => Err(ServiceError::NotFound(super::error::Refusal {
                code: "player_not_found",
                rule: None,
                message: "no such player".to_owned(),
            })),
        }
    }
}
