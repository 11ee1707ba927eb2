//! Percentiles over recorded latencies.

use std::time::Duration;

/// Latencies in microseconds.
#[derive(Debug, Default, Clone)]
pub struct Samples(Vec<u64>);

impl Samples {
    pub fn push(&mut self, d: Duration) {
        self.0.push(d.as_micros() as u64);
    }

    pub fn extend(&mut self, other: &Samples) {
        self.0.extend_from_slice(&other.0);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// p50, p95, p99 and max in milliseconds (nearest-rank).
    pub fn summary(&self) -> Summary {
        let mut v = self.0.clone();
        v.sort_unstable();
        let at = |q: f64| -> f64 {
            if v.is_empty() {
                return 0.0;
            }
            let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
            v[rank - 1] as f64 / 1000.0
        };
        Summary {
            count: v.len(),
            p50: at(0.50),
            p95: at(0.95),
            p99: at(0.99),
            max: v.last().map(|m| *m as f64 / 1000.0).unwrap_or(0.0),
        }
    }
}

#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Summary {
    pub count: usize,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={} p50={:.2}ms p95={:.2}ms p99={:.2}ms max={:.2}ms",
            self.count, self.p50, self.p95, self.p99, self.max
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut s = Samples::default();
        for ms in 1..=100 {
            s.push(Duration::from_millis(ms));
        }
        let sum = s.summary();
        assert_eq!(
            (sum.p50, sum.p95, sum.p99, sum.max),
            (50.0, 95.0, 99.0, 100.0)
        );
    }
}
