//! Hints (issue 35; docs/analysis.md, "Hints"): in a game whose creator
//! allowed them (never a rated one), the seated player who must act may
//! ask what the expert would play now, from their own view.
//!
//! The expert's search (`AnyGame::hint`, over `cards::analysis::hint`)
//! never runs on an HTTP worker nor in the write path: like an expert
//! bot's move, it waits for one of the bots' thinking permits under the
//! asking player's name (the fair queues of `thinkers.rs`, so one player's
//! hints queue behind everyone else's next search) and runs on a blocking
//! thread. A player has at most one hint in flight (`hint_jobs.rs`).
//!
//! Each hint given is a `hint_given` event appended through the one write
//! path (`Command::Hint`, `decide/hint.rs`), for the version it was
//! thought on: like autoplay it bumps the game's version; if the game
//! moved meanwhile the hint is thought again. The random streams come
//! from SHA-256("hint" ‖ server seed ‖ seat ‖ ply), so asking again for
//! the same decision gives the same hint: it is answered again (searched
//! again) but not logged a second time.

use std::sync::Arc;
use std::time::Duration;

use cards::{Seat, Seed};
use sha2::{Digest, Sha256};

use super::any_game::{AnyGame, HintEvaluation};
use super::decide::{MOVED_ON, hint_allowed, must_act};
use super::error::ServiceError;
use super::event::GameEvent;
use super::service::{GameService, Snapshot, SnapshotRef};
use super::write::{Command, Render};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// How many times a hint is thought again when the game moved on while it
/// was thought out.
const MAX_THOUGHTS: u32 = 3;

/// How long a hint whose permit the thinkers' queues refused waits before
/// it asks again.
const REFUSED_RETRY: Duration = Duration::from_millis(250);

/// A hint as the service answers it.
#[derive(Debug, Clone)]
pub struct GivenHint {
    pub seat: u8,
    /// The number of moves played before the decision (its place in the
    /// game's move sequence).
    pub ply: u32,
    pub evaluation: HintEvaluation,
    /// This seat's hints in this game, this one included.
    pub hints_used: u32,
}

/// How a route wants a hint answered (rendered inside the commit when the
/// hint is logged, so that an idempotency record holds the answer sent).
pub trait RenderHint: Sync {
    fn render(&self, hint: &GivenHint) -> Result<Stored, ServiceError>;
}

/// The write path's [`Render`] for a hint thought out before the commit.
struct Rendered<'a> {
    render: &'a dyn RenderHint,
    hint: &'a GivenHint,
}

impl Render for Rendered<'_> {
    fn render(&self, _after: SnapshotRef<'_>, _first_seq: i64) -> Result<Stored, ServiceError> {
        self.render.render(self.hint)
    }
}

/// What the log says of a seat's hints when a hint is asked for.
struct Logged {
    /// Moves played so far: the decision's ply.
    ply: u32,
    /// The seat's hints so far.
    used: u32,
    /// Whether one was given for this very decision.
    given_here: bool,
}

impl GameService {
    /// The expert's hint for the seat `player_id` holds in `game_id`.
    pub async fn hint(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        idem: Option<&IdemRequest>,
        render: &dyn RenderHint,
    ) -> Result<Stored, ServiceError> {
        if let Some(answer) = committed_answer(&self.db, idem).await? {
            return Ok(answer);
        }
        let _place = self.hints.start(player_id)?;
        let mut moved_on = None;
        for _ in 0..MAX_THOUGHTS {
            let snapshot = self.snapshot(game_id).await?;
            let seat = hint_seat(&snapshot, player_id)?;
            let logged = self.logged_hints(&snapshot, seat).await?;
            let Some(evaluation) = self
                .think_hint(&snapshot, seat, logged.ply, player_id)
                .await?
            else {
                // The server is stopping.
                return Err(ServiceError::Contention);
            };
            let hint = GivenHint {
                seat: seat.number(),
                ply: logged.ply,
                evaluation,
                hints_used: logged.used + u32::from(!logged.given_here),
            };
            if logged.given_here {
                return render.render(&hint);
            }
            let command = Command::Hint {
                player_id,
                seat,
                ply: logged.ply,
                mv: &hint.evaluation.best,
                version: snapshot.row.version,
            };
            let rendered = Rendered {
                render,
                hint: &hint,
            };
            match self.execute(game_id, &command, idem, Some(&rendered)).await {
                Ok(outcome) => return outcome.answer(),
                Err(ServiceError::Conflict(refusal)) if refusal.code == MOVED_ON => {
                    moved_on = Some(ServiceError::Conflict(refusal));
                }
                Err(e) => return Err(e),
            }
        }
        Err(moved_on.unwrap_or(ServiceError::Contention))
    }

    /// The log up to the snapshot's version, read for the decision's ply
    /// and the seat's hints so far.
    async fn logged_hints(&self, snapshot: &Snapshot, seat: Seat) -> Result<Logged, ServiceError> {
        let (mut moves, mut hints) = (0u32, Vec::new());
        let mut after = 0;
        while after < snapshot.row.version {
            let page = self
                .db
                .events(
                    &snapshot.row.id,
                    after,
                    PAGE.min(snapshot.row.version - after),
                )
                .await?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            for event in &page {
                match &event.event {
                    GameEvent::Move(_) => moves += 1,
                    GameEvent::HintGiven(h) if h.seat == seat.number() => hints.push(h.ply),
                    _ => {}
                }
            }
        }
        Ok(Logged {
            ply: moves,
            used: hints.len() as u32,
            given_here: hints.contains(&moves),
        })
    }

    /// The expert's evaluation for `seat`, on a blocking thread once a
    /// thinking permit is `player_id`'s turn; `None` when the bots stop.
    async fn think_hint(
        &self,
        snapshot: &Snapshot,
        seat: Seat,
        ply: u32,
        player_id: &str,
    ) -> Result<Option<HintEvaluation>, ServiceError> {
        let Some(_permit) = self.bots.patient_permit(player_id, REFUSED_RETRY).await else {
            return Ok(None);
        };
        let game: Box<dyn AnyGame> = snapshot.game.clone_box();
        let seed = hint_seed(&snapshot.row.seed, seat, ply);
        let evaluation = tokio::task::spawn_blocking(move || game.hint(seat, &seed))
            .await
            .map_err(|e| ServiceError::internal(format!("the hint failed: {e}")))?;
        evaluation
            .map(Some)
            .ok_or_else(|| ServiceError::internal("a seat to act had no hint"))
    }
}

/// Events read per page while counting.
const PAGE: i64 = 1000;

/// The seat `player_id` holds, if it may have a hint now: the game allows
/// hints (403 `hints_not_allowed`: rated games never do), runs (409 as a
/// move is refused), and the seat must act (409 `not_your_turn`, G-4).
fn hint_seat(snapshot: &Snapshot, player_id: &str) -> Result<Seat, ServiceError> {
    let seat = snapshot.seat_of(player_id).ok_or(ServiceError::NotSeated)?;
    hint_allowed(snapshot.row.hints_allowed, snapshot.row.status)?;
    must_act(snapshot.game.to_act().contains(seat))?;
    Ok(seat)
}

/// The random streams of the hint for `seat` at `ply`: SHA-256("hint" ‖
/// server seed ‖ seat ‖ ply), so the same decision always gets the same
/// hint.
fn hint_seed(seed_hex: &str, seat: Seat, ply: u32) -> Seed {
    let mut hasher = Sha256::new();
    hasher.update(b"hint");
    hasher.update(seed_hex.as_bytes());
    hasher.update([seat.number()]);
    hasher.update(ply.to_le_bytes());
    Seed(hasher.finalize().into())
}
