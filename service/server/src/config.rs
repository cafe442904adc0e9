//! Settings, layered: built-in defaults < a TOML file (`--config`) < `PITCHMATE__*` environment
//! variables (`__` separates nesting: `PITCHMATE__STREAM__HEARTBEAT_SECS=5`) < command-line
//! flags.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;

use config::{Config, ConfigError, Environment, File, FileFormat};
use serde::Deserialize;

/// The prefix of environment variables read as settings.
pub const ENV_PREFIX: &str = "PITCHMATE";

/// Command-line flags. Every flag is optional so that an absent one leaves the lower layers'
/// value in place.
#[derive(Clone, Debug, Default, clap::Parser)]
#[command(
    name = "pitchmate",
    version,
    about = "Pitchmate game server: hosts chess/football hybrid matches for bots over gRPC"
)]
pub struct Cli {
    /// A TOML settings file; its values override the defaults.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:50051].
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Directory for the server's data, created at start [default: data].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Log line format [default: text].
    #[arg(long, value_enum)]
    pub log_format: Option<LogFormat>,
    /// Log filter in RUST_LOG syntax, e.g. `info,pitchmate_server=debug` [default: info].
    #[arg(long, value_name = "FILTER")]
    pub log_filter: Option<String>,
    /// Instead of serving, one of these; without one, the server runs.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What the `pitchmate` binary does besides serving.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// Makes an API key with scope OPERATOR in the store the settings name (the server may be
    /// running on it) and prints it once. This is how the first operator key comes to exist;
    /// with one, CreateApiKey makes more.
    OperatorKey {
        /// A name for the key, shown in ListApiKeys.
        #[arg(long, default_value = "operator")]
        label: String,
    },
    /// Recomputes every rating from the stored rated results, in the order they were rated,
    /// and compares them with the live ratings in the store the settings name (the server may
    /// be running on it). Prints what it compared; exits with 1 if any rating differs.
    RecomputeRatings,
    /// Writes everything the store the settings name holds (matches and their events, bots
    /// and key hashes, inboxes, challenges, the queue, ratings, tournaments, the lifecycle
    /// feed) into one NDJSON file, read from one snapshot. For a move, stop the server first.
    Export {
        /// Where to write the export; without it, standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Writes an export into the store the settings name, which must hold no rows (a new
    /// PostgreSQL database or schema, or a data directory without a store), in one
    /// transaction: all of it, or nothing. The server must not run on that store meanwhile.
    Import {
        /// The export to read; without it, standard input.
        #[arg(long = "in", value_name = "FILE")]
        input: Option<PathBuf>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    pub log: LogSettings,
    pub stream: StreamSettings,
    pub limits: LimitSettings,
    pub store: StoreSettings,
    pub connections: ConnectionSettings,
    pub bots: BotSettings,
    #[serde(default)]
    pub metrics: MetricsSettings,
    #[serde(default)]
    pub tls: TlsSettings,
    pub cluster: ClusterSettings,
}

/// Several servers on one PostgreSQL database (docs/deploy.md, "Replicas"): each live match is
/// hosted by the one server that holds its lease. Off while `replica_id` is empty.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSettings {
    /// This server among those sharing the database, unique among them; empty: cluster mode
    /// off, a single server that reads and writes no lease.
    pub replica_id: String,
    /// The URL the other servers and clients reach this one at (`http://`: replicas forward
    /// to each other in plain HTTP/2), which the others forward this server's matches' calls to
    /// and name in NOT_OWNER.
    pub advertise_url: String,
    /// Seconds a match's lease lasts without renewal: how long a dead server's matches wait
    /// before another takes them over. Renewed every third of it.
    pub lease_ttl_secs: u64,
}

impl ClusterSettings {
    /// The longest lease time to live accepted: an hour. Longer only delays failover.
    pub const MAX_LEASE_TTL_SECS: u64 = 3600;

    /// The hosting's cluster settings, or `None` when cluster mode is off.
    pub fn hosting(&self) -> Option<pitchmate_hosting::ownership::ClusterSettings> {
        (!self.replica_id.is_empty()).then(|| pitchmate_hosting::ownership::ClusterSettings {
            replica_id: self.replica_id.clone(),
            advertise_url: self.advertise_url.clone(),
            lease_ttl: std::time::Duration::from_secs(self.lease_ttl_secs),
        })
    }

    /// `tls`: the gRPC port is to speak TLS (`tls.*` set).
    fn check(&self, store_url: &str, tls: bool) -> Result<(), ConfigError> {
        if self.lease_ttl_secs == 0 || self.lease_ttl_secs > Self::MAX_LEASE_TTL_SECS {
            return Err(ConfigError::Message(format!(
                "setting `cluster.lease_ttl_secs` must be between 1 and {}",
                Self::MAX_LEASE_TTL_SECS
            )));
        }
        if self.replica_id.is_empty() {
            return Ok(());
        }
        let named = self.replica_id.len() <= 64
            && self
                .replica_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if !named {
            return Err(ConfigError::Message(
                "setting `cluster.replica_id` must be at most 64 letters, digits, `.`, `_` or `-`"
                    .to_owned(),
            ));
        }
        let url = &self.advertise_url;
        // Replicas forward calls to each other in plain HTTP/2 (docs/deploy.md, "Replicas"):
        // a TLS address would need a trust store for the peers that the server does not have.
        if url.starts_with("https://") || tls {
            return Err(ConfigError::Message(
                "cluster mode forwards calls between servers over plain http://: \
                 `cluster.advertise_url` cannot be https:// and `tls.*` cannot be set with \
                 `cluster.replica_id`; terminate TLS in front of the servers (a load balancer or \
                 ingress) and keep their own network private"
                    .to_owned(),
            ));
        }
        let reachable = url.starts_with("http://")
            && url.len() > "http://".len()
            && !url.contains(char::is_whitespace);
        if !reachable {
            return Err(ConfigError::Message(
                "setting `cluster.advertise_url` must be the http:// URL other servers reach this \
                 one at, when `cluster.replica_id` is set"
                    .to_owned(),
            ));
        }
        if store_url.is_empty() {
            return Err(ConfigError::Message(
                "cluster mode (`cluster.replica_id`) needs a PostgreSQL `store.url`: a SQLite \
                 file serves one process only"
                    .to_owned(),
            ));
        }
        Ok(())
    }
}

/// Prometheus metrics (see docs/deploy.md for the list).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSettings {
    /// Where `GET /metrics` is served, on its own port apart from the gRPC one; unset: off.
    pub listen: Option<SocketAddr>,
}

/// TLS on the gRPC port (and the web board on it): with both paths set, the port speaks TLS
/// only; with neither, plain text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSettings {
    /// The certificate chain, PEM, the server's own certificate first.
    pub cert_path: Option<PathBuf>,
    /// The certificate's private key, PEM (PKCS#8, PKCS#1 or SEC1).
    pub key_path: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    pub format: LogFormat,
    /// RUST_LOG syntax.
    pub filter: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamSettings {
    /// Live events a match keeps for its slowest watcher; one that falls further behind is
    /// resynchronised from the match's log. Every match holds this many slots, watched or not,
    /// and at least this many of its newest events (older ones are read from the store).
    pub live_capacity: usize,
    /// Seconds of quiet before a stream sends a heartbeat.
    pub heartbeat_secs: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// Commands queued per match before handlers wait for its actor.
    pub match_commands: usize,
    /// Spectator streams one match serves at once; one more is refused. Streams opened with a
    /// seat token do not count, so spectators can never lock a player out of its own match.
    pub watchers_per_match: usize,
    /// The largest request message accepted, in bytes (encoded protobuf).
    pub max_request_bytes: usize,
    /// The largest response message sent, in bytes (encoded protobuf).
    pub max_response_bytes: usize,
    /// The largest request to TournamentService, in bytes: `VerifyTournament` takes a whole
    /// export, which outgrows `max_request_bytes` from a few dozen rounds on.
    pub max_document_bytes: usize,
    /// Acting calls a seat token may make per second, on average; 0 lifts the limit.
    pub actions_per_second: u32,
    /// Acting calls a seat token may make in a burst above the average rate.
    pub action_burst: u32,
    /// Streams (`StreamMatchEvents` with a token, `Play`) one seat may have open at once.
    pub streams_per_seat: usize,
    /// Matches one client address (an IPv6 /64) may create per second, on average; 0 lifts
    /// the limit.
    pub creates_per_second: u32,
    /// Matches one client address may create in a burst above the average rate.
    pub create_burst: u32,
    /// Matches created from one client address that may be unfinished at once; 0 lifts the
    /// limit.
    pub open_matches_per_client: usize,
    /// Seconds after its creation that a match whose seats are not all taken is aborted
    /// (reason EXPIRED); 0: never.
    pub expire_unstarted_secs: u64,
    /// Seconds a match nobody calls or watches, with no clock running, stays in memory before
    /// it is unloaded (it comes back from the store on the next call); 0: never.
    pub unload_idle_secs: u64,
    /// Wrong seat tokens one client address may present per second, on average, before its
    /// calls with a token are refused; 0 lifts the limit.
    pub auth_failures_per_second: u32,
    /// Wrong seat tokens one client address may present in a burst.
    pub auth_failure_burst: u32,
}

/// How long connections and calls may take and how many the server holds; what a client sees
/// when one trips is in docs/api.md, "Connection limits".
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionSettings {
    /// Connections served at once; at the cap new ones wait in the listen backlog until one
    /// closes.
    pub max_connections: u32,
    /// Calls open at once on one connection (HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS`).
    pub max_streams_per_connection: u32,
    /// Seconds a new connection has to send the HTTP/2 preface and its first SETTINGS frame.
    pub handshake_timeout_secs: u64,
    /// Seconds a call has to produce its response headers: a unary call its whole answer, a
    /// stream its start. A stream that has started is never cut by it.
    pub call_timeout_secs: u64,
    /// Seconds without a frame from the client before the server pings it.
    pub keepalive_interval_secs: u64,
    /// Seconds the client has to answer that ping before the connection is closed.
    pub keepalive_timeout_secs: u64,
    /// Seconds a connection may stay without an open call before it is sent GOAWAY.
    pub idle_timeout_secs: u64,
    /// Seconds after which a connection is sent GOAWAY whatever it does (plus or minus 10%, so
    /// connections opened together do not all reconnect together).
    pub max_age_secs: u64,
    /// Seconds a connection's open calls may go on after its age GOAWAY before it is cut.
    pub max_age_grace_secs: u64,
    /// Seconds a shutdown waits for connections to finish after GOAWAY before cutting them.
    pub shutdown_timeout_secs: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSettings {
    /// Empty: SQLite in `pitchmate.db` under the data directory. `postgres://...`: that
    /// PostgreSQL database.
    pub url: String,
    /// Seconds between the health service's checks that the store answers (a trivial read);
    /// a store that does not answer within the same time turns health NOT_SERVING.
    pub check_interval_secs: u64,
}

/// What a new bot is allowed until an operator changes it (UpdateBot).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSettings {
    /// Live matches a new bot may play at once.
    pub max_concurrent: u32,
    /// Matches a new bot may play a day.
    pub daily_cap: u32,
    /// Days a bot's inbox keeps an item; a bot that resumes after an older one is told its
    /// cursor expired.
    pub inbox_retention_days: u64,
    /// Seconds a bot has, once told of a match a league assigned it, to take its seat before
    /// it forfeits.
    pub show_up_secs: u64,
}

impl Settings {
    /// Reads every layer, the environment from this process.
    pub fn load(cli: &Cli) -> Result<Self, ConfigError> {
        Self::from_layers(cli, std::env::vars().collect())
    }

    /// Reads every layer with `environment` standing in for the process environment.
    pub fn from_layers(
        cli: &Cli,
        environment: HashMap<String, String>,
    ) -> Result<Self, ConfigError> {
        let mut builder = Config::builder()
            .set_default("listen", "127.0.0.1:50051")?
            .set_default("data_dir", "data")?
            .set_default("log.format", "text")?
            .set_default("log.filter", "info")?
            .set_default("stream.live_capacity", 128)?
            .set_default("stream.heartbeat_secs", 15)?
            .set_default("limits.match_commands", 64)?
            .set_default("limits.watchers_per_match", 256)?
            .set_default("limits.max_request_bytes", 64 * 1024)?
            .set_default("limits.max_response_bytes", 16 * 1024 * 1024)?
            .set_default("limits.max_document_bytes", 4 * 1024 * 1024)?
            .set_default("limits.actions_per_second", 1000)?
            .set_default("limits.action_burst", 2000)?
            .set_default("limits.streams_per_seat", 8)?
            .set_default("limits.creates_per_second", 10)?
            .set_default("limits.create_burst", 100)?
            .set_default("limits.open_matches_per_client", 1000)?
            .set_default("limits.expire_unstarted_secs", 600)?
            .set_default("limits.unload_idle_secs", 300)?
            .set_default("limits.auth_failures_per_second", 1)?
            .set_default("limits.auth_failure_burst", 20)?
            .set_default("store.url", "")?
            .set_default("store.check_interval_secs", 5)?
            .set_default("connections.max_connections", 10_000)?
            .set_default("connections.max_streams_per_connection", 1_000)?
            .set_default("connections.handshake_timeout_secs", 10)?
            .set_default("connections.call_timeout_secs", 30)?
            .set_default("connections.keepalive_interval_secs", 30)?
            .set_default("connections.keepalive_timeout_secs", 10)?
            .set_default("connections.idle_timeout_secs", 600)?
            .set_default("connections.max_age_secs", 7_200)?
            .set_default("connections.max_age_grace_secs", 600)?
            .set_default("connections.shutdown_timeout_secs", 20)?
            .set_default("bots.max_concurrent", 1)?
            .set_default("bots.daily_cap", 1000)?
            .set_default("bots.inbox_retention_days", 30)?
            .set_default("bots.show_up_secs", 60)?
            .set_default("cluster.replica_id", "")?
            .set_default("cluster.advertise_url", "")?
            .set_default("cluster.lease_ttl_secs", 10)?;
        if let Some(path) = &cli.config {
            builder = builder.add_source(File::from(path.as_path()).format(FileFormat::Toml));
        }
        builder = builder.add_source(
            Environment::with_prefix(ENV_PREFIX)
                .separator("__")
                .try_parsing(true)
                .source(Some(environment)),
        );
        let settings: Settings = builder
            .set_override_option("listen", cli.listen.map(|a| a.to_string()))?
            .set_override_option(
                "data_dir",
                cli.data_dir
                    .as_ref()
                    .map(|d| d.to_string_lossy().into_owned()),
            )?
            .set_override_option(
                "log.format",
                cli.log_format.map(|f| match f {
                    LogFormat::Text => "text",
                    LogFormat::Json => "json",
                }),
            )?
            .set_override_option("log.filter", cli.log_filter.clone())?
            .build()?
            .try_deserialize()?;
        settings.check()?;
        Ok(settings)
    }

    fn check(&self) -> Result<(), ConfigError> {
        let positive = [
            ("stream.live_capacity", self.stream.live_capacity),
            ("stream.heartbeat_secs", self.stream.heartbeat_secs as usize),
            (
                "store.check_interval_secs",
                self.store.check_interval_secs as usize,
            ),
            ("limits.match_commands", self.limits.match_commands),
            ("limits.watchers_per_match", self.limits.watchers_per_match),
            ("limits.max_request_bytes", self.limits.max_request_bytes),
            ("limits.max_response_bytes", self.limits.max_response_bytes),
            ("limits.max_document_bytes", self.limits.max_document_bytes),
            ("limits.action_burst", self.limits.action_burst as usize),
            ("limits.streams_per_seat", self.limits.streams_per_seat),
            ("limits.create_burst", self.limits.create_burst as usize),
            (
                "limits.auth_failure_burst",
                self.limits.auth_failure_burst as usize,
            ),
        ];
        let url = &self.store.url;
        if !(url.is_empty() || url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(ConfigError::Message(
                "setting `store.url` must be empty (SQLite in the data directory) or a \
                 postgres:// URL"
                    .to_owned(),
            ));
        }
        for (name, value) in positive {
            if value == 0 {
                return Err(ConfigError::Message(format!(
                    "setting `{name}` must be at least 1"
                )));
            }
        }
        self.connections.check()?;
        let tls = self.tls.cert_path.is_some() || self.tls.key_path.is_some();
        self.cluster.check(url, tls)
    }
}

impl ConnectionSettings {
    /// The longest time any connection setting may name: a year. The HTTP/2 library adds these
    /// durations to the current instant and would overflow on absurd ones.
    pub const MAX_SECS: u64 = 365 * 24 * 60 * 60;

    /// The most connections the server may be told to hold; far beyond any descriptor limit.
    pub const MAX_CONNECTIONS: u32 = 1_000_000;

    fn check(&self) -> Result<(), ConfigError> {
        let counts = [
            (
                "connections.max_connections",
                self.max_connections,
                Self::MAX_CONNECTIONS,
            ),
            (
                "connections.max_streams_per_connection",
                self.max_streams_per_connection,
                u32::MAX,
            ),
        ];
        for (name, value, max) in counts {
            if value == 0 || value > max {
                return Err(ConfigError::Message(format!(
                    "setting `{name}` must be between 1 and {max}"
                )));
            }
        }
        let durations = [
            ("handshake_timeout_secs", self.handshake_timeout_secs),
            ("call_timeout_secs", self.call_timeout_secs),
            ("keepalive_interval_secs", self.keepalive_interval_secs),
            ("keepalive_timeout_secs", self.keepalive_timeout_secs),
            ("idle_timeout_secs", self.idle_timeout_secs),
            ("max_age_secs", self.max_age_secs),
            ("max_age_grace_secs", self.max_age_grace_secs),
            ("shutdown_timeout_secs", self.shutdown_timeout_secs),
        ];
        for (name, value) in durations {
            if value == 0 || value > Self::MAX_SECS {
                return Err(ConfigError::Message(format!(
                    "setting `connections.{name}` must be between 1 and {} (a year)",
                    Self::MAX_SECS
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn settings_file(contents: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("pitchmate-settings-{}.toml", uuid::Uuid::new_v4()));
        std::fs::write(&path, contents).unwrap();
        path
    }

    #[test]
    fn defaults_apply_without_other_layers() {
        let settings = Settings::from_layers(&Cli::default(), HashMap::new()).unwrap();
        assert_eq!(settings.listen, "127.0.0.1:50051".parse().unwrap());
        assert_eq!(settings.data_dir, PathBuf::from("data"));
        assert_eq!(settings.log.format, LogFormat::Text);
        assert_eq!(settings.log.filter, "info");
        assert_eq!(settings.stream.heartbeat_secs, 15);
        assert_eq!(settings.store.url, "", "SQLite in the data directory");
        assert_eq!(settings.limits.watchers_per_match, 256);
        assert_eq!(settings.limits.max_request_bytes, 64 * 1024);
        assert_eq!(settings.limits.actions_per_second, 1000);
        assert_eq!(settings.limits.streams_per_seat, 8);
        assert_eq!(settings.limits.creates_per_second, 10);
        assert_eq!(settings.limits.open_matches_per_client, 1000);
        assert_eq!(settings.limits.expire_unstarted_secs, 600);
        assert_eq!(settings.limits.auth_failure_burst, 20);
        let connections = &settings.connections;
        assert_eq!(connections.max_connections, 10_000);
        assert_eq!(connections.max_streams_per_connection, 1_000);
        assert_eq!(connections.handshake_timeout_secs, 10);
        assert_eq!(connections.call_timeout_secs, 30);
        assert_eq!(connections.keepalive_interval_secs, 30);
        assert_eq!(connections.keepalive_timeout_secs, 10);
        assert_eq!(connections.idle_timeout_secs, 600);
        assert_eq!(connections.max_age_secs, 7_200);
        assert_eq!(connections.max_age_grace_secs, 600);
        assert_eq!(connections.shutdown_timeout_secs, 20);
        assert_eq!(
            (settings.bots.max_concurrent, settings.bots.daily_cap),
            (1, 1000)
        );
    }

    #[test]
    fn the_sample_config_loads_and_shows_the_default_limits() {
        let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../deploy/pitchmate.toml");
        let cli = Cli {
            config: Some(sample),
            ..Cli::default()
        };
        let sample = Settings::from_layers(&cli, HashMap::new()).unwrap();
        let defaults = Settings::from_layers(&Cli::default(), HashMap::new()).unwrap();
        assert_eq!(sample.connections, defaults.connections);
        assert_eq!(sample.limits, defaults.limits);
        assert_eq!(sample.stream, defaults.stream);
        assert_eq!(sample.bots, defaults.bots);
        assert_eq!(sample.cluster, defaults.cluster);
    }

    #[test]
    fn connection_settings_come_from_the_file_and_the_environment() {
        let file = settings_file(
            "[connections]\nmax_connections = 50\nidle_timeout_secs = 5\ncall_timeout_secs = 7\n",
        );
        let cli = Cli {
            config: Some(file.clone()),
            ..Cli::default()
        };
        let environment = env(&[
            ("PITCHMATE__CONNECTIONS__IDLE_TIMEOUT_SECS", "9"),
            ("PITCHMATE__CONNECTIONS__SHUTDOWN_TIMEOUT_SECS", "3"),
        ]);
        let settings = Settings::from_layers(&cli, environment).unwrap();
        let connections = &settings.connections;
        assert_eq!(connections.max_connections, 50);
        assert_eq!(connections.call_timeout_secs, 7);
        assert_eq!(connections.idle_timeout_secs, 9, "env over file");
        assert_eq!(connections.shutdown_timeout_secs, 3);
        assert_eq!(connections.max_age_secs, 7_200, "defaults fill the rest");
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn each_layer_overrides_the_one_below() {
        let file = settings_file(
            "listen = \"127.0.0.1:7000\"\ndata_dir = \"from-file\"\n\
             [log]\nformat = \"json\"\nfilter = \"debug\"\n\
             [stream]\nheartbeat_secs = 3\nlive_capacity = 8\n",
        );
        let cli = Cli {
            config: Some(file.clone()),
            ..Cli::default()
        };

        let from_file = Settings::from_layers(&cli, HashMap::new()).unwrap();
        assert_eq!(from_file.listen, "127.0.0.1:7000".parse().unwrap());
        assert_eq!(from_file.data_dir, PathBuf::from("from-file"));
        assert_eq!(from_file.log.format, LogFormat::Json);
        assert_eq!(from_file.stream.heartbeat_secs, 3);
        assert_eq!(from_file.stream.live_capacity, 8);
        assert_eq!(
            from_file.limits.watchers_per_match, 256,
            "defaults fill what the file omits"
        );

        let environment = env(&[
            ("PITCHMATE__LISTEN", "0.0.0.0:8000"),
            ("PITCHMATE__STREAM__HEARTBEAT_SECS", "9"),
            ("PITCHMATE__LOG__FILTER", "warn"),
            ("PITCHMATE__STORE__URL", "postgres://db.internal/pitchmate"),
            ("UNRELATED", "ignored"),
        ]);
        let from_env = Settings::from_layers(&cli, environment.clone()).unwrap();
        assert_eq!(from_env.listen, "0.0.0.0:8000".parse().unwrap());
        assert_eq!(from_env.stream.heartbeat_secs, 9);
        assert_eq!(from_env.log.filter, "warn");
        assert_eq!(from_env.store.url, "postgres://db.internal/pitchmate");
        assert_eq!(
            from_env.stream.live_capacity, 8,
            "the file still shows where env is silent"
        );

        let flags = Cli {
            listen: Some("127.0.0.1:9000".parse().unwrap()),
            data_dir: Some(PathBuf::from("from-flag")),
            log_format: Some(LogFormat::Text),
            ..cli
        };
        let from_flags = Settings::from_layers(&flags, environment).unwrap();
        assert_eq!(from_flags.listen, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(from_flags.data_dir, PathBuf::from("from-flag"));
        assert_eq!(from_flags.log.format, LogFormat::Text);
        assert_eq!(
            from_flags.log.filter, "warn",
            "env still shows where flags are silent"
        );
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn metrics_tls_and_the_store_check_are_off_or_default_unless_set() {
        let defaults = Settings::from_layers(&Cli::default(), HashMap::new()).unwrap();
        assert_eq!(
            defaults.metrics.listen, None,
            "no metrics port unless asked"
        );
        assert_eq!(
            defaults.tls,
            TlsSettings::default(),
            "plain text unless asked"
        );
        assert_eq!(defaults.store.check_interval_secs, 5);

        let environment = env(&[
            ("PITCHMATE__METRICS__LISTEN", "127.0.0.1:9100"),
            ("PITCHMATE__TLS__CERT_PATH", "/etc/tls/tls.crt"),
            ("PITCHMATE__TLS__KEY_PATH", "/etc/tls/tls.key"),
            ("PITCHMATE__STORE__CHECK_INTERVAL_SECS", "2"),
        ]);
        let set = Settings::from_layers(&Cli::default(), environment).unwrap();
        assert_eq!(set.metrics.listen, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(
            set.tls.cert_path.as_deref(),
            Some(std::path::Path::new("/etc/tls/tls.crt"))
        );
        assert_eq!(
            set.tls.key_path.as_deref(),
            Some(std::path::Path::new("/etc/tls/tls.key"))
        );
        assert_eq!(set.store.check_interval_secs, 2);
    }

    #[test]
    fn cluster_mode_is_off_unless_a_replica_is_named_and_needs_postgres() {
        let defaults = Settings::from_layers(&Cli::default(), HashMap::new()).unwrap();
        assert_eq!(defaults.cluster.replica_id, "");
        assert_eq!(defaults.cluster.lease_ttl_secs, 10);
        assert_eq!(defaults.cluster.hosting(), None, "off by default");

        let clustered = env(&[
            ("PITCHMATE__STORE__URL", "postgres://db.internal/pitchmate"),
            ("PITCHMATE__CLUSTER__REPLICA_ID", "pitchmate-0"),
            (
                "PITCHMATE__CLUSTER__ADVERTISE_URL",
                "http://pitchmate-0.pitchmate:50051",
            ),
            ("PITCHMATE__CLUSTER__LEASE_TTL_SECS", "6"),
        ]);
        let settings = Settings::from_layers(&Cli::default(), clustered.clone()).unwrap();
        let hosting = settings.cluster.hosting().unwrap();
        assert_eq!(hosting.replica_id, "pitchmate-0");
        assert_eq!(hosting.advertise_url, "http://pitchmate-0.pitchmate:50051");
        assert_eq!(hosting.lease_ttl, std::time::Duration::from_secs(6));

        let with = |key: &str, value: &str| {
            let mut environment = clustered.clone();
            environment.insert(key.to_owned(), value.to_owned());
            Settings::from_layers(&Cli::default(), environment)
        };
        for (key, value, complaint) in [
            ("PITCHMATE__STORE__URL", "", "PostgreSQL"),
            ("PITCHMATE__CLUSTER__ADVERTISE_URL", "", "advertise_url"),
            (
                "PITCHMATE__CLUSTER__ADVERTISE_URL",
                "pitchmate-0:50051",
                "advertise_url",
            ),
            (
                "PITCHMATE__CLUSTER__ADVERTISE_URL",
                "https://pitchmate-0.pitchmate:50051",
                "plain http://",
            ),
            (
                "PITCHMATE__TLS__CERT_PATH",
                "/etc/tls/tls.crt",
                "plain http://",
            ),
            ("PITCHMATE__CLUSTER__REPLICA_ID", "a b", "replica_id"),
            ("PITCHMATE__CLUSTER__REPLICA_ID", "a@b", "replica_id"),
            ("PITCHMATE__CLUSTER__LEASE_TTL_SECS", "0", "lease_ttl_secs"),
            (
                "PITCHMATE__CLUSTER__LEASE_TTL_SECS",
                "3601",
                "lease_ttl_secs",
            ),
        ] {
            let error = with(key, value).unwrap_err().to_string();
            assert!(error.contains(complaint), "{key}={value}: {error}");
        }
    }

    #[test]
    fn flags_parse_from_the_command_line() {
        use clap::Parser;
        let cli = Cli::try_parse_from([
            "pitchmate",
            "--listen",
            "127.0.0.1:1234",
            "--data-dir",
            "d",
            "--log-format",
            "json",
            "--log-filter",
            "trace",
        ])
        .unwrap();
        let settings = Settings::from_layers(&cli, HashMap::new()).unwrap();
        assert_eq!(settings.listen.port(), 1234);
        assert_eq!(settings.log.format, LogFormat::Json);
        assert_eq!(settings.log.filter, "trace");
    }

    #[test]
    fn export_and_import_take_their_files_or_the_standard_streams() {
        use clap::Parser;
        let parse = |args: &[&str]| Cli::try_parse_from(args).unwrap().command;
        assert_eq!(
            parse(&["pitchmate", "export", "--out", "league.ndjson"]),
            Some(Command::Export {
                out: Some(PathBuf::from("league.ndjson"))
            })
        );
        assert_eq!(
            parse(&["pitchmate", "export"]),
            Some(Command::Export { out: None })
        );
        assert_eq!(
            parse(&["pitchmate", "import", "--in", "league.ndjson"]),
            Some(Command::Import {
                input: Some(PathBuf::from("league.ndjson"))
            })
        );
        assert_eq!(
            parse(&["pitchmate", "import"]),
            Some(Command::Import { input: None })
        );
    }

    #[test]
    fn bad_values_are_rejected() {
        for environment in [
            env(&[("PITCHMATE__LISTEN", "not an address")]),
            env(&[("PITCHMATE__LOG__FORMAT", "xml")]),
            env(&[("PITCHMATE__STREAM__WATCHER_BUFFER", "0")]),
            env(&[("PITCHMATE__NO_SUCH_SETTING", "1")]),
            env(&[("PITCHMATE__STORE__URL", "mysql://db/pitchmate")]),
            env(&[("PITCHMATE__LIMITS__WATCHERS_PER_MATCH", "0")]),
            env(&[("PITCHMATE__LIMITS__ACTION_BURST", "0")]),
            env(&[("PITCHMATE__LIMITS__ACTIONS_PER_SECOND", "-1")]),
            env(&[("PITCHMATE__LIMITS__STREAMS_PER_SEAT", "0")]),
            env(&[("PITCHMATE__LIMITS__CREATE_BURST", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__MAX_CONNECTIONS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__MAX_CONNECTIONS", "1000001")]),
            env(&[("PITCHMATE__CONNECTIONS__MAX_STREAMS_PER_CONNECTION", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__HANDSHAKE_TIMEOUT_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__CALL_TIMEOUT_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__KEEPALIVE_INTERVAL_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__KEEPALIVE_TIMEOUT_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__IDLE_TIMEOUT_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__MAX_AGE_SECS", "31536001")]),
            env(&[("PITCHMATE__CONNECTIONS__MAX_AGE_GRACE_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__SHUTDOWN_TIMEOUT_SECS", "0")]),
            env(&[("PITCHMATE__CONNECTIONS__NO_SUCH_LIMIT", "1")]),
            env(&[("PITCHMATE__STORE__CHECK_INTERVAL_SECS", "0")]),
            env(&[("PITCHMATE__METRICS__LISTEN", "not an address")]),
            env(&[("PITCHMATE__TLS__NO_SUCH_SETTING", "1")]),
        ] {
            assert!(
                Settings::from_layers(&Cli::default(), environment.clone()).is_err(),
                "{environment:?}"
            );
        }
    }
}
