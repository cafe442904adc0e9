//! One connection's life: its handshake, then HTTP/2 (or HTTP/1.1, for browsers) until it
//! closes, goes idle, grows too old or the server shuts down.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tonic::body::Body;
use tonic::codegen::Service;
use tonic::codegen::http::{Request, Response};
use tonic::transport::server::TcpConnectInfo;

use super::activity::{Activity, Tracked};
use super::call_timeout::CallTimeout;
use super::handshake::{self, Rewind};
use super::{Limits, Phase};

/// The HTTP settings every connection is served with: HTTP/2 for gRPC clients, HTTP/1.1 for
/// browsers (the web board's page and its grpc-web calls).
pub fn http_builder(limits: &Limits) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        // A request head that trickles in is cut like a handshake that does.
        .timer(TokioTimer::new())
        .header_read_timeout(limits.handshake_timeout);
    builder
        .http2()
        // hyper runs keep-alive pings only with a timer.
        .timer(TokioTimer::new())
        .max_concurrent_streams(limits.max_streams_per_connection)
        .keep_alive_interval(limits.keepalive_interval)
        .keep_alive_timeout(limits.keepalive_timeout);
    builder
}

/// Serves `stream` (over TLS when `tls` is given) until it closes or a limit or the shutdown
/// ends it. `slot` is its place under the connection cap, given back when this returns.
#[allow(clippy::too_many_arguments)]
pub async fn serve<S>(
    stream: TcpStream,
    peer: SocketAddr,
    tls: Option<TlsAcceptor>,
    service: S,
    http: Arc<auto::Builder<TokioExecutor>>,
    limits: Arc<Limits>,
    mut phase: watch::Receiver<Phase>,
    slot: OwnedSemaphorePermit,
) where
    S: Service<Request<Incoming>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let _slot = slot;
    let info = TcpConnectInfo {
        local_addr: stream.local_addr().ok(),
        remote_addr: Some(peer),
    };
    let Some(acceptor) = tls else {
        return serve_http(stream, info, service, http, limits, phase).await;
    };
    // The TLS handshake gets the handshake timeout, and so does the HTTP one inside it.
    let accepted = tokio::select! {
        accepted = tokio::time::timeout(limits.handshake_timeout, acceptor.accept(stream)) => accepted,
        () = reached(&mut phase, Phase::Draining) => {
            tracing::debug!(%peer, "connection closed by the shutdown during its TLS handshake");
            return;
        }
    };
    match accepted {
        Ok(Ok(stream)) => serve_http(stream, info, service, http, limits, phase).await,
        Ok(Err(error)) => tracing::debug!(%peer, %error, "connection closed: TLS handshake failed"),
        Err(_) => tracing::debug!(
            %peer,
            timeout_secs = limits.handshake_timeout.as_secs(),
            "connection cut by the handshake timeout during TLS"
        ),
    }
}

/// Serves HTTP on `stream`, plain or already through TLS.
async fn serve_http<S, Io>(
    mut stream: Io,
    info: TcpConnectInfo,
    service: S,
    http: Arc<auto::Builder<TokioExecutor>>,
    limits: Arc<Limits>,
    mut phase: watch::Receiver<Phase>,
) where
    S: Service<Request<Incoming>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    Io: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let peer = info
        .remote_addr
        .unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)));
    let handshake = tokio::select! {
        read = tokio::time::timeout(limits.handshake_timeout, handshake::read(&mut stream)) => read,
        () = reached(&mut phase, Phase::Draining) => {
            tracing::debug!(%peer, "connection closed by the shutdown during its handshake");
            return;
        }
    };
    let received = match handshake {
        Ok(Ok(received)) => received,
        Ok(Err(error)) => {
            tracing::debug!(%peer, %error, "connection closed: not an HTTP client");
            return;
        }
        Err(_) => {
            tracing::debug!(
                %peer,
                timeout_secs = limits.handshake_timeout.as_secs(),
                "connection cut by the handshake timeout"
            );
            return;
        }
    };

    let activity = Activity::new();
    let service = WithConnectInfo {
        inner: Tracked::new(
            CallTimeout::new(service, limits.call_timeout),
            Arc::clone(&activity),
        ),
        info,
    };
    let io = TokioIo::new(Rewind::new(received, stream));
    let mut connection = pin!(http.serve_connection(io, TowerToHyperService::new(service)));

    let mut age = pin!(tokio::time::sleep(jittered(limits.max_age)));
    let mut grace = pin!(tokio::time::sleep(Duration::ZERO));
    let mut idle = pin!(activity.idle_for(limits.idle_timeout));
    let (mut going_away, mut aged, mut draining) = (false, false, false);
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                match served {
                    Ok(()) => tracing::trace!(%peer, "connection closed"),
                    Err(error) => tracing::debug!(%peer, %error, "connection ended by an error"),
                }
                return;
            }
            () = &mut idle, if !going_away => {
                tracing::debug!(
                    %peer,
                    idle_timeout_secs = limits.idle_timeout.as_secs(),
                    "GOAWAY to an idle connection"
                );
                connection.as_mut().graceful_shutdown();
                going_away = true;
            }
            () = &mut age, if !aged => {
                tracing::debug!(
                    %peer,
                    open_calls = activity.open_calls(),
                    grace_secs = limits.max_age_grace.as_secs(),
                    "GOAWAY to a connection at its maximum age"
                );
                connection.as_mut().graceful_shutdown();
                grace.as_mut().reset(Instant::now() + limits.max_age_grace);
                (going_away, aged) = (true, true);
            }
            () = &mut grace, if aged => {
                tracing::debug!(
                    %peer,
                    open_calls = activity.open_calls(),
                    "connection cut at the end of its maximum age grace"
                );
                return;
            }
            () = reached(&mut phase, if draining { Phase::Cut } else { Phase::Draining }) => {
                if draining {
                    tracing::debug!(
                        %peer,
                        open_calls = activity.open_calls(),
                        "connection cut by the shutdown deadline"
                    );
                    return;
                }
                connection.as_mut().graceful_shutdown();
                (going_away, draining) = (true, true);
            }
        }
    }
}

/// Resolves once the server's phase is `target` or later (or the server is gone).
async fn reached(phase: &mut watch::Receiver<Phase>, target: Phase) {
    let _ = phase.wait_for(|now| *now >= target).await;
}

/// `age` give or take up to 10%, so connections opened together (after a restart, say) are not
/// all sent away together; gRPC's servers jitter their maximum connection age the same way.
fn jittered(age: Duration) -> Duration {
    let draw = getrandom::u32().unwrap_or(u32::MAX / 2);
    age.mul_f64(0.9 + 0.2 * f64::from(draw) / f64::from(u32::MAX))
}

/// Puts the connection's addresses into every request, where `Request::remote_addr()` finds
/// them, as tonic's own server does.
#[derive(Clone, Debug)]
struct WithConnectInfo<S> {
    inner: S,
    info: TcpConnectInfo,
}

impl<S, B> Service<Request<B>> for WithConnectInfo<S>
where
    S: Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> S::Future {
        request.extensions_mut().insert(self.info.clone());
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_jittered_by_at_most_a_tenth() {
        let age = Duration::from_secs(1000);
        let ages: Vec<Duration> = (0..200).map(|_| jittered(age)).collect();
        for jittered in &ages {
            assert!(
                (Duration::from_secs(900)..=Duration::from_secs(1100)).contains(jittered),
                "{jittered:?}"
            );
        }
        assert!(
            ages.iter().any(|a| *a != ages[0]),
            "200 draws are not all equal"
        );
    }
}
