//! What a waiting seeker's screen shows of its table-to-be: how many
//! people its group has found so far, and the table sizes they can make
//! (`matching::found`, counts only: nobody's name or rating leaves here).
//!
//! Every waiting screen asks every few seconds, so the kind's queue is
//! read and grouped at most every [`FRESH`] per kind in this process
//! (a newer seek than the last look forces one after [`SOONEST`]), however
//! many screens ask: one seeker polling never slows another's moves. The
//! looks are kept by the service (`games/seek_looks.rs`, a leaf).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::matching::{self, Found};
use super::options;
use super::service::{MATCH_WINDOW, seeker};
use crate::db::seeks::{SeekRow, SeekStatus};
use crate::games::error::ServiceError;
use crate::games::seek_looks::Look;
use crate::games::service::GameService;

/// How long one look at a kind's queue answers every screen.
const FRESH: Duration = Duration::from_secs(1);
/// The soonest a look is taken again for a seek newer than the last one.
const SOONEST: Duration = Duration::from_millis(250);

/// Whether `look` may answer for `seek`.
fn answers(look: &Look, seek: &SeekRow) -> bool {
    let age = look.taken.elapsed();
    age < FRESH && (seek.created_at <= look.at || age < SOONEST)
}

impl GameService {
    /// The group `seek` belongs to now, while it is active and among the
    /// oldest [`MATCH_WINDOW`] of its kind (else `None`: ended, or waiting
    /// its turn to be looked at). At most [`FRESH`] old.
    pub async fn seek_found(&self, seek: &SeekRow) -> Result<Option<Found>, ServiceError> {
        if seek.status != SeekStatus::Active {
            return Ok(None);
        }
        let Some(slot) = self.seek_looks.of(&seek.kind) else {
            return Ok(None);
        };
        // Held across the read: screens asking meanwhile wait for this look.
        let mut last = slot.lock().await;
        if !last.as_ref().is_some_and(|look| answers(look, seek)) {
            *last = Some(self.look_at(&seek.kind).await?);
        }
        Ok(last
            .as_ref()
            .and_then(|look| look.found.get(&seek.id).copied()))
    }

    /// Reads `kind`'s active seeks and groups them as the matcher would.
    async fn look_at(&self, kind: &str) -> Result<Look, ServiceError> {
        let at = crate::db::now();
        let active = self.db.active_seeks(kind, MATCH_WINDOW).await?;
        let options = options::of(kind)
            .ok_or_else(|| ServiceError::internal(format!("seeks of an unknown kind {kind}")))?;
        let seekers: Vec<_> = active.iter().map(seeker).collect();
        let found: HashMap<String, Found> = active
            .iter()
            .zip(matching::found(&seekers, options))
            .filter_map(|(a, f)| Some((a.row.id.clone(), f?)))
            .collect();
        Ok(Look {
            taken: Instant::now(),
            at,
            found,
        })
    }
}
