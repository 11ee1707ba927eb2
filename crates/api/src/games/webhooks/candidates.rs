//! What a change tells whom: the candidate rows of the webhook outbox (a
//! table in the store, `db::webhooks`, written in the change's own
//! transaction), from a game's rows and states before and after a change,
//! or from a table-talk message. Not to be confused with `games::outbox`,
//! a stream's in-memory queue. The worker's deadline warnings use the same
//! stored fields ([`TurnFields`]).

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::db::challenges::{Challenge, ChallengeAnswer};
use crate::db::models::{GameRow, SeatWithName};
use crate::db::status::GameStatus;
use crate::db::webhooks::{DeliveryEvent, NewOutbox};
use crate::games::any_game::AnyGame;

/// The outbox candidates of a change of `game_id` from (`row`, `seats`,
/// `before`) to `status`, `after_seats`, `after` at `version` with the
/// clock `deadline_at`; `deadline_moved`: the seats the deadline moved for
/// in this change.
#[allow(clippy::too_many_arguments)]
pub(crate) fn outbox_for(
    game_id: &str,
    row: &GameRow,
    before: &dyn AnyGame,
    status: GameStatus,
    after_seats: &[SeatWithName],
    after: &dyn AnyGame,
    version: i64,
    deadline_at: Option<DateTime<Utc>>,
    deadline_moved: i32,
) -> Vec<NewOutbox> {
    let mut out = Vec::new();
    let humans = after_seats
        .iter()
        .filter(|s| !s.seat.is_bot)
        .filter_map(|s| Some((s.seat.seat, s.seat.player_id.as_deref()?, s.seat.autoplay)));
    let game = || GameFields {
        game_id: game_id.to_owned(),
        kind: row.kind.clone(),
        version,
    };
    let started = status == GameStatus::InProgress && row.status != GameStatus::InProgress;
    let over = status == GameStatus::Finished && row.status != GameStatus::Finished;
    for (seat, player, autoplay) in humans {
        if started {
            out.push(candidate(
                player,
                DeliveryEvent::GameStarted,
                game_id,
                &game(),
            ));
        }
        if over {
            out.push(candidate(player, DeliveryEvent::GameOver, game_id, &game()));
        }
        let Ok(number) = u8::try_from(seat) else {
            continue;
        };
        if status != GameStatus::InProgress || autoplay || !(0..16).contains(&seat) {
            continue;
        }
        let seat_bit = 1 << seat;
        let s = cards::Seat::new(number);
        if !after.to_act().contains(s) {
            continue;
        }
        let was_asked = row.status == GameStatus::InProgress
            && row.to_act & seat_bit != 0
            && before.prompt(s) == after.prompt(s)
            && deadline_moved & seat_bit == 0;
        if !was_asked {
            let turn = TurnFields {
                game_id: game_id.to_owned(),
                kind: row.kind.clone(),
                seat: number,
                prompt: after.prompt(s).map(str::to_owned),
                version,
                deadline_at,
            };
            out.push(candidate(player, DeliveryEvent::YourTurn, game_id, &turn));
        }
    }
    out
}

/// The outbox candidates of a table formed from seeks (quick play):
/// `seek_matched` to each member (`(player, seek, seat)` of `members`),
/// then what its start tells its seats, as for a game that was open and
/// started with this change (`game_started`, `your_turn`).
pub(crate) fn table_formed_outbox(
    row: &GameRow,
    seats: &[SeatWithName],
    game: &dyn AnyGame,
    members: &[(&str, &str, u8)],
) -> Vec<NewOutbox> {
    let mut out: Vec<NewOutbox> = members
        .iter()
        .map(|&(player, seek_id, seat)| {
            let fields = SeekMatchedFields {
                seek_id,
                game_id: &row.id,
                kind: &row.kind,
                seat,
                version: row.version,
            };
            candidate(player, DeliveryEvent::SeekMatched, &row.id, &fields)
        })
        .collect();
    let opened = GameRow {
        status: GameStatus::Open,
        to_act: 0,
        ..row.clone()
    };
    out.extend(outbox_for(
        &row.id,
        &opened,
        game,
        row.status,
        seats,
        game,
        row.version,
        row.deadline_at,
        0,
    ));
    out
}

/// The outbox candidates of a change of challenge `c` (as it stands after
/// it): `challenge` to each of its players but `actor` (who made the
/// change; none for the sweep's expiry), naming `actor`'s answer if the
/// change was one.
pub(crate) fn challenge_outbox(
    c: &Challenge,
    actor: Option<&str>,
    answer: Option<ChallengeAnswer>,
) -> Vec<NewOutbox> {
    let fields = ChallengeFields {
        challenge_id: &c.row.id,
        kind: &c.row.kind,
        challenger_id: &c.row.challenger_id,
        status: c.row.status.as_str(),
        player_id: answer.and(actor),
        answer: answer.map(ChallengeAnswer::as_str),
        game_id: c.row.game_id.as_deref(),
    };
    let payload = serde_json::to_string(&fields).unwrap_or_else(|_| "{}".to_owned());
    std::iter::once(c.row.challenger_id.as_str())
        .chain(c.players.iter().map(|(p, _)| p.player_id.as_str()))
        .filter(|p| Some(*p) != actor)
        .map(|p| {
            NewOutbox::new(
                p,
                DeliveryEvent::Challenge,
                c.row.game_id.as_deref(),
                payload.clone(),
            )
        })
        .collect()
}

/// The stored fields of `challenge`.
#[derive(Serialize)]
struct ChallengeFields<'a> {
    challenge_id: &'a str,
    kind: &'a str,
    challenger_id: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game_id: Option<&'a str>,
}

/// The stored fields of `seek_matched`.
#[derive(Serialize)]
struct SeekMatchedFields<'a> {
    seek_id: &'a str,
    game_id: &'a str,
    kind: &'a str,
    seat: u8,
    version: i64,
}

/// The stored fields of `game_started` / `game_over`.
#[derive(Serialize)]
struct GameFields {
    game_id: String,
    kind: String,
    version: i64,
}

/// The stored fields of `your_turn` / `deadline_warning`.
#[derive(Serialize)]
pub(super) struct TurnFields {
    pub(super) game_id: String,
    pub(super) kind: String,
    pub(super) seat: u8,
    pub(super) prompt: Option<String>,
    pub(super) version: i64,
    pub(super) deadline_at: Option<DateTime<Utc>>,
}

/// The stored fields of `chat`.
#[derive(Serialize)]
struct ChatFields<'a> {
    game_id: &'a str,
    message_id: &'a str,
    author_id: &'a str,
    author_name: &'a str,
    text: &'a str,
}

pub(super) fn candidate(
    player: &str,
    event: DeliveryEvent,
    game_id: &str,
    fields: &impl Serialize,
) -> NewOutbox {
    let payload = serde_json::to_string(fields).unwrap_or_else(|_| "{}".to_owned());
    NewOutbox::new(player, event, Some(game_id), payload)
}

/// A table-talk message's `chat` candidates: one per recipient (the
/// players seated at the game other than the author). The message's
/// transaction writes them with `enqueue_outbox!` (same transaction as the
/// message) or, failing that, `Db::enqueue_outbox`.
pub fn chat_outbox(
    game_id: &str,
    message_id: &str,
    author_id: &str,
    author_name: &str,
    text: &str,
    recipients: &[&str],
) -> Vec<NewOutbox> {
    let fields = ChatFields {
        game_id,
        message_id,
        author_id,
        author_name,
        text,
    };
    recipients
        .iter()
        .filter(|p| **p != author_id)
        .map(|p| candidate(p, DeliveryEvent::Chat, game_id, &fields))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::webhooks::{DeliveryRow, DeliveryStatus};
    use crate::games::webhooks::schema::body_of;
    use serde_json::Value;

    #[test]
    fn chat_goes_to_everyone_seated_but_the_author() {
        let out = chat_outbox("g", "m", "ann", "Ann", "hi", &["ann", "bob", "cy"]);
        let to: Vec<_> = out.iter().map(|o| o.player_id.as_str()).collect();
        assert_eq!(to, ["bob", "cy"]);
        assert!(out.iter().all(|o| o.event == DeliveryEvent::Chat));
        let row = DeliveryRow {
            id: "k.e".into(),
            endpoint_id: "e".into(),
            event_type: DeliveryEvent::Chat,
            game_id: Some("g".into()),
            payload: out[0].payload.clone(),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: Utc::now(),
            claimed_until: None,
            claim: None,
            last_error: None,
            last_status: None,
            created_at: Utc::now(),
            finished_at: None,
        };
        let body: Value = serde_json::from_str(&body_of(&row).unwrap()).unwrap();
        assert_eq!(body["type"], "chat");
        assert_eq!(body["event_id"], "k.e");
        assert_eq!(body["text"], "hi");
        assert_eq!(body["author_name"], "Ann");
    }
}
