//! Ratings per pool and the changes that made them, and the matchmaking queue's tickets
//! (schema 10).
//!
//! A rating change is written by the leagues' follower in the step that learns a rated match
//! ended (see `league.rs`), with the bots' new ratings: a result moves ratings exactly once,
//! with its follower's cursor, also across crashes. Each change is keyed by its match and bot,
//! so a second change for one would fail the step rather than be written. Changes are numbered
//! in the order they were written, which is the order ratings were computed in: replaying them
//! from that order rebuilds the ratings exactly.
//!
//! A ticket waits in one pool until it is paired (in the transaction that assigns its match,
//! with both bots' caps checked there), or its bot takes it out. A bot has at most one waiting
//! ticket per pool. Ratings and tickets are the leagues crate's bytes where they are values; the
//! store reads only what it indexes.

use super::matchmaking::{AssignedMatchRow, BotCaps, BotLoad};
use super::{Backend, StoreError};

/// A bot's rating in a pool, as the leagues crate encodes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingRow {
    pub pool: String,
    pub bot_id: String,
    pub body: Vec<u8>,
}

/// One bot's rating change for one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChangeRow {
    /// From 1, in the order changes were written; 0 in a change to write.
    pub number: u64,
    pub match_id: String,
    pub pool: String,
    pub bot_id: String,
    /// The leagues crate's encoding: ratings before and after, the outcome, the opponent.
    pub body: Vec<u8>,
    pub rated_nanos: i64,
}

/// Where a ticket stands. The numbers are stored; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TicketState {
    Waiting,
    Paired,
    Left,
}

impl TicketState {
    pub(crate) fn code(self) -> i64 {
        match self {
            Self::Waiting => 1,
            Self::Paired => 2,
            Self::Left => 3,
        }
    }

    pub(crate) fn from_code(code: i64) -> Result<Self, StoreError> {
        Ok(match code {
            1 => Self::Waiting,
            2 => Self::Paired,
            3 => Self::Left,
            _ => return Err(StoreError::Database(format!("ticket state {code}"))),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketRow {
    pub ticket_id: String,
    pub bot_id: String,
    pub pool: String,
    /// The leagues crate's encoding of the terms the bot would play.
    pub terms: Vec<u8>,
    pub entered_nanos: i64,
    pub state: TicketState,
    /// The match a paired ticket was assigned.
    pub match_id: Option<String>,
}

/// Two waiting tickets to pair, and the match that pairs them, assigned if both bots' caps
/// admit it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketPair {
    pub tickets: [String; 2],
    pub assigned: AssignedMatchRow,
    pub caps: Vec<BotCaps>,
}

/// What came of pairing two tickets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Paired {
    Done,
    /// Nothing written: a ticket no longer waits (its bot took it out, or it was paired).
    TicketGone(String),
    /// Nothing written: this bot is at a cap; its ticket waits on.
    OverCap {
        bot_id: String,
        load: BotLoad,
    },
}

impl Backend {
    pub(crate) async fn ratings(
        &self,
        pool: Option<&str>,
        bot_id: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let (pool, bot_id) = (pool.map(str::to_owned), bot_id.map(str::to_owned));
        match self {
            Self::Sqlite(store) => store.ratings(pool, bot_id).await,
            Self::Postgres(store) => store.ratings(pool, bot_id).await,
        }
    }

    pub(crate) async fn rating_changes(
        &self,
        bot_id: Option<&str>,
        after: u64,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let bot_id = bot_id.map(str::to_owned);
        match self {
            Self::Sqlite(store) => store.rating_changes(bot_id, after, limit).await,
            Self::Postgres(store) => store.rating_changes(bot_id, after, limit).await,
        }
    }

    pub(crate) async fn enter_ticket(&self, ticket: TicketRow) -> Result<(), StoreError> {
        match self {
            Self::Sqlite(store) => store.enter_ticket(ticket).await,
            Self::Postgres(store) => store.enter_ticket(ticket).await,
        }
    }

    pub(crate) async fn leave_ticket(&self, ticket_id: &str) -> Result<bool, StoreError> {
        match self {
            Self::Sqlite(store) => store.leave_ticket(ticket_id.to_owned()).await,
            Self::Postgres(store) => store.leave_ticket(ticket_id).await,
        }
    }

    pub(crate) async fn tickets(
        &self,
        bot_id: Option<&str>,
        waiting_only: bool,
    ) -> Result<Vec<TicketRow>, StoreError> {
        match self {
            Self::Sqlite(store) => store.tickets(bot_id.map(str::to_owned), waiting_only).await,
            Self::Postgres(store) => store.tickets(bot_id, waiting_only).await,
        }
    }

    pub(crate) async fn pair_tickets(
        &self,
        pairs: Vec<TicketPair>,
    ) -> Result<Vec<Paired>, StoreError> {
        if pairs.is_empty() {
            return Ok(Vec::new());
        }
        match self {
            Self::Sqlite(store) => store.pair_tickets(pairs).await,
            Self::Postgres(store) => store.pair_tickets(pairs).await,
        }
    }
}
