use actix_web::{HttpResponse, get, web};

use crate::app::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::watch::PlayerStreamItem;
use crate::resources::streams::{PlayerStreamData, PlayerStreamEvent};
use crate::routes::games::known_player;
use crate::routes::{doc, sse};

/// Follow all my games (SSE)
///
/// One `text/event-stream` per player across all their games:
///
/// - `event: your_turn` (`YourTurn`): one of your seats must act, with what
///   is asked (`prompt`) and the deadline. Sent first for every game already
///   waiting for you, then once per turn.
/// - `event: seat_taken`, `game_started`, `game_over` (`GameNotice`): a seat
///   of one of your games was taken; a game of yours started; ended.
/// - `: heartbeat` comments every 15 s when nothing happens.
///
/// These events have no ids: after a reconnect, the `your_turn` events sent
/// first (or `get_inbox`) tell what is waiting.
#[utoipa::path(
    tag = "streams",
    operation_id = "stream_player",
    responses(
        (status = 200, description = "The stream. Each event's `data:` is JSON: a `YourTurn` \
            (`event: your_turn`) or a `GameNotice` (`seat_taken`, `game_started`, `game_over`). \
            On the wire:\n\n```\nevent: your_turn\ndata: {\"game_id\":\"0b6f…\",\"prompt\":\"bid\",…}\n\n\
            event: game_over\ndata: {\"game_id\":\"0b6f…\",\"seq\":212,…}\n```",
            content_type = "text/event-stream", body = PlayerStreamEvent,
            example = json!({
                "event": "your_turn",
                "data": "{\"game_id\":\"0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47\",\"kind\":\"lost-heir\",\"seat\":0,\"prompt\":\"bid\",\"version\":14,\"waiting_since\":\"2026-11-30T12:03:10Z\",\"deadline_at\":null}"
            })),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/stream")]
pub async fn stream_player(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let player = known_player(&state, &auth.player_id).await?;
    let sub = state.games.subscribe();
    // Before the response: a game the client creates once the stream is
    // open must be new to the stream, whenever its task starts.
    let start = state.games.player_cursor(&player.id).await?;
    let (tx, rx) = tokio::sync::mpsc::channel(sse::BUFFER);
    let games = state.games.clone();
    tokio::spawn(async move {
        let follow = games.follow_player(sub, player.id.clone(), start, sse::HEARTBEAT, tx);
        if let Err(e) = follow.await {
            tracing::warn!(player_id = player.id, error = %e, "player stream ended");
        }
    });
    let head = futures_util::stream::iter([sse::retry()]);
    Ok(sse::response(futures_util::StreamExt::chain(
        head,
        sse::from_channel(rx, item_bytes),
    )))
}

fn item_bytes(item: PlayerStreamItem) -> actix_web::web::Bytes {
    let (name, data) = match item {
        PlayerStreamItem::YourTurn(turn) => ("your_turn", PlayerStreamData::YourTurn(turn.into())),
        PlayerStreamItem::SeatTaken(notice) => {
            ("seat_taken", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::GameStarted(notice) => {
            ("game_started", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::GameOver(notice) => {
            ("game_over", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::Heartbeat => return sse::heartbeat(),
    };
    sse::frame(name, None, &data)
}
