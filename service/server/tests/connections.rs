//! Connection hygiene over TCP: hostile and idle connections are closed, the limits on
//! connections and streams hold, and calls that never start answering are cut, while normal
//! clients are served throughout. Every limit is set to a second or two, so the tests wait
//! seconds; they assert what happens, in which order, never how fast.

mod common;

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use common::raw::{self, Frame};
use common::*;
use hyper_util::rt::TokioIo;
use pitchmate_proto::v1 as pb;
use pitchmate_server::Settings;
use pitchmate_server::config::ConnectionSettings;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::net::TcpStream;
use tonic::Code;
use tonic::codegen::http::Uri;
use tonic::transport::Channel;
use tonic_types::StatusExt;

type ServerClient = pb::server_service_client::ServerServiceClient<Channel>;

/// How long any one wait in these tests may take before it counts as never.
const PATIENCE: Duration = Duration::from_secs(60);

/// Test settings with the connection limits `limits` makes.
fn with_limits(limits: impl FnOnce(&mut ConnectionSettings)) -> Settings {
    let mut settings = test_settings();
    limits(&mut settings.connections);
    settings
}

const PING: &str = "/pitchmate.v1.ServerService/Ping";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_hostile_sockets_are_closed_while_a_normal_client_is_served() {
    const EACH: usize = 250;
    #[cfg(unix)]
    raw::allow_open_files(4 * EACH as u64 * 2 + 256);
    let server = start_with(with_limits(|limits| {
        limits.handshake_timeout_secs = 1;
        limits.call_timeout_secs = 1;
        limits.keepalive_interval_secs = 1;
        limits.keepalive_timeout_secs = 1;
        limits.idle_timeout_secs = 1;
    }))
    .await;
    let mut normal = ServerClient::new(server.channel().await);
    normal.ping(pb::PingRequest {}).await.expect("a first ping");

    let mut headers_without_body = raw::handshake();
    headers_without_body.extend(raw::call_headers(1, PING, &[]));
    let kinds: [(&str, Vec<u8>); 4] = [
        ("bare TCP", Vec::new()),
        ("half a preface", raw::PREFACE[..12].to_vec()),
        ("a preface without SETTINGS", raw::PREFACE.to_vec()),
        ("request headers without a body", headers_without_body),
    ];
    let mut hostile = Vec::new();
    for (kind, bytes) in &kinds {
        for _ in 0..EACH {
            hostile.push((*kind, raw::connect_and_send(server.address, bytes).await));
        }
    }

    // Every hostile socket is watched at once; the normal client calls until all are closed.
    let mut closing = tokio::task::JoinSet::new();
    for (kind, mut socket) in hostile {
        closing.spawn(async move { (kind, raw::until_closed(&mut socket, PATIENCE).await) });
    }
    let all_closed = Arc::new(AtomicBool::new(false));
    let calling = {
        let all_closed = Arc::clone(&all_closed);
        tokio::spawn(async move {
            let mut calls = 0;
            while !all_closed.load(Ordering::Relaxed) {
                normal
                    .ping(pb::PingRequest {})
                    .await
                    .expect("every ping answered while hostile sockets are open");
                calls += 1;
            }
            calls
        })
    };
    let mut still_open = Vec::new();
    while let Some(joined) = closing.join_next().await {
        let (kind, closed) = joined.expect("watcher");
        if closed.is_err() {
            still_open.push(kind);
        }
    }
    all_closed.store(true, Ordering::Relaxed);
    assert!(
        still_open.is_empty(),
        "{} hostile sockets still open after {PATIENCE:?}: {:?}",
        still_open.len(),
        still_open.iter().collect::<HashSet<_>>()
    );
    let calls = calling.await.expect("normal client");
    assert!(calls > 0, "the normal client called while they were open");

    // The listener still takes new clients.
    let mut fresh = ServerClient::new(server.channel().await);
    fresh.ping(pb::PingRequest {}).await.expect("a new client");
    server.stop().await;
}

#[tokio::test]
async fn a_request_whose_body_never_comes_is_answered_deadline_exceeded() {
    let server = start_with(with_limits(|limits| limits.call_timeout_secs = 1)).await;
    let (mut sender, connection) = h2_client(&server).await;

    let response = sender
        .send_request(grpc_request(PING, &[]), false)
        .expect("send the headers")
        .0
        .await
        .expect("a response");
    let status = tonic::Status::from_header_map(response.headers()).expect("trailers-only");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    let info = status.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "CALL_TIMEOUT");
    assert_eq!(info.metadata["timeout_ms"], "1000");
    assert!(status.message().contains("connections.call_timeout_secs"));
    connection.abort();
    server.stop().await;
}

#[tokio::test]
async fn the_client_grpc_timeout_cuts_a_call_sooner_than_the_server_limit() {
    let server = start_with(with_limits(|limits| limits.call_timeout_secs = 3600)).await;
    let (mut sender, connection) = h2_client(&server).await;
    let response = sender
        .send_request(grpc_request(PING, &[("grpc-timeout", "200m")]), false)
        .expect("send the headers")
        .0;
    let response = tokio::time::timeout(PATIENCE, response)
        .await
        .expect("answered long before the server's hour")
        .expect("a response");
    let status = tonic::Status::from_header_map(response.headers()).expect("trailers-only");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        status
            .message()
            .contains("within 200 ms (its grpc-timeout)"),
        "{status:?}"
    );
    connection.abort();
    server.stop().await;
}

#[tokio::test]
async fn a_play_stream_that_never_opens_is_cut_and_the_connection_serves_on() {
    let server = start_with(with_limits(|limits| limits.call_timeout_secs = 1)).await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let refused = client
        .play(authed(
            tokio_stream::pending::<pb::PlayRequest>(),
            seated.token("first"),
        ))
        .await
        .expect_err("no open, no stream");
    assert_eq!(refused.code(), Code::DeadlineExceeded, "{refused:?}");
    assert_eq!(reason(&refused), "CALL_TIMEOUT");
    get(&mut client, &seated.match_id).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn started_streams_outlive_the_call_and_idle_timeouts() {
    let mut settings = with_limits(|limits| {
        limits.call_timeout_secs = 1;
        limits.idle_timeout_secs = 1;
    });
    settings.stream.heartbeat_secs = 1;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;

    let mut watching = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            ..Default::default()
        })
        .await
        .expect("watch")
        .into_inner();
    let (actions, inbound) = tokio::sync::mpsc::channel(1);
    actions
        .send(pb::PlayRequest {
            kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
                match_id: seated.match_id.clone(),
                ..Default::default()
            })),
        })
        .await
        .unwrap();
    let mut playing = client
        .play(authed(
            tokio_stream::wrappers::ReceiverStream::new(inbound),
            seated.token("second"),
        ))
        .await
        .expect("play")
        .into_inner();

    // A heartbeat a second: four of each span more than three call and idle timeouts.
    let mut heartbeats = (0, 0);
    while heartbeats.0 < 4 || heartbeats.1 < 4 {
        tokio::select! {
            item = watching.message() => {
                let item = item.expect("the watch goes on").expect("open");
                if matches!(item.item, Some(pb::stream_match_events_response::Item::Heartbeat(_))) {
                    heartbeats.0 += 1;
                }
            }
            item = playing.message() => {
                let item = item.expect("the play stream goes on").expect("open");
                if matches!(item.item, Some(pb::play_response::Item::Heartbeat(_))) {
                    heartbeats.1 += 1;
                }
            }
        }
    }
    drop(actions);
    server.stop().await;
}

#[tokio::test]
async fn an_idle_connection_gets_goaway_and_closes_once_the_client_has_answered() {
    let server = start_with(with_limits(|limits| limits.idle_timeout_secs = 1)).await;
    let socket = raw::connect_and_send(server.address, &raw::handshake()).await;
    let frames = tokio::time::timeout(PATIENCE, raw::answer_until_closed(socket))
        .await
        .expect("closed by the idle timeout");
    let goaway = frames
        .iter()
        .position(|f| f.kind == raw::GOAWAY)
        .expect("GOAWAY before the close");
    assert_eq!(
        error_code(&frames[goaway]),
        0,
        "NO_ERROR: a graceful GOAWAY"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_tonic_client_reconnects_by_itself_after_an_idle_goaway() {
    let server = start_with(with_limits(|limits| limits.idle_timeout_secs = 1)).await;
    let connector = CountingConnector::default();
    let channel = server
        .endpoint()
        .connect_with_connector(connector.clone())
        .await
        .expect("connect");
    let mut client = ServerClient::new(channel);
    client.ping(pb::PingRequest {}).await.expect("first ping");
    assert_eq!(connector.opened.load(Ordering::Relaxed), 1);

    tokio::time::timeout(PATIENCE, async {
        while connector.ended.load(Ordering::Relaxed) < 1 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the idle connection ends");
    client
        .ping(pb::PingRequest {})
        .await
        .expect("the next call goes through on a new connection");
    assert_eq!(connector.opened.load(Ordering::Relaxed), 2);
    server.stop().await;
}

#[tokio::test]
async fn the_age_limit_sends_goaway_then_cuts_an_open_call_after_the_grace() {
    let server = start_with(with_limits(|limits| {
        limits.max_age_secs = 2;
        limits.max_age_grace_secs = 1;
        limits.idle_timeout_secs = 1;
        limits.call_timeout_secs = 3600;
    }))
    .await;
    // A client that answers pings but keeps a call open past GOAWAY, its body never sent.
    let mut bytes = raw::handshake();
    bytes.extend(raw::call_headers(1, PING, &[]));
    let socket = raw::connect_and_send(server.address, &bytes).await;
    let frames = tokio::time::timeout(PATIENCE, raw::answer_until_closed(socket))
        .await
        .expect("cut after the age and its grace");
    let goaway = frames
        .iter()
        .position(|f| f.kind == raw::GOAWAY)
        .expect("GOAWAY at the maximum age");
    assert_eq!(error_code(&frames[goaway]), 0, "NO_ERROR: graceful");
    assert!(
        !frames
            .iter()
            .any(|f| f.stream == 1 && matches!(f.kind, raw::HEADERS | raw::RST_STREAM)),
        "the open call was neither answered nor reset before the cut: {frames:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn keepalive_closes_a_connection_whose_client_stops_answering_pings() {
    let server = start_with(with_limits(|limits| {
        limits.keepalive_interval_secs = 1;
        limits.keepalive_timeout_secs = 1;
    }))
    .await;

    // A client that answers: still open after three pings.
    let polite = raw::connect_and_send(server.address, &raw::handshake()).await;
    let (mut reader, mut writer) = polite.into_split();
    let mut answered = 0;
    while answered < 3 {
        let frame = raw::read_frame(&mut reader)
            .await
            .expect("open while it answers");
        if frame.kind == raw::PING && frame.flags & raw::ACK == 0 {
            raw::send(
                &mut writer,
                &raw::frame(raw::PING, raw::ACK, 0, &frame.payload),
            )
            .await;
            answered += 1;
        }
    }

    // A client that reads but never answers: pinged, then closed.
    let mut silent = raw::connect_and_send(server.address, &raw::handshake()).await;
    let mut frames = Vec::new();
    tokio::time::timeout(PATIENCE, async {
        while let Some(frame) = raw::read_frame(&mut silent).await {
            frames.push(frame);
        }
    })
    .await
    .expect("closed for not answering");
    assert!(
        frames
            .iter()
            .any(|f| f.kind == raw::PING && f.flags & raw::ACK == 0),
        "pinged before being closed: {frames:?}"
    );
    drop((reader, writer));
    server.stop().await;
}

#[tokio::test]
async fn the_server_announces_its_stream_cap_and_refuses_streams_beyond_it() {
    let server = start_with(with_limits(|limits| {
        limits.max_streams_per_connection = 2;
        limits.call_timeout_secs = 3600;
    }))
    .await;
    let mut bytes = raw::handshake();
    // Three calls whose bodies never come: the third is one too many.
    for stream in [1, 3, 5] {
        bytes.extend(raw::call_headers(stream, PING, &[]));
    }
    let socket = raw::connect_and_send(server.address, &bytes).await;
    let (mut reader, writer) = socket.into_split();
    let mut settings = None;
    let mut refused = None;
    while settings.is_none() || refused.is_none() {
        let frame = tokio::time::timeout(PATIENCE, raw::read_frame(&mut reader))
            .await
            .expect("the server answers")
            .expect("open");
        match frame.kind {
            raw::SETTINGS if frame.flags & raw::ACK == 0 => settings = Some(frame.settings()),
            raw::RST_STREAM => refused = Some((frame.stream, error_code(&frame))),
            _ => {}
        }
    }
    assert!(
        settings
            .unwrap()
            .contains(&(raw::MAX_CONCURRENT_STREAMS, 2)),
        "SETTINGS_MAX_CONCURRENT_STREAMS = 2"
    );
    // REFUSED_STREAM (7): never processed, safe to retry.
    assert_eq!(refused, Some((5, 7)));
    drop((reader, writer));
    server.stop().await;
}

#[tokio::test]
async fn a_connection_over_the_cap_waits_until_one_closes() {
    let server = start_with(with_limits(|limits| {
        limits.max_connections = 2;
        limits.handshake_timeout_secs = 3600;
    }))
    .await;
    let first = raw::connect_and_send(server.address, &[]).await;
    let _second = raw::connect_and_send(server.address, &[]).await;

    let channel = server.endpoint().connect_lazy();
    let mut client = ServerClient::new(channel);
    let mut hurried = tonic::Request::new(pb::PingRequest {});
    hurried.set_timeout(Duration::from_millis(500));
    let waited = client
        .ping(hurried)
        .await
        .expect_err("two silent sockets hold both places");
    assert!(
        matches!(waited.code(), Code::Cancelled | Code::DeadlineExceeded),
        "{waited:?}"
    );

    drop(first);
    let mut patient = tonic::Request::new(pb::PingRequest {});
    patient.set_timeout(PATIENCE);
    client
        .ping(patient)
        .await
        .expect("served once a place is free");
    server.stop().await;
}

#[tokio::test]
async fn requests_carry_the_client_address() {
    // The address other limits key on: the connection's peer, as tonic's own server gives it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (_, health) = tonic_health::server::health_reporter();
    let recorded = Arc::clone(&seen);
    let health = tonic::service::interceptor::InterceptedService::new(
        health,
        move |request: tonic::Request<()>| {
            recorded.lock().unwrap().push(request.remote_addr());
            Ok(request)
        },
    );
    let routes = tonic::service::Routes::new(health).prepare();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(pitchmate_server::transport::serve(
        listener,
        None,
        routes,
        pitchmate_server::transport::Limits::from(&test_settings().connections),
        async {
            let _ = stopped.await;
        },
    ));

    let socket = TcpStream::connect(address).await.unwrap();
    let local = socket.local_addr().unwrap();
    let (mut sender, connection) = h2::client::handshake(socket).await.unwrap();
    let connection = tokio::spawn(connection);
    let response = sender
        .send_request(grpc_request("/grpc.health.v1.Health/Check", &[]), true)
        .unwrap()
        .0
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(*seen.lock().unwrap(), vec![Some(local)]);

    drop(sender);
    connection.abort();
    stop.send(()).unwrap();
    serving.await.unwrap();
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_descriptors_the_server_backs_off_warns_sparingly_and_recovers() {
    use common::process::{Options, ServerProcess, free_address, scratch_dir, url};

    let (address, data_dir) = (free_address(), scratch_dir());
    let log = data_dir.with_extension("log");
    let server = ServerProcess::start_with(
        address,
        &data_dir,
        Options {
            environment: &[("PITCHMATE__CONNECTIONS__HANDSHAKE_TIMEOUT_SECS", "2")],
            log: Some(&log),
            open_files: Some(256),
        },
    )
    .await;
    // More silent sockets than the server has descriptors: the rest wait in the backlog, and
    // accepting them fails until the handshake timeout closes the first ones.
    let mut silent = Vec::new();
    for _ in 0..300 {
        silent.push(TcpStream::connect(address).await.expect("connect"));
    }
    let client = pitchmate_client::Client::connect(url(address))
        .await
        .expect("connect");
    tokio::time::timeout(PATIENCE, client.list_variants())
        .await
        .expect("served once descriptors are free again")
        .expect("list variants");
    for socket in &mut silent {
        raw::until_closed(socket, PATIENCE)
            .await
            .expect("every silent socket is closed");
    }

    assert!(server.terminate().await.success());
    let logged = std::fs::read_to_string(&log).expect("the server's log");
    let warnings = logged.matches("cannot accept connections").count();
    // One line per ten seconds at most, however many accepts failed.
    assert!(
        (1..=3).contains(&warnings),
        "{warnings} accept warnings:\n{logged}"
    );
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
    std::fs::remove_file(&log).expect("remove the log");
}

/// The error code of a GOAWAY or RST_STREAM frame.
fn error_code(frame: &Frame) -> u32 {
    let at = if frame.kind == raw::GOAWAY { 4 } else { 0 };
    let code = &frame.payload[at..at + 4];
    u32::from_be_bytes([code[0], code[1], code[2], code[3]])
}

/// An h2 client connection to `server`, its connection task running.
async fn h2_client(
    server: &TestServer,
) -> (
    h2::client::SendRequest<tonic::codegen::Bytes>,
    tokio::task::JoinHandle<Result<(), h2::Error>>,
) {
    let socket = TcpStream::connect(server.address).await.expect("connect");
    let (sender, connection) = h2::client::handshake(socket).await.expect("handshake");
    (sender, tokio::spawn(connection))
}

fn grpc_request(path: &str, extra: &[(&str, &str)]) -> tonic::codegen::http::Request<()> {
    let mut request = tonic::codegen::http::Request::post(format!("http://127.0.0.1{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    request.body(()).expect("request")
}

/// A connector for tonic that counts the connections it opens and how many have ended.
#[derive(Clone, Default)]
struct CountingConnector {
    opened: Arc<AtomicUsize>,
    ended: Arc<AtomicUsize>,
}

impl tower::Service<Uri> for CountingConnector {
    type Response = TokioIo<EndWatched>;
    type Error = std::io::Error;
    type Future = Pin<Box<dyn Future<Output = std::io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let (opened, ended) = (Arc::clone(&self.opened), Arc::clone(&self.ended));
        Box::pin(async move {
            let authority = uri.authority().expect("authority").as_str().to_owned();
            let stream = TcpStream::connect(authority).await?;
            stream.set_nodelay(true)?;
            opened.fetch_add(1, Ordering::Relaxed);
            Ok(TokioIo::new(EndWatched {
                stream,
                ended,
                seen_end: false,
            }))
        })
    }
}

/// A client connection that counts its end: the server closing it (its read side ending), or
/// the client dropping it, which hyper does once the server's GOAWAY leaves it nothing to do.
struct EndWatched {
    stream: TcpStream,
    ended: Arc<AtomicUsize>,
    seen_end: bool,
}

impl EndWatched {
    fn end(&mut self) {
        if !self.seen_end {
            self.seen_end = true;
            self.ended.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Drop for EndWatched {
    fn drop(&mut self) {
        self.end();
    }
}

impl AsyncRead for EndWatched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        match &read {
            Poll::Ready(Ok(())) if buf.filled().len() == before => self.end(),
            Poll::Ready(Err(_)) => self.end(),
            _ => {}
        }
        read
    }
}

impl tokio::io::AsyncWrite for EndWatched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
