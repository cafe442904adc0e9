//! The real `pitchmate` binary as a child process, for tests that stop it with signals.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use pitchmate_client::Client;

/// How long a server may take to answer after it starts.
const START_PATIENCE: Duration = Duration::from_secs(120);

/// How long a server may take to exit after SIGTERM before the test gives up on it.
const EXIT_PATIENCE: Duration = Duration::from_secs(30);

/// How to start a server beyond its address and data directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Added to the server's environment: `PITCHMATE__*` settings.
    pub environment: &'a [(&'a str, &'a str)],
    /// A file for the server's log (warnings and worse) instead of the test's stderr.
    pub log: Option<&'a Path>,
    /// The server's limit on open files (`ulimit -n`).
    pub open_files: Option<u32>,
}

/// A `pitchmate` process on a fixed loopback address, so a restarted one is found where the
/// clients left the old one.
pub struct ServerProcess {
    child: Child,
}

impl ServerProcess {
    pub async fn start(address: SocketAddr, data_dir: &PathBuf) -> Self {
        Self::start_with(address, data_dir, Options::default()).await
    }

    pub async fn start_with(address: SocketAddr, data_dir: &PathBuf, options: Options<'_>) -> Self {
        let stderr = match options.log {
            Some(path) => Stdio::from(std::fs::File::create(path).expect("create the log file")),
            None => Stdio::inherit(),
        };
        let binary = env!("CARGO_BIN_EXE_pitchmate");
        let mut command = match options.open_files {
            // The shell sets the limit, then becomes the server.
            Some(limit) => {
                let mut shell = Command::new("sh");
                shell
                    .arg("-c")
                    .arg(format!("ulimit -n {limit} && exec \"$0\" \"$@\""))
                    .arg(binary);
                shell
            }
            None => Command::new(binary),
        };
        let child = command
            .arg("--listen")
            .arg(address.to_string())
            .arg("--data-dir")
            .arg(data_dir)
            .args(["--log-filter", "warn"])
            .envs(options.environment.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("start the server");
        let server = Self { child };
        let deadline = Instant::now() + START_PATIENCE;
        loop {
            if let Ok(client) = Client::connect(url(address)).await
                && client.list_variants().await.is_ok()
            {
                return server;
            }
            assert!(Instant::now() < deadline, "the server never answered");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory, from /proc.
    pub fn resident_bytes(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.id())).expect("read /proc");
        let kib: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS");
        kib * 1024
    }

    /// SIGKILL: no chance to flush, close or answer anything.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap");
    }

    /// SIGTERM, then the exit status.
    pub async fn terminate(mut self) -> ExitStatus {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let deadline = Instant::now() + EXIT_PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not drain and exit"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // A failing test must not leave a server running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn url(address: SocketAddr) -> String {
    format!("http://{address}")
}

pub fn free_address() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
}

/// A fresh data directory under the system's temporary directory.
pub fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitchmate-process-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("data directory");
    dir
}
