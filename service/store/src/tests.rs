//! One suite, run against both backends. The PostgreSQL run uses
//! `PITCHMATE_TEST_POSTGRES_URL` (default: the local server's `test` database) in a schema of its
//! own, dropped afterwards; without a reachable server it is skipped with a notice, unless `CI`
//! is set, where it fails.

use std::future::Future;
use std::path::PathBuf;

use super::*;
use crate::scratch::{ScratchDir, scratch_store};

mod accounts;
mod changes;
mod league;
mod leases;
mod matchmaking;
mod tournaments;

/// The schema this code writes; a fresh store is at it, and an older one is migrated to it.
const LATEST_SCHEMA: i64 = 13;

/// Checks a write was refused by the database itself, then waits until the store, unwritable
/// since, has probed its way back, so the next write is judged on its own.
async fn refused(result: Result<(), StoreError>, store: &Store) {
    assert!(matches!(result, Err(StoreError::Database(_))), "{result:?}");
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        store.health().wait_for(|h| *h == StoreHealth::Writable),
    )
    .await
    .expect("a probe succeeds")
    .expect("the store is open");
}

fn row(match_id: &str) -> MatchRow {
    MatchRow {
        match_id: match_id.to_owned(),
        variant_id: "soccer-chess".to_owned(),
        status: 1,
        setup: vec![1, 2, 3],
        summary: vec![4, 5],
    }
}

fn event(seq: u64) -> EventRow {
    EventRow {
        seq,
        version: seq / 2,
        time_nanos: 1_700_000_000_000_000 + seq as i64,
        owner_seat: seq.is_multiple_of(3).then_some(1),
        owner_name: if seq.is_multiple_of(3) { "second" } else { "" }.to_owned(),
        hidden_step: seq.is_multiple_of(6),
        kind: vec![seq as u8; 5],
    }
}

fn action(match_id: &str, number: u64, seq: u64) -> Append {
    Append {
        match_id: match_id.to_owned(),
        inputs: vec![InputRow {
            number,
            kind: InputKind::Acted,
            seat: (number % 2) as u8,
            player_name: String::new(),
            token_hash: Vec::new(),
            account: String::new(),
            action: vec![7, number as u8],
        }],
        events: vec![event(seq), event(seq + 1)],
        answer: Some(AnswerRow {
            seat: (number % 2) as u8,
            client_action_id: format!("id-{number}"),
            response: vec![9, number as u8],
        }),
        status: None,
        lifecycle: Vec::new(),
    }
}

/// A lifecycle entry of `match_id`, not yet numbered.
fn entry(match_id: &str) -> LifecycleRow {
    LifecycleRow {
        position: 0,
        match_id: match_id.to_owned(),
        variant_id: "soccer-chess".to_owned(),
        time_nanos: 1_700_000_000_000_000_000,
        body: match_id.as_bytes().to_vec(),
    }
}

/// The stored lifecycle feed as (position, match id).
async fn feed(store: &Store) -> Vec<(u64, String)> {
    store
        .lifecycle_after(0, 1000)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.position, row.match_id))
        .collect()
}

/// Everything the store promises, against whichever backend `open` opens (each call opens the
/// same database anew).
async fn suite<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    assert!(store.matches().await.unwrap().is_empty());
    assert_eq!(store.load("nope").await.unwrap(), None);

    // A match with its first events, a join, then actions.
    store
        .create(row("a"), vec![event(1)], vec![entry("a")])
        .await
        .unwrap();
    store
        .create(row("b"), Vec::new(), vec![entry("b")])
        .await
        .unwrap();
    let join = Append {
        match_id: "a".to_owned(),
        inputs: vec![InputRow {
            number: 0,
            kind: InputKind::Joined,
            seat: 0,
            player_name: "alice".to_owned(),
            token_hash: vec![0xab; 32],
            account: "0123456789abcdef".to_owned(),
            action: Vec::new(),
        }],
        events: vec![event(2)],
        answer: None,
        status: Some(StatusChange {
            status: 2,
            summary: vec![6],
        }),
        lifecycle: vec![entry("a"), entry("a")],
    };
    let mut live = store.lifecycle_live();
    store.append(join.clone()).await.unwrap();
    store.append(action("a", 1, 3)).await.unwrap();
    // The feed numbers entries in the order committed, with no gap, and publishes them live.
    let numbered = vec![
        (1, "a".to_owned()),
        (2, "b".to_owned()),
        (3, "a".to_owned()),
        (4, "a".to_owned()),
    ];
    assert_eq!(feed(&store).await, numbered);
    assert_eq!(store.last_position(), 4);
    for position in [3, 4] {
        assert_eq!(live.recv().await.unwrap().position, position);
    }
    let stored = store.lifecycle_after(2, 1).await.unwrap();
    assert_eq!(stored.len(), 1, "at most the limit");
    assert_eq!(stored[0].body, b"a", "as written");

    let loaded = store.load("a").await.unwrap().expect("match a");
    assert_eq!(loaded.row.status, 2);
    assert_eq!(loaded.row.summary, vec![6]);
    assert_eq!(loaded.row.setup, vec![1, 2, 3]);
    assert_eq!(
        loaded.inputs,
        [join.inputs[0].clone(), action("a", 1, 3).inputs[0].clone()]
    );
    assert_eq!(loaded.events, [event(1), event(2), event(3), event(4)]);
    assert_eq!(
        loaded.answers,
        action("a", 1, 3).answer.into_iter().collect::<Vec<_>>()
    );

    // A write that breaks a rule (an event seq twice) fails and leaves nothing behind.
    let mut clash = action("a", 2, 4);
    clash.events[0] = event(5);
    clash.events[1] = event(4);
    refused(store.append(clash).await, &store).await;
    assert_eq!(store.load("a").await.unwrap().unwrap().inputs.len(), 2);
    let mut failing = action("missing", 0, 1);
    failing.lifecycle = vec![entry("missing")];
    refused(store.append(failing).await, &store).await;
    assert_eq!(feed(&store).await, numbered, "a failed batch adds no entry");
    // An input number twice fails too; after failures the match goes on where it stood.
    let mut again = action("a", 2, 5);
    again.inputs[0].number = 1;
    refused(store.append(again).await, &store).await;
    store.append(action("a", 2, 5)).await.unwrap();
    let loaded = store.load("a").await.unwrap().unwrap();
    assert_eq!(
        loaded.inputs.iter().map(|i| i.number).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert_eq!(
        loaded.events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );

    // A status change alone; several inputs and events in one append.
    let ended = Append {
        match_id: "b".to_owned(),
        status: Some(StatusChange {
            status: 4,
            summary: vec![8, 8],
        }),
        lifecycle: vec![entry("b")],
        ..Append::default()
    };
    store.append(ended).await.unwrap();
    let mut numbered = numbered;
    numbered.push((5, "b".to_owned()));
    assert_eq!(
        feed(&store).await,
        numbered,
        "the failed batch's number is used next"
    );
    let loaded = store.load("b").await.unwrap().unwrap();
    assert_eq!((loaded.row.status, loaded.row.summary), (4, vec![8, 8]));
    assert!(loaded.inputs.is_empty() && loaded.events.is_empty() && loaded.answers.is_empty());

    // Many matches appending at once: group commit keeps every match's order.
    let ids: Vec<String> = (0..16).map(|i| format!("m{i:02}")).collect();
    for id in &ids {
        store.create(row(id), Vec::new(), Vec::new()).await.unwrap();
    }
    let mut writers = Vec::new();
    for id in ids.clone() {
        let store = store.clone();
        writers.push(tokio::spawn(async move {
            for number in 0..20u64 {
                store
                    .append(action(&id, number, 1 + 2 * number))
                    .await
                    .unwrap();
            }
        }));
    }
    for writer in writers {
        writer.await.unwrap();
    }
    store.close().await.unwrap();
    assert_eq!(
        store.append(action("a", 2, 5)).await,
        Err(StoreError::Closed)
    );

    // Everything acknowledged is there after reopening, in order.
    let store = open().await.expect("reopen");
    assert_eq!(store.last_position(), 5);
    assert_eq!(feed(&store).await, numbered);
    let listed: Vec<String> = store
        .matches()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.match_id)
        .collect();
    let mut expected = vec!["a".to_owned(), "b".to_owned()];
    expected.extend(ids.iter().cloned());
    assert_eq!(listed, expected, "oldest first");
    for id in &ids {
        let loaded = store.load(id).await.unwrap().unwrap();
        let seqs: Vec<u64> = loaded.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=40).collect::<Vec<_>>());
        assert_eq!(loaded.inputs.len(), 20);
        assert_eq!(loaded.answers.len(), 20);
        assert_eq!(loaded.answers[19], action(id, 19, 39).answer.unwrap());
    }
    let loaded = store.load("b").await.unwrap().unwrap();
    assert_eq!(loaded.row.status, 4);

    // Where a match stands survives the reopening: what was stored is refused again, what
    // follows it is taken.
    refused(store.append(action("m00", 20, 40)).await, &store).await;
    let mut stale = action("m00", 19, 41);
    stale.events.clear();
    refused(store.append(stale).await, &store).await;
    store.append(action("m00", 20, 41)).await.unwrap();
    let loaded = store.load("m00").await.unwrap().unwrap();
    assert_eq!(loaded.events.len(), 42);
    assert_eq!(loaded.inputs.last(), action("m00", 20, 41).inputs.last());
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_backend_keeps_its_promises() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    suite(|| Store::open("", &path)).await;
    assert!(path.join(SQLITE_FILE).exists());
    dir.remove();
}

#[tokio::test]
async fn unknown_store_urls_are_refused() {
    let dir = ScratchDir::new();
    let error = Store::open("mysql://x", &dir.0).await.unwrap_err();
    assert_eq!(error, StoreError::UnknownUrl("mysql://x".to_owned()));
    dir.remove();
}

pub(crate) use crate::scratch::ScratchSchema as TestSchema;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_backend_keeps_its_promises() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let dir = PathBuf::from("unused-by-postgres");
    // The schema goes even when the suite fails.
    let outcome = tokio::spawn(async move { suite(|| Store::open(&url, &dir)).await }).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// What a schema-1 database holds for the migration tests, as schema 1 loaded it (answers by
/// seat, then client action id).
fn schema_1_matches() -> Vec<StoredMatch> {
    let join = |number: u64, seat: u8, name: &str| InputRow {
        number,
        kind: InputKind::Joined,
        seat,
        player_name: name.to_owned(),
        token_hash: vec![number as u8; 32],
        account: String::new(),
        action: Vec::new(),
    };
    let acted = |number: u64, seat: u8| InputRow {
        number,
        kind: InputKind::Acted,
        seat,
        player_name: String::new(),
        token_hash: Vec::new(),
        account: String::new(),
        action: vec![7, number as u8, seat],
    };
    let answer = |seat: u8, id: &str| AnswerRow {
        seat,
        client_action_id: id.to_owned(),
        response: id.as_bytes().to_vec(),
    };
    let mut played = row("old-a");
    played.status = 2;
    played.summary = vec![6, 6];
    let mut joined = row("old-c");
    joined.variant_id = "gridiron".to_owned();
    vec![
        StoredMatch {
            row: played,
            inputs: vec![
                join(0, 0, "alice"),
                join(1, 1, "bob"),
                acted(2, 0),
                acted(3, 1),
                InputRow {
                    kind: InputKind::OfferedDraw,
                    ..acted(4, 0)
                },
            ],
            // Schema 1 had no hidden steps.
            events: (1..=7)
                .map(|seq| EventRow {
                    hidden_step: false,
                    ..event(seq)
                })
                .collect(),
            answers: vec![answer(0, "x-1"), answer(0, "x-3"), answer(1, "x-2")],
        },
        StoredMatch {
            row: row("old-b"),
            inputs: Vec::new(),
            events: Vec::new(),
            answers: Vec::new(),
        },
        StoredMatch {
            row: joined,
            inputs: vec![join(0, 1, "carol")],
            events: vec![event(1), event(2)],
            answers: Vec::new(),
        },
    ]
}

/// Writes `matches` into a fresh SQLite file the way schema 1 did.
fn write_schema_1_sqlite(path: &std::path::Path, matches: &[StoredMatch]) {
    let mut connection = rusqlite::Connection::open(path).unwrap();
    connection
        .pragma_update(None, "journal_mode", "WAL")
        .unwrap();
    let transaction = connection.transaction().unwrap();
    transaction.execute_batch(sqlite::ROW_PER_ITEM).unwrap();
    transaction
        .execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version (version) VALUES (1);",
        )
        .unwrap();
    for stored in matches {
        let (row, id) = (&stored.row, &stored.row.match_id);
        transaction
            .execute(
                "INSERT INTO matches (match_id, variant_id, status, setup, summary) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![id, row.variant_id, row.status, row.setup, row.summary],
            )
            .unwrap();
        for input in &stored.inputs {
            transaction
                .execute(
                    "INSERT INTO inputs (match_id, number, kind, seat, player_name, \
                     token_hash, action) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    rusqlite::params![
                        id,
                        input.number as i64,
                        input.kind.code(),
                        i64::from(input.seat),
                        input.player_name,
                        input.token_hash,
                        input.action
                    ],
                )
                .unwrap();
        }
        for event in &stored.events {
            transaction
                .execute(
                    "INSERT INTO events (match_id, seq, version, time_nanos, owner_seat, \
                     owner_name, kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    rusqlite::params![
                        id,
                        event.seq as i64,
                        event.version as i64,
                        event.time_nanos,
                        event.owner_seat.map(i64::from),
                        event.owner_name,
                        event.kind
                    ],
                )
                .unwrap();
        }
        // Written in another order than they load in.
        for answer in stored.answers.iter().rev() {
            transaction
                .execute(
                    "INSERT INTO answers (match_id, seat, client_action_id, response) \
                     VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![
                        id,
                        i64::from(answer.seat),
                        answer.client_action_id,
                        answer.response
                    ],
                )
                .unwrap();
        }
    }
    transaction.commit().unwrap();
}

/// Writes `matches` into the empty schema `url` names the way schema 1 did.
async fn write_schema_1_postgres(url: &str, matches: &[StoredMatch]) {
    let (mut client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let transaction = client.transaction().await.unwrap();
    transaction
        .batch_execute(postgres::ROW_PER_ITEM)
        .await
        .unwrap();
    transaction
        .batch_execute(
            "CREATE TABLE schema_version (version BIGINT NOT NULL);
             INSERT INTO schema_version (version) VALUES (1);",
        )
        .await
        .unwrap();
    for stored in matches {
        let (row, id) = (&stored.row, &stored.row.match_id);
        transaction
            .execute(
                "INSERT INTO matches (match_id, variant_id, status, setup, summary) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[id, &row.variant_id, &row.status, &row.setup, &row.summary],
            )
            .await
            .unwrap();
        for input in &stored.inputs {
            transaction
                .execute(
                    "INSERT INTO inputs (match_id, number, kind, seat, player_name, \
                     token_hash, action) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    &[
                        id,
                        &(input.number as i64),
                        &input.kind.code(),
                        &i64::from(input.seat),
                        &input.player_name,
                        &input.token_hash,
                        &input.action,
                    ],
                )
                .await
                .unwrap();
        }
        for event in &stored.events {
            transaction
                .execute(
                    "INSERT INTO events (match_id, seq, version, time_nanos, owner_seat, \
                     owner_name, kind) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    &[
                        id,
                        &(event.seq as i64),
                        &(event.version as i64),
                        &event.time_nanos,
                        &event.owner_seat.map(i64::from),
                        &event.owner_name,
                        &event.kind,
                    ],
                )
                .await
                .unwrap();
        }
        for answer in stored.answers.iter().rev() {
            transaction
                .execute(
                    "INSERT INTO answers (match_id, seat, client_action_id, response) \
                     VALUES ($1, $2, $3, $4)",
                    &[
                        id,
                        &i64::from(answer.seat),
                        &answer.client_action_id,
                        &answer.response,
                    ],
                )
                .await
                .unwrap();
        }
    }
    transaction.commit().await.unwrap();
}

/// A schema-1 database opened by this code: everything loads as before, and the matches go on.
async fn migrated<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let before = schema_1_matches();
    let store = open().await.expect("open and migrate");
    let listed: Vec<MatchRow> = store.matches().await.unwrap();
    assert_eq!(
        listed,
        before.iter().map(|m| m.row.clone()).collect::<Vec<_>>()
    );
    for stored in &before {
        let loaded = store.load(&stored.row.match_id).await.unwrap();
        assert_eq!(loaded.as_ref(), Some(stored));
    }

    // The migrated history is followed by new appends, and still guards its numbers.
    refused(store.append(action("old-a", 5, 7)).await, &store).await;
    refused(store.append(action("old-a", 4, 8)).await, &store).await;
    store.append(action("old-a", 5, 8)).await.unwrap();
    // The leases came with the migration: a write fenced by one commits.
    let lease = store
        .acquire_lease(
            &match_lease("old-b"),
            "r1",
            std::time::Duration::from_secs(30),
        )
        .await
        .unwrap();
    store
        .append_fenced(action("old-b", 0, 1), Some(lease.token))
        .await
        .unwrap();
    store
        .create(row("new"), vec![event(1)], Vec::new())
        .await
        .unwrap();
    store.close().await.unwrap();

    let store = open().await.expect("reopen");
    let mut expected = before[0].clone();
    let next = action("old-a", 5, 8);
    expected.inputs.extend(next.inputs);
    expected.events.extend(next.events);
    expected.answers.extend(next.answer);
    assert_eq!(store.load("old-a").await.unwrap(), Some(expected));
    let loaded = store.load("old-b").await.unwrap().unwrap();
    assert_eq!(loaded.events, [event(1), event(2)]);
    assert_eq!(
        store.load("old-c").await.unwrap().as_ref(),
        Some(&before[2])
    );
    let listed: Vec<String> = store
        .matches()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.match_id)
        .collect();
    assert_eq!(listed, ["old-a", "old-b", "old-c", "new"]);
    // The players of the migrated matches were read from their joins.
    for (player, expected) in [("alice", vec!["old-a"]), ("carol", vec!["old-c"])] {
        let filter = Listing {
            player_name: player.to_owned(),
            ..Listing::default()
        };
        assert_eq!(ids(&store, &filter, None, 10).await, expected, "{player}");
    }
    store.close().await.unwrap();
}

async fn ids(store: &Store, filter: &Listing, before: Option<i64>, limit: usize) -> Vec<String> {
    store
        .list(filter, before, limit)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.match_id)
        .collect()
}

/// Listings: newest first, filtered by variant, status and player, in pages that continue
/// below the last key, and the ids by status.
async fn listings<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    let join = |match_id: &str, number: u64, name: &str| Append {
        match_id: match_id.to_owned(),
        inputs: vec![InputRow {
            number,
            kind: InputKind::Joined,
            seat: number as u8,
            player_name: name.to_owned(),
            token_hash: vec![1; 32],
            account: String::new(),
            action: Vec::new(),
        }],
        events: vec![event(number + 2)],
        answer: None,
        status: None,
        lifecycle: Vec::new(),
    };
    for n in 0..12 {
        let id = format!("m{n:02}");
        let mut row = row(&id);
        row.variant_id = if n % 3 == 0 { "gridiron" } else { "kings-goal" }.to_owned();
        row.summary = vec![n as u8];
        row.setup = vec![200 + n as u8];
        store.create(row, vec![event(1)], Vec::new()).await.unwrap();
        if n % 2 == 0 {
            store.append(join(&id, 0, "ann")).await.unwrap();
            // Both seats of one name count once.
            let mut second = join(&id, 1, if n % 4 == 0 { "ann" } else { "ben" });
            second.status = Some(StatusChange {
                status: 2,
                summary: vec![100 + n as u8],
            });
            store.append(second).await.unwrap();
        }
    }
    let all = Listing::default();
    let newest: Vec<String> = (0..12).rev().map(|n| format!("m{n:02}")).collect();
    assert_eq!(ids(&store, &all, None, 100).await, newest);
    // Pages of five continue below the last key of the page before.
    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = store.list(&all, before, 5).await.unwrap();
        paged.extend(page.iter().map(|r| r.match_id.clone()));
        if page.len() < 5 {
            break;
        }
        before = page.last().map(|r| r.key);
    }
    assert_eq!(paged, newest);
    let listed = store.list(&all, None, 2).await.unwrap();
    assert_eq!(
        (&listed[0].summary, &listed[0].setup),
        (&vec![11], &vec![211])
    );
    assert_eq!(
        listed[1].summary,
        [110],
        "the summary of the last status change"
    );

    let only = |variant: &str, status: Option<i32>, player: &str| Listing {
        variant_id: variant.to_owned(),
        status,
        player_name: player.to_owned(),
    };
    assert_eq!(
        ids(&store, &only("gridiron", None, ""), None, 100).await,
        ["m09", "m06", "m03", "m00"]
    );
    assert_eq!(
        ids(&store, &only("", Some(2), ""), None, 100).await,
        ["m10", "m08", "m06", "m04", "m02", "m00"]
    );
    assert_eq!(
        ids(&store, &only("", None, "ann"), None, 100).await,
        ["m10", "m08", "m06", "m04", "m02", "m00"]
    );
    assert_eq!(
        ids(&store, &only("", None, "ben"), None, 100).await,
        ["m10", "m06", "m02"]
    );
    assert_eq!(
        ids(&store, &only("gridiron", Some(2), "ben"), None, 100).await,
        ["m06"]
    );
    let ben = only("", None, "ben");
    let first = store.list(&ben, None, 2).await.unwrap();
    assert_eq!(
        ids(&store, &ben, Some(first[1].key), 10).await,
        ["m02"],
        "a player's pages continue too"
    );
    assert!(
        ids(&store, &only("", None, "nobody"), None, 10)
            .await
            .is_empty()
    );

    let waiting_then_active = store.with_status(&[1, 2]).await.unwrap();
    assert_eq!(
        waiting_then_active,
        [
            "m01", "m03", "m05", "m07", "m09", "m11", "m00", "m02", "m04", "m06", "m08", "m10"
        ]
    );
    assert!(store.with_status(&[4]).await.unwrap().is_empty());
    let mut counts = store.count_by_status().await.unwrap();
    counts.sort_unstable();
    assert_eq!(counts, [(1, 6), (2, 6)], "only statuses some match has");
    store.check().await.expect("the store answers its check");
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_listings_filter_and_page() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    listings(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_listings_filter_and_page() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let dir = PathBuf::from("unused-by-postgres");
    let outcome = tokio::spawn(async move { listings(|| Store::open(&url, &dir)).await }).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migrates_a_schema_1_database() {
    let dir = ScratchDir::new();
    write_schema_1_sqlite(&dir.0.join(SQLITE_FILE), &schema_1_matches());
    let path = dir.0.clone();
    migrated(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migrates_a_schema_1_database() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let dir = PathBuf::from("unused-by-postgres");
    let outcome = tokio::spawn(async move {
        write_schema_1_postgres(&url, &schema_1_matches()).await;
        migrated(|| Store::open(&url, &dir)).await;
    })
    .await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// What a crash leaves: the files as they are after the last acknowledged commit, the
/// write-ahead log not yet folded into the database. Opening a copy of them gives everything
/// back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_reads_back_what_only_the_log_holds() {
    let (store, dir) = scratch_store().await;
    store
        .create(row("a"), vec![event(1)], Vec::new())
        .await
        .unwrap();
    for number in 0..50 {
        store
            .append(action("a", number, 2 + 2 * number))
            .await
            .unwrap();
    }
    let wal = dir.0.join(format!("{SQLITE_FILE}-wal"));
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the log holds the commits"
    );
    let copy = ScratchDir::new();
    std::fs::copy(dir.0.join(SQLITE_FILE), copy.0.join(SQLITE_FILE)).unwrap();
    std::fs::copy(&wal, copy.0.join(format!("{SQLITE_FILE}-wal"))).unwrap();
    let expected = store.load("a").await.unwrap().unwrap();
    assert_eq!(expected.inputs.len(), 50);

    let reopened = Store::open("", &copy.0).await.unwrap();
    assert_eq!(reopened.load("a").await.unwrap(), Some(expected));
    reopened.close().await.unwrap();
    store.close().await.unwrap();
    assert_eq!(
        std::fs::metadata(&wal).unwrap().len(),
        0,
        "closing folds the log"
    );
    copy.remove();
    dir.remove();
}

#[tokio::test]
async fn an_empty_store_file_is_refused_not_taken_for_an_empty_store() {
    let dir = ScratchDir::new();
    let file = dir.0.join(SQLITE_FILE);
    std::fs::File::create(&file).unwrap();
    let refused = Store::open("", &dir.0).await.expect_err("an empty file");
    assert!(
        refused.to_string().contains("is empty (0 bytes)"),
        "{refused}"
    );
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 0, "left as it was");
    std::fs::remove_file(&file).unwrap();
    let fresh = Store::open("", &dir.0).await.expect("no file: a new store");
    fresh.close().await.unwrap();
    dir.remove();
}

/// A failed batch turns the store unwritable: writes fail at once without being queued, until a
/// probe finds the database writable again, and then writes are committed as before.
async fn recovers_from_a_failed_batch<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    let mut health = store.health();
    store
        .create(row("a"), vec![event(1)], Vec::new())
        .await
        .unwrap();
    assert!(store.writable());
    let failed = store.append(action("no-such-match", 0, 1)).await;
    assert!(matches!(failed, Err(StoreError::Database(_))), "{failed:?}");
    assert!(
        !store.writable(),
        "unwritable before the caller hears of it"
    );
    let refused = store.append(action("a", 0, 2)).await;
    assert!(
        matches!(refused, Err(StoreError::Unwritable(_))),
        "{refused:?}"
    );
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        health.wait_for(|h| *h == StoreHealth::Writable),
    )
    .await
    .expect("a probe succeeds")
    .expect("the store is open");
    store.append(action("a", 0, 2)).await.expect("writes again");
    let loaded = store.load("a").await.unwrap().unwrap();
    assert_eq!(loaded.inputs.len(), 1, "the refused write was never stored");
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_recovers_from_a_failed_batch() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    recovers_from_a_failed_batch(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_recovers_from_a_failed_batch() {
    let Some(schema) = TestSchema::create().await else {
        return;
    };
    let url = schema.url.clone();
    let dir = PathBuf::from("unused-by-postgres");
    let outcome = tokio::spawn(async move {
        recovers_from_a_failed_batch(|| Store::open(&url, &dir)).await;
    })
    .await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}
