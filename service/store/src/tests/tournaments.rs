//! Tournaments: entries, paired rounds, games, results and logs, against both backends.

use std::collections::BTreeSet;
use std::future::Future;
use std::path::{Path, PathBuf};

use super::league::{on_postgres, two_stores};
use super::leases::{SCHEMA_13_POSTGRES, SCHEMA_13_SQLITE};
use super::{LATEST_SCHEMA, TestSchema};
use crate::scratch::ScratchDir;
use crate::{
    AssignedMatchRow, AssignedState, Entered, EntryRow, EntryState, FollowerStep, GameResultRow,
    NewInboxItem, NewTournamentLogItem, PairedRound, SQLITE_FILE, Store, StoreError,
    TournamentGameRow, TournamentRoundRow, TournamentRow, TournamentState,
};

const T0: i64 = 1_900_000_000_000_000_000;

/// What schema 12 added, dropped again to make a schema-11 database.
const SCHEMA_12_TABLES: &str = "DROP TABLE tournaments; DROP TABLE tournament_entries; \
     DROP TABLE tournament_rounds; DROP TABLE tournament_games; \
     DROP TABLE tournament_log_heads; DROP TABLE tournament_log;";

fn tournament(id: &str, created_nanos: i64) -> TournamentRow {
    TournamentRow {
        tournament_id: id.to_owned(),
        name: format!("name of {id}"),
        organiser: "operator".to_owned(),
        spec: format!("spec of {id}").into_bytes(),
        state: TournamentState::Open,
        created_nanos,
        starts_nanos: created_nanos + 1_000,
        rounds_paired: 0,
        finished_nanos: None,
        end_reason: String::new(),
    }
}

fn entry(tournament_id: &str, bot_id: &str, joined_nanos: i64) -> EntryRow {
    EntryRow {
        tournament_id: tournament_id.to_owned(),
        bot_id: bot_id.to_owned(),
        rating: 1500,
        joined_nanos,
        first_round: 1,
        state: EntryState::Active,
    }
}

/// A log item whose body says who wrote it, so each can be found once.
fn log(tournament_id: &str, body: &str) -> NewTournamentLogItem {
    NewTournamentLogItem {
        tournament_id: tournament_id.to_owned(),
        kind: 3,
        body: body.as_bytes().to_vec(),
        time_nanos: T0 + 5,
    }
}

fn item(bot_id: &str) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind: 7,
        body: b"tournament item".to_vec(),
        time_nanos: T0 + 5,
    }
}

fn game(tournament_id: &str, round: u32, match_id: &str, bots: [&str; 2]) -> TournamentGameRow {
    TournamentGameRow {
        match_id: match_id.to_owned(),
        tournament_id: tournament_id.to_owned(),
        round,
        bots: bots.map(str::to_owned),
        outcome: None,
        ended_nanos: None,
    }
}

/// Round `after + 1` of `tournament_id` with these games (match id, first bot, second bot):
/// each game's match assigned (said to be created, which the store ignores), an inbox item to
/// each bot, and one log item.
fn paired(tournament_id: &str, after: u32, games: &[(&str, &str, &str)]) -> PairedRound {
    let round = after + 1;
    let games: Vec<TournamentGameRow> = games
        .iter()
        .map(|&(m, a, b)| game(tournament_id, round, m, [a, b]))
        .collect();
    PairedRound {
        tournament_id: tournament_id.to_owned(),
        after,
        round: TournamentRoundRow {
            tournament_id: tournament_id.to_owned(),
            round,
            body: format!("round {round}").into_bytes(),
            paired_nanos: T0 + 20,
            deadline_nanos: T0 + 90,
        },
        assigned: games
            .iter()
            .map(|g| AssignedMatchRow {
                match_id: g.match_id.clone(),
                bots: g.bots.clone(),
                pool: "kings-goal/blitz/rated".to_owned(),
                terms: b"terms".to_vec(),
                assigned_nanos: T0 + 20,
                state: AssignedState::Created,
            })
            .collect(),
        inbox: games
            .iter()
            .flat_map(|g| g.bots.iter().map(|b| item(b)))
            .collect(),
        log: vec![log(tournament_id, &format!("paired {round}"))],
        games,
    }
}

fn step(follower: &str, position: u64) -> FollowerStep {
    FollowerStep {
        follower: follower.to_owned(),
        position,
        ..FollowerStep::default()
    }
}

fn result(match_id: &str, outcome: u32) -> GameResultRow {
    GameResultRow {
        match_id: match_id.to_owned(),
        outcome,
        ended_nanos: T0 + 50 + i64::from(outcome),
    }
}

/// Every log item of the tournament, as (seq, body).
async fn whole_log(store: &Store, tournament_id: &str) -> Vec<(u64, String)> {
    store
        .tournament_log_after(tournament_id, 0, 100_000)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.seq, String::from_utf8(row.body).unwrap()))
        .collect()
}

async fn head(store: &Store, tournament_id: &str) -> u64 {
    store.tournament_log_head(tournament_id).await.unwrap()
}

fn ids(rows: Vec<TournamentRow>) -> Vec<String> {
    rows.into_iter().map(|t| t.tournament_id).collect()
}

/// Every promise about tournaments, against whichever backend `open` opens (each call opens the
/// same database anew): one tournament, `ta`, from its creation to its end, then reopened.
async fn tournaments<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.unwrap();
    let entered = created_and_entered(&store).await;
    rounds_paired(&store).await;
    results_recorded(&store).await;
    let finished = finished_once(&store).await;

    // Closed, it writes nothing; reopened, everything is there.
    store.close().await.unwrap();
    let closed = store
        .create_tournament(tournament("tc", T0), Vec::new())
        .await;
    assert_eq!(closed, Err(StoreError::Closed));
    let store = open().await.unwrap();
    assert_eq!(store.tournament("ta").await.unwrap(), Some(finished));
    assert_eq!(store.entries("ta").await.unwrap(), entered);
    assert_eq!(store.tournament_rounds("ta").await.unwrap().len(), 2);
    assert_eq!(store.tournament_games("ta").await.unwrap().len(), 2);
    assert_eq!(whole_log(&store, "ta").await.len(), 11);
    assert_eq!(store.tournament("tc").await.unwrap(), None);
    store.close().await.unwrap();
}

/// Tournaments created once and listed; bots entered once, while open; entries' states. The
/// entries, as they stand at the end.
async fn created_and_entered(store: &Store) -> Vec<EntryRow> {
    assert_eq!(store.tournament("ta").await.unwrap(), None);
    assert!(store.tournaments(None).await.unwrap().is_empty());
    assert_eq!(head(store, "ta").await, 0);

    // Created once; a second create under the id writes nothing, its log item neither.
    let created = vec![log("ta", "created")];
    assert!(
        store
            .create_tournament(tournament("ta", T0 + 1), created)
            .await
            .unwrap()
    );
    let mut renamed = tournament("ta", T0 + 1);
    renamed.name = "another".into();
    assert!(
        !store
            .create_tournament(renamed, vec![log("ta", "x")])
            .await
            .unwrap()
    );
    assert_eq!(
        store.tournament("ta").await.unwrap(),
        Some(tournament("ta", T0 + 1))
    );
    assert_eq!(whole_log(store, "ta").await, [(1, "created".to_owned())]);
    // Listed by create time, then id.
    for (id, at) in [("tb", T0 + 1), ("t0", T0 + 2)] {
        assert!(
            store
                .create_tournament(tournament(id, at), Vec::new())
                .await
                .unwrap()
        );
    }
    assert_eq!(
        ids(store.tournaments(None).await.unwrap()),
        ["ta", "tb", "t0"]
    );
    let open_ones = store
        .tournaments(Some(TournamentState::Open))
        .await
        .unwrap();
    assert_eq!(ids(open_ones), ["ta", "tb", "t0"]);
    let running = store
        .tournaments(Some(TournamentState::Running))
        .await
        .unwrap();
    assert!(running.is_empty());

    // Entries: each with its inbox and log items; a second time, or in no tournament, nothing.
    for (bot, at) in [("b2", T0 + 10), ("b1", T0 + 10), ("b0", T0 + 11)] {
        let done = store
            .enter_tournament(entry("ta", bot, at), vec![item(bot)], vec![log("ta", bot)])
            .await
            .unwrap();
        let Entered::Done(rows) = done else {
            panic!("{done:?}")
        };
        assert_eq!(
            (rows.len(), rows[0].seq, rows[0].bot_id.as_str()),
            (1, 1, bot)
        );
    }
    let mut again = entry("ta", "b2", T0 + 30);
    again.rating = 1800;
    let already = store
        .enter_tournament(again, vec![item("b2")], vec![log("ta", "again")])
        .await
        .unwrap();
    assert_eq!(already, Entered::Already(entry("ta", "b2", T0 + 10)));
    assert_eq!(store.inbox_bounds("b2").await.unwrap(), (1, 1));
    assert_eq!(head(store, "ta").await, 4);
    let nowhere = entry("nope", "b1", T0);
    let unknown = store
        .enter_tournament(nowhere, vec![item("b1")], vec![log("nope", "x")])
        .await
        .unwrap();
    assert_eq!(unknown, Entered::NotOpen(None));
    assert_eq!(head(store, "nope").await, 0);
    let entered = vec![
        entry("ta", "b1", T0 + 10),
        entry("ta", "b2", T0 + 10),
        entry("ta", "b0", T0 + 11),
    ];
    assert_eq!(
        store.entries("ta").await.unwrap(),
        entered,
        "by joined, then bot id"
    );

    // An entry's state: the state before; the same state again writes nothing.
    let set = |bot: &'static str, state: EntryState, body: &'static str| async move {
        let log = vec![log("ta", body)];
        store.set_entry_state("ta", bot, state, log).await.unwrap()
    };
    assert_eq!(set("b9", EntryState::Paused, "none").await, None);
    let paused = set("b0", EntryState::Paused, "paused").await;
    assert_eq!(paused, Some(EntryState::Active));
    let paused_again = set("b0", EntryState::Paused, "paused again").await;
    assert_eq!(paused_again, Some(EntryState::Paused));
    assert_eq!(head(store, "ta").await, 5, "only the change was logged");
    assert_eq!(
        store.entries("ta").await.unwrap()[2].state,
        EntryState::Paused
    );
    let back = set("b0", EntryState::Active, "back").await;
    assert_eq!(back, Some(EntryState::Paused));
    assert_eq!(head(store, "ta").await, 6);
    entered
}

/// Rounds 1 and 2 of `ta`: each written whole or not at all, once.
async fn rounds_paired(store: &Store) {
    // Round 1: everything in one transaction, the tournament running.
    let first = paired("ta", 0, &[("m1", "b1", "b2")]);
    let rows = store
        .pair_round(first.clone())
        .await
        .unwrap()
        .expect("written");
    let told: Vec<(&str, u64)> = rows.iter().map(|r| (r.bot_id.as_str(), r.seq)).collect();
    assert_eq!(told, [("b1", 2), ("b2", 2)]);
    let running = store.tournament("ta").await.unwrap().unwrap();
    assert_eq!(
        (running.state, running.rounds_paired),
        (TournamentState::Running, 1)
    );
    let rounds = store.tournament_rounds("ta").await.unwrap();
    assert_eq!(rounds, std::slice::from_ref(&first.round));
    assert_eq!(store.tournament_games("ta").await.unwrap(), first.games);
    let m1 = store.tournament_game("m1").await.unwrap();
    assert_eq!(m1.as_ref(), first.games.first());
    let pending = store.assigned_match("m1").await.unwrap().unwrap();
    assert_eq!(pending.state, AssignedState::Pending, "inserted pending");
    assert_eq!(pending.bots, first.assigned[0].bots);
    let last = whole_log(store, "ta").await.pop();
    assert_eq!(last, Some((7, "paired 1".to_owned())));

    // Stale: the same round again, from a writer that paired it otherwise.
    let stale = store
        .pair_round(paired("ta", 0, &[("m1x", "b0", "b2")]))
        .await;
    assert_eq!(stale.unwrap(), None);
    assert_eq!(store.tournament_game("m1x").await.unwrap(), None);
    assert_eq!(store.assigned_match("m1x").await.unwrap(), None);
    assert_eq!(store.inbox_bounds("b0").await.unwrap(), (1, 1));
    assert_eq!(head(store, "ta").await, 7);

    // A round that does not hang together is refused before anything is read.
    let mut misnumbered = paired("ta", 1, &[("m2", "b0", "b1")]);
    misnumbered.round.round = 3;
    let mut unassigned = paired("ta", 1, &[("m2", "b0", "b1")]);
    unassigned.assigned.clear();
    let mut elsewhere = paired("ta", 1, &[("m2", "b0", "b1")]);
    elsewhere.games[0].tournament_id = "tb".into();
    for wrong in [misnumbered, unassigned, elsewhere] {
        let refused = store.pair_round(wrong).await;
        assert!(
            matches!(refused, Err(StoreError::Database(_))),
            "{refused:?}"
        );
    }
    // A round that fails part way (a match id taken) leaves nothing behind, count included.
    let clash = paired("ta", 1, &[("m2", "b0", "b1"), ("m1", "b2", "b0")]);
    let failed = store.pair_round(clash).await;
    assert!(matches!(failed, Err(StoreError::Database(_))), "{failed:?}");
    let unmoved = store.tournament("ta").await.unwrap().unwrap();
    assert_eq!(unmoved.rounds_paired, 1);
    assert_eq!(store.tournament_rounds("ta").await.unwrap().len(), 1);
    assert_eq!(store.tournament_game("m2").await.unwrap(), None);
    assert_eq!(store.assigned_match("m2").await.unwrap(), None);
    assert_eq!(head(store, "ta").await, 7);
    assert_eq!(store.inbox_bounds("b0").await.unwrap(), (1, 1));

    // Round 2; games by round, then match id.
    let second = paired("ta", 1, &[("m2", "b0", "b1")]);
    assert!(store.pair_round(second.clone()).await.unwrap().is_some());
    let games = store.tournament_games("ta").await.unwrap();
    assert_eq!(games, [first.games[0].clone(), second.games[0].clone()]);
}

/// Results come with the follower's steps, each recorded once; their log items are appended.
async fn results_recorded(store: &Store) {
    let learnt = FollowerStep {
        game_results: vec![result("m1", 1), result("unknown-match", 1)],
        tournament_log: vec![log("ta", "m1 ended"), log("tz", "unknown tournament")],
        ..step("leagues", 1)
    };
    store.apply_follower_step(learnt.clone()).await.unwrap();
    let ended = store.tournament_game("m1").await.unwrap().unwrap();
    assert_eq!((ended.outcome, ended.ended_nanos), (Some(1), Some(T0 + 51)));
    assert_eq!(head(store, "ta").await, 9);
    let unknown = whole_log(store, "tz").await;
    assert_eq!(unknown, [(1, "unknown tournament".to_owned())]);
    let mut replayed = learnt;
    replayed.game_results = vec![result("m1", 2)];
    store.apply_follower_step(replayed).await.unwrap();
    assert_eq!(head(store, "ta").await, 9, "the step was applied before");
    // A second writer bringing another result for the game records nothing of it; of two
    // results for one game in a step, the first is recorded.
    let other = FollowerStep {
        game_results: vec![result("m1", 2), result("m2", 2), result("m2", 3)],
        tournament_log: vec![log("ta", "other writer")],
        ..step("another", 1)
    };
    store.apply_follower_step(other).await.unwrap();
    let m1 = store.tournament_game("m1").await.unwrap().unwrap();
    assert_eq!(m1.outcome, Some(1));
    let m2 = store.tournament_game("m2").await.unwrap().unwrap();
    assert_eq!((m2.outcome, m2.ended_nanos), (Some(2), Some(T0 + 52)));
    assert_eq!(head(store, "ta").await, 10);

    // The log, by seq in pages, every column as written.
    let bodies = [
        "created",
        "b2",
        "b1",
        "b0",
        "paused",
        "back",
        "paired 1",
        "paired 2",
        "m1 ended",
        "other writer",
    ];
    let expected: Vec<(u64, String)> = (1..).zip(bodies.map(str::to_owned)).collect();
    assert_eq!(whole_log(store, "ta").await, expected);
    let page = store.tournament_log_after("ta", 3, 2).await.unwrap();
    assert_eq!(page.iter().map(|r| r.seq).collect::<Vec<_>>(), [4, 5]);
    let columns = (
        page[0].kind,
        page[0].time_nanos,
        page[0].tournament_id.as_str(),
    );
    assert_eq!(columns, (3, T0 + 5, "ta"));
    for (after, limit) in [(10, 10), (u64::MAX, 10), (0, 0)] {
        let none = store
            .tournament_log_after("ta", after, limit)
            .await
            .unwrap();
        assert!(none.is_empty(), "after {after}, at most {limit}");
    }
}

/// `ta` finished once; then no entry, round or second end is written. Its row at the end.
async fn finished_once(store: &Store) -> TournamentRow {
    let running = TournamentState::Running;
    let not_an_end = store
        .finish_tournament("ta", running, T0 + 99, "", Vec::new(), Vec::new())
        .await;
    assert!(
        matches!(not_an_end, Err(StoreError::Database(_))),
        "{not_an_end:?}"
    );
    let finish = |id: &'static str, state: TournamentState| async move {
        let (inbox, log) = (vec![item("b0")], vec![log(id, "end")]);
        let reason = "all rounds played";
        let finished = store.finish_tournament(id, state, T0 + 99, reason, inbox, log);
        finished.await.unwrap()
    };
    let told = finish("ta", TournamentState::Finished)
        .await
        .expect("finished");
    assert_eq!((told.len(), told[0].seq), (1, 3));
    assert_eq!(finish("ta", TournamentState::Cancelled).await, None);
    assert_eq!(finish("nope", TournamentState::Cancelled).await, None);
    assert_eq!(head(store, "ta").await, 11);
    let finished = store.tournament("ta").await.unwrap().unwrap();
    let end = (
        finished.state,
        finished.finished_nanos,
        finished.end_reason.as_str(),
    );
    assert_eq!(
        end,
        (
            TournamentState::Finished,
            Some(T0 + 99),
            "all rounds played"
        )
    );

    let late = entry("ta", "b9", T0 + 100);
    let late = store.enter_tournament(late, Vec::new(), Vec::new()).await;
    assert_eq!(
        late.unwrap(),
        Entered::NotOpen(Some(TournamentState::Finished))
    );
    let after_the_end = store
        .pair_round(paired("ta", 2, &[("m3", "b0", "b1")]))
        .await;
    assert_eq!(after_the_end.unwrap(), None);
    assert_eq!(store.tournament_game("m3").await.unwrap(), None);
    assert!(
        finish("tb", TournamentState::Cancelled).await.is_some(),
        "an open one too"
    );
    let open_ones = store
        .tournaments(Some(TournamentState::Open))
        .await
        .unwrap();
    assert_eq!(ids(open_ones), ["t0"]);
    finished
}

/// Two stores pair each round of one tournament at once, each its own way: one writes it, the
/// other is told it was stale, and nothing of the stale pairing is written.
async fn racing_rounds(first: Store, second: Store) {
    const ROUNDS: u32 = 20;
    assert!(
        first
            .create_tournament(tournament("race", T0), Vec::new())
            .await
            .unwrap()
    );
    for after in 0..ROUNDS {
        let pair = |store: Store, side: &'static str| {
            let match_id = format!("{side}{after}");
            let round = paired("race", after, &[(&match_id, "p", "q")]);
            tokio::spawn(async move { store.pair_round(round).await.unwrap() })
        };
        let (a, b) = tokio::join!(pair(first.clone(), "a"), pair(second.clone(), "b"));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(
            a.is_some() != b.is_some(),
            "round {}: {a:?} {b:?}",
            after + 1
        );
        let (won, lost) = if a.is_some() { ("a", "b") } else { ("b", "a") };
        let game = first
            .tournament_game(&format!("{won}{after}"))
            .await
            .unwrap();
        assert!(game.is_some(), "round {}", after + 1);
        for store in [&first, &second] {
            let lost_match = format!("{lost}{after}");
            assert_eq!(store.tournament_game(&lost_match).await.unwrap(), None);
            assert_eq!(store.assigned_match(&lost_match).await.unwrap(), None);
        }
    }
    let race = second.tournament("race").await.unwrap().unwrap();
    assert_eq!(
        (race.state, race.rounds_paired),
        (TournamentState::Running, ROUNDS)
    );
    let rounds = first.tournament_rounds("race").await.unwrap();
    assert_eq!(
        rounds.iter().map(|r| r.round).collect::<Vec<_>>(),
        (1..=ROUNDS).collect::<Vec<_>>()
    );
    assert_eq!(
        first.tournament_games("race").await.unwrap().len(),
        ROUNDS as usize
    );
    assert_eq!(
        first.inbox_bounds("p").await.unwrap(),
        (1, u64::from(ROUNDS))
    );
    assert_eq!(head(&first, "race").await, u64::from(ROUNDS));
    first.close().await.unwrap();
    second.close().await.unwrap();
}

/// Two stores append to the logs of two tournaments at once, in both orders and through
/// different writes (entries on one, follower steps on the other): no seq is given twice, none
/// is skipped, every item is there once, and nobody waits on the other for good.
async fn racing_logs(first: Store, second: Store) {
    const WRITES: u64 = 30;
    for id in ["hot", "cold"] {
        assert!(
            first
                .create_tournament(tournament(id, T0), Vec::new())
                .await
                .unwrap()
        );
    }
    let entering = {
        let store = first.clone();
        tokio::spawn(async move {
            for n in 0..WRITES {
                let bot = format!("e{n}");
                let items = vec![
                    log("hot", &format!("{bot} a")),
                    log("cold", &format!("{bot} b")),
                    log("hot", &format!("{bot} c")),
                ];
                let done = store
                    .enter_tournament(entry("hot", &bot, T0), Vec::new(), items)
                    .await
                    .unwrap();
                assert!(matches!(done, Entered::Done(_)), "{done:?}");
            }
        })
    };
    let stepping = {
        let store = second.clone();
        tokio::spawn(async move {
            for position in 1..=WRITES {
                let name = format!("s{position}");
                let steps = FollowerStep {
                    tournament_log: vec![
                        log("cold", &format!("{name} a")),
                        log("hot", &format!("{name} b")),
                        log("hot", &format!("{name} c")),
                    ],
                    ..step("racer", position)
                };
                store.apply_follower_step(steps).await.unwrap();
            }
        })
    };
    let (entered, stepped) = tokio::join!(entering, stepping);
    entered.unwrap();
    stepped.unwrap();
    for (id, per_write) in [("hot", 4), ("cold", 2)] {
        let stored = whole_log(&first, id).await;
        let seqs: Vec<u64> = stored.iter().map(|(seq, _)| *seq).collect();
        assert_eq!(seqs, (1..=per_write * WRITES).collect::<Vec<_>>(), "{id}");
        let bodies: BTreeSet<&String> = stored.iter().map(|(_, body)| body).collect();
        assert_eq!(
            bodies.len() as u64,
            per_write * WRITES,
            "{id}: each item once"
        );
        assert_eq!(head(&second, id).await, per_write * WRITES);
    }
    // Each writer's items of one write keep their order within the log.
    let hot = whole_log(&first, "hot").await;
    let place = |body: &str| hot.iter().position(|(_, b)| b == body).unwrap();
    for n in 0..WRITES {
        assert!(place(&format!("e{n} a")) < place(&format!("e{n} c")));
        assert!(place(&format!("s{} b", n + 1)) < place(&format!("s{} c", n + 1)));
    }
    first.close().await.unwrap();
    second.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_tournaments() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    tournaments(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_tournaments() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        tournaments(|| Store::open(&url, &dir)).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_two_stores_on_one_file_pair_a_round_once() {
    let dir = ScratchDir::new();
    let (first, second) = two_stores("", &dir.0).await;
    racing_rounds(first, second).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_racing_pair_a_round_once() {
    on_postgres(|url| async move {
        let (first, second) = two_stores(&url, Path::new("unused-by-postgres")).await;
        racing_rounds(first, second).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_two_stores_on_one_file_never_repeat_a_log_seq() {
    let dir = ScratchDir::new();
    let (first, second) = two_stores("", &dir.0).await;
    racing_logs(first, second).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_appending_to_one_log_never_repeat_a_seq() {
    on_postgres(|url| async move {
        let (first, second) = two_stores(&url, Path::new("unused-by-postgres")).await;
        racing_logs(first, second).await;
    })
    .await;
}

/// A fresh store is at [`LATEST_SCHEMA`]; a schema-11 database gains the tournaments and takes
/// them; a database newer than this code is refused. `version` reads or sets the stored
/// version number, `downgrade` drops what schema 12 and later added.
async fn schema_12<F, Fut, V, VFut>(open: F, version: V)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
    V: Fn(Option<(i64, bool)>) -> VFut,
    VFut: Future<Output = i64>,
{
    let store = open().await.unwrap();
    store.close().await.unwrap();
    assert_eq!(version(None).await, LATEST_SCHEMA);
    version(Some((11, true))).await;
    let store = open().await.expect("a schema-11 database migrates");
    assert_eq!(version(None).await, LATEST_SCHEMA);
    assert!(
        store
            .create_tournament(tournament("t", T0), vec![log("t", "created")])
            .await
            .unwrap()
    );
    store.close().await.unwrap();
    version(Some((LATEST_SCHEMA + 1, false))).await;
    let refused = open().await.expect_err("a newer database");
    assert_eq!(
        refused,
        StoreError::SchemaTooNew {
            found: LATEST_SCHEMA + 1,
            known: LATEST_SCHEMA
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_schema_12_adds_tournaments() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    let file = path.join(SQLITE_FILE);
    let version = |change: Option<(i64, bool)>| {
        let file = file.clone();
        async move {
            let connection = rusqlite::Connection::open(file).unwrap();
            if let Some((to, downgrade)) = change {
                if downgrade {
                    connection.execute_batch(SCHEMA_13_SQLITE).unwrap();
                    connection.execute_batch(SCHEMA_12_TABLES).unwrap();
                }
                connection
                    .execute("UPDATE schema_version SET version = ?1", [to])
                    .unwrap();
            }
            connection
                .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
                .unwrap()
        }
    };
    schema_12(|| Store::open("", &path), version).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_schema_12_adds_tournaments() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let outcome = tokio::spawn(async move {
        let version = |change: Option<(i64, bool)>| {
            let url = url.clone();
            async move {
                let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                tokio::spawn(connection);
                if let Some((to, downgrade)) = change {
                    if downgrade {
                        client.batch_execute(SCHEMA_13_POSTGRES).await.unwrap();
                        client.batch_execute(SCHEMA_12_TABLES).await.unwrap();
                    }
                    client
                        .execute("UPDATE schema_version SET version = $1", &[&to])
                        .await
                        .unwrap();
                }
                client
                    .query_one("SELECT version FROM schema_version", &[])
                    .await
                    .unwrap()
                    .get(0)
            }
        };
        let dir = PathBuf::from("unused-by-postgres");
        schema_12(|| Store::open(&url, &dir), version).await;
    })
    .await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}
