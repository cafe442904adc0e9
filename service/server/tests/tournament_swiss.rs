//! A Swiss event end to end: sixteen SDK league bots play five rounds of rated King's Goal while
//! the server is SIGKILLed during rounds 2 and 4. The event finishes with exactly 40 games and
//! 80 rating changes; no two bots meet twice; every bot sits first 3 times and second 2 (or the
//! reverse) and never three times running in one seat; the standings' points and Buchholz equal
//! the test's own recomputation from the rounds; every bot heard of each round once; and the
//! export re-pairs to the same rounds (and reports a round whose seats were changed in it).

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::process::{Options, ServerProcess, url};
use common::tournaments::*;
use pitchmate_client::{Client, pb};

const BOTS: usize = 16;
const ROUNDS: u32 = 5;

/// Waits until round `round` is paired and one of its games has a result, so the kill falls
/// during the round.
async fn during_round(address: std::net::SocketAddr, tournament_id: &str, round: u32) {
    for _ in 0..6000 {
        if let Ok(client) = Client::connect(url(address)).await {
            let rounds = rounds(&client, tournament_id).await;
            if let Some(r) = rounds.iter().find(|r| r.number == round)
                && r.pairings
                    .iter()
                    .any(|p| p.game.as_ref().unwrap().outcome != pb::GameOutcome::Pending as i32)
            {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("round {round} never got under way");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_sixteen_bot_swiss_finishes_through_two_sigkills() {
    let Organised {
        address,
        data_dir,
        mut server,
        operator,
        client,
        bots,
    } = organised("swiss", BOTS).await;
    let options = Options {
        environment: &[("PITCHMATE__STREAM__HEARTBEAT_SECS", "1")],
        ..Options::default()
    };
    let created = create(
        &client,
        &operator,
        pb::TournamentSpec {
            name: "Sixteen".into(),
            kind: pb::TournamentKind::Swiss as i32,
            terms: Some(kings_goal(true)),
            rounds: ROUNDS,
            seed: Some(2026),
            ..Default::default()
        },
    )
    .await;
    let id = created.tournament_id.clone();
    enter_all(&client, &id, &bots).await;
    let runs = play_tournaments(address, &bots, 1);
    start(&client, &operator, &id).await;

    for round in [2, 4] {
        during_round(address, &id, round).await;
        server.kill();
        server = ServerProcess::start_with(address, &data_dir, options).await;
    }
    let over = finished(address, &id).await;
    assert_eq!(over.rounds_paired, ROUNDS);
    let reports = reports(runs).await;

    let client = Client::connect(url(address)).await.unwrap();
    let rounds = rounds(&client, &id).await;
    let games = games(&rounds);
    assert_eq!(games.len(), 40, "8 games in each of 5 rounds");
    assert!(rounds.iter().all(|r| r.bye_bot_id.is_empty()));
    // Each round says why: its score groups, and each pairing's cost and its parts.
    for round in &rounds {
        assert!(!round.score_groups.is_empty());
        assert_eq!(round.field.len(), BOTS);
        for pairing in &round.pairings {
            assert!(
                pairing.cost_parts.iter().any(|c| c.name == "score_gap"),
                "{pairing:?}"
            );
            assert!(!pairing.seat_reason.is_empty());
        }
    }
    assert!(
        meetings(&rounds).values().all(|&n| n == 1),
        "no two bots meet twice"
    );
    for (bot, seats) in seats(&rounds) {
        assert_eq!(seats.len(), 5, "{bot} played every round");
        let firsts = seats.iter().filter(|&&first| first).count();
        assert!(firsts == 2 || firsts == 3, "{bot}'s seats {seats:?}");
        assert!(
            seats.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
            "{bot} sat in one seat three times running: {seats:?}"
        );
    }

    let standings = standings(&client, &id).await;
    let recomputed = recomputed(&rounds, 2);
    assert_eq!(standings.len(), BOTS);
    for standing in &standings {
        let (points, buchholz) = recomputed[&standing.bot_id];
        assert_eq!(
            standing.points,
            f64::from(points) / 2.0,
            "{}",
            standing.bot_id
        );
        let first_tie_break = &standing.tie_breaks[1];
        assert_eq!(first_tie_break.tie_break, pb::TieBreak::Buchholz as i32);
        assert_eq!(first_tie_break.value, f64::from(buchholz) / 2.0);
    }
    assert!(
        standings
            .windows(2)
            .all(|w| w[0].rank <= w[1].rank && w[0].points >= w[1].points),
        "ranked by points"
    );

    // Each of the 40 results moved both bots' ratings exactly once.
    let mut changes = 0;
    for bot in &bots {
        let listed = client
            .ratings()
            .list_rating_changes(pb::ListRatingChangesRequest {
                bot_id: bot.id.clone(),
                page_size: 100,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .changes;
        let matches: BTreeSet<&str> = listed.iter().map(|c| c.match_id.as_str()).collect();
        assert_eq!(matches.len(), listed.len(), "one change per match");
        changes += listed.len();
    }
    assert_eq!(changes, 80);

    inbox_heard_everything(&reports, &bots, &id);
    for report in &reports {
        assert_eq!(report.rounds.len(), ROUNDS as usize);
    }
    export_verifies(&client, &id, false).await;
    server.terminate().await;
    std::fs::remove_dir_all(&data_dir).unwrap();
}
