//! Ratings, rating changes and queue tickets in PostgreSQL (see `ratings.rs` for what they
//! promise). Pairing locks both tickets' rows first, in ticket id order, so two servers pairing
//! one ticket take turns and the second finds it paired; then the bots' rows, as every
//! assignment does (see `matchmaking.rs`).

use tokio_postgres::{Row, Transaction};

use super::matchmaking::{insert_assigned, over_cap};
use super::{PostgresStore, within};
use crate::StoreError;
use crate::matchmaking::Resolved;
use crate::ratings::{Paired, RatingChangeRow, RatingRow, TicketPair, TicketRow, TicketState};

/// Schema 10. `number` is a sequence's, so numbers follow the order changes were written only
/// where their writers take turns: the leagues' follower writes them, one step at a time, under
/// its cursor's row lock.
pub(super) const RATINGS: &str = "
    CREATE TABLE ratings (
        pool TEXT COLLATE \"C\" NOT NULL,
        bot_id TEXT COLLATE \"C\" NOT NULL,
        body BYTEA NOT NULL,
        PRIMARY KEY (pool, bot_id)
    );
    CREATE INDEX ratings_by_bot ON ratings (bot_id);
    CREATE TABLE rating_changes (
        number BIGSERIAL PRIMARY KEY,
        match_id TEXT COLLATE \"C\" NOT NULL,
        pool TEXT COLLATE \"C\" NOT NULL,
        bot_id TEXT COLLATE \"C\" NOT NULL,
        body BYTEA NOT NULL,
        rated_nanos BIGINT NOT NULL,
        UNIQUE (match_id, bot_id)
    );
    CREATE INDEX rating_changes_by_bot ON rating_changes (bot_id, number);
    CREATE TABLE queue_tickets (
        ticket_id TEXT COLLATE \"C\" PRIMARY KEY,
        bot_id TEXT COLLATE \"C\" NOT NULL,
        pool TEXT COLLATE \"C\" NOT NULL,
        terms BYTEA NOT NULL,
        entered_nanos BIGINT NOT NULL,
        state BIGINT NOT NULL,
        match_id TEXT
    );
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

impl PostgresStore {
    pub async fn ratings(
        &self,
        pool: Option<String>,
        bot_id: Option<String>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let (pool, bot_id) = (&pool, &bot_id);
        self.reader
            .read(|client| async move {
                Ok(client
                    .query(
                        "SELECT pool, bot_id, body FROM ratings \
                         WHERE ($1::TEXT IS NULL OR pool = $1) \
                         AND ($2::TEXT IS NULL OR bot_id = $2) ORDER BY pool, bot_id",
                        &[pool, bot_id],
                    )
                    .await?
                    .iter()
                    .map(|r| RatingRow {
                        pool: r.get(0),
                        bot_id: r.get(1),
                        body: r.get(2),
                    })
                    .collect())
            })
            .await
    }

    pub async fn rating_changes(
        &self,
        bot_id: Option<String>,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        let bot_id = &bot_id;
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {CHANGE_COLUMNS} FROM rating_changes \
                     WHERE ($1::TEXT IS NULL OR bot_id = $1) AND number > $2 \
                     ORDER BY number LIMIT $3"
                );
                Ok(client
                    .query(&sql, &[bot_id, &after, &limit])
                    .await?
                    .iter()
                    .map(|r| RatingChangeRow {
                        number: r.get::<_, i64>(0) as u64,
                        match_id: r.get(1),
                        pool: r.get(2),
                        bot_id: r.get(3),
                        body: r.get(4),
                        rated_nanos: r.get(5),
                    })
                    .collect())
            })
            .await
    }

    pub async fn enter_ticket(&self, ticket: TicketRow) -> Result<(), StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            let inserted = client
                .execute(
                    &format!(
                        "INSERT INTO queue_tickets ({TICKET_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING"
                    ),
                    &[
                        &ticket.ticket_id,
                        &ticket.bot_id,
                        &ticket.pool,
                        &ticket.terms,
                        &ticket.entered_nanos,
                        &ticket.state.code(),
                        &ticket.match_id,
                    ],
                )
                .await?;
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

    pub async fn leave_ticket(&self, ticket_id: &str) -> Result<bool, StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            let left = client
                .execute(
                    "UPDATE queue_tickets SET state = $2 WHERE ticket_id = $1 AND state = $3",
                    &[
                        &ticket_id,
                        &TicketState::Left.code(),
                        &TicketState::Waiting.code(),
                    ],
                )
                .await?;
            Ok(left > 0)
        })
        .await
    }

    pub async fn tickets(
        &self,
        bot_id: Option<&str>,
        waiting_only: bool,
    ) -> Result<Vec<TicketRow>, StoreError> {
        let waiting = waiting_only.then_some(TicketState::Waiting.code());
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {TICKET_COLUMNS} FROM queue_tickets \
                     WHERE ($1::TEXT IS NULL OR bot_id = $1) AND ($2::BIGINT IS NULL OR state = $2) \
                     ORDER BY pool, entered_nanos, ticket_id"
                );
                client
                    .query(&sql, &[&bot_id, &waiting])
                    .await?
                    .iter()
                    .map(ticket_row)
                    .collect()
            })
            .await
    }

    pub async fn pair_tickets(&self, pairs: Vec<TicketPair>) -> Result<Vec<Paired>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            // Every ticket's row, then every bot's, each in id order: two servers pairing at
            // once take turns and never wait on each other.
            let mut tickets: Vec<&str> = pairs
                .iter()
                .flat_map(|p| p.tickets.iter().map(String::as_str))
                .collect();
            tickets.sort_unstable();
            transaction
                .query(
                    "SELECT ticket_id FROM queue_tickets WHERE ticket_id = ANY($1) \
                     ORDER BY ticket_id FOR UPDATE",
                    &[&tickets],
                )
                .await?;
            let mut bots: Vec<&str> = pairs
                .iter()
                .flat_map(|p| p.caps.iter().map(|c| c.bot_id.as_str()))
                .collect();
            bots.sort_unstable();
            transaction
                .query(
                    "SELECT bot_id FROM bots WHERE bot_id = ANY($1) ORDER BY bot_id FOR UPDATE",
                    &[&bots],
                )
                .await?;
            let mut outcomes = Vec::with_capacity(pairs.len());
            for pair in &pairs {
                outcomes.push(pair_one(&transaction, pair).await?);
            }
            transaction.commit().await?;
            Ok(outcomes)
        })
        .await
    }
}

/// One pair, in the transaction of its cycle: it sees the pairs written before it.
async fn pair_one(transaction: &Transaction<'_>, pair: &TicketPair) -> Result<Paired, StoreError> {
    for ticket in &pair.tickets {
        let state = transaction
            .query_opt(
                "SELECT state FROM queue_tickets WHERE ticket_id = $1",
                &[ticket],
            )
            .await?
            .map(|r| r.get::<_, i64>(0));
        if state != Some(TicketState::Waiting.code()) {
            return Ok(Paired::TicketGone(ticket.clone()));
        }
    }
    if let Some(Resolved::OverCap { bot_id, load }) = over_cap(transaction, &pair.caps).await? {
        return Ok(Paired::OverCap { bot_id, load });
    }
    insert_assigned(transaction, &pair.assigned).await?;
    transaction
        .execute(
            "UPDATE queue_tickets SET state = $2, match_id = $3 WHERE ticket_id = ANY($1)",
            &[
                &pair.tickets.to_vec(),
                &TicketState::Paired.code(),
                &pair.assigned.match_id,
            ],
        )
        .await?;
    Ok(Paired::Done)
}

fn ticket_row(r: &Row) -> Result<TicketRow, StoreError> {
    Ok(TicketRow {
        ticket_id: r.get(0),
        bot_id: r.get(1),
        pool: r.get(2),
        terms: r.get(3),
        entered_nanos: r.get(4),
        state: TicketState::from_code(r.get(5))?,
        match_id: r.get(6),
    })
}

/// Writes a follower step's ratings and rating changes (see `league.rs`).
pub(super) async fn write_ratings(
    transaction: &Transaction<'_>,
    ratings: &[RatingRow],
    changes: &[RatingChangeRow],
) -> Result<(), StoreError> {
    for rating in ratings {
        transaction
            .execute(
                "INSERT INTO ratings (pool, bot_id, body) VALUES ($1, $2, $3) \
                 ON CONFLICT (pool, bot_id) DO UPDATE SET body = EXCLUDED.body",
                &[&rating.pool, &rating.bot_id, &rating.body],
            )
            .await?;
    }
    for change in changes {
        transaction
            .execute(
                "INSERT INTO rating_changes (match_id, pool, bot_id, body, rated_nanos) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &change.match_id,
                    &change.pool,
                    &change.bot_id,
                    &change.body,
                    &change.rated_nanos,
                ],
            )
            .await?;
    }
    Ok(())
}
