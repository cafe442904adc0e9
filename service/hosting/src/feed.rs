//! Following the lifecycle feed for one reader: the stored entries after its position, then
//! live ones as the store commits them, filtered; a note of where the feed stands when it has
//! been quiet for a while. How nothing is missed or sent twice is `ordered`'s.

use std::time::Duration;

use tokio::sync::watch;
use tokio_stream::Stream;

use super::lifecycle::LifecycleEntry;
use super::ordered::{Log, Next, OrderedReader};
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

/// The lifecycle feed as an ordered log: every entry is this reader's to consider.
struct Feed(Store);

impl Log for Feed {
    type Row = LifecycleRow;
    type Error = ServiceError;

    fn number(row: &LifecycleRow) -> u64 {
        row.position
    }

    fn owns(&self, _: &LifecycleRow) -> bool {
        true
    }

    async fn read_after(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LifecycleRow>, ServiceError> {
        self.0
            .lifecycle_after(after, limit)
            .await
            .map_err(|e| ServiceError::StoreUnavailable(e.to_string()))
    }
}

struct Reader {
    entries: OrderedReader<Feed>,
    filter: FeedFilter,
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
    let live = store.lifecycle_live();
    let reader = Reader {
        entries: OrderedReader::new(Feed(store), live, after, PAGE, heartbeat, stopping),
        filter,
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
            match self.entries.next().await? {
                None => return Ok(None),
                Some(Next::Quiet { number }) => {
                    return Ok(Some(FeedItem::Quiet { position: number }));
                }
                Some(Next::Row(row)) => {
                    let entry = LifecycleEntry::from_row(&row).map_err(|e| {
                        ServiceError::StoreUnavailable(format!("the lifecycle feed: {e}"))
                    })?;
                    if self.filter.admits(&entry) {
                        return Ok(Some(FeedItem::Entry(entry)));
                    }
                }
            }
        }
    }
}
