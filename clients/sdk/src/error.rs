use thiserror::Error;
use tonic_types::StatusExt;

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
}

impl ClientError {
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
