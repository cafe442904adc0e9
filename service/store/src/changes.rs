//! Live changes across servers sharing one PostgreSQL database (cluster mode).
//!
//! Each server's live feeds (the lifecycle feed, bots' inboxes, tournament watchers) are fed by
//! what that server commits. So that a reader on one server hears at once of what another
//! commits, every transaction that commits lifecycle entries, inbox items or tournament changes
//! also sends a notification (see `postgres/changes.rs`), and each server's listener, on a
//! connection of its own, turns those of other servers into the same live streams:
//!
//! - a lifecycle position: the entries after the newest this server published, read from the
//!   store and published on the lifecycle feed. Live readers take entries strictly in position
//!   order, skip what they were given and fill a gap from the store (see the hosting's
//!   `ordered`), so entries from the writer and from the listener may interleave;
//! - an inbox span: the bot's items in it, read from the store, as [`RemoteChange::Inbox`];
//! - a tournament: [`RemoteChange::Tournament`].
//!
//! A server's own notifications (from its writer's connection) are skipped: it published those
//! rows when it committed them. When the listener's connection is lost, or a read it needs
//! fails, it connects again with a doubling backoff; on every connection, the first too, it
//! publishes the lifecycle entries after the newest published and sends
//! [`RemoteChange::Missed`], so that whatever was committed while nobody listened reaches the
//! live readers.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use crate::postgres::PostgresStore;
use crate::postgres::changes::Notice;
use crate::{Backend, Feed, InboxRow, MAX_BATCH, StoreError, StoreHealth};

/// Remote changes a slow receiver may fall behind by before it is told it lagged.
pub(crate) const REMOTE_LIVE: usize = 1024;

/// The first wait before connecting the listener again; it doubles up to [`LONGEST_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(100);
const LONGEST_WAIT: Duration = Duration::from_secs(5);

/// What another server sharing the database committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteChange {
    /// Items another server added to one bot's inbox, by seq.
    Inbox(Vec<InboxRow>),
    /// Another server changed this tournament.
    Tournament(String),
    /// The listener (re)connected: changes may have gone unheard meanwhile, so whatever
    /// follows an inbox or a tournament reads it again from the store.
    Missed,
}

/// The listener: runs until the store's writer stops (the store was closed or dropped).
pub(crate) async fn listen(
    backend: Arc<Backend>,
    feed: Arc<Feed>,
    remote: broadcast::Sender<RemoteChange>,
    health: watch::Receiver<StoreHealth>,
) {
    let Backend::Postgres(store) = &*backend else {
        return;
    };
    let closed = writer_stopped(health);
    tokio::pin!(closed);
    let mut wait = FIRST_WAIT;
    loop {
        let session = session(store, &backend, &feed, &remote);
        let (listened, error) = tokio::select! {
            ended = session => ended,
            () = &mut closed => return,
        };
        if listened {
            wait = FIRST_WAIT;
        }
        tracing::warn!(%error, retry_in = ?wait, "the store's listener stopped hearing other servers");
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = &mut closed => return,
        }
        wait = (wait * 2).min(LONGEST_WAIT);
    }
}

/// Returns once the writer's task has ended.
async fn writer_stopped(mut health: watch::Receiver<StoreHealth>) {
    while health.changed().await.is_ok() {}
}

/// One connection's time: listens, catches up, then handles notifications until something
/// fails. Whether it got as far as listening, and what failed.
async fn session(
    store: &PostgresStore,
    backend: &Backend,
    feed: &Feed,
    remote: &broadcast::Sender<RemoteChange>,
) -> (bool, StoreError) {
    let (_client, mut received) = match store.listen().await {
        Ok(listening) => listening,
        Err(error) => return (false, error),
    };
    tracing::info!("the store listens for other servers' changes");
    ::metrics::counter!(crate::metrics::LISTENER_CONNECTIONS).increment(1);
    // Listening began before this catch-up reads: anything committed from here on is either
    // read now or notified.
    if let Err(error) = feed.catch_up(backend).await {
        return (true, error);
    }
    // Nobody may be receiving: nothing to tell.
    let _ = remote.send(RemoteChange::Missed);
    while let Some(notification) = received.recv().await {
        if store.changes().is_own(&notification) {
            continue;
        }
        let Some(notice) = Notice::parse(notification.payload()) else {
            tracing::debug!(
                payload = notification.payload(),
                "a change notification of an unknown kind"
            );
            continue;
        };
        if let Err(error) = heard(notice, backend, feed, remote).await {
            return (true, error);
        }
    }
    (
        true,
        StoreError::Database("postgresql: the listener's connection ended".to_owned()),
    )
}

/// Turns one notice of another server into live rows or a remote change.
async fn heard(
    notice: Notice,
    backend: &Backend,
    feed: &Feed,
    remote: &broadcast::Sender<RemoteChange>,
) -> Result<(), StoreError> {
    match notice {
        Notice::Lifecycle { position } => {
            while feed.last_published() < position {
                let rows = backend
                    .lifecycle_after(feed.last_published(), MAX_BATCH)
                    .await?;
                if rows.is_empty() {
                    break;
                }
                feed.publish(rows);
            }
        }
        Notice::Inbox {
            bot_id,
            first_seq,
            last_seq,
        } => {
            let count = last_seq.saturating_sub(first_seq).saturating_add(1);
            let rows = backend
                .inbox_after(
                    &bot_id,
                    first_seq.saturating_sub(1),
                    usize::try_from(count).unwrap_or(usize::MAX),
                )
                .await?;
            // Pruned already: nothing left to tell.
            if !rows.is_empty() {
                let _ = remote.send(RemoteChange::Inbox(rows));
            }
        }
        Notice::Tournament { tournament_id } => {
            let _ = remote.send(RemoteChange::Tournament(tournament_id));
        }
    }
    Ok(())
}
