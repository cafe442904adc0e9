//! Forwarding to a match's owner (cluster mode): any replica answers any call.
//!
//! A replica asked about a live match that another replica owns answers, in its handlers,
//! UNAVAILABLE with reason NOT_OWNER and the owner's `cluster.advertise_url` (also in the
//! response header [`OWNER_URL_HEADER`]). This layer sits between grpc-web and the routes, so it
//! sees every call as plain gRPC, and turns such an answer into the owner's own: it sends the
//! owner the same call and hands the owner's response (headers, streamed messages, trailers)
//! back to the client as it comes.
//!
//! The rules:
//!
//! - Only a trailers-only answer (its headers carry `grpc-status`) of UNAVAILABLE naming an
//!   owner is forwarded: the handlers answer NOT_OWNER before any message, for unary calls,
//!   server streams and `Play` alike. Every other answer passes through untouched.
//! - The request body is teed: the local service reads it as usual while the frames it read are
//!   kept, up to `copy_limit` bytes (the largest request message the server accepts, and some
//!   room). The owner gets those frames again and then the rest of the client's body: for `Play`
//!   the `open` the local handler read, then every `act` the client sends after. A call whose
//!   local reading passed the limit is not forwarded; its NOT_OWNER goes back to the client.
//! - A forwarded call carries [`FORWARDED_BY_HEADER`] (the forwarding replica's id) and the
//!   client's own metadata (authorization, grpc-timeout, ...). A call that already carries it is
//!   never forwarded again: the second replica's NOT_OWNER goes back as it is (the lease moved
//!   in between; the client retries).
//! - An owner that cannot be reached (its process died and its lease has not lapsed yet) leaves
//!   the local NOT_OWNER as the answer: UNAVAILABLE, which clients retry, and once the lease
//!   lapses the next call takes the match over wherever it lands.
//! - Peers are reached at their advertise URLs: `http://` over plain HTTP/2, `https://` over
//!   TLS (HTTP/2 by ALPN) trusting only the CA certificates of `cluster.peer_ca_path` and
//!   checking the certificate against the URL's host. A peer whose certificate does not verify
//!   is an owner that cannot be reached (below). Lazily connected channels per owner URL, each
//!   carrying at most
//!   `streams_per_connection` forwarded calls at once (the owner's own
//!   `connections.max_streams_per_connection`: a replica never queues a call behind a peer's
//!   stream limit), a new connection opened when all are full.
//!
//! Outside cluster mode the layer hands every call straight on, untouched.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::Frame;
use tonic::Status;
use tonic::body::Body;
use tonic::codegen::http::{HeaderMap, HeaderName, HeaderValue, Request, Response, Version};
use tonic::codegen::{BoxFuture, Bytes, Service};
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tower::ServiceExt;

pub use crate::error::OWNER_URL_HEADER;
use crate::error::{ServiceError, to_status};

/// The request header a forwarded call carries: the id of the replica that forwarded it.
pub const FORWARDED_BY_HEADER: &str = "pitchmate-forwarded-by";

/// Calls forwarded, by `outcome`: `forwarded` (the owner answered), `owner_unreachable` (the
/// owner could not be reached; the local NOT_OWNER was the answer), `not_forwarded_twice` (a
/// forwarded call answered NOT_OWNER here too), `request_too_large` (the local service read
/// more of the request than is kept for a replay, or the client's body failed) (counter).
pub const FORWARDED_CALLS: &str = "pitchmate_forwarded_calls_total";

/// How long connecting to a peer may take before the call gives up on it: a peer that does not
/// answer at all (its machine gone) costs each call at most this before the client gets its
/// NOT_OWNER to retry.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Pings on an idle peer connection, so one cut without a FIN is noticed.
const PEER_KEEPALIVE: Duration = Duration::from_secs(20);

/// `grpc-status` of UNAVAILABLE, as it is written in a header.
const UNAVAILABLE: &[u8] = b"14";

/// Request headers a forwarded call does not carry: HTTP/2 forbids the connection-specific
/// ones, and `host` becomes the peer's `:authority`.
const HOP_BY_HOP: [&str; 7] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
];

/// What the layer needs to know of this replica.
#[derive(Clone)]
pub struct ForwardSettings {
    /// This replica's `cluster.replica_id`, sent in [`FORWARDED_BY_HEADER`].
    pub replica_id: String,
    /// Request bytes kept while the local service reads them, for a replay to the owner.
    pub copy_limit: usize,
    /// Forwarded calls open at once on one connection to a peer.
    pub streams_per_connection: usize,
    /// How to reach peers that advertise `https://` (see `tls::peer_client`); `None`: such
    /// peers cannot be reached.
    pub peer_tls: Option<ClientTlsConfig>,
    /// Told the URL of an owner that could not be reached, so that what this server remembers
    /// of its leases is read again at the client's retry (see
    /// `MatchRegistry::forget_owner`).
    pub unreachable: Arc<dyn Fn(&str) + Send + Sync>,
}

/// The forwarding state every clone of the layer's service shares.
struct Forwarding {
    replica_id: HeaderValue,
    copy_limit: usize,
    peers: Peers,
    unreachable: Arc<dyn Fn(&str) + Send + Sync>,
}

/// Wraps the routes: `Forward::new(routes, Some(settings))` in cluster mode.
#[derive(Clone)]
pub struct Forward<S> {
    inner: S,
    forwarding: Option<Arc<Forwarding>>,
}

impl<S> Forward<S> {
    /// Forwards as `settings` say; with `None` (cluster mode off) every call passes through.
    pub fn new(inner: S, settings: Option<ForwardSettings>) -> Self {
        let forwarding = settings.map(|settings| {
            Arc::new(Forwarding {
                replica_id: HeaderValue::from_str(&settings.replica_id)
                    .expect("replica ids are checked to be letters, digits, `.`, `_` and `-`"),
                copy_limit: settings.copy_limit,
                peers: Peers::new(settings.streams_per_connection, settings.peer_tls),
                unreachable: settings.unreachable,
            })
        });
        Self { inner, forwarding }
    }
}

impl<S> Service<Request<Body>> for Forward<S>
where
    S: Service<Request<Body>, Response = Response<Body>> + Send,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let Some(forwarding) = self.forwarding.clone() else {
            return Box::pin(self.inner.call(request));
        };
        if request.headers().contains_key(FORWARDED_BY_HEADER) {
            // Forwarded here already: whatever this replica answers is the answer.
            let answered = self.inner.call(request);
            return Box::pin(async move {
                let response = answered.await?;
                if owner_named(&response).is_some() {
                    count("not_forwarded_twice");
                }
                Ok(response)
            });
        }
        let (parts, body) = request.into_parts();
        let head = Head {
            uri: parts.uri.clone(),
            headers: parts.headers.clone(),
        };
        let tee = Tee::new(body, forwarding.copy_limit);
        let answered = self
            .inner
            .call(Request::from_parts(parts, Body::new(tee.local())));
        Box::pin(async move {
            let local = answered.await?;
            let Some(owner_url) = owner_named(&local) else {
                return Ok(local);
            };
            let Some(replay) = tee.replay() else {
                count("request_too_large");
                return Ok(local);
            };
            let path = head.uri.path().to_owned();
            match forwarding.forward(head, replay, &owner_url).await {
                Ok(response) => {
                    count("forwarded");
                    Ok(response)
                }
                Err(error) => {
                    tracing::warn!(
                        path,
                        owner_url,
                        error = %error,
                        "cannot reach the match's owner; answering NOT_OWNER for the client to retry"
                    );
                    count("owner_unreachable");
                    (forwarding.unreachable)(&owner_url);
                    Ok(local)
                }
            }
        })
    }
}

fn count(outcome: &'static str) {
    metrics::counter!(FORWARDED_CALLS, "outcome" => outcome).increment(1);
}

/// The owner's URL a local answer names: only a trailers-only UNAVAILABLE with the header the
/// edge adds to NOT_OWNER.
fn owner_named(response: &Response<Body>) -> Option<String> {
    let headers = response.headers();
    if headers.get("grpc-status")?.as_bytes() != UNAVAILABLE {
        return None;
    }
    let url = headers.get(OWNER_URL_HEADER)?.to_str().ok()?;
    Some(url.to_owned())
}

/// The parts of the client's request a forwarded call repeats.
struct Head {
    uri: tonic::codegen::http::Uri,
    headers: HeaderMap,
}

/// Why a call could not be forwarded.
#[derive(Debug, thiserror::Error)]
enum ForwardError {
    #[error("the owner's URL {0:?} is not a URL")]
    BadUrl(String),
    #[error("the owner's URL {0:?} is https:// but this server has no `cluster.peer_ca_path`")]
    NoPeerTls(String),
    /// Shown with its causes: tonic's own text is only "transport error", and an operator
    /// needs to see, say, that a peer's certificate has an unknown issuer.
    #[error("{}", with_causes(.0))]
    Transport(#[from] tonic::transport::Error),
}

/// `error` and each error that caused it, joined by `: `.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        text.push_str(": ");
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}

impl Forwarding {
    /// Sends the client's call to the owner at `owner_url`, the body `replay`, and returns the
    /// owner's response; an error when the owner cannot be reached.
    async fn forward(
        &self,
        head: Head,
        replay: Replay,
        owner_url: &str,
    ) -> Result<Response<Body>, ForwardError> {
        let (channel, open) = self.peers.connection(owner_url)?;
        let mut request = Request::new(Body::new(replay));
        *request.version_mut() = Version::HTTP_2;
        *request.method_mut() = tonic::codegen::http::Method::POST;
        *request.uri_mut() = head
            .uri
            .path_and_query()
            .map_or_else(|| "/".parse(), |path| path.as_str().parse())
            .expect("a path is a URI");
        let headers = request.headers_mut();
        *headers = head.headers;
        for name in HOP_BY_HOP {
            headers.remove(name);
        }
        headers.insert(
            HeaderName::from_static(FORWARDED_BY_HEADER),
            self.replica_id.clone(),
        );
        let response = channel.oneshot(request).await?;
        Ok(response.map(|body| {
            Body::new(Counted {
                body,
                _open: open,
                broken: false,
            })
        }))
    }
}

/// The connections to the peers, by owner URL.
struct Peers {
    streams_per_connection: usize,
    tls: Option<ClientTlsConfig>,
    connections: Mutex<HashMap<String, Vec<PeerConnection>>>,
}

#[derive(Clone)]
struct PeerConnection {
    channel: Channel,
    /// Forwarded calls open on it now.
    open: Arc<AtomicUsize>,
}

/// One forwarded call open on a peer connection, until dropped.
struct OpenCall(Arc<AtomicUsize>);

impl Drop for OpenCall {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Peers {
    fn new(streams_per_connection: usize, tls: Option<ClientTlsConfig>) -> Self {
        Self {
            streams_per_connection: streams_per_connection.max(1),
            tls,
            connections: Mutex::new(HashMap::new()),
        }
    }

    /// A connection to `url` with room for one more call, opened (lazily: the call connects it)
    /// when every one it has is full, and the call counted on it.
    fn connection(&self, url: &str) -> Result<(Channel, OpenCall), ForwardError> {
        let mut peers = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let connections = peers.entry(url.to_owned()).or_default();
        let room = connections
            .iter()
            .find(|connection| {
                connection.open.load(Ordering::Relaxed) < self.streams_per_connection
            })
            .cloned();
        let connection = match room {
            Some(connection) => connection,
            None => {
                let mut endpoint = Endpoint::from_shared(url.to_owned())
                    .map_err(|_| ForwardError::BadUrl(url.to_owned()))?
                    .connect_timeout(CONNECT_TIMEOUT)
                    .tcp_nodelay(true)
                    .http2_keep_alive_interval(PEER_KEEPALIVE)
                    .keep_alive_while_idle(false);
                if url.starts_with("https://") {
                    // The server name checked is the URL's host, as a client's would be.
                    let tls = self
                        .tls
                        .clone()
                        .ok_or_else(|| ForwardError::NoPeerTls(url.to_owned()))?;
                    endpoint = endpoint.tls_config(tls)?;
                }
                let connection = PeerConnection {
                    channel: endpoint.connect_lazy(),
                    open: Arc::new(AtomicUsize::new(0)),
                };
                connections.push(connection.clone());
                connection
            }
        };
        connection.open.fetch_add(1, Ordering::Relaxed);
        Ok((connection.channel, OpenCall(connection.open)))
    }
}

/// The owner's response body, holding its call's place on the peer connection until the
/// client has read it or gone. A connection to the owner that breaks ends the client's call
/// with MATCH_UNAVAILABLE in its trailers, as a stream on the owner ends when the match leaves
/// it, rather than with a reset stream.
struct Counted {
    body: Body,
    _open: OpenCall,
    broken: bool,
}

impl http_body::Body for Counted {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if self.broken {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.body).poll_frame(cx) {
            Poll::Ready(Some(Err(error))) => {
                self.broken = true;
                tracing::warn!(%error, "the connection to a match's owner broke during a forwarded call");
                let status = to_status(ServiceError::Unavailable(
                    "the connection to the server hosting it broke".to_owned(),
                ));
                let mut trailers = HeaderMap::new();
                if status.add_header(&mut trailers).is_err() {
                    return Poll::Ready(Some(Err(error)));
                }
                Poll::Ready(Some(Ok(Frame::trailers(trailers))))
            }
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.broken || self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A request body read by the local service while what it read is kept for a replay.
struct Tee {
    state: Arc<Mutex<TeeState>>,
}

struct TeeState {
    /// The client's body; taken by the replay.
    body: Option<Body>,
    /// The data frames the local service read, in order.
    copied: Vec<Bytes>,
    copied_bytes: usize,
    /// The trailers the local service read, if the body ended with some.
    trailers: Option<HeaderMap>,
    /// The client's body has ended (the local service read all of it).
    ended: bool,
    /// Kept no more: the local service read more than the limit, or the body failed.
    given_up: bool,
    limit: usize,
}

impl Tee {
    fn new(body: Body, limit: usize) -> Self {
        Self {
            state: Arc::new(Mutex::new(TeeState {
                body: Some(body),
                copied: Vec::new(),
                copied_bytes: 0,
                trailers: None,
                ended: false,
                given_up: false,
                limit,
            })),
        }
    }

    /// The body the local service reads.
    fn local(&self) -> LocalBody {
        LocalBody {
            state: Arc::clone(&self.state),
        }
    }

    /// The body the owner gets: every frame the local service read, then the rest of the
    /// client's; `None` when the copy was given up. The local service reads nothing more.
    fn replay(&self) -> Option<Replay> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.given_up {
            return None;
        }
        let rest = state.body.take();
        Some(Replay {
            copied: std::mem::take(&mut state.copied).into(),
            trailers: state.trailers.take(),
            rest: if state.ended { None } else { rest },
        })
    }
}

/// The local service's side of a [`Tee`].
struct LocalBody {
    state: Arc<Mutex<TeeState>>,
}

impl http_body::Body for LocalBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let state = &mut *state;
        let Some(body) = state.body.as_mut() else {
            // Taken for a replay: the local answer is already given.
            return Poll::Ready(None);
        };
        let polled = Pin::new(body).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if !state.given_up {
                    if let Some(data) = frame.data_ref() {
                        if state.copied_bytes + data.len() > state.limit {
                            state.given_up = true;
                            state.copied = Vec::new();
                        } else {
                            state.copied_bytes += data.len();
                            state.copied.push(data.clone());
                        }
                    } else if let Some(trailers) = frame.trailers_ref() {
                        state.trailers = Some(trailers.clone());
                    }
                }
            }
            Poll::Ready(Some(Err(_))) => state.given_up = true,
            Poll::Ready(None) => state.ended = true,
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.body.as_ref().is_none_or(|body| body.is_end_stream())
    }
}

/// What the owner reads: the frames the local service read, then the rest of the client's body.
struct Replay {
    copied: VecDeque<Bytes>,
    trailers: Option<HeaderMap>,
    rest: Option<Body>,
}

impl http_body::Body for Replay {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Some(data) = self.copied.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        if let Some(trailers) = self.trailers.take() {
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        match self.rest.as_mut() {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.copied.is_empty()
            && self.trailers.is_none()
            && self.rest.as_ref().is_none_or(|rest| rest.is_end_stream())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client's request body: what its sender sends, until the sender is dropped.
    struct ClientBody(tokio::sync::mpsc::Receiver<Bytes>);

    impl http_body::Body for ClientBody {
        type Data = Bytes;
        type Error = Status;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
            self.0
                .poll_recv(cx)
                .map(|data| data.map(|data| Ok(Frame::data(data))))
        }
    }

    /// A client body that sends `chunks` and then whatever the returned sender sends.
    fn client_body(chunks: &[&'static [u8]]) -> (Body, tokio::sync::mpsc::Sender<Bytes>) {
        let (sender, receiver) = tokio::sync::mpsc::channel(8);
        for chunk in chunks {
            sender.try_send(Bytes::from_static(chunk)).unwrap();
        }
        (Body::new(ClientBody(receiver)), sender)
    }

    async fn frame<B: http_body::Body<Data = Bytes, Error = Status> + Unpin>(
        body: &mut B,
    ) -> Option<Frame<Bytes>> {
        std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx))
            .await
            .map(|frame| frame.expect("no error"))
    }

    async fn next_data<B: http_body::Body<Data = Bytes, Error = Status> + Unpin>(
        body: &mut B,
    ) -> Bytes {
        frame(body)
            .await
            .expect("a frame")
            .into_data()
            .expect("data")
    }

    #[tokio::test]
    async fn the_replay_repeats_what_was_read_then_continues_with_the_rest() {
        let (client, more) = client_body(&[b"open", b"act-1"]);
        let tee = Tee::new(client, 64);
        let mut local = tee.local();
        assert_eq!(next_data(&mut local).await, "open");
        assert_eq!(next_data(&mut local).await, "act-1");
        let mut replay = tee.replay().expect("under the limit");
        assert!(
            frame(&mut local).await.is_none(),
            "the local service reads nothing once the body is replayed"
        );
        more.send(Bytes::from_static(b"act-2")).await.unwrap();
        drop(more);
        assert_eq!(next_data(&mut replay).await, "open");
        assert_eq!(next_data(&mut replay).await, "act-1");
        assert_eq!(next_data(&mut replay).await, "act-2");
        assert!(
            frame(&mut replay).await.is_none(),
            "and ends where the client's ends"
        );
    }

    #[tokio::test]
    async fn a_body_read_to_its_end_is_replayed_whole() {
        let (client, more) = client_body(&[b"request"]);
        drop(more);
        let tee = Tee::new(client, 64);
        let mut local = tee.local();
        assert_eq!(next_data(&mut local).await, "request");
        assert!(frame(&mut local).await.is_none());
        let mut replay = tee.replay().unwrap();
        assert_eq!(next_data(&mut replay).await, "request");
        assert!(frame(&mut replay).await.is_none());
    }

    #[tokio::test]
    async fn reading_past_the_limit_gives_the_replay_up() {
        let (client, _more) = client_body(&[b"0123456789", b"0123456789"]);
        let tee = Tee::new(client, 15);
        let mut local = tee.local();
        assert_eq!(next_data(&mut local).await, "0123456789");
        assert_eq!(
            next_data(&mut local).await,
            "0123456789",
            "the local service reads on as ever"
        );
        assert!(tee.replay().is_none());
    }

    #[test]
    fn only_unavailable_answers_naming_an_owner_are_forwarded() {
        assert_eq!(
            UNAVAILABLE,
            (tonic::Code::Unavailable as i32).to_string().as_bytes()
        );
        let answer = |status: Status| {
            let response = status.into_http::<Body>();
            owner_named(&response)
        };
        let mut not_owner = Status::unavailable("owned elsewhere");
        not_owner
            .metadata_mut()
            .insert(OWNER_URL_HEADER, "http://b:1".parse().unwrap());
        assert_eq!(answer(not_owner), Some("http://b:1".to_owned()));
        assert_eq!(answer(Status::unavailable("store down")), None);
        let mut other = Status::not_found("m");
        other
            .metadata_mut()
            .insert(OWNER_URL_HEADER, "http://b:1".parse().unwrap());
        assert_eq!(answer(other), None);
    }
}
