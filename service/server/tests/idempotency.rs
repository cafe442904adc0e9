//! A retried SubmitAction with the same client action id is answered, not played again.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn a_retry_returns_the_first_answer_even_after_the_match_moved_on() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let id = seated.match_id.clone();
    let mover = to_act(&mut client, &id).await.unwrap();
    let request = pb::SubmitActionRequest {
        match_id: id.clone(),
        expected_version: 0,
        client_action_id: "place-all".into(),
        choice: Some(pb::submit_action_request::Choice::Notation(
            "default".into(),
        )),
    };

    let first = client
        .submit_action(authed(request.clone(), seated.token(&mover)))
        .await
        .unwrap()
        .into_inner();
    assert!(!first.duplicate);
    let after_first = get(&mut client, &id).await;

    let retry = client
        .submit_action(authed(request.clone(), seated.token(&mover)))
        .await
        .unwrap()
        .into_inner();
    assert!(retry.duplicate);
    assert_eq!(retry.version, first.version);
    assert_eq!(retry.events, first.events);
    let after_retry = get(&mut client, &id).await;
    assert_eq!(
        (after_retry.version, after_retry.last_seq),
        (after_first.version, after_first.last_seq)
    );

    // Ids are per seat: the other seat placing with the same id is a new action, and it
    // moves the match on.
    let other = if mover == "first" { "second" } else { "first" };
    let theirs = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                expected_version: first.version,
                ..request.clone()
            },
            seated.token(other),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(!theirs.duplicate);
    assert_eq!(theirs.version, first.version + 1);

    // The first seat's retry still gets its original answer, not STALE_VERSION.
    let late = client
        .submit_action(authed(request, seated.token(&mover)))
        .await
        .unwrap()
        .into_inner();
    assert!(late.duplicate);
    assert_eq!(late.version, first.version);
    assert_eq!(late.events, first.events);
    server.stop().await;
}

#[tokio::test]
async fn a_refused_action_is_not_remembered() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let mover = to_act(&mut client, &seated.match_id).await.unwrap();
    let mut request = pb::SubmitActionRequest {
        match_id: seated.match_id.clone(),
        expected_version: 0,
        client_action_id: "try".into(),
        choice: Some(pb::submit_action_request::Choice::Notation("end".into())),
    };
    let refused = client
        .submit_action(authed(request.clone(), seated.token(&mover)))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "ILLEGAL_ACTION");
    request.choice = Some(pb::submit_action_request::Choice::Notation(
        "default".into(),
    ));
    let accepted = client
        .submit_action(authed(request, seated.token(&mover)))
        .await
        .unwrap()
        .into_inner();
    assert!(
        !accepted.duplicate,
        "the id of a refused action is free to use"
    );
    assert_eq!(accepted.version, 1);
    server.stop().await;
}
