//! The registry keeps in memory only what is hosted: a match that expired or went idle leaves it
//! and is rebuilt from the store when asked for; after a restart the unfinished ones come back
//! on their own.

use std::time::Duration;

use super::actor::Joined;
use super::*;
use pitchmate_store::scratch::scratch_store;

#[tokio::test]
async fn an_expired_match_leaves_memory_and_comes_back_from_the_store() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, Some(Duration::from_millis(50)), None).await;
    let id = waiting_match(&registry).await;
    assert!(
        unloaded_within(&registry, &id, Duration::from_secs(5)).await,
        "the expired match's actor left memory"
    );
    let listed = registry
        .list(&MatchFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(listed.matches[0].progress.status, MatchStatus::Aborted);
    let result = listed.matches[0].progress.result.as_ref().unwrap();
    assert_eq!(result.reason, lifecycle::EndReason::Expired);
    let handle = registry.get(&id).await.expect("rebuilt from the store");
    let (summary, _) = handle.snapshot(None).await.unwrap();
    assert_eq!(summary, listed.matches[0], "as it was stored");
    assert!(registry.live(&id).is_some());
    dir.remove();
}

/// A registry over `store` whose unstarted matches expire and idle ones unload after the given
/// times (never when `None`).
async fn open_registry(
    store: Store,
    expire_unstarted_after: Option<Duration>,
    unload_idle_after: Option<Duration>,
) -> Arc<MatchRegistry> {
    let limits = ActorLimits {
        commands: 8,
        live_capacity: 16,
        expire_unstarted_after,
        unload_idle_after,
        event_tail: 16,
    };
    MatchRegistry::open(GameRegistry::standard(), limits, store, 0)
        .await
        .unwrap()
}

/// A King's Goal match nobody has joined.
async fn waiting_match(registry: &MatchRegistry) -> String {
    registry
        .create(NewMatch {
            variant_id: "kings-goal".into(),
            ..NewMatch::default()
        })
        .await
        .unwrap()
        .setup
        .match_id
        .clone()
}

async fn seated_match(registry: &MatchRegistry, hosting: clock::Hosting) -> (String, Vec<Joined>) {
    let created = registry
        .create(NewMatch {
            variant_id: "kings-goal".into(),
            hosting,
            ..NewMatch::default()
        })
        .await
        .unwrap();
    let handle = registry.get(&created.setup.match_id).await.unwrap();
    let mut joined = Vec::new();
    for name in ["a", "b"] {
        joined.push(handle.join(None, name.into()).await.unwrap());
    }
    (created.setup.match_id.clone(), joined)
}

async fn unloaded_within(registry: &MatchRegistry, match_id: &str, wait: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + wait;
    while tokio::time::Instant::now() < deadline {
        if !registry.read_index().contains_key(match_id) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn an_idle_match_leaves_memory_and_comes_back_as_it_was() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, None, Some(Duration::from_millis(100))).await;
    let (id, joined) = seated_match(&registry, clock::Hosting::default()).await;
    let handle = registry.get(&id).await.unwrap();
    let progress = handle.summary().progress;
    let to_act = &progress.seats[progress.turn.to_act[0].index()].name;
    let token = joined
        .iter()
        .find(|j| j.seat_name == *to_act)
        .unwrap()
        .seat_token
        .clone();
    let submission = Submission {
        expected_version: progress.version,
        client_action_id: "first".into(),
        choice: pitchmate_games::ActionChoice::Index(0),
    };
    handle
        .submit(Some(token.clone()), submission.clone())
        .await
        .unwrap();
    let before = handle.snapshot(Some(token.clone())).await.unwrap();
    let spectator = handle.snapshot(None).await.unwrap().0;
    drop(handle);

    assert!(unloaded_within(&registry, &id, Duration::from_secs(5)).await);
    let listed = registry
        .list(&MatchFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(listed.matches[0], spectator, "listed as it was");
    let handle = registry.get(&id).await.expect("rebuilt from the store");
    assert_eq!(handle.snapshot(Some(token.clone())).await.unwrap(), before);
    let again = handle.submit(Some(token), submission).await.unwrap();
    assert!(again.duplicate, "its answers came back too");
    dir.remove();
}

#[tokio::test]
async fn a_watched_match_and_a_running_clock_keep_a_match_in_memory() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, None, Some(Duration::from_millis(50))).await;
    let (watched, _) = seated_match(&registry, clock::Hosting::default()).await;
    let subscription = registry.get(&watched).await.unwrap().watch(None, 0).await;
    let hour = Duration::from_secs(3600);
    let timed_hosting = clock::Hosting {
        time_control: clock::TimeControl::PerMove {
            per_move: hour,
            first_move: hour,
        },
        ..clock::Hosting::default()
    };
    let (timed, _) = seated_match(&registry, timed_hosting).await;
    assert!(!unloaded_within(&registry, &watched, Duration::from_millis(400)).await);
    assert!(!unloaded_within(&registry, &timed, Duration::from_millis(10)).await);
    drop(subscription);
    assert!(
        unloaded_within(&registry, &watched, Duration::from_secs(5)).await,
        "once nobody watches, it goes"
    );
    assert!(registry.live(&timed).is_some());
    dir.remove();
}

#[tokio::test]
async fn a_restart_brings_unfinished_matches_back_without_being_asked() {
    let (store, dir) = scratch_store().await;
    let first = open_registry(store.clone(), None, None).await;
    let mut waiting = Vec::new();
    for _ in 0..6 {
        waiting.push(waiting_match(&first).await);
    }
    store.close().await.unwrap();
    drop(first);

    // Nothing calls these matches after the restart: only the background rebuild can start
    // their expiry, which a listing then shows.
    let store = Store::open("", &dir.0).await.unwrap();
    let second = open_registry(store.clone(), Some(Duration::from_millis(50)), None).await;
    let listed = second
        .list(&MatchFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(listed.matches.len(), waiting.len(), "listed from the start");
    let mut expired = 0;
    for _ in 0..500 {
        expired = second
            .list(&MatchFilter::default(), None, 10)
            .await
            .unwrap()
            .matches
            .iter()
            .filter(|m| m.progress.status == MatchStatus::Aborted)
            .count();
        if expired == waiting.len() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        expired,
        waiting.len(),
        "every waiting match came back and expired"
    );
    store.close().await.unwrap();
    dir.remove();
}

#[tokio::test]
async fn a_call_that_reaches_a_retired_actor_goes_to_the_rebuilt_match() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, Some(Duration::from_millis(100)), None).await;
    let id = waiting_match(&registry).await;
    let mut attempts = 0;
    let (summary, _) = registry
        .call(&id, |handle| {
            attempts += 1;
            let first = attempts == 1;
            async move {
                // The first attempt holds the handle until the actor has retired under it.
                if first {
                    handle.finished().await;
                }
                handle.snapshot(None).await
            }
        })
        .await
        .expect("answered by the rebuilt match");
    assert_eq!(attempts, 2, "the stopped actor's refusal was retried once");
    assert_eq!(summary.progress.status, MatchStatus::Aborted);
    dir.remove();
}

/// Nothing more happens to a finished match: it leaves memory after a short grace, however long
/// an unfinished one would stay.
#[tokio::test]
async fn a_finished_match_leaves_memory_soon_after_its_end() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, None, Some(Duration::from_secs(600))).await;
    let (id, joined) = seated_match(&registry, clock::Hosting::default()).await;
    let handle = registry.get(&id).await.unwrap();
    handle
        .seat_call(Some(joined[0].seat_token.clone()), SeatCall::Resign)
        .await
        .unwrap();
    drop(handle);
    assert!(
        unloaded_within(&registry, &id, Duration::from_secs(5)).await,
        "the finished match left memory"
    );
    let listed = registry
        .list(&MatchFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(listed.matches[0].progress.status, MatchStatus::Finished);
    dir.remove();
}

#[tokio::test]
async fn a_chosen_id_makes_one_match_however_often_it_is_created() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store.clone(), None, None).await;
    let request = || NewMatch {
        variant_id: "kings-goal".into(),
        match_id: Some("league-1".into()),
        ..NewMatch::default()
    };
    let created = registry.create(request()).await.unwrap();
    assert_eq!(created.setup.match_id, "league-1");
    let again = registry.create(request()).await.unwrap_err();
    assert_eq!(again.reason(), "MATCH_EXISTS");
    // Also once the match is only in the store, as after a restart.
    let reopened = open_registry(store, None, None).await;
    assert_eq!(
        reopened.create(request()).await.unwrap_err().reason(),
        "MATCH_EXISTS"
    );
    dir.remove();
}

/// A call for a match while it is being created waits for it, instead of rebuilding a second
/// actor from the row already stored: two actors of one match would each number its inputs
/// from the same place, and the store would refuse one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_during_creation_reaches_the_created_actor() {
    let (store, dir) = scratch_store().await;
    let registry = open_registry(store, None, None).await;
    for round in 0..40 {
        let id = format!("assigned-{round}");
        // What a bot told of its match does: ask for it until it exists.
        let caller = {
            let (registry, id) = (registry.clone(), id.clone());
            tokio::spawn(async move {
                loop {
                    match registry.get(&id).await {
                        Ok(handle) => return handle,
                        Err(e) if e.reason() == "MATCH_NOT_FOUND" => tokio::task::yield_now().await,
                        Err(e) => panic!("{e}"),
                    }
                }
            })
        };
        registry
            .create(NewMatch {
                variant_id: "kings-goal".into(),
                match_id: Some(id.clone()),
                ..NewMatch::default()
            })
            .await
            .unwrap();
        let reached = caller.await.unwrap();
        let hosting = registry.get(&id).await.unwrap();
        assert!(
            reached.same_actor(&hosting),
            "round {round}: the call built a second actor"
        );
    }
    dir.remove();
}
