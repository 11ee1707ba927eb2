//! The game after any event, as one viewer saw it then (G-2), from the
//! cache for a finished game, from the log for a running one.

use cards::{Seat, Viewer};
use serde_json::Value;

use crate::db::models::EventRow;
use crate::db::status::GameStatus;
use crate::games::error::ServiceError;
use crate::games::service::{GameService, seat_of};

use super::history::recorded_moves;

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

impl GameService {
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
