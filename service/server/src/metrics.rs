//! Prometheus metrics, served as text on `GET /metrics` on a port of their own, and beside them
//! `GET /health`: 200 while grpc.health.v1 says SERVING, 503 while NOT_SERVING, for what cannot
//! ask gRPC health itself (a container health check, a probe of a TLS-only gRPC port).
//!
//! What happens on a hot path (an action accepted or refused, a submit's latency, a store
//! commit, a stream opened or closed) is recorded where it happens through the `metrics`
//! facade: an atomic add behind a map lookup. What is a state rather than an event (matches
//! live and stored, the inbox backlog, whether the store writes) is read when scraped, so
//! nothing pays for it between scrapes.
//!
//! The recorder is process-wide (the facade has one global recorder): one server per process
//! is what the binary runs, and servers sharing a process share their counters.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use futures_util::Stream;
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::hosting::MatchRegistry;
use crate::hosting::status::MatchStatus;
use crate::store::Store;
use pitchmate_leagues::follower;

/// Matches an actor hosts in memory now (gauge).
pub const MATCHES_LIVE: &str = "pitchmate_matches_live";
/// Matches in the store, by `status` (gauge, read from the store when scraped).
pub const MATCHES_STORED: &str = "pitchmate_matches_stored";
/// Streams open now, by `kind`: `watch` (a spectator's StreamMatchEvents), `seat_events` (one
/// with a seat token), `play`, `lifecycle`, `inbox` (gauge).
pub const STREAMS_OPEN: &str = "pitchmate_streams_open";
/// Lifecycle entries committed but not yet turned into bots' inbox items (gauge).
pub const INBOX_BACKLOG: &str = "pitchmate_inbox_backlog";
/// 1 while the store commits writes, 0 while it cannot (gauge).
pub const STORE_WRITABLE: &str = "pitchmate_store_writable";
/// 1 while grpc.health.v1 says SERVING, 0 while NOT_SERVING (gauge).
pub const SERVING: &str = "pitchmate_serving";
/// 1 while this server schedules the leagues, 0 while another does (cluster mode) (gauge).
pub const LEAGUE_SCHEDULING: &str = "pitchmate_league_scheduling";
/// Seconds one scrape took to read the store's figures (gauge).
pub const SCRAPE_SECONDS: &str = "pitchmate_metrics_scrape_seconds";

/// Latency buckets, in seconds, for every `_seconds` histogram: from a cached SQLite commit to
/// a PostgreSQL one across a slow network.
const BUCKETS: [f64; 14] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// The process's recorder, installed the first time it is asked for.
pub fn recorder() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &BUCKETS)
                .expect("the buckets are not empty")
                .set_buckets_for_metric(
                    Matcher::Full(pitchmate_store::metrics::COMMIT_WRITES.to_owned()),
                    &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0],
                )
                .expect("the buckets are not empty")
                .build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("another metrics recorder is installed; /metrics stays empty");
            }
            describe();
            handle
        })
        .clone()
}

fn describe() {
    metrics::describe_gauge!(MATCHES_LIVE, "Matches an actor hosts in memory now");
    metrics::describe_gauge!(MATCHES_STORED, "Matches in the store, by status");
    metrics::describe_gauge!(STREAMS_OPEN, "Streams open now, by kind");
    metrics::describe_gauge!(
        INBOX_BACKLOG,
        "Lifecycle entries committed but not yet turned into inbox items"
    );
    metrics::describe_gauge!(STORE_WRITABLE, "1 while the store commits writes");
    metrics::describe_gauge!(SERVING, "1 while grpc.health.v1 says SERVING");
    metrics::describe_gauge!(
        LEAGUE_SCHEDULING,
        "1 while this server schedules the leagues, 0 while another does"
    );
    metrics::describe_gauge!(
        SCRAPE_SECONDS,
        "Seconds the last scrape took to read the store"
    );
    pitchmate_hosting::metrics::describe();
    pitchmate_store::metrics::describe();
}

/// What a scrape reads besides the recorded metrics.
#[derive(Clone)]
pub struct Exposition {
    pub handle: PrometheusHandle,
    pub registry: Arc<MatchRegistry>,
    pub store: Store,
    /// What the health service says: SERVING (true) or not.
    pub serving: watch::Receiver<bool>,
    /// Whether this server schedules the leagues now.
    pub scheduling: Arc<AtomicBool>,
}

impl Exposition {
    /// The metrics as Prometheus text, the scrape-time gauges read now.
    pub async fn render(&self) -> String {
        let started = std::time::Instant::now();
        metrics::gauge!(MATCHES_LIVE).set(self.registry.live_count() as f64);
        metrics::gauge!(pitchmate_hosting::metrics::LEASES_HELD)
            .set(self.registry.leases_held() as f64);
        metrics::gauge!(STORE_WRITABLE).set(if self.store.writable() { 1.0 } else { 0.0 });
        metrics::gauge!(SERVING).set(if *self.serving.borrow() { 1.0 } else { 0.0 });
        let scheduling = self.scheduling.load(Ordering::Relaxed);
        metrics::gauge!(LEAGUE_SCHEDULING).set(if scheduling { 1.0 } else { 0.0 });
        match self.store.count_by_status().await {
            Ok(counts) => {
                for (status, count) in counts {
                    let status = MatchStatus::from_wire(status)
                        .map_or_else(|| status.to_string(), |s| format!("{s:?}").to_lowercase());
                    metrics::gauge!(MATCHES_STORED, "status" => status).set(count as f64);
                }
            }
            Err(error) => tracing::debug!(%error, "metrics: cannot count the stored matches"),
        }
        match self.store.follower_cursor(follower::FOLLOWER).await {
            Ok(cursor) => metrics::gauge!(INBOX_BACKLOG)
                .set(self.store.last_position().saturating_sub(cursor) as f64),
            Err(error) => tracing::debug!(%error, "metrics: cannot read the follower's cursor"),
        }
        metrics::gauge!(SCRAPE_SECONDS).set(started.elapsed().as_secs_f64());
        self.handle.render()
    }
}

/// Serves `GET /metrics` and `GET /health` (HTTP/1.1) on `listener` until the server stops.
pub async fn serve(listener: TcpListener, exposition: Exposition, stopping: watch::Receiver<bool>) {
    let address = listener.local_addr().ok();
    tracing::info!(?address, "serving metrics on GET /metrics");
    let mut stopped = stopping.clone();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.wait_for(|stopping| *stopping) => return,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::debug!(%error, "metrics: accept failed");
                // Out of descriptors, say: do not spin.
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let exposition = exposition.clone();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let exposition = exposition.clone();
                async move { Ok::<_, Infallible>(answer(&exposition, &request).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                served = connection => if let Err(error) = served {
                    tracing::debug!(%error, "metrics: connection ended by an error");
                },
                _ = stopping.wait_for(|stopping| *stopping) => {}
            }
        });
    }
}

async fn answer(exposition: &Exposition, request: &Request<Incoming>) -> Response<String> {
    let mut response = Response::new(String::new());
    if request.method() != Method::GET {
        *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
        return response;
    }
    match request.uri().path() {
        "/metrics" => {
            *response.body_mut() = exposition.render().await;
            response.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("text/plain; version=0.0.4"),
            );
        }
        "/health" => {
            let serving = *exposition.serving.borrow();
            let (status, body) = if serving {
                (StatusCode::OK, "SERVING\n")
            } else {
                (StatusCode::SERVICE_UNAVAILABLE, "NOT_SERVING\n")
            };
            *response.status_mut() = status;
            body.clone_into(response.body_mut());
        }
        _ => {
            *response.status_mut() = StatusCode::NOT_FOUND;
            "GET /metrics or GET /health\n".clone_into(response.body_mut());
        }
    }
    response
}

/// `stream`, counted in [`STREAMS_OPEN`] under `kind` while it is open.
pub fn counted<S: Stream>(kind: &'static str, stream: S) -> Counted<S> {
    let gauge = metrics::gauge!(STREAMS_OPEN, "kind" => kind);
    gauge.increment(1.0);
    Counted {
        inner: Box::pin(stream),
        gauge,
    }
}

/// A stream counted as open until it is dropped.
pub struct Counted<S> {
    inner: Pin<Box<S>>,
    gauge: metrics::Gauge,
}

impl<S: Stream> Stream for Counted<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl<S> Drop for Counted<S> {
    fn drop(&mut self) {
        self.gauge.decrement(1.0);
    }
}
