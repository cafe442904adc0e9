//! Time control as a match option and the calls that end a match, through the SDK against a
//! real server: codes and reasons of refusals, and what the match shows afterwards. Timeouts
//! themselves are tested on paused time in the server's own tests.

use pitchmate_client::{Client, ClientError, NewMatch, SeatHandle, pb};
use pitchmate_e2e::TestServer;
use tonic::Code;

fn code_and_reason(error: ClientError) -> (Code, String) {
    let reason = error.reason().unwrap_or_default();
    match error {
        ClientError::Rpc(status) => (status.code(), reason),
        other => panic!("not an RPC error: {other}"),
    }
}

fn seconds(seconds: i64) -> Option<prost_types::Duration> {
    Some(prost_types::Duration { seconds, nanos: 0 })
}

fn fischer(base: i64, increment: i64) -> pb::TimeControl {
    pb::TimeControl {
        kind: Some(pb::time_control::Kind::Fischer(pb::FischerTime {
            base: seconds(base),
            increment: seconds(increment),
        })),
    }
}

async fn seated(client: &Client, new: NewMatch) -> (String, SeatHandle, SeatHandle) {
    let created = client.create_match(new).await.unwrap();
    let first = client.join(&created.match_id, None, "a").await.unwrap();
    let second = client.join(&created.match_id, None, "b").await.unwrap();
    (created.match_id, first, second)
}

#[tokio::test]
async fn hosting_options_are_checked_kept_and_announced() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let bad = NewMatch {
        time_control: Some(fischer(0, 2)),
        ..NewMatch::variant("kings-goal")
    };
    let refused = client.create_match(bad).await.unwrap_err();
    assert_eq!(
        code_and_reason(refused),
        (Code::InvalidArgument, "INVALID_ARGUMENT".to_owned())
    );
    let listed = client
        .matches()
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(listed.matches.is_empty(), "a refused match is not created");

    let policy = pb::TimeoutPolicy {
        action: pb::TimeoutAction::PlayDefault as i32,
        forfeit_after: 2,
    };
    let new = NewMatch {
        time_control: Some(fischer(300, 2)),
        timeout_policy: Some(policy),
        abandon_after: seconds(45),
        ..NewMatch::variant("kings-goal")
    };
    let (match_id, _, _) = seated(&client, new).await;
    let summary = client
        .get_match(&match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    assert_eq!(summary.time_control, Some(fischer(300, 2)));
    assert_eq!(summary.timeout_policy, Some(policy));
    assert_eq!(summary.abandon_after, seconds(45));
    let replay = client
        .matches()
        .get_replay(pb::GetReplayRequest {
            match_id: match_id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    let header = replay.header.unwrap();
    assert_eq!(header.time_control, Some(fischer(300, 2)));
    let turn = replay
        .events
        .iter()
        .find_map(|e| match &e.kind {
            Some(pb::match_event::Kind::TurnStarted(t)) => Some(t.clone()),
            _ => None,
        })
        .unwrap();
    let deadline = turn.deadline.unwrap();
    assert_eq!(turn.clocks.len(), 2);
    let started = replay
        .events
        .iter()
        .find(|e| matches!(e.kind, Some(pb::match_event::Kind::TurnStarted(_))))
        .unwrap()
        .time
        .unwrap();
    assert_eq!(deadline.seconds - started.seconds, 300);
    server.stop().await;
}

#[tokio::test]
async fn a_draw_is_offered_and_accepted_through_the_sdk() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let (match_id, first, second) = seated(&client, NewMatch::variant("soccer-chess")).await;
    let early = client.accept_draw(&second).await.unwrap_err();
    assert_eq!(
        code_and_reason(early),
        (Code::FailedPrecondition, "NO_DRAW_OFFER".to_owned())
    );
    let offered = client.offer_draw(&first).await.unwrap();
    assert_eq!(offered.draw_offered_by, first.seat);
    let ended = client.accept_draw(&second).await.unwrap();
    assert_eq!(ended.status(), pb::MatchStatus::Finished);
    let result = ended.result.unwrap();
    assert_eq!(result.reason(), pb::ResultReason::DrawAgreed);
    assert_eq!(result.winner, "");
    let after = client.offer_draw(&first).await.unwrap_err();
    assert_eq!(
        code_and_reason(after),
        (Code::FailedPrecondition, "MATCH_NOT_ACTIVE".to_owned())
    );
    let events =
        pitchmate_e2e::collect_events(client.watch(&match_id, 0, None).await.unwrap()).await;
    let kinds: Vec<_> = events
        .iter()
        .rev()
        .take(3)
        .map(|e| e.kind.clone())
        .collect();
    assert!(matches!(
        kinds[0],
        Some(pb::match_event::Kind::MatchEnded(_))
    ));
    assert!(matches!(
        kinds[1],
        Some(pb::match_event::Kind::DrawAccepted(_))
    ));
    assert!(matches!(
        kinds[2],
        Some(pb::match_event::Kind::DrawOffered(_))
    ));
    server.stop().await;
}

#[tokio::test]
async fn xfutebol_refuses_draw_offers_and_a_played_match_refuses_abort() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let (_, first, _) = seated(&client, NewMatch::variant("xfutebol")).await;
    let refused = client.offer_draw(&first).await.unwrap_err();
    assert_eq!(
        code_and_reason(refused),
        (Code::FailedPrecondition, "DRAW_NOT_POSSIBLE".to_owned())
    );

    let (_, first, second) = seated(&client, NewMatch::variant("kings-goal")).await;
    let legal = client.legal_actions(&first).await.unwrap();
    let mover = if legal.actions.is_empty() {
        &second
    } else {
        &first
    };
    let legal = client.legal_actions(mover).await.unwrap();
    client
        .submit(
            mover,
            legal.version,
            "one",
            pitchmate_client::Choice::Index(0),
        )
        .await
        .unwrap();
    let late = client.abort(&first).await.unwrap_err();
    assert_eq!(
        code_and_reason(late),
        (Code::FailedPrecondition, "ABORT_TOO_LATE".to_owned())
    );
    let connected = client.claim_victory(&first).await.unwrap_err();
    assert_eq!(
        code_and_reason(connected),
        (Code::FailedPrecondition, "OPPONENT_CONNECTED".to_owned())
    );

    let (_, first, _) = seated(&client, NewMatch::variant("kings-goal")).await;
    let aborted = client.abort(&first).await.unwrap();
    assert_eq!(aborted.status(), pb::MatchStatus::Aborted);
    assert_eq!(aborted.result.unwrap().reason(), pb::ResultReason::Aborted);
    server.stop().await;
}
