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
//!
//! As a backstop for rows that never came live here (another server's, committed while no
//! listener heard it), when a heartbeat's time passes without a live row of its log (rows of
//! other logs on the same bus do not count) the reader looks in the store before it says
//! nothing came: such rows arrive within a heartbeat.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, timeout_at};

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
    /// Whether a heartbeat's time passed without a live row of this log.
    quiet: bool,
    /// When the reader last gave a row or a note; the next note is due a heartbeat later.
    given_at: Instant,
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
            quiet: false,
            given_at: Instant::now(),
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
                self.given_at = Instant::now();
                return Ok(Some(Next::Row(row)));
            }
            if self.behind {
                let rows = self.log.read_after(self.number, self.page).await?;
                self.behind = rows.len() == self.page;
                self.ready.extend(rows);
                continue;
            }
            tokio::select! {
                // Rows of other logs on the bus do not put the heartbeat off.
                received = timeout_at(self.given_at + self.heartbeat, self.live.recv()) => {
                    match received {
                        // Rows another server stored never come live: the store may have some.
                        Err(_quiet) => self.quiet = true,
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
            if self.quiet {
                self.quiet = false;
                let rows = self.log.read_after(self.number, self.page).await?;
                if rows.is_empty() {
                    self.given_at = Instant::now();
                    return Ok(Some(Next::Quiet {
                        number: self.number,
                    }));
                }
                self.behind = rows.len() == self.page;
                self.ready.extend(rows);
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Rows in memory standing for the store; the live channel carries only what a test sends.
    struct Stored(Arc<Mutex<Vec<u64>>>);

    impl Log for Stored {
        type Row = u64;
        type Error = ();

        fn number(row: &u64) -> u64 {
            *row
        }

        /// Rows from 1000 on stand for another log's on the same bus.
        fn owns(&self, row: &u64) -> bool {
            *row < 1000
        }

        async fn read_after(&self, after: u64, limit: usize) -> Result<Vec<u64>, ()> {
            let rows = self.0.lock().unwrap();
            Ok(rows
                .iter()
                .copied()
                .filter(|n| *n > after)
                .take(limit)
                .collect())
        }
    }

    async fn next(reader: &mut OrderedReader<Stored>) -> Option<u64> {
        match reader.next().await.unwrap().unwrap() {
            Next::Row(row) => Some(row),
            Next::Quiet { .. } => None,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn rows_another_server_stored_arrive_within_a_heartbeat() {
        let stored = Arc::new(Mutex::new(vec![1, 2]));
        let (live, receiver) = broadcast::channel(16);
        let (_stop, stopping) = watch::channel(false);
        let mut reader = OrderedReader::new(
            Stored(Arc::clone(&stored)),
            receiver,
            0,
            2,
            Duration::from_secs(1),
            stopping,
        );
        assert_eq!(next(&mut reader).await, Some(1));
        assert_eq!(next(&mut reader).await, Some(2));
        assert_eq!(next(&mut reader).await, None, "nothing more: quiet");

        // Stored by another server: nothing comes live, yet the reader finds them.
        stored.lock().unwrap().extend([3, 4, 5]);
        assert_eq!(next(&mut reader).await, Some(3));
        assert_eq!(next(&mut reader).await, Some(4));
        assert_eq!(next(&mut reader).await, Some(5), "past a full page too");

        // Live rows still come as they are sent, each once.
        stored.lock().unwrap().push(6);
        live.send(Arc::new(6)).unwrap();
        assert_eq!(next(&mut reader).await, Some(6));
        assert_eq!(next(&mut reader).await, None);

        // Another log's rows keep the bus busy for three heartbeats: a row of this log stored
        // elsewhere still comes after one.
        let busy = tokio::spawn(async move {
            for other in 1000..1010 {
                tokio::time::sleep(Duration::from_millis(300)).await;
                let _ = live.send(Arc::new(other));
            }
        });
        stored.lock().unwrap().push(7);
        let asked = Instant::now();
        assert_eq!(next(&mut reader).await, Some(7));
        assert!(
            asked.elapsed() <= Duration::from_secs(1),
            "within a heartbeat (the test's clock is paused: exact)"
        );
        busy.await.unwrap();
    }
}
