//! A ladder end to end: twelve SDK league bots on an always-on ladder of six games each. Idle
//! bots are paired again as soon as they are free; after every wave of pairings the games per
//! bot differ by at most two; no bot meets the same opponent twice in a row; the ladder ends
//! once every bot has played its six (or no more games can be paired: the last bots short of
//! six may only meet their last opponents); and its export re-pairs to the same waves, and
//! finds a result changed in it.

mod common;

use std::collections::BTreeMap;

use common::tournaments::*;
use pitchmate_client::pb;

const BOTS: usize = 12;
const GAMES_EACH: u32 = 6;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twelve_bots_climb_a_ladder_fairly() {
    let Organised {
        address,
        data_dir,
        server,
        operator,
        client,
        bots,
    } = organised("ladder", BOTS).await;
    let created = create(
        &client,
        &operator,
        pb::TournamentSpec {
            name: "Ladder".into(),
            kind: pb::TournamentKind::Ladder as i32,
            terms: Some(kings_goal(true)),
            seed: Some(12),
            ladder_games_per_bot: GAMES_EACH,
            ..Default::default()
        },
    )
    .await;
    let id = created.tournament_id;
    enter_all(&client, &id, &bots).await;
    let runs = play_tournaments(address, &bots, 1);
    start(&client, &operator, &id).await;
    let over = finished(address, &id).await;
    assert!(over.end_reason.contains("games"), "{}", over.end_reason);

    let rounds = rounds(&client, &id).await;
    assert!(
        rounds.len() >= 2,
        "games were paired in waves as bots came free"
    );
    let mut games_of: BTreeMap<String, u32> = bots.iter().map(|b| (b.id.clone(), 0)).collect();
    let mut last_opponent: BTreeMap<String, String> = BTreeMap::new();
    for round in &rounds {
        for pairing in &round.pairings {
            let game = pairing.game.as_ref().unwrap();
            for (bot, opponent) in [
                (&game.first_bot_id, &game.second_bot_id),
                (&game.second_bot_id, &game.first_bot_id),
            ] {
                *games_of.get_mut(bot).unwrap() += 1;
                assert_ne!(
                    last_opponent.insert(bot.clone(), opponent.clone()).as_ref(),
                    Some(opponent),
                    "{bot} met {opponent} twice in a row"
                );
            }
        }
        let most = games_of.values().max().unwrap();
        let fewest = games_of.values().min().unwrap();
        assert!(
            most - fewest <= 2,
            "after wave {}: games per bot {games_of:?}",
            round.number
        );
    }
    // Every bot played its six, or the ladder ended because the last bots short of six had only
    // their last opponents left (within the spread of two, as checked after every wave).
    assert!(games_of.values().any(|&n| n == GAMES_EACH), "{games_of:?}");
    if games_of.values().any(|&n| n < GAMES_EACH) {
        assert!(
            over.end_reason.starts_with("no more games"),
            "{}",
            over.end_reason
        );
    }
    // Each pairing says why: both bots' ranks and games, and its seats.
    for pairing in rounds.iter().flat_map(|r| &r.pairings) {
        let parts: Vec<&str> = pairing.cost_parts.iter().map(|c| c.name.as_str()).collect();
        assert!(
            parts.contains(&"ranks_first") && parts.contains(&"games_second"),
            "{parts:?}"
        );
        assert!(!pairing.seat_reason.is_empty());
    }
    let played: u32 = games_of.values().sum();
    assert_eq!(games(&rounds).len(), played as usize / 2);

    let standings = standings(&client, &id).await;
    let recomputed = recomputed(&rounds, 0);
    for standing in &standings {
        assert_eq!(
            standing.points,
            f64::from(recomputed[&standing.bot_id].0) / 2.0
        );
        assert_eq!(standing.played, games_of[&standing.bot_id]);
    }
    export_verifies(&client, &id, true).await;
    let reports = reports(runs).await;
    inbox_heard_everything(&reports, &bots, &id);
    server.terminate().await;
    std::fs::remove_dir_all(&data_dir).unwrap();
}
