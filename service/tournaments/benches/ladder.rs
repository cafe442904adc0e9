//! One cycle of the ladder's pairing (`pitchmate_tournaments::ladder::pair`), on one core.
//!
//! `cargo bench -p pitchmate-tournaments --bench ladder`
//!
//! A ladder as the server hands it over each cycle: bots rated ~ normal(1500, 300) with 0 to 30
//! ladder points, nine in ten idle (waited 0 to 120 units), the busy ones playing each other,
//! every bot's last opponent from a history of disjoint games, and games of 40 or 41 each, so
//! every idle bot may play under the default rules (spread 2): the most work a cycle can have.
//! Drawn from a fixed seed, so every run pairs the same ladders. For 1,000 and 10,000 bots it
//! times `pair`, 20 runs, and prints the median and the longest, the pairs made, the idle bots
//! left waiting, and the mean rank and rating gaps of the pairs.
//!
//! The baseline, measured in the same run and interleaved run by run: ranking the bots
//! (`ladder::ranking`: a SHA-256 per bot and a sort), which `pair` does first and any pairing
//! by rank needs; the ratio is `pair`'s median over the ranking's.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pitchmate_tournaments::ladder::{BLOCK, LadderBot, LadderRules, pair, ranking};

const SIZES: [usize; 2] = [1_000, 10_000];
const RUNS: usize = 20;
const SEED: u64 = 2024;

/// splitmix64: a fixed sequence from a seed.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Normal, by Box-Muller.
    fn normal(&mut self, mean: f64, sd: f64) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        mean + sd * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

fn ladder(n: usize) -> Vec<LadderBot> {
    let mut rng = Rng(n as u64);
    let mut bots: Vec<LadderBot> = (0..n)
        .map(|i| {
            let games = 40 + rng.below(2) as u32;
            LadderBot {
                id: format!("bot-{i}"),
                rating: rng.normal(1_500.0, 300.0).round() as i32,
                points: rng.below(31) as u32,
                games,
                firsts: games / 2,
                last_opponent: None,
                idle: true,
                idle_since: rng.below(120),
            }
        })
        .collect();
    // Last games: the bots shuffled and taken two by two; the first tenth are still playing.
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for (k, pair) in order.chunks_exact(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        bots[a].last_opponent = Some(bots[b].id.clone());
        bots[b].last_opponent = Some(bots[a].id.clone());
        if k < n / 20 {
            bots[a].idle = false;
            bots[b].idle = false;
        }
    }
    bots
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rules = LadderRules::default();
    println!("ladder pair: blocks of {BLOCK}, rules {rules:?}, ratings ~ normal(1500, 300)");
    println!(
        "{:>7} {:>5} {:>5} {:>12} {:>10} {:>13} {:>11} {:>10} {:>6} {:>5} {:>9} {:>10}",
        "bots",
        "idle",
        "runs",
        "pair median",
        "pair max",
        "rank median",
        "rank max",
        "pair/rank",
        "pairs",
        "left",
        "rank gap",
        "rating gap"
    );
    for n in SIZES {
        let bots = ladder(n);
        let idle = bots.iter().filter(|b| b.idle).count();
        let (mut pairing, mut ranking_times) = (Vec::new(), Vec::new());
        let mut round = None;
        for _ in 0..RUNS {
            let started = Instant::now();
            black_box(ranking(black_box(&bots), SEED));
            ranking_times.push(started.elapsed());
            let started = Instant::now();
            round = Some(black_box(pair(black_box(&bots), SEED, &rules)));
            pairing.push(started.elapsed());
        }
        let round = round.expect("at least one run");
        pairing.sort_unstable();
        ranking_times.sort_unstable();
        let median = |times: &[Duration]| times[times.len() / 2];
        let max = |times: &[Duration]| times[times.len() - 1];
        let pairs = round.pairs.len().max(1) as f64;
        let rank_gap: f64 = round
            .why
            .iter()
            .map(|w| f64::from(w.ranks.0.abs_diff(w.ranks.1)))
            .sum();
        let index = |id: &str| bots.iter().position(|b| b.id == id).expect("a bot");
        let rating_gap: f64 = round
            .pairs
            .iter()
            .map(|(a, b)| f64::from(bots[index(a)].rating.abs_diff(bots[index(b)].rating)))
            .sum();
        println!(
            "{n:>7} {idle:>5} {:>5} {:>9.2} ms {:>7.2} ms {:>10.3} ms {:>8.3} ms {:>9.1}x {:>6} {:>5} {:>9.1} {:>10.1}",
            pairing.len(),
            ms(median(&pairing)),
            ms(max(&pairing)),
            ms(median(&ranking_times)),
            ms(max(&ranking_times)),
            median(&pairing).as_secs_f64() / median(&ranking_times).as_secs_f64(),
            round.pairs.len(),
            idle - 2 * round.pairs.len(),
            rank_gap / pairs,
            rating_gap / pairs,
        );
    }
}
