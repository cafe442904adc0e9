//! Every documented error returns its code and reason and leaves the match unchanged.

use pitchmate_client::pb::submit_action_request::Choice;
use pitchmate_client::{Client, NewMatch, SeatHandle, pb};
use pitchmate_e2e::{TestServer, seated};
use tonic::Code;
use tonic_types::StatusExt;

fn reason(status: &tonic::Status) -> String {
    status
        .get_error_details()
        .error_info()
        .map(|i| i.reason.clone())
        .unwrap_or_default()
}

/// The match every test here plays: Soccer Chess, in whose game 1 the visitor, `second`,
/// places its pieces first.
fn soccer_chess() -> NewMatch {
    NewMatch::variant("soccer-chess").seed(3)
}

/// Version and event count: what must not move when a request is refused.
async fn fingerprint(client: &Client, match_id: &str) -> (u64, u64) {
    let m = client
        .get_match(match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    (m.version, m.last_seq)
}

fn submit(seat: &SeatHandle, version: u64, choice: Choice) -> pb::SubmitActionRequest {
    pb::SubmitActionRequest {
        match_id: seat.match_id.clone(),
        expected_version: version,
        client_action_id: String::new(),
        choice: Some(choice),
    }
}

async fn expect_refused(
    client: &Client,
    match_id: &str,
    request: tonic::Request<pb::SubmitActionRequest>,
    code: Code,
    expected_reason: &str,
) {
    let before = fingerprint(client, match_id).await;
    let status = client
        .matches()
        .submit_action(request)
        .await
        .expect_err("must be refused");
    assert_eq!(status.code(), code, "{status:?}");
    assert_eq!(reason(&status), expected_reason, "{status:?}");
    assert!(!status.message().is_empty());
    assert_eq!(
        fingerprint(client, match_id).await,
        before,
        "a refused action changed the match"
    );
}

#[tokio::test]
async fn refused_actions_leave_the_match_unchanged() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [first, second] = seated(&client, soccer_chess()).await;
    let match_id = first.match_id.clone();
    let legal = client.legal_actions(&second).await.unwrap();
    assert!(!legal.actions.is_empty(), "the visitor places first");
    let version = legal.version;

    // Not your turn: the visited seat may not act while the visitor sets up.
    let request = first
        .authorize(submit(&first, version, Choice::Index(0)))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    )
    .await;

    // Stale version.
    let request = second
        .authorize(submit(&second, version + 5, Choice::Index(0)))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::FailedPrecondition,
        "STALE_VERSION",
    )
    .await;

    // Illegal action: readable notation that no rule allows (a keeper outside its small area).
    let request = second
        .authorize(submit(&second, version, Choice::Notation("K@a10".into())))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::FailedPrecondition,
        "ILLEGAL_ACTION",
    )
    .await;

    // Malformed notation.
    let request = second
        .authorize(submit(
            &second,
            version,
            Choice::Notation("hello world".into()),
        ))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::InvalidArgument,
        "MALFORMED_NOTATION",
    )
    .await;

    // Index out of range.
    let request = second
        .authorize(submit(&second, version, Choice::Index(100_000)))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::InvalidArgument,
        "INVALID_ARGUMENT",
    )
    .await;

    // Missing token.
    let request = tonic::Request::new(submit(&second, version, Choice::Index(0)));
    expect_refused(
        &client,
        &match_id,
        request,
        Code::Unauthenticated,
        "UNAUTHENTICATED",
    )
    .await;

    // Wrong token.
    let forged = SeatHandle {
        token: "00".repeat(32),
        ..second.clone()
    };
    let request = forged
        .authorize(submit(&second, version, Choice::Index(0)))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::Unauthenticated,
        "INVALID_SEAT_TOKEN",
    )
    .await;

    // A token of another match.
    let [_, other_second] = seated(&client, soccer_chess()).await;
    let request = other_second
        .authorize(submit(&second, version, Choice::Index(0)))
        .unwrap();
    expect_refused(
        &client,
        &match_id,
        request,
        Code::Unauthenticated,
        "INVALID_SEAT_TOKEN",
    )
    .await;

    // After all that, a legal action is still accepted at the same version.
    let accepted = client
        .submit(&second, version, "ok", pitchmate_client::Choice::Index(0))
        .await
        .unwrap();
    assert_eq!(accepted.version, version + 1);
    server.stop().await;
}

#[tokio::test]
async fn unknown_match_is_not_found() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let status = client
        .matches()
        .get_match(pb::GetMatchRequest {
            match_id: "no-such-match".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    assert_eq!(reason(&status), "MATCH_NOT_FOUND");

    let [_, second] = seated(&client, soccer_chess()).await;
    let lost = SeatHandle {
        match_id: "no-such-match".into(),
        ..second
    };
    let request = lost.authorize(submit(&lost, 0, Choice::Index(0))).unwrap();
    let status = client.matches().submit_action(request).await.unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    assert_eq!(reason(&status), "MATCH_NOT_FOUND");
    server.stop().await;
}

#[tokio::test]
async fn a_retried_submit_returns_the_first_result_and_acts_once() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [_, second] = seated(&client, soccer_chess()).await;
    let legal = client.legal_actions(&second).await.unwrap();
    let choice = pitchmate_client::Choice::Index(0);
    let first_try = client
        .submit(&second, legal.version, "place-1", choice.clone())
        .await
        .unwrap();
    let retry = client
        .submit(&second, legal.version, "place-1", choice)
        .await
        .unwrap();
    assert!(!first_try.duplicate);
    assert!(retry.duplicate);
    assert_eq!(retry.version, first_try.version);
    assert_eq!(retry.events, first_try.events);
    assert_eq!(
        fingerprint(&client, &second.match_id).await.0,
        legal.version + 1
    );
    server.stop().await;
}

#[tokio::test]
async fn a_refused_typed_action_says_why_in_the_engines_words() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [_, second] = seated(&client, soccer_chess()).await;
    let version = client.legal_actions(&second).await.unwrap().version;
    let keeper_outside_its_area = pb::Action {
        game: Some(pb::action::Game::SoccerChess(pb::SoccerChessAction {
            kind: Some(pb::soccer_chess_action::Kind::Place(pb::SoccerChessPlace {
                kind: pb::SoccerChessPieceKind::Keeper.into(),
                square: Some(pb::Square {
                    file: 1,
                    rank: 10,
                    name: String::new(),
                }),
            })),
        })),
    };
    let request = second
        .authorize(submit(
            &second,
            version,
            Choice::Action(keeper_outside_its_area),
        ))
        .unwrap();
    let status = client.matches().submit_action(request).await.unwrap_err();
    assert_eq!(reason(&status), "ILLEGAL_ACTION");
    assert!(
        status.message().contains("small area"),
        "{}",
        status.message()
    );
    server.stop().await;
}
