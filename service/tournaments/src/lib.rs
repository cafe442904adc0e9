//! Tournament rules as pure functions of their input: no I/O, no clock, no randomness beyond
//! an event's seed. The leagues crate runs events on the store with them; an event's export is
//! re-paired with them to verify it.
//!
//! - [`berger`]: round-robin tables, single and double.
//! - [`swiss`]: a Swiss round's pairing, with why each pair was made.
//! - [`ladder`]: an always-on ladder's pairing of its idle bots.
//! - [`standings`]: points and tie-breaks.
//! - [`record`]: an event's record, exported and re-paired.
//!
//! Points are counted in half-points throughout: a win is [`WIN`], a draw [`DRAW`], a loss 0.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub mod berger;
pub mod ladder;
pub mod record;
pub mod standings;
pub mod swiss;

/// A win, in half-points.
pub const WIN: u32 = 2;
/// A draw, in half-points.
pub const DRAW: u32 = 1;

/// How a game ended, seen from its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The first seat won (also when the second never came).
    FirstWon,
    SecondWon,
    Draw,
    /// Neither bot came: both lose.
    NeitherCame,
}

impl Outcome {
    /// What the first seat (`0`) or the second (`1`) scored, in half-points.
    pub fn points(self, seat: usize) -> u32 {
        match (self, seat) {
            (Self::FirstWon, 0) | (Self::SecondWon, 1) => WIN,
            (Self::Draw, _) => DRAW,
            _ => 0,
        }
    }
}

/// A bot entered in an event, with the rating it entered with (fixed for the event, so pairing
/// never depends on games played elsewhere).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entrant {
    pub id: String,
    pub rating: i32,
}

/// One game of a round: who sat first, who second, and how it ended (`None` while unknown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub first: String,
    pub second: String,
    pub outcome: Option<Outcome>,
}

/// A round as played: its games and the bot that had the bye, if any. With paired games, each
/// pairing is two games, one in each seat order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// From 1.
    pub number: u32,
    pub games: Vec<Game>,
    pub bye: Option<String>,
}

/// The order among equals that an event's seed fixes: SHA-256 of the seed (8 bytes, big-endian)
/// followed by the id's UTF-8 bytes. Any language can compute it, so an export can be checked
/// without this crate.
pub fn seeded_key(seed: u64, id: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(seed.to_be_bytes());
    hasher.update(id.as_bytes());
    hasher.finalize().into()
}
