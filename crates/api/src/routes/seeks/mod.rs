//! `/v1/seeks`: quick play (docs/quick-play.md): ask for a table, read,
//! list and cancel one's seeks; `/v1/seekers`: who is seeking, by kind.

pub mod cancel_seek;
pub mod count_seekers;
pub mod create_seek;
pub mod get_seek;
pub mod list_seeks;

use actix_web::http::StatusCode;

use crate::games::ServiceError;
use crate::games::seeks::SeekRender;
use crate::games::vocabulary::SeekRow;
use crate::idempotency::Stored;
use crate::resources::seeks::SeekResource;

/// A new seek answered as it stands once stored (matched at once, or
/// active): `201 Created` with `Location: /v1/seeks/{id}`.
#[derive(Debug, Clone, Copy)]
pub struct SeekCreated;

impl SeekRender for SeekCreated {
    fn render(&self, seek: &SeekRow) -> Result<Stored, ServiceError> {
        let resource = SeekResource::build(seek).map_err(ServiceError::internal)?;
        Ok(Stored::new(StatusCode::CREATED.as_u16(), resource)?
            .with_location(format!("/v1/seeks/{}", seek.id)))
    }
}

/// A stored seek as its resource (a row the server cannot read is a 500).
pub(crate) fn resource(seek: &SeekRow) -> Result<SeekResource, crate::error::ApiError> {
    SeekResource::build(seek).map_err(crate::error::ApiError::internal)
}
