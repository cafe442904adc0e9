//! Bots and API keys in PostgreSQL (see `accounts.rs` for what the columns hold). Several
//! servers may share the database, so a taken name or id is caught by the unique indexes
//! themselves (`ON CONFLICT DO NOTHING`, or the violation an update raises), never by reading
//! first.
//! `name_key` and `key_id` compare byte by byte (`COLLATE "C"`), as SQLite's do, so pages and
//! key order are the same whatever the database's locale.

use tokio_postgres::error::SqlState;
use tokio_postgres::{Row, Transaction};

use super::{PostgresStore, within};
use crate::accounts::{
    ApiKeyRow, BotRow, bot_id_taken, decode_variants, encode_variants, key_id_taken, name_key,
    name_taken, no_such_bot,
};
use crate::{InboxRow, NewInboxItem, StoreError};

/// Schema 7. Unsigned 32-bit numbers are kept as `BIGINT`, which holds them all.
pub(super) const ACCOUNTS: &str = "
    CREATE TABLE bots (
        bot_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT COLLATE \"C\" NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        description TEXT NOT NULL,
        variants TEXT NOT NULL,
        max_concurrent BIGINT NOT NULL,
        daily_cap BIGINT NOT NULL,
        create_time_nanos BIGINT NOT NULL
    );
    CREATE TABLE api_keys (
        key_id TEXT COLLATE \"C\" PRIMARY KEY,
        bot_id TEXT REFERENCES bots (bot_id),
        label TEXT NOT NULL,
        scopes BIGINT NOT NULL,
        secret_hash BYTEA NOT NULL,
        create_time_nanos BIGINT NOT NULL,
        revoke_time_nanos BIGINT
    );
    CREATE INDEX api_keys_by_bot ON api_keys (bot_id);
";

const BOT_COLUMNS: &str = "bot_id, name, owner, description, variants, max_concurrent, \
                           daily_cap, create_time_nanos";
const KEY_COLUMNS: &str = "key_id, bot_id, label, scopes, secret_hash, create_time_nanos, \
                           revoke_time_nanos";

impl PostgresStore {
    pub async fn create_bot(
        &self,
        bot: &BotRow,
        first_key: Option<&ApiKeyRow>,
    ) -> Result<(), StoreError> {
        let variants = encode_variants(&bot.variants)?;
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let inserted = transaction
                .execute(
                    "INSERT INTO bots (bot_id, name, name_key, owner, description, variants, \
                     max_concurrent, daily_cap, create_time_nanos) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
                    &[
                        &bot.bot_id,
                        &bot.name,
                        &name_key(&bot.name),
                        &bot.owner,
                        &bot.description,
                        &variants,
                        &i64::from(bot.max_concurrent),
                        &i64::from(bot.daily_cap),
                        &bot.create_time_nanos,
                    ],
                )
                .await?;
            if inserted == 0 {
                // Read committed: this sees the row that took the name or id, even one
                // another server committed after this transaction began.
                let name_held = transaction
                    .query_opt(
                        "SELECT 1 FROM bots WHERE name_key = $1",
                        &[&name_key(&bot.name)],
                    )
                    .await?
                    .is_some();
                return Err(if name_held {
                    name_taken(&bot.name)
                } else {
                    bot_id_taken(&bot.bot_id)
                });
            }
            if let Some(key) = first_key {
                insert_key(&transaction, key).await?;
            }
            transaction.commit().await?;
            Ok(())
        })
        .await
    }

    pub async fn update_bot(
        &self,
        bot: &BotRow,
        inbox: Vec<NewInboxItem>,
    ) -> Result<Option<Vec<InboxRow>>, StoreError> {
        let variants = encode_variants(&bot.variants)?;
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            let updated = transaction
                .execute(
                    "UPDATE bots SET name = $2, name_key = $3, owner = $4, description = $5, \
                     variants = $6, max_concurrent = $7, daily_cap = $8 WHERE bot_id = $1",
                    &[
                        &bot.bot_id,
                        &bot.name,
                        &name_key(&bot.name),
                        &bot.owner,
                        &bot.description,
                        &variants,
                        &i64::from(bot.max_concurrent),
                        &i64::from(bot.daily_cap),
                    ],
                )
                .await;
            let rows = match updated {
                Ok(0) => return Ok(None),
                Ok(_) => super::league::append(&transaction, &self.changes, inbox).await?,
                // `name_key` is the one unique column an update changes.
                Err(error) if error.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                    return Err(name_taken(&bot.name));
                }
                Err(error) => return Err(error.into()),
            };
            transaction.commit().await?;
            Ok(Some(rows))
        })
        .await
    }

    pub async fn create_key(&self, key: &ApiKeyRow) -> Result<(), StoreError> {
        let mut client = self.direct_writer().await?;
        within(async {
            let transaction = client.transaction().await?;
            insert_key(&transaction, key).await?;
            transaction.commit().await?;
            Ok(())
        })
        .await
    }

    pub async fn revoke_key(&self, key_id: &str, time_nanos: i64) -> Result<bool, StoreError> {
        let client = self.direct_writer().await?;
        within(async {
            let revoked = client
                .execute(
                    "UPDATE api_keys SET revoke_time_nanos = $2 \
                     WHERE key_id = $1 AND revoke_time_nanos IS NULL",
                    &[&key_id, &time_nanos],
                )
                .await?;
            Ok(revoked > 0)
        })
        .await
    }

    pub async fn bot(&self, bot_id: &str) -> Result<Option<BotRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!("SELECT {BOT_COLUMNS} FROM bots WHERE bot_id = $1");
                client
                    .query_opt(&sql, &[&bot_id])
                    .await?
                    .map(|row| bot_row(&row))
                    .transpose()
            })
            .await
    }

    pub async fn bot_named(&self, name_key: String) -> Result<Option<BotRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!("SELECT {BOT_COLUMNS} FROM bots WHERE name_key = $1");
                client
                    .query_opt(&sql, &[&name_key])
                    .await?
                    .map(|row| bot_row(&row))
                    .transpose()
            })
            .await
    }

    /// Up to `limit` bots whose name key follows `after` (every bot for `None`), in order.
    pub async fn bots(&self, after: Option<String>, limit: i64) -> Result<Vec<BotRow>, StoreError> {
        // A statement for each case, so that the unique index serves both.
        let from = if after.is_some() {
            "name_key > $1"
        } else {
            "$1::TEXT IS NULL"
        };
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {BOT_COLUMNS} FROM bots WHERE {from} ORDER BY name_key LIMIT $2"
                );
                client
                    .query(&sql, &[&after, &limit])
                    .await?
                    .iter()
                    .map(bot_row)
                    .collect()
            })
            .await
    }

    pub async fn key(&self, key_id: &str) -> Result<Option<ApiKeyRow>, StoreError> {
        self.reader
            .read(|client| async move {
                let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE key_id = $1");
                client
                    .query_opt(&sql, &[&key_id])
                    .await?
                    .as_ref()
                    .map(key_row)
                    .transpose()
            })
            .await
    }

    /// The keys of `bot_id`, or every key for `None`.
    pub async fn keys(&self, bot_id: Option<&str>) -> Result<Vec<ApiKeyRow>, StoreError> {
        let of = if bot_id.is_some() {
            "bot_id = $1"
        } else {
            "$1::TEXT IS NULL"
        };
        self.reader
            .read(|client| async move {
                let sql = format!(
                    "SELECT {KEY_COLUMNS} FROM api_keys WHERE {of} \
                     ORDER BY create_time_nanos, key_id"
                );
                client
                    .query(&sql, &[&bot_id])
                    .await?
                    .iter()
                    .map(key_row)
                    .collect()
            })
            .await
    }
}

/// Refuses a key for a bot that does not exist, rather than leaving it to the foreign key, so
/// the caller learns which rule the key broke. Bots are never deleted, so the bot found stays.
async fn insert_key(transaction: &Transaction<'_>, key: &ApiKeyRow) -> Result<(), StoreError> {
    if let Some(bot_id) = &key.bot_id {
        let known = transaction
            .query_opt("SELECT 1 FROM bots WHERE bot_id = $1", &[bot_id])
            .await?
            .is_some();
        if !known {
            return Err(no_such_bot(bot_id));
        }
    }
    let inserted = transaction
        .execute(
            "INSERT INTO api_keys (key_id, bot_id, label, scopes, secret_hash, \
             create_time_nanos, revoke_time_nanos) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT DO NOTHING",
            &[
                &key.key_id,
                &key.bot_id,
                &key.label,
                &i64::from(key.scopes),
                &key.secret_hash,
                &key.create_time_nanos,
                &key.revoke_time_nanos,
            ],
        )
        .await?;
    if inserted == 0 {
        return Err(key_id_taken(&key.key_id));
    }
    Ok(())
}

/// A 32-bit number from its `BIGINT` column.
fn unsigned(row: &Row, column: usize) -> Result<u32, StoreError> {
    let value: i64 = row.get(column);
    u32::try_from(value).map_err(|_| {
        StoreError::Database(format!(
            "column {} holds {value}, not a 32-bit unsigned number",
            row.columns()[column].name()
        ))
    })
}

fn bot_row(row: &Row) -> Result<BotRow, StoreError> {
    Ok(BotRow {
        bot_id: row.get(0),
        name: row.get(1),
        owner: row.get(2),
        description: row.get(3),
        variants: decode_variants(row.get(4)),
        max_concurrent: unsigned(row, 5)?,
        daily_cap: unsigned(row, 6)?,
        create_time_nanos: row.get(7),
    })
}

fn key_row(row: &Row) -> Result<ApiKeyRow, StoreError> {
    Ok(ApiKeyRow {
        key_id: row.get(0),
        bot_id: row.get(1),
        label: row.get(2),
        scopes: unsigned(row, 3)?,
        secret_hash: row.get(4),
        create_time_nanos: row.get(5),
        revoke_time_nanos: row.get(6),
    })
}
