//! StreamMatchEvents: the backlog after `after_seq`, then live events, gap-free; the stream
//! closes after MatchEnded; heartbeats when quiet.

mod common;

use std::time::Duration;

use common::*;
use pitchmate_proto::v1 as pb;

fn event_of(item: pb::StreamMatchEventsResponse) -> Option<pb::MatchEvent> {
    match item.item {
        Some(pb::stream_match_events_response::Item::Event(event)) => Some(event),
        _ => None,
    }
}

#[tokio::test]
async fn backlog_then_live_events_without_gap_until_the_match_ends() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    play_many(&mut client, &seated, 3, 1).await;
    let now = get(&mut client, &seated.match_id).await;
    assert!(now.last_seq > 4);

    // A seat's stream from the middle: the backlog starts right after `after_seq`.
    let after = 2;
    let mut stream = client
        .stream_match_events(authed(
            pb::StreamMatchEventsRequest {
                match_id: seated.match_id.clone(),
                after_seq: after,
                include_legal_actions: false,
                ..Default::default()
            },
            seated.token("first"),
        ))
        .await
        .unwrap()
        .into_inner();
    let mut seen = Vec::new();
    while (seen.len() as u64) < now.last_seq - after {
        seen.extend(event_of(stream.message().await.unwrap().unwrap()));
    }
    assert_eq!(seen.first().unwrap().seq, after + 1);

    // Live: the rest of the match arrives on the same stream, then it closes.
    let mut player = server.matches().await;
    let play = tokio::spawn(async move {
        play_many(&mut player, &seated, 5_000, 2).await;
        seated
    });
    while let Some(item) = stream.message().await.unwrap() {
        seen.extend(event_of(item));
    }
    let seated = play.await.unwrap();
    let end = get(&mut client, &seated.match_id).await;
    assert_eq!(end.status, pb::MatchStatus::Finished as i32);
    let seqs: Vec<u64> = seen.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (after + 1..=end.last_seq).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
    assert!(matches!(
        seen.last().unwrap().kind,
        Some(pb::match_event::Kind::MatchEnded(_))
    ));
    for pair in seen.windows(2) {
        assert!(pair[0].version <= pair[1].version, "versions never go back");
    }

    // A spectator watching the finished match gets the same history, then the stream closes.
    let spectator = read_events(&mut client, &seated.match_id, 0, end.last_seq as usize).await;
    assert_eq!(spectator.len() as u64, end.last_seq);
    assert_eq!(
        &spectator[after as usize..],
        &seen[..],
        "Soccer Chess hides nothing"
    );
    let mut closed = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            after_seq: end.last_seq,
            include_legal_actions: false,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        closed.message().await.unwrap().is_none(),
        "nothing after the end: closed at once"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_quiet_stream_sends_heartbeats() {
    let mut settings = test_settings();
    settings.stream.heartbeat_secs = 1;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let created = create(&mut client).await;
    let mut stream = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: created.match_id.clone(),
            after_seq: 0,
            include_legal_actions: false,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let first = event_of(stream.message().await.unwrap().unwrap()).unwrap();
    assert_eq!(first.seq, 1);
    let item = tokio::time::timeout(Duration::from_secs(5), stream.message())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(
        item.item,
        Some(pb::stream_match_events_response::Item::Heartbeat(
            pb::Heartbeat { last_seq: 1 }
        ))
    );
    server.stop().await;
}

#[tokio::test]
async fn shutdown_closes_open_streams() {
    let server = start().await;
    let mut client = server.matches().await;
    let created = create(&mut client).await;
    let mut stream = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: created.match_id.clone(),
            after_seq: 0,
            include_legal_actions: false,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(event_of(stream.message().await.unwrap().unwrap()).is_some());
    tokio::time::timeout(Duration::from_secs(10), server.stop())
        .await
        .expect("graceful stop does not hang on open streams");
}
