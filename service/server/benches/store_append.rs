//! Durable appends per second through the store's group-commit writer, SQLite in a temporary
//! directory, on the machine's cores.
//!
//! `cargo bench -p pitchmate-server --bench store_append [-- MATCHES]`
//!
//! MATCHES (default 1,000) tasks each append like a match taking actions: one input, three
//! events and an idempotency answer per append, each waiting for its commit before the next, as
//! a match actor does. The baseline, measured in the same run, is one match alone: every append
//! is its own transaction and fsync. The ratio shows what batching buys.

use std::time::{Duration, Instant};

use pitchmate_server::store::{AnswerRow, Append, EventRow, InputKind, InputRow, MatchRow, Store};

const BUDGET: Duration = Duration::from_secs(5);

fn append(match_id: &str, number: u64) -> Append {
    let event = |offset: u64| EventRow {
        seq: number * 3 + offset + 1,
        version: number + 1,
        time_nanos: 1_700_000_000_000_000_000,
        owner_seat: None,
        owner_name: String::new(),
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
            action: vec![0x11; 24],
        }],
        events: (0..3).map(event).collect(),
        answer: Some(AnswerRow {
            seat: (number % 2) as u8,
            client_action_id: format!("id-{number}"),
            response: vec![0x22; 200],
        }),
        status: None,
    }
}

/// Appends per second with `matches` appending at once for [`BUDGET`].
async fn measure(store: &Store, prefix: &str, matches: usize) -> f64 {
    for m in 0..matches {
        let row = MatchRow {
            match_id: format!("{prefix}-{m}"),
            variant_id: "soccer-chess".to_owned(),
            status: 2,
            setup: vec![1; 64],
            summary: vec![2; 256],
        };
        store.create(row, Vec::new()).await.expect("create");
    }
    let started = Instant::now();
    let tasks: Vec<_> = (0..matches)
        .map(|m| {
            let store = store.clone();
            let match_id = format!("{prefix}-{m}");
            tokio::spawn(async move {
                let mut number = 0;
                while started.elapsed() < BUDGET {
                    store
                        .append(append(&match_id, number))
                        .await
                        .expect("append");
                    number += 1;
                }
                number
            })
        })
        .collect();
    let mut total = 0;
    for task in tasks {
        total += task.await.expect("task");
    }
    total as f64 / started.elapsed().as_secs_f64()
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
    let dir = std::env::temp_dir().join(format!("pitchmate-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench directory");
    runtime.block_on(async {
        let store = Store::open("", &dir).await.expect("open");
        let alone = measure(&store, "alone", 1).await;
        let together = measure(&store, "together", matches).await;
        store.close().await.expect("close");
        println!("one match alone (baseline): {alone:>10.0} appends/s");
        println!("{matches} matches at once:   {together:>10.0} appends/s");
        println!("group commit ratio:          {:>10.1}x", together / alone);
    });
    std::fs::remove_dir_all(&dir).expect("remove the bench directory");
}
