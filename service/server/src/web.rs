//! The web board: its page, served on the gRPC port, and grpc-web for the calls it makes.
//!
//! The page is built once from `clients/web` (TypeScript, bundled) and its few files are
//! committed under `clients/web/dist`, so they are compiled into the binary here and a fresh
//! clone builds without npm; the web client's CI rebuilds them and checks they are unchanged.
//! The page calls the same services as every bot, over grpc-web (HTTP/1.1, which is all a
//! browser's `fetch` speaks to a plain-text server): [`WebBoard`] answers a browser's `GET`
//! with a file and hands every other request to the gRPC services behind tonic's grpc-web
//! translation, which passes HTTP/2 gRPC calls through untouched.

use std::convert::Infallible;
use std::future::{Ready, ready};
use std::task::{Context, Poll};

use futures_util::future::Either;
use tonic::body::Body;
use tonic::codegen::Service;
use tonic::codegen::http::{HeaderValue, Method, Request, Response, StatusCode, header};

/// One file of the page.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

/// The page's files. Their names carry no content hash, so browsers are told to revalidate.
const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("../../../clients/web/dist/index.html"),
    },
    Asset {
        path: "/index.html",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("../../../clients/web/dist/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../../clients/web/dist/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../../clients/web/dist/app.css"),
    },
];

/// Answers a browser's page requests and passes everything else to `inner`.
#[derive(Clone, Debug)]
pub struct WebBoard<S> {
    inner: S,
}

impl<S> WebBoard<S> {
    pub fn new(inner: S) -> Self {
        Self { inner }
    }
}

/// Whether `request` asks for a page file rather than making a call: a `GET` or `HEAD` that
/// is not gRPC (gRPC and grpc-web calls are `POST`s with a gRPC content type).
fn is_page_request<B>(request: &Request<B>) -> bool {
    let method = request.method();
    if method != Method::GET && method != Method::HEAD {
        return false;
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    !content_type.starts_with("application/grpc")
}

/// The file at `path` (its query left off), or 404.
fn page_file(path: &str, head: bool) -> Response<Body> {
    let Some(asset) = ASSETS.iter().find(|a| a.path == path) else {
        let mut response = Response::new(Body::new(http_body_full(b"not found\n")));
        *response.status_mut() = StatusCode::NOT_FOUND;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        return response;
    };
    let body = if head {
        Body::empty()
    } else {
        Body::new(http_body_full(asset.bytes))
    };
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(asset.bytes.len()));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// A body of one chunk of static bytes.
fn http_body_full(bytes: &'static [u8]) -> StaticBody {
    StaticBody(Some(tonic::codegen::Bytes::from_static(bytes)))
}

/// A whole body known in advance, sent as one frame.
struct StaticBody(Option<tonic::codegen::Bytes>);

impl http_body::Body for StaticBody {
    type Data = tonic::codegen::Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Poll::Ready(self.0.take().map(|bytes| Ok(http_body::Frame::data(bytes))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        let len = self.0.as_ref().map_or(0, |b| b.len() as u64);
        http_body::SizeHint::with_exact(len)
    }
}

impl<S, B> Service<Request<B>> for WebBoard<S>
where
    S: Service<Request<B>, Response = Response<Body>, Error = Infallible>,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Either<Ready<Result<Response<Body>, Infallible>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if is_page_request(&request) {
            let head = request.method() == Method::HEAD;
            return Either::Left(ready(Ok(page_file(request.uri().path(), head))));
        }
        Either::Right(self.inner.call(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, path: &str, content_type: Option<&str>) -> Request<()> {
        let mut builder = Request::builder().method(method).uri(path);
        if let Some(content_type) = content_type {
            builder = builder.header(header::CONTENT_TYPE, content_type);
        }
        builder.body(()).unwrap()
    }

    #[test]
    fn gets_are_page_requests_and_calls_are_not() {
        assert!(is_page_request(&request(Method::GET, "/", None)));
        assert!(is_page_request(&request(Method::HEAD, "/app.js", None)));
        assert!(!is_page_request(&request(
            Method::POST,
            "/pitchmate.v1.ServerService/Ping",
            Some("application/grpc-web+proto")
        )));
        assert!(!is_page_request(&request(
            Method::GET,
            "/pitchmate.v1.ServerService/Ping",
            Some("application/grpc")
        )));
    }

    #[test]
    fn every_file_is_served_with_its_type_and_unknown_paths_are_not_found() {
        for asset in ASSETS {
            let response = page_file(asset.path, false);
            assert_eq!(response.status(), StatusCode::OK, "{}", asset.path);
            assert_eq!(
                response.headers()[header::CONTENT_TYPE],
                asset.content_type,
                "{}",
                asset.path
            );
            assert!(!asset.bytes.is_empty(), "{} is empty", asset.path);
        }
        assert_eq!(page_file("/secret", false).status(), StatusCode::NOT_FOUND);
    }
}
