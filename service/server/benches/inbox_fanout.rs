//! How long an inbox item takes to reach its bot when many bots follow their inboxes at once.
//!
//! `cargo bench -p pitchmate-server --bench inbox_fanout [-- BOTS]`
//!
//! Starts a server in this process on 127.0.0.1 (SQLite in a temporary directory), registers
//! BOTS bots (default 1,000), opens every bot's `WatchInbox` (a hundred to a connection), and
//! seats them in pairs in King's Goal matches. Then one bot of every pair resigns, all at once:
//! each match's end is one item in each of its bots' inboxes. The delay of an item is from the moment its resignation was
//! answered (the match's end committed) to the moment the bot's stream delivered it; the bench
//! prints its percentiles. The baseline, measured in the same run, is the same with 10 bots:
//! the ratio shows what following a thousand inboxes at once costs each of them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use pitchmate_client::{Client, authorized, pb};
use pitchmate_server::config::{Cli, Settings};
use tokio::sync::oneshot;

struct Figures {
    bots: usize,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

fn percentile(sorted: &[Duration], share: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * share).round() as usize]
}

async fn measure(bots: usize) -> Figures {
    let data_dir = std::env::temp_dir().join(format!("pitchmate-fanout-{}", uuid::Uuid::new_v4()));
    let cli = Cli {
        data_dir: Some(data_dir.clone()),
        ..Cli::default()
    };
    let environment = HashMap::from([
        (
            "PITCHMATE__LIMITS__CREATES_PER_SECOND".to_owned(),
            "100000".to_owned(),
        ),
        (
            "PITCHMATE__LIMITS__CREATE_BURST".to_owned(),
            "100000".to_owned(),
        ),
        (
            "PITCHMATE__LIMITS__OPEN_MATCHES_PER_CLIENT".to_owned(),
            "0".to_owned(),
        ),
        ("PITCHMATE__LOG__FILTER".to_owned(), "error".to_owned()),
    ]);
    let settings = Settings::from_layers(&cli, environment).expect("settings");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        pitchmate_server::serve(&settings, listener, async {
            let _ = stopped.await;
        })
        .await
    });
    let client = Client::connect(format!("http://{address}")).await.unwrap();

    let mut keys = Vec::with_capacity(bots);
    for index in 0..bots {
        let created = client
            .register_bot(&format!("fanout-{index}"), "bench")
            .await
            .unwrap();
        keys.push(created.secret);
    }
    // Every bot follows its inbox, a hundred bots to a connection as bots behind one host
    // might (one connection carries at most `connections.max_streams_per_connection` streams);
    // each reports when its first item arrives.
    let mut arrivals = Vec::with_capacity(bots);
    let mut watching = client.clone();
    for (index, key) in keys.iter().enumerate() {
        if index % 100 == 0 {
            watching = Client::connect(format!("http://{address}")).await.unwrap();
        }
        let mut stream = watching.watch_inbox(key, 0).await.unwrap();
        let (arrived, arrival) = oneshot::channel();
        tokio::spawn(async move {
            while let Ok(Some(message)) = stream.message().await {
                if let Some(pb::watch_inbox_response::Kind::Item(_)) = message.kind {
                    let _ = arrived.send(Instant::now());
                    return;
                }
            }
        });
        arrivals.push(arrival);
    }
    let mut pairs = Vec::with_capacity(bots / 2);
    for pair in keys.chunks(2) {
        let created = client
            .create_match(pitchmate_client::NewMatch::variant("kings-goal"))
            .await
            .unwrap();
        for key in pair {
            client
                .join_as_bot(&created.match_id, None, key)
                .await
                .unwrap();
        }
        pairs.push((created.match_id, pair[0].clone()));
    }
    // All resign at once; each answer is when its match's end was committed.
    let ended: Vec<_> = pairs
        .into_iter()
        .map(|(match_id, key)| {
            let client = client.clone();
            tokio::spawn(async move {
                let request = authorized(pb::ResignRequest { match_id }, &key).unwrap();
                client.matches().resign(request).await.unwrap();
                Instant::now()
            })
        })
        .collect();
    let mut ends = Vec::with_capacity(ended.len());
    for end in ended {
        ends.push(end.await.unwrap());
    }
    let mut delays = Vec::with_capacity(bots);
    for (index, arrival) in arrivals.into_iter().enumerate() {
        let arrived = tokio::time::timeout(Duration::from_secs(60), arrival)
            .await
            .expect("every item arrives")
            .unwrap();
        delays.push(arrived.saturating_duration_since(ends[index / 2]));
    }
    delays.sort();
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    std::fs::remove_dir_all(&data_dir).unwrap();
    Figures {
        bots,
        p50: percentile(&delays, 0.5),
        p99: percentile(&delays, 0.99),
        max: *delays.last().unwrap(),
    }
}

fn main() {
    let bots: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(1000, |a| a.parse().expect("BOTS is a number"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let baseline = runtime.block_on(measure(10));
    let loaded = runtime.block_on(measure(bots.max(2) & !1));
    println!("inbox fan-out: the delay from a match's end being answered to its bots' items");
    println!("{:>6}  {:>10}  {:>10}  {:>10}", "bots", "p50", "p99", "max");
    for figures in [&baseline, &loaded] {
        println!(
            "{:>6}  {:>10.2?}  {:>10.2?}  {:>10.2?}",
            figures.bots, figures.p50, figures.p99, figures.max
        );
    }
    println!(
        "ratio to the baseline: p50 {:.1}x, p99 {:.1}x",
        loaded.p50.as_secs_f64() / baseline.p50.as_secs_f64(),
        loaded.p99.as_secs_f64() / baseline.p99.as_secs_f64()
    );
}
