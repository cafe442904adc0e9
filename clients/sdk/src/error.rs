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
    #[error("invalid seat token: it cannot be sent as a header")]
    InvalidToken,
    #[error("the event stream of match {0} ended before the match did")]
    StreamEnded(String),
    #[error("the event stream of match {match_id} has been silent for {silent_for:?}")]
    StreamSilent {
        match_id: String,
        silent_for: Duration,
    },
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
            ClientError::InvalidToken | ClientError::GaveUp { .. } => false,
        }
    }

    /// The stable reason the server gave (`ILLEGAL_ACTION`, `STALE_VERSION`, ...), if any.
    pub fn reason(&self) -> Option<String> {
        match self {
            ClientError::Rpc(status) => status
                .get_error_details()
                .error_info()
                .map(|info| info.reason.clone()),
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
