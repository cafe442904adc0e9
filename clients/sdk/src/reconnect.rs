//! How the play loop rides out lost connections: which failures are worth retrying, and how long
//! to wait between attempts.

use std::time::{Duration, Instant};

use tonic::Code;

use crate::error::ClientError;

/// When and how often to try again after the connection to the server is lost.
///
/// Waits grow exponentially from `first_delay` by `multiplier` up to `max_delay`; each is
/// shortened by a random share of at most `jitter`, so that many bots cut off together do not
/// all come back in the same instant.
#[derive(Clone, Debug, PartialEq)]
pub struct ReconnectPolicy {
    /// The wait before the first retry after a failure.
    pub first_delay: Duration,
    /// No wait is longer than this.
    pub max_delay: Duration,
    /// Each wait is this many times the one before (at least 1).
    pub multiplier: f64,
    /// The share of each wait drawn at random, from 0 (wait exactly) to 1 (anywhere from nothing
    /// to the full wait).
    pub jitter: f64,
    /// Give up when failures have gone on this long without a single success in between;
    /// `None` never gives up.
    pub give_up_after: Option<Duration>,
}

impl Default for ReconnectPolicy {
    /// 100 ms doubling up to 5 s, half of each drawn at random, giving up after a minute: long
    /// enough for a server restart, short enough that a bot whose server is gone says so.
    fn default() -> Self {
        Self {
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
            multiplier: 2.0,
            jitter: 0.5,
            give_up_after: Some(Duration::from_secs(60)),
        }
    }
}

impl ReconnectPolicy {
    /// Never retries: the first failure ends the play loop.
    pub fn never() -> Self {
        Self {
            give_up_after: Some(Duration::ZERO),
            ..Self::default()
        }
    }
}

/// The retry state of one play loop: the next wait and since when calls have been failing.
pub(crate) struct Backoff {
    policy: ReconnectPolicy,
    rng: fastrand::Rng,
    next_delay: Duration,
    failing_since: Option<Instant>,
    attempts: u32,
}

impl Backoff {
    pub(crate) fn new(policy: ReconnectPolicy) -> Self {
        Self {
            next_delay: policy.first_delay,
            policy,
            rng: fastrand::Rng::new(),
            failing_since: None,
            attempts: 0,
        }
    }

    /// A call got through: the next failure starts again from the first delay.
    pub(crate) fn succeeded(&mut self) {
        self.next_delay = self.policy.first_delay;
        self.failing_since = None;
        self.attempts = 0;
    }

    /// Waits before the next attempt after `error`. Gives `error` back at once when retrying
    /// cannot help, and [`ClientError::GaveUp`] when the policy's patience has run out.
    pub(crate) async fn wait(&mut self, error: ClientError) -> Result<(), ClientError> {
        if !error.is_transient() {
            return Err(error);
        }
        let since = *self.failing_since.get_or_insert_with(Instant::now);
        self.attempts += 1;
        let mut delay = self.take_delay();
        if let Some(limit) = self.policy.give_up_after {
            let failing_for = since.elapsed();
            let Some(left) = limit.checked_sub(failing_for).filter(|l| !l.is_zero()) else {
                return Err(ClientError::GaveUp {
                    attempts: self.attempts,
                    failing_for,
                    last: Box::new(error),
                });
            };
            // One last attempt right at the limit rather than a wait past it.
            delay = delay.min(left);
        }
        tracing::info!(%error, attempt = self.attempts, ?delay, "connection lost; retrying");
        tokio::time::sleep(delay).await;
        Ok(())
    }

    /// The jittered wait for this attempt; grows the nominal one for the next.
    fn take_delay(&mut self) -> Duration {
        let nominal = self.next_delay.min(self.policy.max_delay);
        let grown = nominal.as_secs_f64() * self.policy.multiplier.max(1.0);
        self.next_delay = Duration::try_from_secs_f64(grown)
            .unwrap_or(self.policy.max_delay)
            .min(self.policy.max_delay);
        let jitter = self.policy.jitter.clamp(0.0, 1.0);
        nominal.mul_f64(1.0 - jitter * self.rng.f64())
    }
}

/// Whether a failed call may succeed if made again: the server is unreachable or restarting, or
/// the connection broke under the call.
///
/// The Pitchmate server attaches an `ErrorInfo` to every error it gives, so a status without
/// one, of a code that transports produce (a reset stream, a dropped connection), did not come
/// from the server's judgement of the request and is worth retrying. `UNAVAILABLE` always is,
/// including the server's own `MATCH_UNAVAILABLE` while it shuts down.
pub(crate) fn is_transient_status(status: &tonic::Status) -> bool {
    use tonic_types::StatusExt;
    match status.code() {
        Code::Unavailable => true,
        Code::Unknown | Code::Internal | Code::Cancelled | Code::Aborted => {
            status.get_error_details().error_info().is_none()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tonic_types::{ErrorDetails, StatusExt};

    use super::*;

    fn policy(jitter: f64) -> ReconnectPolicy {
        ReconnectPolicy {
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
            multiplier: 2.0,
            jitter,
            give_up_after: None,
        }
    }

    #[test]
    fn delays_double_up_to_the_cap_and_start_over_after_a_success() {
        let mut backoff = Backoff::new(policy(0.0));
        let delays: Vec<u64> = (0..7)
            .map(|_| backoff.take_delay().as_millis() as u64)
            .collect();
        assert_eq!(delays, [100, 200, 400, 800, 1000, 1000, 1000]);
        backoff.succeeded();
        assert_eq!(backoff.take_delay(), Duration::from_millis(100));
    }

    #[test]
    fn jitter_shortens_each_delay_by_at_most_its_share() {
        let mut backoff = Backoff::new(policy(0.5));
        let mut nominal = 100.0_f64;
        let mut shortened = false;
        for _ in 0..50 {
            let delay = backoff.take_delay().as_secs_f64() * 1000.0;
            assert!(
                delay <= nominal + 1e-6 && delay >= nominal * 0.5 - 1e-6,
                "{delay} ms for a nominal {nominal} ms"
            );
            shortened |= delay < nominal - 1e-6;
            nominal = (nominal * 2.0).min(1000.0);
        }
        assert!(shortened, "jitter never drew anything");
    }

    #[tokio::test]
    async fn errors_the_server_judged_are_not_retried() {
        let mut backoff = Backoff::new(policy(0.0));
        let illegal = tonic::Status::with_error_details(
            Code::FailedPrecondition,
            "no",
            ErrorDetails::with_error_info("ILLEGAL_ACTION", "pitchmate.dev", HashMap::new()),
        );
        let error = backoff.wait(ClientError::Rpc(illegal)).await.unwrap_err();
        assert_eq!(error.reason().as_deref(), Some("ILLEGAL_ACTION"));
        assert!(backoff.failing_since.is_none(), "no retry was started");
    }

    #[tokio::test]
    async fn a_zero_patience_gives_up_on_the_first_transient_error() {
        let mut backoff = Backoff::new(ReconnectPolicy::never());
        let error = backoff
            .wait(ClientError::Rpc(tonic::Status::unavailable("refused")))
            .await
            .unwrap_err();
        let ClientError::GaveUp { attempts, last, .. } = error else {
            panic!("expected GaveUp, got {error:?}");
        };
        assert_eq!(attempts, 1);
        assert!(matches!(*last, ClientError::Rpc(ref s) if s.code() == Code::Unavailable));
    }

    #[test]
    fn transport_failures_are_transient_and_server_verdicts_are_not() {
        let with_info = |code, reason: &str| {
            tonic::Status::with_error_details(
                code,
                "m",
                ErrorDetails::with_error_info(reason, "pitchmate.dev", HashMap::new()),
            )
        };
        assert!(is_transient_status(&tonic::Status::unavailable("refused")));
        assert!(is_transient_status(&with_info(
            Code::Unavailable,
            "MATCH_UNAVAILABLE"
        )));
        assert!(is_transient_status(&tonic::Status::unknown(
            "h2 protocol error: connection reset"
        )));
        assert!(is_transient_status(&tonic::Status::internal(
            "h2 protocol error"
        )));
        assert!(!is_transient_status(&with_info(
            Code::NotFound,
            "MATCH_NOT_FOUND"
        )));
        assert!(!is_transient_status(&with_info(Code::Internal, "INTERNAL")));
        assert!(!is_transient_status(&tonic::Status::invalid_argument(
            "bad"
        )));
    }
}
