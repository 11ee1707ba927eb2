//! How the handlers want their changes answered: the resource rendered
//! from the game after the change ([`Render`]), with its status code. The
//! service renders it inside the commit so that the idempotency record
//! holds the very answer sent.

use actix_web::http::StatusCode;

use crate::games::{Render, ServiceError, SnapshotRef};
use crate::idempotency::Stored;
use crate::resources::{GameResource, MoveAccepted};

/// The game as `viewer` sees it after the change (a spectator's view for
/// `None`), with `ETag`; `Location` too for a created game.
#[derive(Debug, Clone, Copy)]
pub struct GameAnswer<'a> {
    viewer: Option<&'a str>,
    status: StatusCode,
    located: bool,
}

impl<'a> GameAnswer<'a> {
    /// `200 OK` with the game as `viewer` sees it.
    pub fn ok(viewer: Option<&'a str>) -> Self {
        GameAnswer {
            viewer,
            status: StatusCode::OK,
            located: false,
        }
    }

    /// `201 Created` with `Location: /v1/games/{id}`.
    pub fn created(viewer: &'a str) -> Self {
        GameAnswer {
            viewer: Some(viewer),
            status: StatusCode::CREATED,
            located: true,
        }
    }

    /// `201 Created` with `Location`, as a spectator sees it: an imported
    /// game's seats are placeholder players, none of them the importer.
    pub fn imported() -> Self {
        GameAnswer {
            viewer: None,
            status: StatusCode::CREATED,
            located: true,
        }
    }
}

impl Render for GameAnswer<'_> {
    fn render(&self, after: SnapshotRef<'_>, _first_seq: i64) -> Result<Stored, ServiceError> {
        let seat = self.viewer.and_then(|v| after.seat_of(v));
        let stored = Stored::new(self.status.as_u16(), GameResource::build(after, seat))?
            .with_version(after.row.version);
        Ok(match self.located {
            true => stored.with_location(format!("/v1/games/{}", after.row.id)),
            false => stored,
        })
    }
}

/// A played move: its seq, the version after it and the game as the mover
/// sees it.
#[derive(Debug, Clone, Copy)]
pub struct MoveAnswer<'a> {
    pub player_id: &'a str,
}

impl Render for MoveAnswer<'_> {
    fn render(&self, after: SnapshotRef<'_>, first_seq: i64) -> Result<Stored, ServiceError> {
        let body = MoveAccepted {
            seq: first_seq,
            version: after.row.version,
            game: GameResource::build(after, after.seat_of(self.player_id)),
        };
        Ok(Stored::new(StatusCode::OK.as_u16(), body)?.with_version(after.row.version))
    }
}
