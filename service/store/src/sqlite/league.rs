//! Inboxes, bots' seats and follower cursors in SQLite (see `league.rs` for what they promise).

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use super::{SqliteStore, blocking};
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
        follower TEXT NOT NULL PRIMARY KEY,
        position INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE inbox_heads (
        bot_id TEXT NOT NULL PRIMARY KEY,
        last_seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE inbox_items (
        bot_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        body BLOB NOT NULL,
        time_nanos INTEGER NOT NULL,
        PRIMARY KEY (bot_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX inbox_items_by_time ON inbox_items (time_nanos);
    CREATE TABLE bot_seats (
        bot_id TEXT NOT NULL,
        match_id TEXT NOT NULL,
        seat TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        time_nanos INTEGER NOT NULL,
        live INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX bot_seats_by_bot ON bot_seats (bot_id, live);
    CREATE INDEX bot_seats_live ON bot_seats (bot_id) WHERE live;
";

const INBOX_COLUMNS: &str = "bot_id, seq, kind, body, time_nanos";
const SEAT_COLUMNS: &str = "bot_id, match_id, seat, variant_id, time_nanos, live";

impl SqliteStore {
    pub async fn apply_follower_step(
        &self,
        step: FollowerStep,
    ) -> Result<Vec<InboxRow>, StoreError> {
        let position = column(step.position, "the position")?;
        self.write_directly(move |transaction| {
            // The claim: raises the cursor, or changes nothing when it is there already.
            let claimed = transaction
                .prepare_cached(
                    "INSERT INTO follower_cursors (follower, position) VALUES (?1, ?2) \
                     ON CONFLICT (follower) DO UPDATE SET position = excluded.position \
                     WHERE position < excluded.position",
                )?
                .execute(params![step.follower, position])?;
            if claimed == 0 {
                return Ok(Vec::new());
            }
            for seat in &step.seats_taken {
                transaction
                    .prepare_cached(
                        "INSERT INTO bot_seats (bot_id, match_id, seat, variant_id, time_nanos, \
                         live) VALUES (?1, ?2, ?3, ?4, ?5, 1) ON CONFLICT DO NOTHING",
                    )?
                    .execute(params![
                        seat.bot_id,
                        seat.match_id,
                        seat.seat,
                        seat.variant_id,
                        seat.time_nanos,
                    ])?;
            }
            for match_id in &step.matches_over {
                transaction
                    .prepare_cached("UPDATE bot_seats SET live = 0 WHERE match_id = ?1 AND live")?
                    .execute([match_id])?;
                transaction
                    .prepare_cached(
                        "UPDATE assigned_matches SET state = ?2 WHERE match_id = ?1 AND state < ?2",
                    )?
                    .execute(params![match_id, AssignedState::Over.code()])?;
            }
            super::ratings::write_ratings(transaction, &step.ratings, &step.rating_changes)?;
            super::tournaments::record_results(transaction, &step.game_results)?;
            super::tournaments::append_log(transaction, step.tournament_log)?;
            append(transaction, step.inbox)
        })
        .await
    }

    pub async fn append_inbox(
        &self,
        items: Vec<NewInboxItem>,
    ) -> Result<Vec<InboxRow>, StoreError> {
        self.write_directly(move |transaction| append(transaction, items))
            .await
    }

    pub async fn prune_inbox(&self, before_time_nanos: i64) -> Result<u64, StoreError> {
        self.write_directly(move |transaction| {
            let pruned = transaction
                .prepare_cached("DELETE FROM inbox_items WHERE time_nanos < ?1")?
                .execute([before_time_nanos])?;
            Ok(pruned as u64)
        })
        .await
    }

    pub async fn follower_cursor(&self, follower: String) -> Result<u64, StoreError> {
        blocking(&self.reader, move |connection| {
            let position: Option<i64> = connection
                .prepare_cached("SELECT position FROM follower_cursors WHERE follower = ?1")?
                .query_row([follower], |r| r.get(0))
                .optional()?;
            Ok(position.unwrap_or(0) as u64)
        })
        .await
    }

    pub async fn inbox_after(
        &self,
        bot_id: String,
        after: i64,
        limit: i64,
    ) -> Result<Vec<InboxRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {INBOX_COLUMNS} FROM inbox_items WHERE bot_id = ?1 AND seq > ?2 \
                 ORDER BY seq LIMIT ?3"
            ))?;
            let rows = statement.query_map(params![bot_id, after, limit], inbox_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn inbox_bounds(&self, bot_id: String) -> Result<(u64, u64), StoreError> {
        blocking(&self.reader, move |connection| {
            // One statement, so both numbers come from one snapshot.
            let (last, oldest) = connection
                .prepare_cached(
                    "SELECT (SELECT last_seq FROM inbox_heads WHERE bot_id = ?1), \
                            (SELECT MIN(seq) FROM inbox_items WHERE bot_id = ?1)",
                )?
                .query_row([bot_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(bounds(last, oldest))
        })
        .await
    }

    pub async fn bot_seats(
        &self,
        bot_id: String,
        live_only: bool,
    ) -> Result<Vec<BotSeatRow>, StoreError> {
        let live = if live_only { " AND live" } else { "" };
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {SEAT_COLUMNS} FROM bot_seats WHERE bot_id = ?1{live} \
                 ORDER BY time_nanos, match_id, seat"
            ))?;
            let rows = statement.query_map([bot_id], |r| {
                Ok(BotSeatRow {
                    bot_id: r.get(0)?,
                    match_id: r.get(1)?,
                    seat: r.get(2)?,
                    variant_id: r.get(3)?,
                    time_nanos: r.get(4)?,
                    live: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn live_seat_counts(&self) -> Result<Vec<(String, u64)>, StoreError> {
        blocking(&self.reader, |connection| {
            // Named, since SQLite without statistics (no ANALYZE runs here) would rather scan
            // the whole of `bot_seats_by_bot`, ended seats and all.
            let mut statement = connection.prepare_cached(
                "SELECT bot_id, COUNT(*) FROM bot_seats INDEXED BY bot_seats_live WHERE live \
                 GROUP BY bot_id ORDER BY bot_id",
            )?;
            let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// Appends `items` to their bots' inboxes: each bot's head moves past its items, which take
/// the seqs it moved over.
pub(super) fn append(
    transaction: &Transaction<'_>,
    items: Vec<NewInboxItem>,
) -> Result<Vec<InboxRow>, StoreError> {
    let counts = items_per_bot(&items);
    let mut lasts = HashMap::with_capacity(counts.len());
    for (bot_id, count) in &counts {
        let last: i64 = transaction
            .prepare_cached(
                "INSERT INTO inbox_heads (bot_id, last_seq) VALUES (?1, ?2) \
                 ON CONFLICT (bot_id) DO UPDATE SET last_seq = last_seq + excluded.last_seq \
                 RETURNING last_seq",
            )?
            .query_row(params![bot_id, count], |r| r.get(0))?;
        lasts.insert(bot_id.clone(), last);
    }
    let rows = numbered(items, &counts, &lasts)?;
    for row in &rows {
        transaction
            .prepare_cached(
                "INSERT INTO inbox_items (bot_id, seq, kind, body, time_nanos) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                row.bot_id,
                row.seq as i64,
                row.kind,
                row.body,
                row.time_nanos
            ])?;
    }
    Ok(rows)
}

fn inbox_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<InboxRow> {
    Ok(InboxRow {
        bot_id: row.get(0)?,
        seq: row.get::<_, i64>(1)? as u64,
        kind: row.get(2)?,
        body: row.get(3)?,
        time_nanos: row.get(4)?,
    })
}
