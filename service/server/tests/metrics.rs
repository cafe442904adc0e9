//! `GET /metrics` on the metrics port: what a scrape shows moves with what the server did.
//!
//! The recorder is process-wide, so this file holds a single test: nothing else in its process
//! moves the counters it reads exactly.

mod common;

use std::net::SocketAddr;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_server::ServerBuilder;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_stream::StreamExt;

/// One scrape: the metrics text after checking the answer is a 200 with Prometheus's type.
async fn scrape(address: SocketAddr) -> String {
    let mut stream = TcpStream::connect(address)
        .await
        .expect("connect to metrics");
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: metrics\r\nconnection: close\r\n\r\n")
        .await
        .expect("send the request");
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .await
        .expect("read the answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    body.to_owned()
}

/// `GET /health` on the metrics port: the status line and the body.
async fn health(address: SocketAddr) -> (String, String) {
    let mut stream = TcpStream::connect(address)
        .await
        .expect("connect to metrics");
    stream
        .write_all(b"GET /health HTTP/1.1\r\nhost: metrics\r\nconnection: close\r\n\r\n")
        .await
        .expect("send the request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// The value of the sample named exactly `series` (name and labels as rendered); `None` when
/// the scrape has no such sample.
fn sample(scraped: &str, series: &str) -> Option<f64> {
    scraped.lines().find_map(|line| {
        let (name, value) = line.rsplit_once(' ')?;
        (name == series).then(|| value.parse().expect("a number"))
    })
}

#[tokio::test]
async fn a_scrape_counts_actions_streams_matches_and_commits() {
    let settings = test_settings();
    let data_dir = settings.data_dir.clone();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let metrics = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics_address = metrics.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ServerBuilder::new(settings).metrics(metrics).serve(
        listener,
        async {
            let _ = stopped.await;
        },
    ));
    let mut client = MatchServiceClient::new(
        tonic::transport::Endpoint::from_shared(format!("http://{address}"))
            .unwrap()
            .connect()
            .await
            .unwrap(),
    );

    let before = scrape(metrics_address).await;
    assert_eq!(sample(&before, "pitchmate_matches_live"), Some(0.0));
    assert_eq!(sample(&before, "pitchmate_store_writable"), Some(1.0));
    assert_eq!(sample(&before, "pitchmate_inbox_backlog"), Some(0.0));
    assert_eq!(sample(&before, "pitchmate_actions_accepted_total"), None);
    assert_eq!(sample(&before, "pitchmate_serving"), Some(1.0));
    assert_eq!(
        health(metrics_address).await,
        ("HTTP/1.1 200 OK".to_owned(), "SERVING\n".to_owned())
    );

    let seated = seated(&mut client).await;
    let played = play_many(&mut client, &seated, 3, 11).await;
    assert_eq!(played, 3, "the match lasts longer than three actions");

    // Refused: the version is one that has passed.
    let seat = to_act(&mut client, &seated.match_id)
        .await
        .expect("a seat to act");
    let stale = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: 1,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Index(0)),
            },
            seated.token(&seat),
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&stale), "STALE_VERSION");

    // Accepted once, then answered again from its stored answer.
    let version = get(&mut client, &seated.match_id).await.version;
    for _ in 0..2 {
        client
            .submit_action(authed(
                pb::SubmitActionRequest {
                    match_id: seated.match_id.clone(),
                    expected_version: version,
                    client_action_id: "metrics-1".to_owned(),
                    choice: Some(pb::submit_action_request::Choice::Index(0)),
                },
                seated.token(&seat),
            ))
            .await
            .expect("submit");
    }

    let mut watching = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            ..Default::default()
        })
        .await
        .expect("watch")
        .into_inner();
    watching.next().await.expect("a first item").expect("ok");

    let after = scrape(metrics_address).await;
    assert_eq!(
        sample(&after, "pitchmate_actions_accepted_total"),
        Some(4.0)
    );
    assert_eq!(
        sample(&after, "pitchmate_actions_duplicate_total"),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &after,
            "pitchmate_actions_refused_total{reason=\"STALE_VERSION\"}"
        ),
        Some(1.0)
    );
    assert_eq!(sample(&after, "pitchmate_submit_seconds_count"), Some(6.0));
    assert!(sample(&after, "pitchmate_submit_seconds_sum").unwrap() > 0.0);
    assert_eq!(sample(&after, "pitchmate_matches_live"), Some(1.0));
    assert_eq!(
        sample(&after, "pitchmate_matches_stored{status=\"active\"}"),
        Some(1.0)
    );
    assert_eq!(
        sample(&after, "pitchmate_streams_open{kind=\"watch\"}"),
        Some(1.0)
    );
    // Creating, two joins and four accepted actions: at least one commit each, fewer when
    // batched together.
    let commits = sample(&after, "pitchmate_store_commit_seconds_count").expect("commits");
    let writes = sample(&after, "pitchmate_store_commit_writes_sum").expect("writes");
    assert!(commits >= 1.0 && commits <= writes, "{commits} {writes}");
    assert_eq!(writes, 7.0, "a create, two joins, four accepted actions");
    assert!(
        after.contains("# TYPE pitchmate_submit_seconds histogram"),
        "{after}"
    );

    drop(watching);
    // The stream is counted out once the server notices the call is gone.
    let mut open = 1.0;
    for _ in 0..200 {
        let scraped = scrape(metrics_address).await;
        open = sample(&scraped, "pitchmate_streams_open{kind=\"watch\"}").unwrap();
        if open == 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(open, 0.0, "the closed stream is no longer counted");

    let _ = stop.send(());
    server.await.unwrap().unwrap();
    std::fs::remove_dir_all(data_dir).unwrap();
}
