//! TournamentService's contract short of playing a whole event: who may create, enter, pause
//! and withdraw, and how each refusal reads; when entries close; a paused bot sits out and a
//! withdrawn one cannot come back; and the tournament's stream resumes after any seq with
//! nothing missed or repeated.

mod common;

use std::time::Duration;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::tournament_service_client::TournamentServiceClient;
use tonic::Code;
use tonic::transport::Channel;

struct Bot {
    id: String,
    key: String,
}

async fn register(channel: &Channel, name: &str) -> Bot {
    let created = BotServiceClient::new(channel.clone())
        .create_bot(pb::CreateBotRequest {
            name: name.to_owned(),
            ..Default::default()
        })
        .await
        .expect("create bot")
        .into_inner();
    Bot {
        id: created.bot.unwrap().bot_id,
        key: created.secret,
    }
}

fn swiss(rounds: u32) -> pb::TournamentSpec {
    pb::TournamentSpec {
        name: "Contract".into(),
        kind: pb::TournamentKind::Swiss as i32,
        terms: Some(pb::MatchTerms {
            variant_id: "kings-goal".into(),
            ..Default::default()
        }),
        rounds,
        seed: Some(1),
        ..Default::default()
    }
}

fn enter(id: &str, bot: &str, key: &str) -> tonic::Request<pb::EnterTournamentRequest> {
    authed(
        pb::EnterTournamentRequest {
            tournament_id: id.to_owned(),
            bot: bot.to_owned(),
        },
        key,
    )
}

fn set_status(
    id: &str,
    status: pb::EntryStatus,
    key: &str,
) -> tonic::Request<pb::SetEntryStatusRequest> {
    authed(
        pb::SetEntryStatusRequest {
            tournament_id: id.to_owned(),
            bot: String::new(),
            status: status as i32,
        },
        key,
    )
}

/// A server, a client of its TournamentService, and an operator key made before the server
/// opened the store (as an operator does).
async fn operated() -> (
    TestServer,
    Channel,
    TournamentServiceClient<Channel>,
    String,
) {
    let settings = test_settings();
    let operator = pitchmate_server::server::create_operator_key(&settings, "tests".into())
        .await
        .unwrap();
    let server = start_with(settings).await;
    let channel = server.channel().await;
    let tournaments = TournamentServiceClient::new(channel.clone());
    (server, channel, tournaments, operator.secret)
}

async fn create(
    tournaments: &mut TournamentServiceClient<Channel>,
    spec: pb::TournamentSpec,
    operator: &str,
) -> pb::Tournament {
    tournaments
        .create_tournament(authed(
            pb::CreateTournamentRequest { spec: Some(spec) },
            operator,
        ))
        .await
        .unwrap()
        .into_inner()
        .tournament
        .unwrap()
}

#[tokio::test]
async fn only_operators_create_and_bad_specs_are_refused_by_field() {
    let (server, channel, mut tournaments, operator) = operated().await;
    let bot = register(&channel, "eager").await;
    let refused = tournaments
        .create_tournament(authed(
            pb::CreateTournamentRequest {
                spec: Some(swiss(3)),
            },
            &bot.key,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert_eq!(reason(&refused), "MISSING_SCOPE");

    let create = |spec| authed(pb::CreateTournamentRequest { spec: Some(spec) }, &operator);
    for (spec, field) in [
        (swiss(0), "spec.rounds"),
        (
            pb::TournamentSpec {
                kind: 0,
                ..swiss(3)
            },
            "spec.kind",
        ),
        (
            pb::TournamentSpec {
                name: String::new(),
                ..swiss(3)
            },
            "spec.name",
        ),
        (
            pb::TournamentSpec {
                terms: Some(pb::MatchTerms {
                    variant_id: "chess".into(),
                    ..Default::default()
                }),
                ..swiss(3)
            },
            "terms.variant_id",
        ),
        (
            pb::TournamentSpec {
                tie_breaks: vec![pb::TieBreak::Wins as i32, pb::TieBreak::Wins as i32],
                ..swiss(3)
            },
            "spec.tie_breaks",
        ),
    ] {
        let refused = tournaments
            .create_tournament(create(spec))
            .await
            .unwrap_err();
        assert_eq!(bad_field(&refused), field, "{refused:?}");
    }
    let missing = tournaments
        .get_tournament(pb::GetTournamentRequest {
            tournament_id: "nope".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&missing), "TOURNAMENT_NOT_FOUND");

    // A document is read up to `limits.max_document_bytes` (4 MiB), not the 64 KiB of other
    // requests, and one that is no export says so.
    let not_an_export = tournaments
        .verify_tournament(pb::VerifyTournamentRequest {
            source: Some(pb::verify_tournament_request::Source::Document(
                " ".repeat(100_000),
            )),
        })
        .await
        .unwrap_err();
    assert_eq!(bad_field(&not_an_export), "document");
    let too_large = tournaments
        .verify_tournament(pb::VerifyTournamentRequest {
            source: Some(pb::verify_tournament_request::Source::Document(
                " ".repeat(5 << 20),
            )),
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&too_large), "MESSAGE_TOO_LARGE");
    assert!(
        too_large.message().contains("max_document_bytes"),
        "{too_large:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn entries_close_pauses_sit_out_and_withdrawals_are_final() {
    let (server, channel, mut tournaments, operator) = operated().await;
    let created = create(&mut tournaments, swiss(2), &operator).await;
    let id = created.tournament_id.clone();
    assert_eq!(created.status, pb::TournamentStatus::Open as i32);
    assert_eq!(created.rounds_planned, 2);
    let mut bots = Vec::new();
    for name in ["a", "b", "c", "d", "e"] {
        bots.push(register(&channel, name).await);
    }
    for bot in &bots[..4] {
        let entry = tournaments
            .enter_tournament(enter(&id, "", &bot.key))
            .await
            .unwrap()
            .into_inner()
            .entry
            .unwrap();
        assert_eq!((entry.rating, entry.first_round), (1500, 1));
    }
    // Entering again changes nothing; a bot cannot enter another bot; an operator can.
    tournaments
        .enter_tournament(enter(&id, "", &bots[0].key))
        .await
        .unwrap();
    let other = tournaments
        .enter_tournament(enter(&id, "e", &bots[0].key))
        .await
        .unwrap_err();
    assert_eq!(reason(&other), "NOT_YOUR_BOT");

    // d pauses: round 1 pairs a, b, c (one bye), and d is not in its field.
    tournaments
        .set_entry_status(set_status(&id, pb::EntryStatus::Paused, &bots[3].key))
        .await
        .unwrap();
    tournaments
        .start_tournament(authed(
            pb::StartTournamentRequest {
                tournament_id: id.clone(),
            },
            &operator,
        ))
        .await
        .unwrap();
    let rounds = tournaments
        .list_rounds(pb::ListRoundsRequest {
            tournament_id: id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .rounds;
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].field.len(), 3);
    assert!(!rounds[0].field.contains(&bots[3].id));
    assert_eq!(rounds[0].pairings.len(), 1);
    assert!(!rounds[0].bye_bot_id.is_empty());

    // Late entries are open until half the rounds are paired: 1 of 2 is half.
    let late = tournaments
        .enter_tournament(enter(&id, "", &bots[4].key))
        .await
        .unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(reason(&late), "ENTRIES_CLOSED");

    // A withdrawal is final.
    tournaments
        .set_entry_status(set_status(&id, pb::EntryStatus::Withdrawn, &bots[3].key))
        .await
        .unwrap();
    let back = tournaments
        .set_entry_status(set_status(&id, pb::EntryStatus::Active, &bots[3].key))
        .await
        .unwrap_err();
    assert_eq!(reason(&back), "ENTRY_WITHDRAWN");
    let stranger = tournaments
        .set_entry_status(set_status(&id, pb::EntryStatus::Paused, &bots[4].key))
        .await
        .unwrap_err();
    assert_eq!(reason(&stranger), "NOT_ENTERED");

    // The standings already count the bye as a win.
    let standings = tournaments
        .get_standings(pb::GetStandingsRequest {
            tournament_id: id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .standings;
    let bye = standings
        .iter()
        .find(|s| s.bot_id == rounds[0].bye_bot_id)
        .unwrap();
    assert_eq!((bye.points, bye.byes), (1.0, 1));

    let cancelled = tournaments
        .cancel_tournament(authed(
            pb::CancelTournamentRequest {
                tournament_id: id.clone(),
            },
            &operator,
        ))
        .await
        .unwrap()
        .into_inner()
        .tournament
        .unwrap();
    assert_eq!(cancelled.status, pb::TournamentStatus::Cancelled as i32);
    let again = tournaments
        .cancel_tournament(authed(
            pb::CancelTournamentRequest {
                tournament_id: id.clone(),
            },
            &operator,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&again), "TOURNAMENT_OVER");
    server.stop().await;
}

/// Reads updates until `count` have come, or panics after a while.
async fn take(
    stream: &mut tonic::Streaming<pb::WatchTournamentResponse>,
    count: usize,
) -> Vec<u64> {
    let mut seqs = Vec::new();
    while seqs.len() < count {
        let update = tokio::time::timeout(Duration::from_secs(10), stream.message())
            .await
            .expect("an update in time")
            .expect("the stream")
            .expect("not ended");
        seqs.push(update.seq);
    }
    seqs
}

#[tokio::test]
async fn the_stream_resumes_after_any_seq() {
    let (server, channel, mut tournaments, operator) = operated().await;
    let id = create(&mut tournaments, swiss(3), &operator)
        .await
        .tournament_id;
    let watching = tournaments.clone();
    let watch = |after_seq| {
        let mut tournaments = watching.clone();
        let id = id.clone();
        async move {
            tournaments
                .watch_tournament(pb::WatchTournamentRequest {
                    tournament_id: id,
                    after_seq,
                })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let mut from_start = watch(0).await;
    let first = from_start.message().await.unwrap().unwrap();
    assert_eq!(first.seq, 1);
    assert!(matches!(
        first.kind,
        Some(pb::watch_tournament_response::Kind::Created(_))
    ));
    let a = register(&channel, "first").await;
    let b = register(&channel, "second").await;
    for bot in [&a, &b] {
        tournaments
            .enter_tournament(enter(&id, "", &bot.key))
            .await
            .unwrap();
    }
    assert_eq!(take(&mut from_start, 2).await, vec![2, 3]);
    let mut resumed = watch(2).await;
    let update = resumed.message().await.unwrap().unwrap();
    assert_eq!(update.seq, 3);
    match update.kind {
        Some(pb::watch_tournament_response::Kind::EntryChanged(entry)) => {
            assert_eq!(entry.bot_id, b.id)
        }
        other => panic!("{other:?}"),
    }
    tournaments
        .start_tournament(authed(
            pb::StartTournamentRequest {
                tournament_id: id.clone(),
            },
            &operator,
        ))
        .await
        .unwrap();
    let paired = resumed.message().await.unwrap().unwrap();
    assert_eq!(paired.seq, 4);
    match paired.kind {
        Some(pb::watch_tournament_response::Kind::RoundPaired(round)) => {
            assert_eq!(round.number, 1);
            assert_eq!(round.pairings.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(take(&mut from_start, 1).await, vec![4]);
    let unknown = tournaments
        .watch_tournament(pb::WatchTournamentRequest {
            tournament_id: "nope".into(),
            after_seq: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(reason(&unknown), "TOURNAMENT_NOT_FOUND");
    server.stop().await;
}
