//! Every error a client can provoke: its gRPC code, its ErrorInfo reason, and the match left
//! exactly as it was (same version, same number of events).

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use tonic::Code;
use tonic::transport::Channel;

fn submit(
    match_id: &str,
    version: u64,
    choice: pb::submit_action_request::Choice,
) -> pb::SubmitActionRequest {
    pb::SubmitActionRequest {
        match_id: match_id.to_owned(),
        expected_version: version,
        client_action_id: String::new(),
        choice: Some(choice),
    }
}

fn notation(text: &str) -> pb::submit_action_request::Choice {
    pb::submit_action_request::Choice::Notation(text.to_owned())
}

fn expect(
    result: Result<impl std::fmt::Debug, tonic::Status>,
    code: Code,
    wanted: &str,
) -> tonic::Status {
    let status = result.expect_err(wanted);
    assert_eq!(status.code(), code, "{wanted}: {status:?}");
    assert_eq!(reason(&status), wanted, "{status:?}");
    assert!(!status.message().is_empty());
    status
}

async fn fingerprint(client: &mut MatchServiceClient<Channel>, match_id: &str) -> (u64, u64, i32) {
    let m = get(client, match_id).await;
    (m.version, m.last_seq, m.status)
}

#[tokio::test]
async fn action_errors_leave_the_match_unchanged() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let id = seated.match_id.clone();
    let mover = to_act(&mut client, &id).await.unwrap();
    let waiter = if mover == "first" { "second" } else { "first" };
    let before = fingerprint(&mut client, &id).await;

    // No token, a malformed header, a token of no seat, a token of another match.
    expect(
        client
            .submit_action(submit(&id, 0, notation("default")))
            .await,
        Code::Unauthenticated,
        "UNAUTHENTICATED",
    );
    let mut bad_header = tonic::Request::new(submit(&id, 0, notation("default")));
    bad_header
        .metadata_mut()
        .insert("authorization", "Token abc".parse().unwrap());
    expect(
        client.submit_action(bad_header).await,
        Code::Unauthenticated,
        "UNAUTHENTICATED",
    );
    expect(
        client
            .submit_action(authed(submit(&id, 0, notation("default")), &"0".repeat(64)))
            .await,
        Code::Unauthenticated,
        "INVALID_SEAT_TOKEN",
    );
    let elsewhere = common::seated(&mut client).await;
    expect(
        client
            .submit_action(authed(
                submit(&id, 0, notation("default")),
                elsewhere.token(&mover),
            ))
            .await,
        Code::Unauthenticated,
        "INVALID_SEAT_TOKEN",
    );

    // Stale version, before the turn is checked.
    let stale = expect(
        client
            .submit_action(authed(
                submit(&id, 5, notation("default")),
                seated.token(waiter),
            ))
            .await,
        Code::FailedPrecondition,
        "STALE_VERSION",
    );
    let info = tonic_types::StatusExt::get_details_error_info(&stale).unwrap();
    assert_eq!(info.metadata["expected_version"], "5");
    assert_eq!(info.metadata["current_version"], "0");

    expect(
        client
            .submit_action(authed(
                submit(&id, 0, notation("default")),
                seated.token(waiter),
            ))
            .await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    );
    expect(
        client
            .submit_action(authed(
                submit(&id, 0, notation("%%%")),
                seated.token(&mover),
            ))
            .await,
        Code::InvalidArgument,
        "MALFORMED_NOTATION",
    );
    // Readable, but ending a set is not legal during setup.
    let illegal = expect(
        client
            .submit_action(authed(
                submit(&id, 0, notation("end")),
                seated.token(&mover),
            ))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_ACTION",
    );
    assert!(
        illegal.message().contains("default"),
        "the message lists what is legal: {}",
        illegal.message()
    );
    let end_set = pb::Action {
        game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
            kind: Some(pb::soccer_chess_action::Kind::EndSet(
                pb::SoccerChessEndSet {},
            )),
        })),
    };
    expect(
        client
            .submit_action(authed(
                submit(&id, 0, pb::submit_action_request::Choice::Action(end_set)),
                seated.token(&mover),
            ))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_ACTION",
    );
    expect(
        client
            .submit_action(authed(
                submit(
                    &id,
                    0,
                    pb::submit_action_request::Choice::Action(pb::Action { game: None }),
                ),
                seated.token(&mover),
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    );
    expect(
        client
            .submit_action(authed(
                submit(&id, 0, pb::submit_action_request::Choice::Index(100_000)),
                seated.token(&mover),
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    );
    let mut no_choice = submit(&id, 0, notation("default"));
    no_choice.choice = None;
    expect(
        client
            .submit_action(authed(no_choice, seated.token(&mover)))
            .await,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    );

    assert_eq!(
        fingerprint(&mut client, &id).await,
        before,
        "refused actions change nothing"
    );
    server.stop().await;
}

#[tokio::test]
async fn match_and_seat_errors_leave_the_match_unchanged() {
    let server = start().await;
    let mut client = server.matches().await;

    expect(
        client
            .get_match(pb::GetMatchRequest {
                match_id: "no-such-match".into(),
            })
            .await,
        Code::NotFound,
        "MATCH_NOT_FOUND",
    );
    expect(
        client
            .get_match(pb::GetMatchRequest {
                match_id: String::new(),
            })
            .await,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    );
    let create = |variant: &str,
                  options: std::collections::HashMap<String, pb::OptionValue>,
                  position: &str| pb::CreateMatchRequest {
        variant_id: variant.to_owned(),
        options,
        seed: None,
        start_position: position.to_owned(),
        ..Default::default()
    };
    let unknown = expect(
        client
            .create_match(create("tiddlywinks", short_options(), ""))
            .await,
        Code::NotFound,
        "UNKNOWN_VARIANT",
    );
    assert!(
        unknown.message().contains(SOCCER_CHESS),
        "names the variants there are"
    );
    let int = |v| pb::OptionValue {
        kind: Some(pb::option_value::Kind::IntValue(v)),
    };
    expect(
        client
            .create_match(create(
                SOCCER_CHESS,
                [("sets_per_game".to_owned(), int(0))].into(),
                "",
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_OPTION",
    );
    expect(
        client
            .create_match(create(
                SOCCER_CHESS,
                [("no_such_option".to_owned(), int(1))].into(),
                "",
            ))
            .await,
        Code::InvalidArgument,
        "INVALID_OPTION",
    );
    expect(
        client
            .create_match(create(SOCCER_CHESS, short_options(), "not a position"))
            .await,
        Code::InvalidArgument,
        "INVALID_POSITION",
    );
    assert!(
        client
            .list_matches(pb::ListMatchesRequest::default())
            .await
            .unwrap()
            .into_inner()
            .matches
            .is_empty(),
        "nothing was created"
    );

    let created = common::create(&mut client).await;
    let id = created.match_id.clone();
    let join = |seat: &str| pb::JoinMatchRequest {
        match_id: id.clone(),
        seat: seat.to_owned(),
        player_name: "p".into(),
    };
    expect(
        client.join_match(join("third")).await,
        Code::InvalidArgument,
        "UNKNOWN_SEAT",
    );
    let first = client.join_match(join("first")).await.unwrap().into_inner();
    let before = fingerprint(&mut client, &id).await;
    expect(
        client.join_match(join("first")).await,
        Code::FailedPrecondition,
        "SEAT_TAKEN",
    );
    // Waiting for the second seat: nothing can be played or resigned yet.
    expect(
        client
            .submit_action(authed(
                submit(&id, 0, notation("default")),
                &first.seat_token,
            ))
            .await,
        Code::FailedPrecondition,
        "MATCH_NOT_ACTIVE",
    );
    expect(
        client
            .resign(authed(
                pb::ResignRequest {
                    match_id: id.clone(),
                },
                &first.seat_token,
            ))
            .await,
        Code::FailedPrecondition,
        "MATCH_NOT_ACTIVE",
    );
    expect(
        client
            .resign(pb::ResignRequest {
                match_id: id.clone(),
            })
            .await,
        Code::Unauthenticated,
        "UNAUTHENTICATED",
    );
    expect(
        client
            .stream_match_events(pb::StreamMatchEventsRequest {
                match_id: id.clone(),
                after_seq: 1_000,
                include_legal_actions: false,
                ..Default::default()
            })
            .await,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    );
    expect(
        client
            .get_match(authed(
                pb::GetMatchRequest {
                    match_id: id.clone(),
                },
                "wrong",
            ))
            .await,
        Code::Unauthenticated,
        "INVALID_SEAT_TOKEN",
    );
    assert_eq!(fingerprint(&mut client, &id).await, before);

    client.join_match(join("")).await.unwrap();
    expect(
        client.join_match(join("")).await,
        Code::FailedPrecondition,
        "NO_FREE_SEAT",
    );
    client
        .resign(authed(
            pb::ResignRequest {
                match_id: id.clone(),
            },
            &first.seat_token,
        ))
        .await
        .unwrap();
    let over = fingerprint(&mut client, &id).await;
    expect(
        client
            .submit_action(authed(
                submit(&id, over.0, notation("default")),
                &first.seat_token,
            ))
            .await,
        Code::FailedPrecondition,
        "MATCH_NOT_ACTIVE",
    );
    assert_eq!(fingerprint(&mut client, &id).await, over);
    server.stop().await;
}
