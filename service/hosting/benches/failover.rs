//! How long a live match waits for a new owner in cluster mode when nobody calls it, over a
//! real PostgreSQL database (the test database, or `PITCHMATE_TEST_POSTGRES_URL`).
//!
//! `cargo bench -p pitchmate-hosting --bench failover [-- TTL_SECS...]` (default: 2 10)
//!
//! For each lease time to live, RUNS runs of two servers ("replicas" A and B, each with its own
//! store) in a fresh schema, A hosting a seated Soccer Chess match whose clock runs (ten
//! minutes a move, so it does not end meanwhile):
//!
//! - dead owner: A is dropped without releasing anything, as in a crash. Measured: from the
//!   drop until B hosts the match, found by B's sweep (nobody calls it). The baseline, in the
//!   same run: the time to live, the part of the wait that is the lease lapsing (less the time
//!   since A's last renewal, every third of it);
//! - graceful stop: B, now hosting that match and a second one, hands its matches over to a
//!   third server, C (started a moment before, so its start-up pass is over). Measured from the
//!   start of the hand-over: its end; C answering a call for the second match; C hosting the
//!   first one, which nobody calls (its next sweep).

use std::sync::Arc;
use std::time::Duration;

use pitchmate_games::GameRegistry;
use pitchmate_hosting::clock::{Hosting, TimeControl};
use pitchmate_hosting::ownership::ClusterSettings;
use pitchmate_hosting::{ActorLimits, MatchRegistry, NewMatch};
use pitchmate_store::Store;
use pitchmate_store::scratch::ScratchSchema;
use tokio::time::Instant;

const RUNS: usize = 5;
/// Beyond any wait measured here: a run that takes longer is reported as failed.
const GIVE_UP: Duration = Duration::from_secs(120);

async fn replica(url: &str, replica_id: &str, lease_ttl: Duration) -> Arc<MatchRegistry> {
    let store = Store::open(url, std::path::Path::new("unused-by-postgres"))
        .await
        .expect("open the store");
    let limits = ActorLimits {
        commands: 8,
        live_capacity: 16,
        expire_unstarted_after: None,
        unload_idle_after: None,
        event_tail: 16,
    };
    let cluster = ClusterSettings {
        replica_id: replica_id.to_owned(),
        advertise_url: format!("http://{replica_id}.bench:50051"),
        lease_ttl,
    };
    MatchRegistry::open_in_cluster(GameRegistry::standard(), limits, store, 0, Some(cluster))
        .await
        .expect("open the registry")
}

/// A match with both seats taken and the first seat's clock running.
async fn seated(registry: &MatchRegistry) -> String {
    let per_move = Duration::from_secs(600);
    let created = registry
        .create(NewMatch {
            variant_id: "soccer-chess".into(),
            hosting: Hosting {
                time_control: TimeControl::PerMove {
                    per_move,
                    first_move: per_move,
                },
                ..Hosting::default()
            },
            ..NewMatch::default()
        })
        .await
        .expect("create");
    let id = created.setup.match_id.clone();
    for name in ["a", "b"] {
        registry
            .call(
                &id,
                |handle| async move { handle.join(None, name.into()).await },
            )
            .await
            .expect("join");
    }
    id
}

/// From `since` until `registry` hosts `count` matches, or `None` after [`GIVE_UP`].
async fn hosted(registry: &MatchRegistry, count: usize, since: Instant) -> Option<Duration> {
    while registry.live_count() < count {
        if since.elapsed() > GIVE_UP {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Some(since.elapsed())
}

struct Run {
    dead_owner: Option<Duration>,
    hand_over: Duration,
    called: Option<Duration>,
    uncalled: Option<Duration>,
}

async fn run(ttl: Duration) -> Option<Run> {
    let schema = ScratchSchema::create().await?;
    let (a, b) = (
        replica(&schema.url, "a", ttl).await,
        replica(&schema.url, "b", ttl).await,
    );
    seated(&a).await;
    // Somewhere in the renewal cycle, as a crash would fall.
    tokio::time::sleep(ttl / 2).await;
    let died = Instant::now();
    drop(a);
    let dead_owner = hosted(&b, 1, died).await;

    let second = seated(&b).await;
    let c = replica(&schema.url, "c", ttl).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    b.hand_over().await;
    let hand_over = started.elapsed();
    let called = c.get(&second).await.ok().map(|_| started.elapsed());
    let uncalled = hosted(&c, 2, started).await;
    drop((b, c));
    schema.drop_schema().await;
    Some(Run {
        dead_owner,
        hand_over,
        called,
        uncalled,
    })
}

fn summary(mut times: Vec<Option<Duration>>) -> String {
    let failed = times.iter().filter(|t| t.is_none()).count();
    let mut ms: Vec<f64> = times
        .drain(..)
        .flatten()
        .map(|t| t.as_secs_f64() * 1000.0)
        .collect();
    ms.sort_by(f64::total_cmp);
    if ms.is_empty() {
        return format!("all {failed} runs gave up");
    }
    let each: Vec<String> = ms.iter().map(|m| format!("{m:.0}")).collect();
    let failed = if failed > 0 {
        format!(", {failed} gave up")
    } else {
        String::new()
    };
    format!(
        "min {:.0} ms, median {:.0} ms, max {:.0} ms (each: {}){failed}",
        ms[0],
        ms[ms.len() / 2],
        ms[ms.len() - 1],
        each.join(", ")
    )
}

fn main() {
    let ttls: Vec<u64> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .map(|arg| arg.parse().expect("a time to live in whole seconds"))
        .collect();
    let ttls = if ttls.is_empty() { vec![2, 10] } else { ttls };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for ttl in ttls {
            let ttl = Duration::from_secs(ttl);
            let mut dead = Vec::new();
            let mut hand_overs = Vec::new();
            let mut called = Vec::new();
            let mut uncalled = Vec::new();
            for _ in 0..RUNS {
                let Some(run) = run(ttl).await else {
                    eprintln!("no PostgreSQL: nothing measured");
                    return;
                };
                dead.push(run.dead_owner);
                hand_overs.push(Some(run.hand_over));
                called.push(run.called);
                uncalled.push(run.uncalled);
            }
            println!(
                "lease time to live {} s (baseline), {RUNS} runs:",
                ttl.as_secs()
            );
            println!(
                "  dead owner -> hosted on a survivor, uncalled: {}",
                summary(dead)
            );
            println!(
                "  graceful hand-over itself:                    {}",
                summary(hand_overs)
            );
            println!(
                "  hand-over start -> a call answered elsewhere: {}",
                summary(called)
            );
            println!(
                "  hand-over start -> hosted elsewhere, uncalled: {}",
                summary(uncalled)
            );
        }
    });
}
