//! The server's limits over TCP: spectators per match, message sizes, and the per-token rate
//! limit on acting calls. Each limit is configured small enough that no test has to wait for
//! time to pass.

mod common;

use std::time::Duration;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_server::Settings;
use tonic::Code;
use tonic_types::StatusExt;

fn watch_request(match_id: &str) -> pb::StreamMatchEventsRequest {
    pb::StreamMatchEventsRequest {
        match_id: match_id.to_owned(),
        after_seq: 0,
        include_legal_actions: false,
        ..Default::default()
    }
}

#[tokio::test]
async fn spectators_beyond_the_watcher_limit_are_refused_and_seats_still_watch() {
    let mut settings = test_settings();
    settings.limits.watchers_per_match = 1;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let watched = seated(&mut client).await;
    let other = seated(&mut client).await.match_id;

    let first = client
        .stream_match_events(watch_request(&watched.match_id))
        .await
        .expect("the first spectator fits")
        .into_inner();
    let refused = client
        .stream_match_events(watch_request(&watched.match_id))
        .await
        .expect_err("a second spectator is one too many");
    assert_eq!(refused.code(), Code::ResourceExhausted);
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "WATCHER_LIMIT");
    assert_eq!(info.metadata["limit"], "1");
    assert_eq!(info.metadata["match_id"], watched.match_id);

    // A seat is never locked out of its own match, and other matches have their own limit.
    for seat in ["first", "second"] {
        client
            .stream_match_events(authed(
                watch_request(&watched.match_id),
                watched.token(seat),
            ))
            .await
            .expect("a seat watches whatever the spectators");
    }
    let _elsewhere = client
        .stream_match_events(watch_request(&other))
        .await
        .expect("another match's spectator fits");

    // The slot is freed when its spectator goes away.
    drop(first);
    loop {
        match client
            .stream_match_events(watch_request(&watched.match_id))
            .await
        {
            Ok(_) => break,
            Err(status) => {
                assert_eq!(reason(&status), "WATCHER_LIMIT");
                tokio::task::yield_now().await;
            }
        }
    }
    server.stop().await;
}

fn submit_request(match_id: &str, version: u64) -> pb::SubmitActionRequest {
    pb::SubmitActionRequest {
        match_id: match_id.to_owned(),
        expected_version: version,
        client_action_id: String::new(),
        choice: Some(pb::submit_action_request::Choice::Index(0)),
    }
}

#[tokio::test]
async fn acting_beyond_the_rate_limit_is_refused_with_the_retry_delay_and_changes_nothing() {
    let mut settings = test_settings();
    settings.limits.actions_per_second = 1;
    settings.limits.action_burst = 2;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let seat = to_act(&mut client, &seated.match_id).await.expect("to act");
    let token = seated.token(&seat);
    let before = get(&mut client, &seated.match_id).await;

    // The burst: every call counts, refused ones too.
    for _ in 0..2 {
        let stale = client
            .submit_action(authed(
                submit_request(&seated.match_id, before.version + 100),
                token,
            ))
            .await
            .expect_err("stale");
        assert_eq!(reason(&stale), "STALE_VERSION");
    }

    let limited = client
        .submit_action(authed(
            submit_request(&seated.match_id, before.version),
            token,
        ))
        .await
        .expect_err("the bucket is empty");
    assert_eq!(limited.code(), Code::ResourceExhausted);
    assert_eq!(reason(&limited), "RATE_LIMITED");
    let delay = limited
        .get_details_retry_info()
        .expect("RetryInfo")
        .retry_delay
        .expect("a delay");
    assert!(
        delay > Duration::ZERO && delay <= Duration::from_secs(1),
        "one token a second: {delay:?}"
    );
    let resign = client
        .resign(authed(
            pb::ResignRequest {
                match_id: seated.match_id.clone(),
            },
            token,
        ))
        .await
        .expect_err("resigning acts too");
    assert_eq!(reason(&resign), "RATE_LIMITED");

    let after = get(&mut client, &seated.match_id).await;
    assert_eq!(after, before, "refused calls changed nothing");

    // Reading is not acting, and the other seat has its own bucket.
    client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: seated.match_id.clone(),
                ..Default::default()
            },
            token,
        ))
        .await
        .expect("legal actions are not rate limited");
    let other_seat = if seat == "first" { "second" } else { "first" };
    let not_yours = client
        .submit_action(authed(
            submit_request(&seated.match_id, before.version),
            seated.token(other_seat),
        ))
        .await
        .expect_err("not its turn");
    assert_eq!(reason(&not_yours), "NOT_YOUR_TURN");
    server.stop().await;
}

fn small_messages(request_bytes: usize, response_bytes: usize) -> Settings {
    let mut settings = test_settings();
    settings.limits.max_request_bytes = request_bytes;
    settings.limits.max_response_bytes = response_bytes;
    settings
}

#[tokio::test]
async fn requests_larger_than_the_limit_are_refused_before_they_reach_a_match() {
    let server = start_with(small_messages(1024, 16 * 1024 * 1024)).await;
    let mut client = server.matches().await;
    let oversized = client
        .create_match(pb::CreateMatchRequest {
            variant_id: SOCCER_CHESS.to_owned(),
            options: short_options(),
            seed: Some(7),
            start_position: "x".repeat(2048),
            ..Default::default()
        })
        .await
        .expect_err("2 KiB is over the limit");
    assert_eq!(oversized.code(), Code::ResourceExhausted, "{oversized:?}");
    assert_eq!(reason(&oversized), "MESSAGE_TOO_LARGE");
    assert!(
        oversized.message().contains("limits.max_request_bytes"),
        "{oversized:?}"
    );
    let listed = client
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .expect("list")
        .into_inner();
    assert!(listed.matches.is_empty(), "nothing was created");
    create(&mut client).await;
    server.stop().await;
}

#[tokio::test]
async fn responses_larger_than_the_limit_are_not_sent() {
    let server = start_with(small_messages(64 * 1024, 512)).await;
    let mut variants = server.variants().await;
    let refused = variants
        .list_variants(pb::ListVariantsRequest::default())
        .await
        .expect_err("five variants' metadata is over 512 bytes");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(reason(&refused), "MESSAGE_TOO_LARGE");
    assert!(
        refused.message().contains("limits.max_response_bytes"),
        "{refused:?}"
    );
    let mut client = server.matches().await;
    client
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .expect("an empty listing fits");
    server.stop().await;
}
