//! Requests built to hurt: undecodable bodies, huge identifiers, names with control characters,
//! durations outside protobuf's range, a seat opening stream after stream, a client guessing
//! seat tokens. Each is refused with the right code, a stable reason and a short message, and
//! changes nothing.

mod common;

use std::time::Duration;

use common::*;
use pitchmate_proto::v1 as pb;
use prost::Message;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::{Code, Request, Status};

/// Sends bytes as they are and hands back what comes, so a test can send what no generated
/// client would.
#[derive(Clone, Copy, Default)]
struct RawCodec;

impl Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> Self::Encoder {
        RawCodec
    }

    fn decoder(&mut self) -> Self::Decoder {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = Status;

    fn encode(&mut self, item: Vec<u8>, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        use prost::bytes::BufMut;
        buf.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        use prost::bytes::Buf;
        Ok(Some(buf.copy_to_bytes(buf.remaining()).to_vec()))
    }
}

/// A length-delimited field 1 that claims five bytes where one follows.
const UNDECODABLE: [u8; 3] = [0x0a, 0x05, b'a'];

#[tokio::test]
async fn undecodable_requests_are_invalid_argument_with_a_reason() {
    let server = start().await;
    let mut grpc = tonic::client::Grpc::new(server.channel().await);
    grpc.ready().await.unwrap();
    let refused = grpc
        .unary(
            Request::new(UNDECODABLE.to_vec()),
            PathAndQuery::from_static("/pitchmate.v1.MatchService/GetMatch"),
            RawCodec,
        )
        .await
        .expect_err("not a GetMatchRequest");
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(reason(&refused), "MALFORMED_MESSAGE");

    // Inside a Play stream, after a good `open`: the stream ends with the same refusal.
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let open = pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
            match_id: seated.match_id.clone(),
            ..Default::default()
        })),
    };
    let requests = tokio_stream::iter([open.encode_to_vec(), UNDECODABLE.to_vec()]);
    grpc.ready().await.unwrap();
    let mut responses = grpc
        .streaming(
            authed(requests, seated.token("first")),
            PathAndQuery::from_static("/pitchmate.v1.MatchService/Play"),
            RawCodec,
        )
        .await
        .expect("the stream opens")
        .into_inner();
    let ended = loop {
        match responses.message().await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without an error"),
            Err(status) => break status,
        }
    };
    assert_eq!(ended.code(), Code::InvalidArgument, "{ended:?}");
    assert_eq!(reason(&ended), "MALFORMED_MESSAGE");
    let unchanged = get(&mut client, &seated.match_id).await;
    assert_eq!(unchanged.version, 0);
    server.stop().await;
}

#[tokio::test]
async fn a_huge_identifier_gets_a_short_error_an_ordinary_client_can_read() {
    let server = start().await;
    let mut client = server.matches().await;
    let huge = "m".repeat(60_000);
    let refused = client
        .get_match(pb::GetMatchRequest {
            match_id: huge.clone(),
        })
        .await
        .expect_err("no such match");
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    assert_eq!(reason(&refused), "MATCH_NOT_FOUND");
    assert!(
        refused.message().len() <= 1024,
        "{}",
        refused.message().len()
    );
    assert!(
        refused.message().contains("(60000 bytes)"),
        "{}",
        refused.message()
    );
    let seated = seated(&mut client).await;
    let refused = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: 0,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Notation(huge)),
            },
            seated.token("first"),
        ))
        .await
        .expect_err("not a move of any game");
    assert!(
        refused.message().len() <= 1024,
        "{}",
        refused.message().len()
    );
    assert_eq!(get(&mut client, &seated.match_id).await.version, 0);
    server.stop().await;
}

#[tokio::test]
async fn names_with_control_characters_and_durations_out_of_range_are_refused() {
    let server = start().await;
    let mut client = server.matches().await;
    let created = create(&mut client).await;
    for name in ["bad\nname", "bell\u{7}", "nul\0", "esc\u{1b}[31m"] {
        let refused = client
            .join_match(pb::JoinMatchRequest {
                match_id: created.match_id.clone(),
                seat: String::new(),
                player_name: name.to_owned(),
            })
            .await
            .expect_err("a control character");
        assert_eq!(refused.code(), Code::InvalidArgument, "{name:?}");
        assert!(
            refused.message().contains("control character"),
            "{refused:?}"
        );
    }
    assert!(
        get(&mut client, &created.match_id)
            .await
            .seats
            .iter()
            .all(|s| !s.occupied)
    );

    for (seconds, nanos) in [(1, 2_000_000_000), (5, -1)] {
        let refused = client
            .create_match(pb::CreateMatchRequest {
                variant_id: SOCCER_CHESS.to_owned(),
                abandon_after: Some(prost_types::Duration { seconds, nanos }),
                ..Default::default()
            })
            .await
            .expect_err("nanos out of range");
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "{seconds}s {nanos}ns"
        );
        assert!(refused.message().contains("nanos"), "{refused:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_seat_opens_no_more_streams_than_its_limit() {
    let mut settings = test_settings();
    settings.limits.streams_per_seat = 2;
    let server = start_with(settings).await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let watch = || {
        authed(
            pb::StreamMatchEventsRequest {
                match_id: seated.match_id.clone(),
                ..Default::default()
            },
            seated.token("first"),
        )
    };
    let first = client.stream_match_events(watch()).await.expect("first");
    let _second = client.stream_match_events(watch()).await.expect("second");
    let refused = client
        .stream_match_events(watch())
        .await
        .expect_err("over the limit");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(reason(&refused), "SEAT_STREAM_LIMIT");
    // The other seat and spectators have places of their own.
    let mut other = watch();
    *other.metadata_mut() = authed((), seated.token("second")).metadata().clone();
    client
        .stream_match_events(other)
        .await
        .expect("the other seat");
    client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            ..Default::default()
        })
        .await
        .expect("a spectator");
    // Closing a stream frees its place.
    drop(first);
    let mut reopened = None;
    for _ in 0..100 {
        if let Ok(stream) = client.stream_match_events(watch()).await {
            reopened = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(reopened.is_some(), "a closed stream's place is free again");
    server.stop().await;
}

#[tokio::test]
async fn a_client_guessing_seat_tokens_is_throttled_and_others_are_not() {
    let mut settings = test_settings();
    settings.limits.auth_failures_per_second = 1;
    settings.limits.auth_failure_burst = 3;
    let server = start_with(settings).await;
    let mut guesser = server.matches().await;
    let seated = seated(&mut guesser).await;
    let get_with = |token: &str| {
        authed(
            pb::GetMatchRequest {
                match_id: seated.match_id.clone(),
            },
            token,
        )
    };
    for guess in 0..3 {
        let refused = guesser
            .get_match(get_with(&format!("guess-{guess}")))
            .await
            .expect_err("a wrong token");
        assert_eq!(reason(&refused), "INVALID_SEAT_TOKEN");
    }
    let throttled = guesser
        .get_match(get_with("guess-3"))
        .await
        .expect_err("the allowance is used up");
    assert_eq!(throttled.code(), Code::ResourceExhausted, "{throttled:?}");
    assert_eq!(reason(&throttled), "RATE_LIMITED");
    let details = tonic_types::StatusExt::get_error_details(&throttled);
    assert_eq!(
        details.error_info().unwrap().metadata["limit"],
        "failed_authentications"
    );
    let delay = details
        .retry_info()
        .and_then(|retry| retry.retry_delay)
        .expect("a retry delay");
    // Even the right token is not compared while the guesser is throttled.
    let locked_out = guesser
        .get_match(get_with(seated.token("first")))
        .await
        .expect_err("refused before any token is compared");
    assert_eq!(reason(&locked_out), "RATE_LIMITED");
    // Another client is not affected, and calls without a token never were.
    let mut other = server.matches_from("127.0.0.2").await;
    other
        .get_match(get_with(seated.token("first")))
        .await
        .expect("another address");
    get(&mut guesser, &seated.match_id).await;
    tokio::time::sleep(delay).await;
    guesser
        .get_match(get_with(seated.token("first")))
        .await
        .expect("after the delay");
    server.stop().await;
}
