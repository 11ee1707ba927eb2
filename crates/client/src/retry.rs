//! How long to wait before trying again, shared by the calls and the streams.

use std::time::Duration;

#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts after the first (a stream reconnects for as long as it is
    /// read, unless this is 0).
    pub retries: u32,
    /// The first backoff, doubled on each retry.
    pub base_delay: Duration,
    /// The longest wait between two attempts.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 5,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// One try of everything: a call's failure is returned as it came, and
    /// a stream ends when its connection does (no reconnecting). For a
    /// caller that retries, or counts failures, by itself.
    pub fn none() -> RetryPolicy {
        RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        }
    }

    /// Jitter: a wait between half and all of the doubled delay, capped.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let ceiling = self
            .base_delay
            .saturating_mul(1 << attempt.min(16))
            .min(self.max_delay);
        let jitter = (uuid::Uuid::new_v4().as_u64_pair().0 % 1000) as f64 / 1000.0;
        ceiling.mul_f64(0.5 + jitter / 2.0)
    }
}
