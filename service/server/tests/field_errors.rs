//! Every INVALID_ARGUMENT answer names the request field it is about in a
//! `google.rpc.BadRequest` field violation, besides its `ErrorInfo`; a refusal on a `Play`
//! stream names it in its metadata.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use tonic::Status;

fn duration(seconds: i64, nanos: i32) -> Option<prost_types::Duration> {
    Some(prost_types::Duration { seconds, nanos })
}

fn creating(change: impl FnOnce(&mut pb::CreateMatchRequest)) -> pb::CreateMatchRequest {
    let mut request = pb::CreateMatchRequest {
        variant_id: SOCCER_CHESS.to_owned(),
        ..Default::default()
    };
    change(&mut request);
    request
}

fn field_of<T: std::fmt::Debug>(result: Result<T, Status>) -> String {
    let status = result.expect_err("refused");
    reason(&status);
    bad_field(&status)
}

#[tokio::test]
async fn creating_and_listing_name_the_field() {
    let server = start().await;
    let mut client = server.matches().await;
    let int = |v| pb::OptionValue {
        kind: Some(pb::option_value::Kind::IntValue(v)),
    };
    let cases: Vec<(pb::CreateMatchRequest, &str)> = vec![
        (creating(|r| r.variant_id.clear()), "variant_id"),
        (
            creating(|r| {
                r.options
                    .insert("sets_per_game".into(), pb::OptionValue { kind: None });
            }),
            "options.sets_per_game",
        ),
        (
            creating(|r| {
                r.options.insert("sets_per_game".into(), int(-3));
            }),
            "options",
        ),
        (
            creating(|r| r.start_position = "nonsense".into()),
            "start_position",
        ),
        (
            creating(|r| {
                r.time_control = Some(pb::TimeControl {
                    kind: Some(pb::time_control::Kind::Fischer(pb::FischerTime {
                        base: duration(0, 0),
                        increment: None,
                    })),
                })
            }),
            "time_control.fischer.base",
        ),
        (
            creating(|r| r.abandon_after = duration(0, 500_000_000)),
            "abandon_after",
        ),
        (
            creating(|r| {
                r.timeout_policy = Some(pb::TimeoutPolicy {
                    action: 9,
                    forfeit_after: 0,
                })
            }),
            "timeout_policy.action",
        ),
    ];
    for (request, field) in cases {
        assert_eq!(field_of(client.create_match(request).await), field);
    }
    let listing = |change: fn(&mut pb::ListMatchesRequest)| {
        let mut request = pb::ListMatchesRequest::default();
        change(&mut request);
        request
    };
    for (request, field) in [
        (listing(|r| r.page_size = -1), "page_size"),
        (listing(|r| r.page_token = "zz".into()), "page_token"),
        (listing(|r| r.status = 99), "status"),
    ] {
        assert_eq!(field_of(client.list_matches(request).await), field);
    }
    let mut variants = server.variants().await;
    let refused = variants
        .list_variants(pb::ListVariantsRequest {
            page_size: -2,
            ..Default::default()
        })
        .await;
    assert_eq!(field_of(refused), "page_size");
    server.stop().await;
}

#[tokio::test]
async fn joining_acting_and_watching_name_the_field() {
    let server = start().await;
    let mut client = server.matches().await;
    let created = create(&mut client).await;
    let join = |seat: &str, name: &str| pb::JoinMatchRequest {
        match_id: created.match_id.clone(),
        seat: seat.to_owned(),
        player_name: name.to_owned(),
    };
    assert_eq!(
        field_of(client.join_match(join("", "tab\there")).await),
        "player_name"
    );
    assert_eq!(
        field_of(client.join_match(join("third", "x")).await),
        "seat"
    );
    assert_eq!(
        field_of(client.join_match(pb::JoinMatchRequest::default()).await),
        "match_id"
    );

    let seated = seated(&mut client).await;
    let mover = to_act(&mut client, &seated.match_id).await.unwrap();
    let submit = |choice| {
        authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: 0,
                client_action_id: String::new(),
                choice,
            },
            seated.token(&mover),
        )
    };
    use pb::submit_action_request::Choice;
    assert_eq!(
        field_of(client.submit_action(submit(Some(Choice::Index(999)))).await),
        "index"
    );
    assert_eq!(
        field_of(
            client
                .submit_action(submit(Some(Choice::Notation("???".into()))))
                .await
        ),
        "notation"
    );
    assert_eq!(
        field_of(
            client
                .submit_action(submit(Some(Choice::Action(pb::Action::default()))))
                .await
        ),
        "action"
    );
    assert_eq!(field_of(client.submit_action(submit(None)).await), "choice");
    assert_eq!(get(&mut client, &seated.match_id).await.version, 0);

    let legal = client
        .get_legal_actions(pb::GetLegalActionsRequest {
            match_id: seated.match_id.clone(),
            detail: 9,
        })
        .await;
    assert_eq!(field_of(legal), "detail");
    let watch = |after_seq, prompt_detail| pb::StreamMatchEventsRequest {
        match_id: seated.match_id.clone(),
        after_seq,
        include_legal_actions: false,
        prompt_detail,
    };
    assert_eq!(
        field_of(client.stream_match_events(watch(9_999, 0)).await),
        "after_seq"
    );
    assert_eq!(
        field_of(client.stream_match_events(watch(0, 7)).await),
        "prompt_detail"
    );
    let lifecycle = client
        .stream_lifecycle(pb::StreamLifecycleRequest {
            after_position: 9_999,
            ..Default::default()
        })
        .await;
    assert_eq!(field_of(lifecycle), "after_position");
    server.stop().await;
}

#[tokio::test]
async fn a_refusal_on_a_play_stream_names_the_field_in_its_metadata() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let mover = to_act(&mut client, &seated.match_id).await.unwrap();
    let open = pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
            match_id: seated.match_id.clone(),
            ..Default::default()
        })),
    };
    let act = pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Act(pb::PlayAction {
            expected_version: 0,
            client_action_id: "bad".into(),
            choice: Some(pb::play_action::Choice::Notation("???".into())),
        })),
    };
    let mut responses = client
        .play(authed(
            tokio_stream::iter([open, act]),
            seated.token(&mover),
        ))
        .await
        .expect("the stream opens")
        .into_inner();
    let refused = loop {
        let message = responses.message().await.unwrap().expect("an answer");
        if let Some(pb::play_response::Item::Acted(outcome)) = message.item {
            match outcome.result {
                Some(pb::action_outcome::Result::Refused(refused)) => break refused,
                other => panic!("{other:?}"),
            }
        }
    };
    assert_eq!(refused.reason, "MALFORMED_NOTATION");
    assert_eq!(refused.metadata["field"], "act.notation");
    server.stop().await;
}
