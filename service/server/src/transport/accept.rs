//! Taking connections off the listener, no more than the cap at once, and riding out accept
//! errors without spinning.
//!
//! An accept that fails for want of descriptors (EMFILE, ENFILE) or memory leaves the waiting
//! connection in the backlog, so retrying at once fails again at once: tonic's loop did exactly
//! that, burning a core and saying nothing. Here such errors are logged (a line per interval at
//! most, with a count of the rest) and retried after a delay that doubles up to a second.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};
use tokio::time::Instant;

/// The least time between two warnings of one kind.
const WARN_EVERY: Duration = Duration::from_secs(10);

const FIRST_BACKOFF: Duration = Duration::from_millis(5);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Accepts connections from `listener` until `shutdown` resolves, handing each to `serve` with
/// its slot from `slots`; while every slot is taken it accepts nothing (the kernel keeps new
/// connections in the listen backlog). Returns, closing the listener, when `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    slots: &Arc<Semaphore>,
    max_connections: usize,
    shutdown: impl Future<Output = ()>,
    mut serve: impl FnMut(TcpStream, SocketAddr, OwnedSemaphorePermit),
) {
    let mut shutdown = pin!(shutdown);
    let mut at_cap = Throttle::new(WARN_EVERY);
    let mut failing = Throttle::new(WARN_EVERY);
    let mut backoff = FIRST_BACKOFF;
    loop {
        let slot = match Arc::clone(slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(TryAcquireError::NoPermits) => {
                if let Some(unlogged) = at_cap.ready() {
                    tracing::warn!(
                        max_connections,
                        times_since_last_warning = unlogged,
                        "connection cap reached: new connections wait until one closes \
                         (setting `connections.max_connections`)"
                    );
                }
                tokio::select! {
                    slot = Arc::clone(slots).acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => return,
                    },
                    () = shutdown.as_mut() => return,
                }
            }
            Err(TryAcquireError::Closed) => return,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown.as_mut() => return,
        };
        match accepted {
            Ok((stream, peer)) => {
                backoff = FIRST_BACKOFF;
                // Small request/response messages must not wait for Nagle's algorithm.
                if let Err(error) = stream.set_nodelay(true) {
                    tracing::debug!(%peer, %error, "cannot disable Nagle's algorithm");
                }
                serve(stream, peer, slot);
            }
            // That one connection is gone; the next may be fine.
            Err(error) if is_connection_error(&error) => {
                tracing::debug!(%error, "a connection failed before it was accepted");
            }
            Err(error) => {
                if let Some(unlogged) = failing.ready() {
                    tracing::warn!(
                        %error,
                        retry_in_ms = backoff.as_millis(),
                        times_since_last_warning = unlogged,
                        "cannot accept connections; backing off (out of file descriptors? \
                         raise `ulimit -n` or lower `connections.max_connections`)"
                    );
                }
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = shutdown.as_mut() => return,
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

/// Errors that belong to the one connection being accepted, not to the listener.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::Interrupted
    )
}

/// Lets a repeated event through at most once per interval and counts what it held back.
#[derive(Debug)]
struct Throttle {
    every: Duration,
    last: Option<Instant>,
    held_back: u64,
}

impl Throttle {
    fn new(every: Duration) -> Self {
        Self {
            every,
            last: None,
            held_back: 0,
        }
    }

    /// `Some(times held back since the last one let through)` when this one may go through.
    fn ready(&mut self) -> Option<u64> {
        let now = Instant::now();
        match self.last {
            Some(last) if now.duration_since(last) < self.every => {
                self.held_back += 1;
                None
            }
            _ => {
                self.last = Some(now);
                Some(std::mem::take(&mut self.held_back))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_throttle_lets_one_through_per_interval_and_counts_the_rest() {
        let mut throttle = Throttle::new(Duration::from_secs(10));
        assert_eq!(throttle.ready(), Some(0));
        for _ in 0..5 {
            assert_eq!(throttle.ready(), None);
        }
        tokio::time::advance(Duration::from_secs(9)).await;
        assert_eq!(throttle.ready(), None);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(throttle.ready(), Some(6));
        assert_eq!(throttle.ready(), None);
    }

    #[test]
    fn only_errors_of_one_connection_skip_the_backoff() {
        assert!(is_connection_error(
            &io::ErrorKind::ConnectionAborted.into()
        ));
        assert!(is_connection_error(&io::ErrorKind::ConnectionReset.into()));
        // EMFILE: the process is out of descriptors; retrying at once would fail at once.
        #[cfg(unix)]
        assert!(!is_connection_error(&io::Error::from_raw_os_error(24)));
        assert!(!is_connection_error(&io::ErrorKind::OutOfMemory.into()));
    }
}
