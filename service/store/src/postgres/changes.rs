//! Telling the other servers that share the database what this one committed (cluster mode).
//!
//! Once the store shares its changes ([`crate::Store::share_changes`]), every transaction that
//! commits lifecycle entries, inbox items or tournament changes also sends notifications on
//! one channel, named after the schema so deployments in other schemas of the database are not
//! told. PostgreSQL delivers a transaction's notifications only when it commits, in commit
//! order, to every connection listening on the channel. A payload is small, a kind and the
//! newest number; the listener reads the rows themselves from the store:
//!
//! - `lifecycle <position>`: the batch's last lifecycle position;
//! - `inbox <first seq> <last seq> <bot id>`: one per bot the transaction added items for;
//! - `tournament <tournament id>`: one per tournament whose log, entries, rounds or games
//!   changed.
//!
//! Until the store shares its changes nothing is sent: a single server pays nothing for it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, Ordering};

use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, Client, NoTls, Notification, Transaction};

use super::{PostgresStore, within};
use crate::{InboxRow, StoreError};

/// Notifications received and not yet handled; past that the listening connection waits (the
/// database queues them meanwhile).
const RECEIVED: usize = 1024;

/// The longest channel name PostgreSQL takes (an identifier).
const LONGEST_CHANNEL: usize = 63;

/// What this server sends with its transactions, and how it knows its own notifications.
#[derive(Default)]
pub(crate) struct Changes {
    /// Unset, and nothing sent, until the store shares its changes.
    channel: OnceLock<String>,
    /// The backend process of the writer's connection: notifications from it are this server's
    /// own, whose rows it published when it committed them.
    writer_pid: AtomicI32,
}

/// A notification read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Notice {
    Lifecycle {
        position: u64,
    },
    Inbox {
        bot_id: String,
        first_seq: u64,
        last_seq: u64,
    },
    Tournament {
        tournament_id: String,
    },
}

impl Notice {
    pub(crate) fn payload(&self) -> String {
        match self {
            Notice::Lifecycle { position } => format!("lifecycle {position}"),
            Notice::Inbox {
                bot_id,
                first_seq,
                last_seq,
            } => format!("inbox {first_seq} {last_seq} {bot_id}"),
            Notice::Tournament { tournament_id } => format!("tournament {tournament_id}"),
        }
    }

    /// `None` for a payload this server does not know (a newer server's kind).
    pub(crate) fn parse(payload: &str) -> Option<Self> {
        let (kind, rest) = payload.split_once(' ')?;
        match kind {
            "lifecycle" => Some(Notice::Lifecycle {
                position: rest.parse().ok()?,
            }),
            "inbox" => {
                // The bot id last: it is the one part that could hold a space.
                let mut parts = rest.splitn(3, ' ');
                let first_seq = parts.next()?.parse().ok()?;
                let last_seq = parts.next()?.parse().ok()?;
                let bot_id = parts.next()?.to_owned();
                Some(Notice::Inbox {
                    bot_id,
                    first_seq,
                    last_seq,
                })
            }
            "tournament" => Some(Notice::Tournament {
                tournament_id: rest.to_owned(),
            }),
            _ => None,
        }
    }
}

/// The channel of the store whose tables live in `schema`.
pub(crate) fn channel_for(schema: &str) -> String {
    let mut channel = format!("pitchmate.{schema}");
    if channel.len() > LONGEST_CHANNEL {
        // Two schemas that share this prefix share a channel: each then reads a little for
        // the other's notifications and finds nothing of its own, which is harmless.
        let mut end = LONGEST_CHANNEL;
        while !channel.is_char_boundary(end) {
            end -= 1;
        }
        channel.truncate(end);
    }
    channel
}

impl Changes {
    /// Turns sending on, on `channel`; a second call changes nothing.
    pub(crate) fn share_on(&self, channel: String) {
        let _ = self.channel.set(channel);
    }

    pub(crate) fn channel(&self) -> Option<&str> {
        self.channel.get().map(String::as_str)
    }

    pub(crate) fn set_writer_pid(&self, pid: i32) {
        self.writer_pid.store(pid, Ordering::Relaxed);
    }

    /// Whether the notification came from this server's own writer.
    pub(crate) fn is_own(&self, notification: &Notification) -> bool {
        notification.process_id() == self.writer_pid.load(Ordering::Relaxed)
    }

    /// Sends `notices` with the transaction (delivered when it commits), in one statement.
    async fn send(
        &self,
        transaction: &Transaction<'_>,
        notices: impl IntoIterator<Item = Notice>,
    ) -> Result<(), StoreError> {
        let Some(channel) = self.channel.get() else {
            return Ok(());
        };
        let payloads: Vec<String> = notices.into_iter().map(|n| n.payload()).collect();
        if payloads.is_empty() {
            return Ok(());
        }
        transaction
            .execute(
                "SELECT pg_notify($1, payload) FROM unnest($2::TEXT[]) AS payload",
                &[&channel, &payloads],
            )
            .await?;
        Ok(())
    }

    /// The batch's lifecycle entries end at `last_position`.
    pub(crate) async fn lifecycle(
        &self,
        transaction: &Transaction<'_>,
        last_position: u64,
    ) -> Result<(), StoreError> {
        self.send(
            transaction,
            [Notice::Lifecycle {
                position: last_position,
            }],
        )
        .await
    }

    /// The transaction added `rows` to inboxes: one notice per bot, its first and last seq.
    pub(crate) async fn inbox(
        &self,
        transaction: &Transaction<'_>,
        rows: &[InboxRow],
    ) -> Result<(), StoreError> {
        if self.channel.get().is_none() || rows.is_empty() {
            return Ok(());
        }
        let mut spans: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for row in rows {
            let span = spans.entry(&row.bot_id).or_insert((row.seq, row.seq));
            span.0 = span.0.min(row.seq);
            span.1 = span.1.max(row.seq);
        }
        let notices = spans
            .into_iter()
            .map(|(bot_id, (first_seq, last_seq))| Notice::Inbox {
                bot_id: bot_id.to_owned(),
                first_seq,
                last_seq,
            });
        self.send(transaction, notices).await
    }

    /// The transaction changed these tournaments.
    pub(crate) async fn tournaments<'a>(
        &self,
        transaction: &Transaction<'_>,
        tournament_ids: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), StoreError> {
        if self.channel.get().is_none() {
            return Ok(());
        }
        let ids: BTreeSet<&str> = tournament_ids.into_iter().collect();
        let notices = ids.into_iter().map(|id| Notice::Tournament {
            tournament_id: id.to_owned(),
        });
        self.send(transaction, notices).await
    }
}

/// `name` as a quoted identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl PostgresStore {
    /// The schema the store's tables are in (the first of the search path that exists).
    pub(crate) async fn schema(&self) -> Result<String, StoreError> {
        self.reader
            .read(|client| async move {
                let schema: Option<String> = client
                    .query_one("SELECT current_schema()", &[])
                    .await?
                    .get(0);
                schema.ok_or_else(|| {
                    StoreError::Database("postgresql: no schema on the search path".to_owned())
                })
            })
            .await
    }

    /// A connection of its own listening on the changes channel, and the notifications it
    /// receives; the receiver closes when the connection ends, however it ends. The client
    /// must be kept while listening: dropping it closes the connection.
    pub(crate) async fn listen(
        &self,
    ) -> Result<(Client, mpsc::Receiver<Notification>), StoreError> {
        let channel = self.changes.channel().ok_or_else(|| {
            StoreError::Database("postgresql: the store does not share its changes".to_owned())
        })?;
        let (client, mut connection) = self.config.connect(NoTls).await?;
        let (sender, received) = mpsc::channel(RECEIVED);
        tokio::spawn(async move {
            while let Some(message) =
                std::future::poll_fn(|context| connection.poll_message(context)).await
            {
                match message {
                    Ok(AsyncMessage::Notification(notification)) => {
                        if sender.send(notification).await.is_err() {
                            return;
                        }
                    }
                    Ok(_) => {}
                    Err(error) => {
                        tracing::warn!(%error, "the postgresql listener's connection ended");
                        return;
                    }
                }
            }
        });
        within(async {
            client
                .batch_execute(&format!("LISTEN {}", quoted(channel)))
                .await?;
            Ok(())
        })
        .await?;
        Ok((client, received))
    }

    pub(crate) fn changes(&self) -> &Changes {
        &self.changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_as_sent() {
        for notice in [
            Notice::Lifecycle { position: 42 },
            Notice::Inbox {
                bot_id: "bot with a space".into(),
                first_seq: 3,
                last_seq: 5,
            },
            Notice::Tournament {
                tournament_id: "t-1".into(),
            },
        ] {
            assert_eq!(Notice::parse(&notice.payload()), Some(notice));
        }
        assert_eq!(Notice::parse("rating 7"), None);
        assert_eq!(Notice::parse("lifecycle seven"), None);
        assert_eq!(Notice::parse("inbox 1 x"), None);
    }

    #[test]
    fn a_channel_is_named_after_its_schema_within_postgresqls_limit() {
        assert_eq!(channel_for("public"), "pitchmate.public");
        let long = channel_for(&"é".repeat(40));
        assert!(long.len() <= LONGEST_CHANNEL, "{}", long.len());
        assert!(long.starts_with("pitchmate.é"));
    }
}
