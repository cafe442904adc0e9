//! Inboxes, bots' seats and follower cursors in PostgreSQL (see `league.rs` for what they
//! promise). Several servers may share the database, so every rule holds by row locks taken in
//! the writing statements themselves, never by reading first: the claim on the cursor row (two
//! servers applying one step take turns there, and the second finds it taken) and the increment
//! of each inbox head (two appends to one bot take turns there, and the second counts on from
//! the first). Under read committed, an `ON CONFLICT DO UPDATE` that waited for another
//! transaction works on the row as that one committed it.
//!
//! Ids compare byte by byte (`COLLATE "C"`), as SQLite's do, so orders are the same whatever
//! the database's locale. Unsigned 32-bit kinds are kept as `BIGINT`, which holds them all.

use std::collections::HashMap;

use tokio_postgres::{Row, Transaction};

use super::{PostgresStore, within};
use crate::StoreError;
use crate::league::{
    BotSeatRow, FollowerStep, InboxRow, NewInboxItem, bounds, column, items_per_bot, numbered,
};
use crate::matchmaking::AssignedState;

/// Schema 8. `bot_seats_live` holds only the live seats, so counting them reads about as many
/// rows as there are, however many ended seats pile up; `bot_seats_by_bot` serves a bot's
/// seats, ended ones too.
pub(super) const LEAGUE: &str = "
    CREATE TABLE follower_cursors (
        follower TEXT PRIMARY KEY,
        position BIGINT NOT NULL
    );
    CREATE TABLE inbox_heads (
        bot_id TEXT PRIMARY KEY,
        last_seq BIGINT NOT NULL
    );
    CREATE TABLE inbox_items (
        bot_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        kind BIGINT NOT NULL,
        body BYTEA NOT NULL,
        time_nanos BIGINT NOT NULL,
        PRIMARY KEY (bot_id, seq)
    );
    CREATE INDEX inbox_items_by_time ON inbox_items (time_nanos);
    CREATE TABLE bot_seats (
        bot_id TEXT COLLATE \"C\" NOT NULL,
        match_id TEXT COLLATE \"C\" NOT NULL,
        seat TEXT COLLATE \"C\" NOT NULL,
        variant_id TEXT NOT NULL,
        time_nanos BIGINT NOT NULL,
        live BOOLEAN NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX bot_seats_by_bot ON bot_seats (bot_id, live);
    CREATE INDEX bot_seats_live ON bot_seats (bot_id) WHERE live;
";

const INBOX_COLUMNS: &str = "bot_id, seq, kind, body, time_nanos";
const SEAT_COLUMNS: &str = "bot_id, match_id, seat, variant_id, time_nanos, live";

impl PostgresStore {
    pub async fn apply_follower_step(
        &self,
        step: FollowerStep,
    ) -> Result<Vec<InboxRow>, StoreError> {
        let position = column(step.position, "the position")?;
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            // The claim: raises the cursor, or changes nothing when it is there already. It
            // holds the cursor row until the commit; a server applying the same step meanwhile
            // waits, then finds the position taken.
            let claimed = transaction
                .execute(
                    "INSERT INTO follower_cursors (follower, position) VALUES ($1, $2) \
                     ON CONFLICT (follower) DO UPDATE SET position = EXCLUDED.position \
                     WHERE follower_cursors.position < EXCLUDED.position",
                    &[&step.follower, &position],
                )
                .await?;
            if claimed == 0 {
                return Ok(Vec::new());
            }
            if !step.seats_taken.is_empty() {
                let seats = &step.seats_taken;
                let bots: Vec<&str> = seats.iter().map(|s| s.bot_id.as_str()).collect();
                let matches: Vec<&str> = seats.iter().map(|s| s.match_id.as_str()).collect();
                let names: Vec<&str> = seats.iter().map(|s| s.seat.as_str()).collect();
                let variants: Vec<&str> = seats.iter().map(|s| s.variant_id.as_str()).collect();
                let times: Vec<i64> = seats.iter().map(|s| s.time_nanos).collect();
                transaction
                    .execute(
                        "INSERT INTO bot_seats (bot_id, match_id, seat, variant_id, time_nanos, \
                         live) SELECT *, true FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[], \
                         $4::TEXT[], $5::BIGINT[]) ON CONFLICT DO NOTHING",
                        &[&bots, &matches, &names, &variants, &times],
                    )
                    .await?;
            }
            if !step.matches_over.is_empty() {
                transaction
                    .execute(
                        "UPDATE bot_seats SET live = false WHERE match_id = ANY($1) AND live",
                        &[&step.matches_over],
                    )
                    .await?;
                transaction
                    .execute(
                        "UPDATE assigned_matches SET state = $2 \
                         WHERE match_id = ANY($1) AND state < $2",
                        &[&step.matches_over, &AssignedState::Over.code()],
                    )
                    .await?;
            }
            super::ratings::write_ratings(&transaction, &step.ratings, &step.rating_changes)
                .await?;
            // Game rows, then log heads, then inbox heads: the order of every tournament write
            // (see `tournaments.rs`).
            super::tournaments::record_results(&transaction, &self.changes, &step.game_results)
                .await?;
            super::tournaments::append_log(&transaction, &self.changes, step.tournament_log)
                .await?;
            let rows = append(&transaction, &self.changes, step.inbox).await?;
            transaction.commit().await?;
            Ok(rows)
        })
        .await
    }

    pub async fn append_inbox(
        &self,
        items: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let rows = append(&transaction, &self.changes, items).await?;
            transaction.commit().await?;
            Ok(rows)
        })
        .await
    }

    pub async fn prune_inbox(&self, before_time_nanos: i64) -> Result<u64, StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            Ok(client
                .execute(
                    "DELETE FROM inbox_items WHERE time_nanos < $1",
                    &[&before_time_nanos],
                )
                .await?)
        })
        .await
    }

    pub async fn follower_cursor(&self, follower: &str) -> Result<u64, StoreError> {
        self.reader
            .read(|client| async move {
                let position = client
                    .query_opt(
                        "SELECT position FROM follower_cursors WHERE follower = $1",
                        &[&follower],
                    )
                    .await?
                    .map_or(0, |row| row.get::<_, i64>(0));
                Ok(position as u64)
            })
            .await
    }

    pub async fn inbox_after(
        &self,
        bot_id: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {INBOX_COLUMNS} FROM inbox_items WHERE bot_id = $1 AND seq > $2 \
                     ORDER BY seq LIMIT $3"
                );
                client
                    .query(&sql, &[&bot_id, &after, &limit])
                    .await?
                    .iter()
                    .map(inbox_row)
                    .collect()
            })
            .await
    }

    pub async fn inbox_bounds(&self, bot_id: &str) -> Result<(u64, u64), StoreError> {
        self.reader
            .read(|client| async move {
                // One statement, so both numbers come from one snapshot.
                let row = client
                    .query_one(
                        "SELECT (SELECT last_seq FROM inbox_heads WHERE bot_id = $1), \
                                (SELECT MIN(seq) FROM inbox_items WHERE bot_id = $1)",
                        &[&bot_id],
                    )
                    .await?;
                Ok(bounds(row.get(0), row.get(1)))
            })
            .await
    }

    pub async fn bot_seats(
        &self,
        bot_id: &str,
        live_only: bool,
    ) -> Result<Vec<BotSeatRow>, StoreError> {
        let live = if live_only { " AND live" } else { "" };
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {SEAT_COLUMNS} FROM bot_seats WHERE bot_id = $1{live} \
                     ORDER BY time_nanos, match_id, seat"
                );
                Ok(client
                    .query(&sql, &[&bot_id])
                    .await?
                    .iter()
                    .map(|r| BotSeatRow {
                        bot_id: r.get(0),
                        match_id: r.get(1),
                        seat: r.get(2),
                        variant_id: r.get(3),
                        time_nanos: r.get(4),
                        live: r.get(5),
                    })
                    .collect())
            })
            .await
    }

    pub async fn live_seat_counts(&self) -> Result<Vec<(String, u64)>, StoreError> {
        self.reader
            .read(|client| async move {
                Ok(client
                    .query(
                        "SELECT bot_id, COUNT(*) FROM bot_seats WHERE live \
                         GROUP BY bot_id ORDER BY bot_id",
                        &[],
                    )
                    .await?
                    .iter()
                    .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
                    .collect())
            })
            .await
    }
}

/// Appends `items` to their bots' inboxes: each bot's head moves past its items, which take
/// the seqs it moved over. The heads move in one statement, row by row in the order of the
/// arrays, which [`items_per_bot`] sorted.
pub(super) async fn append(
    transaction: &Transaction<'_>,
    changes: &super::changes::Changes,
    items: Vec<NewInboxItem>,
) -> Result<Vec<InboxRow>, StoreError> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let counts = items_per_bot(&items);
    let bots: Vec<&str> = counts.keys().map(String::as_str).collect();
    let added: Vec<i64> = counts.values().copied().collect();
    let lasts: HashMap<String, i64> = transaction
        .query(
            "INSERT INTO inbox_heads (bot_id, last_seq) \
             SELECT * FROM unnest($1::TEXT[], $2::BIGINT[]) \
             ON CONFLICT (bot_id) DO UPDATE \
             SET last_seq = inbox_heads.last_seq + EXCLUDED.last_seq \
             RETURNING bot_id, last_seq",
            &[&bots, &added],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let rows = numbered(items, &counts, &lasts)?;
    let mut bot_ids = Vec::with_capacity(rows.len());
    let mut seqs = Vec::with_capacity(rows.len());
    let mut kinds = Vec::with_capacity(rows.len());
    let mut bodies = Vec::with_capacity(rows.len());
    let mut times = Vec::with_capacity(rows.len());
    for row in &rows {
        bot_ids.push(row.bot_id.as_str());
        seqs.push(row.seq as i64);
        kinds.push(i64::from(row.kind));
        bodies.push(row.body.as_slice());
        times.push(row.time_nanos);
    }
    transaction
        .execute(
            "INSERT INTO inbox_items (bot_id, seq, kind, body, time_nanos) \
             SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::BIGINT[], $4::BYTEA[], \
                                  $5::BIGINT[])",
            &[&bot_ids, &seqs, &kinds, &bodies, &times],
        )
        .await?;
    changes.inbox(transaction, &rows).await?;
    Ok(rows)
}

fn inbox_row(row: &Row) -> Result<InboxRow, StoreError> {
    let kind: i64 = row.get(2);
    Ok(InboxRow {
        bot_id: row.get(0),
        seq: row.get::<_, i64>(1) as u64,
        kind: u32::try_from(kind).map_err(|_| {
            StoreError::Database(format!("inbox kind {kind} is not a 32-bit unsigned number"))
        })?,
        body: row.get(3),
        time_nanos: row.get(4),
    })
}
