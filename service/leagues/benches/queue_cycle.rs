//! One whole cycle of the matchmaking queue, as the server runs it once a second, over a real
//! store (SQLite in a temporary directory, on the machine's cores).
//!
//! `cargo bench -p pitchmate-leagues --bench queue_cycle [-- TICKETS]`
//!
//! TICKETS bots (default 10,000), each rated in one rated pool (ratings ~ normal(1500, 300),
//! from a fixed seed) and each with a waiting ticket there. It times `Queue::plan`: reading every
//! waiting ticket, every bot's caps, load and rating, and pairing the pool (10 runs; median and
//! longest). The baseline, measured in the same run on the same tickets: `pairing::pair` alone,
//! the pure pairing the plan ends with. Last, it times one cycle's writes once: each planned pair
//! assigned in a transaction of its own (both tickets still waiting, both bots' caps, the
//! assigned match), as `Queue::cycle` does.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use pitchmate_games::GameRegistry;
use pitchmate_hosting::actor::ActorLimits;
use pitchmate_hosting::{MatchRegistry, durable::nanos};
use pitchmate_leagues::pairing::{PairingRules, Ticket, pair};
use pitchmate_leagues::queue::Queue;
use pitchmate_leagues::rating::RatingConfig;
use pitchmate_leagues::terms::{Clock, SeatChoice, Terms};
use pitchmate_leagues::{Accounts, BotDefaults};
use pitchmate_store::scratch::scratch_store;
use pitchmate_store::{BotRow, FollowerStep, RatingRow, TicketRow, TicketState};
use tokio::sync::Notify;

const RUNS: usize = 10;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// A rating as the store keeps it (the floats' bits), as `rated` writes it.
fn rating_body(rating: f64) -> Vec<u8> {
    format!(
        r#"{{"rating":{},"deviation":{},"volatility":{},"games":20,"last_rated_at":{}}}"#,
        rating.to_bits(),
        60f64.to_bits(),
        0.06f64.to_bits(),
        nanos(SystemTime::now())
    )
    .into_bytes()
}

fn median(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], *times.last().unwrap())
}

#[tokio::main]
async fn main() {
    let tickets: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(10_000, |a| a.parse().expect("TICKETS is a number"));
    let (store, dir) = scratch_store().await;
    let terms = Terms {
        variant_id: "kings-goal".into(),
        options: Default::default(),
        clock: Clock::None,
        rated: true,
        seat: SeatChoice::Any,
        rematch_of: None,
    };
    let pool = "kings-goal/untimed/rated".to_owned();
    let mut rng = Rng(7);
    let now = nanos(SystemTime::now());
    let setup = Instant::now();
    let mut ratings = Vec::with_capacity(tickets);
    let mut pure = Vec::with_capacity(tickets);
    for index in 0..tickets {
        let bot_id = format!("{index:016x}");
        store
            .create_bot(
                BotRow {
                    bot_id: bot_id.clone(),
                    name: format!("bot-{index}"),
                    owner: String::new(),
                    description: String::new(),
                    variants: Vec::new(),
                    max_concurrent: 1,
                    daily_cap: 1000,
                    create_time_nanos: now,
                },
                None,
            )
            .await
            .unwrap();
        let waited = rng.unit() * 120.0;
        store
            .enter_ticket(TicketRow {
                ticket_id: format!("t{index}"),
                bot_id: bot_id.clone(),
                pool: pool.clone(),
                terms: terms.to_bytes(),
                entered_nanos: now - (waited * 1e9) as i64,
                state: TicketState::Waiting,
                match_id: None,
            })
            .await
            .unwrap();
        let rating = rng.normal(1500.0, 300.0);
        ratings.push(RatingRow {
            pool: pool.clone(),
            bot_id: bot_id.clone(),
            body: rating_body(rating),
        });
        pure.push(Ticket {
            id: index as u64,
            bot: bot_id,
            rating,
            waited: Duration::from_secs_f64(waited),
        });
    }
    store
        .apply_follower_step(FollowerStep {
            follower: "bench".into(),
            position: 1,
            ratings,
            ..FollowerStep::default()
        })
        .await
        .unwrap();
    println!(
        "{tickets} bots, tickets and ratings stored in {:.1?}",
        setup.elapsed()
    );

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
    let defaults = BotDefaults {
        max_concurrent: 1,
        daily_cap: 1000,
    };
    let accounts = Arc::new(
        Accounts::open(store.clone(), defaults, Vec::new())
            .await
            .unwrap(),
    );
    let queue = Queue::new(
        store.clone(),
        accounts,
        registry,
        RatingConfig::default(),
        Arc::new(Notify::new()),
    );

    let (mut plans, mut pairs) = (Vec::new(), Vec::new());
    let mut planned = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let plan = queue.plan(SystemTime::now()).await.unwrap();
        plans.push(started.elapsed());
        planned = plan.pairs.len();
        let rules = PairingRules::default();
        let started = Instant::now();
        std::hint::black_box(pair(&pure, &rules, |_, _| true));
        pairs.push(started.elapsed());
    }
    let (plan_median, plan_max) = median(plans);
    let (pair_median, pair_max) = median(pairs);
    println!("one queue cycle's plan, {RUNS} runs, {tickets} waiting tickets in one pool:");
    println!(
        "  Queue::plan (reads + pairing): median {plan_median:.2?}, max {plan_max:.2?}, {planned} pairs"
    );
    println!("  pairing::pair alone (baseline): median {pair_median:.2?}, max {pair_max:.2?}");
    println!(
        "  plan / pair: {:.2}x",
        plan_median.as_secs_f64() / pair_median.as_secs_f64()
    );
    let started = Instant::now();
    let cycle = queue.cycle().await.unwrap();
    println!(
        "one cycle with its writes: {} pairs assigned in {:.2?} ({:.2?} a pair)",
        cycle.paired,
        started.elapsed(),
        started.elapsed() / cycle.paired.max(1) as u32
    );
    store.close().await.unwrap();
    dir.remove();
}
