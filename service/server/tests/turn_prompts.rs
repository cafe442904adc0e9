//! `include_legal_actions` on StreamMatchEvents: a seat's stream says when it is to act, with
//! the legal actions, after the events that led there, once per version; a whole match can be
//! played from the prompts and SubmitAction alone.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use pitchmate_proto::v1::stream_match_events_response::Item;
use tonic::Streaming;
use tonic::transport::Channel;

async fn prompted_stream(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    after_seq: u64,
) -> Streaming<pb::StreamMatchEventsResponse> {
    client
        .stream_match_events(authed(
            pb::StreamMatchEventsRequest {
                match_id: seated.match_id.clone(),
                after_seq,
                include_legal_actions: true,
                ..Default::default()
            },
            seated.token(seat),
        ))
        .await
        .expect("stream")
        .into_inner()
}

/// What one seat saw and did while playing from its prompts.
#[derive(Debug, Default)]
struct SeatLog {
    prompts: u64,
    submitted: u64,
    events: Vec<pb::MatchEvent>,
}

/// Plays `seat` from its prompts until its stream closes. Every prompt must come right after
/// the event of its version, name a version never prompted before, and list exactly what
/// GetLegalActions lists at that version.
async fn play_from_prompts(
    mut client: MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    seed: u64,
) -> SeatLog {
    let mut rng = Lcg(seed);
    let mut log = SeatLog::default();
    let mut stream = prompted_stream(&mut client, seated, seat, 0).await;
    let mut last_prompted = None;
    while let Some(item) = stream.message().await.expect("stream item") {
        match item.item.expect("an item") {
            Item::Event(event) => log.events.push(event),
            Item::Heartbeat(_) => {}
            Item::YourTurn(turn) => {
                log.prompts += 1;
                let newest = log.events.last().expect("prompts follow events");
                assert_eq!(
                    turn.version, newest.version,
                    "a prompt comes after the events that led to its version"
                );
                assert!(
                    last_prompted < Some(turn.version),
                    "one prompt per version, in order: {last_prompted:?} then {}",
                    turn.version
                );
                last_prompted = Some(turn.version);
                let turn_info = turn.turn.clone().expect("turn");
                assert!(turn_info.to_act.iter().any(|s| s == seat));
                let listed = client
                    .get_legal_actions(authed(
                        pb::GetLegalActionsRequest {
                            match_id: seated.match_id.clone(),
                            ..Default::default()
                        },
                        seated.token(seat),
                    ))
                    .await
                    .expect("legal actions")
                    .into_inner();
                assert_eq!(listed.version, turn.version);
                assert_eq!(listed.actions, turn.actions);
                assert!(!turn.actions.is_empty());
                let index = turn.actions[rng.below(turn.actions.len())].index;
                client
                    .submit_action(authed(
                        pb::SubmitActionRequest {
                            match_id: seated.match_id.clone(),
                            expected_version: turn.version,
                            client_action_id: format!("{seat}@{}", turn.version),
                            choice: Some(pb::submit_action_request::Choice::Index(index)),
                        },
                        seated.token(seat),
                    ))
                    .await
                    .expect("an action from a prompt is accepted");
                log.submitted += 1;
            }
        }
    }
    log
}

#[tokio::test]
async fn two_seats_play_a_whole_match_from_their_prompts() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = std::sync::Arc::new(seated(&mut client).await);
    let logs = both_seats(&server, &seated, |client, seated, seat, seed| async move {
        play_from_prompts(client, &seated, seat, seed + 3).await
    })
    .await;

    let end = get(&mut client, &seated.match_id).await;
    assert_eq!(end.status, pb::MatchStatus::Finished as i32);
    let actions_taken = logs[0]
        .events
        .iter()
        .filter(|e| matches!(e.kind, Some(pb::match_event::Kind::ActionTaken(_))))
        .count() as u64;
    let submitted: u64 = logs.iter().map(|l| l.submitted).sum();
    assert_eq!(submitted, actions_taken, "every action came from a prompt");
    assert_eq!(end.version, actions_taken);
    for log in &logs {
        assert!(log.prompts > 0);
        assert_eq!(log.prompts, log.submitted, "every prompt was answered once");
        assert_eq!(log.events.len() as u64, end.last_seq, "the whole history");
    }
}

#[tokio::test]
async fn only_the_seat_to_act_is_prompted_and_at_once() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    play_many(&mut client, &seated, 3, 5).await;
    let now = get(&mut client, &seated.match_id).await;
    let to_act = now.turn.as_ref().unwrap().to_act[0].clone();
    let waiting = if to_act == "first" { "second" } else { "first" };

    // Opened at the newest event: the seat to act is prompted before anything else happens.
    let mut acting = prompted_stream(&mut client, &seated, &to_act, now.last_seq).await;
    let item = acting.message().await.unwrap().unwrap().item.unwrap();
    let Item::YourTurn(turn) = item else {
        panic!("expected a prompt first, got {item:?}");
    };
    assert_eq!(turn.version, now.version);

    // The waiting seat hears nothing until the acting seat acts; then the events, then its prompt.
    let mut other = prompted_stream(&mut client, &seated, waiting, now.last_seq).await;
    let submitted = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: turn.version,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Index(0)),
            },
            seated.token(&to_act),
        ))
        .await
        .unwrap()
        .into_inner();
    let after = get(&mut client, &seated.match_id).await;
    let next = after.turn.as_ref().unwrap().to_act[0].clone();
    let prompted_stream_of_next = if next == to_act {
        &mut acting
    } else {
        &mut other
    };
    let mut events = 0;
    loop {
        match prompted_stream_of_next
            .message()
            .await
            .unwrap()
            .unwrap()
            .item
            .unwrap()
        {
            Item::Event(_) => events += 1,
            Item::Heartbeat(_) => {}
            Item::YourTurn(turn) => {
                assert_eq!(turn.version, submitted.version);
                break;
            }
        }
    }
    assert_eq!(
        events,
        submitted.events.len(),
        "the action's events come first"
    );
}

#[tokio::test]
async fn a_spectator_asking_for_prompts_is_refused() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let refused = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            after_seq: 0,
            include_legal_actions: true,
            ..Default::default()
        })
        .await
        .expect_err("prompts need a seat");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    assert_eq!(reason(&refused), "UNAUTHENTICATED");
}
