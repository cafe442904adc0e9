//! Durable appends per second through the store's group-commit writer, SQLite in a temporary
//! directory, on the machine's cores.
//!
//! `cargo bench -p pitchmate-store --bench store_append [-- MATCHES]`
//!
//! With `PITCHMATE_BENCH_STORE_URL=postgres://...` it measures that PostgreSQL database instead
//! (it adds matches of its own there and leaves them; the CPU figures are then this process's
//! only, not the database server's).
//!
//! MATCHES (default 1,000) tasks each append like a match taking actions: one input, three
//! events and an idempotency answer per append, each waiting for its commit before the next, as
//! a match actor does. The baseline, measured in the same run, is one match alone: every append
//! is its own transaction and fsync. The ratio shows what batching buys.
//!
//! Beside the rates it prints the CPU time the whole process (every thread: the appending tasks,
//! the writer, SQLite, the kernel on its behalf) spent per append in each phase, from `/proc` on
//! Linux: unlike a rate, that figure hardly moves when other processes compete for the cores.
//! Last, it loads every match of the concurrent phase back, as a restart does.

use std::time::{Duration, Instant};

use pitchmate_store::{AnswerRow, Append, EventRow, InputKind, InputRow, MatchRow, Store};

const BUDGET: Duration = Duration::from_secs(5);

fn append(match_id: &str, number: u64) -> Append {
    let event = |offset: u64| EventRow {
        seq: number * 3 + offset + 1,
        version: number + 1,
        time_nanos: 1_700_000_000_000_000_000,
        owner_seat: None,
        owner_name: String::new(),
        hidden_step: false,
        kind: vec![0x5a; 80],
    };
    Append {
        match_id: match_id.to_owned(),
        inputs: vec![InputRow {
            number,
            kind: InputKind::Acted,
            seat: (number % 2) as u8,
            player_name: String::new(),
            token_hash: Vec::new(),
            account: String::new(),
            action: vec![0x11; 24],
        }],
        events: (0..3).map(event).collect(),
        answer: Some(AnswerRow {
            seat: (number % 2) as u8,
            client_action_id: format!("id-{number}"),
            response: vec![0x22; 200],
        }),
        status: None,
        lifecycle: Vec::new(),
    }
}

/// User + system CPU time of this process so far (all threads), when `/proc` tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    // utime and stime, fields 14 and 15 of the line, in clock ticks: 100 per second
    // (USER_HZ) on every Linux platform Rust targets.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// What one phase measured.
struct Phase {
    appends: u64,
    per_second: f64,
    cpu: Option<Duration>,
    /// Every append's wait for its commit, shortest first.
    waits: Vec<Duration>,
}

impl Phase {
    fn cpu_per_append(&self) -> String {
        match self.cpu {
            Some(cpu) if self.appends > 0 => {
                format!(
                    "{:>6.1} us CPU per append",
                    cpu.as_secs_f64() * 1e6 / self.appends as f64
                )
            }
            _ => "CPU time not available".to_owned(),
        }
    }

    fn waits(&self) -> String {
        let at = |quantile: f64| {
            let index = ((self.waits.len() as f64 * quantile) as usize).min(self.waits.len() - 1);
            self.waits[index].as_secs_f64() * 1e3
        };
        format!(
            "commit wait p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            at(0.5),
            at(0.99),
            at(0.999),
            at(1.0)
        )
    }
}

/// Appends per second with `matches` appending at once for [`BUDGET`].
async fn measure(store: &Store, prefix: &str, matches: usize) -> Phase {
    for m in 0..matches {
        let row = MatchRow {
            match_id: format!("{prefix}-{m}"),
            variant_id: "soccer-chess".to_owned(),
            status: 2,
            setup: vec![1; 64],
            summary: vec![2; 256],
        };
        store
            .create(row, Vec::new(), Vec::new())
            .await
            .expect("create");
    }
    let cpu_before = cpu_time();
    let started = Instant::now();
    let tasks: Vec<_> = (0..matches)
        .map(|m| {
            let store = store.clone();
            let match_id = format!("{prefix}-{m}");
            tokio::spawn(async move {
                let mut number = 0;
                let mut waits = Vec::new();
                while started.elapsed() < BUDGET {
                    let append = append(&match_id, number);
                    let sent = Instant::now();
                    store.append(append).await.expect("append");
                    waits.push(sent.elapsed());
                    number += 1;
                }
                waits
            })
        })
        .collect();
    let mut waits = Vec::new();
    for task in tasks {
        waits.extend(task.await.expect("task"));
    }
    let appends = waits.len() as u64;
    let per_second = appends as f64 / started.elapsed().as_secs_f64();
    let cpu = cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    waits.sort_unstable();
    Phase {
        appends,
        per_second,
        cpu,
        waits,
    }
}

fn main() {
    let matches: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(1_000, |a| a.parse().expect("MATCHES is a number"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let url = std::env::var("PITCHMATE_BENCH_STORE_URL").unwrap_or_default();
    let run = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    );
    let dir = std::env::temp_dir().join(format!("pitchmate-bench-{run}"));
    std::fs::create_dir_all(&dir).expect("bench directory");
    runtime.block_on(async {
        let store = Store::open(&url, &dir).await.expect("open");
        let alone = measure(&store, &format!("{run}-alone"), 1).await;
        let together = measure(&store, &format!("{run}-together"), matches).await;
        store.close().await.expect("close");

        // Reading back, on a fresh open as at a restart: the listing, then every match of the
        // concurrent phase.
        let store = Store::open(&url, &dir).await.expect("reopen");
        let started = Instant::now();
        let listed = store.matches().await.expect("matches").len();
        let listing = started.elapsed();
        let started = Instant::now();
        let mut loaded = 0;
        for m in 0..matches {
            let stored = store
                .load(&format!("{run}-together-{m}"))
                .await
                .expect("load")
                .expect("stored");
            loaded += stored.inputs.len();
        }
        let loading = started.elapsed();
        store.close().await.expect("close");

        println!(
            "one match alone (baseline): {:>10.0} appends/s  {}",
            alone.per_second,
            alone.cpu_per_append()
        );
        println!(
            "{matches} matches at once:   {:>10.0} appends/s  {}",
            together.per_second,
            together.cpu_per_append()
        );
        println!("one match alone: {}", alone.waits());
        println!("{matches} matches at once: {}", together.waits());
        println!(
            "group commit ratio:          {:>10.1}x",
            together.per_second / alone.per_second
        );
        println!(
            "listing {listed} matches: {:.1} ms; loading {matches} matches ({loaded} appends): \
             {:.0} ms",
            listing.as_secs_f64() * 1e3,
            loading.as_secs_f64() * 1e3
        );
    });
    std::fs::remove_dir_all(&dir).expect("remove the bench directory");
}
