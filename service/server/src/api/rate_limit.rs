//! Token buckets per key: acting calls per seat token, match creations and failed
//! authentications per client address. Each bucket fills at `per_second` up to `burst`; a call
//! that finds its bucket empty is refused before it reaches the match, with the time until the
//! bucket holds a whole token again.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::error::{RateLimit, ServiceError};

/// Buckets kept before the first sweep of full ones.
const FIRST_SWEEP_AT: usize = 1024;

pub struct RateLimiter<K> {
    limit: RateLimit,
    /// Tokens added per second; 0 lifts the limit.
    per_second: u32,
    burst: u32,
    buckets: Mutex<Buckets<K>>,
}

/// The action limit, by seat token.
pub type ActionRateLimiter = RateLimiter<String>;

struct Buckets<K> {
    by_key: HashMap<K, Bucket>,
    /// Size of `by_key` at which full buckets are dropped.
    sweep_at: usize,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(limit: RateLimit, per_second: u32, burst: u32) -> Self {
        Self {
            limit,
            per_second,
            burst,
            buckets: Mutex::new(Buckets {
                by_key: HashMap::new(),
                sweep_at: FIRST_SWEEP_AT,
            }),
        }
    }

    /// Takes one token from `key`'s bucket, or says how long until one is available.
    pub fn take(&self, key: &K, now: Instant) -> Result<(), ServiceError> {
        self.with_bucket(key, now, true)
    }

    /// Like [`RateLimiter::take`], without taking the token.
    pub fn check(&self, key: &K, now: Instant) -> Result<(), ServiceError> {
        self.with_bucket(key, now, false)
    }

    fn with_bucket(&self, key: &K, now: Instant, take: bool) -> Result<(), ServiceError> {
        if self.per_second == 0 {
            return Ok(());
        }
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.by_key.len() >= buckets.sweep_at {
            // A full bucket acts exactly like a missing one, so dropping it forgets nothing;
            // without the sweep, callers inventing keys would grow the map without bound.
            buckets
                .by_key
                .retain(|_, bucket| self.refilled(*bucket, now) < f64::from(self.burst));
            buckets.sweep_at = FIRST_SWEEP_AT.max(2 * buckets.by_key.len());
        }
        let tokens = buckets
            .by_key
            .get(key)
            .map_or(f64::from(self.burst), |bucket| self.refilled(*bucket, now));
        if tokens >= 1.0 {
            if take {
                buckets.by_key.insert(
                    key.clone(),
                    Bucket {
                        tokens: tokens - 1.0,
                        updated: now,
                    },
                );
            }
            return Ok(());
        }
        let missing = 1.0 - tokens;
        // Rounded up to whole milliseconds so that retrying after the delay always succeeds.
        let millis = (missing * 1000.0 / f64::from(self.per_second)).ceil();
        Err(ServiceError::RateLimited {
            limit: self.limit,
            retry_after: Duration::from_millis(millis as u64),
        })
    }

    fn refilled(&self, bucket: Bucket, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        (bucket.tokens + elapsed * f64::from(self.per_second)).min(f64::from(self.burst))
    }

    #[cfg(test)]
    fn tracked_keys(&self) -> usize {
        self.buckets.lock().unwrap().by_key.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retry_after(result: Result<(), ServiceError>) -> Duration {
        match result {
            Err(ServiceError::RateLimited { retry_after, .. }) => retry_after,
            other => panic!("expected RateLimited, got {other:?}"),
        }
    }

    #[test]
    fn a_burst_is_allowed_then_the_average_rate() {
        let limiter = RateLimiter::new(RateLimit::Actions, 4, 3);
        let start = Instant::now();
        for _ in 0..3 {
            limiter.take(&"a", start).unwrap();
        }
        assert_eq!(
            retry_after(limiter.take(&"a", start)),
            Duration::from_millis(250)
        );
        // Half a token later, the wait is what remains.
        let later = start + Duration::from_millis(125);
        assert_eq!(
            retry_after(limiter.take(&"a", later)),
            Duration::from_millis(125)
        );
        limiter
            .take(&"a", start + Duration::from_millis(250))
            .unwrap();
        assert!(
            limiter
                .take(&"a", start + Duration::from_millis(250))
                .is_err()
        );
    }

    #[test]
    fn tokens_have_separate_buckets() {
        let limiter = RateLimiter::new(RateLimit::Actions, 1, 1);
        let now = Instant::now();
        limiter.take(&"a", now).unwrap();
        assert!(limiter.take(&"a", now).is_err());
        limiter.take(&"b", now).unwrap();
    }

    #[test]
    fn a_bucket_never_holds_more_than_the_burst() {
        let limiter = RateLimiter::new(RateLimit::Actions, 10, 2);
        let start = Instant::now();
        limiter.take(&"a", start).unwrap();
        let much_later = start + Duration::from_secs(3600);
        limiter.take(&"a", much_later).unwrap();
        limiter.take(&"a", much_later).unwrap();
        assert!(limiter.take(&"a", much_later).is_err());
    }

    #[test]
    fn checking_never_takes_a_token() {
        let limiter = RateLimiter::new(RateLimit::FailedAuthentications, 1, 1);
        let now = Instant::now();
        for _ in 0..5 {
            limiter.check(&"a", now).unwrap();
        }
        limiter.take(&"a", now).unwrap();
        assert!(limiter.check(&"a", now).is_err(), "the only token is taken");
        assert!(limiter.take(&"a", now).is_err());
    }

    #[test]
    fn a_zero_rate_lifts_the_limit() {
        let limiter = RateLimiter::new(RateLimit::Actions, 0, 1);
        let now = Instant::now();
        for _ in 0..100 {
            limiter.take(&"a", now).unwrap();
        }
        assert_eq!(limiter.tracked_keys(), 0);
    }

    #[test]
    fn full_buckets_are_forgotten_when_the_map_grows() {
        let limiter = RateLimiter::new(RateLimit::Actions, 1, 2);
        let start = Instant::now();
        limiter.take(&"busy".to_owned(), start).unwrap();
        limiter.take(&"busy".to_owned(), start).unwrap();
        for i in 0..FIRST_SWEEP_AT - 1 {
            limiter.take(&format!("invented-{i}"), start).unwrap();
        }
        assert_eq!(limiter.tracked_keys(), FIRST_SWEEP_AT);
        // A second later every invented token's bucket is full again; the busy one is not.
        let later = start + Duration::from_secs(1);
        limiter.take(&"new".to_owned(), later).unwrap();
        assert_eq!(limiter.tracked_keys(), 2, "busy and new remain");
        limiter.take(&"busy".to_owned(), later).unwrap();
        assert!(
            limiter.take(&"busy".to_owned(), later).is_err(),
            "the sweep kept the busy bucket's state"
        );
    }
}
