//! The server's own HTTP/2 transport (and HTTP/1.1 for browsers): connections under limits, and a
//! shutdown with a deadline.
//!
//! tonic's `Server` has no handshake timeout, no idle limit and no connection cap, waits
//! forever for connections when shutting down, and retries a failing accept at once. This
//! serves each connection with hyper's HTTP/2 server itself and keeps what tonic's server does
//! that matters here: TCP_NODELAY, the connection's addresses in every request
//! (`Request::remote_addr()`), and the client's `grpc-timeout`.
//!
//! - `accept`: the accept loop, the connection cap, backoff on accept errors;
//! - `handshake`: the preface and first SETTINGS (or an HTTP/1.1 request's first bytes), read
//!   under the handshake timeout;
//! - `connection`: one connection's life: TLS when configured (see `crate::tls`), HTTP/2
//!   settings, idle and age limits, shutdown;
//! - `activity`: the calls open on a connection, which say whether it is idle;
//! - `call_timeout`: the time a call has to start answering.

mod accept;
mod activity;
mod call_timeout;
mod connection;
mod handshake;

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tonic::body::Body;
use tonic::codegen::Service;
use tonic::codegen::http::{Request, Response};

use crate::config::ConnectionSettings;

/// The connection limits, as durations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_connections: usize,
    pub max_streams_per_connection: u32,
    pub handshake_timeout: Duration,
    pub call_timeout: Duration,
    pub keepalive_interval: Duration,
    pub keepalive_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_age: Duration,
    pub max_age_grace: Duration,
    pub shutdown_timeout: Duration,
}

impl From<&ConnectionSettings> for Limits {
    fn from(settings: &ConnectionSettings) -> Self {
        Self {
            max_connections: settings.max_connections as usize,
            max_streams_per_connection: settings.max_streams_per_connection,
            handshake_timeout: Duration::from_secs(settings.handshake_timeout_secs),
            call_timeout: Duration::from_secs(settings.call_timeout_secs),
            keepalive_interval: Duration::from_secs(settings.keepalive_interval_secs),
            keepalive_timeout: Duration::from_secs(settings.keepalive_timeout_secs),
            idle_timeout: Duration::from_secs(settings.idle_timeout_secs),
            max_age: Duration::from_secs(settings.max_age_secs),
            max_age_grace: Duration::from_secs(settings.max_age_grace_secs),
            shutdown_timeout: Duration::from_secs(settings.shutdown_timeout_secs),
        }
    }
}

/// Where the server is in its life; connections watch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Serving,
    /// Shutting down: every connection has been sent GOAWAY and may finish its calls.
    Draining,
    /// The shutdown deadline passed: every connection still open is closed.
    Cut,
}

/// How long connections get to go once cut; dropping a connection takes no waiting, so only a
/// bug makes this run out.
const CUT_WAIT: Duration = Duration::from_secs(1);

/// Serves `service` on every connection `listener` accepts (over TLS only, when `tls` is
/// given), under `limits`, until `shutdown` resolves. Then stops accepting (the listener is closed), sends every connection GOAWAY,
/// waits up to `limits.shutdown_timeout` for them to finish, and cuts the rest.
pub async fn serve<S>(
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
    service: S,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) where
    S: Service<Request<Incoming>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let limits = Arc::new(limits);
    let max = limits.max_connections;
    let slots = Arc::new(Semaphore::new(max));
    let (phase, watching) = watch::channel(Phase::Serving);
    let http = Arc::new(connection::http_builder(&limits));
    accept::run(listener, &slots, max, shutdown, |stream, peer, slot| {
        tokio::spawn(connection::serve(
            stream,
            peer,
            tls.clone(),
            service.clone(),
            Arc::clone(&http),
            Arc::clone(&limits),
            watching.clone(),
            slot,
        ));
    })
    .await;

    let open = max - slots.available_permits();
    tracing::info!(
        open_connections = open,
        deadline_secs = limits.shutdown_timeout.as_secs(),
        "no longer accepting connections; GOAWAY to every open one"
    );
    phase.send_replace(Phase::Draining);
    // Every slot back means every connection has closed.
    let all = u32::try_from(max).expect("connections.max_connections is checked to fit");
    if tokio::time::timeout(limits.shutdown_timeout, slots.acquire_many(all))
        .await
        .is_ok()
    {
        tracing::info!("every connection closed");
        return;
    }
    tracing::warn!(
        open_connections = max - slots.available_permits(),
        deadline_secs = limits.shutdown_timeout.as_secs(),
        "shutdown deadline passed: cutting the connections still open \
         (setting `connections.shutdown_timeout_secs`)"
    );
    phase.send_replace(Phase::Cut);
    if tokio::time::timeout(CUT_WAIT, slots.acquire_many(all))
        .await
        .is_err()
    {
        tracing::error!(
            open_connections = max - slots.available_permits(),
            "connections still open after being cut"
        );
    }
}
