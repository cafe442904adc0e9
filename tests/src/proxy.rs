//! A TCP proxy that a test can cut: it drops every connection through it and refuses new ones
//! until restored, as a network failure or a restarting server would.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::{AbortHandle, JoinHandle};

/// Forwards connections on a loopback port to `upstream`.
pub struct CuttableProxy {
    pub addr: SocketAddr,
    upstream: SocketAddr,
    acceptor: Option<JoinHandle<()>>,
    connections: Arc<Mutex<Vec<AbortHandle>>>,
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
        self.acceptor = Some(tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let forwarding = tokio::spawn(forward(client, upstream));
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

/// Copies bytes both ways until either side closes or the task is aborted, which drops both
/// sockets.
async fn forward(mut client: TcpStream, upstream: SocketAddr) {
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    // gRPC's small messages must not wait for Nagle's algorithm on either leg.
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
}
