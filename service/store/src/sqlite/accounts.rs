//! Bots and API keys in SQLite (see `accounts.rs` for what the columns hold). This connection
//! is the file's only writer, so what a transaction reads before it writes stays true until it
//! commits.

use rusqlite::{OptionalExtension, Transaction, ffi, params};

use super::{SqliteStore, blocking};
use crate::accounts::{
    ApiKeyRow, BotRow, bot_id_taken, decode_variants, encode_variants, key_id_taken, name_key,
    name_taken, no_such_bot,
};
use crate::{InboxRow, NewInboxItem, StoreError};

/// Schema 7.
pub(super) const ACCOUNTS: &str = "
    CREATE TABLE bots (
        bot_id TEXT NOT NULL PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        description TEXT NOT NULL,
        variants TEXT NOT NULL,
        max_concurrent INTEGER NOT NULL,
        daily_cap INTEGER NOT NULL,
        create_time_nanos INTEGER NOT NULL
    );
    CREATE TABLE api_keys (
        key_id TEXT NOT NULL PRIMARY KEY,
        bot_id TEXT REFERENCES bots (bot_id),
        label TEXT NOT NULL,
        scopes INTEGER NOT NULL,
        secret_hash BLOB NOT NULL,
        create_time_nanos INTEGER NOT NULL,
        revoke_time_nanos INTEGER
    );
    CREATE INDEX api_keys_by_bot ON api_keys (bot_id);
";

const BOT_COLUMNS: &str = "bot_id, name, owner, description, variants, max_concurrent, \
                           daily_cap, create_time_nanos";
const KEY_COLUMNS: &str = "key_id, bot_id, label, scopes, secret_hash, create_time_nanos, \
                           revoke_time_nanos";

impl SqliteStore {
    pub async fn create_bot(
        &self,
        bot: BotRow,
        first_key: Option<ApiKeyRow>,
    ) -> Result<(), StoreError> {
        let variants = encode_variants(&bot.variants)?;
        self.write_directly(move |transaction| {
            let inserted = transaction
                .prepare_cached(
                    "INSERT INTO bots (bot_id, name, name_key, owner, description, variants, \
                     max_concurrent, daily_cap, create_time_nanos) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
                )?
                .execute(params![
                    bot.bot_id,
                    bot.name,
                    name_key(&bot.name),
                    bot.owner,
                    bot.description,
                    variants,
                    bot.max_concurrent,
                    bot.daily_cap,
                    bot.create_time_nanos,
                ])?;
            if inserted == 0 {
                let name_held = transaction
                    .prepare_cached("SELECT 1 FROM bots WHERE name_key = ?1")?
                    .exists([name_key(&bot.name)])?;
                return Err(if name_held {
                    name_taken(&bot.name)
                } else {
                    bot_id_taken(&bot.bot_id)
                });
            }
            match &first_key {
                Some(key) => insert_key(transaction, key),
                None => Ok(()),
            }
        })
        .await
    }

    pub async fn update_bot(
        &self,
        bot: BotRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        let variants = encode_variants(&bot.variants)?;
        self.write_directly(move |transaction| {
            let updated = transaction
                .prepare_cached(
                    "UPDATE bots SET name = ?2, name_key = ?3, owner = ?4, description = ?5, \
                     variants = ?6, max_concurrent = ?7, daily_cap = ?8 WHERE bot_id = ?1",
                )?
                .execute(params![
                    bot.bot_id,
                    bot.name,
                    name_key(&bot.name),
                    bot.owner,
                    bot.description,
                    variants,
                    bot.max_concurrent,
                    bot.daily_cap,
                ]);
            match updated {
                Ok(0) => Ok(None),
                Ok(_) => Ok(Some(super::league::append(transaction, inbox)?)),
                // `name_key` is the one unique column an update changes.
                Err(error)
                    if error.sqlite_error().map(|e| e.extended_code)
                        == Some(ffi::SQLITE_CONSTRAINT_UNIQUE) =>
                {
                    Err(name_taken(&bot.name))
                }
                Err(error) => Err(error.into()),
            }
        })
        .await
    }

    pub async fn create_key(&self, key: ApiKeyRow) -> Result<(), StoreError> {
        self.write_directly(move |transaction| insert_key(transaction, &key))
            .await
    }

    pub async fn revoke_key(&self, key_id: String, time_nanos: i64) -> Result<bool, StoreError> {
        self.write_directly(move |transaction| {
            let revoked = transaction
                .prepare_cached(
                    "UPDATE api_keys SET revoke_time_nanos = ?2 \
                     WHERE key_id = ?1 AND revoke_time_nanos IS NULL",
                )?
                .execute(params![key_id, time_nanos])?;
            Ok(revoked > 0)
        })
        .await
    }

    pub async fn bot(&self, bot_id: String) -> Result<Option<BotRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(connection
                .prepare_cached(&format!("SELECT {BOT_COLUMNS} FROM bots WHERE bot_id = ?1"))?
                .query_row([bot_id], bot_row)
                .optional()?)
        })
        .await
    }

    pub async fn bot_named(&self, name_key: String) -> Result<Option<BotRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            Ok(connection
                .prepare_cached(&format!(
                    "SELECT {BOT_COLUMNS} FROM bots WHERE name_key = ?1"
                ))?
                .query_row([name_key], bot_row)
                .optional()?)
        })
        .await
    }

    /// Up to `limit` bots whose name key follows `after` (every bot for `None`), in order.
    pub async fn bots(&self, after: Option<String>, limit: i64) -> Result<Vec<BotRow>, StoreError> {
        // A statement for each case, so that the unique index serves both.
        let from = if after.is_some() {
            "name_key > ?1"
        } else {
            "?1 IS NULL"
        };
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {BOT_COLUMNS} FROM bots WHERE {from} ORDER BY name_key LIMIT ?2"
            ))?;
            let rows = statement.query_map(params![after, limit], bot_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn key(&self, key_id: String) -> Result<Option<ApiKeyRow>, StoreError> {
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {KEY_COLUMNS} FROM api_keys WHERE key_id = ?1"
            ))?;
            Ok(statement.query_row([key_id], key_row).optional()?)
        })
        .await
    }

    /// The keys of `bot_id`, or every key for `None`.
    pub async fn keys(&self, bot_id: Option<String>) -> Result<Vec<ApiKeyRow>, StoreError> {
        let of = if bot_id.is_some() {
            "bot_id = ?1"
        } else {
            "?1 IS NULL"
        };
        blocking(&self.reader, move |connection| {
            let mut statement = connection.prepare_cached(&format!(
                "SELECT {KEY_COLUMNS} FROM api_keys WHERE {of} ORDER BY create_time_nanos, key_id"
            ))?;
            let rows = statement.query_map([bot_id], key_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// Refuses a key for a bot that does not exist here, rather than leaving it to the foreign
/// key, so the caller learns which rule the key broke.
fn insert_key(transaction: &Transaction<'_>, key: &ApiKeyRow) -> Result<(), StoreError> {
    if let Some(bot_id) = &key.bot_id {
        let known = transaction
            .prepare_cached("SELECT 1 FROM bots WHERE bot_id = ?1")?
            .exists([bot_id])?;
        if !known {
            return Err(no_such_bot(bot_id));
        }
    }
    let inserted = transaction
        .prepare_cached(
            "INSERT INTO api_keys (key_id, bot_id, label, scopes, secret_hash, \
             create_time_nanos, revoke_time_nanos) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            key.key_id,
            key.bot_id,
            key.label,
            key.scopes,
            key.secret_hash,
            key.create_time_nanos,
            key.revoke_time_nanos,
        ])?;
    if inserted == 0 {
        return Err(key_id_taken(&key.key_id));
    }
    Ok(())
}

fn bot_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<BotRow> {
    Ok(BotRow {
        bot_id: row.get(0)?,
        name: row.get(1)?,
        owner: row.get(2)?,
        description: row.get(3)?,
        variants: decode_variants(&row.get::<_, String>(4)?),
        max_concurrent: row.get(5)?,
        daily_cap: row.get(6)?,
        create_time_nanos: row.get(7)?,
    })
}

fn key_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<ApiKeyRow> {
    Ok(ApiKeyRow {
        key_id: row.get(0)?,
        bot_id: row.get(1)?,
        label: row.get(2)?,
        scopes: row.get(3)?,
        secret_hash: row.get(4)?,
        create_time_nanos: row.get(5)?,
        revoke_time_nanos: row.get(6)?,
    })
}
