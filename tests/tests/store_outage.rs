//! The store fails under a running server and comes back, and so does the server, by itself.
//!
//! PostgreSQL "restarts": a proxy between the server and the machine's PostgreSQL drops every
//! connection and refuses new ones for a while, as a restarting database does. SQLite's disk
//! fills up: the data directory is a small tmpfs mounted for the test (this needs root; outside
//! CI a test that cannot mount is skipped with a notice).
//!
//! Either way, while the store cannot write: health says NOT_SERVING, every change is refused at
//! once with UNAVAILABLE, reason STORE_UNAVAILABLE and a retry delay, and reading a match still
//! works. Once the store is back: health says SERVING again without a restart, the match plays
//! to its end, and its history holds every acknowledged action exactly once and nothing else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::{Choice, Client, ClientError, NewMatch, SeatHandle};
use pitchmate_e2e::{CuttableProxy, TestServer, seated};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// How long the server may take to notice the store failing or coming back.
const PATIENCE: Duration = Duration::from_secs(30);

/// A King's Goal match (no hidden information: each seat's numbering is the whole log's) and
/// what was acknowledged of it: the seq and notation of every accepted action.
struct Ledger {
    client: Client,
    seats: [SeatHandle; 2],
    acked: BTreeMap<u64, String>,
    submitted: u64,
    /// The newest seq an accepted action's events reached.
    last_seq: u64,
}

impl Ledger {
    async fn start(client: Client) -> Self {
        let seats = seated(&client, NewMatch::variant("kings-goal")).await;
        Self {
            client,
            seats,
            acked: BTreeMap::new(),
            submitted: 0,
            last_seq: 0,
        }
    }

    fn match_id(&self) -> &str {
        &self.seats[0].match_id
    }

    /// The seat to act, at which version, and how many actions it has; `None` once it is
    /// over.
    async fn next_move(&self) -> Result<Option<(usize, u64, usize)>, ClientError> {
        for (index, seat) in self.seats.iter().enumerate() {
            let legal = self.client.legal_actions(seat).await?;
            if !legal.actions.is_empty() {
                return Ok(Some((index, legal.version, legal.actions.len())));
            }
        }
        Ok(None)
    }

    /// Plays one legal action with a client action id; records it if it was accepted.
    async fn step(&mut self) -> Result<bool, ClientError> {
        let Some((index, version, count)) = self.next_move().await? else {
            return Ok(false);
        };
        self.submitted += 1;
        let id = format!("action-{}", self.submitted);
        let choice = Choice::Index((self.submitted % count as u64) as u32);
        let response = self
            .client
            .submit(&self.seats[index], version, &id, choice)
            .await?;
        for event in &response.events {
            self.last_seq = self.last_seq.max(event.seq);
            if let Some(Kind::ActionTaken(taken)) = &event.kind {
                self.acked.insert(event.seq, taken.notation.clone());
            }
        }
        Ok(true)
    }

    /// Plays until the match is over.
    async fn finish(&mut self) {
        for _ in 0..5_000 {
            if !self
                .step()
                .await
                .expect("play on after the store came back")
            {
                return;
            }
        }
        panic!("the match did not end within 5,000 actions");
    }

    /// The history holds every acknowledged action at its seq, and no other action.
    async fn check_history(&self) {
        let replay = self.client.replay(self.match_id()).await.expect("replay");
        let taken: BTreeMap<u64, String> = replay
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                Some(Kind::ActionTaken(taken)) => Some((event.seq, taken.notation.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            taken, self.acked,
            "every acknowledged action exactly once, nothing unacknowledged"
        );
        let seqs: Vec<u64> = replay.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
        assert!(matches!(
            replay.events.last().and_then(|e| e.kind.as_ref()),
            Some(Kind::MatchEnded(_))
        ));
    }
}

async fn health_of(server: &TestServer) -> ServingStatus {
    health_of_service(server, "").await
}

async fn health_of_service(server: &TestServer, service: &str) -> ServingStatus {
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .expect("endpoint")
        .connect()
        .await
        .expect("connect");
    let mut health = HealthClient::new(channel);
    let answer = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .expect("health answers");
    answer.into_inner().status()
}

async fn wait_for_health(server: &TestServer, wanted: ServingStatus) {
    let deadline = Instant::now() + PATIENCE;
    while health_of(server).await != wanted {
        assert!(Instant::now() < deadline, "health never said {wanted:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A refusal for want of the store: retryable, with a delay to wait.
fn assert_store_unavailable(error: &ClientError) {
    assert_eq!(
        error.reason().as_deref(),
        Some("STORE_UNAVAILABLE"),
        "{error}"
    );
    assert!(error.is_transient(), "{error}");
    assert!(error.retry_delay().is_some(), "{error}");
}

/// What the server answers while its store cannot write.
async fn check_refusals_while_down(ledger: &mut Ledger) {
    let started = Instant::now();
    let refused = ledger.step().await.expect_err("no change is accepted");
    assert_store_unavailable(&refused);
    let refused = ledger
        .client
        .create_match(NewMatch::variant("kings-goal"))
        .await
        .expect_err("no match is created");
    assert_store_unavailable(&refused);
    // Refused at once, not after waiting on the database: far inside the patience allowed.
    assert!(started.elapsed() < PATIENCE / 2, "{:?}", started.elapsed());
}

/// A schema of its own in the test database, reached through a proxy the test can cut.
struct Postgres {
    admin: tokio_postgres::Client,
    schema: String,
    proxy: CuttableProxy,
    url: String,
}

impl Postgres {
    /// `tag` tells apart the schemas of tests running at once.
    async fn start(tag: &str) -> Option<Self> {
        let base = std::env::var("PITCHMATE_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
        let config: tokio_postgres::Config = base.parse().expect("a PostgreSQL URL");
        let admin = match config.connect(tokio_postgres::NoTls).await {
            Ok((client, connection)) => {
                tokio::spawn(connection);
                client
            }
            Err(error) if std::env::var_os("CI").is_some() => {
                panic!("CI is set but PostgreSQL at {base} is unreachable: {error}")
            }
            Err(error) => {
                eprintln!("skipping: PostgreSQL at {base} is unreachable ({error})");
                return None;
            }
        };
        let Some(tokio_postgres::config::Host::Tcp(host)) = config.get_hosts().first() else {
            panic!("{base} must name a TCP host for the proxy to reach");
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let upstream = tokio::net::lookup_host((host.as_str(), port))
            .await
            .expect("resolve the PostgreSQL host")
            .next()
            .expect("an address");
        let schema = format!("pitchmate_outage_{tag}_{}", std::process::id());
        admin
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
            ))
            .await
            .expect("create the test schema");
        let proxy = CuttableProxy::start(upstream).await;
        let user = config.get_user().unwrap_or("postgres");
        let password = config
            .get_password()
            .map(|p| format!(":{}", String::from_utf8_lossy(p)))
            .unwrap_or_default();
        let database = config.get_dbname().unwrap_or("test");
        let url = format!(
            "postgres://{user}{password}@{}/{database}?options=-csearch_path%3D{schema}",
            proxy.addr
        );
        Some(Self {
            admin,
            schema,
            proxy,
            url,
        })
    }

    async fn drop_schema(self) {
        self.admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.schema))
            .await
            .expect("drop the test schema");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_rides_out_a_postgresql_restart() {
    let Some(mut postgres) = Postgres::start("restart").await else {
        return;
    };
    let url = postgres.url.clone();
    let server = TestServer::start_adjusted(|settings| settings.store.url = url).await;
    let mut ledger = Ledger::start(server.client().await).await;
    for _ in 0..6 {
        assert!(ledger.step().await.expect("play before the restart"));
    }

    let dropped = postgres.proxy.cut().await;
    assert!(dropped >= 2, "the writer's and the reader's connections");
    wait_for_health(&server, ServingStatus::NotServing).await;
    check_refusals_while_down(&mut ledger).await;
    let seen = ledger
        .client
        .get_match(ledger.match_id(), None)
        .await
        .expect("a hosted match is still read from memory")
        .r#match
        .expect("match");
    assert_eq!(
        seen.last_seq, ledger.last_seq,
        "as it was before the restart"
    );

    postgres.proxy.restore().await;
    wait_for_health(&server, ServingStatus::Serving).await;
    ledger.finish().await;
    ledger.check_history().await;
    ledger
        .client
        .create_match(NewMatch::variant("kings-goal"))
        .await
        .expect("matches are created again");
    server.stop().await;
    postgres.drop_schema().await;
}

/// A database that stops answering without closing anything (packets dropped across a
/// partition) while nothing is being written: the store's writer has nothing to fail on, so it
/// is the server's periodic check of the store that turns health NOT_SERVING, and back once
/// the database answers again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_follows_a_database_that_stops_answering_while_idle() {
    let Some(postgres) = Postgres::start("silent").await else {
        return;
    };
    let url = postgres.url.clone();
    let server = TestServer::start_adjusted(|settings| {
        settings.store.url = url;
        settings.store.check_interval_secs = 1;
    })
    .await;
    wait_for_health(&server, ServingStatus::Serving).await;

    postgres.proxy.freeze();
    wait_for_health(&server, ServingStatus::NotServing).await;
    assert_eq!(
        health_of_service(&server, "liveness").await,
        ServingStatus::Serving,
        "the process is alive; only readiness follows the store"
    );

    postgres.proxy.thaw();
    wait_for_health(&server, ServingStatus::Serving).await;
    let mut ledger = Ledger::start(server.client().await).await;
    assert!(ledger.step().await.expect("the store writes again"));
    server.stop().await;
    postgres.drop_schema().await;
}

/// A tmpfs of its own, unmounted when dropped.
struct SmallDisk {
    path: PathBuf,
}

impl SmallDisk {
    fn mount(bytes: u64) -> Option<Self> {
        let path = std::env::temp_dir().join(format!("pitchmate-disk-full-{}", std::process::id()));
        std::fs::create_dir_all(&path).expect("mount point");
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(&path)
            .output();
        match mounted {
            Ok(output) if output.status.success() => Some(Self { path }),
            failed if std::env::var_os("CI").is_some() => {
                panic!("CI is set but a tmpfs cannot be mounted: {failed:?}")
            }
            failed => {
                eprintln!("skipping: cannot mount a tmpfs (needs root): {failed:?}");
                let _ = std::fs::remove_dir(&path);
                None
            }
        }
    }

    /// Writes a file until the disk refuses more.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.path.join("filler");
        let mut file = std::fs::File::create(&filler).expect("create the filler");
        let block = vec![0u8; 4096];
        loop {
            if file.write_all(&block).and_then(|()| file.flush()).is_err() {
                return filler;
            }
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.path)
            .status();
        let _ = std::fs::remove_dir(&self.path);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_rides_out_a_full_disk() {
    let Some(disk) = SmallDisk::mount(8 * 1024 * 1024) else {
        return;
    };
    let data_dir = disk.path.join("data");
    let server = TestServer::start_with(settings_in(&data_dir)).await;
    let mut ledger = Ledger::start(server.client().await).await;
    for _ in 0..6 {
        assert!(ledger.step().await.expect("play before the disk fills"));
    }

    let filler = disk.fill();
    // The log's file may still have room for a few commits; the first that needs more fails.
    let mut failed = None;
    for _ in 0..2_000 {
        match ledger.step().await {
            Ok(true) => {}
            Ok(false) => panic!("the match ended before the disk ran out"),
            Err(error) => {
                failed = Some(error);
                break;
            }
        }
    }
    let failed = failed.expect("a commit fails once the disk is full");
    assert_store_unavailable(&failed);
    wait_for_health(&server, ServingStatus::NotServing).await;
    check_refusals_while_down(&mut ledger).await;
    ledger
        .client
        .get_match(ledger.match_id(), None)
        .await
        .expect("the match whose commit failed is read from the store");

    std::fs::remove_file(filler).expect("free the disk");
    wait_for_health(&server, ServingStatus::Serving).await;
    ledger.finish().await;
    ledger.check_history().await;
    server.stop().await;
}

fn settings_in(data_dir: &Path) -> pitchmate_server::Settings {
    let cli = pitchmate_server::config::Cli {
        data_dir: Some(data_dir.to_owned()),
        ..Default::default()
    };
    pitchmate_server::Settings::from_layers(&cli, Default::default()).expect("settings")
}
