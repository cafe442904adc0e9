//! `--mode startup`: how soon a restarted server answers with many unfinished matches stored.
//!
//! It starts `--server-bin` twice on a fresh data directory of its own: first empty, the
//! baseline; then again to fill it with `--stored-matches` seated matches of `--variant`, each
//! with `--actions-per-match` random actions played, and kills it (SIGKILL, as a crash would).
//! It restarts the server on that directory and reports, against the empty start:
//!
//! - the time from spawning the process to its first answer (`ListVariants`), and to the first
//!   page of `ListMatches`;
//! - the round trip of `GetMatch` on the match stored last, right after the first answer (it is
//!   rebuilt first if the background has not reached it yet);
//! - the time until the server logs that every unfinished match is back, and its resident memory
//!   before the kill and then.

use std::fs;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use pitchmate_proto::v1::variant_service_client::VariantServiceClient;
use tokio::task::JoinSet;
use tonic::transport::{Channel, Endpoint};

use crate::{Args, CALL_TIMEOUT, IDLE_CREATORS, SeatedMatch, describe, resident_kib};

/// How long a server may take to answer, or to bring its matches back, before the run fails.
const PATIENCE: Duration = Duration::from_secs(600);

/// What the server logs once every unfinished match of an earlier run is rebuilt.
const BROUGHT_BACK: &str = "unfinished matches brought back";

pub async fn run(args: &Args) -> Result<bool, String> {
    let binary = args
        .server_bin
        .as_deref()
        .ok_or("--mode startup needs --server-bin, the pitchmate binary to start")?;
    let scratch = Scratch::new()?;
    let address = free_address()?;
    println!(
        "server {}, variant {}, {} stored matches of {} actions each",
        binary.display(),
        args.variant,
        args.stored_matches,
        args.actions_per_match,
    );

    let empty = Server::start(binary, address, &scratch.0.join("empty"), &scratch.0)?;
    let empty_start = empty.until_serving().await?;
    drop(empty);

    let data = scratch.0.join("stored");
    let filling = Server::start(binary, address, &data, &scratch.0)?;
    let channel = filling.until_serving().await?.channel;
    let filled = Instant::now();
    let last = store_matches(&channel, args, args.stored_matches, args.actions_per_match).await?;
    let before_kill_kib = resident_kib(filling.pid())?;
    println!(
        "stored {} matches in {:.1} s; server resident {} KiB",
        args.stored_matches,
        filled.elapsed().as_secs_f64(),
        before_kill_kib,
    );
    drop(filling);

    let restarted = Server::start(binary, address, &data, &scratch.0)?;
    let start = restarted.until_serving().await?;
    let call = Instant::now();
    MatchServiceClient::new(start.channel.clone())
        .get_match(pb::GetMatchRequest {
            match_id: last.clone(),
        })
        .await
        .map_err(|s| format!("GetMatch {last}: {}", describe(&s)))?;
    let get_match = call.elapsed();
    let back = restarted.until_logged(BROUGHT_BACK).await?;
    let back_kib = resident_kib(restarted.pid())?;

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "first answer: {:.0} ms empty, {:.0} ms with {} stored ({:.2}x)",
        ms(empty_start.first_answer),
        ms(start.first_answer),
        args.stored_matches,
        start.first_answer.as_secs_f64() / empty_start.first_answer.as_secs_f64(),
    );
    println!(
        "first ListMatches page: {:.0} ms empty, {:.0} ms with {} stored ({:.2}x)",
        ms(empty_start.first_listing),
        ms(start.first_listing),
        args.stored_matches,
        start.first_listing.as_secs_f64() / empty_start.first_listing.as_secs_f64(),
    );
    println!(
        "GetMatch on the last stored match right after: {:.1} ms",
        ms(get_match)
    );
    println!(
        "every unfinished match back {:.1} s after the start ({}); resident {} KiB, {} KiB \
         before the kill",
        back.elapsed.as_secs_f64(),
        back.line
            .split_once(BROUGHT_BACK)
            .map_or("", |(_, rest)| rest.trim()),
        back_kib,
        before_kill_kib,
    );
    Ok(true)
}

/// Creates the stored matches, `IDLE_CREATORS` at a time; the id of the one created last.
pub(crate) async fn store_matches(
    channel: &Channel,
    args: &Args,
    count: u32,
    actions: u32,
) -> Result<String, String> {
    let mut creators = JoinSet::new();
    for creator in 0..IDLE_CREATORS as u32 {
        let client = MatchServiceClient::new(channel.clone());
        let variant = args.variant.clone();
        let mut rng = fastrand::Rng::with_seed(args.seed.wrapping_add(u64::from(creator)));
        let share = (creator..count).step_by(IDLE_CREATORS).count();
        creators.spawn(async move {
            let mut last = String::new();
            for _ in 0..share {
                let seated = SeatedMatch::create(&client, &variant)
                    .await
                    .map_err(|s| format!("creating a match: {}", describe(&s)))?;
                play(&client, &seated, actions, &mut rng).await?;
                last = seated.match_id;
            }
            Ok::<_, String>(last)
        });
    }
    let mut last = String::new();
    while let Some(joined) = creators.join_next().await {
        last = joined.map_err(|e| format!("creating task: {e}"))??;
    }
    Ok(last)
}

/// Plays up to `actions` random actions of `seated`, fewer if it ends first; how many it played.
pub(crate) async fn play(
    client: &MatchServiceClient<Channel>,
    seated: &SeatedMatch,
    actions: u32,
    rng: &mut fastrand::Rng,
) -> Result<u32, String> {
    let mut client = client.clone();
    let (mut seat, mut played) = (0, 0);
    while played < actions {
        let legal = client
            .get_legal_actions(seated.as_seat(
                seat,
                pb::GetLegalActionsRequest {
                    match_id: seated.match_id.clone(),
                    detail: pb::ActionDetail::Typed.into(),
                },
            ))
            .await
            .map_err(|s| format!("GetLegalActions: {}", describe(&s)))?
            .into_inner();
        if legal.actions.is_empty() {
            let to_act = legal.turn.unwrap_or_default().to_act;
            match seated.seats.iter().position(|(s, _)| to_act.contains(s)) {
                Some(next) => seat = next,
                None => return Ok(played),
            }
            continue;
        }
        let index = legal.actions[rng.usize(..legal.actions.len())].index;
        client
            .submit_action(seated.as_seat(
                seat,
                pb::SubmitActionRequest {
                    match_id: seated.match_id.clone(),
                    expected_version: legal.version,
                    client_action_id: format!("{}@{}", seated.seats[seat].0, legal.version),
                    choice: Some(pb::submit_action_request::Choice::Index(index)),
                },
            ))
            .await
            .map_err(|s| format!("SubmitAction: {}", describe(&s)))?;
        played += 1;
    }
    Ok(played)
}

/// A directory of the run's own, removed at the end.
pub(crate) struct Scratch(pub(crate) PathBuf);

impl Scratch {
    pub(crate) fn new() -> Result<Self, String> {
        let path = std::env::temp_dir().join(format!(
            "pitchmate-startup-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        fs::create_dir_all(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Self(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn free_address() -> Result<SocketAddr, String> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free loopback port: {e}"))?;
    listener.local_addr().map_err(|e| e.to_string())
}

/// A server process, killed when dropped.
pub(crate) struct Server {
    child: Child,
    address: SocketAddr,
    log: PathBuf,
    spawned: Instant,
}

/// What the server had done when it first answered.
pub(crate) struct Start {
    pub(crate) channel: Channel,
    first_answer: Duration,
    first_listing: Duration,
}

/// A log line and when it appeared, after the start.
struct Logged {
    line: String,
    elapsed: Duration,
}

impl Server {
    pub(crate) fn start(
        binary: &Path,
        address: SocketAddr,
        data: &Path,
        logs: &Path,
    ) -> Result<Self, String> {
        Self::start_with(binary, address, data, logs, &[])
    }

    /// Starts the server with these settings added to its environment.
    pub(crate) fn start_with(
        binary: &Path,
        address: SocketAddr,
        data: &Path,
        logs: &Path,
        settings: &[(&str, &str)],
    ) -> Result<Self, String> {
        let log = logs.join(format!(
            "{}.log",
            data.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("server")
        ));
        let output =
            fs::File::create(&log).map_err(|e| format!("cannot open {}: {e}", log.display()))?;
        let errors = output.try_clone().map_err(|e| e.to_string())?;
        let spawned = Instant::now();
        let child = Command::new(binary)
            .arg("--listen")
            .arg(address.to_string())
            .arg("--data-dir")
            .arg(data)
            .args(["--log-filter", "info", "--log-format", "text"])
            // Filling the store creates matches from one address far faster than the
            // defaults let one client.
            .env("PITCHMATE__LIMITS__CREATES_PER_SECOND", "0")
            .env("PITCHMATE__LIMITS__OPEN_MATCHES_PER_CLIENT", "0")
            .envs(settings.iter().copied())
            .stdin(Stdio::null())
            .stdout(output)
            .stderr(errors)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        Ok(Self {
            child,
            address,
            log,
            spawned,
        })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Calls until the server answers, then asks for the first page of matches.
    pub(crate) async fn until_serving(&self) -> Result<Start, String> {
        let endpoint = Endpoint::from_shared(format!("http://{}", self.address))
            .map_err(|e| e.to_string())?
            .tcp_nodelay(true)
            .timeout(CALL_TIMEOUT);
        loop {
            if self.spawned.elapsed() > PATIENCE {
                return Err(format!("the server did not answer within {PATIENCE:?}"));
            }
            if let Ok(channel) = endpoint.connect().await {
                let mut variants = VariantServiceClient::new(channel.clone());
                if variants
                    .list_variants(pb::ListVariantsRequest::default())
                    .await
                    .is_ok()
                {
                    let first_answer = self.spawned.elapsed();
                    MatchServiceClient::new(channel.clone())
                        .list_matches(pb::ListMatchesRequest::default())
                        .await
                        .map_err(|s| format!("ListMatches: {}", describe(&s)))?;
                    return Ok(Start {
                        channel,
                        first_answer,
                        first_listing: self.spawned.elapsed(),
                    });
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Waits for a log line holding `text`.
    async fn until_logged(&self, text: &str) -> Result<Logged, String> {
        loop {
            let log = fs::read_to_string(&self.log).unwrap_or_default();
            if let Some(line) = log.lines().find(|line| line.contains(text)) {
                return Ok(Logged {
                    line: line.to_owned(),
                    elapsed: self.spawned.elapsed(),
                });
            }
            if self.spawned.elapsed() > PATIENCE {
                return Err(format!(
                    "the server did not log {text:?} within {PATIENCE:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
