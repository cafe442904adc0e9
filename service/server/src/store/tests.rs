//! One suite, run against both backends. The PostgreSQL run uses
//! `PITCHMATE_TEST_POSTGRES_URL` (default: the local server's `test` database) in a schema of its
//! own, dropped afterwards; without a reachable server it is skipped with a notice, unless `CI`
//! is set, where it fails.

use std::future::Future;
use std::path::PathBuf;

use super::*;

const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A directory of its own for one test, removed by [`ScratchDir::remove`].
pub(crate) struct ScratchDir(pub PathBuf);

impl ScratchDir {
    pub(crate) fn new() -> Self {
        let path = std::env::temp_dir().join(format!("pitchmate-store-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&path).expect("scratch directory");
        Self(path)
    }

    pub(crate) fn remove(self) {
        std::fs::remove_dir_all(&self.0).expect("remove the scratch directory");
    }
}

/// A SQLite store in a fresh directory.
pub(crate) async fn scratch_store() -> (Store, ScratchDir) {
    let dir = ScratchDir::new();
    let store = Store::open("", &dir.0).await.expect("open sqlite");
    (store, dir)
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
            action: vec![7, number as u8],
        }],
        events: vec![event(seq), event(seq + 1)],
        answer: Some(AnswerRow {
            seat: (number % 2) as u8,
            client_action_id: format!("id-{number}"),
            response: vec![9, number as u8],
        }),
        status: None,
    }
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
    store.create(row("a"), vec![event(1)]).await.unwrap();
    store.create(row("b"), Vec::new()).await.unwrap();
    let join = Append {
        match_id: "a".to_owned(),
        inputs: vec![InputRow {
            number: 0,
            kind: InputKind::Joined,
            seat: 0,
            player_name: "alice".to_owned(),
            token_hash: vec![0xab; 32],
            action: Vec::new(),
        }],
        events: vec![event(2)],
        answer: None,
        status: Some(StatusChange {
            status: 2,
            summary: vec![6],
        }),
    };
    store.append(join.clone()).await.unwrap();
    store.append(action("a", 1, 3)).await.unwrap();

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
    assert!(matches!(
        store.append(clash).await,
        Err(StoreError::Database(_))
    ));
    assert_eq!(store.load("a").await.unwrap().unwrap().inputs.len(), 2);
    assert!(store.append(action("missing", 0, 1)).await.is_err());

    // Many matches appending at once: group commit keeps every match's order.
    let ids: Vec<String> = (0..16).map(|i| format!("m{i:02}")).collect();
    for id in &ids {
        store.create(row(id), Vec::new()).await.unwrap();
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
    }
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

/// A schema of its own in the test database, or `None` (with a notice) when no server answers
/// outside CI.
pub(crate) struct TestSchema {
    admin: tokio_postgres::Client,
    name: String,
    pub(crate) url: String,
}

impl TestSchema {
    pub(crate) async fn create() -> Option<Self> {
        let base = std::env::var("PITCHMATE_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_owned());
        let admin = match tokio_postgres::connect(&base, tokio_postgres::NoTls).await {
            Ok((client, connection)) => {
                tokio::spawn(connection);
                client
            }
            Err(error) if std::env::var_os("CI").is_some() => {
                panic!("CI is set but PostgreSQL at {base} is unreachable: {error}")
            }
            Err(error) => {
                eprintln!("skipping the PostgreSQL suite: {base} is unreachable ({error})");
                return None;
            }
        };
        let name = format!("pitchmate_test_{}", uuid::Uuid::new_v4().simple());
        admin
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .await
            .expect("create the test schema");
        let separator = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{separator}options=-csearch_path%3D{name}");
        Some(Self { admin, name, url })
    }

    pub(crate) async fn drop_schema(self) {
        self.admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await
            .expect("drop the test schema");
    }
}

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
