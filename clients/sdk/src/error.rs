use std::time::Duration;

use thiserror::Error;
use tonic_types::StatusExt;

use crate::reconnect::is_transient_status;

/// What went wrong talking to the server.
#[derive(Debug, Error)]
pub enum ClientError {
    #[error("cannot connect to {url}: {source}")]
    Connect {
        url: String,
        #[source]
        source: tonic::transport::Error,
    },
    #[error("{}", describe(.0))]
    Rpc(#[from] tonic::Status),
    /// An action sent on a `Play` stream was not applied; nothing changed.
    #[error("action refused: {:?} {}: {}", tonic::Code::from(.0.code), .0.reason, .0.message)]
    Refused(Box<crate::pb::ActionRefused>),
    #[error("invalid seat token: it cannot be sent as a header")]
    InvalidToken,
    #[error("the event stream of match {0} ended before the match did")]
    StreamEnded(String),
    #[error("the event stream of match {match_id} has been silent for {silent_for:?}")]
    StreamSilent {
        match_id: String,
        silent_for: Duration,
    },
    /// A finished match's replay does not check out: the seed does not match its commitment,
    /// or the rules do not reproduce what the server logged.
    #[error("the match does not check out: {0}")]
    Unverified(#[from] crate::verify::VerifyError),
    #[error("gave up after {attempts} attempts over {failing_for:?}; the last error: {last}")]
    GaveUp {
        attempts: u32,
        failing_for: Duration,
        #[source]
        last: Box<ClientError>,
    },
}

impl ClientError {
    /// Whether trying again may succeed: the connection broke or the server is unreachable or
    /// restarting, as opposed to the server refusing the request itself.
    pub fn is_transient(&self) -> bool {
        match self {
            ClientError::Connect { .. }
            | ClientError::StreamEnded(_)
            | ClientError::StreamSilent { .. } => true,
            ClientError::Rpc(status) => is_transient_status(status),
            // The match is restarting or shutting down; anything else is the server's verdict.
            ClientError::Refused(refused) => {
                tonic::Code::from(refused.code) == tonic::Code::Unavailable
            }
            ClientError::InvalidToken | ClientError::Unverified(_) | ClientError::GaveUp { .. } => {
                false
            }
        }
    }

    /// The stable reason the server gave (`ILLEGAL_ACTION`, `STALE_VERSION`, ...), if any.
    pub fn reason(&self) -> Option<String> {
        match self {
            ClientError::Rpc(status) => status
                .get_error_details()
                .error_info()
                .map(|info| info.reason.clone()),
            ClientError::Refused(refused) => Some(refused.reason.clone()),
            _ => None,
        }
    }

    /// How long the server asked the caller to wait before trying again (`RetryInfo`), if it
    /// did; a rate-limited call carries it.
    pub fn retry_delay(&self) -> Option<Duration> {
        match self {
            ClientError::Rpc(status) => status
                .get_error_details()
                .retry_info()
                .and_then(|info| info.retry_delay),
            ClientError::Refused(refused) => refused
                .retry_delay
                .and_then(|delay| Duration::try_from(delay).ok()),
            _ => None,
        }
    }
}

fn describe(status: &tonic::Status) -> String {
    match status.get_error_details().error_info() {
        Some(info) => format!("{:?} {}: {}", status.code(), info.reason, status.message()),
        None => format!("{:?}: {}", status.code(), status.message()),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tonic_types::ErrorDetails;

    use super::*;

    #[test]
    fn the_retry_delay_is_read_from_retry_info() {
        let mut details =
            ErrorDetails::with_error_info("RATE_LIMITED", "pitchmate.dev", HashMap::new());
        details.set_retry_info(Some(Duration::from_millis(40)));
        let limited = ClientError::Rpc(tonic::Status::with_error_details(
            tonic::Code::ResourceExhausted,
            "slow down",
            details,
        ));
        assert_eq!(limited.reason().as_deref(), Some("RATE_LIMITED"));
        assert_eq!(limited.retry_delay(), Some(Duration::from_millis(40)));
        let unavailable = ClientError::Rpc(tonic::Status::unavailable("restarting"));
        assert_eq!(unavailable.retry_delay(), None);
    }

    #[test]
    fn an_in_band_refusal_reads_like_a_failed_call() {
        let limited = ClientError::Refused(Box::new(crate::pb::ActionRefused {
            code: tonic::Code::ResourceExhausted as i32,
            reason: "RATE_LIMITED".to_owned(),
            message: "slow down".to_owned(),
            metadata: HashMap::new(),
            retry_delay: Some(prost_types::Duration {
                seconds: 0,
                nanos: 40_000_000,
            }),
        }));
        assert_eq!(limited.reason().as_deref(), Some("RATE_LIMITED"));
        assert_eq!(limited.retry_delay(), Some(Duration::from_millis(40)));
        assert!(!limited.is_transient());
        assert_eq!(
            limited.to_string(),
            "action refused: ResourceExhausted RATE_LIMITED: slow down"
        );
        let restarting = ClientError::Refused(Box::new(crate::pb::ActionRefused {
            code: tonic::Code::Unavailable as i32,
            reason: "MATCH_UNAVAILABLE".to_owned(),
            ..Default::default()
        }));
        assert!(restarting.is_transient());
    }
}
