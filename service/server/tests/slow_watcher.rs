//! A watcher that stops reading while the match goes on falls behind the live feed (kept tiny
//! here); when it reads again it is resynchronised from the log and receives every event
//! once and in order. The unit tests of `hosting::stream` force the same lag without a network.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn a_watcher_that_pauses_reads_everything_gap_free() {
    let mut settings = test_settings();
    settings.stream.live_capacity = 2;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;

    // Its own connection with a small flow-control window, so the server cannot push far ahead.
    let slow_channel = server
        .endpoint()
        .initial_stream_window_size(Some(1024))
        .connect()
        .await
        .unwrap();
    let mut slow = MatchServiceClient::new(slow_channel);
    let mut stream = slow
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            after_seq: 0,
            include_legal_actions: false,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();

    // The whole match is played while the watcher reads nothing.
    play_many(&mut client, &seated, 5_000, 3).await;
    let end = get(&mut client, &seated.match_id).await;
    assert_eq!(end.status, pb::MatchStatus::Finished as i32);
    assert!(
        end.last_seq > 100,
        "far more events than the watcher's buffers: {}",
        end.last_seq
    );

    let mut seqs = Vec::new();
    while let Some(item) = stream.message().await.unwrap() {
        if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
            seqs.push(event.seq);
        }
    }
    assert_eq!(seqs, (1..=end.last_seq).collect::<Vec<_>>());
    server.stop().await;
}
