//! Paired games end to end: six SDK league bots play a three-round Swiss event of Chessyball (a
//! variant with chance) in which every pairing plays two games at once, one in each seat order.
//! Each pairing's two games were played on the same seed (their replays reveal it once over)
//! and different pairings on different seeds; no two bots meet in two rounds; the standings
//! count both games; and the export re-pairs to the same rounds.

mod common;

use std::collections::BTreeSet;

use common::tournaments::*;
use pitchmate_client::{Client, pb};

const BOTS: usize = 6;
const ROUNDS: u32 = 3;

async fn seed_of(client: &Client, match_id: &str) -> Vec<u8> {
    let replay = client
        .matches()
        .get_replay(pb::GetReplayRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .unwrap()
        .into_inner();
    let chance = replay.header.unwrap().chance.unwrap();
    assert_eq!(chance.seed_source, pb::SeedSource::Client as i32);
    assert!(!chance.seed.is_empty(), "revealed once over");
    chance.seed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_pairing_plays_both_seat_orders_on_one_seed() {
    let Organised {
        address,
        data_dir,
        server,
        operator,
        client,
        bots,
    } = organised("paired", BOTS).await;
    let created = create(
        &client,
        &operator,
        pb::TournamentSpec {
            name: "Paired".into(),
            kind: pb::TournamentKind::Swiss as i32,
            terms: Some(pb::MatchTerms {
                variant_id: "chessyball".into(),
                ..Default::default()
            }),
            rounds: ROUNDS,
            seed: Some(3),
            paired_games: true,
            ..Default::default()
        },
    )
    .await;
    assert!(created.spec.unwrap().paired_games);
    let id = created.tournament_id;
    enter_all(&client, &id, &bots).await;
    let runs = play_tournaments(address, &bots, 1);
    start(&client, &operator, &id).await;
    finished(address, &id).await;

    let rounds = rounds(&client, &id).await;
    assert_eq!(rounds.len(), ROUNDS as usize);
    let mut seeds = BTreeSet::new();
    for round in &rounds {
        assert_eq!(round.pairings.len(), BOTS / 2);
        for pairing in &round.pairings {
            let game = pairing.game.as_ref().unwrap();
            let back = pairing.return_game.as_ref().expect("a return game");
            assert_eq!(
                (&back.first_bot_id, &back.second_bot_id),
                (&game.second_bot_id, &game.first_bot_id),
                "the return game swaps the seats"
            );
            let seed = seed_of(&client, &game.match_id).await;
            assert_eq!(seed, seed_of(&client, &back.match_id).await);
            assert!(seeds.insert(seed), "another pairing had the same seed");
        }
    }
    assert_eq!(games(&rounds).len(), 18);
    assert!(
        meetings(&rounds).values().all(|&n| n == 2),
        "each pair met in one round only, twice"
    );
    let standings = standings(&client, &id).await;
    let recomputed = recomputed(&rounds, 4);
    for standing in &standings {
        assert_eq!(standing.played + standing.byes * 2, 2 * ROUNDS);
        assert_eq!(
            standing.points,
            f64::from(recomputed[&standing.bot_id].0) / 2.0
        );
    }
    export_verifies(&client, &id, false).await;
    let reports = reports(runs).await;
    inbox_heard_everything(&reports, &bots, &id);
    for report in &reports {
        assert!(
            report
                .rounds
                .iter()
                .all(|r| r.match_ids.len() == 2 || r.bye)
        );
    }
    server.terminate().await;
    std::fs::remove_dir_all(&data_dir).unwrap();
}
