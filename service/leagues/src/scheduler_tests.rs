//! The scheduler in cluster mode, two servers on one PostgreSQL database: one schedules at a
//! time under the lease `league/scheduler`, the other takes over when it is released or lapses,
//! and a deposed scheduler running a pass beside the new one pairs no ticket twice and creates
//! no assignment twice. Skipped without a PostgreSQL server (outside CI).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use tokio::sync::Notify;

use pitchmate_games::GameRegistry;
use pitchmate_hosting::ownership::ClusterSettings;
use pitchmate_hosting::{ActorLimits, MatchRegistry, NewMatch};
use pitchmate_store::scratch::ScratchSchema;
use pitchmate_store::{AssignedState, SCHEDULER_LEASE, Store, TicketState};

use crate::accounts::{Accounts, BotDefaults, NewBot};
use crate::challenges::Challenges;
use crate::inbox::InboxBus;
use crate::queue::Queue;
use crate::rating::RatingConfig;
use crate::scheduler::{Scheduler, SchedulerLease};
use crate::terms::Terms;
use crate::tournaments::{Signal, Tournaments};

const TTL: Duration = Duration::from_secs(1);

/// One server's league, as the server builds it, in cluster mode.
async fn server(url: &str, replica_id: &str) -> Scheduler {
    let store = Store::open(url, std::path::Path::new("unused-by-postgres"))
        .await
        .unwrap();
    let limits = ActorLimits {
        commands: 8,
        live_capacity: 16,
        expire_unstarted_after: None,
        unload_idle_after: None,
        event_tail: 16,
    };
    let cluster = ClusterSettings {
        replica_id: replica_id.to_owned(),
        advertise_url: format!("http://{replica_id}.test:50051"),
        lease_ttl: TTL,
    };
    let registry = MatchRegistry::open_in_cluster(
        GameRegistry::standard(),
        limits,
        store.clone(),
        0,
        Some(cluster),
    )
    .await
    .unwrap();
    let defaults = BotDefaults {
        max_concurrent: 4,
        daily_cap: 100,
    };
    let variants = vec!["soccer-chess".to_owned()];
    let accounts = Arc::new(
        Accounts::open(store.clone(), defaults, variants)
            .await
            .unwrap(),
    );
    let bus = InboxBus::default();
    let assigned = Arc::new(Notify::new());
    let ratings = RatingConfig::default();
    let challenges = Arc::new(Challenges::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        bus.clone(),
        Arc::clone(&assigned),
        ratings.clone(),
    ));
    let queue = Arc::new(Queue::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        ratings.clone(),
        Arc::clone(&assigned),
    ));
    let tournaments = Arc::new(Tournaments::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        bus.clone(),
        ratings,
        Signal::default(),
        Arc::clone(&assigned),
    ));
    Scheduler {
        store,
        lease: registry.lease_holder().map(|holder| SchedulerLease {
            holder: holder.to_owned(),
            ttl: TTL,
        }),
        accounts,
        registry,
        challenges,
        queue,
        bus,
        tournaments,
        show_up: Duration::from_secs(60),
        assigned,
        scheduling: Arc::new(AtomicBool::new(false)),
    }
}

/// Runs `scenario` on a schema of its own, dropped afterwards even when the scenario fails.
async fn on_postgres<F, Fut>(scenario: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let outcome = tokio::spawn(scenario(schema.url.clone())).await;
    schema.drop_schema().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic.into_panic());
    }
}

fn soccer_chess() -> Terms {
    Terms {
        variant_id: "soccer-chess".to_owned(),
        options: Default::default(),
        clock: Default::default(),
        rated: false,
        seat: Default::default(),
        rematch_of: None,
    }
}

fn scheduling(scheduler: &Scheduler) -> bool {
    scheduler.scheduling.load(Ordering::Relaxed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_schedules_at_a_time_and_another_takes_over() {
    on_postgres(|url| async move {
        let (a, b) = (server(&url, "a").await, server(&url, "b").await);
        let (mut held_a, mut held_b) = (None, None);
        assert!(a.may_schedule(&mut held_a).await);
        assert!(!b.may_schedule(&mut held_b).await);
        assert!(a.may_schedule(&mut held_a).await, "renewed");
        assert!((scheduling(&a), scheduling(&b)) == (true, false));
        let holder = a
            .store
            .lease_holder(SCHEDULER_LEASE)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(Some(holder.holder.as_str()), a.registry.lease_holder());

        // A holder that stops renewing (paused, or dead) loses the lease once it lapses.
        tokio::time::sleep(TTL + Duration::from_millis(200)).await;
        assert!(b.may_schedule(&mut held_b).await, "taken after it lapsed");
        assert!(!a.may_schedule(&mut held_a).await, "deposed");
        assert_eq!((scheduling(&a), scheduling(&b)), (false, true));
        assert!(held_a.is_none());
        assert!(!a.may_schedule(&mut held_a).await, "B holds it");

        // Released (B stops), it is A's at once.
        b.store
            .release_lease(&held_b.take().unwrap())
            .await
            .unwrap();
        assert!(a.may_schedule(&mut held_a).await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deposed_scheduler_beside_the_new_one_pairs_and_creates_once() {
    on_postgres(|url| async move {
        let (a, b) = (server(&url, "a").await, server(&url, "b").await);
        const BOTS: usize = 12;
        let mut bots = Vec::new();
        for n in 0..BOTS {
            // Bots and tickets come in through either server.
            let side = if n % 2 == 0 { &a } else { &b };
            let new = NewBot {
                name: format!("bot-{n}"),
                ..NewBot::default()
            };
            let (bot, key) = side
                .accounts
                .create_bot(new, SystemTime::now())
                .await
                .unwrap();
            let caller = side.accounts.authenticate(&key.secret).await.unwrap();
            side.queue.enter(&caller, soccer_chess()).await.unwrap();
            bots.push(bot.bot_id);
        }

        // Both run passes at once, as a scheduler paused past its lease would beside its successor.
        for _ in 0..3 {
            tokio::join!(a.pass(), b.pass());
        }

        let tickets = a.store.tickets(None, false).await.unwrap();
        assert_eq!(tickets.len(), BOTS);
        let mut per_match: HashMap<String, Vec<String>> = HashMap::new();
        for ticket in &tickets {
            assert_eq!(ticket.state, TicketState::Paired, "every ticket paired");
            per_match
                .entry(ticket.match_id.clone().unwrap())
                .or_default()
                .push(ticket.bot_id.clone());
        }
        assert_eq!(per_match.len(), BOTS / 2, "each ticket in one pair");
        assert!(per_match.values().all(|pair| pair.len() == 2));

        let created = a
            .store
            .assigned_matches(AssignedState::Created)
            .await
            .unwrap();
        let pending = a
            .store
            .assigned_matches(AssignedState::Pending)
            .await
            .unwrap();
        assert_eq!((created.len(), pending.len()), (BOTS / 2, 0));
        let assigned: HashSet<&str> = created.iter().map(|m| m.match_id.as_str()).collect();
        assert_eq!(assigned, per_match.keys().map(String::as_str).collect());
        // Each match stored once, under its assignment's id.
        let stored: Vec<String> = a
            .store
            .matches()
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.match_id)
            .collect();
        assert_eq!(stored.len(), BOTS / 2);
        assert_eq!(
            stored.iter().map(String::as_str).collect::<HashSet<_>>(),
            assigned
        );
        // Each bot told of its match once.
        for bot_id in &bots {
            let told = a
                .store
                .inbox_after(bot_id, 0, 100)
                .await
                .unwrap()
                .into_iter()
                .filter(|item| item.kind == 4)
                .count();
            assert_eq!(told, 1, "{bot_id} told once");
        }
    })
    .await;
}

/// A scheduler deposed after it created an assigned match but before it told the bots: the
/// new one, on another server, finds the match hosted there and tells the bots.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_scheduler_tells_of_a_match_its_predecessor_created() {
    on_postgres(|url| async move {
        let (a, b) = (server(&url, "a").await, server(&url, "b").await);
        let mut bots = Vec::new();
        for n in 0..2 {
            let new = NewBot {
                name: format!("bot-{n}"),
                ..NewBot::default()
            };
            let (bot, key) = a.accounts.create_bot(new, SystemTime::now()).await.unwrap();
            let caller = a.accounts.authenticate(&key.secret).await.unwrap();
            a.queue.enter(&caller, soccer_chess()).await.unwrap();
            bots.push(bot.bot_id);
        }
        assert_eq!(a.queue.cycle().await.unwrap().paired, 1);
        let pending = a
            .store
            .assigned_matches(AssignedState::Pending)
            .await
            .unwrap();
        assert_eq!(pending.len(), 1);
        let match_id = pending[0].match_id.clone();
        a.registry
            .create(NewMatch {
                variant_id: "soccer-chess".to_owned(),
                match_id: Some(match_id.clone()),
                ..NewMatch::default()
            })
            .await
            .unwrap();

        b.pass().await;
        let created = b
            .store
            .assigned_matches(AssignedState::Created)
            .await
            .unwrap();
        assert_eq!(created.len(), 1);
        assert_eq!(created[0].match_id, match_id);
        assert_eq!(
            a.registry.leases_held(),
            1,
            "the match stays where it is hosted"
        );
        for bot_id in &bots {
            let told = b.store.inbox_after(bot_id, 0, 100).await.unwrap();
            assert_eq!(told.iter().filter(|item| item.kind == 4).count(), 1);
        }
    })
    .await;
}
