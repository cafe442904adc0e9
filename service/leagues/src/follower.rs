//! The leagues' follower of the match core's lifecycle feed: it learns which seats bots took
//! and which matches ended, and tells each bot in its inbox. What it learns from an entry is
//! written in one transaction with its cursor (the entry's position), so after a crash it goes
//! on from the last entry it wrote and never tells a bot twice. A rated result's rating changes
//! are written in the same step, so a result is rated exactly once.

use std::time::{Duration, SystemTime};

use std::collections::HashMap;

use futures_util::{FutureExt, StreamExt};
use tokio::sync::watch;

use pitchmate_hosting::feed::{FeedFilter, FeedItem, follow};
use pitchmate_hosting::lifecycle::{Ending, LifecycleEntry, LifecycleKind};
use pitchmate_store::{AssignedMatchRow, BotSeatRow, FollowerStep, GameResultRow, Store};
use pitchmate_tournaments::Outcome;

use crate::inbox::{FinishedMatch, InboxBus, InboxItem};
use crate::nanos;
use crate::rated::{self, Rated, RatingChange};
use crate::rating::{Rating, RatingConfig};
use crate::tournaments::Signal;
use crate::tournaments::log::LogItem;
use crate::tournaments::plan::outcome_code;

/// The follower's name for its cursor.
pub const FOLLOWER: &str = "leagues";
/// Quiet this long, the follower writes down how far it has read even with nothing else to
/// write, so a restart does not read again what told no bot anything.
const QUIET: Duration = Duration::from_secs(5);
/// And so often under steady traffic that concerns no bot, which is never quiet.
const NOTE_EVERY: u64 = 10_000;
/// After a failure (the store unreachable), the follower starts again from its cursor this much
/// later.
const RETRY: Duration = Duration::from_secs(1);
/// How often old inbox items are pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Follows the feed until the server stops; a failure is logged and the follower starts again
/// from its stored cursor. Meanwhile old inbox items are pruned, at once and then hourly.
pub async fn run(
    store: Store,
    bus: InboxBus,
    signal: Signal,
    retention: Duration,
    ratings: RatingConfig,
    mut stopping: watch::Receiver<bool>,
) {
    tokio::spawn(prune_every(store.clone(), retention, stopping.clone()));
    loop {
        match follow_once(&store, &bus, &signal, &ratings, stopping.clone()).await {
            Ok(()) => return,
            Err(error) => tracing::warn!(%error, "the leagues' follower stopped; it starts again"),
        }
        tokio::select! {
            () = tokio::time::sleep(RETRY) => {}
            _ = stopping.wait_for(|stop| *stop) => return,
        }
    }
}

async fn prune_every(store: Store, retention: Duration, mut stopping: watch::Receiver<bool>) {
    loop {
        prune(&store, retention).await;
        tokio::select! {
            () = tokio::time::sleep(PRUNE_EVERY) => {}
            _ = stopping.wait_for(|stop| *stop) => return,
        }
    }
}

async fn prune(store: &Store, retention: Duration) {
    let before = SystemTime::now()
        .checked_sub(retention)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    match store.prune_inbox(nanos(before)).await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "old inbox items pruned"),
        Err(error) => tracing::warn!(%error, "cannot prune old inbox items"),
    }
}

/// Follows the feed from the stored cursor; `Ok` when the server stops.
async fn follow_once(
    store: &Store,
    bus: &InboxBus,
    signal: &Signal,
    ratings: &RatingConfig,
    stopping: watch::Receiver<bool>,
) -> Result<(), String> {
    let mut written = store
        .follower_cursor(FOLLOWER)
        .await
        .map_err(|e| e.to_string())?;
    let feed = follow(
        store.clone(),
        written,
        FeedFilter::default(),
        QUIET,
        stopping,
    );
    let mut feed = std::pin::pin!(feed);
    let mut ended = false;
    while !ended {
        let Some(first) = feed.next().await else {
            break;
        };
        // What is ready now goes in one transaction: under a burst of ended matches, one
        // commit instead of one per match.
        let mut batch = Batch::after(written);
        batch
            .add(store, ratings, first.map_err(|e| e.to_string())?)
            .await?;
        while batch.entries < BATCH {
            match feed.next().now_or_never() {
                Some(Some(item)) => {
                    batch
                        .add(store, ratings, item.map_err(|e| e.to_string())?)
                        .await?;
                }
                Some(None) => {
                    ended = true;
                    break;
                }
                None => break,
            }
        }
        let Some(step) = batch.into_step() else {
            continue;
        };
        let position = step.position;
        let tournaments_moved = !step.game_results.is_empty();
        let rows = store
            .apply_follower_step(step)
            .await
            .map_err(|e| e.to_string())?;
        written = position;
        bus.publish(rows);
        if tournaments_moved {
            signal.bump();
        }
    }
    Ok(())
}

/// Entries learnt from at most at a time, then written in one transaction.
const BATCH: usize = 256;

/// The steps of entries read together, merged into one, and the ratings they moved (which the
/// store has not yet: a later entry of the batch rates from them).
struct Batch {
    step: FollowerStep,
    /// The cursor as written before the batch.
    written: u64,
    /// Whether any entry taught something to write besides the cursor.
    learnt: bool,
    /// Whether the feed said it was quiet: then the cursor is worth writing alone.
    quiet: bool,
    entries: usize,
    moved: HashMap<(String, String), Rating>,
}

impl Batch {
    fn after(written: u64) -> Self {
        Self {
            step: FollowerStep {
                follower: FOLLOWER.to_owned(),
                position: written,
                ..FollowerStep::default()
            },
            written,
            learnt: false,
            quiet: false,
            entries: 0,
            moved: HashMap::new(),
        }
    }

    async fn add(
        &mut self,
        store: &Store,
        ratings: &RatingConfig,
        item: FeedItem,
    ) -> Result<(), String> {
        self.entries += 1;
        match item {
            FeedItem::Entry(entry) => {
                if let Some(step) = learn(store, ratings, &entry, &mut self.moved).await? {
                    self.learnt = true;
                    self.step.seats_taken.extend(step.seats_taken);
                    self.step.matches_over.extend(step.matches_over);
                    self.step.inbox.extend(step.inbox);
                    self.step.ratings.extend(step.ratings);
                    self.step.rating_changes.extend(step.rating_changes);
                    self.step.game_results.extend(step.game_results);
                    self.step.tournament_log.extend(step.tournament_log);
                }
                self.step.position = self.step.position.max(entry.position);
            }
            FeedItem::Quiet { position } => {
                self.quiet = true;
                self.step.position = self.step.position.max(position);
            }
        }
        Ok(())
    }

    /// The step to write: what was learnt with the cursor; the cursor alone when the feed was
    /// quiet or after [`NOTE_EVERY`] entries that concerned no bot; else nothing.
    fn into_step(self) -> Option<FollowerStep> {
        let moved = self.step.position > self.written;
        let note = self.learnt || self.quiet || self.step.position >= self.written + NOTE_EVERY;
        (moved && note).then_some(self.step)
    }
}

/// What an entry teaches the leagues, reading what it needs from the store: for an ended
/// match, whether a league assigned it, and the bots' ratings when it is rated.
async fn learn(
    store: &Store,
    ratings: &RatingConfig,
    entry: &LifecycleEntry,
    moved: &mut HashMap<(String, String), Rating>,
) -> Result<Option<FollowerStep>, String> {
    let LifecycleKind::Ended { ending, seats } = &entry.kind else {
        return Ok(step_for(entry, None, None));
    };
    let assigned = store
        .assigned_match(&entry.match_id)
        .await
        .map_err(|e| e.to_string())?;
    let rated = match (&assigned, seats.first()) {
        (Some(assigned), Some(first)) => rated::rate(
            store,
            ratings,
            assigned,
            ending,
            &first.seat,
            entry.time,
            moved,
        )
        .await
        .map_err(|e| e.to_string())?,
        _ => None,
    };
    let mut step = step_for(entry, assigned.as_ref(), rated);
    if let (Some(step), Some(_)) = (step.as_mut(), &assigned) {
        let game = store
            .tournament_game(&entry.match_id)
            .await
            .map_err(|e| e.to_string())?;
        if let Some(game) = game {
            let names: Vec<&str> = seats.iter().map(|s| s.seat.as_str()).collect();
            let outcome = tournament_outcome(ending, &names);
            step.game_results.push(GameResultRow {
                match_id: entry.match_id.clone(),
                outcome: outcome_code(outcome),
                ended_nanos: nanos(entry.time),
            });
            let item = LogItem::GameFinished {
                round: game.round,
                match_id: entry.match_id.clone(),
            };
            step.tournament_log
                .push(item.to_new(&game.tournament_id, entry.time));
        }
    }
    Ok(step)
}

/// How a tournament game ended, by seat order: a match without a result (nobody came) is lost
/// by both.
fn tournament_outcome(ending: &Ending, seats: &[&str]) -> Outcome {
    match (ending.finished, ending.winner.as_str()) {
        (false, _) => Outcome::NeitherCame,
        (true, "") => Outcome::Draw,
        (true, winner) if seats.first() == Some(&winner) => Outcome::FirstWon,
        (true, _) => Outcome::SecondWon,
    }
}

/// What an entry teaches the leagues; `None` when it concerns no bot. An ended match a league
/// assigned (`assigned`) tells both its bots, also one that never took its seat, and carries
/// its rating changes when it was rated (`rated`).
pub fn step_for(
    entry: &LifecycleEntry,
    assigned: Option<&AssignedMatchRow>,
    rated: Option<Rated>,
) -> Option<FollowerStep> {
    let mut step = FollowerStep {
        follower: FOLLOWER.to_owned(),
        position: entry.position,
        ..FollowerStep::default()
    };
    match &entry.kind {
        LifecycleKind::SeatTaken { seat, account, .. } if !account.is_empty() => {
            step.seats_taken.push(BotSeatRow {
                bot_id: account.clone(),
                match_id: entry.match_id.clone(),
                seat: seat.clone(),
                variant_id: entry.variant_id.clone(),
                time_nanos: nanos(entry.time),
                live: true,
            });
        }
        LifecycleKind::Ended { ending, seats }
            if assigned.is_some() || seats.iter().any(|s| !s.account.is_empty()) =>
        {
            step.matches_over.push(entry.match_id.clone());
            let names: Vec<String> = seats.iter().map(|s| s.seat.clone()).collect();
            // A league's bots by seat, whether they came or not; else whoever held each seat.
            let holders: Vec<&str> = match assigned {
                Some(assigned) => assigned.bots.iter().map(String::as_str).collect(),
                None => seats.iter().map(|s| s.account.as_str()).collect(),
            };
            let mut changes: Vec<Option<Box<RatingChange>>> = vec![None; seats.len()];
            if let Some(rated) = rated {
                step.ratings = rated.ratings;
                step.rating_changes = rated.changes;
                for (index, change) in rated.by_seat.into_iter().enumerate() {
                    changes[index] = Some(Box::new(change));
                }
            }
            for (index, seat) in seats.iter().enumerate() {
                let Some(bot_id) = holders.get(index).filter(|b| !b.is_empty()) else {
                    continue;
                };
                let item = InboxItem::MatchFinished(FinishedMatch {
                    match_id: entry.match_id.clone(),
                    variant_id: entry.variant_id.clone(),
                    seat: seat.seat.clone(),
                    seats: names.clone(),
                    finished: ending.finished,
                    winner: ending.winner.clone(),
                    scores: ending.scores.clone(),
                    reason: ending.reason,
                    detail: ending.detail.clone(),
                    rating: changes[index].take(),
                });
                step.inbox.push(item.to_new(bot_id, entry.time));
            }
        }
        _ => return None,
    }
    Some(step)
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use pitchmate_store::NewInboxItem;
    use pitchmate_store::scratch::scratch_store;

    use super::*;

    fn old_item() -> NewInboxItem {
        NewInboxItem {
            bot_id: "b".into(),
            kind: 1,
            body: b"{}".to_vec(),
            time_nanos: nanos(UNIX_EPOCH + Duration::from_secs(1)),
        }
    }

    /// Waits (in the test's own time) until the bot's oldest kept item is `oldest`.
    async fn oldest_becomes(store: &Store, oldest: u64) {
        for _ in 0..1000 {
            if store.inbox_bounds("b").await.unwrap().0 == oldest {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("never pruned to {oldest}");
    }

    #[tokio::test(start_paused = true)]
    async fn old_items_are_pruned_at_once_and_then_every_hour() {
        let (store, dir) = scratch_store().await;
        store.append_inbox(vec![old_item()]).await.unwrap();
        let (stop, stopping) = watch::channel(false);
        let pruning = tokio::spawn(prune_every(
            store.clone(),
            Duration::from_secs(86_400),
            stopping,
        ));
        oldest_becomes(&store, 2).await;
        store.append_inbox(vec![old_item()]).await.unwrap();
        tokio::time::sleep(PRUNE_EVERY / 2).await;
        assert_eq!(
            store.inbox_bounds("b").await.unwrap(),
            (2, 2),
            "not before the hour"
        );
        tokio::time::sleep(PRUNE_EVERY / 2).await;
        oldest_becomes(&store, 3).await;
        stop.send_replace(true);
        pruning.await.unwrap();
        store.close().await.unwrap();
        dir.remove();
    }
}
