//! Each bot's durable inbox, the seats bots hold, and the cursors of lifecycle followers
//! (schema 8).
//!
//! A follower (the leagues crate) reads the lifecycle feed and, for each entry, writes what it
//! learned together with its cursor in one [`FollowerStep`]. The cursor is claimed first in
//! that transaction (raised to the step's position, unless it is there already), so a crash
//! between steps loses nothing, a step applied again after one repeats nothing, and of two
//! processes applying the same step only one writes it.
//!
//! An inbox is numbered per bot from 1 without gaps. The last seq each bot was given lives in
//! `inbox_heads`, apart from the items: pruning old items never lets a seq come round again,
//! and incrementing the head is what makes two concurrent appends to one bot take turns.
//!
//! No foreign keys to `bots`: the database refusing a step would stop its follower at that
//! entry for good, for every bot, while a row naming an unknown bot harms nobody (bots are
//! never deleted, and the leagues crate names only bots it found).
//!
//! Writes skip the group commit as account writes do (see `accounts.rs`): a transaction of
//! their own on the writer's connection, none while the store is unwritable. Reads go through
//! the reader.

use std::collections::{BTreeMap, HashMap};

use super::{Backend, StoreError};

/// One item of a bot's inbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboxRow {
    pub bot_id: String,
    /// From 1, per bot, with no gap; assigned by the store.
    pub seq: u64,
    /// What kind of item (the leagues crate's numbering; the store does not interpret it).
    pub kind: u32,
    pub body: Vec<u8>,
    pub time_nanos: i64,
}

/// An inbox item to add; its seq is the bot's next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewInboxItem {
    pub bot_id: String,
    pub kind: u32,
    pub body: Vec<u8>,
    pub time_nanos: i64,
}

/// A seat a bot holds in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSeatRow {
    pub bot_id: String,
    pub match_id: String,
    pub seat: String,
    pub variant_id: String,
    /// When the seat was taken.
    pub time_nanos: i64,
    /// Until the match ends.
    pub live: bool,
}

/// What a follower of the lifecycle feed learned from the entry at `position`, written in one
/// transaction with its cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FollowerStep {
    pub follower: String,
    pub position: u64,
    /// Seats taken by bots (inserted live; a seat already recorded is left as it is).
    pub seats_taken: Vec<BotSeatRow>,
    /// Matches that ended: every seat row of theirs turns not live. Applied after
    /// `seats_taken`, so a match that starts and ends in one entry leaves no live seat.
    pub matches_over: Vec<String>,
    pub inbox: Vec<NewInboxItem>,
    /// Ratings a rated result moved (each replaces the bot's rating in its pool), and the
    /// changes that moved them (see `ratings.rs`).
    pub ratings: Vec<crate::RatingRow>,
    pub rating_changes: Vec<crate::RatingChangeRow>,
    /// How tournament games ended: each sets its game's outcome, unless one is recorded
    /// already (see `tournaments.rs`).
    pub game_results: Vec<crate::GameResultRow>,
    /// Items for tournaments' logs, each taking its tournament's next seq, in order.
    pub tournament_log: Vec<crate::NewTournamentLogItem>,
}

/// A number of the API as a database column, which holds up to `i64::MAX`.
pub(crate) fn column(number: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(number)
        .map_err(|_| StoreError::Database(format!("cannot store {what} {number}: too large")))
}

/// How many items each bot gets, by bot id. Heads are incremented in this order, so two
/// transactions that both touch several heads lock them in the same order, never each waiting
/// for a head the other holds.
pub(crate) fn items_per_bot(items: &[NewInboxItem]) -> BTreeMap<String, i64> {
    items_per_head(items.iter().map(|item| item.bot_id.as_str()))
}

/// How many items go under each head (a bot's inbox, a tournament's log), by head, given the
/// head of each item.
pub(crate) fn items_per_head<'a>(heads: impl Iterator<Item = &'a str>) -> BTreeMap<String, i64> {
    let mut counts = BTreeMap::new();
    for head in heads {
        *counts.entry(head.to_owned()).or_insert(0) += 1;
    }
    counts
}

/// The items as written, given each bot's last seq once its items were counted in: a bot's
/// items take the seqs up to its last, in the order given.
pub(crate) fn numbered(
    items: Vec<NewInboxItem>,
    counts: &BTreeMap<String, i64>,
    lasts: &HashMap<String, i64>,
) -> Result<Vec<InboxRow>, StoreError> {
    let seqs = seqs_under_heads(items.iter().map(|item| item.bot_id.as_str()), counts, lasts)?;
    Ok(items
        .into_iter()
        .zip(seqs)
        .map(|(item, seq)| InboxRow {
            seq,
            bot_id: item.bot_id,
            kind: item.kind,
            body: item.body,
            time_nanos: item.time_nanos,
        })
        .collect())
}

/// The seq of each item, in the order given (`heads` names each item's head), once every
/// head was moved past its items (`counts`) and came back at `lasts`: a head's items take the
/// seqs it moved over, in order.
pub(crate) fn seqs_under_heads<'a>(
    heads: impl Iterator<Item = &'a str>,
    counts: &BTreeMap<String, i64>,
    lasts: &HashMap<String, i64>,
) -> Result<Vec<u64>, StoreError> {
    let mut next: HashMap<&str, i64> = HashMap::with_capacity(counts.len());
    for (head, count) in counts {
        let last = lasts
            .get(head)
            .ok_or_else(|| StoreError::Database(format!("no head came back for `{head}`")))?;
        next.insert(head, last - count + 1);
    }
    heads
        .map(|head| {
            let next = next
                .get_mut(head)
                .ok_or_else(|| StoreError::Database(format!("`{head}` was not counted")))?;
            let seq = *next as u64;
            *next += 1;
            Ok(seq)
        })
        .collect()
}

/// `(oldest kept, last)` from a bot's head row, if it has one, and its least kept seq.
pub(crate) fn bounds(last: Option<i64>, oldest_kept: Option<i64>) -> (u64, u64) {
    let last = last.unwrap_or(0) as u64;
    (oldest_kept.map_or(last + 1, |seq| seq as u64), last)
}

impl Backend {
    pub(crate) async fn apply_follower_step(
        &self,
        step: FollowerStep,
    ) -> Result<Vec<InboxRow>, StoreError> {
        // A follower that never stepped stands at 0, which no step moves it past.
        if step.position == 0 {
            return Ok(Vec::new());
        }
        match self {
            Self::Sqlite(store) => store.apply_follower_step(step).await,
            Self::Postgres(store) => store.apply_follower_step(step).await,
        }
    }

    pub(crate) async fn append_inbox(
        &self,
        items: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        match self {
            Self::Sqlite(store) => store.append_inbox(items).await,
            Self::Postgres(store) => store.append_inbox(items).await,
        }
    }

    pub(crate) async fn follower_cursor(&self, follower: &str) -> Result<u64, StoreError> {
        match self {
            Self::Sqlite(store) => store.follower_cursor(follower.to_owned()).await,
            Self::Postgres(store) => store.follower_cursor(follower).await,
        }
    }

    pub(crate) async fn inbox_after(
        &self,
        bot_id: &str,
        after_seq: u64,
        limit: usize,
    ) -> Result<Vec<InboxRow>, StoreError> {
        // No seq is ever past `i64::MAX`, so reading after it finds nothing either way.
        let after = i64::try_from(after_seq).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        match self {
            Self::Sqlite(store) => store.inbox_after(bot_id.to_owned(), after, limit).await,
            Self::Postgres(store) => store.inbox_after(bot_id, after, limit).await,
        }
    }

    pub(crate) async fn inbox_bounds(&self, bot_id: &str) -> Result<(u64, u64), StoreError> {
        match self {
            Self::Sqlite(store) => store.inbox_bounds(bot_id.to_owned()).await,
            Self::Postgres(store) => store.inbox_bounds(bot_id).await,
        }
    }

    pub(crate) async fn prune_inbox(&self, before_time_nanos: i64) -> Result<u64, StoreError> {
        match self {
            Self::Sqlite(store) => store.prune_inbox(before_time_nanos).await,
            Self::Postgres(store) => store.prune_inbox(before_time_nanos).await,
        }
    }

    pub(crate) async fn bot_seats(
        &self,
        bot_id: &str,
        live_only: bool,
    ) -> Result<Vec<BotSeatRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.bot_seats(bot_id.to_owned(), live_only).await,
            Self::Postgres(store) => store.bot_seats(bot_id, live_only).await,
        }
    }

    pub(crate) async fn live_seat_counts(&self) -> Result<Vec<(String, u64)>, StoreError> {
        match self {
            Self::Sqlite(store) => store.live_seat_counts().await,
            Self::Postgres(store) => store.live_seat_counts().await,
        }
    }
}
