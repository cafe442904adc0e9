//! Following a log the store keeps in number order (the lifecycle feed by position, a bot's
//! inbox by seq) for one reader: the stored rows after its number, then live ones as they are
//! committed; a note of where it stands when nothing has come for a while.
//!
//! The reader subscribes to the live rows before it reads stored ones, so a row committed in
//! between is in one or the other, and takes rows strictly in number order: one at or before
//! its number is skipped, and a gap (after it lagged behind the live rows) is filled from the
//! store. Nothing is missed or sent twice, across a reconnection or a server restart, because
//! the numbers are stored with the rows.
//!
//! A reader may also be told to read the store again ([`OrderedReader::rereading_on`]): when the
//! live rows may have missed some (in cluster mode, while the store's listener for other
//! servers' changes was not connected).

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

/// Where a log's rows come from.
pub trait Log: Send {
    type Row: Clone + Send + Sync + 'static;
    type Error;

    /// The row's place in the log.
    fn number(row: &Self::Row) -> u64;
    /// Whether a live row belongs to this log (one bus may carry several logs).
    fn owns(&self, row: &Self::Row) -> bool;
    /// Up to `limit` stored rows after `after`, in order.
    fn read_after(
        &self,
        after: u64,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Self::Row>, Self::Error>> + Send;
}

/// What the reader is given next.
pub enum Next<R> {
    Row(R),
    /// Nothing for a heartbeat's time; every row up to `number` has been given.
    Quiet {
        number: u64,
    },
}

pub struct OrderedReader<L: Log> {
    log: L,
    live: broadcast::Receiver<Arc<L::Row>>,
    page: usize,
    heartbeat: Duration,
    stopping: watch::Receiver<bool>,
    /// Changes when the live rows may have missed some; `None`: they never do.
    rereads: Option<watch::Receiver<u64>>,
    /// Every row up to here has been given.
    number: u64,
    ready: VecDeque<L::Row>,
    /// Whether the store may hold rows after `number` that the live rows will not bring.
    behind: bool,
}

impl<L: Log> OrderedReader<L> {
    /// `live` must have been subscribed before anything after `after` is read.
    pub fn new(
        log: L,
        live: broadcast::Receiver<Arc<L::Row>>,
        after: u64,
        page: usize,
        heartbeat: Duration,
        stopping: watch::Receiver<bool>,
    ) -> Self {
        Self {
            log,
            live,
            page,
            heartbeat,
            stopping,
            rereads: None,
            number: after,
            ready: VecDeque::new(),
            behind: true,
        }
    }

    /// Reads the store again whenever `rereads` changes.
    pub fn rereading_on(mut self, mut rereads: watch::Receiver<u64>) -> Self {
        // What happened before this reader existed is covered by its first read.
        rereads.mark_unchanged();
        self.rereads = Some(rereads);
        self
    }

    /// The next row in order, or a note that nothing came; `None` when the server stops.
    pub async fn next(&mut self) -> Result<Option<Next<L::Row>>, L::Error> {
        loop {
            if let Some(row) = self.ready.pop_front() {
                if L::number(&row) <= self.number {
                    continue;
                }
                self.number = L::number(&row);
                return Ok(Some(Next::Row(row)));
            }
            if self.behind {
                let rows = self.log.read_after(self.number, self.page).await?;
                self.behind = rows.len() == self.page;
                self.ready.extend(rows);
                continue;
            }
            tokio::select! {
                received = tokio::time::timeout(self.heartbeat, self.live.recv()) => {
                    match received {
                        Err(_quiet) => return Ok(Some(Next::Quiet { number: self.number })),
                        Ok(Ok(row)) if !self.log.owns(&row) || L::number(&row) <= self.number => {}
                        Ok(Ok(row)) if L::number(&row) == self.number + 1 => {
                            self.ready.push_back(row.as_ref().clone());
                        }
                        // A gap, or rows went by while this reader lagged: the store has them.
                        Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => {
                            self.behind = true;
                        }
                        Ok(Err(broadcast::error::RecvError::Closed)) => return Ok(None),
                    }
                }
                _ = self.stopping.wait_for(|stop| *stop) => return Ok(None),
                () = reread(&mut self.rereads) => self.behind = true,
            }
        }
    }
}

/// Returns when `rereads` changes; never without one, or once its sender is gone.
async fn reread(rereads: &mut Option<watch::Receiver<u64>>) {
    let changed = match rereads {
        Some(rereads) => rereads.changed().await.is_ok(),
        None => false,
    };
    if !changed {
        std::future::pending::<()>().await;
    }
}
