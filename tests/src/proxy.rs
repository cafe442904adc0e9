//! A TCP proxy that a test can cut: it drops every connection through it and refuses new ones
//! until restored, as a network failure or a restarting server would. It can also freeze:
//! connections stay open but no byte goes through until it thaws, as across a network
//! partition that drops packets without resetting anything.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::{AbortHandle, JoinHandle};

/// Forwards connections on a loopback port to `upstream`.
pub struct CuttableProxy {
    pub addr: SocketAddr,
    upstream: SocketAddr,
    acceptor: Option<JoinHandle<()>>,
    connections: Arc<Mutex<Vec<AbortHandle>>>,
    frozen: watch::Sender<bool>,
}

impl CuttableProxy {
    /// A proxy on 127.0.0.1 with an ephemeral port, forwarding to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("bound address");
        let mut proxy = Self {
            addr,
            upstream,
            acceptor: None,
            connections: Arc::default(),
            frozen: watch::Sender::new(false),
        };
        proxy.accept_on(listener);
        proxy
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Closes the listening port, so that connecting is refused, and drops every open
    /// connection in both directions. Returns how many were open.
    pub async fn cut(&mut self) -> usize {
        if let Some(acceptor) = self.acceptor.take() {
            acceptor.abort();
            // Waiting for it makes sure the port is closed before `restore` binds it again.
            let _ = acceptor.await;
        }
        let open: Vec<AbortHandle> = std::mem::take(&mut *self.connections.lock().unwrap());
        let live = open.iter().filter(|c| !c.is_finished()).count();
        for connection in open {
            connection.abort();
        }
        live
    }

    /// Stops every byte in both directions, on open connections and new ones, without closing
    /// anything.
    pub fn freeze(&self) {
        self.frozen.send_replace(true);
    }

    /// Lets bytes through again, those held back first.
    pub fn thaw(&self) {
        self.frozen.send_replace(false);
    }

    /// Listens on the same port again.
    pub async fn restore(&mut self) {
        assert!(self.acceptor.is_none(), "restore only after cut");
        let listener = TcpListener::bind(self.addr)
            .await
            .expect("bind the proxy's port again");
        self.accept_on(listener);
    }

    fn accept_on(&mut self, listener: TcpListener) {
        let upstream = self.upstream;
        let connections = Arc::clone(&self.connections);
        let frozen = self.frozen.subscribe();
        self.acceptor = Some(tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let forwarding = tokio::spawn(forward(client, upstream, frozen.clone()));
                let mut open = connections.lock().unwrap();
                open.retain(|c| !c.is_finished());
                open.push(forwarding.abort_handle());
            }
        }));
    }
}

impl Drop for CuttableProxy {
    fn drop(&mut self) {
        if let Some(acceptor) = &self.acceptor {
            acceptor.abort();
        }
        for connection in self.connections.lock().unwrap().iter() {
            connection.abort();
        }
    }
}

/// Copies bytes both ways, none while frozen, until either side closes or the task is aborted,
/// which drops both sockets.
async fn forward(client: TcpStream, upstream: SocketAddr, frozen: watch::Receiver<bool>) {
    let mut gate = frozen.clone();
    if gate.wait_for(|frozen| !frozen).await.is_err() {
        return;
    }
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    // gRPC's small messages must not wait for Nagle's algorithm on either leg.
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    tokio::select! {
        () = pass(client_read, server_write, frozen.clone()) => {}
        () = pass(server_read, client_write, frozen) => {}
    }
}

/// Copies `from` to `to`, holding each chunk while frozen, until either side closes.
async fn pass(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut frozen: watch::Receiver<bool>,
) {
    let mut buffer = vec![0; 16 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        if frozen.wait_for(|frozen| !frozen).await.is_err() {
            return;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}
