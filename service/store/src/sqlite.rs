//! The SQLite backend: one file in WAL mode, so readers never wait for the writer. rusqlite is
//! blocking, so every call runs on tokio's blocking pool, never on the async workers; the
//! writer and the reader each own a connection behind a mutex.
//!
//! Layout (schema 2): `matches` as before; `appends`, one row per accepted command (its
//! inputs, events and answer packed into one value), keyed by a global number in the order
//! written; and `tails`, one small row per match saying where its log stands, including the
//! row of its last append. Each append links back to its match's previous one, so loading a
//! match walks that chain from its tail. SQLite writes every page a transaction changes whole
//! to the write-ahead log (and again at the checkpoint), so what a batch costs is the number of
//! pages it touches: here its appends fill fresh pages one after another at the end of one
//! B-tree, and the tails of a thousand matches share a few pages. Keyed by match instead, a
//! batch from a thousand matches touches a page per match (schema 1, with inputs, events and
//! answers in three tables keyed by the match's text id, three or more).

mod accounts;
mod league;
mod leases;
mod matchmaking;
mod ratings;
mod tournaments;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::packed::{Packed, Tail, Unpacked};
use super::{
    AnswerRow, EventRow, InputKind, InputRow, LifecycleRow, ListedRow, Listing, MatchRow,
    StoreError, StoredMatch, Write,
};
use crate::leases::{Admitted, Committed, admit, fenced_leases};

/// Schema 1: a row per input, per event and per answer.
pub(super) const ROW_PER_ITEM: &str = "
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
";

/// Schema 2's new tables. Each foreign key costs a lookup of an integer primary key on pages
/// that are in the cache (the match's row, or the append just written), and none needs an
/// index of its own since no parent row is ever deleted or re-keyed: cheap, so they stay.
const APPENDS: &str = "
    CREATE TABLE appends (
        id INTEGER PRIMARY KEY,
        match_key INTEGER NOT NULL REFERENCES matches (created),
        previous INTEGER REFERENCES appends (id),
        body BLOB NOT NULL
    );
    CREATE TABLE tails (
        match_key INTEGER PRIMARY KEY REFERENCES matches (created),
        appends INTEGER NOT NULL,
        last INTEGER REFERENCES appends (id),
        next_input INTEGER NOT NULL,
        next_seq INTEGER NOT NULL
    );
";

/// Schema 3: the lifecycle feed, one row per entry in the order committed.
const LIFECYCLE: &str = "
    CREATE TABLE lifecycle (
        position INTEGER PRIMARY KEY,
        match_id TEXT NOT NULL,
        variant_id TEXT NOT NULL,
        time_nanos INTEGER NOT NULL,
        body BLOB NOT NULL
    );
";

/// Schema 5: listings read from the store, filtered by status, variant or player, newest first.
const LISTINGS: &str = "
    CREATE INDEX matches_by_status ON matches (status, created);
    CREATE INDEX matches_by_variant ON matches (variant_id, created);
    CREATE TABLE players (
        player_name TEXT NOT NULL,
        match_key INTEGER NOT NULL REFERENCES matches (created),
        PRIMARY KEY (player_name, match_key)
    ) WITHOUT ROWID;
";

enum Migration {
    /// Statements run as they are.
    Sql(&'static str),
    /// Schema 2: `appends` and `tails` replace `inputs`, `events` and `answers`, each match's
    /// rows moved into one append.
    OneRowPerAppend,
    /// Schema 4: appends written from here on may hold actions and events in the match core's
    /// own format rather than wire messages (see `hosting::durable`). The tables stay as they
    /// are; the version keeps an older server, which could not read such rows, from opening
    /// the database.
    RowsInOwnFormat,
    /// Schema 5: [`LISTINGS`], the players of the matches stored so far read from their
    /// appends.
    Listings,
    /// Schema 6: summaries written from here on are in the match core's own format, setups
    /// in its own schema (which reads every setup stored before). As with schema 4, only the
    /// version changes, to keep older servers out.
    SummariesInOwnFormat,
}

/// Each entry moves the schema one version up; the list only ever grows.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(ROW_PER_ITEM),
    Migration::OneRowPerAppend,
    Migration::Sql(LIFECYCLE),
    Migration::RowsInOwnFormat,
    Migration::Listings,
    Migration::SummariesInOwnFormat,
    Migration::Sql(accounts::ACCOUNTS),
    Migration::Sql(league::LEAGUE),
    Migration::Sql(matchmaking::MATCHMAKING),
    Migration::Sql(ratings::RATINGS),
    Migration::Sql(ratings::SEATS_BY_TIME),
    Migration::Sql(tournaments::TOURNAMENTS),
    Migration::Sql(leases::LEASES),
];

/// The schema version [`MIGRATIONS`] lead to: what this server writes.
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How often, at most, the writer folds the write-ahead log into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// The most match tails the writer remembers; past that it forgets them all and reads each
/// again from its last row when next written to.
const TAILS_KEPT: usize = 65_536;

pub struct SqliteStore {
    writer: Arc<Mutex<Writer>>,
    reader: Arc<Mutex<Connection>>,
    /// When the write-ahead log was last folded into the database file.
    checkpointed: Mutex<Instant>,
}

struct Writer {
    connection: Connection,
    /// Where each match written to lately stands. This connection is the file's only writer,
    /// so a remembered tail stays true (one last moved under another fencing token than a
    /// write's is read again all the same, as in PostgreSQL); after a failed transaction they
    /// are all forgotten.
    tails: HashMap<String, Tail>,
}

pub(super) fn connect(path: &PathBuf) -> Result<Connection, StoreError> {
    let connection = Connection::open(path)?;
    // WAL: readers and the writer do not block each other. FULL: a commit is on disk (WAL
    // file synced) before it returns, which is what acknowledging an action promises.
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.pragma_update(None, "foreign_keys", true)?;
    // Up to 16 MiB of pages per connection (the default is 2 MiB): what a thousand live
    // matches write to (the end of the appends, their tails, their rows) stays in memory. 64 MiB
    // served Play no faster, and a server that has stored many matches kept all of it.
    connection.pragma_update(None, "cache_size", -16_384)?;
    connection.busy_timeout(Duration::from_secs(5))?;
    Ok(connection)
}

/// SQLite takes an empty file for an empty database, but one this server opened is never empty
/// (switching to WAL writes its first page at once): an empty file is a truncated or half-copied
/// store, and starting on it would look like every match was lost.
pub(super) fn refuse_empty_file(path: &PathBuf) -> Result<(), StoreError> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.len() == 0 => Err(StoreError::Database(format!(
            "the store file {} is empty (0 bytes), so it was truncated or copied incompletely; \
             restore it from a backup, or move it away to start with no matches",
            path.display()
        ))),
        _ => Ok(()),
    }
}

pub(super) fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let transaction = connection.transaction()?;
    transaction
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let found: i64 = transaction
        .query_row("SELECT version FROM schema_version", [], |row| row.get(0))
        .optional()?
        .unwrap_or(0);
    let known = SCHEMA_VERSION;
    if found > known {
        return Err(StoreError::SchemaTooNew { found, known });
    }
    for migration in &MIGRATIONS[found as usize..] {
        match migration {
            Migration::Sql(statements) => transaction.execute_batch(statements)?,
            Migration::OneRowPerAppend => one_row_per_append(&transaction)?,
            Migration::RowsInOwnFormat | Migration::SummariesInOwnFormat => {}
            Migration::Listings => {
                transaction.execute_batch(LISTINGS)?;
                players_of_stored_matches(&transaction)?;
            }
        }
    }
    transaction.execute("DELETE FROM schema_version", [])?;
    transaction.execute("INSERT INTO schema_version (version) VALUES (?1)", [known])?;
    transaction.commit()?;
    Ok(())
}

/// Schema 5: the players of every match stored so far, from the joins in its appends.
fn players_of_stored_matches(transaction: &Transaction<'_>) -> Result<(), StoreError> {
    let matches: Vec<(i64, String)> = transaction
        .prepare("SELECT created, match_id FROM matches")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (key, match_id) in matches {
        let mut unpacked = Unpacked::default();
        let bodies: Vec<Vec<u8>> = transaction
            .prepare_cached("SELECT body FROM appends WHERE match_key = ?1 ORDER BY id")?
            .query_map([key], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for body in &bodies {
            unpacked.add(&match_id, body)?;
        }
        insert_players(transaction, key, &unpacked.inputs)?;
    }
    Ok(())
}

/// The names of the players an append's inputs seated, for listings by player.
fn insert_players(
    transaction: &Transaction<'_>,
    key: i64,
    inputs: &[InputRow],
) -> Result<(), StoreError> {
    for input in inputs {
        if input.kind == InputKind::Joined && !input.player_name.is_empty() {
            transaction
                .prepare_cached(
                    "INSERT OR IGNORE INTO players (player_name, match_key) VALUES (?1, ?2)",
                )?
                .execute(params![input.player_name, key])?;
        }
    }
    Ok(())
}

/// Schema 1 to 2: every match's inputs, events and answers become one append, in the order
/// schema 1 loaded them (answers by seat and client action id), so loading gives what it gave
/// before; later appends link back to it.
fn one_row_per_append(transaction: &Transaction<'_>) -> Result<(), StoreError> {
    transaction.execute_batch(APPENDS)?;
    let matches: Vec<(i64, String)> = transaction
        .prepare("SELECT created, match_id FROM matches ORDER BY created")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (key, match_id) in matches {
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
                    account: String::new(),
                    action,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
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
                    hidden_step: false,
                    kind: r.get(5)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let answers = transaction
            .prepare_cached(
                "SELECT seat, client_action_id, response FROM answers WHERE match_id = ?1 \
                 ORDER BY seat, client_action_id",
            )?
            .query_map([&match_id], |r| {
                Ok(AnswerRow {
                    seat: r.get::<_, i64>(0)? as u8,
                    client_action_id: r.get(1)?,
                    response: r.get(2)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut tail = Tail::new(key);
        insert_tail(transaction, &tail)?;
        if inputs.is_empty() && events.is_empty() && answers.is_empty() {
            continue;
        }
        let packed = tail.pack(&match_id, inputs, events, answers)?;
        insert_append(transaction, &mut tail, &packed)?;
    }
    transaction.execute_batch("DROP TABLE answers; DROP TABLE events; DROP TABLE inputs;")?;
    Ok(())
}

/// Runs `work` on the blocking pool with what `shared` guards.
async fn blocking<C: Send + 'static, T: Send + 'static>(
    shared: &Arc<Mutex<C>>,
    work: impl FnOnce(&mut C) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let shared = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        let mut guard = shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        work(&mut guard)
    })
    .await
    .map_err(|error| StoreError::Database(format!("sqlite task: {error}")))?
}

impl SqliteStore {
    pub async fn open(path: PathBuf) -> Result<Self, StoreError> {
        tokio::task::spawn_blocking(move || {
            refuse_empty_file(&path)?;
            let mut connection = connect(&path)?;
            // No checkpoint inside a commit (SQLite's default, once the log holds 1,000
            // pages): the write loop asks for one after answering a batch's callers, see
            // `checkpoint_if_due`.
            connection.pragma_update(None, "wal_autocheckpoint", 0)?;
            migrate(&mut connection)?;
            let reader = connect(&path)?;
            Ok(Self {
                writer: Arc::new(Mutex::new(Writer {
                    connection,
                    tails: HashMap::new(),
                })),
                reader: Arc::new(Mutex::new(reader)),
                checkpointed: Mutex::new(Instant::now()),
            })
        })
        .await
        .map_err(|error| StoreError::Database(format!("sqlite task: {error}")))?
    }

    pub async fn commit(
        &self,
        batch: Vec<Write>,
        first_position: u64,
    ) -> Result<Committed, StoreError> {
        blocking(&self.writer, move |writer| {
            let Writer { connection, tails } = writer;
            if tails.len() > TAILS_KEPT {
                tails.clear();
            }
            let result = commit_batch(connection, tails, batch, first_position);
            if result.is_err() {
                // Some tails may have moved past rows that were rolled back.
                tails.clear();
            }
            result
        })
        .await
    }

    /// Runs `work` in a transaction of its own on the writer's connection, outside the group
    /// commit (bots, keys, inboxes); commits it if `work` succeeds, rolls it back otherwise.
    /// IMMEDIATE takes the file's write lock before anything is read, so what `work` reads
    /// stays true until it commits, even against another process writing the same file.
    async fn write_directly<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        blocking(&self.writer, move |writer| {
            let transaction = writer
                .connection
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let done = work(&transaction)?;
            transaction.commit()?;
            Ok(done)
        })
        .await
    }

    /// A real commit of one page: the header's user version rewritten as it is. It fails as
    /// any commit would while the disk is full or the file cannot be written.
    pub async fn probe(&self) -> Result<(), StoreError> {
        blocking(&self.writer, |writer| {
            let connection = &writer.connection;
            let version: i64 = connection.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            connection.pragma_update(None, "user_version", version)?;
            Ok(())
        })
        .await
    }

    pub async fn lifecycle_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LifecycleRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT position, match_id, variant_id, time_nanos, body FROM lifecycle \
                 WHERE position > ?1 ORDER BY position LIMIT ?2",
            )?;
            let rows = statement.query_map(params![after as i64, limit as i64], |r| {
                Ok(LifecycleRow {
                    position: r.get::<_, i64>(0)? as u64,
                    match_id: r.get(1)?,
                    variant_id: r.get(2)?,
                    time_nanos: r.get(3)?,
                    body: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn last_position(&self) -> Result<u64, StoreError> {
        blocking(&self.reader, |connection| {
            let last: Option<i64> =
                connection.query_row("SELECT MAX(position) FROM lifecycle", [], |r| r.get(0))?;
            Ok(last.unwrap_or(0) as u64)
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

    pub async fn list(
        &self,
        filter: Listing,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ListedRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            // One statement per combination of filters, each served by an index: a listing
            // reads about as many rows as it returns, however many matches are stored.
            let (from, key) = if filter.player_name.is_empty() {
                ("matches m", "m.created")
            } else {
                (
                    "players p JOIN matches m ON m.created = p.match_key",
                    "p.match_key",
                )
            };
            let mut conditions = vec![format!("{key} < ?1")];
            if !filter.player_name.is_empty() {
                conditions.push("p.player_name = ?2".to_owned());
            }
            if !filter.variant_id.is_empty() {
                conditions.push("m.variant_id = ?3".to_owned());
            }
            if filter.status.is_some() {
                conditions.push("m.status = ?4".to_owned());
            }
            let sql = format!(
                "SELECT m.created, m.match_id, m.summary, m.setup FROM {from} WHERE {} \
                 ORDER BY {key} DESC LIMIT ?5",
                conditions.join(" AND ")
            );
            let mut statement = connection.prepare_cached(&sql)?;
            // Parameters a statement does not name are bound all the same: SQLite allows it
            // for numbered ones.
            let rows = statement.query_map(
                params![
                    before.unwrap_or(i64::MAX),
                    filter.player_name,
                    filter.variant_id,
                    filter.status.unwrap_or(0),
                    i64::try_from(limit).unwrap_or(i64::MAX),
                ],
                |r| {
                    Ok(ListedRow {
                        key: r.get(0)?,
                        match_id: r.get(1)?,
                        summary: r.get(2)?,
                        setup: r.get(3)?,
                    })
                },
            )?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn check(&self) -> Result<(), StoreError> {
        blocking(&self.reader, |connection| {
            connection.query_row("SELECT count(*) FROM schema_version", [], |_| Ok(()))?;
            Ok(())
        })
        .await
    }

    pub async fn count_by_status(&self) -> Result<Vec<(i32, u64)>, StoreError> {
        blocking(&self.reader, |connection| {
            let mut statement = connection
                .prepare_cached("SELECT status, count(*) FROM matches GROUP BY status")?;
            let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)?)))?;
            Ok(rows
                .map(|row| row.map(|(status, count)| (status, count.max(0) as u64)))
                .collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    pub async fn with_status(&self, statuses: Vec<i32>) -> Result<Vec<String>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(
                "SELECT match_id FROM matches WHERE status = ?1 ORDER BY created",
            )?;
            let mut ids = Vec::new();
            for status in statuses {
                let rows = statement.query_map([status], |r| r.get(0))?;
                ids.extend(rows.collect::<Result<Vec<String>, _>>()?);
            }
            Ok(ids)
        })
        .await
    }

    pub async fn load(&self, match_id: String) -> Result<Option<StoredMatch>, StoreError> {
        blocking(&self.reader, move |connection| {
            // One read transaction: a consistent picture while the writer goes on.
            let transaction = connection.transaction()?;
            let found = transaction
                .prepare_cached(
                    "SELECT m.match_id, m.variant_id, m.status, m.setup, m.summary, \
                     t.match_key, t.appends, t.last \
                     FROM matches m JOIN tails t ON t.match_key = m.created \
                     WHERE m.match_id = ?1",
                )?
                .query_row([&match_id], |r| {
                    Ok((
                        match_row(r)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, i64>(6)?,
                        r.get(7)?,
                    ))
                })
                .optional()?;
            let Some((row, key, appends, last)) = found else {
                return Ok(None);
            };
            // The chain from the last append back to the first, then read forwards.
            let mut bodies: Vec<Vec<u8>> =
                Vec::with_capacity(usize::try_from(appends).unwrap_or(0).min(65_536));
            let mut statement = transaction
                .prepare_cached("SELECT match_key, previous, body FROM appends WHERE id = ?1")?;
            let mut next: Option<i64> = last;
            while let Some(id) = next {
                let (owner, previous, body) = statement
                    .query_row([id], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?)))?;
                if owner != key || bodies.len() as i64 == appends {
                    return Err(StoreError::Database(format!(
                        "the appends of match {match_id} do not link up"
                    )));
                }
                bodies.push(body);
                next = previous;
            }
            if bodies.len() as i64 != appends {
                return Err(StoreError::Database(format!(
                    "match {match_id} has {} appends of {appends}",
                    bodies.len()
                )));
            }
            let mut unpacked = Unpacked::default();
            for body in bodies.iter().rev() {
                unpacked.add(&match_id, body)?;
            }
            Ok(Some(StoredMatch {
                row,
                inputs: unpacked.inputs,
                events: unpacked.events,
                answers: unpacked.answers,
            }))
        })
        .await
    }

    /// Folds the write-ahead log into the database file if the last time was
    /// [`CHECKPOINT_EVERY`] ago or longer. The write loop calls this after answering a batch's
    /// callers, so no acknowledgement waits for a checkpoint (with SQLite's automatic
    /// checkpoints the commit that fills the log does it before returning). Durability does
    /// not depend on it: a commit is in the synced log either way, and opening the file reads
    /// back whatever the log holds. Folding at most ten times a second keeps the log to a
    /// tenth of a second of writes while the fsync of the database file stays rare.
    pub async fn checkpoint_if_due(&self) -> Result<(), StoreError> {
        {
            let mut checkpointed = self
                .checkpointed
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if checkpointed.elapsed() < CHECKPOINT_EVERY {
                return Ok(());
            }
            *checkpointed = Instant::now();
        }
        blocking(&self.writer, |writer| {
            // PASSIVE: folds what no reader still needs, never waits for one.
            writer
                .connection
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
            Ok(())
        })
        .await
    }

    /// Folds the write-ahead log into the database file, so the data directory is one file
    /// again after a clean stop.
    pub async fn close(&self) -> Result<(), StoreError> {
        blocking(&self.writer, |writer| {
            writer
                .connection
                .pragma_update(None, "wal_checkpoint", "TRUNCATE")?;
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

/// Writes what [`admit`] lets through of `batch` in one transaction, moving the tails of the
/// matches it touches.
fn commit_batch(
    connection: &mut Connection,
    tails: &mut HashMap<String, Tail>,
    batch: Vec<Write>,
    first_position: u64,
) -> Result<Committed, StoreError> {
    let fenced = fenced_leases(&batch);
    let (transaction, tokens) = if fenced.is_empty() {
        (connection.transaction()?, HashMap::new())
    } else {
        // The write lock before the leases are read, so they stay as read until the commit.
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let tokens = leases::fences(&transaction, &fenced)?;
        (transaction, tokens)
    };
    let Admitted { writes, committed } = admit(batch, &tokens, first_position);
    for write in writes {
        match write {
            Write::Create {
                row,
                events,
                lifecycle,
                fence,
            } => {
                insert_lifecycle(&transaction, &lifecycle)?;
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
                let mut tail = Tail::new(transaction.last_insert_rowid());
                tail.fence = fence;
                insert_tail(&transaction, &tail)?;
                if !events.is_empty() {
                    let packed = tail.pack(&row.match_id, Vec::new(), events, Vec::new())?;
                    insert_append(&transaction, &mut tail, &packed)?;
                }
                tails.insert(row.match_id, tail);
            }
            Write::Append { append, fence } => {
                if !tails
                    .get(&append.match_id)
                    .is_some_and(|tail| tail.serves(fence))
                {
                    let tail = read_tail(&transaction, &append.match_id)?;
                    tails.insert(append.match_id.clone(), tail);
                }
                let tail = tails
                    .get_mut(&append.match_id)
                    .ok_or_else(|| StoreError::Database("a tail went missing".to_owned()))?;
                tail.fence = fence;
                if let Some(change) = &append.status {
                    transaction
                        .prepare_cached(
                            "UPDATE matches SET status = ?2, summary = ?3 WHERE created = ?1",
                        )?
                        .execute(params![tail.key, change.status, change.summary])?;
                }
                insert_lifecycle(&transaction, &append.lifecycle)?;
                insert_players(&transaction, tail.key, &append.inputs)?;
                if append.inputs.is_empty() && append.events.is_empty() && append.answer.is_none() {
                    continue;
                }
                let packed = tail.pack(
                    &append.match_id,
                    append.inputs,
                    append.events,
                    append.answer.into_iter().collect(),
                )?;
                insert_append(&transaction, tail, &packed)?;
            }
        }
    }
    transaction.commit()?;
    Ok(committed)
}

fn insert_lifecycle(
    transaction: &Transaction<'_>,
    rows: &[LifecycleRow],
) -> Result<(), StoreError> {
    for row in rows {
        transaction
            .prepare_cached(
                "INSERT INTO lifecycle (position, match_id, variant_id, time_nanos, body) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                row.position as i64,
                row.match_id,
                row.variant_id,
                row.time_nanos,
                row.body
            ])?;
    }
    Ok(())
}

/// Where a stored match stands.
fn read_tail(transaction: &Transaction<'_>, match_id: &str) -> Result<Tail, StoreError> {
    transaction
        .prepare_cached(
            "SELECT t.match_key, t.appends, t.last, t.next_input, t.next_seq \
             FROM matches m JOIN tails t ON t.match_key = m.created WHERE m.match_id = ?1",
        )?
        .query_row([match_id], |r| {
            Ok(Tail {
                key: r.get(0)?,
                appends: r.get(1)?,
                last_row: r.get(2)?,
                next_input: r.get::<_, i64>(3)? as u64,
                next_seq: r.get::<_, i64>(4)? as u64,
                fence: None,
            })
        })
        .optional()?
        .ok_or_else(|| StoreError::Database(format!("no match {match_id} to append to")))
}

fn insert_tail(transaction: &Transaction<'_>, tail: &Tail) -> Result<(), StoreError> {
    transaction
        .prepare_cached(
            "INSERT INTO tails (match_key, appends, last, next_input, next_seq) \
             VALUES (?1, 0, NULL, 0, 0)",
        )?
        .execute([tail.key])?;
    Ok(())
}

/// Stores `packed`, which `tail.pack` made, and moves the match's stored tail to it.
fn insert_append(
    transaction: &Transaction<'_>,
    tail: &mut Tail,
    packed: &Packed,
) -> Result<(), StoreError> {
    transaction
        .prepare_cached("INSERT INTO appends (match_key, previous, body) VALUES (?1, ?2, ?3)")?
        .execute(params![packed.key, packed.previous, packed.body])?;
    let row = transaction.last_insert_rowid();
    tail.last_row = Some(row);
    transaction
        .prepare_cached(
            "UPDATE tails SET appends = ?2, last = ?3, next_input = ?4, next_seq = ?5 \
             WHERE match_key = ?1",
        )?
        .execute(params![
            packed.key,
            packed.number + 1,
            row,
            packed.next_input,
            packed.next_seq
        ])?;
    Ok(())
}
