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
use pitchmate_store::scratch::{ScratchSchema, scratch_store};
use pitchmate_store::{MATCH_LEASES, match_lease};

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
        self.replica_with(replica_id, TTL, None).await
    }

    async fn replica_with(
        &self,
        replica_id: &str,
        lease_ttl: Duration,
        unload_idle_after: Option<Duration>,
    ) -> Arc<MatchRegistry> {
        let store = Store::open(&self.0.url, std::path::Path::new("unused-by-postgres"))
            .await
            .unwrap();
        let limits = ActorLimits {
            commands: 8,
            live_capacity: 64,
            expire_unstarted_after: None,
            unload_idle_after,
            event_tail: 64,
        };
        let cluster = ClusterSettings {
            replica_id: replica_id.to_owned(),
            advertise_url: format!("http://{replica_id}.test:50051"),
            lease_ttl,
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
    seated_with(registry, clock::Hosting::default()).await
}

async fn seated_with(
    registry: &MatchRegistry,
    hosting: clock::Hosting,
) -> (String, HashMap<String, String>) {
    let created = registry
        .create(NewMatch {
            variant_id: "soccer-chess".into(),
            seed: Some(3),
            hosting,
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
async fn an_owner_whose_renewals_fell_behind_answers_from_its_state_no_more() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        let (id, tokens) = seated(&a).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        a.ownership()
            .unwrap()
            .renewals_paused
            .store(true, Ordering::Relaxed);
        // B takes the lapsed lease and moves the match on. A has not renewed since, so an actor
        // of A's still runs with the state before: the first one, or one A's sweep hosted anew
        // when it found A's own lease lapsed before B took it.
        taken_over(&b, &id).await;
        play(&b, &id, &tokens, "second").await.unwrap();

        // Asked for the match, A renews first and names B instead of answering from it.
        assert_eq!(owner_of(a.get(&id).await.unwrap_err()), "b");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_that_lapsed_untaken_is_taken_afresh_before_the_match_is_served() {
    on_postgres(|schema| async move {
        let a = schema.replica("a").await;
        let (id, tokens) = seated(&a).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        let stale = a.get(&id).await.unwrap();
        let state = stale.summary();
        a.ownership()
            .unwrap()
            .renewals_paused
            .store(true, Ordering::Relaxed);
        tokio::time::sleep(TTL + Duration::from_millis(200)).await;

        // The old token can write no more: its actor stops, and the match is served rebuilt
        // under the new one, from what was stored.
        let served = a.get(&id).await.unwrap();
        assert!(stale.is_stopped(), "the actor of the old token stopped");
        assert_eq!(served.summary().progress, state.progress);
        play(&a, &id, &tokens, "second").await.unwrap();
    })
    .await;
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
        // (A's sweep may have taken its own lapsed lease afresh before B took it, stopping the
        // first actor and hosting the match anew for a moment: then that one's renewal finds
        // the lease gone.)
        paused.store(false, Ordering::Relaxed);
        let by = deadline();
        while !stale.is_stopped() || a.leases_held() > 0 {
            assert!(
                tokio::time::Instant::now() < by,
                "the actor stopped and A forgot the lease"
            );
            pause().await;
        }
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

/// Waits, within [`GENEROUS`], until `done` (an expression that may await) holds.
macro_rules! until {
    ($what:expr, $done:expr) => {{
        let by = deadline();
        while !$done {
            assert!(tokio::time::Instant::now() < by, $what);
            pause().await;
        }
    }};
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_owners_match_comes_back_on_a_survivor_uncalled_and_its_clock_decides_it() {
    on_postgres(|schema| async move {
        let (a, b) = (schema.replica("a").await, schema.replica("b").await);
        // Long enough for the takeover to come first on a loaded machine, short to wait out.
        let per_move = Duration::from_secs(6);
        let hosting = clock::Hosting {
            time_control: clock::TimeControl::PerMove {
                per_move,
                first_move: per_move,
            },
            ..clock::Hosting::default()
        };
        let (id, tokens) = seated_with(&a, hosting).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        let before = a.get(&id).await.unwrap().summary();
        assert_eq!(before.progress.status, MatchStatus::Active);
        let to_act = before.progress.turn.to_act[0];
        drop(a);

        // Nobody calls B for the match: its sweep finds the lapsed lease and takes it over.
        until!("B hosts the match", b.live_count() == 1);
        let handle = b.live(&id).expect("hosted by B's sweep");
        assert_eq!(handle.summary().progress.last_seq, before.progress.last_seq);
        until!("the clock ends the match", {
            handle.summary().progress.status.is_over()
        });
        let end = handle.summary().progress.result.expect("a result");
        assert_eq!(end.reason, lifecycle::EndReason::Timeout);
        assert_ne!(end.winner, Some(to_act), "the seat out of time lost");
        let stored = b.store().load(&id).await.unwrap().unwrap();
        assert_eq!(
            stored.events.len() as u64,
            handle.summary().progress.last_seq
        );
        until!("B gives the finished match's lease up", {
            b.store()
                .lease_holder(&match_lease(&id))
                .await
                .unwrap()
                .is_none()
        });
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweep_deletes_the_lapsed_leases_of_matches_over_or_gone() {
    on_postgres(|schema| async move {
        let a = schema.replica("a").await;
        let (id, tokens) = seated(&a).await;
        a.call(&id, |handle| {
            let token = tokens["first"].clone();
            async move { handle.seat_call(Some(token), SeatCall::Resign).await }
        })
        .await
        .unwrap();
        let store = a.store().clone();
        until!("the finished match's lease released", {
            store
                .lease_holder(&match_lease(&id))
                .await
                .unwrap()
                .is_none()
        });
        drop(a);
        // A server that died just after the end, before its release: the lease stays. So does
        // one taken for a match that was never stored.
        let dead = "dead/00000000@http://dead.test:50051";
        let short = Duration::from_millis(200);
        store
            .acquire_lease(&match_lease(&id), dead, short)
            .await
            .unwrap();
        store
            .acquire_lease(&match_lease("never-stored"), dead, short)
            .await
            .unwrap();
        tokio::time::sleep(short).await;
        assert_eq!(
            store.lapsed_leases(MATCH_LEASES, 10).await.unwrap().len(),
            2
        );

        let b = schema.replica("b").await;
        until!("both lapsed leases deleted", {
            store
                .lapsed_leases(MATCH_LEASES, 10)
                .await
                .unwrap()
                .is_empty()
        });
        assert_eq!(store.lease_holder(&match_lease(&id)).await.unwrap(), None);
        assert_eq!(b.live_count(), 0, "nothing rebuilt to clean up");
        assert_eq!(b.leases_held(), 0);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_unloaded_idle_are_not_swept_back() {
    on_postgres(|schema| async move {
        let idle = Some(Duration::from_millis(300));
        let a = schema.replica_with("a", TTL, idle).await;
        let b = schema.replica_with("b", TTL, idle).await;
        let (id, tokens) = seated(&a).await;
        play(&a, &id, &tokens, "first").await.unwrap();
        until!("the idle match left A", {
            a.live_count() == 0 && a.leases_held() == 0
        });
        until!("its lease released", {
            a.store()
                .lease_holder(&match_lease(&id))
                .await
                .unwrap()
                .is_none()
        });
        // Several sweeps of both replicas go by.
        tokio::time::sleep(4 * TTL).await;
        assert_eq!((a.live_count(), b.live_count()), (0, 0));
        assert_eq!((a.leases_held(), b.leases_held()), (0, 0));
        assert!(
            a.store()
                .lapsed_leases(MATCH_LEASES, 10)
                .await
                .unwrap()
                .is_empty()
        );
        // It comes back where it is next called.
        play(&b, &id, &tokens, "second").await.unwrap();
        assert_eq!(b.leases_held(), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_owner_hands_its_matches_over_at_once() {
    on_postgres(|schema| async move {
        // A time to live no test waits out: B gets the matches only by their hand-over. (Its
        // sweep runs every half of it: B's own time to live is short.)
        let long = Duration::from_secs(60);
        let a = schema.replica_with("a", long, None).await;
        let b = schema.replica_with("b", TTL, None).await;
        let (first, tokens) = seated(&a).await;
        let (second, _) = seated(&a).await;
        for n in 0..4 {
            play(&a, &first, &tokens, &format!("move-{n}"))
                .await
                .unwrap();
        }
        let before = a.get(&first).await.unwrap().summary();
        let events = a.get(&first).await.unwrap().events_after(0).await.unwrap();
        assert_eq!(owner_of(b.get(&first).await.unwrap_err()), "a");

        assert_eq!(a.hand_over().await, 2);
        assert_eq!((a.leases_held(), a.live_count()), (0, 0));
        let refused = a.get(&first).await.unwrap_err();
        assert_eq!(refused.reason(), "MATCH_UNAVAILABLE", "A takes nothing on");

        // B believes what it read of A's lease a moment ago (until a forwarded call finds A
        // gone and makes it forget); after that moment it takes the first at its first
        // asking, from everything A stored; its sweep takes the second, which nobody calls.
        tokio::time::sleep(crate::ownership::ELSEWHERE_MEMORY).await;
        let handle = b.get(&first).await.unwrap();
        assert_eq!(handle.summary(), before);
        assert_eq!(handle.events_after(0).await.unwrap(), events);
        until!("B's sweep takes the second", b.live(&second).is_some());
        assert_eq!(b.leases_held(), 2);
        play(&b, &first, &tokens, "on-b").await.unwrap();
    })
    .await;
}
