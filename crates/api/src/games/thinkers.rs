//! The expert bot's thinkers, shared fairly between players.
//!
//! `BOT_THINKERS` permits run searches, each on a blocking thread. A search
//! waiting for one queues under its game's creator (one FIFO queue per
//! player), and a freed permit goes to the waiting player served least
//! recently (a permit taken at once counts as served too): a player who
//! floods the server with expert games queues behind everyone else's next
//! search, not in front of it. Among players that always have work waiting
//! this is round-robin; a player with nothing waiting or thinking counts
//! as never served, so the next permit is theirs (ties: whoever started
//! waiting first).
//!
//! The queues are bounded, in all (`BOT_QUEUE_MAX`) and per player
//! (`BOT_QUEUE_PER_PLAYER`): a search that would pass either bound is
//! refused at once ([`Refused`]), and the caller decides what the bot does
//! instead (`bots.rs`: it waits and asks again, then falls back to the
//! sensible bot for that decision).
//!
//! Pure bookkeeping under one short mutex; no I/O, so it is unit-tested
//! without a server.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Why a search could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// `BOT_QUEUE_MAX` searches wait already.
    QueueFull,
    /// The player's own `BOT_QUEUE_PER_PLAYER` searches wait already.
    PlayerQueueFull,
}

/// The permits and the players' queues.
#[derive(Debug)]
pub struct FairThinkers {
    state: Mutex<State>,
    /// Most searches waiting at once, all players together.
    max_queued: usize,
    /// Most searches one player may have waiting at once.
    max_queued_per_player: usize,
}

#[derive(Debug, Default)]
struct State {
    /// Permits nobody holds (only ever non-zero while no search waits).
    free: usize,
    /// Each player with a search waiting or thinking.
    players: HashMap<String, Player>,
    /// Searches waiting, all players together.
    queued: usize,
    /// Counts permits handed out: a player's `served_at`.
    served: u64,
    /// Counts waits begun: waiter ids and a player's `since`.
    arrivals: u64,
}

#[derive(Debug, Default)]
struct Player {
    /// Its waiting searches, oldest first.
    waiters: VecDeque<Waiter>,
    /// Its searches holding a permit now.
    running: usize,
    /// When it was last handed a permit (`State::served`); 0 if never
    /// since it last had nothing waiting or thinking.
    served_at: u64,
    /// When its queue last became non-empty (`State::arrivals`).
    since: u64,
}

#[derive(Debug)]
struct Waiter {
    id: u64,
    grant: oneshot::Sender<()>,
}

impl State {
    /// A permit handed to `player`'s search.
    fn serve(&mut self, player: &str) {
        self.served += 1;
        let served = self.served;
        let p = self.players.entry(player.to_owned()).or_default();
        p.served_at = served;
        p.running += 1;
    }

    /// Forgets `player` once nothing of theirs waits or thinks.
    fn forget_if_idle(&mut self, player: &str) {
        if self
            .players
            .get(player)
            .is_some_and(|p| p.running == 0 && p.waiters.is_empty())
        {
            self.players.remove(player);
        }
    }
}

/// One permit to think; given back when dropped, to the next waiting
/// player in turn.
#[derive(Debug)]
pub struct ThinkPermit {
    owner: Arc<FairThinkers>,
    player: String,
}

impl Drop for ThinkPermit {
    fn drop(&mut self) {
        self.owner.release(&self.player);
    }
}

/// A search waiting for a permit ([`FairThinkers::enqueue`]). Dropped
/// before its permit came, it leaves the queue (or gives back the permit
/// it was handed meanwhile).
#[derive(Debug)]
pub struct Waiting {
    owner: Arc<FairThinkers>,
    player: String,
    id: u64,
    grant: Option<oneshot::Receiver<()>>,
}

/// A queued search: a permit at once, or a place in its player's queue.
#[derive(Debug)]
pub enum Ticket {
    Ready(ThinkPermit),
    Waiting(Waiting),
}

impl Waiting {
    /// Waits for this search's turn.
    pub async fn permit(mut self) -> ThinkPermit {
        let grant = self.grant.as_mut().expect("a waiting search has its grant");
        // The sender lives in the queue until it is used, and the queue
        // is only dropped with its owner, which this holds: it answers.
        let _ = grant.await;
        self.grant = None;
        ThinkPermit {
            owner: Arc::clone(&self.owner),
            player: std::mem::take(&mut self.player),
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(mut grant) = self.grant.take() else {
            return;
        };
        let still_queued = {
            let mut state = self.owner.lock();
            let state = &mut *state;
            let mut found = false;
            if let Some(p) = state.players.get_mut(&self.player)
                && let Some(at) = p.waiters.iter().position(|w| w.id == self.id)
            {
                p.waiters.remove(at);
                found = true;
                state.queued -= 1;
                state.forget_if_idle(&self.player);
            }
            found
        };
        // Not in the queue any more: it was handed a permit, which goes on.
        if !still_queued && grant.try_recv().is_ok() {
            self.owner.release(&self.player);
        }
    }
}

impl FairThinkers {
    pub fn new(permits: usize, max_queued: usize, max_queued_per_player: usize) -> Arc<Self> {
        Arc::new(FairThinkers {
            state: Mutex::new(State {
                free: permits.max(1),
                ..State::default()
            }),
            max_queued,
            max_queued_per_player,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A search for `player`: a permit now if one is free (nobody then
    /// waits), else a place at the end of the player's queue, or
    /// [`Refused`] past a bound.
    pub fn enqueue(self: &Arc<Self>, player: &str) -> Result<Ticket, Refused> {
        let mut state = self.lock();
        if state.free > 0 {
            state.free -= 1;
            state.serve(player);
            return Ok(Ticket::Ready(ThinkPermit {
                owner: Arc::clone(self),
                player: player.to_owned(),
            }));
        }
        if state.queued >= self.max_queued {
            return Err(Refused::QueueFull);
        }
        let own = state.players.get(player).map_or(0, |p| p.waiters.len());
        if own >= self.max_queued_per_player {
            return Err(Refused::PlayerQueueFull);
        }
        state.arrivals += 1;
        let id = state.arrivals;
        let (tx, rx) = oneshot::channel();
        let p = state.players.entry(player.to_owned()).or_default();
        if p.waiters.is_empty() {
            p.since = id;
        }
        p.waiters.push_back(Waiter { id, grant: tx });
        state.queued += 1;
        Ok(Ticket::Waiting(Waiting {
            owner: Arc::clone(self),
            player: player.to_owned(),
            id,
            grant: Some(rx),
        }))
    }

    /// A permit for `player`'s search, waiting its turn if need be.
    pub async fn acquire(self: &Arc<Self>, player: &str) -> Result<ThinkPermit, Refused> {
        match self.enqueue(player)? {
            Ticket::Ready(permit) => Ok(permit),
            Ticket::Waiting(waiting) => Ok(waiting.permit().await),
        }
    }

    /// Searches waiting now, all players together.
    #[cfg(test)]
    pub fn queued(&self) -> usize {
        self.lock().queued
    }

    /// `player`'s permit given back: to the first search of the waiting
    /// player served least recently, or kept free when nobody waits.
    fn release(&self, player: &str) {
        let mut state = self.lock();
        let state = &mut *state;
        if let Some(p) = state.players.get_mut(player) {
            p.running = p.running.saturating_sub(1);
        }
        state.forget_if_idle(player);
        loop {
            let next = state
                .players
                .iter()
                .filter(|(_, p)| !p.waiters.is_empty())
                .min_by_key(|(_, p)| (p.served_at, p.since))
                .map(|(player, _)| player.clone());
            let Some(next) = next else {
                state.free += 1;
                return;
            };
            let p = state.players.get_mut(&next).expect("just found");
            let waiter = p.waiters.pop_front().expect("it has a waiter");
            state.queued -= 1;
            // A waiter whose receiver is gone is being dropped: the next.
            if waiter.grant.send(()).is_ok() {
                state.serve(&next);
                return;
            }
            state.forget_if_idle(&next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(ticket: Result<Ticket, Refused>) -> Waiting {
        match ticket {
            Ok(Ticket::Waiting(w)) => w,
            other => panic!("expected a place in the queue, got {other:?}"),
        }
    }

    fn ready(ticket: Result<Ticket, Refused>) -> ThinkPermit {
        match ticket {
            Ok(Ticket::Ready(p)) => p,
            other => panic!("expected a permit, got {other:?}"),
        }
    }

    /// Whether `w` has been handed its permit (without waiting).
    fn granted(w: &mut Waiting) -> bool {
        let grant = w.grant.as_mut().unwrap();
        match grant.try_recv() {
            Ok(()) => {
                // Keep the permit with the waiter: it is released when the
                // test drops it.
                w.grant = None;
                true
            }
            Err(_) => false,
        }
    }

    /// A permit handed to `w` (already granted), given back when dropped.
    fn permit_of(mut w: Waiting) -> ThinkPermit {
        ThinkPermit {
            owner: Arc::clone(&w.owner),
            player: std::mem::take(&mut w.player),
        }
    }

    /// Two players, one floods the queue: the other's one search is served
    /// next, before the flood's next, with one permit and with two.
    #[test]
    fn a_flooding_player_does_not_delay_another_players_next_search() {
        for permits in [1, 2] {
            let thinkers = FairThinkers::new(permits, 1000, 1000);
            let mut running: Vec<ThinkPermit> = (0..permits)
                .map(|_| ready(thinkers.enqueue("abuser")))
                .collect();
            let mut flood: Vec<Waiting> = (0..98)
                .map(|_| waiting(thinkers.enqueue("abuser")))
                .collect();
            let mut victim = waiting(thinkers.enqueue("victim"));
            assert_eq!(thinkers.queued(), 99);

            // One of the abuser's searches ends: the victim's is next.
            drop(running.pop());
            assert!(granted(&mut victim), "{permits} permits");
            assert!(flood.iter_mut().all(|w| !granted(w)));
            let victim_permit = permit_of(victim);

            // Then the abuser's oldest, in order.
            drop(victim_permit);
            assert!(granted(&mut flood[0]));
            assert!(flood[1..].iter_mut().all(|w| !granted(w)));
            assert_eq!(thinkers.queued(), 97);
        }
    }

    /// Players that always have work waiting take turns (round-robin), and
    /// each player's searches run in the order they were queued.
    #[test]
    fn backlogged_players_take_turns_in_fifo_order() {
        let thinkers = FairThinkers::new(1, 1000, 1000);
        let mut permit = Some(ready(thinkers.enqueue("x")));
        let mut queued: Vec<(&str, usize, Waiting)> = Vec::new();
        for (player, n) in [("a", 6), ("b", 3), ("c", 2)] {
            for i in 0..n {
                queued.push((player, i, waiting(thinkers.enqueue(player))));
            }
        }
        let mut order = Vec::new();
        while !queued.is_empty() {
            drop(permit.take());
            let at = queued
                .iter_mut()
                .position(|(_, _, w)| granted(w))
                .expect("a freed permit goes to a waiting search");
            let (player, i, w) = queued.remove(at);
            order.push(format!("{player}{i}"));
            permit = Some(permit_of(w));
        }
        assert_eq!(
            order,
            [
                "a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "a3", "a4", "a5"
            ]
        );
    }

    /// Past either bound a search is refused at once, and nothing queues.
    #[test]
    fn the_queues_are_bounded_in_all_and_per_player() {
        let thinkers = FairThinkers::new(1, 5, 3);
        let _running = ready(thinkers.enqueue("a"));
        let _a: Vec<Waiting> = (0..3).map(|_| waiting(thinkers.enqueue("a"))).collect();
        assert_eq!(thinkers.enqueue("a").unwrap_err(), Refused::PlayerQueueFull);
        let _b: Vec<Waiting> = (0..2).map(|_| waiting(thinkers.enqueue("b"))).collect();
        assert_eq!(thinkers.enqueue("c").unwrap_err(), Refused::QueueFull);
        assert_eq!(thinkers.queued(), 5);
    }

    /// A search given up while waiting leaves its queue, and a permit
    /// handed to one given up goes on to the next: none is lost.
    #[test]
    fn searches_given_up_leave_no_permit_behind() {
        let thinkers = FairThinkers::new(1, 10, 10);
        let running = ready(thinkers.enqueue("a"));
        let gone = waiting(thinkers.enqueue("a"));
        let mut next = waiting(thinkers.enqueue("b"));
        drop(gone);
        assert_eq!(thinkers.queued(), 1);
        drop(running);
        assert!(granted(&mut next));
        // Handed a permit, then given up before using it: it is freed.
        let handed = waiting(thinkers.enqueue("c"));
        drop(permit_of(next));
        assert!(thinkers.lock().players["c"].waiters.is_empty());
        drop(handed);
        assert_eq!(thinkers.lock().free, 1);
        assert_eq!(thinkers.queued(), 0);
        let _again = ready(thinkers.enqueue("d"));
    }

    #[tokio::test]
    async fn acquire_waits_for_its_turn() {
        let thinkers = FairThinkers::new(1, 10, 10);
        let first = thinkers.acquire("a").await.unwrap();
        let t = Arc::clone(&thinkers);
        let second = tokio::spawn(async move { t.acquire("b").await.map(|_| ()) });
        tokio::task::yield_now().await;
        assert!(!second.is_finished());
        drop(first);
        second.await.unwrap().unwrap();
        assert_eq!(thinkers.lock().free, 1);
    }
}
