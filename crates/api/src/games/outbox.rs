//! A stream's items on their way from its producer (`watch.rs`:
//! `follow_game`, `follow_player`) to the connection. Both ends are polled
//! by the one task that serves the connection (`routes::sse::produced`),
//! the taker right after the producer, so the queue needs no locking, and
//! a stream holds a few words while idle (a channel between two tasks,
//! with its cache-padded halves and first block of slots, was about 800
//! bytes per open stream: docs/performance.md, section 12).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// The producer's half.
#[derive(Debug)]
pub struct Outbox<T> {
    queue: Rc<RefCell<Queue<T>>>,
}

/// The connection's half.
#[derive(Debug)]
pub struct Taker<T> {
    queue: Rc<RefCell<Queue<T>>>,
}

#[derive(Debug)]
struct Queue<T> {
    /// Each item with its weight (`Outbox::send_weighing`).
    items: VecDeque<(T, usize)>,
    /// The items' weights summed.
    held: usize,
    capacity: usize,
    /// The producer, waiting for room.
    waiting: Option<Waker>,
    taker_gone: bool,
}

/// The connection is gone: nothing sent will be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone;

/// A queue of at most `capacity` items, or of their weight when they are
/// sent with one (the producer waits beyond).
pub fn outbox<T>(capacity: usize) -> (Outbox<T>, Taker<T>) {
    let queue = Rc::new(RefCell::new(Queue {
        items: VecDeque::new(),
        held: 0,
        capacity: capacity.max(1),
        waiting: None,
        taker_gone: false,
    }));
    (
        Outbox {
            queue: queue.clone(),
        },
        Taker { queue },
    )
}

impl<T> Outbox<T> {
    /// Queues `item`, waiting while the queue is full (the connection takes
    /// what it can write); `Err(Gone)` once the taker is dropped.
    pub async fn send(&self, item: T) -> Result<(), Gone> {
        self.send_weighing(item, 1).await
    }

    /// [`Outbox::send`] for an item that counts as `weight` items (a
    /// spectator's spell of many appends): it waits while the queue's
    /// weight is at its capacity, so what a stream whose client stops
    /// reading holds is bounded by weight, not by items (at most the
    /// capacity plus one item's weight).
    pub async fn send_weighing(&self, item: T, weight: usize) -> Result<(), Gone> {
        let mut item = Some(item);
        std::future::poll_fn(|cx| {
            let mut queue = self.queue.borrow_mut();
            if queue.taker_gone {
                return Poll::Ready(Err(Gone));
            }
            if queue.held >= queue.capacity {
                queue.waiting = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if let Some(item) = item.take() {
                queue.items.push_back((item, weight));
                queue.held += weight;
            }
            Poll::Ready(Ok(()))
        })
        .await
    }
}

impl<T> Taker<T> {
    /// The oldest item queued, if any (and a waiting producer is woken:
    /// there is room now).
    pub fn take(&self) -> Option<T> {
        let mut queue = self.queue.borrow_mut();
        let (item, weight) = queue.items.pop_front()?;
        queue.held -= weight;
        if let Some(producer) = queue.waiting.take() {
            producer.wake();
        }
        if queue.items.is_empty() && queue.items.capacity() > 8 {
            // A burst (a whole log page) leaves no buffer behind on a
            // stream that then sits idle.
            queue.items.shrink_to(4);
        }
        Some(item)
    }
}

impl<T> Drop for Taker<T> {
    fn drop(&mut self) {
        if let Ok(mut queue) = self.queue.try_borrow_mut() {
            queue.taker_gone = true;
            queue.items.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::Context;

    #[test]
    fn items_come_out_in_order_and_a_full_queue_makes_the_producer_wait() {
        let (tx, rx) = outbox::<u32>(2);
        let mut cx = Context::from_waker(Waker::noop());
        for i in 0..2 {
            assert_eq!(pin!(tx.send(i)).poll(&mut cx), Poll::Ready(Ok(())));
        }
        let mut third = pin!(tx.send(2));
        assert!(third.as_mut().poll(&mut cx).is_pending(), "full");
        assert_eq!(rx.take(), Some(0));
        assert_eq!(third.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
        assert_eq!((rx.take(), rx.take(), rx.take()), (Some(1), Some(2), None));
    }

    #[test]
    fn a_heavy_item_fills_the_queue_by_its_weight() {
        let (tx, rx) = outbox::<&str>(4);
        let mut cx = Context::from_waker(Waker::noop());
        assert_eq!(
            pin!(tx.send_weighing("spell", 3)).poll(&mut cx),
            Poll::Ready(Ok(()))
        );
        // Room for one more unit: a heavier item still goes, then none.
        assert_eq!(
            pin!(tx.send_weighing("long spell", 5)).poll(&mut cx),
            Poll::Ready(Ok(()))
        );
        let mut light = pin!(tx.send("heartbeat"));
        assert!(light.as_mut().poll(&mut cx).is_pending(), "weight 8 of 4");
        assert_eq!(rx.take(), Some("spell"));
        assert!(light.as_mut().poll(&mut cx).is_pending(), "weight 5 of 4");
        assert_eq!(rx.take(), Some("long spell"));
        assert_eq!(light.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
        assert_eq!((rx.take(), rx.take()), (Some("heartbeat"), None));
    }

    #[test]
    fn a_producer_hears_that_the_connection_is_gone() {
        let (tx, rx) = outbox::<u32>(4);
        drop(rx);
        let mut cx = Context::from_waker(Waker::noop());
        assert_eq!(pin!(tx.send(1)).poll(&mut cx), Poll::Ready(Err(Gone)));
    }
}
