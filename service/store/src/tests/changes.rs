//! Live changes across servers sharing one PostgreSQL database: what one server commits reaches
//! the live feeds of another that shares its changes, at once, and after the other's listener
//! lost its connection, whatever was committed meanwhile.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

use super::league::{on_postgres, two_stores};
use super::{entry, row};
use crate::{
    LifecycleRow, NewInboxItem, NewTournamentLogItem, RemoteChange, Store, TournamentRow,
    TournamentState,
};

/// How long a test waits for something to arrive before it fails; it goes on as soon as it
/// arrives, so this is no claim about speed.
const PATIENCE: Duration = Duration::from_secs(20);

fn item(bot_id: &str, kind: u32) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind,
        body: format!("{bot_id} {kind}").into_bytes(),
        time_nanos: 1_900_000_000_000_000_000,
    }
}

fn tournament(id: &str) -> (TournamentRow, Vec<NewTournamentLogItem>) {
    let row = TournamentRow {
        tournament_id: id.to_owned(),
        name: format!("name of {id}"),
        organiser: "operator".to_owned(),
        spec: Vec::new(),
        state: TournamentState::Open,
        created_nanos: 1_900_000_000_000_000_000,
        starts_nanos: 1_900_000_000_000_001_000,
        rounds_paired: 0,
        finished_nanos: None,
        end_reason: String::new(),
    };
    let log = vec![NewTournamentLogItem {
        tournament_id: id.to_owned(),
        kind: 1,
        body: b"created".to_vec(),
        time_nanos: 1_900_000_000_000_000_000,
    }];
    (row, log)
}

async fn next_entry(live: &mut broadcast::Receiver<Arc<LifecycleRow>>) -> (u64, String) {
    let row = tokio::time::timeout(PATIENCE, live.recv())
        .await
        .expect("a lifecycle entry in time")
        .expect("the live feed");
    (row.position, row.match_id.clone())
}

/// The next remote change other than [`RemoteChange::Missed`].
async fn next_change(remote: &mut broadcast::Receiver<RemoteChange>) -> RemoteChange {
    loop {
        let change = tokio::time::timeout(PATIENCE, remote.recv())
            .await
            .expect("a remote change in time")
            .expect("the remote changes");
        if change != RemoteChange::Missed {
            return change;
        }
    }
}

async fn missed(remote: &mut broadcast::Receiver<RemoteChange>) {
    loop {
        let change = tokio::time::timeout(PATIENCE, remote.recv())
            .await
            .expect("the listener connected in time")
            .expect("the remote changes");
        if change == RemoteChange::Missed {
            return;
        }
    }
}

fn inbox_of(change: RemoteChange) -> Vec<(String, u64, u32)> {
    match change {
        RemoteChange::Inbox(rows) => rows
            .into_iter()
            .map(|row| (row.bot_id, row.seq, row.kind))
            .collect(),
        other => panic!("expected inbox items, got {other:?}"),
    }
}

fn owned(rows: &[(&str, u64, u32)]) -> Vec<(String, u64, u32)> {
    rows.iter().map(|&(b, s, k)| (b.to_owned(), s, k)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lifecycle_entries_reach_the_other_server_live() {
    on_postgres(|url| async move {
        let (a, b) = two_stores(&url, Path::new("unused-by-postgres")).await;
        let mut on_a = a.lifecycle_live();
        let mut on_b = b.lifecycle_live();
        a.share_changes().await.unwrap();
        b.share_changes().await.unwrap();

        a.create(row("m1"), Vec::new(), vec![entry("m1")])
            .await
            .unwrap();
        assert_eq!(next_entry(&mut on_b).await, (1, "m1".to_owned()));
        let mut two = super::action("m1", 0, 1);
        two.lifecycle = vec![entry("m1"), entry("m1")];
        a.append(two).await.unwrap();
        assert_eq!(next_entry(&mut on_b).await, (2, "m1".to_owned()));
        assert_eq!(next_entry(&mut on_b).await, (3, "m1".to_owned()));

        // B's own entry reaches its feed once, and A's feed too.
        b.create(row("m2"), Vec::new(), vec![entry("m2")])
            .await
            .unwrap();
        a.create(row("m3"), Vec::new(), vec![entry("m3")])
            .await
            .unwrap();
        assert_eq!(next_entry(&mut on_b).await, (4, "m2".to_owned()));
        assert_eq!(next_entry(&mut on_b).await, (5, "m3".to_owned()));
        for expected in [(1, "m1"), (2, "m1"), (3, "m1"), (4, "m2"), (5, "m3")] {
            assert_eq!(
                next_entry(&mut on_a).await,
                (expected.0, expected.1.to_owned())
            );
        }
        assert_eq!((a.last_position(), b.last_position()), (5, 5));
        a.close().await.unwrap();
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_inbox_items_and_tournament_changes_reach_the_other_server() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        let (a, b) = two_stores(&url, &dir).await;
        // A server that does not share its changes (cluster mode off) sends nothing.
        let alone = Store::open(&url, &dir).await.unwrap();
        let mut on_b = b.remote_changes();
        a.share_changes().await.unwrap();
        b.share_changes().await.unwrap();
        // What commits before B listens reaches B's readers as the `Missed` it sends once it
        // listens (they read the store again), not as the items themselves: wait for it.
        missed(&mut on_b).await;

        a.append_inbox(vec![item("bot-1", 1), item("bot-2", 2), item("bot-1", 3)])
            .await
            .unwrap();
        assert_eq!(
            inbox_of(next_change(&mut on_b).await),
            owned(&[("bot-1", 1, 1), ("bot-1", 2, 3)])
        );
        assert_eq!(
            inbox_of(next_change(&mut on_b).await),
            owned(&[("bot-2", 1, 2)])
        );

        let (t1, log) = tournament("t1");
        assert!(a.create_tournament(t1, log).await.unwrap());
        assert_eq!(
            next_change(&mut on_b).await,
            RemoteChange::Tournament("t1".to_owned())
        );

        // Neither B's own writes nor those of a server not sharing come back to B; A's next
        // change is the next B hears of.
        b.append_inbox(vec![item("bot-1", 4)]).await.unwrap();
        alone.append_inbox(vec![item("bot-2", 5)]).await.unwrap();
        let (t2, log) = tournament("t2");
        assert!(alone.create_tournament(t2, log).await.unwrap());
        a.append_inbox(vec![item("bot-2", 6)]).await.unwrap();
        assert_eq!(
            inbox_of(next_change(&mut on_b).await),
            owned(&[("bot-2", 3, 6)])
        );
        for store in [a, b, alone] {
            store.close().await.unwrap();
        }
    })
    .await;
}

/// The backend process of the store's listener: the connection named `application` whose last
/// statement was its LISTEN.
async fn listener_pid(admin: &tokio_postgres::Client, application: &str) -> i32 {
    admin
        .query_one(
            "SELECT pid FROM pg_stat_activity \
             WHERE application_name = $1 AND query LIKE 'LISTEN %'",
            &[&application],
        )
        .await
        .expect("one listener")
        .get(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_listener_cut_off_catches_up_on_what_was_committed_meanwhile() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        let application = format!("listener-{}", uuid::Uuid::new_v4().simple());
        let b_url = format!("{url}&application_name={application}");
        let b = Store::open(&b_url, &dir).await.unwrap();
        // Stands for whatever B's listener cannot hear while it is cut off: it never notifies.
        let unheard = Store::open(&url, &dir).await.unwrap();
        let mut live = b.lifecycle_live();
        let mut remote = b.remote_changes();
        b.share_changes().await.unwrap();
        missed(&mut remote).await;

        unheard
            .create(row("unheard"), Vec::new(), vec![entry("unheard")])
            .await
            .unwrap();
        unheard.append_inbox(vec![item("bot-1", 1)]).await.unwrap();
        let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let pid = listener_pid(&admin, &application).await;
        let terminated: bool = admin
            .query_one("SELECT pg_terminate_backend($1)", &[&pid])
            .await
            .unwrap()
            .get(0);
        assert!(terminated);

        // Connected again, B publishes the entry it never heard of and tells the inbox and
        // tournament readers to read again.
        assert_eq!(next_entry(&mut live).await, (1, "unheard".to_owned()));
        missed(&mut remote).await;
        assert_ne!(listener_pid(&admin, &application).await, pid);

        // And it hears live changes again.
        let a = Store::open(&url, &dir).await.unwrap();
        a.share_changes().await.unwrap();
        a.create(row("heard"), Vec::new(), vec![entry("heard")])
            .await
            .unwrap();
        assert_eq!(next_entry(&mut live).await, (2, "heard".to_owned()));
        for store in [a, b, unheard] {
            store.close().await.unwrap();
        }
    })
    .await;
}
