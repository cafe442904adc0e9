//! Following the lifecycle feed for one reader: the stored entries after its position, then
//! live ones as the store commits them, filtered; a note of where the feed stands when it has
//! been quiet for a while.
//!
//! The reader subscribes to the live entries before it reads the stored ones, so an entry
//! committed in between is in one or the other, and entries are taken strictly in position
//! order: one at or before the reader's position is skipped, and a gap (after the reader lagged
//! behind the live entries) is filled from the store. Nothing is missed or sent twice, across
//! a reader's reconnection or a server restart, because positions are stored with the entries.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};
use tokio_stream::Stream;

use super::lifecycle::LifecycleEntry;
use crate::error::ServiceError;
use pitchmate_store::{LifecycleRow, Store};

/// Stored entries read at a time.
const PAGE: usize = 512;

/// Which entries a reader wants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedFilter {
    /// Empty: every variant.
    pub variant_id: String,
    /// Empty: every entry; else the entries that name this player.
    pub player_name: String,
}

impl FeedFilter {
    fn admits(&self, entry: &LifecycleEntry) -> bool {
        (self.variant_id.is_empty() || entry.variant_id == self.variant_id)
            && entry.names(&self.player_name)
    }
}

/// What a reader is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedItem {
    Entry(LifecycleEntry),
    /// Nothing for a while; every entry up to `position` has been considered.
    Quiet {
        position: u64,
    },
}

struct Reader {
    store: Store,
    live: broadcast::Receiver<Arc<LifecycleRow>>,
    filter: FeedFilter,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
    /// Every entry up to here has been sent or filtered out.
    position: u64,
    /// Read, not yet considered.
    ready: VecDeque<LifecycleRow>,
    /// Whether the store may hold entries after `position` that the live feed will not bring.
    behind: bool,
    done: bool,
}

/// The feed after `after` for one reader. It ends when the server stops; a store it cannot
/// read ends it with the error.
pub fn follow(
    store: Store,
    after: u64,
    filter: FeedFilter,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
) -> impl Stream<Item = Result<FeedItem, ServiceError>> + Send {
    let reader = Reader {
        live: store.lifecycle_live(),
        store,
        filter,
        heartbeat,
        stopping,
        position: after,
        ready: VecDeque::new(),
        behind: true,
        done: false,
    };
    futures_util::stream::unfold(reader, |mut reader| async move {
        if reader.done {
            return None;
        }
        let item = reader.next().await.transpose()?;
        if item.is_err() {
            reader.done = true;
        }
        Some((item, reader))
    })
}

impl Reader {
    /// The next item; `None` when the server stops.
    async fn next(&mut self) -> Result<Option<FeedItem>, ServiceError> {
        loop {
            if let Some(row) = self.ready.pop_front() {
                if row.position <= self.position {
                    continue;
                }
                self.position = row.position;
                let entry = LifecycleEntry::from_row(&row).map_err(|e| {
                    ServiceError::StoreUnavailable(format!("the lifecycle feed: {e}"))
                })?;
                if self.filter.admits(&entry) {
                    return Ok(Some(FeedItem::Entry(entry)));
                }
                continue;
            }
            if self.behind {
                let rows = self
                    .store
                    .lifecycle_after(self.position, PAGE)
                    .await
                    .map_err(|e| ServiceError::StoreUnavailable(e.to_string()))?;
                self.behind = rows.len() == PAGE;
                self.ready.extend(rows);
                continue;
            }
            tokio::select! {
                received = tokio::time::timeout(self.heartbeat, self.live.recv()) => {
                    match received {
                        Err(_quiet) => {
                            return Ok(Some(FeedItem::Quiet { position: self.position }));
                        }
                        Ok(Ok(row)) if row.position <= self.position => {}
                        Ok(Ok(row)) if row.position == self.position + 1 => {
                            self.ready.push_back(row.as_ref().clone());
                        }
                        // A gap: entries went by while this reader lagged; the store has them.
                        Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => {
                            self.behind = true;
                        }
                        Ok(Err(broadcast::error::RecvError::Closed)) => return Ok(None),
                    }
                }
                _ = self.stopping.wait_for(|stop| *stop) => return Ok(None),
            }
        }
    }
}
