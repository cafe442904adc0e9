//! Glicko-2 ratings for the leagues, as pure arithmetic: no store, no clock, no I/O.
//!
//! Each finished game is rated on its own, the moment it is known, as lichess does, rather than
//! in batched rating periods: a bot's rating moves after every game and no one waits for a
//! period to close. The deviation also grows with idle time (lichess' fractional rating periods
//! per day), so a bot that stops playing becomes provisional again and drops off leaderboards
//! until it has played enough to be trusted; a reader should therefore show
//! `rating.aged(now, config)`, not the stored value.
//!
//! Ratings are derived data: [`recompute`] replays stored results and must give bit-identical
//! values to the live follower. That holds only because both go through [`rate_game`], one game
//! at a time, in feed order, starting every bot from [`Rating::initial`]; nothing here reads a
//! clock or iterates a hash map, so the same inputs give the same floats.

use std::collections::BTreeMap;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// Glickman's factor between the Glicko scale (1500/350) and the Glicko-2 scale (0/2.01).
const SCALE: f64 = 173.7178;
const NANOS_PER_DAY: f64 = 86_400.0 * 1e9;

/// How ratings start, move and age. Changing it changes every rating, so a change calls for a
/// [`recompute`].
#[derive(Clone, Debug, PartialEq)]
pub struct RatingConfig {
    pub initial_rating: f64,
    pub initial_deviation: f64,
    pub initial_volatility: f64,
    /// Constrains how fast volatility changes; Glickman suggests 0.3 to 1.2.
    pub tau: f64,
    /// Of the volatility's iteration.
    pub convergence_tolerance: f64,
    /// Without a floor, a bot with thousands of games would hardly move after a change of form.
    pub deviation_floor: f64,
    /// A rating never becomes less certain than a newcomer's.
    pub deviation_ceiling: f64,
    /// A rating whose deviation is above this is provisional (kept off leaderboards).
    pub provisional_above: f64,
    /// How many Glicko-2 rating periods one idle day counts as (lichess' value).
    pub periods_per_day: f64,
}

impl Default for RatingConfig {
    fn default() -> Self {
        let crate_default = Glicko2Config::new();
        Self {
            initial_rating: 1500.0,
            initial_deviation: 350.0,
            initial_volatility: 0.06,
            tau: crate_default.tau,
            convergence_tolerance: crate_default.convergence_tolerance,
            deviation_floor: 45.0,
            deviation_ceiling: 350.0,
            provisional_above: 110.0,
            periods_per_day: 0.21436,
        }
    }
}

impl RatingConfig {
    fn glicko2(&self) -> Glicko2Config {
        Glicko2Config {
            tau: self.tau,
            convergence_tolerance: self.convergence_tolerance,
        }
    }

    // `max`/`min` rather than `clamp`, which would panic on a config with floor > ceiling.
    fn clamp_deviation(&self, deviation: f64) -> f64 {
        deviation
            .max(self.deviation_floor)
            .min(self.deviation_ceiling)
    }
}

/// A bot's rating in one pool, as of its last rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    /// Nanoseconds since the Unix epoch; `None` until the first game, so a newcomer never ages.
    pub last_rated_at: Option<i64>,
}

impl Rating {
    pub fn initial(config: &RatingConfig) -> Rating {
        Rating {
            rating: config.initial_rating,
            deviation: config.initial_deviation,
            volatility: config.initial_volatility,
            games: 0,
            last_rated_at: None,
        }
    }

    pub fn is_provisional(&self, config: &RatingConfig) -> bool {
        self.deviation > config.provisional_above
    }

    /// This rating as of `at`: the deviation grown by the idle time since the last game,
    /// φ' = √(φ² + t·σ²) on the Glicko-2 scale with t in (fractional) rating periods. The crate's
    /// `decay_deviation` only knows whole periods, which would make a bot idle for four days
    /// exactly as certain as one idle for an hour.
    pub fn aged(&self, at: i64, config: &RatingConfig) -> Rating {
        let Some(last) = self.last_rated_at else {
            return *self;
        };
        // A game reported out of order must not make a rating more certain; and returning
        // early keeps zero elapsed time bit-exact (the scale round trip is not).
        let elapsed = at.saturating_sub(last);
        if elapsed <= 0 {
            return *self;
        }
        let periods = elapsed as f64 / NANOS_PER_DAY * config.periods_per_day;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(config.deviation_ceiling).max(self.deviation),
            ..*self
        }
    }

    fn to_glicko2(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after_game(self, new: Glicko2Rating, at: i64, config: &RatingConfig) -> Rating {
        Rating {
            rating: new.rating,
            deviation: config.clamp_deviation(new.deviation),
            volatility: new.volatility,
            games: self.games.saturating_add(1),
            // `max` so a game reported out of order does not count an idle stretch twice.
            last_rated_at: Some(self.last_rated_at.map_or(at, |last| last.max(at))),
        }
    }
}

/// How a game ended, seen from its first seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    FirstWon,
    SecondWon,
    Draw,
}

impl Outcome {
    fn for_first(self) -> Outcomes {
        match self {
            Outcome::FirstWon => Outcomes::WIN,
            Outcome::SecondWon => Outcomes::LOSS,
            Outcome::Draw => Outcomes::DRAW,
        }
    }
}

/// Rates one game finished at `at` (nanoseconds): both ratings are aged to `at`, then updated
/// once, each against the other's rating from before the game. The only way a rating changes,
/// live or in a [`recompute`].
pub fn rate_game(
    first: &Rating,
    second: &Rating,
    outcome: Outcome,
    at: i64,
    config: &RatingConfig,
) -> (Rating, Rating) {
    let (first, second) = (first.aged(at, config), second.aged(at, config));
    let (new_first, new_second) = glicko2(
        &first.to_glicko2(),
        &second.to_glicko2(),
        &outcome.for_first(),
        &config.glicko2(),
    );
    (
        first.after_game(new_first, at, config),
        second.after_game(new_second, at, config),
    )
}

/// One stored rated result, as [`recompute`] replays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    pub first: String,
    pub second: String,
    pub outcome: Outcome,
    /// Nanoseconds since the Unix epoch.
    pub at: i64,
}

/// Every bot's rating in one pool after `games`, applied in the order given (the feed order the
/// live follower rated them in), each bot starting from [`Rating::initial`].
pub fn recompute(
    games: impl IntoIterator<Item = RatedGame>,
    config: &RatingConfig,
) -> BTreeMap<String, Rating> {
    let mut ratings = BTreeMap::new();
    for game in games {
        let current = |bot: &str| {
            ratings
                .get(bot)
                .copied()
                .unwrap_or_else(|| Rating::initial(config))
        };
        let (first, second) = rate_game(
            &current(&game.first),
            &current(&game.second),
            game.outcome,
            game.at,
            config,
        );
        ratings.insert(game.first, first);
        ratings.insert(game.second, second);
    }
    ratings
}

#[cfg(test)]
#[path = "rating_tests.rs"]
mod tests;
