//! One cycle of the matchmaking queue's pairing (`pitchmate_leagues::pairing::pair`), on one
//! core.
//!
//! `cargo bench -p pitchmate-leagues --bench pairing`
//!
//! A pool as the server hands it over once a second: tickets with ratings ~ normal(1500, 300)
//! and waits uniform in 0 to 120 s, one bot each, the default rules (100 points, widening 5 a
//! second, up to 600) and every pair allowed, drawn from a fixed seed so every run pairs the
//! same pools. For 1,000, 10,000 and 100,000 tickets it times `pair`, 20 runs (fewer for a size
//! once its runs pass a time budget), and prints the median and the longest, the pairs made,
//! the tickets left waiting and the mean rating gap of the pairs.
//!
//! The baseline, measured in the same run and interleaved run by run: sorting the tickets'
//! indices by (rating, id), which `pair` does first and any pairing needs; the ratio is `pair`'s
//! median over the sort's. The target is one cycle of 10,000 tickets under 100 ms.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pitchmate_leagues::pairing::{BLOCK, PairingRules, Ticket, pair};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const RUNS: usize = 20;
/// A size stops after the run that takes its pairing past this (at least 3 runs).
const BUDGET: Duration = Duration::from_secs(20);

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

fn pool(n: usize) -> Vec<Ticket> {
    let mut rng = Rng(n as u64);
    (0..n as u64)
        .map(|id| Ticket {
            id,
            bot: format!("bot-{id}"),
            rating: rng.normal(1_500.0, 300.0),
            waited: Duration::from_secs_f64(120.0 * rng.unit()),
        })
        .collect()
}

fn sort(tickets: &[Ticket]) -> Vec<usize> {
    let mut sorted: Vec<usize> = (0..tickets.len()).collect();
    sorted.sort_unstable_by(|&a, &b| {
        let (ta, tb) = (&tickets[a], &tickets[b]);
        ta.rating.total_cmp(&tb.rating).then(ta.id.cmp(&tb.id))
    });
    sorted
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rules = PairingRules::default();
    println!(
        "pair: blocks of {BLOCK}, rules {rules:?}, ratings ~ normal(1500, 300), waits 0..120 s"
    );
    println!(
        "{:>8} {:>5} {:>12} {:>10} {:>12} {:>10} {:>10} {:>7} {:>5} {:>9}",
        "tickets",
        "runs",
        "pair median",
        "pair max",
        "sort median",
        "sort max",
        "pair/sort",
        "pairs",
        "left",
        "mean gap"
    );
    for n in SIZES {
        let tickets = pool(n);
        let (mut pairing, mut sorting) = (Vec::new(), Vec::new());
        let mut pairs = Vec::new();
        let mut spent = Duration::ZERO;
        while pairing.len() < RUNS && (pairing.len() < 3 || spent < BUDGET) {
            let started = Instant::now();
            black_box(sort(black_box(&tickets)));
            sorting.push(started.elapsed());
            let started = Instant::now();
            pairs = black_box(pair(black_box(&tickets), &rules, |_, _| true));
            let took = started.elapsed();
            pairing.push(took);
            spent += took;
        }
        pairing.sort_unstable();
        sorting.sort_unstable();
        let median = |times: &[Duration]| times[times.len() / 2];
        let max = |times: &[Duration]| times[times.len() - 1];
        let gap: f64 = pairs
            .iter()
            .map(|&(i, j)| (tickets[i].rating - tickets[j].rating).abs())
            .sum();
        println!(
            "{n:>8} {:>5} {:>9.2} ms {:>7.2} ms {:>9.3} ms {:>7.3} ms {:>9.1}x {:>7} {:>5} {:>9.3}",
            pairing.len(),
            ms(median(&pairing)),
            ms(max(&pairing)),
            ms(median(&sorting)),
            ms(max(&sorting)),
            median(&pairing).as_secs_f64() / median(&sorting).as_secs_f64(),
            pairs.len(),
            n - 2 * pairs.len(),
            gap / pairs.len() as f64
        );
    }
}
