//! How soon what one server commits reaches the live readers of another sharing its PostgreSQL
//! database in cluster mode, and what sharing changes costs the committing server.
//!
//! `PITCHMATE_BENCH_STORE_URL=postgres://... cargo bench -p pitchmate-store --bench live_changes
//! [-- SAMPLES]`
//!
//! It makes a schema of its own in that database and drops it at the end. Two stores (two
//! servers) share their changes there. SAMPLES times (default 500) server A commits a lifecycle
//! entry (creating a match), then an inbox item, one at a time; for each it notes, from the
//! moment A was asked to write, when A's write was acknowledged (its commit) and when the row
//! arrived on B's live feed (the lifecycle feed, or the remote changes the inbox readers are
//! fed from), and how long after A's acknowledgement it arrived. Last, a store creates matches
//! one after another for a few seconds, not sharing its changes and then sharing them (each in
//! a schema of its own), in alternating rounds: the rates compare what notifying costs a commit.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pitchmate_store::{LifecycleRow, MatchRow, NewInboxItem, RemoteChange, Store};
use tokio::sync::broadcast;

const RATE_BUDGET: Duration = Duration::from_secs(3);
const RATE_ROUNDS: usize = 3;

fn row(match_id: &str) -> MatchRow {
    MatchRow {
        match_id: match_id.to_owned(),
        variant_id: "soccer-chess".to_owned(),
        status: 1,
        setup: vec![0x11; 64],
        summary: vec![0x22; 64],
    }
}

fn entry(match_id: &str) -> LifecycleRow {
    LifecycleRow {
        position: 0,
        match_id: match_id.to_owned(),
        variant_id: "soccer-chess".to_owned(),
        time_nanos: 1_700_000_000_000_000_000,
        body: vec![0x33; 120],
    }
}

fn item(bot_id: &str) -> NewInboxItem {
    NewInboxItem {
        bot_id: bot_id.to_owned(),
        kind: 4,
        body: vec![0x44; 300],
        time_nanos: 1_700_000_000_000_000_000,
    }
}

/// A schema of its own in the database `url` names; the URL that works in it.
struct Schema {
    admin: tokio_postgres::Client,
    name: String,
    url: String,
}

impl Schema {
    async fn create(url: &str) -> Self {
        let (admin, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("connect to PITCHMATE_BENCH_STORE_URL");
        tokio::spawn(connection);
        let name = format!("pitchmate_bench_{}", uuid::Uuid::new_v4().simple());
        admin
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .await
            .expect("create the bench schema");
        let separator = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{separator}options=-csearch_path%3D{name}");
        Self { admin, name, url }
    }

    async fn drop(self) {
        self.admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await
            .expect("drop the bench schema");
    }
}

/// Milliseconds at the median, 90th and 99th percentile and the most, of sorted durations.
fn summary(sorted: &[Duration]) -> String {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "median {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(*sorted.last().expect("samples"))
    )
}

/// Prints when A's writes were acknowledged and when they arrived on B, both from A's write,
/// and by how much each arrival followed its acknowledgement.
fn report(mut acked: Vec<Duration>, mut arrived: Vec<Duration>, on_b: &str) {
    let mut behind: Vec<Duration> = arrived
        .iter()
        .zip(&acked)
        .map(|(arrival, ack)| arrival.saturating_sub(*ack))
        .collect();
    let before = arrived.iter().zip(&acked).filter(|(r, a)| r < a).count();
    acked.sort_unstable();
    arrived.sort_unstable();
    behind.sort_unstable();
    println!("  A's commit acknowledged: {}", summary(&acked));
    println!("  {on_b} {}", summary(&arrived));
    println!(
        "  after A's acknowledgement: {} ({before} arrived before it)",
        summary(&behind)
    );
}

async fn next_lifecycle(live: &mut broadcast::Receiver<Arc<LifecycleRow>>, match_id: &str) {
    loop {
        let row = live.recv().await.expect("the live feed");
        if row.match_id == match_id {
            return;
        }
    }
}

async fn next_inbox(remote: &mut broadcast::Receiver<RemoteChange>, bot_id: &str) {
    loop {
        if let RemoteChange::Inbox(rows) = remote.recv().await.expect("remote changes")
            && rows.iter().any(|r| r.bot_id == bot_id)
        {
            return;
        }
    }
}

/// Matches created one after another with lifecycle entries, per second, by a store that
/// shares its changes or not.
async fn creation_rate(url: &str, share: bool) -> f64 {
    let schema = Schema::create(url).await;
    let store = Store::open(&schema.url, Path::new("unused"))
        .await
        .expect("open");
    if share {
        store.share_changes().await.expect("share changes");
    }
    let started = Instant::now();
    let mut created = 0u64;
    while started.elapsed() < RATE_BUDGET {
        let id = format!("rate-{created}");
        store
            .create(row(&id), Vec::new(), vec![entry(&id)])
            .await
            .expect("create");
        created += 1;
    }
    let rate = created as f64 / started.elapsed().as_secs_f64();
    store.close().await.expect("close");
    schema.drop().await;
    rate
}

fn main() {
    let samples: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(500, |a| a.parse().expect("SAMPLES is a number"));
    let url = std::env::var("PITCHMATE_BENCH_STORE_URL").unwrap_or_default();
    if !url.starts_with("postgres") {
        eprintln!(
            "set PITCHMATE_BENCH_STORE_URL to a postgres:// URL: this bench needs PostgreSQL"
        );
        std::process::exit(2);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let schema = Schema::create(&url).await;
        let a = Store::open(&schema.url, Path::new("unused"))
            .await
            .expect("open A");
        let b = Store::open(&schema.url, Path::new("unused"))
            .await
            .expect("open B");
        let mut live = b.lifecycle_live();
        let mut remote = b.remote_changes();
        a.share_changes().await.expect("A shares");
        b.share_changes().await.expect("B shares");
        // B listens once its listener has caught up.
        while remote.recv().await.expect("remote changes") != RemoteChange::Missed {}

        let (mut acked, mut arrived) = (Vec::new(), Vec::new());
        for n in 0..samples {
            let id = format!("latency-{n}");
            let started = Instant::now();
            let write = async {
                a.create(row(&id), Vec::new(), vec![entry(&id)])
                    .await
                    .expect("create");
                started.elapsed()
            };
            let heard = async {
                next_lifecycle(&mut live, &id).await;
                started.elapsed()
            };
            let (ack, arrival) = tokio::join!(write, heard);
            acked.push(ack);
            arrived.push(arrival);
        }
        println!("lifecycle entries, {samples} samples, from A's write:");
        report(acked, arrived, "on B's live feed:       ");

        let (mut acked, mut arrived) = (Vec::new(), Vec::new());
        for n in 0..samples {
            let bot = format!("bot-{}", n % 50);
            let started = Instant::now();
            let write = async {
                a.append_inbox(vec![item(&bot)]).await.expect("append");
                started.elapsed()
            };
            let heard = async {
                next_inbox(&mut remote, &bot).await;
                started.elapsed()
            };
            let (ack, arrival) = tokio::join!(write, heard);
            acked.push(ack);
            arrived.push(arrival);
        }
        println!("inbox items, {samples} samples, from A's write:");
        report(acked, arrived, "on B's remote changes:  ");
        a.close().await.expect("close A");
        b.close().await.expect("close B");
        schema.drop().await;

        // Alternated, so that load from elsewhere on the machine falls on both alike.
        let (mut alone, mut sharing) = (Vec::new(), Vec::new());
        for _ in 0..RATE_ROUNDS {
            alone.push(creation_rate(&url, false).await);
            sharing.push(creation_rate(&url, true).await);
        }
        let rates = |rates: &[f64]| {
            rates
                .iter()
                .map(|r| format!("{r:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!("matches created one after another, per second, in alternating rounds:");
        println!("  not sharing: {}", rates(&alone));
        println!("  sharing:     {}", rates(&sharing));
    });
}
