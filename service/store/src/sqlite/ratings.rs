//! Ratings, rating changes and queue tickets in SQLite (see `ratings.rs` for what they promise).

use rusqlite::{OptionalExtension, Transaction, params};

use super::matchmaking::{insert_assigned, over_cap};
use super::{SqliteStore, blocking};
use crate::StoreError;
use crate::matchmaking::Resolved;
use crate::ratings::{Paired, RatingChangeRow, RatingRow, TicketPair, TicketRow, TicketState};

/// Schema 10.
pub(super) const RATINGS: &str = "
    CREATE TABLE ratings (
        pool TEXT NOT NULL,
        bot_id TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (pool, bot_id)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_by_bot ON ratings (bot_id);
    CREATE TABLE rating_changes (
        number INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id TEXT NOT NULL,
        pool TEXT NOT NULL,
        bot_id TEXT NOT NULL,
        body BLOB NOT NULL,
        rated_nanos INTEGER NOT NULL,
        UNIQUE (match_id, bot_id)
    );
    CREATE INDEX rating_changes_by_bot ON rating_changes (bot_id, number);
    CREATE TABLE queue_tickets (
        ticket_id TEXT NOT NULL PRIMARY KEY,
        bot_id TEXT NOT NULL,
        pool TEXT NOT NULL,
        terms BLOB NOT NULL,
        entered_nanos INTEGER NOT NULL,
        state INTEGER NOT NULL,
        match_id TEXT
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX queue_one_waiting_ticket ON queue_tickets (bot_id, pool) WHERE state = 1;
    CREATE INDEX queue_waiting ON queue_tickets (pool, entered_nanos) WHERE state = 1;
    CREATE INDEX queue_by_bot ON queue_tickets (bot_id, entered_nanos);
";

/// Schema 11: bots' seats by when they were taken, for counting every bot's matches of the day
/// at once (the queue's pairing cycle).
pub(super) const SEATS_BY_TIME: &str = "
    CREATE INDEX bot_seats_by_time ON bot_seats (time_nanos);
";

const CHANGE_COLUMNS: &str = "number, match_id, pool, bot_id, body, rated_nanos";
const TICKET_COLUMNS: &str = "ticket_id, bot_id, pool, terms, entered_nanos, state, match_id";

impl SqliteStore {
    pub async fn ratings(
        &self,
        pool: Option<String>,
        bot_id: Option<String>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT pool, bot_id, body FROM ratings \
                 WHERE (?1 IS NULL OR pool = ?1) AND (?2 IS NULL OR bot_id = ?2) \
                 ORDER BY pool, bot_id",
            )?;
            let rows = statement.query_map(params![pool, bot_id], |r| {
                Ok(RatingRow {
                    pool: r.get(0)?,
                    bot_id: r.get(1)?,
                    body: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn rating_changes(
        &self,
        bot_id: Option<String>,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {CHANGE_COLUMNS} FROM rating_changes \
                 WHERE (?1 IS NULL OR bot_id = ?1) AND number > ?2 ORDER BY number LIMIT ?3"
            ))?;
            let rows = statement.query_map(params![bot_id, after, limit], |r| {
                Ok(RatingChangeRow {
                    number: r.get::<_, i64>(0)? as u64,
                    match_id: r.get(1)?,
                    pool: r.get(2)?,
                    bot_id: r.get(3)?,
                    body: r.get(4)?,
                    rated_nanos: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn enter_ticket(&self, ticket: TicketRow) -> Result<(), StoreError> {
        self.write_directly(move |transaction| {
            let inserted = transaction
                .prepare_cached(&format!(
                    "INSERT INTO queue_tickets ({TICKET_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING"
                ))?
                .execute(params![
                    ticket.ticket_id,
                    ticket.bot_id,
                    ticket.pool,
                    ticket.terms,
                    ticket.entered_nanos,
                    ticket.state.code(),
                    ticket.match_id,
                ])?;
            if inserted == 0 {
                return Err(StoreError::Conflict(format!(
                    "bot `{}` already waits in pool `{}`",
                    ticket.bot_id, ticket.pool
                )));
            }
            Ok(())
        })
        .await
    }

    pub async fn leave_ticket(&self, ticket_id: String) -> Result<bool, StoreError> {
        self.write_directly(move |transaction| {
            let left = transaction
                .prepare_cached(
                    "UPDATE queue_tickets SET state = ?2 WHERE ticket_id = ?1 AND state = ?3",
                )?
                .execute(params![
                    ticket_id,
                    TicketState::Left.code(),
                    TicketState::Waiting.code()
                ])?;
            Ok(left > 0)
        })
        .await
    }

    pub async fn tickets(
        &self,
        bot_id: Option<String>,
        waiting_only: bool,
    ) -> Result<Vec<TicketRow>, StoreError> {
        let waiting = waiting_only.then_some(TicketState::Waiting.code());
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {TICKET_COLUMNS} FROM queue_tickets \
                 WHERE (?1 IS NULL OR bot_id = ?1) AND (?2 IS NULL OR state = ?2) \
                 ORDER BY pool, entered_nanos, ticket_id"
            ))?;
            let rows = statement
                .query_map(params![bot_id, waiting], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get::<_, i64>(5)?,
                        r.get(6)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(
                    |(ticket_id, bot_id, pool, terms, entered_nanos, state, match_id)| {
                        Ok(TicketRow {
                            ticket_id,
                            bot_id,
                            pool,
                            terms,
                            entered_nanos,
                            state: TicketState::from_code(state)?,
                            match_id,
                        })
                    },
                )
                .collect()
        })
        .await
    }

    pub async fn pair_tickets(&self, pairs: Vec<TicketPair>) -> Result<Vec<Paired>, StoreError> {
        self.write_directly(move |transaction| {
            pairs
                .iter()
                .map(|pair| pair_one(transaction, pair))
                .collect()
        })
        .await
    }
}

/// One pair, in the transaction of its cycle: it sees the pairs written before it.
fn pair_one(transaction: &Transaction<'_>, pair: &TicketPair) -> Result<Paired, StoreError> {
    for ticket in &pair.tickets {
        if !waiting(transaction, ticket)? {
            return Ok(Paired::TicketGone(ticket.clone()));
        }
    }
    if let Some(Resolved::OverCap { bot_id, load }) = over_cap(transaction, &pair.caps)? {
        return Ok(Paired::OverCap { bot_id, load });
    }
    insert_assigned(transaction, &pair.assigned)?;
    for ticket in &pair.tickets {
        transaction
            .prepare_cached(
                "UPDATE queue_tickets SET state = ?2, match_id = ?3 WHERE ticket_id = ?1",
            )?
            .execute(params![
                ticket,
                TicketState::Paired.code(),
                pair.assigned.match_id
            ])?;
    }
    Ok(Paired::Done)
}

fn waiting(transaction: &Transaction<'_>, ticket_id: &str) -> Result<bool, StoreError> {
    let state: Option<i64> = transaction
        .prepare_cached("SELECT state FROM queue_tickets WHERE ticket_id = ?1")?
        .query_row([ticket_id], |r| r.get(0))
        .optional()?;
    Ok(state == Some(TicketState::Waiting.code()))
}

/// Writes a follower step's ratings and rating changes (see `league.rs`).
pub(super) fn write_ratings(
    transaction: &Transaction<'_>,
    ratings: &[RatingRow],
    changes: &[RatingChangeRow],
) -> Result<(), StoreError> {
    for rating in ratings {
        transaction
            .prepare_cached(
                "INSERT INTO ratings (pool, bot_id, body) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (pool, bot_id) DO UPDATE SET body = excluded.body",
            )?
            .execute(params![rating.pool, rating.bot_id, rating.body])?;
    }
    for change in changes {
        transaction
            .prepare_cached(
                "INSERT INTO rating_changes (match_id, pool, bot_id, body, rated_nanos) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                change.match_id,
                change.pool,
                change.bot_id,
                change.body,
                change.rated_nanos
            ])?;
    }
    Ok(())
}
