//! In-process matches between two players, and the tally the benchmark prints.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use pitchmate_rules::{Game, OptionValue, Rng, Seat, Seed, start};

use crate::player::Player;

/// How one match went for the player under test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchRecord {
    /// 1 a win, 0.5 a draw, 0 a loss; a match cut at the action cap counts as a draw.
    pub points: f64,
    /// Whether the match reached its end before the action cap.
    pub finished: bool,
    /// The player under test's own actions, time thinking and search iterations.
    pub moves: u64,
    pub thinking: Duration,
    pub iterations: u64,
}

/// Plays one match from `seed` with `options`: `tested` in seat `tested_seat`, `opponent` in
/// the other. Where both seats are to act (simultaneous orders) a seat is drawn with `rng`.
pub fn play_match<G: Game>(
    options: &BTreeMap<String, OptionValue>,
    seed: Seed,
    tested: &mut dyn Player<G>,
    opponent: &mut dyn Player<G>,
    tested_seat: Seat,
    max_actions: usize,
    rng: &mut Rng,
) -> Result<MatchRecord, String> {
    let mut game: G = start(options, seed, None).map_err(|e| e.to_string())?;
    let mut record = MatchRecord {
        points: 0.5,
        finished: false,
        moves: 0,
        thinking: Duration::ZERO,
        iterations: 0,
    };
    for _ in 0..max_actions {
        if game.outcome().is_some() {
            break;
        }
        let to_act = game.turn().to_act;
        let seat = *rng.pick(&to_act);
        let action = if seat == tested_seat {
            let began = Instant::now();
            let action = tested.choose(&game, seat);
            record.thinking += began.elapsed();
            record.moves += 1;
            record.iterations += tested.last_iterations();
            action
        } else {
            opponent.choose(&game, seat)
        };
        game.apply(seat, &action)
            .map_err(|e| format!("a player chose an action the rules refuse: {e}"))?;
    }
    if let Some(outcome) = game.outcome() {
        record.finished = true;
        record.points = match outcome.winner {
            Some(winner) if winner == tested_seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    Ok(record)
}

/// Matches of one pairing, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub unfinished: u32,
    pub moves: u64,
    pub thinking: Duration,
    pub iterations: u64,
}

impl Tally {
    pub fn add(&mut self, record: &MatchRecord) {
        match record.points {
            p if p >= 1.0 => self.wins += 1,
            p if p <= 0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.unfinished += u32::from(!record.finished);
        self.moves += record.moves;
        self.thinking += record.thinking;
        self.iterations += record.iterations;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: a win 1, a draw 0.5.
    pub fn points(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Wilson score interval at 95 % around [`Tally::points`], a draw counting as half a
    /// success.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.points(), f64::from(self.games()))
    }
}

/// The Wilson score interval at 95 % (z = 1.96) for a share `p` of `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z: f64 = 1.96;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_values() {
        // 20 of 20: the interval is [0.839, 1]; 10 of 20: [0.299, 0.701].
        let (low, high) = wilson(1.0, 20.0);
        assert!((low - 0.8389).abs() < 1e-3 && high == 1.0, "{low} {high}");
        let (low, high) = wilson(0.5, 20.0);
        assert!((low - 0.2993).abs() < 1e-3 && (high - 0.7007).abs() < 1e-3);
    }
}
