//! `ActionDetail`: prompts and GetLegalActions list only the part of each action asked for,
//! the same actions in the same order; values the contract does not define are refused.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use pitchmate_proto::v1::stream_match_events_response::Item;
use tonic::transport::Channel;

async fn listed(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    detail: pb::ActionDetail,
) -> pb::GetLegalActionsResponse {
    client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: seated.match_id.clone(),
                detail: detail.into(),
            },
            seated.token(seat),
        ))
        .await
        .expect("legal actions")
        .into_inner()
}

/// The first prompt on a fresh stream opened at the newest event.
async fn prompt(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    after_seq: u64,
    detail: pb::ActionDetail,
) -> pb::YourTurn {
    let mut stream = client
        .stream_match_events(authed(
            pb::StreamMatchEventsRequest {
                match_id: seated.match_id.clone(),
                after_seq,
                include_legal_actions: true,
                prompt_detail: detail.into(),
            },
            seated.token(seat),
        ))
        .await
        .expect("stream")
        .into_inner();
    loop {
        match stream.message().await.unwrap().unwrap().item.unwrap() {
            Item::YourTurn(turn) => return turn,
            Item::Event(_) | Item::Heartbeat(_) => {}
        }
    }
}

/// `full` with only what `detail` keeps.
fn trimmed(full: &[pb::LegalAction], detail: pb::ActionDetail) -> Vec<pb::LegalAction> {
    full.iter()
        .map(|action| pb::LegalAction {
            index: action.index,
            action: (detail != pb::ActionDetail::Notation)
                .then(|| action.action.clone())
                .flatten(),
            notation: if detail == pb::ActionDetail::Typed {
                String::new()
            } else {
                action.notation.clone()
            },
        })
        .collect()
}

#[tokio::test]
async fn each_detail_lists_the_same_actions_spelled_out_as_asked() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    play_many(&mut client, &seated, 4, 9).await;
    let now = get(&mut client, &seated.match_id).await;
    let seat = now.turn.as_ref().unwrap().to_act[0].clone();
    let full = listed(&mut client, &seated, &seat, pb::ActionDetail::Unspecified).await;
    assert!(full.actions.len() > 1);
    assert!(
        full.actions
            .iter()
            .all(|a| a.action.is_some() && !a.notation.is_empty())
    );

    for detail in [pb::ActionDetail::Notation, pb::ActionDetail::Typed] {
        let expected = trimmed(&full.actions, detail);
        let answered = listed(&mut client, &seated, &seat, detail).await;
        assert_eq!(answered.version, full.version);
        assert_eq!(answered.actions, expected, "GetLegalActions in {detail:?}");
        let prompted = prompt(&mut client, &seated, &seat, now.last_seq, detail).await;
        assert_eq!(prompted.version, full.version);
        assert_eq!(prompted.actions, expected, "your_turn in {detail:?}");
    }
    let prompted = prompt(
        &mut client,
        &seated,
        &seat,
        now.last_seq,
        pb::ActionDetail::Unspecified,
    )
    .await;
    assert_eq!(prompted.actions, full.actions);
}

/// Nothing was kept for the state when only notation was listed; naming the action by its
/// notation still finds it.
#[tokio::test]
async fn an_action_named_from_a_notation_only_prompt_is_accepted() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let now = get(&mut client, &seated.match_id).await;
    let seat = now.turn.as_ref().unwrap().to_act[0].clone();
    let turn = prompt(
        &mut client,
        &seated,
        &seat,
        now.last_seq,
        pb::ActionDetail::Notation,
    )
    .await;
    let chosen = turn.actions.last().unwrap().notation.clone();
    let submitted = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: turn.version,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Notation(chosen.clone())),
            },
            seated.token(&seat),
        ))
        .await
        .expect("a listed notation is accepted")
        .into_inner();
    let taken = submitted
        .events
        .iter()
        .find_map(|e| match &e.kind {
            Some(pb::match_event::Kind::ActionTaken(taken)) => Some(taken.notation.clone()),
            _ => None,
        })
        .expect("an action-taken event");
    assert_eq!(taken, chosen);
}

#[tokio::test]
async fn details_the_contract_does_not_define_are_refused() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let refused = client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: seated.match_id.clone(),
                detail: 9,
            },
            seated.token("first"),
        ))
        .await
        .expect_err("an undefined detail");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&refused), "INVALID_ARGUMENT");
    assert!(refused.message().contains("`detail` 9"), "{refused:?}");

    let refused = client
        .stream_match_events(authed(
            pb::StreamMatchEventsRequest {
                match_id: seated.match_id.clone(),
                after_seq: 0,
                include_legal_actions: true,
                prompt_detail: -1,
            },
            seated.token("first"),
        ))
        .await
        .expect_err("an undefined prompt detail");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(
        refused.message().contains("`prompt_detail` -1"),
        "{refused:?}"
    );
}
