//! Round-robin tables (to be written: see the session's spec).

use crate::Entrant;

/// The rounds a round robin of `entrants` bots takes: `n - 1` for an even field, `n` for an
/// odd one (each bot sits out once), doubled for a double round robin.
pub fn rounds(entrants: usize, double: bool) -> u32 {
    todo!("{entrants} {double}")
}

/// The entrants in Berger-number order (number 1 first), fixed by the seed.
pub fn order(entrants: &[Entrant], seed: u64) -> Vec<String> {
    todo!("{entrants:?} {seed}")
}

/// Round `number` (from 1) of the table over `order`: the pairs, first seat first, and the bot
/// that sits out, if the field is odd.
pub fn round(order: &[String], number: u32, double: bool) -> (Vec<(String, String)>, Option<String>) {
    todo!("{order:?} {number} {double}")
}
