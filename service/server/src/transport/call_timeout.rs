//! How long a call may take to start answering.
//!
//! A call must produce its response headers within `connections.call_timeout_secs`, or sooner
//! when the client's `grpc-timeout` header asks for less: for a unary call that is its whole
//! answer, for a stream its start (a `Play` stream starts once `open` has arrived). A request
//! whose body never comes or a `Play` stream that never opens would otherwise hold its handler,
//! its stream slot and the connection forever. Once the headers are out the timeout is over, so
//! a stream that has started is never cut by it.
//!
//! tonic's server does the same with the client's deadline alone and answers `CANCELLED`; this
//! answers `DEADLINE_EXCEEDED` with an `ErrorInfo`, like every other error of the service.

use std::convert::Infallible;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::body::Body;
use tonic::codegen::http::{HeaderMap, Request, Response};
use tonic::codegen::{BoxFuture, Service};

use crate::error::{ServiceError, to_status};

#[derive(Clone, Debug)]
pub struct CallTimeout<S> {
    inner: S,
    limit: Duration,
}

impl<S> CallTimeout<S> {
    pub fn new(inner: S, limit: Duration) -> Self {
        Self { inner, limit }
    }
}

impl<S, B> Service<Request<B>> for CallTimeout<S>
where
    S: Service<Request<B>, Response = Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<Response<Body>, Infallible>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // A header we cannot read is ignored, as tonic does: the server's own limit still holds.
        let (limit, by_client) = match grpc_timeout(request.headers()) {
            Some(asked) if asked < self.limit => (asked, true),
            _ => (self.limit, false),
        };
        let uri = request.uri().clone();
        let answer = self.inner.call(request);
        Box::pin(async move {
            match tokio::time::timeout(limit, answer).await {
                Ok(answered) => answered,
                Err(_) => {
                    tracing::debug!(
                        method = uri.path(),
                        timeout_ms = limit.as_millis(),
                        by_client,
                        "call cut: no response within the call timeout"
                    );
                    Ok(to_status(ServiceError::CallTimeout { limit, by_client }).into_http())
                }
            }
        })
    }
}

/// The client's deadline from its `grpc-timeout` header: up to eight digits and a unit, `H`,
/// `M`, `S`, `m`, `u` or `n` (gRPC over HTTP/2). `None` when absent or unreadable.
pub fn grpc_timeout(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get("grpc-timeout")?.to_str().ok()?;
    // to_str() admits only visible ASCII, so every index is a character boundary.
    let split = value.len().checked_sub(1)?;
    let (digits, unit) = value.split_at(split);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Eight digits cannot overflow any of these.
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 60 * 60),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(value: &str) -> Option<Duration> {
        let mut headers = HeaderMap::new();
        headers.insert("grpc-timeout", value.parse().unwrap());
        grpc_timeout(&headers)
    }

    #[test]
    fn every_unit_of_grpc_timeout_is_read() {
        assert_eq!(parse("3H"), Some(Duration::from_secs(3 * 3600)));
        assert_eq!(parse("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse("10S"), Some(Duration::from_secs(10)));
        assert_eq!(parse("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse("7u"), Some(Duration::from_micros(7)));
        assert_eq!(parse("99999999n"), Some(Duration::from_nanos(99_999_999)));
        assert_eq!(parse("0S"), Some(Duration::ZERO));
        assert_eq!(
            parse("99999999H"),
            Some(Duration::from_secs(99_999_999 * 3600))
        );
    }

    #[test]
    fn unreadable_grpc_timeouts_are_ignored() {
        assert_eq!(grpc_timeout(&HeaderMap::new()), None);
        for bad in [
            "",
            "S",
            "10",
            "10s",
            "10X",
            "123456789S",
            "-1S",
            "+1S",
            "1.5S",
            "1 S",
            " 1S",
            "1SS",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        let mut headers = HeaderMap::new();
        headers.insert(
            "grpc-timeout",
            tonic::codegen::http::HeaderValue::from_bytes(b"1\xffS").unwrap(),
        );
        assert_eq!(grpc_timeout(&headers), None, "not ASCII");
    }

    #[test]
    fn a_timed_out_call_says_so_with_the_limit() {
        use tonic::Code;
        use tonic_types::StatusExt;
        let status = to_status(ServiceError::CallTimeout {
            limit: Duration::from_secs(30),
            by_client: false,
        });
        assert_eq!(status.code(), Code::DeadlineExceeded);
        assert!(status.message().contains("connections.call_timeout_secs"));
        let info = status.get_details_error_info().expect("ErrorInfo");
        assert_eq!(info.reason, "CALL_TIMEOUT");
        assert_eq!(info.domain, crate::error::ERROR_DOMAIN);
        assert_eq!(info.metadata["timeout_ms"], "30000");
        let by_client = to_status(ServiceError::CallTimeout {
            limit: Duration::from_millis(250),
            by_client: true,
        });
        assert!(
            by_client
                .message()
                .contains("within 250 ms (its grpc-timeout)")
        );
    }
}
