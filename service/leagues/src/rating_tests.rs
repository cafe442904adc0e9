//! The rating rules: the crate against Glickman's paper, one game's effect, ageing, the
//! provisional threshold, and a recompute bit-identical to rating game by game.

use std::collections::HashMap;

use skillratings::glicko2::glicko2_rating_period;

use super::*;

const DAY: i64 = 86_400 * 1_000_000_000;

fn rated(rating: f64, deviation: f64, volatility: f64, last_rated_at: Option<i64>) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
        games: 10,
        last_rated_at,
    }
}

fn g2(rating: f64, deviation: f64) -> Glicko2Rating {
    Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

#[test]
fn crate_and_config_reproduce_glickmans_worked_example() {
    let config = RatingConfig::default();
    let results = [
        (g2(1400.0, 30.0), Outcomes::WIN),
        (g2(1550.0, 100.0), Outcomes::LOSS),
        (g2(1700.0, 300.0), Outcomes::LOSS),
    ];
    let new = glicko2_rating_period(&g2(1500.0, 200.0), &results, &config.glicko2());
    // The paper rounds μ' to four decimals (−0.2069), which moves r' by up to
    // 173.7178 × 0.00005 ≈ 0.009: exact arithmetic gives 1464.0507, the paper 1464.06.
    assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
    assert!((new.deviation - 151.52).abs() < 0.005, "{new:?}");
    assert!((new.volatility - 0.05999).abs() < 0.000_01, "{new:?}");
}

#[test]
fn a_game_moves_winner_up_loser_down_and_both_become_surer() {
    let config = RatingConfig::default();
    let first = rated(1600.0, 120.0, 0.06, Some(0));
    let second = rated(1550.0, 200.0, 0.059, None);
    let (lost, won) = rate_game(&first, &second, Outcome::SecondWon, DAY, &config);
    assert!(lost.rating < first.rating && won.rating > second.rating);
    // The first seat had aged a day before the game; it still ends surer than it started.
    assert!(lost.deviation < first.deviation && won.deviation < second.deviation);
    assert_eq!((lost.games, won.games), (11, 11));
    assert_eq!(
        (lost.last_rated_at, won.last_rated_at),
        (Some(DAY), Some(DAY))
    );

    // A game reported late (finished before the last one) does not wind the clock back, which
    // would count the idle stretch after it twice.
    let (late, _) = rate_game(&lost, &won, Outcome::Draw, DAY / 2, &config);
    assert_eq!(late.last_rated_at, Some(DAY));

    // The same game through the crate directly, on the aged inputs.
    let (a, b) = glicko2(
        &first.aged(DAY, &config).to_glicko2(),
        &second.to_glicko2(),
        &Outcomes::LOSS,
        &config.glicko2(),
    );
    assert_eq!(
        (lost.rating, lost.deviation, lost.volatility),
        (a.rating, a.deviation, a.volatility)
    );
    assert_eq!(
        (won.rating, won.deviation, won.volatility),
        (b.rating, b.deviation, b.volatility)
    );

    // Two newcomers, as pinned in the crate's own documentation.
    let fresh = Rating::initial(&config);
    let (w, l) = rate_game(&fresh, &fresh, Outcome::FirstWon, 0, &config);
    assert_eq!((w.rating.round(), w.deviation.round()), (1662.0, 290.0));
    assert_eq!((l.rating.round(), l.deviation.round()), (1338.0, 290.0));
    assert!((w.volatility - 0.059_999_675_372_338_14).abs() < 1e-15);
}

#[test]
fn a_draw_between_equals_keeps_them_equal() {
    let config = RatingConfig::default();
    let bot = rated(1720.0, 80.0, 0.06, Some(0));
    let (a, b) = rate_game(&bot, &bot, Outcome::Draw, 3 * DAY, &config);
    assert_eq!(a, b);
    assert_eq!(a.rating, bot.rating);
}

#[test]
fn deviation_is_clamped_to_the_floor_after_a_game() {
    let config = RatingConfig::default();
    let bot = rated(1500.0, 45.0, 0.01, Some(0));
    let unclamped = glicko2(
        &bot.to_glicko2(),
        &bot.to_glicko2(),
        &Outcomes::WIN,
        &config.glicko2(),
    );
    assert!(unclamped.0.deviation < 45.0);
    let (a, _) = rate_game(&bot, &bot, Outcome::FirstWon, 0, &config);
    assert_eq!(a.deviation, 45.0);
}

#[test]
fn ageing_grows_deviation_by_fractional_periods_up_to_the_ceiling() {
    let config = RatingConfig::default();
    let bot = rated(1800.0, 60.0, 0.06, Some(5 * DAY));

    let year = bot.aged(5 * DAY + 365 * DAY, &config);
    let periods = 365.0 * 0.21436;
    let expected = ((60.0 / 173.7178_f64).powi(2) + periods * 0.06 * 0.06).sqrt() * 173.7178;
    assert!(
        (year.deviation - expected).abs() < 1e-9,
        "{year:?} vs {expected}"
    );
    assert_eq!(
        (year.rating, year.volatility, year.games),
        (1800.0, 0.06, 10)
    );
    assert_eq!(year.last_rated_at, bot.last_rated_at);

    // Half a day is a fraction of a period, not none.
    assert!(bot.aged(5 * DAY + DAY / 2, &config).deviation > 60.0);

    assert_eq!(bot.aged(5 * DAY + 20 * 365 * DAY, &config).deviation, 350.0);
    assert_eq!(bot.aged(5 * DAY, &config), bot);
    assert_eq!(bot.aged(0, &config), bot);
    assert_eq!(
        rated(1800.0, 60.0, 0.06, None)
            .aged(i64::MAX, &config)
            .deviation,
        60.0
    );
}

#[test]
fn an_idle_bot_becomes_provisional_again() {
    let config = RatingConfig::default();
    let (mut a, mut b) = (Rating::initial(&config), Rating::initial(&config));
    for day in 0..40 {
        let outcome = [Outcome::FirstWon, Outcome::SecondWon, Outcome::Draw][day % 3];
        (a, b) = rate_game(&a, &b, outcome, day as i64 * DAY, &config);
    }
    assert!(!a.is_provisional(&config), "{a:?}");
    let last = a.last_rated_at.unwrap();
    assert!(!a.aged(last + 30 * DAY, &config).is_provisional(&config));
    assert!(
        a.aged(last + 3 * 365 * DAY, &config)
            .is_provisional(&config)
    );
}

#[test]
fn provisional_means_deviation_strictly_above_the_threshold() {
    let config = RatingConfig::default();
    assert!(!rated(1500.0, 110.0, 0.06, None).is_provisional(&config));
    assert!(rated(1500.0, 110.0_f64.next_up(), 0.06, None).is_provisional(&config));
    assert!(Rating::initial(&config).is_provisional(&config));
}

#[test]
fn recompute_is_bit_identical_to_rating_game_by_game() {
    let config = RatingConfig::default();
    let mut seed: u64 = 0x5eed;
    let mut next = |below: u64| {
        // Knuth's MMIX LCG; the high bits are the good ones.
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % below
    };
    let mut at = 1_700_000_000 * 1_000_000_000_i64;
    let mut games = Vec::new();
    while games.len() < 400 {
        let (first, second) = (next(9), next(9));
        if first == second {
            continue;
        }
        // Mostly minutes apart, sometimes weeks, sometimes the same instant.
        at += match next(10) {
            0 => 0,
            1 => next(30) as i64 * DAY,
            _ => next(3_600) as i64 * 1_000_000_000,
        };
        let outcome = [Outcome::FirstWon, Outcome::SecondWon, Outcome::Draw][next(3) as usize];
        games.push(RatedGame {
            first: format!("bot-{first}"),
            second: format!("bot-{second}"),
            outcome,
            at,
        });
    }

    let mut live: HashMap<String, Rating> = HashMap::new();
    for game in &games {
        let first = live
            .get(&game.first)
            .copied()
            .unwrap_or(Rating::initial(&config));
        let second = live
            .get(&game.second)
            .copied()
            .unwrap_or(Rating::initial(&config));
        let (first, second) = rate_game(&first, &second, game.outcome, game.at, &config);
        live.insert(game.first.clone(), first);
        live.insert(game.second.clone(), second);
    }

    let replayed = recompute(games.clone(), &config);
    assert_eq!(replayed.len(), live.len());
    for (bot, rating) in &replayed {
        // `==` on every f64: bit-identical, not merely close.
        assert_eq!(rating, &live[bot], "{bot}");
    }
    assert_eq!(replayed.values().map(|r| r.games).sum::<u32>(), 800);
    // A different order is a different history: the order given is the one applied.
    let mut reversed = games;
    reversed.reverse();
    assert_ne!(recompute(reversed, &config), replayed);
}
