//! Rated results, as the store keeps them: what the follower writes when a rated match ends
//! (both bots' new ratings and the changes that made them, in the step that learns of the end),
//! leaderboards, rating histories, and the recomputation that checks the live ratings against
//! the stored results.
//!
//! Only a match a league assigned with a pool is rated (a rated challenge or queue match); the
//! league creates it without a seed, so no client ever chose a rated match's chance. An aborted
//! match, or a casual one, moves no rating. Ratings are stored as the bits of their floats, so a
//! rating read back is the rating computed, and recomputing from the changes gives bit-identical
//! values.

use std::collections::{BTreeMap, HashMap};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use pitchmate_hosting::lifecycle::Ending;
use pitchmate_store::{AssignedMatchRow, RatingChangeRow, RatingRow, Store};

use crate::error::LeagueError;
use crate::nanos;
use crate::rating::{Outcome, RatedGame, Rating, RatingConfig, rate_game, recompute};

/// A rating as stored: the floats' bits, which JSON keeps exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct StoredRating {
    rating: u64,
    deviation: u64,
    volatility: u64,
    games: u32,
    last_rated_at: Option<i64>,
}

impl From<Rating> for StoredRating {
    fn from(r: Rating) -> Self {
        Self {
            rating: r.rating.to_bits(),
            deviation: r.deviation.to_bits(),
            volatility: r.volatility.to_bits(),
            games: r.games,
            last_rated_at: r.last_rated_at,
        }
    }
}

impl From<StoredRating> for Rating {
    fn from(s: StoredRating) -> Self {
        Self {
            rating: f64::from_bits(s.rating),
            deviation: f64::from_bits(s.deviation),
            volatility: f64::from_bits(s.volatility),
            games: s.games,
            last_rated_at: s.last_rated_at,
        }
    }
}

fn rating_to_bytes(rating: Rating) -> Vec<u8> {
    serde_json::to_vec(&StoredRating::from(rating)).expect("a rating serialises")
}

fn rating_from_bytes(bytes: &[u8]) -> Result<Rating, LeagueError> {
    serde_json::from_slice::<StoredRating>(bytes)
        .map(Rating::from)
        .map_err(|e| LeagueError::Unavailable(format!("a stored rating is unreadable: {e}")))
}

/// How a rated match came out for one bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    Won,
    Lost,
    Drawn,
}

/// One bot's rating change for one match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// From 1, in the order changes were made; 0 before it is stored.
    #[serde(skip)]
    pub number: u64,
    pub match_id: String,
    pub pool: String,
    pub bot_id: String,
    /// The bot's seat: 0 the first, 1 the second (recomputing needs the order).
    pub seat: usize,
    pub opponent_id: String,
    pub score: Score,
    #[serde(with = "as_stored")]
    pub before: Rating,
    #[serde(with = "as_stored")]
    pub after: Rating,
    pub at: i64,
}

mod as_stored {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::StoredRating;
    use crate::rating::Rating;

    pub fn serialize<S: Serializer>(rating: &Rating, serializer: S) -> Result<S::Ok, S::Error> {
        StoredRating::from(*rating).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Rating, D::Error> {
        StoredRating::deserialize(deserializer).map(Rating::from)
    }
}

impl RatingChange {
    fn to_row(&self) -> RatingChangeRow {
        RatingChangeRow {
            number: 0,
            match_id: self.match_id.clone(),
            pool: self.pool.clone(),
            bot_id: self.bot_id.clone(),
            body: serde_json::to_vec(self).expect("a rating change serialises"),
            rated_nanos: self.at,
        }
    }

    fn from_row(row: &RatingChangeRow) -> Result<Self, LeagueError> {
        let mut change: Self = serde_json::from_slice(&row.body).map_err(|e| {
            LeagueError::Unavailable(format!("rating change {} is unreadable: {e}", row.number))
        })?;
        change.number = row.number;
        Ok(change)
    }
}

/// What a rated result writes: both bots' new ratings, and their changes (first seat first).
pub struct Rated {
    pub ratings: Vec<RatingRow>,
    pub changes: Vec<RatingChangeRow>,
    pub by_seat: [RatingChange; 2],
}

/// The game's outcome in seat order, or `None` for an aborted match, which is never rated.
fn outcome(ending: &Ending, first_seat: &str) -> Option<Outcome> {
    match (ending.finished, ending.winner.as_str()) {
        (false, _) => None,
        (true, "") => Some(Outcome::Draw),
        (true, winner) if winner == first_seat => Some(Outcome::FirstWon),
        (true, _) => Some(Outcome::SecondWon),
    }
}

/// The bot's rating in the pool, as last stored (not aged); a newcomer's when it has none.
pub(crate) async fn current(
    store: &Store,
    config: &RatingConfig,
    pool: &str,
    bot_id: &str,
) -> Result<Rating, LeagueError> {
    match store.ratings(Some(pool), Some(bot_id)).await?.first() {
        Some(row) => rating_from_bytes(&row.body),
        None => Ok(Rating::initial(config)),
    }
}

/// Rates an ended match the league assigned, if it is rated and was played to a result.
///
/// `moved` holds ratings computed but not yet stored (a batch of results written together):
/// they are read before the store's, and this result's new ratings join them.
pub async fn rate(
    store: &Store,
    config: &RatingConfig,
    assigned: &AssignedMatchRow,
    ending: &Ending,
    first_seat: &str,
    at: SystemTime,
    moved: &mut HashMap<(String, String), Rating>,
) -> Result<Option<Rated>, LeagueError> {
    if assigned.pool.is_empty() {
        return Ok(None);
    }
    let Some(outcome) = outcome(ending, first_seat) else {
        return Ok(None);
    };
    let pool = &assigned.pool;
    let [first, second] = &assigned.bots;
    let mut before = [Rating::initial(config); 2];
    for (seat, bot) in [first, second].into_iter().enumerate() {
        before[seat] = match moved.get(&(pool.clone(), bot.clone())) {
            Some(rating) => *rating,
            None => current(store, config, pool, bot).await?,
        };
    }
    let at = nanos(at);
    let (a, b) = rate_game(&before[0], &before[1], outcome, at, config);
    let after = [a, b];
    let score = |seat: usize| match (outcome, seat) {
        (Outcome::Draw, _) => Score::Drawn,
        (Outcome::FirstWon, 0) | (Outcome::SecondWon, 1) => Score::Won,
        _ => Score::Lost,
    };
    let change = |seat: usize| RatingChange {
        number: 0,
        match_id: assigned.match_id.clone(),
        pool: pool.clone(),
        bot_id: assigned.bots[seat].clone(),
        seat,
        opponent_id: assigned.bots[1 - seat].clone(),
        score: score(seat),
        before: before[seat],
        after: after[seat],
        at,
    };
    let by_seat = [change(0), change(1)];
    for (bot, rating) in assigned.bots.iter().zip(after) {
        moved.insert((pool.clone(), bot.clone()), rating);
    }
    Ok(Some(Rated {
        ratings: (0..2)
            .map(|seat| RatingRow {
                pool: pool.clone(),
                bot_id: assigned.bots[seat].clone(),
                body: rating_to_bytes(after[seat]),
            })
            .collect(),
        changes: by_seat.iter().map(RatingChange::to_row).collect(),
        by_seat,
    }))
}

/// A bot's rating in a pool as of now: aged for the time since it last played.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub pool: String,
    pub bot_id: String,
    pub rating: Rating,
    pub provisional: bool,
}

fn standing(row: &RatingRow, config: &RatingConfig, now: i64) -> Result<Standing, LeagueError> {
    let rating = rating_from_bytes(&row.body)?.aged(now, config);
    Ok(Standing {
        pool: row.pool.clone(),
        bot_id: row.bot_id.clone(),
        provisional: rating.is_provisional(config),
        rating,
    })
}

/// The bot's ratings in every pool it was rated in.
pub async fn standings_of(
    store: &Store,
    config: &RatingConfig,
    bot_id: &str,
) -> Result<Vec<Standing>, LeagueError> {
    let now = nanos(SystemTime::now());
    store
        .ratings(None, Some(bot_id))
        .await?
        .iter()
        .map(|row| standing(row, config, now))
        .collect()
}

/// Every bot's rating in a pool as of `now` (nanoseconds), by bot id.
pub async fn standings_in(
    store: &Store,
    config: &RatingConfig,
    pool: &str,
    now: i64,
) -> Result<Vec<Standing>, LeagueError> {
    store
        .ratings(Some(pool), None)
        .await?
        .iter()
        .map(|row| standing(row, config, now))
        .collect()
}

/// A pool's leaderboard: bots whose rating is not provisional, best first (ties by bot id), from
/// `offset`, at most `limit`; and how many there are in all.
pub async fn leaderboard(
    store: &Store,
    config: &RatingConfig,
    pool: &str,
    offset: usize,
    limit: usize,
) -> Result<(Vec<Standing>, usize), LeagueError> {
    let mut ranked: Vec<Standing> = standings_in(store, config, pool, nanos(SystemTime::now()))
        .await?
        .into_iter()
        .filter(|s| !s.provisional)
        .collect();
    ranked.sort_by(|a, b| {
        b.rating
            .rating
            .total_cmp(&a.rating.rating)
            .then_with(|| a.bot_id.cmp(&b.bot_id))
    });
    let total = ranked.len();
    Ok((ranked.into_iter().skip(offset).take(limit).collect(), total))
}

/// The bot's rating changes after `after` (its change numbers), oldest first.
pub async fn history(
    store: &Store,
    bot_id: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<RatingChange>, LeagueError> {
    store
        .rating_changes(Some(bot_id), after, limit)
        .await?
        .iter()
        .map(RatingChange::from_row)
        .collect()
}

/// Ratings recomputed from the stored changes that differ from the live ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recomputation {
    pub pools: usize,
    pub ratings: usize,
    pub matches: usize,
    /// `(pool, bot, live, recomputed)`; empty when every live rating is what the results give.
    pub differences: Vec<(String, String, Option<Rating>, Option<Rating>)>,
}

/// Replays every stored rated result, in the order it was rated, from newcomers' ratings, and
/// compares what that gives with the live ratings.
pub async fn recompute_all(
    store: &Store,
    config: &RatingConfig,
) -> Result<Recomputation, LeagueError> {
    const PAGE: usize = 10_000;
    // Per pool, per match: the two seats' changes.
    let mut games: BTreeMap<String, Vec<(u64, RatedGame)>> = BTreeMap::new();
    let mut seen: BTreeMap<String, RatingChange> = BTreeMap::new();
    let mut after = 0;
    let mut matches = 0;
    loop {
        let rows = store.rating_changes(None, after, PAGE).await?;
        let Some(last) = rows.last() else { break };
        after = last.number;
        for row in &rows {
            let change = RatingChange::from_row(row)?;
            let Some(other) = seen.remove(&change.match_id) else {
                seen.insert(change.match_id.clone(), change);
                continue;
            };
            let (first, second) = if change.seat == 0 {
                (&change, &other)
            } else {
                (&other, &change)
            };
            let outcome = match first.score {
                Score::Won => Outcome::FirstWon,
                Score::Lost => Outcome::SecondWon,
                Score::Drawn => Outcome::Draw,
            };
            matches += 1;
            games.entry(change.pool.clone()).or_default().push((
                first.number.min(second.number),
                RatedGame {
                    first: first.bot_id.clone(),
                    second: second.bot_id.clone(),
                    outcome,
                    at: change.at,
                },
            ));
        }
    }
    if let Some(unpaired) = seen.values().next() {
        return Err(LeagueError::Unavailable(format!(
            "match {} has a rating change for one bot only",
            unpaired.match_id
        )));
    }
    let mut live: BTreeMap<(String, String), Rating> = BTreeMap::new();
    for row in store.ratings(None, None).await? {
        live.insert(
            (row.pool.clone(), row.bot_id.clone()),
            rating_from_bytes(&row.body)?,
        );
    }
    let mut report = Recomputation {
        pools: games.len(),
        ratings: live.len(),
        matches,
        differences: Vec::new(),
    };
    let mut recomputed: BTreeMap<(String, String), Rating> = BTreeMap::new();
    for (pool, mut played) in games {
        played.sort_by_key(|(number, _)| *number);
        for (bot, rating) in recompute(played.into_iter().map(|(_, game)| game), config) {
            recomputed.insert((pool.clone(), bot), rating);
        }
    }
    let keys: std::collections::BTreeSet<_> =
        live.keys().chain(recomputed.keys()).cloned().collect();
    for key in keys {
        let (was, is) = (live.get(&key).copied(), recomputed.get(&key).copied());
        if was != is {
            report.differences.push((key.0, key.1, was, is));
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use pitchmate_hosting::lifecycle::EndReason;
    use pitchmate_store::scratch::scratch_store;
    use pitchmate_store::{AssignedState, FollowerStep};

    use super::*;

    const POOL: &str = "kings-goal/untimed/rated";

    fn assigned(match_id: &str, first: &str, second: &str) -> AssignedMatchRow {
        AssignedMatchRow {
            match_id: match_id.into(),
            bots: [first.into(), second.into()],
            pool: POOL.into(),
            terms: Vec::new(),
            assigned_nanos: 0,
            state: AssignedState::Created,
        }
    }

    fn won_by(seat: &str) -> Ending {
        Ending {
            finished: true,
            winner: seat.into(),
            scores: vec![1, 0],
            reason: EndReason::Rules,
            detail: String::new(),
        }
    }

    /// Two results of one bot rated in one batch give what rating them one after the other,
    /// each stored before the next, gives.
    #[tokio::test]
    async fn a_batch_rates_as_results_stored_one_by_one_do() {
        let (store, dir) = scratch_store().await;
        let config = RatingConfig::default();
        let at = |s: u64| UNIX_EPOCH + Duration::from_secs(1_800_000_000 + s);
        let (m1, m2) = (assigned("m1", "a", "b"), assigned("m2", "c", "a"));

        let mut batch = HashMap::new();
        let first = rate(
            &store,
            &config,
            &m1,
            &won_by("white"),
            "white",
            at(0),
            &mut batch,
        )
        .await
        .unwrap()
        .unwrap();
        let second = rate(
            &store,
            &config,
            &m2,
            &won_by("white"),
            "white",
            at(60),
            &mut batch,
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(second.by_seat[1].before, first.by_seat[0].after);

        let stored = rate(
            &store,
            &config,
            &m1,
            &won_by("white"),
            "white",
            at(0),
            &mut HashMap::new(),
        )
        .await
        .unwrap()
        .unwrap();
        store
            .apply_follower_step(FollowerStep {
                follower: "test".into(),
                position: 1,
                ratings: stored.ratings,
                rating_changes: stored.changes,
                ..FollowerStep::default()
            })
            .await
            .unwrap();
        let then = rate(
            &store,
            &config,
            &m2,
            &won_by("white"),
            "white",
            at(60),
            &mut HashMap::new(),
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(then.changes, second.changes);
        assert_eq!(then.ratings, second.ratings);

        // An aborted or casual match is not rated.
        let aborted = Ending {
            finished: false,
            ..won_by("")
        };
        let unrated = [
            (m1.clone(), aborted),
            (
                AssignedMatchRow {
                    pool: String::new(),
                    ..m1
                },
                won_by("white"),
            ),
        ];
        for (assigned, ending) in unrated {
            let mut moved = HashMap::new();
            let rated = rate(
                &store,
                &config,
                &assigned,
                &ending,
                "white",
                at(0),
                &mut moved,
            );
            assert!(rated.await.unwrap().is_none());
            assert!(moved.is_empty());
        }
        store.close().await.unwrap();
        dir.remove();
    }

    /// Leaderboards rank by rating, leave provisional bots out and page.
    #[tokio::test]
    async fn a_leaderboard_ranks_settled_bots_and_pages() {
        let (store, dir) = scratch_store().await;
        let config = RatingConfig::default();
        let now = nanos(SystemTime::now());
        let rated = |bot: &str, rating: f64, deviation: f64| RatingRow {
            pool: POOL.into(),
            bot_id: bot.into(),
            body: rating_to_bytes(Rating {
                rating,
                deviation,
                volatility: 0.06,
                games: 30,
                last_rated_at: Some(now),
            }),
        };
        let ratings = vec![
            rated("low", 1400.0, 60.0),
            rated("top", 1900.0, 50.0),
            rated("new", 2500.0, 200.0),
            rated("mid", 1600.0, 70.0),
        ];
        let step = FollowerStep {
            follower: "test".into(),
            position: 1,
            ratings,
            ..FollowerStep::default()
        };
        store.apply_follower_step(step).await.unwrap();
        let ids = |page: &[Standing]| page.iter().map(|s| s.bot_id.clone()).collect::<Vec<_>>();
        let (first, total) = leaderboard(&store, &config, POOL, 0, 2).await.unwrap();
        assert_eq!((ids(&first), total), (vec!["top".into(), "mid".into()], 3));
        let (second, _) = leaderboard(&store, &config, POOL, 2, 2).await.unwrap();
        assert_eq!(ids(&second), ["low"]);
        let mine = standings_of(&store, &config, "new").await.unwrap();
        assert!(mine[0].provisional, "on no leaderboard, but still rated");
        store.close().await.unwrap();
        dir.remove();
    }
}
