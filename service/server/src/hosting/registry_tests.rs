//! The registry keeps in memory only what is hosted: a match that expired leaves it and is
//! rebuilt from the store when asked for.

use std::time::Duration;

use pitchmate_proto::v1 as pb;

use super::*;
use crate::store::tests::scratch_store;

#[tokio::test]
async fn an_expired_match_leaves_memory_and_comes_back_from_the_store() {
    let (store, dir) = scratch_store().await;
    let registry = MatchRegistry::open(
        GameRegistry::standard(),
        ActorLimits {
            commands: 8,
            live_capacity: 16,
            expire_unstarted_after: Some(Duration::from_millis(50)),
        },
        store,
        0,
    )
    .await
    .unwrap();
    let created = registry
        .create(NewMatch {
            variant_id: "kings-goal".into(),
            ..NewMatch::default()
        })
        .await
        .unwrap();
    let id = created.match_id;
    let mut unloaded = false;
    for _ in 0..200 {
        if matches!(registry.entry(&id).unwrap(), Entry::Unloaded(_)) {
            unloaded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(unloaded, "the expired match's actor left memory");
    let listed = registry.list(&MatchFilter::default(), None, 10);
    assert_eq!(listed.matches[0].status(), pb::MatchStatus::Aborted);
    assert_eq!(
        listed.matches[0].result.as_ref().unwrap().reason(),
        pb::ResultReason::Expired
    );
    let handle = registry.get(&id).await.expect("rebuilt from the store");
    let (summary, _) = handle.snapshot(None).await.unwrap();
    assert_eq!(summary, listed.matches[0], "as it was stored");
    assert!(matches!(registry.entry(&id).unwrap(), Entry::Live(_)));
    dir.remove();
}
