//! The SQLite backend: one file in WAL mode, so readers never wait for the writer. rusqlite is
//! blocking, so every call runs on tokio's blocking pool, never on the async workers; the
//! writer and the reader each own a connection behind a mutex.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::{AnswerRow, EventRow, InputKind, InputRow, MatchRow, StoreError, StoredMatch, Write};

/// Each entry moves the schema one version up; the list only ever grows.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE matches (
        created INTEGER PRIMARY KEY,
        match_id TEXT NOT NULL UNIQUE,
        variant_id TEXT NOT NULL,
        status INTEGER NOT NULL,
        setup BLOB NOT NULL,
        summary BLOB NOT NULL
    );
    CREATE TABLE inputs (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        number INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        player_name TEXT NOT NULL,
        token_hash BLOB NOT NULL,
        action BLOB NOT NULL,
        PRIMARY KEY (match_id, number)
    ) WITHOUT ROWID;
    CREATE TABLE events (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        seq INTEGER NOT NULL,
        version INTEGER NOT NULL,
        time_nanos INTEGER NOT NULL,
        owner_seat INTEGER,
        owner_name TEXT NOT NULL,
        kind BLOB NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE answers (
        match_id TEXT NOT NULL REFERENCES matches (match_id),
        seat INTEGER NOT NULL,
        client_action_id TEXT NOT NULL,
        response BLOB NOT NULL,
        PRIMARY KEY (match_id, seat, client_action_id)
    ) WITHOUT ROWID;
"];

pub struct SqliteStore {
    writer: Arc<Mutex<Connection>>,
    reader: Arc<Mutex<Connection>>,
}

fn connect(path: &PathBuf) -> Result<Connection, StoreError> {
    let connection = Connection::open(path)?;
    // WAL: readers and the writer do not block each other. FULL: a commit is on disk (WAL
    // file synced) before it returns, which is what acknowledging an action promises.
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.pragma_update(None, "foreign_keys", true)?;
    // The hot pages of a thousand live matches' logs stay in memory (64 MiB rather than the
    // default 2 MiB) instead of being read back from the file for every batch.
    connection.pragma_update(None, "cache_size", -65_536)?;
    connection.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(connection)
}

fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let transaction = connection.transaction()?;
    transaction
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let found: i64 = transaction
        .query_row("SELECT version FROM schema_version", [], |row| row.get(0))
        .optional()?
        .unwrap_or(0);
    let known = MIGRATIONS.len() as i64;
    if found > known {
        return Err(StoreError::SchemaTooNew { found, known });
    }
    for migration in &MIGRATIONS[found as usize..] {
        transaction.execute_batch(migration)?;
    }
    transaction.execute("DELETE FROM schema_version", [])?;
    transaction.execute("INSERT INTO schema_version (version) VALUES (?1)", [known])?;
    transaction.commit()?;
    Ok(())
}

/// Runs `work` on the blocking pool with the connection behind `connection`.
async fn blocking<T: Send + 'static>(
    connection: &Arc<Mutex<Connection>>,
    work: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let connection = Arc::clone(connection);
    tokio::task::spawn_blocking(move || {
        let mut connection = connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        work(&mut connection)
    })
    .await
    .map_err(|error| StoreError::Database(format!("sqlite task: {error}")))?
}

impl SqliteStore {
    pub async fn open(path: PathBuf) -> Result<Self, StoreError> {
        tokio::task::spawn_blocking(move || {
            let mut writer = connect(&path)?;
            migrate(&mut writer)?;
            let reader = connect(&path)?;
            Ok(Self {
                writer: Arc::new(Mutex::new(writer)),
                reader: Arc::new(Mutex::new(reader)),
            })
        })
        .await
        .map_err(|error| StoreError::Database(format!("sqlite task: {error}")))?
    }

    pub async fn commit(&self, batch: Vec<Write>) -> Result<(), StoreError> {
        blocking(&self.writer, move |connection| {
            let transaction = connection.transaction()?;
            for write in &batch {
                write_one(&transaction, write)?;
            }
            transaction.commit()?;
            Ok(())
        })
        .await
    }

    pub async fn matches(&self) -> Result<Vec<MatchRow>, StoreError> {
        blocking(&self.reader, |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT match_id, variant_id, status, setup, summary FROM matches ORDER BY created",
            )?;
            let rows = statement.query_map([], match_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn load(&self, match_id: String) -> Result<Option<StoredMatch>, StoreError> {
        blocking(&self.reader, move |connection| {
            // One read transaction: a consistent picture while the writer goes on.
            let transaction = connection.transaction()?;
            let row = transaction
                .query_row(
                    "SELECT match_id, variant_id, status, setup, summary FROM matches \
                     WHERE match_id = ?1",
                    [&match_id],
                    match_row,
                )
                .optional()?;
            let Some(row) = row else {
                return Ok(None);
            };
            let inputs = transaction
                .prepare_cached(
                    "SELECT number, kind, seat, player_name, token_hash, action FROM inputs \
                     WHERE match_id = ?1 ORDER BY number",
                )?
                .query_map([&match_id], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ))
                })?
                .map(|r| {
                    let (number, kind, seat, player_name, token_hash, action) = r?;
                    Ok(InputRow {
                        number: number as u64,
                        kind: InputKind::from_code(kind)?,
                        seat: seat as u8,
                        player_name,
                        token_hash,
                        action,
                    })
                })
                .collect::<Result<_, StoreError>>()?;
            let events = transaction
                .prepare_cached(
                    "SELECT seq, version, time_nanos, owner_seat, owner_name, kind FROM events \
                     WHERE match_id = ?1 ORDER BY seq",
                )?
                .query_map([&match_id], |r| {
                    Ok(EventRow {
                        seq: r.get::<_, i64>(0)? as u64,
                        version: r.get::<_, i64>(1)? as u64,
                        time_nanos: r.get(2)?,
                        owner_seat: r.get::<_, Option<i64>>(3)?.map(|s| s as u8),
                        owner_name: r.get(4)?,
                        kind: r.get(5)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            let answers = transaction
                .prepare_cached(
                    "SELECT seat, client_action_id, response FROM answers WHERE match_id = ?1",
                )?
                .query_map([&match_id], |r| {
                    Ok(AnswerRow {
                        seat: r.get::<_, i64>(0)? as u8,
                        client_action_id: r.get(1)?,
                        response: r.get(2)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(Some(StoredMatch {
                row,
                inputs,
                events,
                answers,
            }))
        })
        .await
    }

    /// Folds the write-ahead log into the database file, so the data directory is one file
    /// again after a clean stop.
    pub async fn close(&self) -> Result<(), StoreError> {
        blocking(&self.writer, |connection| {
            connection.pragma_update(None, "wal_checkpoint", "TRUNCATE")?;
            Ok(())
        })
        .await
    }
}

fn match_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<MatchRow> {
    Ok(MatchRow {
        match_id: row.get(0)?,
        variant_id: row.get(1)?,
        status: row.get(2)?,
        setup: row.get(3)?,
        summary: row.get(4)?,
    })
}

fn write_one(transaction: &Transaction<'_>, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Create { row, events } => {
            transaction
                .prepare_cached(
                    "INSERT INTO matches (match_id, variant_id, status, setup, summary) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    row.match_id,
                    row.variant_id,
                    row.status,
                    row.setup,
                    row.summary
                ])?;
            insert_events(transaction, &row.match_id, events)
        }
        Write::Append(append) => {
            let mut insert = transaction.prepare_cached(
                "INSERT INTO inputs (match_id, number, kind, seat, player_name, token_hash, \
                 action) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for input in &append.inputs {
                insert.execute(params![
                    append.match_id,
                    input.number as i64,
                    input.kind.code(),
                    i64::from(input.seat),
                    input.player_name,
                    input.token_hash,
                    input.action
                ])?;
            }
            insert_events(transaction, &append.match_id, &append.events)?;
            if let Some(answer) = &append.answer {
                transaction
                    .prepare_cached(
                        "INSERT INTO answers (match_id, seat, client_action_id, response) \
                         VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![
                        append.match_id,
                        i64::from(answer.seat),
                        answer.client_action_id,
                        answer.response
                    ])?;
            }
            if let Some(change) = &append.status {
                transaction
                    .prepare_cached(
                        "UPDATE matches SET status = ?2, summary = ?3 WHERE match_id = ?1",
                    )?
                    .execute(params![append.match_id, change.status, change.summary])?;
            }
            Ok(())
        }
    }
}

fn insert_events(
    transaction: &Transaction<'_>,
    match_id: &str,
    events: &[EventRow],
) -> Result<(), StoreError> {
    let mut insert = transaction.prepare_cached(
        "INSERT INTO events (match_id, seq, version, time_nanos, owner_seat, owner_name, kind) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for event in events {
        insert.execute(params![
            match_id,
            event.seq as i64,
            event.version as i64,
            event.time_nanos,
            event.owner_seat.map(i64::from),
            event.owner_name,
            event.kind
        ])?;
    }
    Ok(())
}
