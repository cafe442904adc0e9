//! What other servers sharing the database committed (cluster mode), told to this server's
//! readers: inbox items to the readers of inboxes, tournament changes to the watchers of
//! tournaments. The store hears of them (see the store's `changes.rs`); the leagues keep the
//! buses its readers follow, so the store cannot publish there itself.

use std::future::Future;

use tokio::sync::{broadcast, watch};

use pitchmate_store::{RemoteChange, Store};

use crate::inbox::InboxBus;
use crate::tournaments::Signal;

/// Passes the store's remote changes on until the server stops. When some may have been missed
/// (the store's listener connected again, or this fell behind), every reader of an inbox reads
/// it again from the store and every watcher of a tournament looks again. Subscribes at once,
/// before the future is first polled, so nothing heard after the call is lost.
pub fn republish(
    store: &Store,
    bus: InboxBus,
    signal: Signal,
    mut stopping: watch::Receiver<bool>,
) -> impl Future<Output = ()> + Send + use<> {
    let mut changes = store.remote_changes();
    async move {
        loop {
            tokio::select! {
                change = changes.recv() => match change {
                    Ok(RemoteChange::Inbox(rows)) => bus.publish(rows),
                    Ok(RemoteChange::Tournament(_)) => signal.bump(),
                    Ok(RemoteChange::Missed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        bus.reread();
                        signal.bump();
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = stopping.wait_for(|stop| *stop) => return,
            }
        }
    }
}
