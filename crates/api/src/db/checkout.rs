//! Database work that may be abandoned at any point without harm.
//!
//! A request's future is dropped whenever its client goes away (a closed
//! tab, a stream left, a body too large, the request timeout), and with it
//! any query it was waiting on. Two things make that safe, on both backends:
//!
//! - [`Detached`] runs SQLite's blocking calls: awaiting one is awaiting a
//!   task's handle, and dropping that does nothing (the call finishes on
//!   its blocking thread). diesel-async's default instead waits for the call
//!   in `Drop` with `block_in_place`, which panics on an HTTP worker (a
//!   single-threaded runtime) and would stall the worker if it did not.
//! - [`Checkout`] holds a pooled connection while a query runs: one whose
//!   work was abandoned midway (still in flight, or inside a transaction)
//!   is taken out of the pool and closed rather than handed to the next
//!   caller. Closing it rolls back a transaction that did not commit, so an
//!   abandoned change is either wholly committed or not at all.

use std::error::Error;
use std::ops::{Deref, DerefMut};

use diesel_async::sync_connection_wrapper::SpawnBlocking;
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;

/// SQLite's blocking calls, on the blocking pool of the runtime the
/// connection was made on (the process's multi-threaded one: `Db` makes
/// every connection there), awaited through a handle whose drop only
/// detaches the call.
#[derive(Debug, Clone)]
pub struct Detached(tokio::runtime::Handle);

impl SpawnBlocking for Detached {
    fn spawn_blocking<'a, R>(
        &mut self,
        task: impl FnOnce() -> R + Send + 'static,
    ) -> BoxFuture<'a, Result<R, Box<dyn Error + Send + Sync + 'static>>>
    where
        R: Send + 'static,
    {
        self.0
            .spawn_blocking(task)
            .map(|joined| joined.map_err(Box::from))
            .boxed()
    }

    /// The current runtime: connections are established on the process's
    /// main runtime (`db::on_runtime`), never on an HTTP worker's.
    fn get_runtime() -> Self {
        Detached(tokio::runtime::Handle::current())
    }
}

/// A pooled connection in use. [`Checkout::release`] gives it back to the
/// pool once its work is done; dropped before that (the work abandoned or
/// out of time), it is handed to `discard`, which takes it out of the pool
/// and closes it (`Object::take`, in `bounded!`, which knows its type).
#[allow(missing_debug_implementations)]
pub struct Checkout<T> {
    held: Option<T>,
    discard: fn(T),
}

impl<T> Checkout<T> {
    pub fn new(pooled: T, discard: fn(T)) -> Self {
        Checkout {
            held: Some(pooled),
            discard,
        }
    }

    /// The work is done and nothing of it is in flight: back to the pool.
    pub fn release(mut self) {
        drop(self.held.take());
    }
}

impl<T> Drop for Checkout<T> {
    fn drop(&mut self) {
        if let Some(abandoned) = self.held.take() {
            // Its last in-flight call (if any) still holds the connection;
            // it closes when that call ends.
            (self.discard)(abandoned);
        }
    }
}

impl<T: Deref> Deref for Checkout<T> {
    type Target = T::Target;

    fn deref(&self) -> &T::Target {
        self.held
            .as_deref()
            .expect("a checkout holds its connection until released")
    }
}

impl<T: DerefMut> DerefMut for Checkout<T> {
    fn deref_mut(&mut self) -> &mut T::Target {
        self.held
            .as_deref_mut()
            .expect("a checkout holds its connection until released")
    }
}
