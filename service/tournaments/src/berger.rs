//! Round-robin tables: who meets whom in each round of a round robin, and who sits first.
//!
//! # Rules
//!
//! In a round robin every bot meets every other bot once; in a double round robin twice, once
//! in each seat.
//!
//! **Numbers.** Before the first round each bot gets a Berger number, 1 to `n`, from the
//! event's seed ([`order`]): the bots sorted by [`seeded_key`] of the seed and their id, the
//! smallest key number 1. Anyone can recompute them from the seed and the ids.
//!
//! **Rounds.** An even field of `n` bots plays `n - 1` rounds. An odd field adds a phantom
//! number `n + 1` and plays `n` rounds; the bot drawn against the phantom sits out that round,
//! so each bot sits out exactly once. A double round robin plays the whole cycle twice.
//! Fewer than two bots play no rounds.
//!
//! **Tables.** The pairs are FIDE's Berger tables (FIDE Handbook C.05, Annex 1), which follow
//! this rule for an even field of `n` (counting the phantom), with `m = n - 1`:
//!
//! - in round `r`, number `n` plays number `p = ((r - 1) · n/2 mod m) + 1` on board 1, in the
//!   second seat in odd rounds and in the first seat in even ones;
//! - on board `k` (2 to `n/2`), number `p + (k - 1)` sits first against `p - (k - 1)`, both
//!   counted around 1 to `m` (after `m` comes 1, before 1 comes `m`).
//!
//! For six bots this gives round 1: 1-6 2-5 3-4; round 2: 6-4 5-3 1-2; round 3: 2-6 3-1 4-5;
//! round 4: 6-5 1-4 2-3; round 5: 3-6 4-2 5-1 (first seat first). Within one cycle a bot's
//! first seats and second seats differ by at most one, and any two bots' first seats by at
//! most one.
//!
//! **The second cycle** of a double round robin repeats the first round by round with the
//! seats swapped: round `rounds/2 + r` is round `r` reversed. FIDE recommends also swapping the
//! order of the first cycle's last two rounds, so no bot takes the same seat three times in a
//! row where the cycles meet; these tables don't.
//!
//! Pairs are listed by board, board 1 first; the board of the bot that sits out is not listed.

use crate::{Entrant, seeded_key};

/// The rounds a round robin of `entrants` bots takes: `n - 1` for an even field, `n` for an
/// odd one (each bot sits out once), doubled for a double round robin; none for fewer than two
/// bots.
pub fn rounds(entrants: usize, double: bool) -> u32 {
    if entrants < 2 {
        return 0;
    }
    let cycle = if entrants.is_multiple_of(2) {
        entrants - 1
    } else {
        entrants
    };
    let cycles = if double { 2 } else { 1 };
    u32::try_from(cycle * cycles).unwrap_or(u32::MAX)
}

/// The entrants in Berger-number order (number 1 first), fixed by the seed: sorted by
/// [`seeded_key`]`(seed, id)`, then by id (only duplicate ids could tie).
pub fn order(entrants: &[Entrant], seed: u64) -> Vec<String> {
    let mut keyed: Vec<([u8; 32], &str)> = entrants
        .iter()
        .map(|e| (seeded_key(seed, &e.id), e.id.as_str()))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, id)| id.to_owned()).collect()
}

/// Round `number` (from 1) of the table over `order` (the bots by Berger number, number 1
/// first): the pairs, first seat first, board by board, and the bot that sits out, if the field
/// is odd.
///
/// A `number` outside `1..=rounds(order.len(), double)` has no games: the answer is empty and
/// no one sits out. It does not panic, so a record that claims a round the table lacks is
/// refused by comparison rather than by a crash.
pub fn round(
    order: &[String],
    number: u32,
    double: bool,
) -> (Vec<(String, String)>, Option<String>) {
    let total = rounds(order.len(), double);
    if number == 0 || number > total {
        return (Vec::new(), None);
    }
    let cycle = if double { total / 2 } else { total };
    let (in_cycle, swapped) = if number > cycle {
        (number - cycle, true)
    } else {
        (number, false)
    };
    let mut pairs = Vec::with_capacity(order.len() / 2);
    let mut sits_out = None;
    for (first, second) in table_round(order.len(), in_cycle as usize) {
        // Numbers are from 1; the phantom is the one past the field.
        match (order.get(first - 1), order.get(second - 1)) {
            (Some(first), Some(second)) => pairs.push(if swapped {
                (second.clone(), first.clone())
            } else {
                (first.clone(), second.clone())
            }),
            (Some(alone), None) | (None, Some(alone)) => sits_out = Some(alone.clone()),
            (None, None) => unreachable!("a board has at most one phantom"),
        }
    }
    (pairs, sits_out)
}

/// The Berger table's round `r` (from 1, at most `m`) for `entrants` bots, as pairs of Berger
/// numbers (from 1), first seat first, board 1 first; an odd field's phantom is `entrants + 1`.
fn table_round(entrants: usize, r: usize) -> Vec<(usize, usize)> {
    let n = entrants + entrants % 2;
    let m = n - 1;
    // Around 1..=m: `around(x)` for any x in 0..2m maps to 1..=m.
    let around = |x: usize| (x + m - 1) % m + 1;
    let p = (r - 1) * (n / 2) % m + 1;
    let mut boards = Vec::with_capacity(n / 2);
    boards.push(if r % 2 == 1 { (p, n) } else { (n, p) });
    for k in 2..=n / 2 {
        boards.push((around(p + k - 1), around(p + m - (k - 1))));
    }
    boards
}

#[cfg(test)]
#[path = "berger_tests.rs"]
mod tests;
