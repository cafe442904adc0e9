//! Export from and import into PostgreSQL, every table column for column. The export reads in
//! one repeatable-read transaction (one snapshot) through a portal, a bounded number of rows at
//! a time; the import inserts many rows per statement and moves the sequences behind serial
//! keys past the keys it wrote, so the next match or rating change takes a fresh one.

use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, IsolationLevel, NoTls, Transaction};

use super::tables::{Kind, TABLES, Table, kind_of};
use super::{
    Counts, Incoming, Outgoing, Row, TransferError, Value, check_counts, check_schema, ended_early,
    refuse_unless_empty,
};
use crate::StoreError;
use crate::postgres::{SCHEMA_VERSION, migrate};

/// Rows fetched from a portal at a time.
const FETCH: i32 = 1000;
/// The most rows one insert statement carries (PostgreSQL takes at most 65,535 parameters).
const ROWS_PER_INSERT: usize = 1000;

async fn connect(config: &Config) -> Result<Client, TransferError> {
    let (client, connection) = config.connect(NoTls).await.map_err(StoreError::from)?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::warn!(%error, "postgresql connection ended");
        }
    });
    Ok(client)
}

/// Sends every row of the database `config` names, read in one snapshot, then `End`.
pub(super) async fn export(
    config: &Config,
    out: mpsc::Sender<Outgoing>,
) -> Result<(), TransferError> {
    let mut client = connect(config).await?;
    let transaction = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .map_err(StoreError::from)?;
    let found = match transaction
        .query_opt("SELECT version FROM schema_version", &[])
        .await
    {
        Ok(row) => row.map_or(0, |row| row.get::<_, i64>(0)),
        Err(error) if error.code() == Some(&SqlState::UNDEFINED_TABLE) => {
            return Err(TransferError::Refused(
                "the database (in the schema the URL's search_path names) holds no Pitchmate \
                 store: check store.url"
                    .to_owned(),
            ));
        }
        Err(error) => return Err(StoreError::from(error).into()),
    };
    check_schema(found, SCHEMA_VERSION)?;
    let send = |message| async {
        out.send(message)
            .await
            .map_err(|_| TransferError::Io("the export file stopped taking rows".to_owned()))
    };
    send(Outgoing::Header {
        schema_version: SCHEMA_VERSION,
        source: "postgresql",
    })
    .await?;
    for (index, table) in TABLES.iter().enumerate() {
        let portal = transaction
            .bind(&select(table), &[])
            .await
            .map_err(StoreError::from)?;
        loop {
            let rows = transaction
                .query_portal(&portal, FETCH)
                .await
                .map_err(StoreError::from)?;
            if rows.is_empty() {
                break;
            }
            for row in rows {
                let values = values(table, &row)?;
                send(Outgoing::Row(Row {
                    table: index,
                    values,
                }))
                .await?;
            }
        }
    }
    send(Outgoing::End).await
}

/// Integers read as `BIGINT` whatever their column's width; text keys ordered by their bytes,
/// as SQLite orders them, so both backends export a table in one order.
fn select(table: &Table) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|column| match column.kind {
            Kind::Integer => format!("{0}::BIGINT AS {0}", column.name),
            _ => column.name.to_owned(),
        })
        .collect();
    let order: Vec<String> = table
        .key
        .iter()
        .map(|column| match kind_of(table, column) {
            Kind::Text => format!("{column} COLLATE \"C\""),
            _ => (*column).to_owned(),
        })
        .collect();
    format!(
        "SELECT {} FROM {} ORDER BY {}",
        columns.join(", "),
        table.name,
        order.join(", ")
    )
}

fn values(table: &Table, row: &tokio_postgres::Row) -> Result<Vec<Value>, TransferError> {
    let mut values = Vec::with_capacity(table.columns.len());
    for (at, column) in table.columns.iter().enumerate() {
        let read = match column.kind {
            Kind::Integer => row
                .try_get::<_, Option<i64>>(at)
                .map(|v| v.map(Value::Integer)),
            Kind::Text => row
                .try_get::<_, Option<String>>(at)
                .map(|v| v.map(Value::Text)),
            Kind::Bytes => row
                .try_get::<_, Option<Vec<u8>>>(at)
                .map(|v| v.map(Value::Bytes)),
            Kind::Bool => row
                .try_get::<_, Option<bool>>(at)
                .map(|v| v.map(Value::Bool)),
        };
        let value = match read.map_err(StoreError::from)? {
            Some(value) => value,
            None if column.nullable => Value::Null,
            None => {
                return Err(StoreError::Database(format!(
                    "{}.{} holds a null, which the export format cannot carry",
                    table.name, column.name
                ))
                .into());
            }
        };
        values.push(value);
    }
    Ok(values)
}

/// Writes what `incoming` brings into the database `config` names (its schema created if need
/// be), in one transaction that commits once the trailer has come, every table holds what it
/// counts and the sequences are moved on.
pub(super) async fn import(
    config: &Config,
    mut incoming: mpsc::Receiver<Incoming>,
) -> Result<Counts, TransferError> {
    let mut client = connect(config).await?;
    migrate(&mut client).await?;
    let transaction = client.transaction().await.map_err(StoreError::from)?;
    refuse_unless_empty(&held(&transaction).await?)?;
    let mut pending: Vec<Row> = Vec::with_capacity(ROWS_PER_INSERT);
    loop {
        match incoming.recv().await {
            Some(Incoming::Row(row)) => {
                let another_table = pending.first().is_some_and(|p| p.table != row.table);
                if another_table || pending.len() == ROWS_PER_INSERT {
                    insert(&transaction, &pending).await?;
                    pending.clear();
                }
                pending.push(row);
            }
            Some(Incoming::Trailer(counts)) => {
                insert(&transaction, &pending).await?;
                move_sequences(&transaction).await?;
                check_counts(&stored(&transaction).await?, &counts)?;
                transaction.commit().await.map_err(StoreError::from)?;
                return Ok(counts);
            }
            None => return Err(ended_early()),
        }
    }
}

async fn count(transaction: &Transaction<'_>, table: &str) -> Result<i64, TransferError> {
    Ok(transaction
        .query_one(&format!("SELECT count(*) FROM {table}"), &[])
        .await
        .map_err(StoreError::from)?
        .get(0))
}

/// The tables that hold rows, with how many.
async fn held(transaction: &Transaction<'_>) -> Result<Vec<(String, i64)>, TransferError> {
    let mut held = Vec::new();
    for table in TABLES {
        let rows = count(transaction, table.name).await?;
        if rows > 0 {
            held.push((table.name.to_owned(), rows));
        }
    }
    Ok(held)
}

async fn stored(transaction: &Transaction<'_>) -> Result<Vec<(usize, i64)>, TransferError> {
    let mut stored = Vec::with_capacity(TABLES.len());
    for (index, table) in TABLES.iter().enumerate() {
        stored.push((index, count(transaction, table.name).await?));
    }
    Ok(stored)
}

/// Nulls of each kind, for parameters typed by their casts.
static NO_INTEGER: Option<i64> = None;
static NO_TEXT: Option<String> = None;
static NO_BYTES: Option<Vec<u8>> = None;
static NO_FLAG: Option<bool> = None;

/// Inserts rows of one table in one statement, each parameter cast to its column's kind (the
/// database converts a `BIGINT` to a narrower column, refusing one out of its range).
async fn insert(transaction: &Transaction<'_>, rows: &[Row]) -> Result<(), TransferError> {
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let table = &TABLES[first.table];
    let width = table.columns.len();
    let tuples: Vec<String> = (0..rows.len())
        .map(|row| {
            let places: Vec<String> = table
                .columns
                .iter()
                .enumerate()
                .map(|(at, column)| {
                    let cast = match column.kind {
                        Kind::Integer => "BIGINT",
                        Kind::Text => "TEXT",
                        Kind::Bytes => "BYTEA",
                        Kind::Bool => "BOOLEAN",
                    };
                    format!("${}::{cast}", row * width + at + 1)
                })
                .collect();
            format!("({})", places.join(", "))
        })
        .collect();
    let sql = format!(
        "INSERT INTO {} ({}) VALUES {}",
        table.name,
        table.column_names().collect::<Vec<_>>().join(", "),
        tuples.join(", ")
    );
    let mut parameters: Vec<&(dyn ToSql + Sync)> = Vec::with_capacity(rows.len() * width);
    for row in rows {
        for (value, column) in row.values.iter().zip(table.columns) {
            parameters.push(match (value, column.kind) {
                (Value::Integer(n), _) => n,
                (Value::Text(text), _) => text,
                (Value::Bytes(bytes), _) => bytes,
                (Value::Bool(flag), _) => flag,
                (Value::Null, Kind::Integer) => &NO_INTEGER,
                (Value::Null, Kind::Text) => &NO_TEXT,
                (Value::Null, Kind::Bytes) => &NO_BYTES,
                (Value::Null, Kind::Bool) => &NO_FLAG,
            });
        }
    }
    transaction
        .execute(&sql, &parameters)
        .await
        .map_err(|error| {
            StoreError::Database(format!(
                "rows of {} were refused: {error}; nothing was imported",
                table.name
            ))
        })?;
    Ok(())
}

/// Moves every sequence behind a serial or identity column past the largest key its table
/// holds, as if the rows had taken their keys from it.
async fn move_sequences(transaction: &Transaction<'_>) -> Result<(), TransferError> {
    let serials = transaction
        .query(
            "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns \
             WHERE table_schema = current_schema() \
             AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')",
            &[],
        )
        .await
        .map_err(StoreError::from)?;
    for serial in serials {
        let (table, column): (String, String) = (serial.get(0), serial.get(1));
        transaction
            .execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence($1, $2), \
                     COALESCE((SELECT MAX(\"{column}\") FROM \"{table}\"), 0) + 1, false)"
                ),
                &[&table, &column],
            )
            .await
            .map_err(StoreError::from)?;
    }
    Ok(())
}
