//! `Play`: one stream per seat carries its prompts and events one way and its actions the other;
//! each action is answered in-band, after the events it caused, and a refused one changes
//! nothing and leaves the stream open.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use pitchmate_proto::v1::play_response::Item;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// One seat's open `Play` stream: what to send on, what to read from.
struct PlayStream {
    send: mpsc::Sender<pb::PlayRequest>,
    responses: Streaming<pb::PlayResponse>,
}

fn open(match_id: &str, after_seq: u64) -> pb::PlayRequest {
    pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
            match_id: match_id.to_owned(),
            after_seq,
            prompt_detail: 0,
        })),
    }
}

fn act(version: u64, client_action_id: &str, index: Option<u32>) -> pb::PlayRequest {
    pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Act(pb::PlayAction {
            expected_version: version,
            client_action_id: client_action_id.to_owned(),
            choice: index.map(pb::play_action::Choice::Index),
        })),
    }
}

/// Opens `Play` with `first` as its first request and `token` as the bearer token, if any.
async fn play_with(
    client: &mut MatchServiceClient<Channel>,
    first: pb::PlayRequest,
    token: Option<&str>,
) -> Result<PlayStream, tonic::Status> {
    let (send, requests) = mpsc::channel(8);
    send.send(first).await.expect("queue the first request");
    let requests = ReceiverStream::new(requests);
    let request = match token {
        Some(token) => authed(requests, token),
        None => tonic::Request::new(requests),
    };
    let responses = client.play(request).await?.into_inner();
    Ok(PlayStream { send, responses })
}

async fn play_seat(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    after_seq: u64,
) -> PlayStream {
    play_with(
        client,
        open(&seated.match_id, after_seq),
        Some(seated.token(seat)),
    )
    .await
    .expect("Play opens")
}

impl PlayStream {
    async fn next(&mut self) -> Item {
        self.responses
            .message()
            .await
            .expect("a healthy stream")
            .expect("the stream is open")
            .item
            .expect("an item")
    }

    /// Reads up to the next prompt, skipping events and heartbeats.
    async fn prompt(&mut self) -> pb::YourTurn {
        loop {
            match self.next().await {
                Item::YourTurn(turn) => return turn,
                Item::Acted(outcome) => panic!("an outcome nobody asked for: {outcome:?}"),
                Item::Event(_) | Item::Heartbeat(_) => {}
            }
        }
    }

    /// Reads up to the next outcome, skipping events and heartbeats.
    async fn outcome(&mut self) -> pb::ActionOutcome {
        loop {
            match self.next().await {
                Item::Acted(outcome) => return outcome,
                Item::YourTurn(turn) => panic!("a prompt before the outcome: {turn:?}"),
                Item::Event(_) | Item::Heartbeat(_) => {}
            }
        }
    }

    async fn send(&self, request: pb::PlayRequest) {
        self.send
            .send(request)
            .await
            .expect("the stream takes requests");
    }
}

/// A seated match, the seat to act, its open `Play` stream and the prompt it opened with.
struct Prompted {
    client: MatchServiceClient<Channel>,
    seated: Seated,
    seat: String,
    stream: PlayStream,
    turn: pb::YourTurn,
}

async fn prompted(server: &TestServer) -> Prompted {
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let seat = to_act(&mut client, &seated.match_id).await.expect("to act");
    let mut stream = play_seat(&mut client, &seated, &seat, 0).await;
    let turn = stream.prompt().await;
    Prompted {
        client,
        seated,
        seat,
        stream,
        turn,
    }
}

fn refused(outcome: pb::ActionOutcome) -> pb::ActionRefused {
    match outcome.result {
        Some(pb::action_outcome::Result::Refused(refused)) => refused,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn accepted(outcome: pb::ActionOutcome) -> pb::ActionAccepted {
    match outcome.result {
        Some(pb::action_outcome::Result::Accepted(accepted)) => accepted,
        other => panic!("expected acceptance, got {other:?}"),
    }
}

/// What one seat saw while playing a whole match over `Play`.
#[derive(Debug, Default)]
struct SeatLog {
    events: Vec<pb::MatchEvent>,
    accepted: u64,
}

/// Plays `seat` with random legal actions until its stream ends, checking the order of what
/// arrives: each outcome follows the events its action caused, and the stream's events are the
/// whole history without a gap.
async fn play_to_the_end(
    mut client: MatchServiceClient<Channel>,
    seated: &Seated,
    seat: &str,
    seed: u64,
) -> SeatLog {
    let mut rng = Lcg(seed);
    let mut log = SeatLog::default();
    let mut stream = play_seat(&mut client, seated, seat, 0).await;
    let mut waiting_for: Option<String> = None;
    while let Some(message) = stream.responses.message().await.expect("stream item") {
        match message.item.expect("an item") {
            Item::Event(event) => log.events.push(event),
            Item::Heartbeat(_) => {}
            Item::YourTurn(turn) => {
                assert!(waiting_for.is_none(), "a prompt while an action is pending");
                let id = format!("{seat}@{}", turn.version);
                let index = turn.actions[rng.below(turn.actions.len())].index;
                stream.send(act(turn.version, &id, Some(index))).await;
                waiting_for = Some(id);
            }
            Item::Acted(outcome) => {
                assert_eq!(Some(&outcome.client_action_id), waiting_for.as_ref());
                waiting_for = None;
                let accepted = accepted(outcome);
                assert!(!accepted.duplicate);
                let newest = log.events.last().expect("events came first");
                assert_eq!(
                    newest.version, accepted.version,
                    "the outcome comes after the events of its action"
                );
                log.accepted += 1;
            }
        }
    }
    assert!(waiting_for.is_none(), "every action was answered");
    log
}

#[tokio::test]
async fn two_seats_play_a_whole_match_over_play_streams() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = std::sync::Arc::new(seated(&mut client).await);
    let logs = both_seats(&server, &seated, |client, seated, seat, seed| async move {
        play_to_the_end(client, &seated, seat, seed + 11).await
    })
    .await;

    let end = get(&mut client, &seated.match_id).await;
    assert_eq!(end.status, pb::MatchStatus::Finished as i32);
    let accepted: u64 = logs.iter().map(|l| l.accepted).sum();
    assert_eq!(accepted, end.version, "every action came over Play");
    for log in &logs {
        assert!(log.accepted > 0);
        let seqs: Vec<u64> = log.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=end.last_seq).collect::<Vec<_>>());
    }
}

#[tokio::test]
async fn a_refused_action_changes_nothing_and_the_stream_goes_on() {
    let server = start().await;
    let Prompted {
        mut client,
        seated,
        mut stream,
        turn,
        ..
    } = prompted(&server).await;
    let before = get(&mut client, &seated.match_id).await;

    stream.send(act(turn.version + 5, "stale", Some(0))).await;
    let stale = refused(stream.outcome().await);
    assert_eq!(stale.code, Code::FailedPrecondition as i32);
    assert_eq!(stale.reason, "STALE_VERSION");
    assert_eq!(stale.metadata["current_version"], turn.version.to_string());
    assert!(stale.retry_delay.is_none());

    stream.send(act(turn.version, "beyond", Some(10_000))).await;
    let beyond = refused(stream.outcome().await);
    assert_eq!(beyond.code, Code::InvalidArgument as i32);
    assert_eq!(beyond.reason, "INVALID_ARGUMENT");
    assert!(
        beyond.message.contains("out of range"),
        "{}",
        beyond.message
    );

    stream.send(act(turn.version, "nothing", None)).await;
    let nothing = refused(stream.outcome().await);
    assert_eq!(nothing.code, Code::InvalidArgument as i32);
    assert_eq!(nothing.reason, "INVALID_ARGUMENT");
    assert!(
        nothing.message.contains("no action given"),
        "{}",
        nothing.message
    );

    let unchanged = get(&mut client, &seated.match_id).await;
    assert_eq!(unchanged.version, before.version);
    assert_eq!(unchanged.last_seq, before.last_seq);

    stream.send(act(turn.version, "good", Some(0))).await;
    let outcome = stream.outcome().await;
    assert_eq!(outcome.client_action_id, "good");
    assert_eq!(accepted(outcome).version, turn.version + 1);
}

#[tokio::test]
async fn an_action_sent_again_is_answered_with_its_first_outcome() {
    let server = start().await;
    let Prompted {
        mut client,
        seated,
        seat,
        mut stream,
        turn,
    } = prompted(&server).await;

    stream.send(act(turn.version, "once", Some(0))).await;
    let first = accepted(stream.outcome().await);
    assert!(!first.duplicate);
    stream.send(act(turn.version, "once", Some(0))).await;
    let again = accepted(stream.outcome().await);
    assert!(again.duplicate);
    assert_eq!(again.version, first.version);

    // The same id through SubmitAction is the same action too.
    let unary = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: turn.version,
                client_action_id: "once".to_owned(),
                choice: Some(pb::submit_action_request::Choice::Index(0)),
            },
            seated.token(&seat),
        ))
        .await
        .expect("a retry is answered")
        .into_inner();
    assert!(unary.duplicate);
    assert_eq!(unary.version, first.version);
    assert_eq!(
        get(&mut client, &seated.match_id).await.version,
        first.version
    );
}

#[tokio::test]
async fn the_rate_limit_refuses_in_band_with_the_delay() {
    let mut settings = test_settings();
    settings.limits.actions_per_second = 1;
    settings.limits.action_burst = 1;
    let server = start_with(settings).await;
    let Prompted {
        mut client,
        seated,
        mut stream,
        turn,
        ..
    } = prompted(&server).await;

    // The first spends the burst; the second finds the bucket empty.
    stream.send(act(turn.version + 1, "a", Some(0))).await;
    assert_eq!(refused(stream.outcome().await).reason, "STALE_VERSION");
    stream.send(act(turn.version, "b", Some(0))).await;
    let limited = refused(stream.outcome().await);
    assert_eq!(limited.code, Code::ResourceExhausted as i32);
    assert_eq!(limited.reason, "RATE_LIMITED");
    let delay = std::time::Duration::try_from(limited.retry_delay.expect("a retry delay"))
        .expect("a positive delay");
    assert!(delay > std::time::Duration::ZERO && delay <= std::time::Duration::from_secs(1));
    assert_eq!(
        get(&mut client, &seated.match_id).await.version,
        turn.version,
        "a rate-limited action changed nothing"
    );

    tokio::time::sleep(delay).await;
    stream.send(act(turn.version, "b", Some(0))).await;
    assert_eq!(accepted(stream.outcome().await).version, turn.version + 1);
}

#[tokio::test]
async fn a_stream_resumes_after_the_seq_it_names() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    play_many(&mut client, &seated, 6, 3).await;
    let now = get(&mut client, &seated.match_id).await;
    let after_seq = now.last_seq - 3;
    let mut stream = play_seat(&mut client, &seated, "first", after_seq).await;
    let mut seqs = Vec::new();
    while seqs.len() < 3 {
        if let Item::Event(event) = stream.next().await {
            seqs.push(event.seq);
        }
    }
    assert_eq!(seqs, (after_seq + 1..=now.last_seq).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_stream_opened_wrongly_is_refused() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let token = seated.token("first");

    let status = |result: Result<PlayStream, tonic::Status>| match result {
        Ok(_) => panic!("Play opened"),
        Err(status) => status,
    };
    let spectator = status(play_with(&mut client, open(&seated.match_id, 0), None).await);
    assert_eq!(spectator.code(), Code::Unauthenticated);
    assert_eq!(reason(&spectator), "UNAUTHENTICATED");

    let stranger = status(play_with(&mut client, open(&seated.match_id, 0), Some("nope")).await);
    assert_eq!(stranger.code(), Code::Unauthenticated);
    assert_eq!(reason(&stranger), "INVALID_SEAT_TOKEN");

    let unknown = status(play_with(&mut client, open("no-such-match", 0), Some(token)).await);
    assert_eq!(unknown.code(), Code::NotFound);
    assert_eq!(reason(&unknown), "MATCH_NOT_FOUND");

    let act_first = status(play_with(&mut client, act(0, "x", Some(0)), Some(token)).await);
    assert_eq!(act_first.code(), Code::InvalidArgument);
    assert_eq!(reason(&act_first), "INVALID_ARGUMENT");
    assert!(act_first.message().contains("open"));

    let bad_detail = pb::PlayRequest {
        kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
            match_id: seated.match_id.clone(),
            after_seq: 0,
            prompt_detail: 42,
        })),
    };
    let bad_detail = status(play_with(&mut client, bad_detail, Some(token)).await);
    assert_eq!(bad_detail.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn opening_twice_ends_the_stream_with_an_error() {
    let server = start().await;
    let mut client = server.matches().await;
    let seated = seated(&mut client).await;
    let mut stream = play_seat(&mut client, &seated, "first", 0).await;
    stream.send(open(&seated.match_id, 0)).await;
    let error = loop {
        match stream.responses.message().await {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the stream ended without an error"),
            Err(status) => break status,
        }
    };
    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(reason(&error), "INVALID_ARGUMENT");
    assert!(error.message().contains("only be the first"));
}

#[tokio::test]
async fn an_open_play_stream_keeps_its_seat_connected() {
    let server = start().await;
    let mut client = server.matches().await;
    let created = client
        .create_match(pb::CreateMatchRequest {
            variant_id: SOCCER_CHESS.to_owned(),
            options: short_options(),
            abandon_after: Some(prost_types::Duration {
                seconds: 1,
                nanos: 0,
            }),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .r#match
        .expect("match");
    let mut tokens = std::collections::HashMap::new();
    for seat in ["first", "second"] {
        let joined = client
            .join_match(pb::JoinMatchRequest {
                match_id: created.match_id.clone(),
                seat: seat.to_owned(),
                player_name: seat.to_owned(),
            })
            .await
            .expect("join")
            .into_inner();
        tokens.insert(joined.seat, joined.seat_token);
    }
    let seated = Seated {
        match_id: created.match_id.clone(),
        tokens,
    };
    let claim = |client: &mut MatchServiceClient<Channel>| {
        let mut client = client.clone();
        let request = authed(
            pb::ClaimVictoryRequest {
                match_id: seated.match_id.clone(),
            },
            seated.token("second"),
        );
        async move { client.claim_victory(request).await }
    };

    let stream = play_seat(&mut client, &seated, "first", 0).await;
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let refused = claim(&mut client).await.expect_err("first is connected");
    assert_eq!(reason(&refused), "OPPONENT_CONNECTED");

    drop(stream);
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let won = claim(&mut client)
        .await
        .expect("first has been away for abandon_after")
        .into_inner()
        .r#match
        .expect("match");
    assert_eq!(won.status, pb::MatchStatus::Finished as i32);
}

#[tokio::test]
async fn an_oversized_action_ends_the_stream_and_changes_nothing() {
    let mut settings = test_settings();
    settings.limits.max_request_bytes = 1024;
    let server = start_with(settings).await;
    let Prompted {
        mut client,
        seated,
        mut stream,
        turn,
        ..
    } = prompted(&server).await;
    stream
        .send(pb::PlayRequest {
            kind: Some(pb::play_request::Kind::Act(pb::PlayAction {
                expected_version: turn.version,
                client_action_id: "big".to_owned(),
                choice: Some(pb::play_action::Choice::Notation("x".repeat(2048))),
            })),
        })
        .await;
    let error = loop {
        match stream.responses.message().await {
            Ok(Some(message)) => assert!(
                !matches!(message.item, Some(Item::Acted(_))),
                "an oversized action got an outcome: {message:?}"
            ),
            Ok(None) => panic!("the stream ended without an error"),
            Err(status) => break status,
        }
    };
    assert_eq!(error.code(), Code::ResourceExhausted, "{error:?}");
    assert_eq!(reason(&error), "MESSAGE_TOO_LARGE");
    assert_eq!(
        get(&mut client, &seated.match_id).await.version,
        turn.version
    );
}
