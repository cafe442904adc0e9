//! Oversized messages, refused with the service's own error shape.
//!
//! tonic's codec enforces `limits.max_request_bytes` and `limits.max_response_bytes` before any
//! handler runs (or after it answered), and reports a breach as `OUT_OF_RANGE` with a plain
//! message and no `ErrorInfo`. This layer rewrites exactly those refusals into
//! `RESOURCE_EXHAUSTED` with reason `MESSAGE_TOO_LARGE`, the size and the limit, wherever they
//! travel: in the response headers (a request refused before the handler) or in the trailers (a
//! response too large to send). The service itself never uses `OUT_OF_RANGE`, so nothing else is
//! touched.

use std::pin::Pin;
use std::task::{Context, Poll};

use http_body::Frame;
use tonic::codegen::http::{HeaderMap, Request, Response};
use tonic::codegen::{BoxFuture, Service};
use tonic::{Code, Status};

use crate::error::{ServiceError, to_status};

/// Wraps the whole router: `Server::builder().layer(tower::layer::layer_fn(MessageSize::new))`.
#[derive(Clone, Debug)]
pub struct MessageSize<S> {
    inner: S,
}

impl<S> MessageSize<S> {
    pub fn new(inner: S) -> Self {
        Self { inner }
    }
}

impl<S, B> Service<Request<B>> for MessageSize<S>
where
    S: Service<Request<B>, Response = Response<tonic::body::Body>> + Send,
    S::Future: Send + 'static,
{
    type Response = Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let setting = if request.uri().path().starts_with(DOCUMENT_SERVICE) {
            "max_document_bytes"
        } else {
            "max_request_bytes"
        };
        let answered = self.inner.call(request);
        Box::pin(async move {
            let mut response = answered.await?;
            rewrite(response.headers_mut(), setting);
            Ok(response.map(|body| {
                tonic::body::Body::new(RewrittenTrailers {
                    inner: body,
                    setting,
                })
            }))
        })
    }
}

/// The service whose requests are limited by `limits.max_document_bytes` instead.
const DOCUMENT_SERVICE: &str = "/pitchmate.v1.TournamentService/";

/// A response body whose trailers get the same rewrite as the headers.
struct RewrittenTrailers {
    inner: tonic::body::Body,
    /// The setting that limits the request.
    setting: &'static str,
}

impl http_body::Body for RewrittenTrailers {
    type Data = tonic::codegen::Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => Poll::Ready(Some(Ok(match frame.into_trailers() {
                Ok(mut trailers) => {
                    rewrite(&mut trailers, self.setting);
                    Frame::trailers(trailers)
                }
                Err(frame) => frame,
            }))),
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Replaces a codec's size refusal in `headers` by the service's error, naming `setting` for a
/// request too large; leaves anything else.
fn rewrite(headers: &mut HeaderMap, setting: &'static str) {
    let Some(status) = Status::from_header_map(headers) else {
        return;
    };
    if status.code() != Code::OutOfRange {
        return;
    }
    let Some(error) = too_large(status.message(), setting) else {
        return;
    };
    for name in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        headers.remove(name);
    }
    if let Err(unencodable) = to_status(error).add_header(headers) {
        tracing::error!(%unencodable, "cannot encode a message size refusal");
        let _ = status.add_header(headers);
    }
}

/// Reads tonic's codec messages, "Error, decoded message length too large: found N bytes, the
/// limit is: L bytes" (and "encoded" for responses).
fn too_large(message: &str, setting: &'static str) -> Option<ServiceError> {
    let (decoded, rest) = if let Some(rest) = message.strip_prefix("Error, decoded ") {
        (true, rest)
    } else {
        (false, message.strip_prefix("Error, encoded ")?)
    };
    let rest = rest.strip_prefix("message length too large: found ")?;
    let (size, rest) = rest.split_once(" bytes, the limit is: ")?;
    let limit = rest.strip_suffix(" bytes")?;
    let (size, limit) = (size.parse().ok()?, limit.parse().ok()?);
    Some(if decoded {
        ServiceError::MessageTooLarge {
            message: "request message",
            size,
            limit,
            setting,
            hint: "",
        }
    } else {
        ServiceError::MessageTooLarge {
            message: "response message",
            size,
            limit,
            setting: "max_response_bytes",
            hint: "; a long match's replay can be read event by event with ExportReplay",
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic_types::StatusExt;

    #[test]
    fn codec_size_refusals_become_message_too_large() {
        let mut headers = HeaderMap::new();
        Status::out_of_range(
            "Error, decoded message length too large: found 2100 bytes, the limit is: 1024 bytes",
        )
        .add_header(&mut headers)
        .unwrap();
        rewrite(&mut headers, "max_request_bytes");
        let status = Status::from_header_map(&headers).unwrap();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert!(status.message().contains("2100 bytes"), "{status:?}");
        assert!(status.message().contains("max_request_bytes"), "{status:?}");
        let info = status.get_error_details().error_info().unwrap().clone();
        assert_eq!(info.reason, "MESSAGE_TOO_LARGE");
        assert_eq!(info.metadata["size"], "2100");
        assert_eq!(info.metadata["limit"], "1024");
    }

    #[test]
    fn other_statuses_are_left_alone() {
        for status in [
            Status::out_of_range("some other range"),
            Status::invalid_argument(
                "Error, decoded message length too large: found 2 bytes, the limit is: 1 bytes",
            ),
            Status::ok(""),
        ] {
            let mut headers = HeaderMap::new();
            status.add_header(&mut headers).unwrap();
            let before = headers.clone();
            rewrite(&mut headers, "max_request_bytes");
            assert_eq!(headers, before);
        }
        let mut empty = HeaderMap::new();
        rewrite(&mut empty, "max_request_bytes");
        assert!(empty.is_empty());
    }
}
