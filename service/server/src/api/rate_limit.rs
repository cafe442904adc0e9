//! The per-seat-token rate limit on acting calls: a token bucket per bearer token, filled at
//! `actions_per_second` up to `action_burst`. A call that finds its bucket empty is refused
//! before it reaches the match, with the time until the bucket holds a whole token again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::ServiceError;

/// Buckets kept before the first sweep of full ones.
const FIRST_SWEEP_AT: usize = 1024;

pub struct ActionRateLimiter {
    /// Tokens added per second; 0 lifts the limit.
    per_second: u32,
    burst: u32,
    buckets: Mutex<Buckets>,
}

struct Buckets {
    by_token: HashMap<String, Bucket>,
    /// Size of `by_token` at which full buckets are dropped.
    sweep_at: usize,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl ActionRateLimiter {
    pub fn new(per_second: u32, burst: u32) -> Self {
        Self {
            per_second,
            burst,
            buckets: Mutex::new(Buckets {
                by_token: HashMap::new(),
                sweep_at: FIRST_SWEEP_AT,
            }),
        }
    }

    /// Takes one action from `seat_token`'s bucket, or says how long until one is available.
    pub fn take(&self, seat_token: &str, now: Instant) -> Result<(), ServiceError> {
        if self.per_second == 0 {
            return Ok(());
        }
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.by_token.len() >= buckets.sweep_at {
            // A full bucket acts exactly like a missing one, so dropping it forgets nothing;
            // without the sweep, callers inventing tokens would grow the map without bound.
            buckets
                .by_token
                .retain(|_, bucket| self.refilled(*bucket, now) < f64::from(self.burst));
            buckets.sweep_at = FIRST_SWEEP_AT.max(2 * buckets.by_token.len());
        }
        let full = Bucket {
            tokens: f64::from(self.burst),
            updated: now,
        };
        let bucket = buckets
            .by_token
            .entry(seat_token.to_owned())
            .or_insert(full);
        let tokens = self.refilled(*bucket, now);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                updated: now,
            };
            return Ok(());
        }
        *bucket = Bucket {
            tokens,
            updated: now,
        };
        let missing = 1.0 - tokens;
        // Rounded up to whole milliseconds so that retrying after the delay always succeeds.
        let millis = (missing * 1000.0 / f64::from(self.per_second)).ceil();
        Err(ServiceError::RateLimited {
            retry_after: Duration::from_millis(millis as u64),
        })
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        (bucket.tokens + elapsed * f64::from(self.per_second)).min(f64::from(self.burst))
    }

    #[cfg(test)]
    fn tracked_tokens(&self) -> usize {
        self.buckets.lock().unwrap().by_token.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retry_after(result: Result<(), ServiceError>) -> Duration {
        match result {
            Err(ServiceError::RateLimited { retry_after }) => retry_after,
            other => panic!("expected RateLimited, got {other:?}"),
        }
    }

    #[test]
    fn a_burst_is_allowed_then_the_average_rate() {
        let limiter = ActionRateLimiter::new(4, 3);
        let start = Instant::now();
        for _ in 0..3 {
            limiter.take("a", start).unwrap();
        }
        assert_eq!(
            retry_after(limiter.take("a", start)),
            Duration::from_millis(250)
        );
        // Half a token later, the wait is what remains.
        let later = start + Duration::from_millis(125);
        assert_eq!(
            retry_after(limiter.take("a", later)),
            Duration::from_millis(125)
        );
        limiter
            .take("a", start + Duration::from_millis(250))
            .unwrap();
        assert!(
            limiter
                .take("a", start + Duration::from_millis(250))
                .is_err()
        );
    }

    #[test]
    fn tokens_have_separate_buckets() {
        let limiter = ActionRateLimiter::new(1, 1);
        let now = Instant::now();
        limiter.take("a", now).unwrap();
        assert!(limiter.take("a", now).is_err());
        limiter.take("b", now).unwrap();
    }

    #[test]
    fn a_bucket_never_holds_more_than_the_burst() {
        let limiter = ActionRateLimiter::new(10, 2);
        let start = Instant::now();
        limiter.take("a", start).unwrap();
        let much_later = start + Duration::from_secs(3600);
        limiter.take("a", much_later).unwrap();
        limiter.take("a", much_later).unwrap();
        assert!(limiter.take("a", much_later).is_err());
    }

    #[test]
    fn a_zero_rate_lifts_the_limit() {
        let limiter = ActionRateLimiter::new(0, 1);
        let now = Instant::now();
        for _ in 0..100 {
            limiter.take("a", now).unwrap();
        }
        assert_eq!(limiter.tracked_tokens(), 0);
    }

    #[test]
    fn full_buckets_are_forgotten_when_the_map_grows() {
        let limiter = ActionRateLimiter::new(1, 2);
        let start = Instant::now();
        limiter.take("busy", start).unwrap();
        limiter.take("busy", start).unwrap();
        for i in 0..FIRST_SWEEP_AT - 1 {
            limiter.take(&format!("invented-{i}"), start).unwrap();
        }
        assert_eq!(limiter.tracked_tokens(), FIRST_SWEEP_AT);
        // A second later every invented token's bucket is full again; the busy one is not.
        let later = start + Duration::from_secs(1);
        limiter.take("new", later).unwrap();
        assert_eq!(limiter.tracked_tokens(), 2, "busy and new remain");
        limiter.take("busy", later).unwrap();
        assert!(
            limiter.take("busy", later).is_err(),
            "the sweep kept the busy bucket's state"
        );
    }
}
