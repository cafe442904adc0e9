//! Creating matches is limited per client: a rate with a burst, and a quota of unfinished
//! matches; a match nobody took every seat of expires. A flood of creations from one client
//! keeps the server within its memory budget while another client is served as usual.

mod common;

use std::time::{Duration, Instant};

use common::*;
use pitchmate_proto::v1 as pb;
use tonic::Code;

fn create_request() -> pb::CreateMatchRequest {
    pb::CreateMatchRequest {
        variant_id: SOCCER_CHESS.to_owned(),
        options: short_options(),
        ..Default::default()
    }
}

#[tokio::test]
async fn creating_faster_than_the_rate_is_refused_with_a_delay() {
    let mut settings = test_settings();
    settings.limits.creates_per_second = 1;
    settings.limits.create_burst = 3;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    for _ in 0..3 {
        client
            .create_match(create_request())
            .await
            .expect("within the burst");
    }
    let refused = client
        .create_match(create_request())
        .await
        .expect_err("over the rate");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(reason(&refused), "RATE_LIMITED");
    let details = tonic_types::StatusExt::get_error_details(&refused);
    assert_eq!(details.error_info().unwrap().metadata["limit"], "creations");
    let delay = details
        .retry_info()
        .and_then(|r| r.retry_delay)
        .expect("a delay");
    assert!(delay <= Duration::from_secs(1), "{delay:?}");
    let mut other = server.matches_from("127.0.0.2").await;
    other
        .create_match(create_request())
        .await
        .expect("another address");
    tokio::time::sleep(delay).await;
    client
        .create_match(create_request())
        .await
        .expect("after the delay");
    let listed = client
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.matches.len(), 5, "nothing refused was created");
    server.stop().await;
}

#[tokio::test]
async fn a_client_holds_no_more_unfinished_matches_than_its_quota() {
    let mut settings = test_settings();
    settings.limits.open_matches_per_client = 2;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let first = client
        .create_match(create_request())
        .await
        .unwrap()
        .into_inner()
        .r#match
        .unwrap();
    client.create_match(create_request()).await.unwrap();
    let refused = client
        .create_match(create_request())
        .await
        .expect_err("over the quota");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(reason(&refused), "QUOTA_EXCEEDED");
    assert!(
        refused.message().contains("open_matches_per_client"),
        "{refused:?}"
    );
    server
        .matches_from("127.0.0.2")
        .await
        .create_match(create_request())
        .await
        .expect("another address has a quota of its own");
    // A match that is over no longer counts.
    let joined = client
        .join_match(pb::JoinMatchRequest {
            match_id: first.match_id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    client
        .abort_match(authed(
            pb::AbortMatchRequest {
                match_id: first.match_id.clone(),
            },
            &joined.seat_token,
        ))
        .await
        .expect("abort");
    client
        .create_match(create_request())
        .await
        .expect("room again");
    server.stop().await;
}

#[tokio::test]
async fn a_match_not_started_in_time_expires_with_an_event() {
    let mut settings = test_settings();
    settings.limits.expire_unstarted_secs = 1;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let created = create(&mut client).await;
    let joined = client
        .join_match(pb::JoinMatchRequest {
            match_id: created.match_id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut stream = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: created.match_id.clone(),
            ..Default::default()
        })
        .await
        .expect("watch")
        .into_inner();
    let mut events = Vec::new();
    while let Some(item) = stream.message().await.expect("the stream ends cleanly") {
        if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
            events.push(event);
        }
    }
    let Some(pb::match_event::Kind::MatchEnded(ended)) = events.last().and_then(|e| e.kind.clone())
    else {
        panic!("the stream ends with the match: {events:?}");
    };
    let result = ended.result.unwrap();
    assert_eq!(result.reason(), pb::ResultReason::Expired);
    assert!(result.winner.is_empty());
    let summary = get(&mut client, &created.match_id).await;
    assert_eq!(summary.status(), pb::MatchStatus::Aborted);
    assert!(
        !summary.chance.unwrap().seed.is_empty(),
        "the seed is revealed"
    );
    let refused = client
        .join_match(pb::JoinMatchRequest {
            match_id: created.match_id.clone(),
            ..Default::default()
        })
        .await
        .expect_err("an expired match takes no seat");
    assert_eq!(reason(&refused), "MATCH_NOT_ACTIVE");
    let refused = client
        .abort_match(authed(
            pb::AbortMatchRequest {
                match_id: created.match_id.clone(),
            },
            &joined.seat_token,
        ))
        .await
        .expect_err("over already");
    assert_eq!(reason(&refused), "MATCH_NOT_ACTIVE");
    // A started match never expires.
    let seated = seated(&mut client).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        get(&mut client, &seated.match_id).await.status(),
        pb::MatchStatus::Active
    );
    server.stop().await;
}

/// With the default limits, one client creating matches as fast as 32 concurrent callers can
/// for five seconds gets the burst and the rate, nothing more; the server's resident memory
/// grows by far less than what the flood would have cost unchecked (about 30 KiB a match at
/// over a thousand matches a second); and another client creates and plays a match meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creation_flood_stays_within_its_budget_while_others_are_served() {
    let data_dir = process::scratch_dir();
    let address = process::free_address();
    let server = process::ServerProcess::start(address, &data_dir).await;
    let before = server.resident_bytes();
    let flood = channel_from(address, "127.0.0.1").await;
    let deadline = Instant::now() + Duration::from_secs(5);
    let floods: Vec<_> = (0..32)
        .map(|_| {
            let mut client = MatchServiceClient::new(flood.clone());
            tokio::spawn(async move {
                let (mut accepted, mut refused) = (0u32, Vec::new());
                while Instant::now() < deadline {
                    match client.create_match(create_request()).await {
                        Ok(_) => accepted += 1,
                        Err(status) => refused.push(reason(&status)),
                    }
                }
                (accepted, refused)
            })
        })
        .collect();

    let mut other = MatchServiceClient::new(channel_from(address, "127.0.0.2").await);
    let seated = seated(&mut other).await;
    let played = play_many(&mut other, &seated, 20, 1).await;
    assert_eq!(played, 20, "the other client plays on through the flood");

    let (mut accepted, mut refused) = (0, Vec::new());
    for flood in floods {
        let (ok, no) = flood.await.unwrap();
        accepted += ok;
        refused.extend(no);
    }
    // The burst (100) and ten a second for five seconds, with a second of slack.
    assert!(accepted <= 100 + 10 * 6, "{accepted} accepted");
    assert!(!refused.is_empty());
    assert!(
        refused.iter().all(|r| r == "RATE_LIMITED"),
        "{:?}",
        refused.iter().find(|r| *r != "RATE_LIMITED")
    );
    let grown = server.resident_bytes().saturating_sub(before);
    eprintln!(
        "flood: {accepted} created, {} refused, resident memory {} KiB more",
        refused.len(),
        grown / 1024
    );
    assert!(
        grown < 64 * 1024 * 1024,
        "resident memory grew by {grown} bytes"
    );
    drop(server);
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}
