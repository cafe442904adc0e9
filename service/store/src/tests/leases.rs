//! Leases and fenced writes, against both backends: one store, and two stores on one database
//! standing for two servers.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::metrics::{
    Counter, CounterFn, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};

use super::league::{on_postgres, two_stores};
use super::{LATEST_SCHEMA, action, entry, feed, row};
use crate::scratch::ScratchDir;
use crate::{
    Lease, LeaseHeld, LeaseLost, MATCH_LEASES, SQLITE_FILE, StatusChange, Store, StoreError,
    leased_match, match_lease, metrics,
};

/// What schema 13 added, dropped again to make a schema-12 database.
pub(super) const SCHEMA_13_SQLITE: &str = "DROP TABLE leases; DROP TABLE lease_tokens;";
pub(super) const SCHEMA_13_POSTGRES: &str = "DROP TABLE leases; DROP SEQUENCE lease_tokens;";

const LONG: Duration = Duration::from_secs(30);
/// Short enough to wait out, long enough that the steps before the wait finish within it.
const SHORT: Duration = Duration::from_millis(800);

fn now_nanos() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as i64
}

async fn lapse() {
    tokio::time::sleep(SHORT + Duration::from_millis(200)).await;
}

fn held_by(result: Result<Lease, StoreError>, holder: &str) -> LeaseHeld {
    match result {
        Err(StoreError::LeaseHeld(held)) if held.holder == holder => held,
        other => panic!("expected the lease held by {holder}, got {other:?}"),
    }
}

fn lost<T: std::fmt::Debug>(result: Result<T, StoreError>, lease: &Lease) {
    let expected = LeaseLost {
        name: lease.name.clone(),
        token: lease.token,
    };
    match result {
        Err(StoreError::LeaseLost(lost)) => assert_eq!(lost, expected),
        other => panic!("expected {expected:?}, got {other:?}"),
    }
}

fn fenced(result: Result<(), StoreError>, match_id: &str, token: u64) {
    assert_eq!(
        result,
        Err(StoreError::Fenced {
            match_id: match_id.to_owned(),
            token,
        })
    );
}

/// Acquiring, renewing and releasing, expiry, and how tokens move.
async fn lease_rules<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    let a = match_lease("a");
    assert_eq!(a, "match/a");
    assert_eq!(store.lease_holder(&a).await.unwrap(), None);

    // A free lease is granted, until about `LONG` from now.
    let first = store.acquire_lease(&a, "r1", LONG).await.unwrap();
    assert_eq!(
        (first.name.as_str(), first.holder.as_str()),
        (a.as_str(), "r1")
    );
    let expected = now_nanos() + LONG.as_nanos() as i64;
    let off = (first.expires_at_nanos - expected).abs();
    assert!(off < 5_000_000_000, "expires {off} ns away from 30 s on");
    assert_eq!(store.lease_holder(&a).await.unwrap(), Some(first.clone()));

    // Another holder is refused and told who holds it until when.
    let held = held_by(store.acquire_lease(&a, "r2", LONG).await, "r1");
    assert_eq!(held.until_nanos, first.expires_at_nanos);
    assert_eq!(held.name, a);

    // The holder acquiring again, or renewing, keeps its token and moves the expiry on.
    tokio::time::sleep(Duration::from_millis(5)).await;
    let again = store.acquire_lease(&a, "r1", LONG).await.unwrap();
    assert_eq!(again.token, first.token);
    assert!(again.expires_at_nanos > first.expires_at_nanos);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let renewed = store.renew_lease(&again, LONG).await.unwrap();
    assert_eq!(renewed.token, first.token);
    assert!(renewed.expires_at_nanos > again.expires_at_nanos);

    // Only the current token renews or releases.
    let forged = Lease {
        token: first.token + 1_000,
        ..renewed.clone()
    };
    lost(store.renew_lease(&forged, LONG).await, &forged);
    lost(store.release_lease(&forged).await, &forged);
    assert_eq!(store.lease_holder(&a).await.unwrap(), Some(renewed.clone()));

    // Released, the lease is free at once, and its token is never given out again.
    store.release_lease(&renewed).await.unwrap();
    assert_eq!(store.lease_holder(&a).await.unwrap(), None);
    lost(store.renew_lease(&renewed, LONG).await, &renewed);
    lost(store.release_lease(&renewed).await, &renewed);
    let retaken = store.acquire_lease(&a, "r1", LONG).await.unwrap();
    assert!(retaken.token > first.token);

    // Expiry: a lapsed lease shows no holder and another may take it, with a new token.
    let b = match_lease("b");
    let lapsing = store.acquire_lease(&b, "r1", SHORT).await.unwrap();
    held_by(store.acquire_lease(&b, "r2", LONG).await, "r1");
    lapse().await;
    assert_eq!(store.lease_holder(&b).await.unwrap(), None);
    // Until someone does, its holder may renew it: its token is still the lease's.
    let revived = store.renew_lease(&lapsing, SHORT).await.unwrap();
    assert_eq!(revived.token, lapsing.token);
    assert_eq!(
        store.lease_holder(&b).await.unwrap().map(|l| l.holder),
        Some("r1".to_owned())
    );
    lapse().await;
    let taken = store.acquire_lease(&b, "r2", LONG).await.unwrap();
    assert!(taken.token > revived.token);
    lost(store.renew_lease(&revived, LONG).await, &revived);
    held_by(store.acquire_lease(&b, "r1", LONG).await, "r2");

    // Renewed together: each answer for its own lease, a lost one as `None`.
    let together = store
        .renew_leases(&[taken.clone(), revived.clone()], LONG)
        .await
        .unwrap();
    assert_eq!(together.len(), 2);
    let renewed_taken = together[0].clone().expect("r2 holds b");
    assert_eq!(renewed_taken.token, taken.token);
    assert!(renewed_taken.expires_at_nanos > taken.expires_at_nanos);
    assert_eq!(together[1], None, "r1's token of b is gone");
    assert_eq!(
        store.lease_holder(&b).await.unwrap(),
        Some(renewed_taken.clone())
    );
    assert_eq!(store.renew_leases(&[], LONG).await.unwrap(), Vec::new());

    // The same holder taking its own lapsed lease again gets a new token too.
    let c = match_lease("c");
    let lapsed = store.acquire_lease(&c, "r1", SHORT).await.unwrap();
    lapse().await;
    let fresh = store.acquire_lease(&c, "r1", LONG).await.unwrap();
    assert!(fresh.token > lapsed.token);

    let granted = [&first, &retaken, &lapsing, &taken, &lapsed, &fresh];
    let tokens: Vec<u64> = granted.iter().map(|lease| lease.token).collect();
    assert!(
        tokens.windows(2).all(|pair| pair[0] < pair[1]),
        "tokens rise in the order granted: {tokens:?}"
    );

    // What cannot name a lease, or lasts no time, is refused.
    for (name, holder, ttl) in [
        ("", "r1", LONG),
        ("x", "", LONG),
        ("x", "r1", Duration::ZERO),
    ] {
        let refused = store.acquire_lease(name, holder, ttl).await;
        assert!(
            matches!(refused, Err(StoreError::Database(_))),
            "{name:?} {holder:?} {ttl:?}: {refused:?}"
        );
    }
    store.close().await.unwrap();

    // Leases are stored: a reopened store knows them and goes on numbering after them.
    let store = open().await.expect("reopen");
    assert_eq!(store.lease_holder(&a).await.unwrap(), Some(retaken.clone()));
    let after = store
        .acquire_lease(&match_lease("d"), "r3", LONG)
        .await
        .unwrap();
    assert!(after.token > fresh.token);
    store.close().await.unwrap();
}

/// A stale token's write is refused alone: the rest of its batch commits, the store stays
/// writable, and nothing of the refused write shows.
async fn fenced_writes<F, Fut>(open: F, recorded: &Recorded)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    for id in ["a", "b", "c"] {
        store
            .create(row(id), Vec::new(), vec![entry(id)])
            .await
            .unwrap();
    }
    let old = store
        .acquire_lease(&match_lease("a"), "r1", LONG)
        .await
        .unwrap();
    let lease_b = store
        .acquire_lease(&match_lease("b"), "r1", LONG)
        .await
        .unwrap();
    store
        .append_fenced(action("a", 0, 1), Some(old.token))
        .await
        .unwrap();
    // Another holder takes match a over.
    store.release_lease(&old).await.unwrap();
    let new = store
        .acquire_lease(&match_lease("a"), "r2", LONG)
        .await
        .unwrap();

    let last = store.last_position();
    let mut live = store.lifecycle_live();
    let batches_before = recorded.values(metrics::COMMIT_WRITES);
    let mut stale = action("a", 1, 3);
    stale.status = Some(StatusChange {
        status: 4,
        summary: vec![9],
    });
    stale.lifecycle = vec![entry("a")];
    let mut valid = action("b", 0, 1);
    valid.lifecycle = vec![entry("b")];
    let mut unfenced = action("c", 0, 1);
    unfenced.lifecycle = vec![entry("c")];
    // Joined, the three are queued before the writer runs (one thread), so they share a batch.
    let (stale, valid, unfenced) = tokio::join!(
        store.append_fenced(stale, Some(old.token)),
        store.append_fenced(valid, Some(lease_b.token)),
        store.append(unfenced),
    );
    let batches = recorded.values(metrics::COMMIT_WRITES);
    assert_eq!(
        batches[batches_before.len()..],
        [3.0],
        "the three writes were one batch"
    );
    fenced(stale, "a", old.token);
    valid.unwrap();
    unfenced.unwrap();
    assert!(
        store.writable(),
        "a fenced write is not the database failing"
    );

    // Nothing of the refused write: no input, event, status or lifecycle entry.
    let a = store.load("a").await.unwrap().unwrap();
    assert_eq!(a.inputs, action("a", 0, 1).inputs);
    assert_eq!(a.events.len(), 2);
    assert_eq!(a.row.status, row("a").status);
    assert_eq!(store.load("b").await.unwrap().unwrap().inputs.len(), 1);
    assert_eq!(store.load("c").await.unwrap().unwrap().inputs.len(), 1);
    // The entries of the writes that committed are numbered on with no gap.
    let entries = feed(&store).await;
    assert_eq!(
        entries[last as usize..],
        [(last + 1, "b".to_owned()), (last + 2, "c".to_owned())]
    );
    for position in [last + 1, last + 2] {
        assert_eq!(live.recv().await.unwrap().position, position);
    }
    assert_eq!(store.last_position(), last + 2);

    // The new holder goes on from where the match stood.
    store
        .append_fenced(action("a", 1, 3), Some(new.token))
        .await
        .unwrap();
    // A token for a lease that does not exist fences too.
    fenced(
        store
            .append_fenced(action("c", 1, 3), Some(new.token + 1_000))
            .await,
        "c",
        new.token + 1_000,
    );
    // A match created under its lease, and one whose token is not its lease's.
    let d = store
        .acquire_lease(&match_lease("d"), "r1", LONG)
        .await
        .unwrap();
    store
        .create_fenced(row("d"), Vec::new(), Vec::new(), Some(d.token))
        .await
        .unwrap();
    fenced(
        store
            .create_fenced(row("e"), Vec::new(), Vec::new(), Some(d.token))
            .await,
        "e",
        d.token,
    );
    assert_eq!(store.load("e").await.unwrap(), None);
    assert!(store.load("d").await.unwrap().is_some());
    assert_eq!(recorded.total(metrics::FENCED_WRITES, &[]), 3.0);

    // Unfenced writes are as they were, and the store still writes.
    store.append(action("c", 1, 3)).await.unwrap();
    let a = store.load("a").await.unwrap().unwrap();
    assert_eq!(
        a.inputs.iter().map(|i| i.number).collect::<Vec<_>>(),
        [0, 1]
    );
    store.close().await.unwrap();
}

/// Two servers race for leases: exactly one wins each, whether the lease is new or lapsed.
async fn racing((first, second): (Store, Store)) {
    let replicas = [first, second];
    let race = |name: String, ttl: Duration| {
        let tasks: Vec<_> = (0..16)
            .map(|task| {
                let store = replicas[task % 2].clone();
                let name = name.clone();
                tokio::spawn(
                    async move { store.acquire_lease(&name, &format!("r{task}"), ttl).await },
                )
            })
            .collect();
        async move {
            let mut winners = Vec::new();
            let mut refused = Vec::new();
            for task in tasks {
                match task.await.unwrap() {
                    Ok(lease) => winners.push(lease),
                    Err(StoreError::LeaseHeld(held)) => refused.push(held.holder),
                    Err(other) => panic!("{other}"),
                }
            }
            assert_eq!(winners.len(), 1, "one winner of {name}: {winners:?}");
            let winner = winners.remove(0);
            assert!(refused.iter().all(|holder| *holder == winner.holder));
            winner
        }
    };
    let mut last = 0;
    for round in 0..20 {
        let winner = race(format!("race/{round}"), LONG).await;
        assert!(winner.token > last);
        last = winner.token;
    }
    // A lapsed lease: again one of the racers takes it, with a new token.
    let lapsing = replicas[0]
        .acquire_lease("race/lapsed", "r-first", SHORT)
        .await
        .unwrap();
    lapse().await;
    let winner = race("race/lapsed".to_owned(), LONG).await;
    assert!(winner.token > lapsing.token);
    lost(replicas[0].renew_lease(&lapsing, LONG).await, &lapsing);
    for replica in replicas {
        replica.close().await.unwrap();
    }
}

/// A server that lost a match and won it back later goes on from what the other wrote
/// meanwhile, not from what it remembered.
async fn handover((one, two): (Store, Store)) {
    let lease = match_lease("m");
    one.create(row("m"), Vec::new(), Vec::new()).await.unwrap();
    let first = one.acquire_lease(&lease, "one", LONG).await.unwrap();
    one.append_fenced(action("m", 0, 1), Some(first.token))
        .await
        .unwrap();
    one.release_lease(&first).await.unwrap();

    let second = two.acquire_lease(&lease, "two", LONG).await.unwrap();
    two.append_fenced(action("m", 1, 3), Some(second.token))
        .await
        .unwrap();
    two.append_fenced(action("m", 2, 5), Some(second.token))
        .await
        .unwrap();
    fenced(
        one.append_fenced(action("m", 1, 3), Some(first.token))
            .await,
        "m",
        first.token,
    );
    assert!(one.writable());
    two.release_lease(&second).await.unwrap();

    let third = one.acquire_lease(&lease, "one", LONG).await.unwrap();
    one.append_fenced(action("m", 3, 7), Some(third.token))
        .await
        .unwrap();
    for store in [&one, &two] {
        let stored = store.load("m").await.unwrap().unwrap();
        assert_eq!(
            stored.inputs.iter().map(|i| i.number).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert_eq!(
            stored.events.iter().map(|e| e.seq).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
    }
    one.close().await.unwrap();
    two.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_leases_keep_their_rules() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    lease_rules(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_leases_keep_their_rules() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        lease_rules(|| Store::open(&url, &dir)).await;
    })
    .await;
}

/// Lapsed leases are listed by prefix, longest lapsed first, with their tokens, until someone
/// takes or releases them; a lease that has not lapsed, or of another kind, is never listed.
async fn lapsed_listing<F, Fut>(open: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
{
    let store = open().await.expect("open");
    let first = store
        .acquire_lease(&match_lease("first"), "dead", SHORT)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = store
        .acquire_lease(&match_lease("second"), "dead", SHORT)
        .await
        .unwrap();
    let scheduler = store
        .acquire_lease(crate::SCHEDULER_LEASE, "dead", SHORT)
        .await
        .unwrap();
    store
        .acquire_lease(&match_lease("alive"), "living", LONG)
        .await
        .unwrap();
    assert_eq!(store.lapsed_leases(MATCH_LEASES, 10).await.unwrap(), []);
    lapse().await;

    let lapsed = store.lapsed_leases(MATCH_LEASES, 10).await.unwrap();
    assert_eq!(lapsed, [first.clone(), second.clone()]);
    assert_eq!(leased_match(&lapsed[1].name), Some("second"));
    let longest = store.lapsed_leases(MATCH_LEASES, 1).await.unwrap();
    assert_eq!(longest, std::slice::from_ref(&first));
    assert_eq!(
        store.lapsed_leases("league/", 10).await.unwrap(),
        [scheduler]
    );

    // Taken by a survivor, a lease is no longer lapsed; released with the token it lapsed
    // with, it is gone; the token of a lease taken since releases nothing.
    let taken = store
        .acquire_lease(&first.name, "survivor", LONG)
        .await
        .unwrap();
    lost(store.release_lease(&first).await, &first);
    store.release_lease(&second).await.unwrap();
    assert_eq!(store.lapsed_leases(MATCH_LEASES, 10).await.unwrap(), []);
    assert_eq!(
        store.lease_holder(&first.name).await.unwrap(),
        Some(taken.clone())
    );

    // Expired by its holder (handing over), a lease lapses at once, keeping its token: listed
    // as lapsed, free to take; a stale token expires nothing.
    lost(store.expire_lease(&first).await, &first);
    store.expire_lease(&taken).await.unwrap();
    assert_eq!(store.lease_holder(&taken.name).await.unwrap(), None);
    let listed = store.lapsed_leases(MATCH_LEASES, 10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].holder.as_str(), listed[0].token),
        ("survivor", taken.token)
    );
    let next = store
        .acquire_lease(&taken.name, "heir", LONG)
        .await
        .unwrap();
    assert!(next.token > taken.token);
    store.close().await.unwrap();
}

/// Two servers on one database each write lifecycle entries, in turn and at once: every entry
/// is stored, each at a position of its own, numbered on from whatever either wrote last.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_servers_number_the_lifecycle_feed_together() {
    on_postgres(|url| async move {
        let (one, two) = two_stores(&url, Path::new("unused-by-postgres")).await;
        let mut expected = Vec::new();
        for n in 0..6 {
            let (store, id) = if n % 2 == 0 {
                (&one, format!("one-{n}"))
            } else {
                (&two, format!("two-{n}"))
            };
            store
                .create(row(&id), Vec::new(), vec![entry(&id)])
                .await
                .unwrap();
            expected.push((n + 1, id));
        }
        assert_eq!(feed(&one).await, expected);
        let writers: Vec<_> = (0..16)
            .map(|n| {
                let store = if n % 2 == 0 { one.clone() } else { two.clone() };
                tokio::spawn(async move {
                    let id = format!("racing-{n}");
                    store.create(row(&id), Vec::new(), vec![entry(&id)]).await
                })
            })
            .collect();
        for writer in writers {
            writer.await.unwrap().unwrap();
        }
        let positions: Vec<u64> = feed(&two).await.into_iter().map(|(p, _)| p).collect();
        assert_eq!(positions, (1..=22).collect::<Vec<_>>());
        assert!(one.writable() && two.writable());
        one.close().await.unwrap();
        two.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_lists_lapsed_leases() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    lapsed_listing(|| Store::open("", &path)).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lists_lapsed_leases() {
    on_postgres(|url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        lapsed_listing(|| Store::open(&url, &dir)).await;
    })
    .await;
}

// One thread: the recorder is the thread's, and the writer runs only when the test waits.
#[tokio::test]
async fn sqlite_refuses_stale_writes_alone() {
    let recorded = Recorded::default();
    let _recording = ::metrics::set_default_local_recorder(&recorded);
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    fenced_writes(|| Store::open("", &path), &recorded).await;
    dir.remove();
}

#[tokio::test]
async fn postgres_refuses_stale_writes_alone() {
    let recorded = Recorded::default();
    let _recording = ::metrics::set_default_local_recorder(&recorded);
    let shared = recorded.clone();
    on_postgres(move |url| async move {
        let dir = PathBuf::from("unused-by-postgres");
        fenced_writes(|| Store::open(&url, &dir), &shared).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_grants_each_lease_to_one_of_two_stores() {
    let dir = ScratchDir::new();
    racing(two_stores("", &dir.0).await).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_grants_each_lease_to_one_of_two_servers() {
    on_postgres(|url| async move {
        racing(two_stores(&url, Path::new("unused-by-postgres")).await).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_hands_a_match_over_between_stores() {
    let dir = ScratchDir::new();
    handover(two_stores("", &dir.0).await).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_hands_a_match_over_between_servers() {
    on_postgres(|url| async move {
        handover(two_stores(&url, Path::new("unused-by-postgres")).await).await;
    })
    .await;
}

/// A schema-12 database gains the leases when opened, and its matches go on under them.
/// `downgrade` drops what schema 13 added and sets the version back; `version` reads it.
async fn schema_13<F, Fut, D, DFut, V, VFut>(open: F, downgrade: D, version: V)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Store, StoreError>>,
    D: FnOnce() -> DFut,
    DFut: Future<Output = ()>,
    V: Fn() -> VFut,
    VFut: Future<Output = i64>,
{
    let store = open().await.unwrap();
    store
        .create(row("m"), Vec::new(), Vec::new())
        .await
        .unwrap();
    store.append(action("m", 0, 1)).await.unwrap();
    store.close().await.unwrap();
    assert_eq!(version().await, LATEST_SCHEMA);
    downgrade().await;
    assert_eq!(version().await, 12);

    let store = open().await.expect("a schema-12 database migrates");
    assert_eq!(version().await, LATEST_SCHEMA);
    let lease = store
        .acquire_lease(&match_lease("m"), "r1", LONG)
        .await
        .unwrap();
    store
        .append_fenced(action("m", 1, 3), Some(lease.token))
        .await
        .unwrap();
    fenced(
        store
            .append_fenced(action("m", 2, 5), Some(lease.token + 1))
            .await,
        "m",
        lease.token + 1,
    );
    let stored = store.load("m").await.unwrap().unwrap();
    assert_eq!(
        stored.inputs.iter().map(|i| i.number).collect::<Vec<_>>(),
        [0, 1]
    );
    store.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_schema_13_adds_leases() {
    let dir = ScratchDir::new();
    let path = dir.0.clone();
    let file = path.join(SQLITE_FILE);
    let connect = || rusqlite::Connection::open(&file).unwrap();
    let downgrade = || async {
        let connection = connect();
        connection.execute_batch(SCHEMA_13_SQLITE).unwrap();
        connection
            .execute("UPDATE schema_version SET version = 12", [])
            .unwrap();
    };
    let version = || async {
        connect()
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap()
    };
    schema_13(|| Store::open("", &path), downgrade, version).await;
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_schema_13_adds_leases() {
    on_postgres(|url| async move {
        let connect = || async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(connection);
            client
        };
        let downgrade = || async {
            connect()
                .await
                .batch_execute(&format!(
                    "{SCHEMA_13_POSTGRES} UPDATE schema_version SET version = 12;"
                ))
                .await
                .unwrap();
        };
        let version = || async {
            connect()
                .await
                .query_one("SELECT version FROM schema_version", &[])
                .await
                .unwrap()
                .get(0)
        };
        let dir = PathBuf::from("unused-by-postgres");
        schema_13(|| Store::open(&url, &dir), downgrade, version).await;
    })
    .await;
}

/// A takeover that has not committed yet holds a fenced write back until it does, and then the
/// write sees the new token and is refused: the check and the write are one transaction.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_fences_a_write_racing_a_takeover() {
    on_postgres(|url| async move {
        let store = Store::open(&url, Path::new("unused-by-postgres"))
            .await
            .expect("open");
        store
            .create(row("m"), Vec::new(), Vec::new())
            .await
            .unwrap();
        let lease = store
            .acquire_lease(&match_lease("m"), "one", LONG)
            .await
            .unwrap();
        let (other, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        other
            .batch_execute(
                "BEGIN; UPDATE leases SET holder = 'two', token = nextval('lease_tokens') \
                 WHERE name = 'match/m'",
            )
            .await
            .unwrap();
        let write = tokio::spawn({
            let store = store.clone();
            async move {
                store
                    .append_fenced(action("m", 0, 1), Some(lease.token))
                    .await
            }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!write.is_finished(), "the write waits for the lease");
        other.batch_execute("COMMIT").await.unwrap();
        fenced(write.await.unwrap(), "m", lease.token);
        assert_eq!(store.load("m").await.unwrap().unwrap().inputs.len(), 0);
        assert!(store.writable());
        store.close().await.unwrap();
    })
    .await;
}

/// Lease changes are counted by kind.
#[tokio::test]
async fn lease_changes_are_counted() {
    let recorded = Recorded::default();
    let _recording = ::metrics::set_default_local_recorder(&recorded);
    let dir = ScratchDir::new();
    let store = Store::open("", &dir.0).await.unwrap();
    let name = match_lease("a");
    let lease = store.acquire_lease(&name, "r1", LONG).await.unwrap();
    store.acquire_lease(&name, "r1", LONG).await.unwrap();
    store.renew_lease(&lease, LONG).await.unwrap();
    held_by(store.acquire_lease(&name, "r2", LONG).await, "r1");
    store.release_lease(&lease).await.unwrap();
    lost(store.renew_lease(&lease, LONG).await, &lease);
    lost(store.release_lease(&lease).await, &lease);
    let changes = |change| recorded.total(metrics::LEASE_CHANGES, &[("change", change)]);
    assert_eq!(
        ["acquired", "renewed", "lost", "released"].map(changes),
        [1.0, 2.0, 2.0, 1.0]
    );
    store.close().await.unwrap();
    dir.remove();
}

/// What the store records through the `metrics` facade, by metric name and labels.
#[derive(Clone, Default)]
struct Recorded {
    values: Arc<Mutex<HashMap<String, Vec<f64>>>>,
}

impl Recorded {
    fn values(&self, name: &str) -> Vec<f64> {
        self.values
            .lock()
            .unwrap()
            .get(name)
            .cloned()
            .unwrap_or_default()
    }

    fn total(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let labels: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        self.values(&series(name, labels)).iter().sum()
    }

    fn handle(&self, key: &Key) -> Arc<Series> {
        let labels = key
            .labels()
            .map(|label| format!("{}={}", label.key(), label.value()))
            .collect();
        Arc::new(Series {
            name: series(key.name(), labels),
            values: Arc::clone(&self.values),
        })
    }
}

fn series(name: &str, mut labels: Vec<String>) -> String {
    if labels.is_empty() {
        return name.to_owned();
    }
    labels.sort();
    format!("{name}{{{}}}", labels.join(","))
}

/// One metric with its labels.
struct Series {
    name: String,
    values: Arc<Mutex<HashMap<String, Vec<f64>>>>,
}

impl Series {
    fn push(&self, value: f64) {
        let mut values = self.values.lock().unwrap();
        values.entry(self.name.clone()).or_default().push(value);
    }
}

impl CounterFn for Series {
    fn increment(&self, value: u64) {
        self.push(value as f64);
    }

    fn absolute(&self, value: u64) {
        self.push(value as f64);
    }
}

impl HistogramFn for Series {
    fn record(&self, value: f64) {
        self.push(value);
    }
}

impl Recorder for Recorded {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(self.handle(key))
    }

    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(self.handle(key))
    }
}
