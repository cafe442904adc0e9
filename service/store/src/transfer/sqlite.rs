//! Export from and import into SQLite. Every table but one is copied column for column. The
//! exception is the appends: SQLite numbers them globally and links each to its match's
//! previous one, with where each match's log stands in `tails` (see `crate::sqlite`); the
//! format has PostgreSQL's layout, each append numbered within its match with the input number
//! and event seq its match goes on from. The export walks each match's chain from its tail (as
//! loading a match does) and recomputes those from the bodies; the import links the appends
//! again and writes each match's tail.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::{Value as Sql, ValueRef};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};
use tokio::sync::mpsc;

use super::tables::{APPENDS, Kind, MATCHES, TABLES, Table};
use super::{
    Counts, Incoming, Outgoing, Row, TransferError, Value, check_counts, check_schema, ended_early,
    refuse_unless_empty,
};
use crate::StoreError;
use crate::packed::advance;
use crate::sqlite::{SCHEMA_VERSION, connect, migrate, refuse_empty_file};

/// The table that says where each match's chain of appends ends.
const TAILS: &str = "tails";

/// Sends every row of the store at `path`, read in one transaction, then `End`.
pub(super) fn export(path: &Path, out: mpsc::Sender<Outgoing>) -> Result<(), TransferError> {
    if !path.is_file() {
        return Err(TransferError::Refused(format!(
            "there is no SQLite store at {}: give the data directory the server uses \
             (--data-dir), or set store.url to export from PostgreSQL",
            path.display()
        )));
    }
    refuse_empty_file(&path.to_path_buf())?;
    // Not `connect`: no pragma that writes, so a running server's file is only read.
    let mut connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(StoreError::from)?;
    connection
        .busy_timeout(Duration::from_secs(5))
        .map_err(StoreError::from)?;
    // Deferred: the first read takes the snapshot every later read sees.
    let transaction = connection.transaction().map_err(StoreError::from)?;
    let found: Option<i64> = transaction
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .optional()
        .map_err(|error| {
            TransferError::Refused(format!(
                "{} holds no Pitchmate store ({error})",
                path.display()
            ))
        })?;
    check_schema(found.unwrap_or(0), SCHEMA_VERSION)?;
    let send = |message| {
        out.blocking_send(message)
            .map_err(|_| TransferError::Io("the export file stopped taking rows".to_owned()))
    };
    send(Outgoing::Header {
        schema_version: SCHEMA_VERSION,
        source: "sqlite",
    })?;
    for (index, table) in TABLES.iter().enumerate() {
        if table.name == APPENDS {
            export_appends(&transaction, index, &send)?;
        } else {
            export_table(&transaction, index, &send)?;
        }
    }
    send(Outgoing::End)
}

fn export_table(
    transaction: &Transaction<'_>,
    index: usize,
    send: &impl Fn(Outgoing) -> Result<(), TransferError>,
) -> Result<(), TransferError> {
    let table = &TABLES[index];
    let columns: Vec<&str> = table.column_names().collect();
    let sql = format!(
        "SELECT {} FROM {} ORDER BY {}",
        columns.join(", "),
        table.name,
        table.key.join(", ")
    );
    let mut statement = transaction.prepare(&sql).map_err(StoreError::from)?;
    let mut rows = statement.query([]).map_err(StoreError::from)?;
    while let Some(row) = rows.next().map_err(StoreError::from)? {
        let mut values = Vec::with_capacity(columns.len());
        for (at, column) in table.columns.iter().enumerate() {
            let raw = row.get_ref(at).map_err(StoreError::from)?;
            values.push(value(
                table,
                column.name,
                column.kind,
                column.nullable,
                raw,
            )?);
        }
        send(Outgoing::Row(Row {
            table: index,
            values,
        }))?;
    }
    Ok(())
}

/// A stored value as the format has it, refusing one not of its column's kind.
fn value(
    table: &Table,
    column: &str,
    kind: Kind,
    nullable: bool,
    raw: ValueRef<'_>,
) -> Result<Value, TransferError> {
    Ok(match (kind, raw) {
        (_, ValueRef::Null) if nullable => Value::Null,
        (Kind::Integer, ValueRef::Integer(n)) => Value::Integer(n),
        (Kind::Bool, ValueRef::Integer(n @ (0 | 1))) => Value::Bool(n == 1),
        (Kind::Text, ValueRef::Text(bytes)) => match String::from_utf8(bytes.to_vec()) {
            Ok(text) => Value::Text(text),
            Err(_) => return Err(unexpected(table, column, "text that is not UTF-8")),
        },
        (Kind::Bytes, ValueRef::Blob(bytes)) => Value::Bytes(bytes.to_vec()),
        (_, other) => {
            return Err(unexpected(
                table,
                column,
                &format!("a {:?} value", other.data_type()),
            ));
        }
    })
}

fn unexpected(table: &Table, column: &str, found: &str) -> TransferError {
    StoreError::Database(format!(
        "{}.{column} holds {found}, which the export format cannot carry",
        table.name
    ))
    .into()
}

/// Each match's appends in order: its chain walked back from its tail, then sent forwards
/// with their numbers and where the log goes on after each.
fn export_appends(
    transaction: &Transaction<'_>,
    index: usize,
    send: &impl Fn(Outgoing) -> Result<(), TransferError>,
) -> Result<(), TransferError> {
    let mut tails = transaction
        .prepare(
            "SELECT t.match_key, m.match_id, t.appends, t.last, t.next_input, t.next_seq \
             FROM tails t JOIN matches m ON m.created = t.match_key ORDER BY t.match_key",
        )
        .map_err(StoreError::from)?;
    let mut link = transaction
        .prepare("SELECT match_key, previous, body FROM appends WHERE id = ?1")
        .map_err(StoreError::from)?;
    let mut sent = 0_i64;
    let mut rows = tails.query([]).map_err(StoreError::from)?;
    while let Some(tail) = rows.next().map_err(StoreError::from)? {
        let key: i64 = tail.get(0).map_err(StoreError::from)?;
        let match_id: String = tail.get(1).map_err(StoreError::from)?;
        let appends: i64 = tail.get(2).map_err(StoreError::from)?;
        let mut next: Option<i64> = tail.get(3).map_err(StoreError::from)?;
        let stands: (i64, i64) = (
            tail.get(4).map_err(StoreError::from)?,
            tail.get(5).map_err(StoreError::from)?,
        );
        let broken = |what: &str| {
            TransferError::from(StoreError::Database(format!(
                "the appends of match {match_id} do not link up ({what}); nothing can be \
                 exported until the store is repaired"
            )))
        };
        let mut bodies: Vec<Vec<u8>> = Vec::new();
        while let Some(id) = next {
            let (owner, previous, body): (i64, Option<i64>, Vec<u8>) = link
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .map_err(StoreError::from)?;
            if owner != key || bodies.len() as i64 >= appends {
                return Err(broken("an append of another match, or a loop"));
            }
            bodies.push(body);
            next = previous;
        }
        if bodies.len() as i64 != appends {
            return Err(broken("fewer appends than its tail counts"));
        }
        let mut stood = (0, 0);
        for (number, body) in bodies.into_iter().rev().enumerate() {
            stood = advance(&match_id, stood, &body)?;
            send(Outgoing::Row(Row {
                table: index,
                values: vec![
                    Value::Integer(key),
                    Value::Integer(number as i64),
                    Value::Integer(stood.0 as i64),
                    Value::Integer(stood.1 as i64),
                    Value::Bytes(body),
                ],
            }))?;
        }
        if appends > 0 && (stood.0 as i64, stood.1 as i64) != stands {
            return Err(broken("its tail disagrees with its last append"));
        }
        sent += appends;
    }
    let stored: i64 = transaction
        .query_row("SELECT count(*) FROM appends", [], |r| r.get(0))
        .map_err(StoreError::from)?;
    if stored != sent {
        return Err(StoreError::Database(format!(
            "{} appends belong to no match's chain; nothing can be exported until the store is \
             repaired",
            stored - sent
        ))
        .into());
    }
    Ok(())
}

/// Writes what `incoming` brings into the SQLite store at `path` (created if need be), in one
/// transaction that commits once the trailer has come and every table holds what it counts.
pub(super) fn import(
    path: &PathBuf,
    mut incoming: mpsc::Receiver<Incoming>,
) -> Result<Counts, TransferError> {
    if let Some(directory) = path.parent() {
        std::fs::create_dir_all(directory).map_err(|error| {
            TransferError::Io(format!("cannot create {}: {error}", directory.display()))
        })?;
    }
    refuse_empty_file(path)?;
    let mut connection = connect(path)?;
    migrate(&mut connection)?;
    // IMMEDIATE: the file's write lock from the start, so nothing is written beside the import.
    let transaction = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(StoreError::from)?;
    refuse_unless_empty(&held(&transaction)?)?;
    let inserts: Vec<String> = TABLES.iter().map(insert_statement).collect();
    let mut chain = Chain::default();
    loop {
        match incoming.blocking_recv() {
            Some(Incoming::Row(row)) if TABLES[row.table].name == APPENDS => {
                chain.insert(&transaction, row.values)?;
            }
            Some(Incoming::Row(row)) => insert(&transaction, &inserts[row.table], &row)?,
            Some(Incoming::Trailer(counts)) => {
                chain.close(&transaction)?;
                check_counts(&stored(&transaction)?, &counts)?;
                transaction.commit().map_err(StoreError::from)?;
                return Ok(counts);
            }
            None => return Err(ended_early()),
        }
    }
}

/// The tables that hold rows, with how many.
fn held(transaction: &Transaction<'_>) -> Result<Vec<(String, i64)>, TransferError> {
    let names = TABLES.iter().map(|table| table.name).chain([TAILS]);
    let mut held = Vec::new();
    for name in names {
        let rows: i64 = transaction
            .query_row(&format!("SELECT count(*) FROM {name}"), [], |r| r.get(0))
            .map_err(StoreError::from)?;
        if rows > 0 {
            held.push((name.to_owned(), rows));
        }
    }
    Ok(held)
}

/// How many rows each of the format's tables holds now.
fn stored(transaction: &Transaction<'_>) -> Result<Vec<(usize, i64)>, TransferError> {
    let mut stored = Vec::with_capacity(TABLES.len());
    for (index, table) in TABLES.iter().enumerate() {
        let rows: i64 = transaction
            .query_row(&format!("SELECT count(*) FROM {}", table.name), [], |r| {
                r.get(0)
            })
            .map_err(StoreError::from)?;
        stored.push((index, rows));
    }
    Ok(stored)
}

fn insert_statement(table: &Table) -> String {
    let columns: Vec<&str> = table.column_names().collect();
    let places: Vec<String> = (1..=columns.len()).map(|n| format!("?{n}")).collect();
    format!(
        "INSERT INTO {} ({}) VALUES ({})",
        table.name,
        columns.join(", "),
        places.join(", ")
    )
}

fn insert(transaction: &Transaction<'_>, sql: &str, row: &Row) -> Result<(), TransferError> {
    let table = &TABLES[row.table];
    let values = row.values.iter().map(|value| match value {
        Value::Null => Sql::Null,
        Value::Integer(n) => Sql::Integer(*n),
        Value::Text(text) => Sql::Text(text.clone()),
        Value::Bytes(bytes) => Sql::Blob(bytes.clone()),
        Value::Bool(flag) => Sql::Integer(i64::from(*flag)),
    });
    transaction
        .prepare_cached(sql)
        .and_then(|mut statement| statement.execute(rusqlite::params_from_iter(values)))
        .map_err(|error| refused_row(table.name, error))?;
    if table.name == MATCHES {
        // Every match has a tail, moved on by its appends (see `Chain`).
        transaction
            .prepare_cached(
                "INSERT INTO tails (match_key, appends, last, next_input, next_seq) \
                 VALUES (?1, 0, NULL, 0, 0)",
            )
            .and_then(|mut statement| statement.execute([row.values[0].integer()]))
            .map_err(|error| refused_row(table.name, error))?;
    }
    Ok(())
}

fn refused_row(table: &str, error: rusqlite::Error) -> TransferError {
    StoreError::Database(format!(
        "a row of {table} was refused: {error}; nothing was imported"
    ))
    .into()
}

impl Value {
    /// The integer of an integer column (0 for any other value, which the reader has refused).
    fn integer(&self) -> i64 {
        match self {
            Value::Integer(n) => *n,
            _ => 0,
        }
    }
}

/// The match whose appends are being linked, one match after another.
#[derive(Default)]
struct Chain {
    current: Option<ChainEnd>,
}

/// Where a match's chain stands, as its tail will say.
struct ChainEnd {
    key: i64,
    appends: i64,
    /// The row of its last append.
    last: i64,
    next_input: i64,
    next_seq: i64,
}

impl Chain {
    /// Links the append after the current match's last one; a new match's first closes the
    /// match before it. A match's appends come together, in number order.
    fn insert(
        &mut self,
        transaction: &Transaction<'_>,
        values: Vec<Value>,
    ) -> Result<(), TransferError> {
        let [key, number, next_input, next_seq, body]: [Value; 5] =
            values.try_into().map_err(|_| {
                TransferError::from(StoreError::Database("an append's columns".to_owned()))
            })?;
        let (key, number) = (key.integer(), number.integer());
        let previous = match &self.current {
            Some(end) if end.key == key => (number == end.appends).then_some(Some(end.last)),
            Some(end) if end.key > key => None,
            _ => {
                self.close(transaction)?;
                (number == 0).then_some(None)
            }
        };
        let Some(previous) = previous else {
            return Err(StoreError::Database(format!(
                "append {number} of match key {key} is out of order: a match's appends come \
                 together, numbered from 0, matches in key order; nothing was imported"
            ))
            .into());
        };
        let Value::Bytes(body) = body else {
            return Err(StoreError::Database("an append without a body".to_owned()).into());
        };
        transaction
            .prepare_cached("INSERT INTO appends (match_key, previous, body) VALUES (?1, ?2, ?3)")
            .and_then(|mut statement| statement.execute(rusqlite::params![key, previous, body]))
            .map_err(|error| refused_row(APPENDS, error))?;
        self.current = Some(ChainEnd {
            key,
            appends: number + 1,
            last: transaction.last_insert_rowid(),
            next_input: next_input.integer(),
            next_seq: next_seq.integer(),
        });
        Ok(())
    }

    /// Writes the current match's tail.
    fn close(&mut self, transaction: &Transaction<'_>) -> Result<(), TransferError> {
        if let Some(end) = self.current.take() {
            let moved = transaction
                .prepare_cached(
                    "UPDATE tails SET appends = ?2, last = ?3, next_input = ?4, next_seq = ?5 \
                     WHERE match_key = ?1",
                )
                .and_then(|mut statement| {
                    statement.execute([
                        end.key,
                        end.appends,
                        end.last,
                        end.next_input,
                        end.next_seq,
                    ])
                })
                .map_err(|error| refused_row(TAILS, error))?;
            if moved != 1 {
                return Err(StoreError::Database(format!(
                    "appends of match key {}, which the export has no match of; nothing was \
                     imported",
                    end.key
                ))
                .into());
            }
        }
        Ok(())
    }
}
