//! Chance nobody can foresee: a match's seed is fixed before anyone acts and stays secret, to
//! seats and spectators alike, through every call that shows the match, until the match is
//! over however it ends; then it is revealed, matches the commitment the match published at
//! its creation, and re-simulates the whole match. A replay or seed that was tampered with fails
//! the check.

use std::time::Duration;

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{
    Client, ClientError, NewMatch, RandomChoice, SeatHandle, VerifyError, pb, play, verify_replay,
};
use pitchmate_e2e::{TestServer, game_event, history_so_far, seated};
use pitchmate_server::games::chance::seed_commitment;

/// A short Gridiron match: it rolls dice and tosses a coin.
fn short_gridiron() -> NewMatch {
    NewMatch::variant("gridiron")
        .int_option("possessions_per_half", 1)
        .int_option("turns_per_down", 2)
        .int_option("overtime_periods", 0)
}

/// Every place a match's chance shows to `seat`, or to a spectator: the summary (GetMatch and
/// the match's ListMatches entry), the replay's header and the `match_created` event.
async fn chance_shown(
    client: &Client,
    match_id: &str,
    seat: Option<&SeatHandle>,
) -> Vec<pb::Chance> {
    let summary = client
        .get_match(match_id, seat)
        .await
        .unwrap()
        .r#match
        .unwrap();
    let listed = list_entry(client, match_id).await;
    let replay = client.replay(match_id).await.unwrap();
    let created = history_so_far(client, match_id, seat)
        .await
        .into_iter()
        .find_map(|event| match event.kind {
            Some(Kind::MatchCreated(created)) => created.chance,
            _ => None,
        })
        .expect("match_created announces the commitment");
    vec![
        summary.chance.unwrap(),
        listed.chance.unwrap(),
        replay.header.unwrap().chance.unwrap(),
        created,
    ]
}

async fn list_entry(client: &Client, match_id: &str) -> pb::Match {
    let mut matches = client.matches();
    let listed = matches
        .list_matches(pb::ListMatchesRequest::default())
        .await
        .unwrap()
        .into_inner()
        .matches;
    listed
        .into_iter()
        .find(|m| m.match_id == match_id)
        .expect("listed")
}

async fn play_both(client: &Client, seats: [SeatHandle; 2]) -> pb::MatchResult {
    let players = seats.map(|seat| {
        let client = client.clone();
        tokio::spawn(async move { play(&client, &seat, &mut RandomChoice::seeded(3)).await })
    });
    let mut result = None;
    for player in players {
        result = Some(player.await.unwrap().expect("plays to the end"));
    }
    result.unwrap()
}

/// The seed and salt revealed by a match that is over, checked against its commitment.
fn assert_revealed(chance: &pb::Chance) {
    assert_eq!((chance.seed.len(), chance.salt.len()), (32, 32));
    assert_eq!(
        seed_commitment(&chance.salt, &chance.seed).as_slice(),
        chance.commitment.as_slice(),
        "the revealed seed is the committed one"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_stays_secret_until_the_match_is_over_then_proves_itself() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [home, away] = seated(&client, short_gridiron()).await;
    let match_id = home.match_id.clone();

    let mut commitments = Vec::new();
    for viewer in [Some(&home), Some(&away), None] {
        for chance in chance_shown(&client, &match_id, viewer).await {
            assert_eq!(chance.generator(), pb::ChanceGenerator::Chacha20);
            assert_eq!(chance.seed_source(), pb::SeedSource::Server, "the default");
            assert_eq!(chance.commitment.len(), 32);
            assert!(
                chance.seed.is_empty() && chance.salt.is_empty(),
                "{viewer:?} may not see the seed yet"
            );
            commitments.push(chance.commitment);
        }
    }
    commitments.dedup();
    assert_eq!(commitments.len(), 1, "everyone sees the same commitment");

    play_both(&client, [home, away]).await;
    let shown = chance_shown(&client, &match_id, None).await;
    // The event was published before play: it never carries the seed.
    assert!(shown[3].seed.is_empty() && shown[3].commitment == commitments[0]);
    for chance in &shown[..3] {
        assert_revealed(chance);
        assert_eq!(chance.commitment, commitments[0]);
    }
    let verified = client.verify_match(&match_id).await.expect("checks out");
    assert!(verified.commitment_checked && !verified.seed_chosen_by_client);
    assert!(verified.actions > 10 && verified.game_events > 0);

    // Another match draws another seed.
    let [other, _] = seated(&client, short_gridiron()).await;
    let other_chance = client
        .get_match(&other.match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    assert_ne!(other_chance.chance.unwrap().commitment, commitments[0]);
    server.stop().await;
}

/// Resigning, agreeing a draw, aborting and running out of time end a match as surely as the
/// rules do: each reveals the seed.
#[tokio::test]
async fn every_way_a_match_ends_reveals_its_seed() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let clock = pb::TimeControl {
        kind: Some(pb::time_control::Kind::PerMove(pb::PerMoveTime {
            per_move: Some(prost_types::Duration {
                seconds: 0,
                nanos: 300_000_000,
            }),
            first_move: None,
        })),
    };
    let endings: [(&str, NewMatch); 4] = [
        ("resign", NewMatch::variant("chessyball")),
        ("draw", NewMatch::variant("soccer-chess")),
        ("abort", NewMatch::variant("kings-goal")),
        (
            "timeout",
            NewMatch {
                time_control: Some(clock),
                ..NewMatch::variant("xfutebol")
            },
        ),
    ];
    for (ending, new) in endings {
        let [first, second] = seated(&client, new).await;
        let match_id = first.match_id.clone();
        match ending {
            "resign" => drop(client.resign(&second).await.unwrap()),
            "draw" => {
                client.offer_draw(&first).await.unwrap();
                client.accept_draw(&second).await.unwrap();
            }
            "abort" => drop(client.abort(&first).await.unwrap()),
            _ => tokio::time::sleep(Duration::from_millis(800)).await,
        }
        let summary = client
            .get_match(&match_id, None)
            .await
            .unwrap()
            .r#match
            .unwrap();
        assert!(summary.result.is_some(), "{ending} ended the match");
        assert_revealed(summary.chance.as_ref().unwrap());
        let replay = client.replay(&match_id).await.unwrap();
        assert_eq!(
            replay.header.as_ref().unwrap().chance,
            summary.chance,
            "{ending}"
        );
        verify_replay(&replay).unwrap_or_else(|e| panic!("{ending}: {e}"));
    }
    server.stop().await;
}

#[tokio::test]
async fn a_seed_chosen_by_the_creator_says_so() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let [first, second] = seated(&client, short_gridiron().seed(5)).await;
    let summary = client
        .get_match(&first.match_id, None)
        .await
        .unwrap()
        .r#match
        .unwrap();
    assert_eq!(
        summary.chance.as_ref().unwrap().seed_source(),
        pb::SeedSource::Client
    );
    client.resign(&second).await.unwrap();
    let replay = client.replay(&first.match_id).await.unwrap();
    let chance = replay.header.as_ref().unwrap().chance.clone().unwrap();
    assert_eq!(chance.seed_source(), pb::SeedSource::Client);
    assert_eq!(
        &chance.seed[..8],
        5u64.to_le_bytes(),
        "the number, as ChaCha20's key"
    );
    assert!(verify_replay(&replay).unwrap().seed_chosen_by_client);
    server.stop().await;
}

fn chance(replay: &mut pb::GetReplayResponse) -> &mut pb::Chance {
    replay.header.as_mut().unwrap().chance.as_mut().unwrap()
}

/// A finished match's replay with one thing changed, and the check's verdict on it.
fn tampered(
    replay: &pb::GetReplayResponse,
    change: impl FnOnce(&mut pb::GetReplayResponse),
) -> Result<pitchmate_client::Verified, VerifyError> {
    let mut replay = replay.clone();
    change(&mut replay);
    verify_replay(&replay)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tampered_replay_or_seed_fails_the_check() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let seats: [SeatHandle; 2] = seated(&client, short_gridiron()).await;
    let match_id = seats[0].match_id.clone();
    play_both(&client, seats).await;
    let replay = client.replay(&match_id).await.unwrap();
    verify_replay(&replay).expect("the untouched replay checks out");

    // Another seed, or salt, than the one committed to.
    let wrong_seed = tampered(&replay, |r| chance(r).seed[0] ^= 1);
    assert!(
        matches!(wrong_seed, Err(VerifyError::CommitmentMismatch { .. })),
        "{wrong_seed:?}"
    );
    let wrong_salt = tampered(&replay, |r| chance(r).salt[31] ^= 0x80);
    assert!(
        matches!(wrong_salt, Err(VerifyError::CommitmentMismatch { .. })),
        "{wrong_salt:?}"
    );
    // A new seed with a commitment made to fit it is not what the match published at start.
    let refitted = tampered(&replay, |r| {
        let chance = chance(r);
        chance.seed = vec![9; 32];
        chance.commitment = seed_commitment(&chance.salt, &chance.seed).to_vec();
    });
    assert!(
        matches!(refitted, Err(VerifyError::AnnouncementMismatch { .. })),
        "{refitted:?}"
    );

    // A coin that fell the other way.
    let toss = replay
        .events
        .iter()
        .position(|e| {
            matches!(
                game_event::<pb::gridiron_event::Kind>(e),
                Some(pb::gridiron_event::Kind::CoinTossed(_))
            )
        })
        .expect("the match tossed a coin");
    let other_coin = tampered(&replay, |r| {
        let Some(Kind::GameEvent(pb::GameEvent {
            game:
                Some(pb::game_event::Game::Gridiron(pb::GridironEvent {
                    kind: Some(pb::gridiron_event::Kind::CoinTossed(coin)),
                })),
        })) = &mut r.events[toss].kind
        else {
            unreachable!("found above")
        };
        coin.winner = if coin.winner == "home" {
            "away"
        } else {
            "home"
        }
        .to_owned();
    });
    assert!(
        matches!(other_coin, Err(VerifyError::Differs { seq, .. }) if seq == toss as u64 + 1),
        "{other_coin:?}"
    );

    // An action swapped for another, and an event left out.
    let last_action = replay
        .events
        .iter()
        .rposition(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .unwrap();
    let first_action = replay
        .events
        .iter()
        .position(|e| matches!(e.kind, Some(Kind::ActionTaken(_))))
        .unwrap();
    let swapped = tampered(&replay, |r| {
        let first = r.events[first_action].kind.clone();
        r.events[last_action].kind = first;
    });
    assert!(swapped.is_err(), "{swapped:?}");
    let shortened = tampered(&replay, |r| {
        r.events.remove(toss);
        for (at, event) in r.events.iter_mut().enumerate() {
            event.seq = at as u64 + 1;
        }
    });
    assert!(shortened.is_err(), "{shortened:?}");

    // Another winner than the rules gave.
    let other_winner = tampered(&replay, |r| {
        let header = r.header.as_mut().unwrap();
        let result = header.result.as_mut().unwrap();
        result.winner = if result.winner == "home" {
            "away"
        } else {
            "home"
        }
        .to_owned();
        let ended = r.events.last_mut().unwrap();
        ended.kind = Some(Kind::MatchEnded(pb::MatchEnded {
            result: Some(result.clone()),
        }));
    });
    assert!(
        matches!(other_winner, Err(VerifyError::Result(_))),
        "{other_winner:?}"
    );

    // And through the SDK's client, the same verdict as an error.
    let unfinished = seated::<2>(&client, short_gridiron()).await;
    let early = client.verify_match(&unfinished[0].match_id).await;
    assert!(
        matches!(early, Err(ClientError::Unverified(VerifyError::NotOver(_)))),
        "{early:?}"
    );
    server.stop().await;
}
