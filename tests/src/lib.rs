//! Helpers for the end-to-end tests: start a real server on an ephemeral loopback port.

use std::net::SocketAddr;

use pitchmate_server::Settings;
use pitchmate_server::config::Cli;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process on 127.0.0.1:0, shut down when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl TestServer {
    /// A server with the built-in default settings (the process environment is not read).
    pub async fn start() -> Self {
        let settings =
            Settings::from_layers(&Cli::default(), Default::default()).expect("default settings");
        Self::start_with(settings).await
    }

    pub async fn start_with(settings: Settings) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("bound address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = stopped.await;
            };
            pitchmate_server::serve(&settings, listener, shutdown)
                .await
                .expect("server runs");
        });
        Self {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn client(&self) -> pitchmate_client::Client {
        pitchmate_client::Client::connect(self.url())
            .await
            .expect("connect to test server")
    }

    /// Stops the server and waits for it to finish.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
