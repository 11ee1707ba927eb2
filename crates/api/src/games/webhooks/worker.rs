//! The delivery worker every process runs (unless `WEBHOOK_DELIVER` is
//! off): deadline warnings written from running clocks, and the loop that
//! claims due rows, sends each in a task of its own, and records the
//! attempt with its retry or its end.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::candidates::{TurnFields, candidate};
use super::send::send_once;
use super::subscriptions::Webhooks;
use crate::db::webhooks::{ClaimedDelivery, DeliveryEvent, DeliveryStatus};
use crate::games::error::ServiceError;
use crate::games::service::GameService;

/// How often the worker looks for due deliveries and deadline warnings.
const POLL: Duration = Duration::from_millis(200);
/// Sends in flight per process at most (each a task): the claim asks for
/// no more than the slots free.
pub const MAX_IN_FLIGHT: usize = 64;
/// Sends in flight per endpoint at most, across processes (the claim
/// counts the rows held): an endpoint that hangs holds this many slots
/// until `WEBHOOK_TIMEOUT_MS`, and nobody else's deliveries wait for it.
pub const MAX_IN_FLIGHT_PER_ENDPOINT: i64 = 2;
/// How long a claim holds a row (longer than any attempt: the timeout is
/// at most this minus a margin; a process that dies holding a claim
/// leaves the row to others after it).
const LEASE_MARGIN: Duration = Duration::from_secs(30);
/// Running clocks read per look for deadline warnings.
const WARNING_BATCH: i64 = 1000;
/// The longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);

impl Webhooks {
    /// Starts the worker (deadline warnings, deliveries) on `games`'
    /// runtime until the service stops; nothing when delivery is off.
    pub fn spawn(self: &Arc<Self>, games: Arc<GameService>) {
        if !self.settings.deliver {
            tracing::info!("webhook delivery is off in this process");
            return;
        }
        let this = self.clone();
        let warner = games.clone();
        games.runtime.spawn(async move {
            let mut stop = warner.shutdown.subscribe();
            while !*stop.borrow() {
                if let Err(e) = this.warn_deadlines(&warner).await {
                    tracing::warn!(error = %e, "deadline warnings failed");
                }
                tokio::select! {
                    _ = stop.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        });
        let this = self.clone();
        let stop = games.shutdown.subscribe();
        games.runtime.spawn(this.deliver(stop));
    }

    /// The delivery loop: keeps up to [`MAX_IN_FLIGHT`] sends in flight,
    /// each its own task, and claims more whenever one ends or every
    /// [`POLL`]; the claim takes no more than the slots free (a claimed row
    /// is sent at once, never queued here) and no more of an endpoint's
    /// than [`MAX_IN_FLIGHT_PER_ENDPOINT`] held at once. So a slow or
    /// hanging endpoint holds only its own slots and nobody else's
    /// delivery waits for it. At the stop, the sends in flight finish and
    /// are recorded (each within the timeout).
    async fn deliver(self: Arc<Self>, mut stop: tokio::sync::watch::Receiver<bool>) {
        let lease = self.settings.timeout + LEASE_MARGIN;
        let mut sends = tokio::task::JoinSet::new();
        while !*stop.borrow() {
            while sends.try_join_next().is_some() {}
            let free = MAX_IN_FLIGHT.saturating_sub(sends.len());
            if free > 0 {
                match self
                    .db
                    .claim_deliveries(free as i64, MAX_IN_FLIGHT_PER_ENDPOINT, lease)
                    .await
                {
                    Ok(claimed) => {
                        for c in claimed {
                            let this = self.clone();
                            sends.spawn(async move { this.attempt(c).await });
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "claiming webhook deliveries failed"),
                }
            }
            tokio::select! {
                _ = stop.changed() => {}
                _ = tokio::time::sleep(POLL) => {}
                Some(_) = sends.join_next(), if !sends.is_empty() => {}
            }
        }
        while sends.join_next().await.is_some() {}
    }

    /// Writes the warnings of the clocks past their share: every seat to
    /// act is marked (so the game is not looked at again at this version),
    /// and the ones a person plays get a `deadline_warning` candidate.
    async fn warn_deadlines(&self, games: &GameService) -> Result<(), ServiceError> {
        let due = self
            .db
            .games_past_warning(self.settings.deadline_warning_share, WARNING_BATCH)
            .await?;
        for clock in due {
            let state = games.snapshot(&clock.game_id).await?;
            if state.row.version != clock.version {
                continue; // moved on since: its new clock is read next time
            }
            let mut seats = Vec::new();
            for s in &state.seats {
                let seat = s.seat.seat;
                if !(0..16).contains(&seat) || clock.to_act & (1 << seat) == 0 {
                    continue;
                }
                let person = s
                    .seat
                    .player_id
                    .as_deref()
                    .filter(|_| !s.seat.is_bot && !s.seat.autoplay);
                let outbox = person.map(|player| {
                    let number = u8::try_from(seat).unwrap_or_default();
                    let fields = TurnFields {
                        game_id: clock.game_id.clone(),
                        kind: state.row.kind.clone(),
                        seat: number,
                        prompt: state
                            .game
                            .prompt(cards::Seat::new(number))
                            .map(str::to_owned),
                        version: clock.version,
                        deadline_at: Some(clock.deadline_at),
                    };
                    candidate(
                        player,
                        DeliveryEvent::DeadlineWarning,
                        &clock.game_id,
                        &fields,
                    )
                });
                seats.push((seat, outbox.into_iter().collect()));
            }
            self.db
                .enqueue_deadline_warnings(&clock.game_id, clock.version, &seats)
                .await?;
        }
        Ok(())
    }

    /// One attempt of a claimed delivery, recorded.
    async fn attempt(&self, claimed: ClaimedDelivery) {
        let row = &claimed.delivery;
        let attempts = row.attempts + 1;
        let (status, last_status, error) = match send_once(&self.settings, &self.lookup, &claimed)
            .await
        {
            Ok(code) if (200..300).contains(&code) => (DeliveryStatus::Delivered, Some(code), None),
            Ok(code) => (
                self.after_failure(attempts),
                Some(code),
                Some(format!("the endpoint answered {code}")),
            ),
            Err((true, why)) => (DeliveryStatus::Failed, None, Some(why)),
            Err((false, why)) => (self.after_failure(attempts), None, Some(why)),
        };
        let next =
            Utc::now() + chrono::Duration::from_std(self.backoff(attempts)).unwrap_or_default();
        if let Err(e) = self
            .db
            .record_attempt(
                &row.id,
                status,
                attempts,
                last_status.map(i32::from),
                error.as_deref(),
                next,
            )
            .await
        {
            tracing::warn!(event_id = row.id, error = %e, "recording a webhook attempt failed");
        }
        tracing::debug!(event_id = row.id, ?status, attempts, "webhook attempt");
    }

    fn after_failure(&self, attempts: i32) -> DeliveryStatus {
        if attempts >= i32::try_from(self.settings.max_attempts).unwrap_or(i32::MAX) {
            DeliveryStatus::Failed
        } else {
            DeliveryStatus::Pending
        }
    }

    /// The wait after the `attempts`-th failed attempt.
    fn backoff(&self, attempts: i32) -> Duration {
        let doublings = u32::try_from(attempts.saturating_sub(1))
            .unwrap_or(0)
            .min(20);
        (self.settings.backoff_base * 2u32.pow(doublings)).min(MAX_BACKOFF)
    }
}
