//! Pairing the matchmaking queue: which of a pool's waiting tickets play each other now.
//!
//! The server calls [`pair`] about once a second per pool (variant, time-control class, rated)
//! with every ticket waiting in it, and makes a match of each pair it returns. It is a pure
//! function of its input: no I/O, no clock, no randomness.
//!
//! # Rules
//!
//! A ticket's window is `min(window + widen_per_second × seconds waited, max_window)` rating
//! points ([`PairingRules::window_after`]). Two tickets may play only if their ratings differ
//! by at most the smaller of their two windows (each bot accepts the other), they belong to
//! different bots, and the caller's predicate allows it (for example, no immediate rematch).
//! Among the pairings that keep to this, [`pair`] picks, in this order of importance:
//!
//! 1. as many pairs as possible;
//! 2. then the smallest total rating gap (gaps are weighed in thousandths of a point);
//! 3. then the tickets that have waited longest: of pairings that tie on the above, the one
//!    whose paired tickets rank highest by wait (rank 1 for the shortest wait, counted within a
//!    block, see below) wins, so the ticket left out of an odd pool is the one that came last.
//!
//! # How, and what it costs
//!
//! The matching is the blossom algorithm of the `integer-blossom` crate
//! ([`integer_blossom::max_weight_matching`]), on integer weights built so the order above is
//! lexicographic: each allowed pair weighs `PAIR_WEIGHT` (2⁵⁰), minus `GAP_WEIGHT` (4096) per
//! thousandth of a point of gap, plus the wait ranks of its two tickets. One more pair outweighs
//! any gaps and ranks, and one thousandth of a point outweighs any ranks (the constants are
//! checked at compile time). A pair that may not play weighs zero, which the crate reads as no
//! edge.
//!
//! The crate takes a dense `n × n` matrix and runs in `O(n³)` time with a `(2n + 1)²`-edge
//! table per thread, so the whole pool is not given to it at once: 10,000 tickets would be
//! some 10¹² steps and a table of over 6 GB. Nor need it be: a window is at most `max_window` points
//! wide, so tickets far apart in rating can never play, and a dense matrix over them is wasted
//! beyond a window. Instead the tickets are sorted by (rating, id) and cut into blocks of
//! consecutive tickets:
//!
//! - wherever no ticket before a cut may play one after it (every earlier ticket's window ends
//!   below the next rating, or every later ticket's window starts above the previous one): such
//!   a cut loses nothing;
//! - and, in a run where neighbours could still play, after [`BLOCK`] tickets, or one fewer
//!   where that cut would part two neighbours that a linear pass over the sorted tickets pairs
//!   (a dynamic programme pairing neighbours only, for the most pairs and then the smallest
//!   gap). Each block then does at least as well as that pass on its tickets; when every ticket
//!   has the same window and no pair is refused for its bots or by the predicate, that pass is
//!   the optimum, and so is the answer.
//!
//! Each block is matched on its own. The tickets the blocks leave unpaired are blocked the same
//! way and matched in a second pass, so they may pair across the first pass's cuts.
//!
//! The cost: `O(n log n)` for the sort, `O(n)` for the cuts, and `O(BLOCK³)` for each of about
//! `n / BLOCK` blocks, `O(n · BLOCK²)` in all, with a table of `(2·BLOCK + 1)²` edges (under
//! 100 KB) kept per thread by the crate. What the blocks give up is optimality across the cuts
//! made by count: a block whose tickets may all play each other pairs them all, in the
//! alignment its own tickets favour, where the optimum over the whole pool may shift that
//! alignment by one and leave out a ticket in another block; and two leftovers parted by a cut
//! of the second pass wait for the next cycle. The count of pairs was the optimum's in every test
//! (which allow three fewer); the total gap, with windows that differ a lot from ticket to
//! ticket, up to 12% above it.
//!
//! `cargo bench -p pitchmate-leagues --bench pairing`, on this project's 2-core machine, with
//! 10,000 tickets rated ~ normal(1500, 300) that have waited 0 to 120 s under the default
//! rules: a cycle takes (median) 12 ms with blocks of 16, 20 ms with 24, 30 ms with 32, 54 ms
//! with 48 and 84 to 90 ms with 64, for the same 5,000 pairs and the same mean gap (0.245
//! points). 32 keeps a cycle well under the 100 ms budget on a busy machine.
//!
//! # Determinism
//!
//! The result depends on the tickets, not on their order in the slice: tickets are sorted by
//! (rating, id) before blocking and ranked by (wait, id), the predicate is called with the pair
//! in output order, and the crate is deterministic on a given matrix. This holds as long as ids
//! are unique and the predicate is a function of the two tickets; with duplicate ids the result
//! is still valid but may follow the input order.

use std::cmp::Ordering;
use std::ops::Range;
use std::time::Duration;

use integer_blossom::max_weight_matching;

/// A request of one bot to play, waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticket {
    /// Unique among the pool's tickets (the queue's own number for the request).
    pub id: u64,
    /// The bot's id; a bot is never paired with itself.
    pub bot: String,
    /// The bot's rating in the pool. A NaN rating never pairs.
    pub rating: f64,
    /// How long the ticket has waited so far; it widens the ticket's window.
    pub waited: Duration,
}

/// How far apart in rating two tickets may be to play, and how waiting widens it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairingRules {
    /// The window of a ticket that has just arrived, in rating points.
    pub window: f64,
    /// Rating points the window widens by per second waited.
    pub widen_per_second: f64,
    /// The window never grows wider than this.
    pub max_window: f64,
}

impl Default for PairingRules {
    fn default() -> Self {
        PairingRules {
            window: 100.0,
            widen_per_second: 5.0,
            max_window: 600.0,
        }
    }
}

impl PairingRules {
    /// A ticket's window after waiting `waited`: how far from its rating it accepts an opponent.
    pub fn window_after(&self, waited: Duration) -> f64 {
        (self.window + self.widen_per_second * waited.as_secs_f64()).min(self.max_window)
    }

    /// Whether `a` and `b` may play as far as the rules go (the caller's predicate aside): they
    /// are different bots and their rating gap is within both their windows.
    pub fn accepts(&self, a: &Ticket, b: &Ticket) -> bool {
        a.bot != b.bot
            && within(
                (a.rating - b.rating).abs(),
                self.window_after(a.waited),
                self.window_after(b.waited),
            )
    }
}

/// The most tickets matched at once by the blossom algorithm (see the module doc). Even, so a
/// full block of tickets that may all play each other pairs them all; a block is one shorter
/// only where the cut after `BLOCK` would part two neighbours the linear pass pairs.
pub const BLOCK: usize = 32;

/// Rating gaps are weighed in thousandths of a point: smaller differences count as ties.
const GAP_UNITS_PER_POINT: f64 = 1000.0;
/// A larger gap (over two million points, for rules with an enormous `max_window`) weighs as
/// this one, to keep the weights within `i64`.
const MAX_GAP_UNITS: i64 = 1 << 31;
/// The weight of one thousandth of a point of gap: more than all wait ranks of a block together
/// (`1 + 2 + … + BLOCK`), so a smaller total gap always beats a better choice by wait.
const GAP_WEIGHT: i64 = 1 << 12;
/// The weight of one pair: more than any gaps and ranks of a block's pairs together, so one
/// more pair always beats a smaller total gap. Far below the crate's `i64` bound (`MAX / 4`,
/// with weights doubled inside).
const PAIR_WEIGHT: i64 = 1 << 50;

const _: () = assert!(BLOCK.is_multiple_of(2));
const _: () = assert!(GAP_WEIGHT > (BLOCK * (BLOCK + 1) / 2) as i64);
// A block's matching has at most BLOCK / 2 pairs, each of weight between
// PAIR_WEIGHT - GAP_WEIGHT·MAX_GAP_UNITS + 2 and PAIR_WEIGHT + 2·BLOCK; k + 1 pairs must
// outweigh k for every k < BLOCK / 2.
const _: () =
    assert!(PAIR_WEIGHT > (BLOCK as i64 / 2) * (GAP_WEIGHT * MAX_GAP_UNITS + 2 * BLOCK as i64));
const _: () = assert!(PAIR_WEIGHT < i64::MAX / 64);

/// The pairs to make now among `tickets`, by the [rules](self#rules) above.
///
/// Each pair is two indices into `tickets`, the first the ticket that has waited longer (on a
/// tie, the lower id); no ticket appears twice. Pairs come in the order of their first ticket:
/// longest wait first, then lowest id.
///
/// `allowed(first, second)` is asked, with the two tickets in that same order, about pairs the
/// windows and bots accept (neighbours in rating order, and pairs within one block; some more
/// than once): it should be a cheap, pure function of the two tickets, and symmetric, since it
/// is asked one way only.
pub fn pair(
    tickets: &[Ticket],
    rules: &PairingRules,
    allowed: impl Fn(&Ticket, &Ticket) -> bool,
) -> Vec<(usize, usize)> {
    let mut sorted: Vec<usize> = (0..tickets.len()).collect();
    sorted.sort_unstable_by(|&a, &b| {
        let (ta, tb) = (&tickets[a], &tickets[b]);
        ta.rating
            .total_cmp(&tb.rating)
            .then(ta.id.cmp(&tb.id))
            .then(a.cmp(&b))
    });
    let mut matcher = Matcher {
        tickets,
        windows: tickets
            .iter()
            .map(|t| rules.window_after(t.waited))
            .collect(),
        allowed,
        weights: Vec::new(),
        pairs: Vec::with_capacity(tickets.len() / 2),
    };
    let unpaired = matcher.pass(&sorted);
    matcher.pass(&unpaired);
    let mut pairs = matcher.pairs;
    pairs.sort_unstable_by(|a, b| precedence(tickets, a.0, b.0));
    pairs
}

/// Whether a gap is within both windows (false for a NaN gap).
fn within(gap: f64, a: f64, b: f64) -> bool {
    gap <= a.min(b)
}

/// Which of two tickets comes first: the longer wait, then the lower id (then, only for
/// duplicate ids, the lower index).
fn precedence(tickets: &[Ticket], a: usize, b: usize) -> Ordering {
    tickets[b]
        .waited
        .cmp(&tickets[a].waited)
        .then(tickets[a].id.cmp(&tickets[b].id))
        .then(a.cmp(&b))
}

/// One pairing cycle's state.
struct Matcher<'t, F> {
    tickets: &'t [Ticket],
    /// Each ticket's window, by index.
    windows: Vec<f64>,
    allowed: F,
    /// A block's weight matrix, kept between blocks.
    weights: Vec<i64>,
    /// The pairs made so far, ordered within each.
    pairs: Vec<(usize, usize)>,
}

impl<F: Fn(&Ticket, &Ticket) -> bool> Matcher<'_, F> {
    /// Matches `sorted` (indices sorted by rating, then id) block by block; returns the tickets
    /// left unpaired, still sorted.
    fn pass(&mut self, sorted: &[usize]) -> Vec<usize> {
        let mut paired = vec![false; sorted.len()];
        for block in self.blocks(sorted) {
            for (a, b) in self.match_block(&sorted[block.clone()]) {
                paired[block.start + a] = true;
                paired[block.start + b] = true;
            }
        }
        sorted
            .iter()
            .zip(paired)
            .filter(|(_, paired)| !paired)
            .map(|(&index, _)| index)
            .collect()
    }

    /// Cuts `sorted` into consecutive blocks of at most [`BLOCK`] tickets: where no ticket
    /// before a cut may play one after it, and else after [`BLOCK`] tickets, or one fewer where
    /// that cut would part two neighbours [`Matcher::neighbours`] pairs.
    fn blocks(&self, sorted: &[usize]) -> Vec<Range<usize>> {
        let rating = |p: usize| self.tickets[sorted[p]].rating;
        let window = |p: usize| self.windows[sorted[p]];
        let n = sorted.len();
        // lowest[p]: the lowest rating any ticket from p on accepts (`min` skips NaN).
        let mut lowest = vec![f64::INFINITY; n + 1];
        for p in (0..n).rev() {
            lowest[p] = lowest[p + 1].min(rating(p) - window(p));
        }
        let joined = self.neighbours(sorted);
        let mut blocks = Vec::with_capacity(n / (BLOCK - 1) + 1);
        let mut start = 0;
        // The highest rating any ticket before p accepts.
        let mut highest = f64::NEG_INFINITY;
        for p in 1..n {
            highest = highest.max(rating(p - 1) + window(p - 1));
            // Sound because the ratings are sorted: every ticket before p is rated at most
            // rating(p - 1) and every one from p on at least rating(p) (NaNs, which sort at
            // the ends, never pair).
            let apart = highest < rating(p) || rating(p - 1) < lowest[p];
            let full = p - start == BLOCK || (p - start == BLOCK - 1 && joined[p + 1]);
            if apart || full {
                // At BLOCK, p - 1 and p are not joined, or the cut would have come at p - 1.
                debug_assert!(apart || !joined[p]);
                blocks.push(start..p);
                start = p;
            }
        }
        if start < n {
            blocks.push(start..n);
        }
        blocks
    }

    /// Which neighbours of `sorted` a pass that pairs only neighbours pairs, for the most pairs
    /// and then the smallest total gap (a linear dynamic programme): `joined[p]` for p - 1 and
    /// p (`joined[n]` is false). Only the cuts are placed by it; keeping its pairs whole in a
    /// block means each block's matching is at least as good as its pairs there.
    fn neighbours(&self, sorted: &[usize]) -> Vec<bool> {
        let n = sorted.len();
        // best[k]: (pairs, total gap) among the first k; took[k]: with k - 2 and k - 1 paired.
        let mut best = vec![(0usize, 0.0f64); n + 1];
        let mut took = vec![false; n + 1];
        for k in 2..=n {
            best[k] = best[k - 1];
            if let Some(gap) = self.gap_if_allowed(sorted[k - 2], sorted[k - 1]) {
                let (pairs, total) = best[k - 2];
                let with = (pairs + 1, total + gap);
                if with.0 > best[k].0 || (with.0 == best[k].0 && with.1 < best[k].1) {
                    best[k] = with;
                    took[k] = true;
                }
            }
        }
        let mut joined = vec![false; n + 1];
        let mut k = n;
        while k >= 2 {
            if took[k] {
                joined[k - 1] = true;
                k -= 2;
            } else {
                k -= 1;
            }
        }
        joined
    }

    /// The rating gap of tickets `i` and `j` if they may play: within both windows, different
    /// bots, allowed by the caller (asked in output order).
    fn gap_if_allowed(&self, i: usize, j: usize) -> Option<f64> {
        let (a, b) = (&self.tickets[i], &self.tickets[j]);
        let gap = (a.rating - b.rating).abs();
        if !within(gap, self.windows[i], self.windows[j]) || a.bot == b.bot {
            return None;
        }
        let (first, second) = match precedence(self.tickets, i, j) {
            Ordering::Greater => (b, a),
            _ => (a, b),
        };
        (self.allowed)(first, second).then_some(gap)
    }

    /// The best matching of one block (indices sorted by rating), as pairs of positions in it.
    fn match_block(&mut self, block: &[usize]) -> Vec<(usize, usize)> {
        let n = block.len();
        if n < 2 {
            return Vec::new();
        }
        let tickets = self.tickets;
        // Wait ranks: 1 for the ticket that comes last by precedence, n for the first.
        let mut by_wait: Vec<usize> = (0..n).collect();
        by_wait.sort_unstable_by(|&a, &b| precedence(tickets, block[b], block[a]));
        let mut rank = vec![0; n];
        for (r, &p) in by_wait.iter().enumerate() {
            rank[p] = r as i64 + 1;
        }

        self.weights.clear();
        self.weights.resize(n * n, 0);
        let mut edges = 0;
        for a in 0..n {
            let (rating, window) = (tickets[block[a]].rating, self.windows[block[a]]);
            for b in a + 1..n {
                if tickets[block[b]].rating - rating > window {
                    // Sorted by rating: every later ticket is further still.
                    break;
                }
                let Some(gap) = self.gap_if_allowed(block[a], block[b]) else {
                    continue;
                };
                // `as` saturates; the gap is neither NaN nor negative here.
                let units = ((gap * GAP_UNITS_PER_POINT).round() as i64).min(MAX_GAP_UNITS);
                self.weights[a * n + b] = PAIR_WEIGHT - GAP_WEIGHT * units + rank[a] + rank[b];
                edges += 1;
            }
        }
        if edges == 0 {
            return Vec::new();
        }
        let mates = max_weight_matching(&self.weights, n);
        let mut pairs = Vec::with_capacity(n / 2);
        for (a, mate) in mates.into_iter().enumerate() {
            if let Some(b) = mate.filter(|&b| a < b) {
                let (i, j) = (block[a], block[b]);
                self.pairs.push(match precedence(tickets, i, j) {
                    Ordering::Greater => (j, i),
                    _ => (i, j),
                });
                pairs.push((a, b));
            }
        }
        pairs
    }
}

#[cfg(test)]
#[path = "pairing_tests.rs"]
mod tests;
