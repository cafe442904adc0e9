//! One Swiss round's pairing (`pitchmate_tournaments::swiss::pair`), on one core.
//!
//! `cargo bench -p pitchmate-tournaments --bench swiss`
//!
//! An event as the server runs it: bots rated ~ normal(1500, 300), results drawn from a fixed
//! seed (the higher rating wins more often, one game in ten is drawn), no forbidden pairs. For
//! 100, 1,000, 1,001 (an odd field: a bye) and 10,000 bots it plays rounds 1 to 6 with `pair`
//! itself, then times `pair` for round 1 (one score group, no history) and round 7 (many score
//! groups, six rounds of rematches and seat rules), 11 runs each (fewer once a size's runs pass
//! a time budget), and prints the median and the longest, with what the pairing came to: the
//! pairs made by the completing step rather than the blocks, the pairs across score groups,
//! the bots not given their due seat, and the mean offset from the Dutch pairs.
//!
//! The baseline, measured in the same run and interleaved run by run: ranking the field alone
//! (every bot's points from the history in one pass, then the sort by points, rating and seeded
//! order), which any pairing does first; the ratio is `pair`'s median over the ranking's. The
//! target is under 1 s for 1,000 bots, any round.
//!
//! Then the same late round of 1,000 bots where the bots of one owner never meet, with owners
//! of 4 and of 20 bots (round `7/4`, `7/20`): 1,500 and 9,500 forbidden pairs. And a case the
//! blocks cannot pair (round `7/low`): the 100 lowest-ranked may play only the 100
//! highest-ranked (some 90,000 forbidden pairs), so the completing step makes the pairs the
//! blocks leave, at `O(n²)` each.
//!
//! For scale, the whole field in one run of the blossom algorithm (a dense matrix of random
//! weights, which is what `pair` would do without blocks) is timed once for 100 and 1,000.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use pitchmate_tournaments::swiss::{MAX_BLOCK, SwissRequest, SwissRound, pair};
use pitchmate_tournaments::{Entrant, Game, Outcome, Round, WIN, seeded_key};

const SIZES: [usize; 4] = [100, 1_000, 1_001, 10_000];
const LATE: u32 = 7;
const RUNS: usize = 11;
/// A measurement stops after the run that takes `pair` past this (at least 3 runs).
const BUDGET: Duration = Duration::from_secs(20);
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

fn field(n: usize, rng: &mut Rng) -> Vec<Entrant> {
    (0..n)
        .map(|i| Entrant {
            id: format!("bot-{i:05}"),
            rating: rng.normal(1_500.0, 300.0).round() as i32,
        })
        .collect()
}

fn request<'a>(
    field: &'a [Entrant],
    history: &'a [Round],
    forbidden: &'a [(String, String)],
) -> SwissRequest<'a> {
    SwissRequest {
        seed: SEED,
        number: history.len() as u32 + 1,
        field,
        history,
        forbidden,
        paired_games: false,
    }
}

/// Bots of one owner never meet: owners of `per_owner` consecutive bots.
fn same_owner(field: &[Entrant], per_owner: usize) -> Vec<(String, String)> {
    field
        .chunks(per_owner)
        .flat_map(|owner| {
            owner.iter().enumerate().flat_map(move |(i, a)| {
                owner[i + 1..]
                    .iter()
                    .map(move |b| (a.id.clone(), b.id.clone()))
            })
        })
        .collect()
}

/// Rounds 1 to `rounds` of an event of `field`, paired by `pair`, with drawn results.
fn play(
    field: &[Entrant],
    forbidden: &[(String, String)],
    rounds: u32,
    rng: &mut Rng,
) -> Vec<Round> {
    let rating: HashMap<&str, i32> = field.iter().map(|e| (e.id.as_str(), e.rating)).collect();
    let mut history = Vec::new();
    for number in 1..=rounds {
        let round = pair(&request(field, &history, forbidden)).expect("the simulated event pairs");
        let games = round
            .pairs
            .iter()
            .map(|(first, second)| {
                let expected = 1.0
                    / (1.0 + 10f64.powf(f64::from(rating[&**second] - rating[&**first]) / 400.0));
                let roll = rng.unit();
                let outcome = if roll < 0.1 {
                    Outcome::Draw
                } else if roll < 0.1 + 0.9 * expected {
                    Outcome::FirstWon
                } else {
                    Outcome::SecondWon
                };
                Game {
                    first: first.clone(),
                    second: second.clone(),
                    outcome: Some(outcome),
                }
            })
            .collect();
        history.push(Round {
            number,
            games,
            bye: round.bye,
        });
    }
    history
}

/// The baseline: the field ranked by points (one pass over the history), rating and seeded
/// order.
fn rank(field: &[Entrant], history: &[Round]) -> Vec<usize> {
    let index: HashMap<&str, usize> = field
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let mut points = vec![0u32; field.len()];
    for round in history {
        for game in &round.games {
            if let Some(outcome) = game.outcome {
                if let Some(&i) = index.get(game.first.as_str()) {
                    points[i] += outcome.points(0);
                }
                if let Some(&i) = index.get(game.second.as_str()) {
                    points[i] += outcome.points(1);
                }
            }
        }
        if let Some(&i) = round.bye.as_deref().and_then(|id| index.get(id)) {
            points[i] += WIN;
        }
    }
    let keys: Vec<[u8; 32]> = field.iter().map(|e| seeded_key(SEED, &e.id)).collect();
    let mut order: Vec<usize> = (0..field.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        points[b]
            .cmp(&points[a])
            .then(field[b].rating.cmp(&field[a].rating))
            .then(keys[a].cmp(&keys[b]))
    });
    order
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Times `pair` and the baseline on one request; prints one line.
fn measure(
    n: usize,
    label: &str,
    field: &[Entrant],
    history: &[Round],
    forbidden: &[(String, String)],
) {
    let (mut pairing, mut ranking) = (Vec::new(), Vec::new());
    let mut spent = Duration::ZERO;
    let mut round: Option<SwissRound> = None;
    while pairing.len() < RUNS && (pairing.len() < 3 || spent < BUDGET) {
        let started = Instant::now();
        black_box(rank(black_box(field), black_box(history)));
        ranking.push(started.elapsed());
        let started = Instant::now();
        round = Some(black_box(
            pair(black_box(&request(field, history, forbidden))).expect("pairs"),
        ));
        let took = started.elapsed();
        pairing.push(took);
        spent += took;
    }
    pairing.sort_unstable();
    ranking.sort_unstable();
    let median = |times: &[Duration]| times[times.len() / 2];
    let max = |times: &[Duration]| times[times.len() - 1];
    let why = round.expect("at least one run").why;
    let count = |keep: fn(&pitchmate_tournaments::swiss::PairWhy) -> bool| {
        why.pairs.iter().filter(|p| keep(p)).count()
    };
    let offset: u64 = why.pairs.iter().map(|p| u64::from(p.offset)).sum();
    println!(
        "{n:>7} {label:>6} {:>5} {:>9.1} ms {:>7.1} ms {:>8.2} ms {:>8.1}x {:>6} {:>6} {:>6} {:>6} {:>7.2}",
        pairing.len(),
        ms(median(&pairing)),
        ms(max(&pairing)),
        ms(median(&ranking)),
        median(&pairing).as_secs_f64() / median(&ranking).as_secs_f64(),
        why.groups.len(),
        count(|p| p.by_fallback),
        count(|p| p.score_gap > 0),
        why.pairs.iter().map(|p| p.seat_misses).sum::<u32>(),
        offset as f64 / why.pairs.len() as f64,
    );
}

/// The whole field in one blossom run, on a dense matrix of random weights of the magnitude
/// `pair` uses; the median of 3 runs.
fn dense(n: usize, rng: &mut Rng) -> Duration {
    let weights: Vec<i64> = (0..n * n)
        .map(|_| (1i64 << 56) - (rng.next_u64() >> 20) as i64)
        .collect();
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let started = Instant::now();
            black_box(integer_blossom::max_weight_matching(black_box(&weights), n));
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[1]
}

fn main() {
    println!(
        "swiss::pair: blocks of {MAX_BLOCK}, ratings ~ normal(1500, 300), rounds 1-{} played first",
        LATE - 1
    );
    println!(
        "{:>7} {:>6} {:>5} {:>12} {:>10} {:>11} {:>9} {:>6} {:>6} {:>6} {:>6} {:>7}",
        "bots",
        "round",
        "runs",
        "pair median",
        "pair max",
        "rank median",
        "pair/rank",
        "groups",
        "fallbk",
        "floats",
        "misses",
        "offset"
    );
    for n in SIZES {
        let mut rng = Rng(n as u64);
        let field = field(n, &mut rng);
        measure(n, "1", &field, &[], &[]);
        let history = play(&field, &[], LATE - 1, &mut rng);
        measure(n, &LATE.to_string(), &field, &history, &[]);
    }
    for (n, per_owner) in [(1_000, 4), (1_000, 20)] {
        let mut rng = Rng(n as u64);
        let field = field(n, &mut rng);
        let forbidden = same_owner(&field, per_owner);
        let history = play(&field, &forbidden, LATE - 1, &mut rng);
        let label = format!("{LATE}/{per_owner}");
        measure(n, &label, &field, &history, &forbidden);
    }
    {
        let (n, low) = (1_000, 100);
        let mut rng = Rng(n as u64);
        let field = field(n, &mut rng);
        let history = play(&field, &[], LATE - 1, &mut rng);
        let order = rank(&field, &history);
        let forbidden: Vec<(String, String)> = order[n - low..]
            .iter()
            .flat_map(|&a| order[low..].iter().map(move |&b| (a, b)))
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (field[a].id.clone(), field[b].id.clone()))
            .collect();
        measure(n, &format!("{LATE}/low"), &field, &history, &forbidden);
    }
    let mut rng = Rng(1);
    for n in [100, 1_000] {
        println!(
            "whole field in one blossom run (dense, random weights), {n:>5} bots: {:.1} ms",
            ms(dense(n, &mut rng))
        );
    }
}
