//! The leagues' follower of the match core's lifecycle feed: it learns which seats bots took
//! and which matches ended, and tells each bot in its inbox. What it learns from an entry is
//! written in one transaction with its cursor (the entry's position), so after a crash it goes
//! on from the last entry it wrote and never tells a bot twice.

use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use tokio::sync::watch;

use pitchmate_hosting::feed::{FeedFilter, FeedItem, follow};
use pitchmate_hosting::lifecycle::{LifecycleEntry, LifecycleKind};
use pitchmate_store::{BotSeatRow, FollowerStep, Store};

use crate::inbox::{FinishedMatch, InboxBus, InboxItem};
use crate::nanos;

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
/// from its stored cursor.
pub async fn run(
    store: Store,
    bus: InboxBus,
    retention: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let mut pruned = None::<tokio::time::Instant>;
    loop {
        if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
            prune(&store, retention).await;
            pruned = Some(tokio::time::Instant::now());
        }
        match follow_once(&store, &bus, stopping.clone()).await {
            Ok(()) => return,
            Err(error) => tracing::warn!(%error, "the leagues' follower stopped; it starts again"),
        }
        tokio::select! {
            () = tokio::time::sleep(RETRY) => {}
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
    while let Some(item) = feed.next().await {
        let step = match item.map_err(|e| e.to_string())? {
            FeedItem::Entry(entry) => match step_for(&entry) {
                Some(step) => step,
                None if entry.position >= written + NOTE_EVERY => FollowerStep {
                    follower: FOLLOWER.to_owned(),
                    position: entry.position,
                    ..FollowerStep::default()
                },
                None => continue,
            },
            FeedItem::Quiet { position } if position > written => FollowerStep {
                follower: FOLLOWER.to_owned(),
                position,
                ..FollowerStep::default()
            },
            FeedItem::Quiet { .. } => continue,
        };
        let position = step.position;
        let rows = store
            .apply_follower_step(step)
            .await
            .map_err(|e| e.to_string())?;
        written = position;
        bus.publish(rows);
    }
    Ok(())
}

/// What an entry teaches the leagues; `None` when it concerns no bot.
pub fn step_for(entry: &LifecycleEntry) -> Option<FollowerStep> {
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
        LifecycleKind::Ended { ending, seats } if seats.iter().any(|s| !s.account.is_empty()) => {
            step.matches_over.push(entry.match_id.clone());
            let names: Vec<String> = seats.iter().map(|s| s.seat.clone()).collect();
            for seat in seats.iter().filter(|s| !s.account.is_empty()) {
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
                });
                step.inbox.push(item.to_new(&seat.account, entry.time));
            }
        }
        _ => return None,
    }
    Some(step)
}
