//! Challenges between bots: one bot challenges another, the other accepts, declines or lets it
//! expire; an accepted challenge assigns a match both bots hear of in their inboxes and join with
//! their keys alone; a bot that does not show up forfeits; a policy answers for a sleeping bot;
//! caps refuse with a QuotaFailure; a rematch swaps the seats; a rated result moves both
//! ratings once; the queue pairs waiting bots.

mod common;

use std::time::Duration;

use common::*;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::challenge_service_client::ChallengeServiceClient;
use pitchmate_proto::v1::inbox_item::Kind as ItemKind;
use pitchmate_proto::v1::inbox_service_client::InboxServiceClient;
use pitchmate_proto::v1::queue_service_client::QueueServiceClient;
use pitchmate_proto::v1::rating_service_client::RatingServiceClient;
use pitchmate_proto::v1::watch_inbox_response::Kind;
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt;

struct Bot {
    id: String,
    key: String,
    inbox: tonic::Streaming<pb::WatchInboxResponse>,
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
    let inbox = InboxServiceClient::new(channel.clone())
        .watch_inbox(authed(
            pb::WatchInboxRequest { after_seq: 0 },
            &created.secret,
        ))
        .await
        .expect("watch inbox")
        .into_inner();
    Bot {
        id: created.bot.unwrap().bot_id,
        key: created.secret,
        inbox,
    }
}

impl Bot {
    /// The next item, heartbeats skipped.
    async fn next(&mut self) -> ItemKind {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.inbox.message())
                .await
                .expect("an item in time")
                .expect("the stream")
                .expect("open");
            if let Some(Kind::Item(item)) = message.kind {
                return item.kind.expect("a kind");
            }
        }
    }

    async fn assigned(&mut self) -> pb::InboxMatchAssigned {
        loop {
            if let ItemKind::MatchAssigned(assigned) = self.next().await {
                return assigned;
            }
        }
    }

    async fn resolved(&mut self) -> pb::Challenge {
        loop {
            if let ItemKind::ChallengeResolved(challenge) = self.next().await {
                return challenge;
            }
        }
    }

    async fn finished(&mut self) -> pb::InboxMatchFinished {
        loop {
            if let ItemKind::MatchFinished(finished) = self.next().await {
                return finished;
            }
        }
    }
}

fn terms(rated: bool, seat: pb::SeatPreference) -> pb::MatchTerms {
    pb::MatchTerms {
        variant_id: "kings-goal".to_owned(),
        rated,
        seat: seat as i32,
        ..Default::default()
    }
}

async fn challenge(
    client: &mut ChallengeServiceClient<Channel>,
    by: &Bot,
    target: &str,
    terms: pb::MatchTerms,
) -> Result<pb::Challenge, tonic::Status> {
    client
        .create_challenge(authed(
            pb::CreateChallengeRequest {
                target: target.to_owned(),
                terms: Some(terms),
                expires_in: None,
            },
            &by.key,
        ))
        .await
        .map(|r| r.into_inner().challenge.unwrap())
}

async fn accept(
    client: &mut ChallengeServiceClient<Channel>,
    by: &Bot,
    challenge_id: &str,
) -> Result<pb::Challenge, tonic::Status> {
    client
        .accept_challenge(authed(
            pb::AcceptChallengeRequest {
                challenge_id: challenge_id.to_owned(),
            },
            &by.key,
        ))
        .await
        .map(|r| r.into_inner().challenge.unwrap())
}

async fn join(channel: &Channel, bot: &Bot, match_id: &str) -> Result<String, tonic::Status> {
    MatchServiceClient::new(channel.clone())
        .join_match(authed(
            pb::JoinMatchRequest {
                match_id: match_id.to_owned(),
                ..Default::default()
            },
            &bot.key,
        ))
        .await
        .map(|r| r.into_inner().seat)
}

async fn resign(channel: &Channel, bot: &Bot, match_id: &str) {
    MatchServiceClient::new(channel.clone())
        .resign(authed(
            pb::ResignRequest {
                match_id: match_id.to_owned(),
            },
            &bot.key,
        ))
        .await
        .expect("resign");
}

#[tokio::test]
async fn an_accepted_challenge_assigns_a_match_both_bots_play_with_their_keys() {
    let server = start().await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let (mut alice, mut bob) = (
        register(&channel, "alice").await,
        register(&channel, "bob").await,
    );
    let made = challenge(
        &mut client,
        &alice,
        "bob",
        terms(true, pb::SeatPreference::First),
    )
    .await
    .unwrap();
    assert_eq!(made.status, pb::ChallengeStatus::Open as i32);
    assert_eq!(made.target_id, bob.id);
    assert_eq!(
        made.terms.as_ref().unwrap().pool,
        "kings-goal/untimed/rated"
    );
    match bob.next().await {
        ItemKind::ChallengeReceived(received) => {
            assert_eq!(received.challenge_id, made.challenge_id)
        }
        other => panic!("{other:?}"),
    }
    // Only bob answers it; alice cannot accept her own.
    let refused = accept(&mut client, &alice, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused)),
        (Code::PermissionDenied, "NOT_YOUR_CHALLENGE".into())
    );
    let accepted = accept(&mut client, &bob, &made.challenge_id).await.unwrap();
    assert_eq!(accepted.status, pb::ChallengeStatus::Accepted as i32);
    let again = accept(&mut client, &bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(reason(&again), "CHALLENGE_CLOSED");

    assert_eq!(alice.resolved().await.match_id, accepted.match_id);
    let (for_alice, for_bob) = (alice.assigned().await, bob.assigned().await);
    assert_eq!(for_alice.match_id, accepted.match_id);
    assert_eq!(
        (for_alice.opponent_name.as_str(), for_alice.rated),
        ("bob", true)
    );
    assert_ne!(for_alice.seat, for_bob.seat);
    // Alice asked for the first seat; each bot joins its own with its key alone.
    assert_eq!(
        join(&channel, &bob, &for_bob.match_id).await.unwrap(),
        for_bob.seat
    );
    assert_eq!(
        join(&channel, &alice, &for_alice.match_id).await.unwrap(),
        for_alice.seat
    );
    let seats = get(
        &mut MatchServiceClient::new(channel.clone()),
        &accepted.match_id,
    )
    .await
    .seats;
    assert_eq!(
        seats[0].bot_id, alice.id,
        "the challenger took the first seat"
    );
    resign(&channel, &bob, &accepted.match_id).await;
    assert_eq!(alice.finished().await.outcome, pb::MatchOutcome::Won as i32);
    assert_eq!(bob.finished().await.outcome, pb::MatchOutcome::Lost as i32);

    // A rematch swaps the seats.
    let rematch = challenge(
        &mut client,
        &bob,
        "",
        pb::MatchTerms {
            rematch_of: accepted.match_id.clone(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(rematch.target_id, alice.id);
    assert_eq!(
        rematch.terms.unwrap().seat,
        pb::SeatPreference::First as i32,
        "bob played second, so bob now plays first"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_seat_is_only_its_bots_and_a_bot_that_does_not_show_up_forfeits() {
    let mut settings = test_settings();
    settings.bots.show_up_secs = 1;
    let server = start_with(settings).await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let (mut present, mut absent, intruder) = (
        register(&channel, "present").await,
        register(&channel, "absent").await,
        register(&channel, "intruder").await,
    );
    let made = challenge(
        &mut client,
        &present,
        "absent",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    let accepted = accept(&mut client, &absent, &made.challenge_id)
        .await
        .unwrap();
    let assigned = present.assigned().await;
    assert_eq!(assigned.match_id, accepted.match_id);
    // Neither another bot nor a seat-token player takes an assigned seat.
    let refused = join(&channel, &intruder, &assigned.match_id)
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "SEAT_RESERVED");
    let mut matches = MatchServiceClient::new(channel.clone());
    let refused = matches
        .join_match(pb::JoinMatchRequest {
            match_id: assigned.match_id.clone(),
            seat: assigned.seat.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused)),
        (Code::PermissionDenied, "SEAT_RESERVED".into())
    );
    join(&channel, &present, &assigned.match_id).await.unwrap();
    let won = present.finished().await;
    assert_eq!(won.outcome, pb::MatchOutcome::Won as i32);
    assert_eq!(won.result.unwrap().reason, pb::ResultReason::NoShow as i32);
    absent.assigned().await;
    assert_eq!(
        absent.finished().await.outcome,
        pb::MatchOutcome::Lost as i32
    );
    server.stop().await;
}

#[tokio::test]
async fn a_policy_answers_for_a_sleeping_bot() {
    let server = start().await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let (mut challenger, sleeper) = (
        register(&channel, "challenger").await,
        register(&channel, "sleeper").await,
    );
    client
        .set_acceptance_policy(authed(
            pb::SetAcceptancePolicyRequest {
                bot_id: String::new(),
                policy: Some(pb::AcceptancePolicy {
                    variants: vec!["kings-goal".into()],
                    casual_only: true,
                    ..Default::default()
                }),
            },
            &sleeper.key,
        ))
        .await
        .unwrap();
    let declined = challenge(
        &mut client,
        &challenger,
        "sleeper",
        terms(true, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    assert_eq!(declined.status, pb::ChallengeStatus::Declined as i32);
    assert_eq!(
        declined.decline_reason,
        pb::DeclineReason::CasualOnly as i32
    );
    assert_eq!(
        challenger.resolved().await.decline_reason,
        pb::DeclineReason::CasualOnly as i32
    );
    let accepted = challenge(
        &mut client,
        &challenger,
        "sleeper",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    assert_eq!(accepted.status, pb::ChallengeStatus::Accepted as i32);
    assert_eq!(challenger.assigned().await.match_id, accepted.match_id);
    server.stop().await;
}

#[tokio::test]
async fn a_bot_at_its_cap_is_refused_with_a_quota_failure() {
    let server = start().await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let (mut a, b, c) = (
        register(&channel, "a").await,
        register(&channel, "b").await,
        register(&channel, "c").await,
    );
    let first = challenge(
        &mut client,
        &a,
        "b",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    accept(&mut client, &b, &first.challenge_id).await.unwrap();
    let assigned = a.assigned().await;
    // `a` has max_concurrent 1 and one live match now.
    let quota = client
        .get_quota(authed(pb::GetQuotaRequest::default(), &a.key))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((quota.live, quota.max_concurrent, quota.today), (1, 1, 1));
    let second = challenge(
        &mut client,
        &c,
        "a",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    let refused = accept(&mut client, &a, &second.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused)),
        (Code::ResourceExhausted, "BOT_OVER_CAP".into())
    );
    let violations = refused
        .get_details_quota_failure()
        .expect("a QuotaFailure")
        .violations;
    assert_eq!(violations[0].subject, format!("bot:{}", a.id));
    // Nothing changed: the challenge is still open, `a` still has one match.
    let still = client
        .get_challenge(authed(
            pb::GetChallengeRequest {
                challenge_id: second.challenge_id.clone(),
            },
            &c.key,
        ))
        .await
        .unwrap()
        .into_inner()
        .challenge
        .unwrap();
    assert_eq!(still.status, pb::ChallengeStatus::Open as i32);
    // The match assigned to it is its own place, which it joins.
    join(&channel, &a, &assigned.match_id)
        .await
        .expect("a bot joins the match assigned to it at its cap");
    server.stop().await;
}

#[tokio::test]
async fn challenges_are_cancelled_declined_and_expire() {
    let server = start().await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let (mut a, mut b) = (register(&channel, "a").await, register(&channel, "b").await);
    let cancelled = challenge(
        &mut client,
        &a,
        "b",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    let refused = client
        .cancel_challenge(authed(
            pb::CancelChallengeRequest {
                challenge_id: cancelled.challenge_id.clone(),
            },
            &b.key,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "NOT_YOUR_CHALLENGE");
    client
        .cancel_challenge(authed(
            pb::CancelChallengeRequest {
                challenge_id: cancelled.challenge_id.clone(),
            },
            &a.key,
        ))
        .await
        .unwrap();
    let declined = challenge(
        &mut client,
        &a,
        "b",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap();
    let answer = client
        .decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: declined.challenge_id.clone(),
                reason: pb::DeclineReason::Later as i32,
            },
            &b.key,
        ))
        .await
        .unwrap()
        .into_inner()
        .challenge
        .unwrap();
    assert_eq!(answer.decline_reason, pb::DeclineReason::Later as i32);
    // A target may be named by its id as well as by its name.
    let expiring = client
        .create_challenge(authed(
            pb::CreateChallengeRequest {
                target: b.id.clone(),
                terms: Some(terms(false, pb::SeatPreference::Unspecified)),
                expires_in: Some(prost_types::Duration {
                    seconds: 1,
                    nanos: 0,
                }),
            },
            &a.key,
        ))
        .await
        .unwrap()
        .into_inner()
        .challenge
        .unwrap();
    // Every resolution reaches both inboxes, in order.
    for bot in [&mut a, &mut b] {
        let statuses = [
            bot.resolved().await,
            bot.resolved().await,
            bot.resolved().await,
        ];
        let seen: Vec<(String, i32)> = statuses
            .into_iter()
            .map(|c| (c.challenge_id, c.status))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    cancelled.challenge_id.clone(),
                    pb::ChallengeStatus::Cancelled as i32
                ),
                (
                    declined.challenge_id.clone(),
                    pb::ChallengeStatus::Declined as i32
                ),
                (
                    expiring.challenge_id.clone(),
                    pb::ChallengeStatus::Expired as i32
                ),
            ]
        );
    }
    // Bad terms name their field.
    let bad = challenge(
        &mut client,
        &a,
        "b",
        pb::MatchTerms {
            variant_id: "chess".into(),
            ..Default::default()
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_field(&bad), "terms.variant_id");
    let unknown = challenge(
        &mut client,
        &a,
        "nobody",
        terms(false, pb::SeatPreference::Unspecified),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&unknown), "BOT_NOT_FOUND");
    server.stop().await;
}

#[tokio::test]
async fn a_rated_result_moves_both_ratings_once_and_a_casual_one_none() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let channel = server.channel().await;
    let mut client = ChallengeServiceClient::new(channel.clone());
    let mut ratings = RatingServiceClient::new(channel.clone());
    let (mut winner, mut loser) = (
        register(&channel, "winner").await,
        register(&channel, "loser").await,
    );
    for rated in [true, false] {
        let made = challenge(
            &mut client,
            &winner,
            "loser",
            terms(rated, pb::SeatPreference::Unspecified),
        )
        .await
        .unwrap();
        accept(&mut client, &loser, &made.challenge_id)
            .await
            .unwrap();
        let assigned = winner.assigned().await;
        loser.assigned().await;
        join(&channel, &winner, &assigned.match_id).await.unwrap();
        join(&channel, &loser, &assigned.match_id).await.unwrap();
        resign(&channel, &loser, &assigned.match_id).await;
        let (won, lost) = (winner.finished().await, loser.finished().await);
        if rated {
            let (up, down) = (won.rating_change.unwrap(), lost.rating_change.unwrap());
            assert_eq!(up.pool, "kings-goal/untimed/rated");
            let (before, after) = (up.before.unwrap(), up.after.unwrap());
            assert_eq!((before.rating, before.deviation), (1500.0, 350.0));
            assert!(after.rating > 1500.0 && after.deviation < 350.0 && after.provisional);
            assert!(down.after.unwrap().rating < 1500.0);
            assert_eq!(down.outcome, pb::MatchOutcome::Lost as i32);
        } else {
            assert_eq!((won.rating_change, lost.rating_change), (None, None));
        }
    }
    let mine = ratings
        .get_ratings(pb::GetRatingsRequest {
            bot_id: winner.id.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .ratings;
    assert_eq!(mine.len(), 1, "one rated pool");
    assert_eq!(mine[0].rating.as_ref().unwrap().games, 1, "rated once");
    let history = ratings
        .list_rating_changes(pb::ListRatingChangesRequest {
            bot_id: loser.id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .changes;
    assert_eq!(history.len(), 1);
    // One game leaves both provisional: the leaderboard shows neither.
    let board = ratings
        .get_leaderboard(pb::GetLeaderboardRequest {
            pool: "kings-goal/untimed/rated".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((board.entries.len(), board.total_size), (0, 0));
    // The operator's recomputation from the stored results gives the live ratings (it may
    // run beside the server).
    let report = pitchmate_server::server::recompute_ratings(&settings)
        .await
        .unwrap();
    assert_eq!((report.matches, report.ratings), (1, 2));
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    server.stop().await;
}

#[tokio::test]
async fn the_queue_pairs_two_waiting_bots_once() {
    let server = start().await;
    let channel = server.channel().await;
    let mut queue = QueueServiceClient::new(channel.clone());
    let (mut a, mut b) = (register(&channel, "a").await, register(&channel, "b").await);
    let enter = |key: &str| {
        authed(
            pb::EnterQueueRequest {
                terms: Some(terms(true, pb::SeatPreference::Unspecified)),
            },
            key,
        )
    };
    let ticket = queue.enter_queue(enter(&a.key)).await.unwrap().into_inner();
    assert_eq!(ticket.ticket.unwrap().pool, "kings-goal/untimed/rated");
    let twice = queue.enter_queue(enter(&a.key)).await.unwrap_err();
    assert_eq!(
        (twice.code(), reason(&twice)),
        (Code::AlreadyExists, "ALREADY_QUEUED".into())
    );
    queue.enter_queue(enter(&b.key)).await.unwrap();
    let (for_a, for_b) = (a.assigned().await, b.assigned().await);
    assert_eq!(for_a.match_id, for_b.match_id);
    assert_eq!(
        (for_a.opponent_id.as_str(), for_a.rated),
        (b.id.as_str(), true)
    );
    let tickets = queue
        .list_tickets(authed(pb::ListTicketsRequest::default(), &a.key))
        .await
        .unwrap()
        .into_inner()
        .tickets;
    assert_eq!(tickets.len(), 1);
    assert_eq!(
        (tickets[0].status, tickets[0].match_id.as_str()),
        (pb::TicketStatus::Paired as i32, for_a.match_id.as_str())
    );
    // At its cap, a bot's new ticket waits; leaving takes it out.
    let waiting = queue
        .enter_queue(enter(&a.key))
        .await
        .unwrap()
        .into_inner()
        .ticket
        .unwrap();
    queue
        .leave_queue(authed(
            pb::LeaveQueueRequest {
                ticket_id: waiting.ticket_id.clone(),
            },
            &a.key,
        ))
        .await
        .unwrap();
    let gone = queue
        .leave_queue(authed(
            pb::LeaveQueueRequest {
                ticket_id: waiting.ticket_id,
            },
            &a.key,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&gone), "TICKET_NOT_WAITING");
    server.stop().await;
}

#[tokio::test]
async fn a_bot_hears_when_an_operator_changes_its_caps() {
    let settings = test_settings();
    let server = start_with(settings.clone()).await;
    let channel = server.channel().await;
    let mut bot = register(&channel, "capped").await;
    let operator = pitchmate_server::server::create_operator_key(&settings, "tests".into())
        .await
        .unwrap();
    let update = |paths: &[&str], max_concurrent, description: &str| {
        authed(
            pb::UpdateBotRequest {
                bot: Some(pb::Bot {
                    bot_id: bot.id.clone(),
                    max_concurrent,
                    description: description.into(),
                    ..Default::default()
                }),
                update_mask: Some(prost_types::FieldMask {
                    paths: paths.iter().map(|p| (*p).to_owned()).collect(),
                }),
            },
            &operator.secret,
        )
    };
    let mut bots = BotServiceClient::new(channel.clone());
    // A change that leaves the caps as they are tells the bot nothing; one that changes them does.
    bots.update_bot(update(&["description"], 0, "calm"))
        .await
        .unwrap();
    bots.update_bot(update(&["max_concurrent"], 3, ""))
        .await
        .unwrap();
    match bot.next().await {
        ItemKind::QuotaChanged(quota) => {
            assert_eq!((quota.max_concurrent, quota.daily_cap), (3, 1000))
        }
        other => panic!("the first item is the caps change: {other:?}"),
    }
    let quota = ChallengeServiceClient::new(channel.clone())
        .get_quota(authed(pb::GetQuotaRequest::default(), &bot.key))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(quota.max_concurrent, 3);
    server.stop().await;
}
