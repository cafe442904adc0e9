//! Round robins end to end: ten SDK league bots play a round robin and a double round robin at
//! once. The single one has 45 games in 9 rounds, every pair meeting once; the double one 90
//! games in 18, every pair once in each seat order; nobody plays twice in a round; both exports
//! re-pair to the same tables.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::tournaments::*;
use pitchmate_client::pb;

const BOTS: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_bots_play_a_round_robin_and_a_double_one() {
    let Organised {
        address,
        data_dir,
        server,
        operator,
        client,
        bots,
    } = organised("rr", BOTS).await;
    let mut ids = Vec::new();
    for kind in [
        pb::TournamentKind::RoundRobin,
        pb::TournamentKind::DoubleRoundRobin,
    ] {
        let created = create(
            &client,
            &operator,
            pb::TournamentSpec {
                name: format!("{kind:?}"),
                kind: kind as i32,
                terms: Some(kings_goal(false)),
                seed: Some(9),
                ..Default::default()
            },
        )
        .await;
        enter_all(&client, &created.tournament_id, &bots).await;
        ids.push(created.tournament_id);
    }
    let runs = play_tournaments(address, &bots, 2);
    for id in &ids {
        start(&client, &operator, id).await;
    }
    for (id, (games_expected, rounds_expected)) in ids.iter().zip([(45, 9), (90, 18)]) {
        let over = finished(address, id).await;
        assert_eq!(over.rounds_planned, rounds_expected);
        let rounds = rounds(&client, id).await;
        assert_eq!(rounds.len(), rounds_expected as usize);
        let games = games(&rounds);
        assert_eq!(games.len(), games_expected);
        for round in &rounds {
            let mut seen = BTreeSet::new();
            for pairing in &round.pairings {
                let game = pairing.game.as_ref().unwrap();
                assert!(seen.insert(game.first_bot_id.clone()));
                assert!(seen.insert(game.second_bot_id.clone()));
            }
            assert_eq!(
                seen.len(),
                BOTS,
                "everyone plays every round of an even field"
            );
        }
        let mut ordered: BTreeMap<(String, String), usize> = BTreeMap::new();
        for (_, first, second, _) in &games {
            *ordered.entry((first.clone(), second.clone())).or_default() += 1;
        }
        if games_expected == 45 {
            assert_eq!(meetings(&rounds).len(), 45);
            assert!(meetings(&rounds).values().all(|&n| n == 1));
        } else {
            assert_eq!(ordered.len(), 90, "each pair once in each seat order");
            assert!(ordered.values().all(|&n| n == 1));
        }
        let standings = standings(&client, id).await;
        let recomputed = recomputed(&rounds, 0);
        for standing in &standings {
            assert_eq!(
                standing.points,
                f64::from(recomputed[&standing.bot_id].0) / 2.0
            );
        }
        export_verifies(&client, id, false).await;
    }
    let reports = reports(runs).await;
    for id in &ids {
        inbox_heard_everything(&reports, &bots, id);
    }
    server.terminate().await;
    std::fs::remove_dir_all(&data_dir).unwrap();
}
