//! Inboxes, bots' seats and follower cursors, against both backends.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{TestSchema, action};
use crate::scratch::ScratchDir;
use crate::{BotSeatRow, FollowerStep, InboxRow, NewInboxItem, Store, StoreError, StoreHealth};

const FOLLOWER: &str = "league";

fn item(bot_id: &str, kind: u32, time_nanos: i64) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind,
        body: format!("{bot_id} {kind} {time_nanos}").into_bytes(),
        time_nanos,
    }
}

fn seat(bot_id: &str, match_id: &str, seat: &str, time_nanos: i64) -> BotSeatRow {
    BotSeatRow {
        bot_id: bot_id.to_owned(),
        match_id: match_id.to_owned(),
        seat: seat.to_owned(),
        variant_id: format!("variant of {match_id}"),
        time_nanos,
        live: true,
    }
}

fn ended(row: BotSeatRow) -> BotSeatRow {
    BotSeatRow { live: false, ..row }
}

fn step(position: u64) -> FollowerStep {
    FollowerStep {
        follower: FOLLOWER.to_owned(),
        position,
        ..FollowerStep::default()
    }
}

/// (bot, seq) of each row, to compare numbering at a glance.
fn seqs(rows: &[InboxRow]) -> Vec<(&str, u64)> {
    rows.iter().map(|r| (r.bot_id.as_str(), r.seq)).collect()
}

fn of_bot(rows: &[InboxRow], bot_id: &str) -> Vec<InboxRow> {
    rows.iter()
        .filter(|r| r.bot_id == bot_id)
        .cloned()
        .collect()
}

fn counts(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
    pairs.iter().map(|&(b, n)| (b.to_owned(), n)).collect()
}

/// Every promise about follower steps, inboxes and seats, against whichever backend `open`
/// opens (each call opens the same database anew).
async fn league<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 0);
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (1, 0));
    assert!(store.inbox_after("b1", 0, 10).await.unwrap().is_empty());
    assert!(store.bot_seats("b1", false).await.unwrap().is_empty());
    assert!(store.live_seat_counts().await.unwrap().is_empty());
    // A never-stepped follower stands at 0, which a step at 0 does not pass.
    let nowhere = FollowerStep {
        inbox: vec![item("b1", 9, 1)],
        ..step(0)
    };
    assert!(store.apply_follower_step(nowhere).await.unwrap().is_empty());
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (1, 0));

    // Two bots' items interleaved: each bot counts from 1, in the order given.
    let mut written = Vec::new();
    let first = FollowerStep {
        seats_taken: vec![seat("b1", "m1", "home", 10), seat("b2", "m1", "away", 10)],
        inbox: vec![item("b1", 1, 100), item("b2", 1, 100), item("b1", 2, 100)],
        ..step(1)
    };
    let rows = store.apply_follower_step(first.clone()).await.unwrap();
    assert_eq!(seqs(&rows), [("b1", 1), ("b2", 1), ("b1", 2)]);
    assert_eq!(
        rows[1],
        InboxRow {
            bot_id: "b2".to_owned(),
            seq: 1,
            kind: 1,
            body: b"b2 1 100".to_vec(),
            time_nanos: 100,
        }
    );
    written.extend(rows);
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 1);
    assert_eq!(store.follower_cursor("another").await.unwrap(), 0);

    // The same step again (after a crash, say) writes nothing, whatever it holds now.
    let mut again = first.clone();
    again.seats_taken.push(seat("b3", "m9", "home", 10));
    again.inbox.push(item("b3", 1, 100));
    assert!(store.apply_follower_step(again).await.unwrap().is_empty());
    assert_eq!(
        store.inbox_after("b1", 0, 10).await.unwrap(),
        of_bot(&written, "b1")
    );
    assert_eq!(store.inbox_bounds("b3").await.unwrap(), (1, 0));
    assert!(store.bot_seats("b3", false).await.unwrap().is_empty());

    // Seats: a seat already recorded stays as it was, even when named twice in one step; a seat
    // is stored live whatever the row says.
    let third = FollowerStep {
        seats_taken: vec![
            seat("b1", "m3", "away", 10),
            seat("b9", "m1", "home", 99),
            seat("b9", "m3", "away", 99),
            seat("b1", "m2", "home", 5),
            ended(seat("b2", "m3", "home", 20)),
        ],
        ..step(3)
    };
    assert!(store.apply_follower_step(third).await.unwrap().is_empty());
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 3);
    // A lower position than the cursor's is as good as the same.
    let late = FollowerStep {
        inbox: vec![item("b1", 9, 100)],
        ..step(2)
    };
    assert!(store.apply_follower_step(late).await.unwrap().is_empty());
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 3);
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (1, 2));
    assert!(store.bot_seats("b9", false).await.unwrap().is_empty());
    // By time taken, then match id.
    let b1_seats = vec![
        seat("b1", "m2", "home", 5),
        seat("b1", "m1", "home", 10),
        seat("b1", "m3", "away", 10),
    ];
    assert_eq!(store.bot_seats("b1", false).await.unwrap(), b1_seats);
    assert_eq!(store.bot_seats("b1", true).await.unwrap(), b1_seats);
    assert_eq!(
        store.live_seat_counts().await.unwrap(),
        counts(&[("b1", 3), ("b2", 2)])
    );

    // A match over ends every seat of its, and only those; seats taken in the step that ends
    // their match end with it.
    let fourth = FollowerStep {
        seats_taken: vec![seat("b2", "m4", "home", 30), seat("b3", "m5", "home", 30)],
        matches_over: vec!["m1".to_owned(), "m4".to_owned(), "m-unknown".to_owned()],
        inbox: vec![item("b2", 2, 300)],
        ..step(4)
    };
    let rows = store.apply_follower_step(fourth).await.unwrap();
    assert_eq!(seqs(&rows), [("b2", 2)]);
    written.extend(rows);
    let b1_seats = vec![
        seat("b1", "m2", "home", 5),
        ended(seat("b1", "m1", "home", 10)),
        seat("b1", "m3", "away", 10),
    ];
    assert_eq!(store.bot_seats("b1", false).await.unwrap(), b1_seats);
    assert_eq!(
        store.bot_seats("b1", true).await.unwrap(),
        [b1_seats[0].clone(), b1_seats[2].clone()]
    );
    assert_eq!(
        store.bot_seats("b2", false).await.unwrap(),
        [
            ended(seat("b2", "m1", "away", 10)),
            seat("b2", "m3", "home", 20),
            ended(seat("b2", "m4", "home", 30)),
        ]
    );
    assert_eq!(
        store.live_seat_counts().await.unwrap(),
        counts(&[("b1", 2), ("b2", 1), ("b3", 1)])
    );

    // Appends without a follower number on from the same heads, and leave the cursor be.
    let rows = store
        .append_inbox(vec![
            item("b1", 3, 200),
            item("b1", 3, 201),
            item("b2", 3, 100),
            item("b1", 3, 202),
            item("b1", 3, 203),
            item("b1", 3, 204),
        ])
        .await
        .unwrap();
    assert_eq!(
        seqs(&rows),
        [
            ("b1", 3),
            ("b1", 4),
            ("b2", 3),
            ("b1", 5),
            ("b1", 6),
            ("b1", 7)
        ]
    );
    written.extend(rows);
    assert!(store.append_inbox(Vec::new()).await.unwrap().is_empty());
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 4);

    // Pages by seq, after the last seq of the page before.
    let b1 = of_bot(&written, "b1");
    assert_eq!(
        b1.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=7).collect::<Vec<_>>()
    );
    let mut paged = Vec::new();
    let mut after = 0;
    loop {
        let page = store.inbox_after("b1", after, 3).await.unwrap();
        assert!(page.len() <= 3);
        paged.extend(page.iter().cloned());
        match page.last() {
            Some(last) if page.len() == 3 => after = last.seq,
            _ => break,
        }
    }
    assert_eq!(paged, b1, "every column as written");
    assert_eq!(store.inbox_after("b1", 4, 2).await.unwrap(), b1[4..6]);
    assert!(store.inbox_after("b1", 7, 10).await.unwrap().is_empty());
    assert!(
        store
            .inbox_after("b1", u64::MAX, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.inbox_after("b1", 0, 0).await.unwrap().is_empty());
    assert_eq!(
        store.inbox_after("b2", 0, 10).await.unwrap(),
        of_bot(&written, "b2")
    );
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (1, 7));
    assert_eq!(store.inbox_bounds("b2").await.unwrap(), (1, 3));

    // Pruning takes what is older than the time, for every bot; the seqs go on all the same.
    // b1: 1 and 2 (at 100) go; b2: 1 and 3 (at 100) go, 2 (at 300) stays.
    assert_eq!(store.prune_inbox(150).await.unwrap(), 4);
    assert_eq!(store.prune_inbox(150).await.unwrap(), 0);
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (3, 7));
    assert_eq!(store.inbox_after("b1", 0, 10).await.unwrap(), b1[2..]);
    assert_eq!(store.inbox_bounds("b2").await.unwrap(), (2, 3));
    assert_eq!(store.prune_inbox(i64::MAX).await.unwrap(), 6);
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (8, 7));
    assert_eq!(store.inbox_bounds("b2").await.unwrap(), (4, 3));
    assert!(store.inbox_after("b1", 0, 10).await.unwrap().is_empty());
    let rows = store.append_inbox(vec![item("b1", 4, 500)]).await.unwrap();
    assert_eq!(seqs(&rows), [("b1", 8)], "no seq comes round again");
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (8, 8));
    let kept = rows;

    // While the store is unwritable, these writes are refused as every write is.
    let failed = store.append(action("no-such-match", 0, 1)).await;
    assert!(matches!(failed, Err(StoreError::Database(_))), "{failed:?}");
    let unwritable = |result: Result<(), StoreError>| {
        assert!(
            matches!(result, Err(StoreError::Unwritable(_))),
            "{result:?}"
        );
    };
    let fifth = FollowerStep {
        seats_taken: vec![seat("b1", "m6", "home", 40)],
        matches_over: vec!["m2".to_owned()],
        inbox: vec![item("b1", 5, 600)],
        ..step(5)
    };
    unwritable(store.apply_follower_step(fifth.clone()).await.map(|_| ()));
    unwritable(
        store
            .append_inbox(vec![item("b1", 5, 600)])
            .await
            .map(|_| ()),
    );
    unwritable(store.prune_inbox(i64::MAX).await.map(|_| ()));
    tokio::time::timeout(
        Duration::from_secs(10),
        store.health().wait_for(|h| *h == StoreHealth::Writable),
    )
    .await
    .expect("a probe succeeds")
    .expect("the store is open");
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 4);
    assert_eq!(store.inbox_after("b1", 0, 10).await.unwrap(), kept);

    let seats_before = store.bot_seats("b1", false).await.unwrap();
    let counts_before = store.live_seat_counts().await.unwrap();
    store.close().await.unwrap();
    assert_eq!(
        store.apply_follower_step(fifth.clone()).await,
        Err(StoreError::Closed)
    );
    assert_eq!(
        store.append_inbox(vec![item("b1", 5, 600)]).await,
        Err(StoreError::Closed)
    );
    assert_eq!(store.prune_inbox(0).await, Err(StoreError::Closed));

    // Everything is there after reopening, and steps go on from the cursor.
    let store = open().await.expect("reopen");
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 4);
    assert_eq!(store.inbox_after("b1", 0, 10).await.unwrap(), kept);
    assert_eq!(store.inbox_bounds("b1").await.unwrap(), (8, 8));
    assert_eq!(store.inbox_bounds("b2").await.unwrap(), (4, 3));
    assert_eq!(store.bot_seats("b1", false).await.unwrap(), seats_before);
    assert_eq!(store.live_seat_counts().await.unwrap(), counts_before);
    let mut replayed = step(4);
    replayed.inbox = vec![item("b1", 9, 100)];
    assert!(
        store
            .apply_follower_step(replayed)
            .await
            .unwrap()
            .is_empty()
    );
    let rows = store.apply_follower_step(fifth).await.unwrap();
    assert_eq!(seqs(&rows), [("b1", 9)]);
    assert_eq!(store.follower_cursor(FOLLOWER).await.unwrap(), 5);
    assert_eq!(
        store.bot_seats("b1", true).await.unwrap(),
        [seat("b1", "m3", "away", 10), seat("b1", "m6", "home", 40)]
    );
    store.close().await.unwrap();
}

/// Two stores on one database apply the same steps at once: each step is written once, by one
/// of them, and the other is told it had nothing to write.
async fn racing_followers(first: Store, second: Store) {
    const STEPS: u64 = 30;
    for position in 1..=STEPS {
        let step = FollowerStep {
            seats_taken: vec![seat("r1", &format!("m{position:02}"), "home", 1)],
            inbox: vec![item("r1", 1, 1), item("r2", 1, 1), item("r1", 2, 1)],
            ..step(position)
        };
        let (one, other) = tokio::join!(
            first.apply_follower_step(step.clone()),
            second.apply_follower_step(step),
        );
        let (one, other) = (one.unwrap(), other.unwrap());
        assert!(
            one.is_empty() != other.is_empty(),
            "step {position}: {one:?} {other:?}"
        );
    }
    assert_eq!(first.follower_cursor(FOLLOWER).await.unwrap(), STEPS);
    let r1 = first.inbox_after("r1", 0, 1000).await.unwrap();
    assert_eq!(
        r1.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=2 * STEPS).collect::<Vec<_>>()
    );
    assert_eq!(second.inbox_bounds("r2").await.unwrap(), (1, STEPS));
    assert_eq!(
        first.live_seat_counts().await.unwrap(),
        counts(&[("r1", STEPS)])
    );
    first.close().await.unwrap();
    second.close().await.unwrap();
}

/// Two stores on one database append to one bot at once, several items a time and with other
/// bots in between, in both orders: no seq is given twice, none is skipped, and nobody waits
/// on the other for good.
async fn racing_appends(first: Store, second: Store) {
    const ROUNDS: u64 = 40;
    let appends = |store: Store, hot_first: bool| {
        tokio::spawn(async move {
            let mut hot = Vec::new();
            for round in 0..ROUNDS {
                let time = round as i64;
                let items = if hot_first {
                    vec![
                        item("hot", 1, time),
                        item("cold", 1, time),
                        item("hot", 1, time),
                    ]
                } else {
                    vec![
                        item("cold", 2, time),
                        item("hot", 2, time),
                        item("hot", 2, time),
                    ]
                };
                let rows = store.append_inbox(items).await.unwrap();
                hot.extend(rows.into_iter().filter(|r| r.bot_id == "hot"));
            }
            hot
        })
    };
    let (one, other) = tokio::join!(appends(first.clone(), true), appends(second.clone(), false));
    let mut given: Vec<u64> = one.unwrap().into_iter().map(|r| r.seq).collect();
    let theirs: Vec<u64> = other.unwrap().into_iter().map(|r| r.seq).collect();
    given.extend(theirs);
    given.sort_unstable();
    assert_eq!(given, (1..=4 * ROUNDS).collect::<Vec<_>>());
    let stored = first.inbox_after("hot", 0, 1000).await.unwrap();
    assert_eq!(
        stored.iter().map(|r| r.seq).collect::<Vec<_>>(),
        (1..=4 * ROUNDS).collect::<Vec<_>>()
    );
    assert_eq!(second.inbox_bounds("cold").await.unwrap(), (1, 2 * ROUNDS));
    first.close().await.unwrap();
    second.close().await.unwrap();
}

/// Runs `scenario` with the URL of a schema of its own, dropped afterwards even when the
/// scenario fails; skipped (see `TestSchema`) without a server.
pub(super) async fn on_postgres<F, Fut>(scenario: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let outcome = tokio::spawn(scenario(schema.url.clone())).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

pub(super) async fn two_stores(url: &str, dir: &Path) -> (Store, Store) {
    let first = Store::open(url, dir).await.unwrap();
    let second = Store::open(url, dir).await.unwrap();
    (first, second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_keeps_inboxes_seats_and_cursors() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    league(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_keeps_inboxes_seats_and_cursors() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        league(|| Store::open(&url, &dir)).await;
    })
    .await;
}

/// Not a deployment the server supports (one server per file), but the transactions these
/// writes take hold their rules against another writer of the file all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_two_stores_on_one_file_apply_a_step_once() {
    let dir = ScratchDir::new();
    let (first, second) = two_stores("", &dir.0).await;
    racing_followers(first, second).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_racing_apply_a_step_once() {
    on_postgres(|url| async move {
        let (first, second) = two_stores(&url, Path::new("unused-by-postgres")).await;
        racing_followers(first, second).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_appending_to_one_bot_never_repeat_a_seq() {
    on_postgres(|url| async move {
        let (first, second) = two_stores(&url, Path::new("unused-by-postgres")).await;
        racing_appends(first, second).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_two_stores_on_one_file_never_repeat_a_seq() {
    let dir = ScratchDir::new();
    let (first, second) = two_stores("", &dir.0).await;
    racing_appends(first, second).await;
    dir.remove();
}
