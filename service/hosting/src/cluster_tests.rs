//! Two registries ("replicas") on one PostgreSQL database: each match has one owner, another
//! replica names it, a dead owner's matches are taken over after the lease's time to live, and
//! an owner that lost its lease is fenced and stops. Skipped without a PostgreSQL server
//! (outside CI); `PITCHMATE_TEST_POSTGRES_URL` names another one.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::ownership::ClusterSettings;
use super::*;
use pitchmate_games::ActionChoice;
use pitchmate_store::match_lease;
use pitchmate_store::scratch::{ScratchSchema, scratch_store};

const TTL: Duration = Duration::from_secs(1);
/// Far beyond the time to live, for a machine under load.
const GENEROUS: Duration = Duration::from_secs(20);

/// A schema of its own in the test database, with the replicas that share it.
struct Schema(ScratchSchema);

impl Schema {
    async fn create() -> Option<Self> {
        ScratchSchema::create().await.map(Self)
    }

    async fn drop(self) {
        self.0.drop_schema().await;
    }

    async fn replica(&self, replica_id: &str) -> Arc<MatchRegistry> {
        let store = Store::open(&self.0.url, std::path::Path::new("unused-by-postgres"))
            .await
            .unwrap();
        let limits = ActorLimits {
            commands: 8,
            live_capacity: 64,
            expire_unstarted_after: None,
            unload_idle_after: None,
            event_tail: 64,
        };
        let cluster = ClusterSettings {
            replica_id: replica_id.to_owned(),
            advertise_url: format!("http://{replica_id}.test:50051"),
            lease_ttl: TTL,
        };
        MatchRegistry::open_in_cluster(GameRegistry::standard(), limits, store, 0, Some(cluster))
            .await
            .unwrap()
    }
}

/// Runs `scenario` on a schema of its own, dropped afterwards even when the scenario fails.
async fn on_postgres<F, Fut>(scenario: F)
where
    F: FnOnce(Arc<Schema>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(schema) = Schema::create().await else {
        return;
    };
    let schema = Arc::new(schema);
    let outcome = tokio::spawn(scenario(Arc::clone(&schema))).await;
    if let Ok(schema) = Arc::try_unwrap(schema) {
        schema.drop().await;
    }
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

/// A Soccer Chess match with both seats taken; its id and the seat tokens by seat name.
async fn seated(registry: &MatchRegistry) -> (String, HashMap<String, String>) {
    let created = registry
        .create(NewMatch {
            variant_id: "soccer-chess".into(),
            seed: Some(3),
            ..NewMatch::default()
        })
        .await
        .unwrap();
    let id = created.setup.match_id.clone();
    let mut tokens = HashMap::new();
    for name in ["a", "b"] {
        let joined = registry
            .call(
                &id,
                |handle| async move { handle.join(None, name.into()).await },
            )
            .await
            .unwrap();
        tokens.insert(joined.seat_name.to_owned(), joined.seat_token);
    }
    (id, tokens)
}

/// Plays the next action of the match on `registry`, with the client action id `id`.
async fn play(
    registry: &MatchRegistry,
    match_id: &str,
    tokens: &HashMap<String, String>,
    id: &str,
) -> Result<referee::Submitted, ServiceError> {
    registry
        .call(match_id, |handle| {
            let progress = handle.summary().progress;
            let seat = &progress.seats[progress.turn.to_act[0].index()].name;
            let token = tokens[seat].clone();
            let submission = Submission {
                expected_version: progress.version,
                client_action_id: id.to_owned(),
                choice: ActionChoice::Index(0),
            };
            async move { handle.submit(Some(token), submission).await }
        })
        .await
}

fn owner_of(error: ServiceError) -> String {
    match error {
        ServiceError::NotOwner {
            owner, owner_url, ..
        } => {
            assert_eq!(owner_url, format!("http://{owner}.test:50051"));
            owner
        }
        other => panic!("expected NOT_OWNER, got {other:?}"),
    }
}

/// Asks `registry` for the match until it hosts it, within [`GENEROUS`].
async fn taken_over(registry: &MatchRegistry, match_id: &str) -> MatchHandle {
    let by = deadline();
    loop {
        match registry.get(match_id).await {
            Ok(handle) => return handle,
            Err(ServiceError::NotOwner { .. }) if tokio::time::Instant::now() < by => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("not taken over: {error:?}"),
        }
    }
}

fn deadline() -> tokio::time::Instant {
    tokio::time::Instant::now() + GENEROUS
}

async fn pause() {
    tokio::time::sleep(Duration::from_millis(20)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_has_one_owner_which_the_others_name() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        assert_eq!((a.leases_held(), b.leases_held()), (1, 0));
        assert_eq!(owner_of(b.get(&id).await.unwrap_err()), "a");
        let refused = play(&b, &id, &tokens, "on-b").await.unwrap_err();
        assert_eq!(owner_of(refused), "a", "not loaded, not played");
        play(&a, &id, &tokens, "on-a").await.unwrap();

        // A caller-chosen id whose lease another replica holds is not created twice.
        let chosen = NewMatch {
            variant_id: "soccer-chess".into(),
            match_id: Some(id.clone()),
            ..NewMatch::default()
        };
        assert_eq!(owner_of(b.create(chosen).await.unwrap_err()), "a");

        // A match that ends gives its lease up: anyone may read it then.
        a.call(&id, |handle| {
            let token = tokens["first"].clone();
            async move { handle.seat_call(Some(token), SeatCall::Resign).await }
        })
        .await
        .unwrap();
        let by = deadline();
        while a
            .store()
            .lease_holder(&match_lease(&id))
            .await
            .unwrap()
            .is_some()
        {
            assert!(
                tokio::time::Instant::now() < by,
                "the finished match's lease released"
            );
            pause().await;
        }
        assert_eq!(a.leases_held(), 0);
        // b believes what it read of the lease a moment longer (then forwarded to a, which
        // would answer), and reads it again after that.
        tokio::time::sleep(super::ownership::ELSEWHERE_MEMORY).await;
        let finished = b.get(&id).await.expect("a finished match is read anywhere");
        assert_eq!(finished.summary().progress.status, MatchStatus::Finished);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_owners_match_is_taken_over_from_exactly_what_it_stored() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        let mut answers = Vec::new();
        for n in 0..6 {
            let name = format!("move-{n}");
            answers.push((name.clone(), play(&a, &id, &tokens, &name).await.unwrap()));
        }
        let before = a.get(&id).await.unwrap().summary();
        let events = a.get(&id).await.unwrap().events_after(0).await.unwrap();
        // A crash: nothing is released, nothing more is written.
        drop(a);
        assert_eq!(
            owner_of(b.get(&id).await.unwrap_err()),
            "a",
            "until it lapses"
        );

        let handle = taken_over(&b, &id).await;
        assert_eq!(
            handle.summary(),
            before,
            "every acknowledged action, none twice"
        );
        assert_eq!(handle.events_after(0).await.unwrap(), events);
        assert_eq!(b.leases_held(), 1);
        // A retry of an acknowledged action is answered as the first time, not played again.
        let (name, first) = &answers[5];
        let seat = before.progress.seats[first.seat.index()].name.clone();
        let retry = Submission {
            expected_version: 0,
            client_action_id: name.clone(),
            choice: ActionChoice::Index(0),
        };
        let again = handle
            .submit(Some(tokens[&seat].clone()), retry)
            .await
            .unwrap();
        assert!(again.duplicate);
        assert_eq!(again.version, first.version);
        // Play goes on, numbered on without a gap.
        let next = play(&b, &id, &tokens, "after-failover").await.unwrap();
        assert_eq!(next.events[0].seq, before.progress.last_seq + 1);
        let stored = b.store().load(&id).await.unwrap().unwrap();
        assert_eq!(stored.events.len() as u64, next.last_seq());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_that_lost_its_lease_is_fenced_and_stops() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        let stale = a.get(&id).await.unwrap();
        a.ownership()
            .unwrap()
            .renewals_paused
            .store(true, Ordering::Relaxed);

        let on_b = taken_over(&b, &id).await;
        let state = on_b.summary();
        let stored = b.store().load(&id).await.unwrap().unwrap();

        // A still hosts its actor, but its next write is refused, and it stops.
        let refused = play(&a, &id, &tokens, "second").await.unwrap_err();
        assert_eq!(owner_of(refused), "b");
        assert!(stale.is_stopped(), "the fenced actor stopped");
        let by = deadline();
        while a.leases_held() > 0 {
            assert!(tokio::time::Instant::now() < by, "A forgets the lease");
            pause().await;
        }
        let after = b.store().load(&id).await.unwrap().unwrap();
        assert_eq!(after.events, stored.events, "B's state is untouched");
        assert_eq!(after.inputs, stored.inputs);
        assert_eq!(on_b.summary(), state);
        play(&b, &id, &tokens, "second").await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renewals_keep_a_busy_match_on_its_owner() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        let handle = a.get(&id).await.unwrap();
        let started = tokio::time::Instant::now();
        let mut n = 0;
        while started.elapsed() < 4 * TTL {
            play(&a, &id, &tokens, &format!("move-{n}")).await.unwrap();
            assert_eq!(owner_of(b.get(&id).await.unwrap_err()), "a");
            n += 1;
            tokio::time::sleep(TTL / 5).await;
        }
        assert!(handle.same_actor(&a.get(&id).await.unwrap()), "never moved");
        assert_eq!(a.leases_held(), 1);
    })
    .await;
}

/// Outside cluster mode nothing of leases is read or written.
#[tokio::test]
async fn without_cluster_mode_no_lease_is_taken() {
    let (store, dir) = scratch_store().await;
    let limits = ActorLimits {
        commands: 8,
        live_capacity: 16,
        expire_unstarted_after: None,
        unload_idle_after: None,
        event_tail: 16,
    };
    let registry = MatchRegistry::open(GameRegistry::standard(), limits, store.clone(), 0)
        .await
        .unwrap();
    let (id, tokens) = seated(&registry).await;
    play(&registry, &id, &tokens, "first").await.unwrap();
    assert_eq!(registry.leases_held(), 0);
    assert_eq!(registry.lease_holder(), None);
    assert_eq!(store.lease_holder(&match_lease(&id)).await.unwrap(), None);
    dir.remove();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_lost_at_renewal_stops_the_actor_and_ends_its_streams() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        let stale = a.get(&id).await.unwrap();
        let mut watching = stale.watch(None, 0).await.unwrap();
        let paused = &a.ownership().unwrap().renewals_paused;
        paused.store(true, Ordering::Relaxed);
        taken_over(&b, &id).await;
        let stored = b.store().load(&id).await.unwrap().unwrap();

        // The next renewal finds the lease gone: the actor stops without a call or a write.
        paused.store(false, Ordering::Relaxed);
        let by = deadline();
        while !stale.is_stopped() {
            assert!(tokio::time::Instant::now() < by, "the actor stopped");
            pause().await;
        }
        assert_eq!(a.leases_held(), 0);
        assert!(
            matches!(
                watching.live.recv().await,
                Err(tokio::sync::broadcast::error::RecvError::Closed)
            ),
            "its stream ends, to be opened again where the match is"
        );
        assert_eq!(owner_of(a.get(&id).await.unwrap_err()), "b");
        let after = b.store().load(&id).await.unwrap().unwrap();
        assert_eq!(after.events, stored.events);
    })
    .await;
}
