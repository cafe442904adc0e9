//! Moving a whole store to another: [`export`] writes every row the store holds into one file,
//! [`import`] writes such a file into an empty store, of either backend. It is how a league
//! moves from the embedded SQLite to PostgreSQL (see docs/deploy.md).
//!
//! The file is NDJSON, one JSON object per line, the same whichever backend wrote it:
//!
//! - a header: `{"format":"pitchmate-store","format_version":1,"schema_version":13,
//!   "source":"sqlite","tables":[...]}`;
//! - one line per row, `{"table":"matches","row":{"created":1,"match_id":"...",...}}`, table
//!   after table in the order of [`tables::TABLES`] (a table after those its rows refer to),
//!   each table's rows in the order of its primary key;
//! - a trailer: `{"trailer":{"rows":{"matches":200,...}}}`, every table with its row count.
//!
//! Values: an integer is a JSON number when its magnitude is at most 2^53 - 1 (what any JSON
//! reader holds exactly) and otherwise a string of its decimal digits (nanosecond times are
//! beyond 2^53); bytes are a string in standard base64 with padding; text is a string; a flag
//! is `true` or `false`; a missing value is `null`.
//!
//! Every table is carried but the leases, which belong to running servers (see `tables.rs`).
//! An export reads one snapshot (a read transaction), so a server writing meanwhile cannot tear
//! it. An import refuses a target that holds any row, checks the header (this format version,
//! the schema version this binary writes), writes every row in one transaction, moves
//! PostgreSQL's sequences past the keys it wrote, and commits only once the trailer has come and
//! every table holds the rows it names: a file cut short writes nothing.

mod postgres;
mod sqlite;
mod tables;
#[cfg(test)]
mod tests;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value as Json};
use tokio::sync::mpsc;

use crate::StoreError;
use tables::{Kind, TABLES, Table};

/// What the header's `format` says.
pub const FORMAT: &str = "pitchmate-store";
/// The version of the format this binary writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// Rows in flight between the database and the file.
const IN_FLIGHT: usize = 1024;
/// The largest integer written as a JSON number: readers that hold numbers as doubles (most
/// JSON tools) keep every integer up to it exact.
const EXACT_IN_JSON: i64 = (1 << 53) - 1;

#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The input is not a whole export this binary reads; nothing was written.
    #[error("line {line} of the export: {message}")]
    Input { line: u64, message: String },
    /// The input ended before its trailer; nothing was written.
    #[error(
        "the export ends after line {lines} without its trailer line: the file was cut short \
         (copy it again, or export again); nothing was imported"
    )]
    Truncated { lines: u64 },
    /// The source or target cannot be used as it is; what to do is in the message.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Io(String),
}

/// How many rows each table holds, in the order of the format's tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts(Vec<(&'static str, u64)>);

impl Counts {
    fn zero() -> Self {
        Self(TABLES.iter().map(|table| (table.name, 0)).collect())
    }

    fn add(&mut self, table: usize) {
        self.0[table].1 += 1;
    }

    /// The rows of one table (0 for a table the format does not have).
    pub fn of(&self, table: &str) -> u64 {
        self.0
            .iter()
            .find(|(name, _)| *name == table)
            .map_or(0, |(_, count)| *count)
    }

    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, count)| count).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.0.iter().copied()
    }
}

impl std::fmt::Display for Counts {
    /// The tables that hold rows, as `matches 200, appends 9000, ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held: Vec<String> = self
            .iter()
            .filter(|(_, count)| *count > 0)
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        if held.is_empty() {
            f.write_str("no rows")
        } else {
            f.write_str(&held.join(", "))
        }
    }
}

/// One value of a row, of its column's [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Null,
    Integer(i64),
    Text(String),
    Bytes(Vec<u8>),
    Bool(bool),
}

/// A row of the table at this place in [`TABLES`], its values in the table's column order.
#[derive(Debug)]
pub(crate) struct Row {
    pub table: usize,
    pub values: Vec<Value>,
}

/// What a backend's export sends to the file, in order: its header, every row, then `End`.
#[derive(Debug)]
pub(crate) enum Outgoing {
    Header {
        schema_version: i64,
        source: &'static str,
    },
    Row(Row),
    /// Every row was sent: the trailer may be written.
    End,
}

/// What a backend's import receives once the header was checked: every row, then the
/// trailer's counts (which match the rows sent).
#[derive(Debug)]
pub(crate) enum Incoming {
    Row(Row),
    Trailer(Counts),
}

/// Where a store lives, as [`crate::Store::open`] reads `url` and `data_dir`.
enum Location {
    Sqlite(PathBuf),
    Postgres(Box<tokio_postgres::Config>),
}

impl Location {
    fn of(url: &str, data_dir: &Path) -> Result<Self, StoreError> {
        if url.is_empty() {
            Ok(Self::Sqlite(data_dir.join(crate::SQLITE_FILE)))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(Box::new(crate::postgres::config(url)?)))
        } else {
            Err(StoreError::UnknownUrl(url.to_owned()))
        }
    }
}

/// Writes everything the store `url` names (empty: SQLite in `data_dir`) holds to `out`, from
/// one snapshot; returns `out` and how many rows of each table it wrote. The store must be at
/// the schema version this binary writes.
pub async fn export<W: Write + Send + 'static>(
    url: &str,
    data_dir: &Path,
    out: W,
) -> Result<(W, Counts), TransferError> {
    let location = Location::of(url, data_dir)?;
    let (sender, receiver) = mpsc::channel(IN_FLIGHT);
    let writer = tokio::task::spawn_blocking(move || write_lines(out, receiver));
    let read = match location {
        Location::Sqlite(path) => {
            tokio::task::spawn_blocking(move || sqlite::export(&path, sender))
                .await
                .map_err(|error| TransferError::Io(format!("the export task failed: {error}")))?
        }
        // Taken by value: the writer finishes once the backend's sender is gone.
        Location::Postgres(config) => postgres::export(&config, sender).await,
    };
    let written = writer
        .await
        .map_err(|error| TransferError::Io(format!("the writing task failed: {error}")))?;
    // A read that stopped because the file could not be written says less than the writer.
    match (read, written) {
        (Ok(()), Ok(done)) => Ok(done),
        (_, Err(Some(error))) => Err(error),
        (Err(error), _) => Err(error),
        (Ok(()), Err(None)) => Err(TransferError::Io(
            "the export stopped before its end".to_owned(),
        )),
    }
}

/// Writes an export read from `input` into the store `url` names (empty: SQLite in
/// `data_dir`, created if need be), in one transaction; returns how many rows of each table it
/// wrote. Refuses a store that holds any row; writes nothing unless the whole file is read.
pub async fn import<R: BufRead + Send + 'static>(
    url: &str,
    data_dir: &Path,
    input: R,
) -> Result<Counts, TransferError> {
    let location = Location::of(url, data_dir)?;
    let (sender, receiver) = mpsc::channel(IN_FLIGHT);
    let (header_sender, header) = tokio::sync::oneshot::channel();
    let reader = tokio::task::spawn_blocking(move || read_lines(input, header_sender, &sender));
    // The target is not touched until the header is known to be one this binary imports.
    // The backend takes the receiver by value: however it ends, the reader then stops.
    let written = match header.await {
        Ok(()) => match location {
            Location::Sqlite(path) => {
                tokio::task::spawn_blocking(move || sqlite::import(&path, receiver))
                    .await
                    .map_err(|error| {
                        TransferError::Io(format!("the import task failed: {error}"))
                    })?
            }
            Location::Postgres(config) => postgres::import(&config, receiver).await,
        },
        Err(_) => Err(ended_early()),
    };
    let read = reader
        .await
        .map_err(|error| TransferError::Io(format!("the reading task failed: {error}")))?;
    // Whatever the reader found wrong with the file explains an import that ran out of rows.
    match (written, read) {
        (Ok(counts), Ok(())) => Ok(counts),
        (Err(_), Err(error)) => Err(error),
        (Err(error), Ok(())) => Err(error),
        (Ok(_), Err(error)) => Err(error),
    }
}

/// The backend's import ran out of rows before the trailer: the reader stopped, and its own
/// error says why.
fn ended_early() -> TransferError {
    TransferError::Io("the export stopped before its trailer".to_owned())
}

/// Refuses a target that holds rows, naming the tables that do.
fn refuse_unless_empty(held: &[(String, i64)]) -> Result<(), TransferError> {
    if held.is_empty() {
        return Ok(());
    }
    let tables: Vec<String> = held
        .iter()
        .map(|(table, rows)| format!("{table} {rows}"))
        .collect();
    Err(TransferError::Refused(format!(
        "the target store is not empty (rows: {}); import only into a new store: a PostgreSQL \
         database or schema no server has used, or a data directory without {}",
        tables.join(", "),
        crate::SQLITE_FILE
    )))
}

/// Compares what the target holds with the trailer, before the import commits.
fn check_counts(stored: &[(usize, i64)], trailer: &Counts) -> Result<(), TransferError> {
    for &(table, rows) in stored {
        let name = TABLES[table].name;
        let expected = trailer.of(name);
        if u64::try_from(rows).ok() != Some(expected) {
            return Err(TransferError::Refused(format!(
                "after the import {name} holds {rows} rows where the export has {expected}; \
                 nothing was imported"
            )));
        }
    }
    Ok(())
}

/// Refuses a source at another schema version than this binary's.
fn check_schema(found: i64, known: i64) -> Result<(), TransferError> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match found.cmp(&known) {
        Equal => Ok(()),
        Less => Err(TransferError::Refused(format!(
            "the store is at schema version {found}, this binary's is {known}: start this \
             version of the server on it once (it migrates the schema), stop it, then export"
        ))),
        Greater => Err(TransferError::Refused(format!(
            "the store is at schema version {found}, newer than this binary's {known}: export \
             with the newer binary"
        ))),
    }
}

/// Writes the header, the rows and, once the backend has sent every row, the trailer with the
/// counts of the rows written. A backend that fails closes the channel without its `End`; then
/// no trailer is written (so an import of what was written is refused) and this fails with
/// `None`, leaving the backend's error to tell why.
fn write_lines<W: Write>(
    out: W,
    mut rows: mpsc::Receiver<Outgoing>,
) -> Result<(W, Counts), Option<TransferError>> {
    let failed = |error: std::io::Error| {
        Some(TransferError::Io(format!(
            "cannot write the export: {error}"
        )))
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut counts = Counts::zero();
    let mut finished = false;
    while let Some(message) = rows.blocking_recv() {
        match message {
            Outgoing::Header {
                schema_version,
                source,
            } => {
                let tables: Vec<&str> = TABLES.iter().map(|table| table.name).collect();
                let header = serde_json::json!({
                    "format": FORMAT,
                    "format_version": FORMAT_VERSION,
                    "schema_version": schema_version,
                    "source": source,
                    "tables": tables,
                });
                writeln!(out, "{header}").map_err(failed)?;
            }
            Outgoing::Row(row) => {
                write_row(&mut out, &TABLES[row.table], &row.values).map_err(failed)?;
                counts.add(row.table);
            }
            Outgoing::End => finished = true,
        }
    }
    if !finished {
        return Err(None);
    }
    // By hand rather than through a JSON map, to keep the tables in the header's order.
    let rows: Vec<String> = counts
        .iter()
        .map(|(name, count)| format!("\"{name}\":{count}"))
        .collect();
    writeln!(out, "{{\"trailer\":{{\"rows\":{{{}}}}}}}", rows.join(",")).map_err(failed)?;
    let out = out
        .into_inner()
        .map_err(|error| failed(error.into_error()))?;
    Ok((out, counts))
}

fn write_row(out: &mut impl Write, table: &Table, values: &[Value]) -> std::io::Result<()> {
    write!(out, "{{\"table\":\"{}\",\"row\":{{", table.name)?;
    for (index, (column, value)) in table.columns.iter().zip(values).enumerate() {
        if index > 0 {
            out.write_all(b",")?;
        }
        write!(out, "\"{}\":", column.name)?;
        match value {
            Value::Null => out.write_all(b"null")?,
            Value::Integer(n) if n.abs() <= EXACT_IN_JSON => write!(out, "{n}")?,
            Value::Integer(n) => write!(out, "\"{n}\"")?,
            Value::Text(text) => serde_json::to_writer(&mut *out, text)?,
            Value::Bytes(bytes) => write!(out, "\"{}\"", BASE64.encode(bytes))?,
            Value::Bool(flag) => write!(out, "{flag}")?,
        }
    }
    out.write_all(b"}}\n")
}

/// Reads the header (answering `header` once it is one this binary imports), then every row,
/// then the trailer, checking each line as it comes; sends the rows and the trailer's counts
/// on. Stops at the first fault, which it returns; the importer, short of its trailer, then
/// writes nothing.
fn read_lines(
    mut input: impl BufRead,
    header: tokio::sync::oneshot::Sender<()>,
    rows: &mpsc::Sender<Incoming>,
) -> Result<(), TransferError> {
    let mut line = String::new();
    let mut number = 0_u64;
    let mut next_line = |line: &mut String| -> Result<Option<Map<String, Json>>, TransferError> {
        line.clear();
        let read = input.read_line(line).map_err(|error| {
            TransferError::Io(format!(
                "cannot read the export after line {number}: {error}"
            ))
        })?;
        if read == 0 {
            return Ok(None);
        }
        number += 1;
        let bad = |message: String| TransferError::Input {
            line: number,
            message,
        };
        if !line.ends_with('\n') {
            return Err(bad(
                "the last line has no line end: the file was cut short (copy it again, or \
                 export again); nothing was imported"
                    .to_owned(),
            ));
        }
        match serde_json::from_str(line) {
            Ok(Json::Object(object)) => Ok(Some(object)),
            Ok(_) => Err(bad("not a JSON object".to_owned())),
            Err(error) => Err(bad(format!("not JSON ({error})"))),
        }
    };

    let first = next_line(&mut line)?.ok_or_else(|| TransferError::Input {
        line: 1,
        message: "the export is empty".to_owned(),
    })?;
    check_header(&first).map_err(|message| TransferError::Input { line: 1, message })?;
    if header.send(()).is_err() {
        return Ok(());
    }
    let mut counts = Counts::zero();
    let mut current = 0;
    let mut lines = 1;
    loop {
        let Some(object) = next_line(&mut line)? else {
            return Err(TransferError::Truncated { lines });
        };
        lines += 1;
        let at = |message: String| TransferError::Input {
            line: lines,
            message,
        };
        if let Some(trailer) = object.get("trailer") {
            check_trailer(trailer, &counts).map_err(at)?;
            if next_line(&mut line)?.is_some() {
                return Err(at("a line follows the trailer".to_owned()));
            }
            // An importer that stopped has its own error to tell.
            let _ = rows.blocking_send(Incoming::Trailer(counts));
            return Ok(());
        }
        let row = parse_row(&object).map_err(at)?;
        if row.table < current {
            return Err(at(format!(
                "a row of {} after rows of {}: tables come in the order of the header",
                TABLES[row.table].name, TABLES[current].name
            )));
        }
        current = row.table;
        counts.add(row.table);
        if rows.blocking_send(Incoming::Row(row)).is_err() {
            // The importer stopped and has its own error to tell.
            return Ok(());
        }
    }
}

fn check_header(header: &Map<String, Json>) -> Result<(), String> {
    if header.get("format").and_then(Json::as_str) != Some(FORMAT) {
        return Err(format!(
            "the first line is not the header of a Pitchmate export (`\"format\": \"{FORMAT}\"`)"
        ));
    }
    let version = header.get("format_version").and_then(Json::as_u64);
    if version != Some(FORMAT_VERSION) {
        return Err(format!(
            "the export is in format version {}, this binary reads version {FORMAT_VERSION}",
            header.get("format_version").unwrap_or(&Json::Null)
        ));
    }
    let schema = header.get("schema_version").and_then(Json::as_i64);
    let known = crate::sqlite::SCHEMA_VERSION;
    if schema != Some(known) {
        return Err(format!(
            "the export was made at schema version {}, this binary's is {known}: import it with \
             the binary that exported it (a server of that version), or export again with this \
             one after it has migrated the source",
            header.get("schema_version").unwrap_or(&Json::Null)
        ));
    }
    let tables: Option<Vec<&str>> = header
        .get("tables")
        .and_then(Json::as_array)
        .map(|tables| tables.iter().filter_map(Json::as_str).collect());
    let known: Vec<&str> = TABLES.iter().map(|table| table.name).collect();
    if tables.as_ref() != Some(&known) {
        return Err(format!(
            "the header lists the tables {tables:?}, this binary's are {known:?}"
        ));
    }
    Ok(())
}

fn parse_row(object: &Map<String, Json>) -> Result<Row, String> {
    let (Some(name), Some(Json::Object(fields)), 2) =
        (object.get("table"), object.get("row"), object.len())
    else {
        return Err("neither a row (`table` and `row`) nor the trailer".to_owned());
    };
    let name = name.as_str().unwrap_or_default();
    let table = tables::position(name).ok_or_else(|| format!("no table {name:?}"))?;
    let spec = &TABLES[table];
    if let Some(unknown) = fields
        .keys()
        .find(|key| !spec.column_names().any(|c| c == *key))
    {
        return Err(format!("{name} has no column {unknown:?}"));
    }
    let mut values = Vec::with_capacity(spec.columns.len());
    for column in spec.columns {
        let json = fields
            .get(column.name)
            .ok_or_else(|| format!("the row of {name} has no {}", column.name))?;
        let value = parse_value(json, column.kind, column.nullable)
            .map_err(|wrong| format!("{name}.{}: {wrong}", column.name))?;
        values.push(value);
    }
    Ok(Row { table, values })
}

fn parse_value(json: &Json, kind: Kind, nullable: bool) -> Result<Value, String> {
    let wrong = || format!("{json} is not {}", expected(kind, nullable));
    Ok(match (kind, json) {
        (_, Json::Null) if nullable => Value::Null,
        (Kind::Integer, Json::Number(n)) => Value::Integer(n.as_i64().ok_or_else(wrong)?),
        (Kind::Integer, Json::String(digits)) => {
            Value::Integer(digits.parse().map_err(|_| wrong())?)
        }
        (Kind::Text, Json::String(text)) => Value::Text(text.clone()),
        (Kind::Bytes, Json::String(base64)) => {
            Value::Bytes(BASE64.decode(base64).map_err(|_| wrong())?)
        }
        (Kind::Bool, Json::Bool(flag)) => Value::Bool(*flag),
        _ => return Err(wrong()),
    })
}

fn expected(kind: Kind, nullable: bool) -> String {
    let what = match kind {
        Kind::Integer => "an integer",
        Kind::Text => "a string",
        Kind::Bytes => "base64 bytes",
        Kind::Bool => "true or false",
    };
    if nullable {
        format!("{what} or null")
    } else {
        what.to_owned()
    }
}

fn check_trailer(trailer: &Json, counts: &Counts) -> Result<(), String> {
    let Some(Json::Object(rows)) = trailer.get("rows") else {
        return Err("the trailer has no `rows`".to_owned());
    };
    if let Some(unknown) = rows.keys().find(|name| tables::position(name).is_none()) {
        return Err(format!(
            "the trailer counts a table {unknown:?} this binary lacks"
        ));
    }
    for (name, read) in counts.iter() {
        let said = rows.get(name).and_then(Json::as_u64);
        if said != Some(read) {
            return Err(format!(
                "the trailer says {name} has {} rows, the file holds {read}: the file is \
                 incomplete or was edited; nothing was imported",
                rows.get(name).unwrap_or(&Json::Null)
            ));
        }
    }
    Ok(())
}
