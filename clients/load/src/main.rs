//! `pitchmate-load`: how fast a running Pitchmate server plays, against how fast it answers a
//! call that does nothing.
//!
//! In one run against one server it measures, in order:
//!
//! 1. with `--server-pid`, the server's resident memory before and after creating
//!    `--idle-matches` matches with both seats taken and nobody acting: the memory per idle match;
//! 2. the floor: the round trip of `ServerService.Ping`, first one call at a time, then from as
//!    many concurrent callers as there will be matches;
//! 3. the load: `--matches` matches played at once for `--duration` seconds, each by two random
//!    bots (a finished match is replaced by a new one). With `--turns stream` (the default) each
//!    bot follows its seat's event stream with `include_legal_actions` and answers every
//!    `your_turn` prompt with `SubmitAction`; with `--turns play` each bot plays over one
//!    `Play` stream, which brings the prompts and takes the actions, each answered in-band;
//!    with `--turns poll` it asks `GetLegalActions` instead, for whichever seat the last answer
//!    said is to act. Every action's round trip is recorded: the `SubmitAction` call, or on
//!    `Play` from sending the action to reading its outcome.
//!
//! It prints accepted actions per second, the round-trip percentiles and their ratios to the
//! floor, and with `--server-pid` the server's CPU time per accepted action, which stays
//! comparable when other work shares the machine. Each phase is bounded by a count or by the duration, so the run ends by itself.
//!
//! With `--play-server` the matches are created and seated on `--server` and played (and the
//! floor pinged) on the other URL: against two replicas in cluster mode, the cost of forwarding
//! every call and stream to the owner.
//!
//! With `--mode connections` it plays nothing and measures connections instead (see
//! `connections.rs`): the server's memory per idle connection, and a normal client's `Ping`
//! round trip while `--connections` silent sockets are open, against the same without them.
//!
//! With `--mode memory` it starts the server itself and reports its resident memory with many
//! idle seated matches, with many finished ones, and while one long match is played (see
//! `memory.rs`).
//!
//! With `--mode startup` it starts the server itself (`--server-bin`), twice, and measures how
//! soon it answers after a restart with `--stored-matches` unfinished matches stored, against
//! an empty start (see `startup.rs`).
//!
//! Connections: bots share HTTP/2 connections, `--bots-per-connection` to each (calls are
//! multiplexed as streams), so a thousand matches need twenty connections rather than two
//! thousand file descriptors, and the server still spreads connections over its threads.

mod connections;
mod memory;
mod startup;

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use hdrhistogram::Histogram;
use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::match_service_client::MatchServiceClient;
use pitchmate_proto::v1::server_service_client::ServerServiceClient;
use prost::Message;
use prost::encoding::{DecodeContext, WireType};
use tokio::task::JoinSet;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Plays many random matches at once on a running Pitchmate server and measures the \
             submit round trip against a bare Ping"
)]
struct Args {
    /// The server's URL.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// Plays the matches (and pings) on this server instead, while `--server` creates them and
    /// takes their seats: with two replicas in cluster mode, the one that did not create a match
    /// forwards every call and stream of it to the one that did (see docs/benchmarks.md,
    /// Forwarding).
    #[arg(long)]
    play_server: Option<String>,
    /// Matches played at the same time.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    matches: u32,
    /// Seconds of play.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    duration: u64,
    /// The variant played.
    #[arg(long, default_value = "soccer-chess")]
    variant: String,
    /// Bots sharing one HTTP/2 connection (both bots of a match always share one).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    bots_per_connection: u32,
    /// Sequential pings measured for the floor; the concurrent floor makes at least as many.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    pings: u32,
    /// The server's process id, to read its resident memory and CPU time from /proc (same
    /// machine only).
    #[arg(long)]
    server_pid: Option<u32>,
    /// The other server's process id (the replica `--play-server` names, with `--server-pid`
    /// naming the one that creates the matches): its CPU time during play is reported too, and
    /// the two added up per accepted action.
    #[arg(long)]
    peer_pid: Option<u32>,
    /// Idle matches created to measure memory per match (with --server-pid).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    idle_matches: u32,
    /// Seeds the bots' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the bots learn that they are to act and what they may do.
    #[arg(long, value_enum, default_value_t = Turns::Stream)]
    turns: Turns,
    /// How much of each legal action the server spells out in prompts and GetLegalActions
    /// answers (the bots read only the count).
    #[arg(long, value_enum, default_value_t = Detail::Full)]
    detail: Detail,
    /// What to measure.
    #[arg(long, value_enum, default_value_t = Mode::Play)]
    mode: Mode,
    /// With `--mode connections`: idle connections opened to measure memory per connection, and
    /// silent sockets held open while a normal client pings.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    connections: u32,
    /// With `--mode connections`: seconds to keep the silent sockets after the round trips
    /// under them were measured, then report how many the server has closed (it closes them
    /// after its handshake timeout).
    #[arg(long, default_value_t = 0)]
    hold_secs: u64,
    /// With `--mode startup`: the `pitchmate` binary to start (it is started on a data
    /// directory of the run's own; `--server` is not used).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// With `--mode startup`: unfinished matches stored before the restart.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    stored_matches: u32,
    /// With `--mode startup`: random actions played in each stored match (fewer if it ends).
    #[arg(long, default_value_t = 20)]
    actions_per_match: u32,
    /// With `--mode memory`: seconds a match nobody calls stays in memory.
    #[arg(long, default_value_t = 5)]
    unload_secs: u64,
    /// With `--mode memory`: actions played in the long match (fewer if it ends).
    #[arg(long, default_value_t = 10_000)]
    long_actions: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Mode {
    /// Matches played at once, against the Ping floor.
    Play,
    /// Memory per idle connection, and Ping round trips with and without silent sockets open.
    Connections,
    /// How soon a restarted server answers with many unfinished matches stored.
    Startup,
    /// Resident memory with many idle or finished matches, and its growth in a long match.
    Memory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Detail {
    /// Typed and in notation, as a bot that does not ask gets them.
    Full,
    Notation,
    Typed,
}

impl Detail {
    fn to_proto(self) -> pb::ActionDetail {
        match self {
            Detail::Full => pb::ActionDetail::Unspecified,
            Detail::Notation => pb::ActionDetail::Notation,
            Detail::Typed => pb::ActionDetail::Typed,
        }
    }
}

/// How the bots play.
#[derive(Clone, Copy, Debug)]
struct Bots {
    turns: Turns,
    detail: pb::ActionDetail,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Turns {
    /// Each bot follows its seat's event stream, which prompts it with the legal actions.
    Stream,
    /// Each bot plays over one `Play` stream: prompts in, actions out, outcomes in.
    Play,
    /// Each bot polls `GetLegalActions` (which also sends the view) and opens no stream.
    Poll,
}

impl Turns {
    /// What an action's round trip is, in the report.
    fn round_trip_name(self) -> &'static str {
        match self {
            Turns::Stream | Turns::Poll => "SubmitAction",
            Turns::Play => "Play action",
        }
    }
}

/// A call that takes longer than this counts as failed; it also bounds how long the run can
/// outlast `--duration`.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Calls made at once while creating idle matches.
const IDLE_CREATORS: usize = 32;

// The bench shares the machine with the server it measures; with glibc's allocator it spent a
// sixth of its CPU allocating and freeing decode buffers, time the server then did not get.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let ran = match args.mode {
        Mode::Play => run(&args).await,
        Mode::Connections => connections::run(&args).await,
        Mode::Startup => startup::run(&args).await,
        Mode::Memory => memory::run(&args).await,
    };
    match ran {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("pitchmate-load: some calls failed (see `failed` above)");
            ExitCode::FAILURE
        }
        Err(message) => {
            eprintln!("pitchmate-load: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every phase and prints the report; `Ok(false)` when calls failed along the way.
async fn run(args: &Args) -> Result<bool, String> {
    let matches = args.matches as usize;
    let matches_per_connection = (args.bots_per_connection / 2) as usize;
    let count = matches.div_ceil(matches_per_connection);
    let play_server = args.play_server.as_deref().unwrap_or(&args.server);
    let connections = connect(play_server, count).await?;
    let creating = match &args.play_server {
        Some(_) => connect(&args.server, count).await?,
        None => connections.clone(),
    };
    // Match i and its two bots use connection i / matches_per_connection.
    let connection_of = |i: usize| connections[i / matches_per_connection].clone();
    let creating_of = |i: usize| creating[i / matches_per_connection].clone();
    if args.play_server.is_some() {
        println!(
            "matches created on {}, played on {play_server}",
            args.server
        );
    }
    println!(
        "server {}, variant {}, {} matches on {} connections (up to {} bots per connection), {} \
         s, turns by {:?}, actions listed {:?}",
        play_server,
        args.variant,
        matches,
        connections.len(),
        matches_per_connection * 2,
        args.duration,
        args.turns,
        args.detail,
    );

    if let Some(pid) = args.server_pid {
        let memory = idle_match_memory(&creating[0], &args.variant, args.idle_matches, pid).await?;
        println!(
            "server memory: {} KiB resident before, {} KiB after {} idle matches: {:.1} KiB per \
             idle match",
            memory.before_kib,
            memory.after_kib,
            args.idle_matches,
            memory.per_match_kib(args.idle_matches),
        );
    }

    let sequential = ping_sequential(connections[0].clone(), args.pings).await?;
    sequential.print("ping, one at a time");
    let per_caller = (args.pings as usize).div_ceil(matches).max(20);
    let concurrent = ping_concurrent((0..matches).map(connection_of), per_caller).await?;
    concurrent.print(&format!("ping, {matches} concurrent callers"));

    let cpu_before = args.server_pid.map(server_cpu).transpose()?;
    let peer_cpu_before = args.peer_pid.map(server_cpu).transpose()?;
    let load = play_matches(
        (0..matches).map(|i| (creating_of(i), connection_of(i))),
        &args.variant,
        Duration::from_secs(args.duration),
        args.seed,
        Bots {
            turns: args.turns,
            detail: args.detail.to_proto(),
        },
    )
    .await;
    let cpu_used = match (args.server_pid, cpu_before) {
        (Some(pid), Some(before)) => Some(server_cpu(pid)?.saturating_sub(before)),
        _ => None,
    };
    let peer_cpu_used = match (args.peer_pid, peer_cpu_before) {
        (Some(pid), Some(before)) => Some(server_cpu(pid)?.saturating_sub(before)),
        _ => None,
    };
    println!(
        "play: {} accepted actions in {:.2} s = {:.0} actions/s; {} matches finished, {} \
         submissions refused as stale, {} failed",
        load.total.accepted,
        load.elapsed.as_secs_f64(),
        load.total.accepted as f64 / load.elapsed.as_secs_f64(),
        load.total.finished,
        load.total.stale,
        load.failures.len(),
    );
    for failure in load.failures.iter().take(5) {
        println!("  failed: {failure}");
    }
    if let Some(cpu) = cpu_used {
        // CPU time, unlike round trips, does not grow when other processes share the cores.
        println!(
            "server CPU during play: {:.2} s = {:.2} cores; {:.1} us per accepted action",
            cpu.as_secs_f64(),
            cpu.as_secs_f64() / load.elapsed.as_secs_f64(),
            cpu.as_secs_f64() * 1e6 / load.total.accepted.max(1) as f64,
        );
    }
    if let Some(peer) = peer_cpu_used {
        let per_action =
            |cpu: Duration| cpu.as_secs_f64() * 1e6 / load.total.accepted.max(1) as f64;
        println!(
            "peer server CPU during play: {:.2} s = {:.2} cores; {:.1} us per accepted action; \
             both servers {:.1} us",
            peer.as_secs_f64(),
            peer.as_secs_f64() / load.elapsed.as_secs_f64(),
            per_action(peer),
            per_action(peer + cpu_used.unwrap_or_default()),
        );
    }
    let submit = Timings::new(&load.total.submit, load.elapsed);
    let round_trip = args.turns.round_trip_name();
    submit.print(round_trip);
    match args.turns {
        Turns::Poll => {
            let legal_kib =
                load.total.legal_bytes as f64 / load.total.legal.0.len().max(1) as f64 / 1024.0;
            Timings::new(&load.total.legal, load.elapsed).print("GetLegalActions");
            println!(
                "GetLegalActions answers average {legal_kib:.1} KiB (the view and every legal \
                 action, typed and in notation)"
            );
        }
        Turns::Stream | Turns::Play => println!(
            "{} prompts answered ({} per accepted action)",
            load.total.prompts,
            load.total.prompts as f64 / load.total.accepted.max(1) as f64
        ),
    }
    print_ratios(
        &format!("{round_trip} / concurrent ping"),
        &submit,
        &concurrent,
    );
    print_ratios(
        &format!("{round_trip} / sequential ping"),
        &submit,
        &sequential,
    );
    if let Some(pid) = args.server_pid {
        println!(
            "server memory after play: {} KiB resident",
            resident_kib(pid)?
        );
    }
    Ok(load.failures.is_empty())
}

async fn connect(url: &str, count: usize) -> Result<Vec<Channel>, String> {
    let endpoint = Endpoint::from_shared(url.to_owned())
        .map_err(|e| format!("bad server URL {url:?}: {e}"))?
        .tcp_nodelay(true)
        .timeout(CALL_TIMEOUT);
    let mut connections = Vec::with_capacity(count);
    for _ in 0..count {
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        connections.push(channel);
    }
    Ok(connections)
}

/// Round trips in nanoseconds, as measured. Callers keep their own list and the lists are
/// joined at the end: a histogram per caller (about 600 KiB each at this range and precision)
/// would have the bench page in gigabytes at a thousand matches while the server works.
#[derive(Default)]
struct RoundTrips(Vec<u64>);

impl RoundTrips {
    fn record(&mut self, started: Instant) {
        self.0
            .push(u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX));
    }

    fn append(&mut self, mut other: RoundTrips) {
        self.0.append(&mut other.0);
    }

    /// From 1 ns to a minute, to three significant digits.
    fn histogram(&self) -> Histogram<u64> {
        let mut histogram =
            Histogram::new_with_bounds(1, 60_000_000_000, 3).expect("valid histogram bounds");
        for &nanos in &self.0 {
            histogram.saturating_record(nanos);
        }
        histogram
    }
}

/// The round trips of one kind of call and the wall time they took together.
struct Timings {
    round_trips: Histogram<u64>,
    elapsed: Duration,
}

impl Timings {
    fn new(round_trips: &RoundTrips, elapsed: Duration) -> Self {
        Self {
            round_trips: round_trips.histogram(),
            elapsed,
        }
    }

    fn micros(&self, quantile: f64) -> f64 {
        self.round_trips.value_at_quantile(quantile) as f64 / 1000.0
    }

    fn print(&self, name: &str) {
        println!(
            "{name:<36} {:>8} calls {:>9.0}/s   p50 {:>8.1} us   p99 {:>8.1} us   p99.9 {:>8.1} us",
            self.round_trips.len(),
            self.round_trips.len() as f64 / self.elapsed.as_secs_f64(),
            self.micros(0.5),
            self.micros(0.99),
            self.micros(0.999),
        );
    }
}

fn print_ratios(name: &str, measured: &Timings, floor: &Timings) {
    let ratio = |q| measured.micros(q) / floor.micros(q);
    println!(
        "{name:<36} p50 {:.2}x   p99 {:.2}x   p99.9 {:.2}x",
        ratio(0.5),
        ratio(0.99),
        ratio(0.999),
    );
}

async fn ping_sequential(channel: Channel, count: u32) -> Result<Timings, String> {
    let mut client = ServerServiceClient::new(channel);
    let mut round_trips = RoundTrips::default();
    let started = Instant::now();
    for _ in 0..count {
        let call = Instant::now();
        client
            .ping(pb::PingRequest {})
            .await
            .map_err(|e| format!("Ping failed: {e}"))?;
        round_trips.record(call);
    }
    Ok(Timings::new(&round_trips, started.elapsed()))
}

/// One caller per connection in `callers`, all at once, each pinging `per_caller` times in turn.
async fn ping_concurrent(
    callers: impl Iterator<Item = Channel>,
    per_caller: usize,
) -> Result<Timings, String> {
    let mut tasks = JoinSet::new();
    let started = Instant::now();
    for channel in callers {
        tasks.spawn(async move {
            let mut client = ServerServiceClient::new(channel);
            let mut round_trips = RoundTrips::default();
            for _ in 0..per_caller {
                let call = Instant::now();
                client.ping(pb::PingRequest {}).await?;
                round_trips.record(call);
            }
            Ok::<_, Status>(round_trips)
        });
    }
    let mut round_trips = RoundTrips::default();
    while let Some(joined) = tasks.join_next().await {
        let caller = joined
            .map_err(|e| format!("ping task: {e}"))?
            .map_err(|e| format!("Ping failed: {e}"))?;
        round_trips.append(caller);
    }
    Ok(Timings::new(&round_trips, started.elapsed()))
}

struct Memory {
    before_kib: u64,
    after_kib: u64,
}

impl Memory {
    fn per_match_kib(&self, matches: u32) -> f64 {
        self.after_kib.saturating_sub(self.before_kib) as f64 / f64::from(matches)
    }
}

/// The resident set of process `pid`, from `VmRSS` in /proc/<pid>/status.
fn resident_kib(pid: u32) -> Result<u64, String> {
    let path = format!("/proc/{pid}/status");
    let status = fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| format!("no VmRSS line in {path}"))
}

/// The CPU time (user and system) process `pid` has used so far, from /proc/<pid>/stat.
fn server_cpu(pid: u32) -> Result<Duration, String> {
    let path = format!("/proc/{pid}/stat");
    let stat = fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis
    // start at field 3, so utime and stime (fields 14 and 15) are the 12th and 13th there.
    let (_, fields) = stat
        .rsplit_once(')')
        .ok_or_else(|| format!("{path} has no command name"))?;
    let ticks: u64 = fields
        .split_whitespace()
        .skip(11)
        .take(2)
        .map(|field| field.parse::<u64>().map_err(|e| format!("{path}: {e}")))
        .sum::<Result<_, _>>()?;
    // Linux reports these in clock ticks of USER_HZ, which is 100 on every architecture.
    Ok(Duration::from_millis(ticks * 10))
}

/// Server memory before and after `count` matches are created and seated, with nobody acting.
async fn idle_match_memory(
    channel: &Channel,
    variant: &str,
    count: u32,
    pid: u32,
) -> Result<Memory, String> {
    let before_kib = resident_kib(pid)?;
    let mut creators = JoinSet::new();
    for creator in 0..IDLE_CREATORS as u32 {
        let client = MatchServiceClient::new(channel.clone());
        let variant = variant.to_owned();
        let share = (creator..count).step_by(IDLE_CREATORS).count();
        creators.spawn(async move {
            for _ in 0..share {
                SeatedMatch::create(&client, &variant).await?;
            }
            Ok::<_, Status>(())
        });
    }
    while let Some(joined) = creators.join_next().await {
        joined
            .map_err(|e| format!("idle match task: {e}"))?
            .map_err(|e| format!("creating idle matches failed: {e}"))?;
    }
    Ok(Memory {
        before_kib,
        after_kib: resident_kib(pid)?,
    })
}

/// A load run creates matches from one address far faster, and keeps far more of them, than
/// the server lets one client by default; say how to lift those limits for the run.
fn explain_creation_limits(status: Status) -> Status {
    let limited = status
        .get_error_details()
        .error_info()
        .is_some_and(|info| ["RATE_LIMITED", "QUOTA_EXCEEDED"].contains(&info.reason.as_str()));
    if !limited {
        return status;
    }
    Status::new(
        status.code(),
        format!(
            "{}; start the server for a load run with PITCHMATE__LIMITS__CREATES_PER_SECOND=0 \
             PITCHMATE__LIMITS__OPEN_MATCHES_PER_CLIENT=0",
            status.message()
        ),
    )
}

/// A match with every seat taken, ready to play.
struct SeatedMatch {
    match_id: String,
    /// Seat names and their tokens, in seat order.
    seats: Vec<(String, String)>,
}

impl SeatedMatch {
    async fn create(client: &MatchServiceClient<Channel>, variant: &str) -> Result<Self, Status> {
        Self::create_with(
            client,
            pb::CreateMatchRequest {
                variant_id: variant.to_owned(),
                ..Default::default()
            },
        )
        .await
    }

    /// A match created as `request` says, both seats taken.
    async fn create_with(
        client: &MatchServiceClient<Channel>,
        request: pb::CreateMatchRequest,
    ) -> Result<Self, Status> {
        let created = client
            .clone()
            .create_match(request)
            .await
            .map_err(explain_creation_limits)?
            .into_inner()
            .r#match
            .unwrap_or_default();
        let mut seats = Vec::new();
        for seat in &created.seats {
            let joined = client
                .clone()
                .join_match(pb::JoinMatchRequest {
                    match_id: created.match_id.clone(),
                    seat: seat.seat.clone(),
                    player_name: format!("load-{}", seat.seat),
                })
                .await?
                .into_inner();
            seats.push((joined.seat, joined.seat_token));
        }
        Ok(Self {
            match_id: created.match_id,
            seats,
        })
    }

    /// `message` as seat `seat` sends it.
    fn as_seat<T>(&self, seat: usize, message: T) -> Request<T> {
        let mut request = Request::new(message);
        let token = format!("Bearer {}", self.seats[seat].1);
        request.metadata_mut().insert(
            "authorization",
            token.parse().expect("hex tokens are valid headers"),
        );
        request
    }
}

/// What the matches of the play phase did together.
struct Load {
    elapsed: Duration,
    /// Every slot's counts added up.
    total: Slot,
    failures: Vec<String>,
}

/// What one match slot did: the matches it played one after another until the deadline.
struct Slot {
    accepted: u64,
    stale: u64,
    finished: u64,
    submit: RoundTrips,
    legal: RoundTrips,
    /// Encoded size of every GetLegalActions answer together.
    legal_bytes: u64,
    prompts: u64,
}

impl Slot {
    fn new() -> Self {
        Self {
            accepted: 0,
            stale: 0,
            finished: 0,
            submit: RoundTrips::default(),
            legal: RoundTrips::default(),
            legal_bytes: 0,
            prompts: 0,
        }
    }

    fn add(&mut self, other: Slot) {
        self.accepted += other.accepted;
        self.stale += other.stale;
        self.finished += other.finished;
        self.submit.append(other.submit);
        self.legal.append(other.legal);
        self.legal_bytes += other.legal_bytes;
        self.prompts += other.prompts;
    }
}

/// Plays a slot of matches on each pair of connections: the first creates them and takes their
/// seats, the second plays them.
async fn play_matches(
    slots: impl Iterator<Item = (Channel, Channel)>,
    variant: &str,
    duration: Duration,
    seed: u64,
    bots: Bots,
) -> Load {
    let started = Instant::now();
    let deadline = started + duration;
    let mut tasks = JoinSet::new();
    for (i, (creating, channel)) in slots.enumerate() {
        let variant = variant.to_owned();
        let rng = fastrand::Rng::with_seed(seed.wrapping_add(i as u64));
        tasks.spawn(play_slot(creating, channel, variant, rng, deadline, bots));
    }
    let mut load = Load {
        elapsed: Duration::ZERO,
        total: Slot::new(),
        failures: Vec::new(),
    };
    while let Some(joined) = tasks.join_next().await {
        let (slot, failure) = match joined {
            Ok(outcome) => outcome,
            Err(e) => {
                load.failures.push(format!("match task: {e}"));
                continue;
            }
        };
        load.total.add(slot);
        load.failures.extend(failure);
    }
    load.elapsed = started.elapsed();
    load
}

/// Plays matches one after another on `channel` until `deadline`, both seats of each by random
/// choice, each created and seated on `creating`. Stops early at the first failed call, which
/// it returns beside what it measured.
async fn play_slot(
    creating: Channel,
    channel: Channel,
    variant: String,
    mut rng: fastrand::Rng,
    deadline: Instant,
    bots: Bots,
) -> (Slot, Option<String>) {
    let creator = MatchServiceClient::new(creating);
    let client = MatchServiceClient::new(channel.clone());
    // What the first seat (or the polling bot) did, and what the second did.
    let [mut slot, mut second] = [Slot::new(), Slot::new()];
    let mut failure = None;
    while failure.is_none() && Instant::now() < deadline {
        let played = match SeatedMatch::create(&creator, &variant).await {
            Ok(seated) => match bots.turns {
                Turns::Poll => {
                    play_polling(
                        &client,
                        &channel,
                        &seated,
                        bots.detail,
                        &mut rng,
                        deadline,
                        &mut slot,
                    )
                    .await
                }
                Turns::Stream | Turns::Play => {
                    play_prompted(
                        &channel,
                        &seated,
                        bots,
                        &mut rng,
                        deadline,
                        [&mut slot, &mut second],
                    )
                    .await
                }
            },
            Err(status) => Err(format!("creating a match: {}", describe(&status))),
        };
        failure = played.err();
    }
    slot.add(second);
    (slot, failure)
}

/// Plays `seated` until it ends or `deadline` passes, both seats at once, each from its own
/// prompted event stream.
async fn play_prompted(
    channel: &Channel,
    seated: &SeatedMatch,
    bots: Bots,
    rng: &mut fastrand::Rng,
    deadline: Instant,
    [first, second]: [&mut Slot; 2],
) -> Result<(), String> {
    // Every variant has two seats.
    let seeds = [rng.u64(..), rng.u64(..)];
    let seat = |index: usize, slot| {
        play_seat(
            channel.clone(),
            seated,
            index,
            bots,
            seeds[index],
            deadline,
            slot,
        )
    };
    let (first, second) = tokio::join!(seat(0, first), seat(1, second));
    first.and(second)
}

/// One seat of a match, played as `bots.turns` says, until the match ends or `deadline` passes.
async fn play_seat(
    channel: Channel,
    seated: &SeatedMatch,
    seat: usize,
    bots: Bots,
    seed: u64,
    deadline: Instant,
    slot: &mut Slot,
) -> Result<(), String> {
    match bots.turns {
        Turns::Play => {
            play_seat_over_play(channel, seated, seat, bots.detail, seed, deadline, slot).await
        }
        Turns::Stream | Turns::Poll => {
            play_seat_prompted(channel, seated, seat, bots.detail, seed, deadline, slot).await
        }
    }
}

/// One seat of a match: answers every prompt on its stream with a random legal action until
/// the match ends or `deadline` passes, counting into `slot`.
async fn play_seat_prompted(
    channel: Channel,
    seated: &SeatedMatch,
    seat: usize,
    detail: pb::ActionDetail,
    seed: u64,
    deadline: Instant,
    slot: &mut Slot,
) -> Result<(), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let request = seated.as_seat(
        seat,
        pb::StreamMatchEventsRequest {
            match_id: seated.match_id.clone(),
            after_seq: 0,
            include_legal_actions: true,
            prompt_detail: detail.into(),
        },
    );
    let mut stream = lean_prompts(channel.clone(), request)
        .await
        .map_err(|status| format!("StreamMatchEvents: {}", describe(&status)))?;
    loop {
        let Some(item) = next_before(&mut stream, deadline, "StreamMatchEvents").await? else {
            return Ok(());
        };
        match next_move(item.your_turn, item.event, seat, deadline, &mut rng, slot)? {
            Move::Wait => {}
            Move::Stop => return Ok(()),
            Move::Act { version, index } => {
                submit(&channel, seated, seat, version, index, slot).await?;
            }
        }
    }
}

/// The next message of a bot's stream `call`, or `None` when the stream closed (after the match
/// ended) or time is up while waiting (for the other seat, say).
async fn next_before<T>(
    stream: &mut tonic::Streaming<T>,
    deadline: Instant,
    call: &str,
) -> Result<Option<T>, String> {
    match tokio::time::timeout_at(deadline.into(), stream.message()).await {
        Err(_) => Ok(None),
        Ok(received) => received.map_err(|status| format!("{call}: {}", describe(&status))),
    }
}

/// What a bot does after a message of its stream.
enum Move {
    /// Nothing: it was not a prompt.
    Wait,
    /// Time is up.
    Stop,
    /// Act at `version` with the action at `index`.
    Act { version: u64, index: u32 },
}

/// A bot's answer to a message carrying `prompt` or `event`: a random action for a prompt until
/// `deadline`. Seat 0 counts finished matches (both seats see the end); a prompt listing
/// nothing is an error.
fn next_move(
    prompt: Option<LeanYourTurn>,
    event: Option<LeanEvent>,
    seat: usize,
    deadline: Instant,
    rng: &mut fastrand::Rng,
    slot: &mut Slot,
) -> Result<Move, String> {
    let Some(turn) = prompt else {
        if seat == 0 && event.is_some_and(|event| event.match_ended.is_some()) {
            slot.finished += 1;
        }
        return Ok(Move::Wait);
    };
    if Instant::now() >= deadline {
        return Ok(Move::Stop);
    }
    slot.prompts += 1;
    if turn.listed == 0 {
        return Err(format!(
            "a prompt at version {} listed no action",
            turn.version
        ));
    }
    Ok(Move::Act {
        version: turn.version,
        index: rng.u32(..turn.listed),
    })
}

/// Requests a load bot queues on its `Play` stream before the connection takes them.
const PLAY_QUEUE: usize = 4;

/// One seat of a match over a `Play` stream: answers every prompt with a random legal action
/// until the match ends or `deadline` passes, recording each action's round trip from sending it
/// to reading its outcome.
async fn play_seat_over_play(
    channel: Channel,
    seated: &SeatedMatch,
    seat: usize,
    detail: pb::ActionDetail,
    seed: u64,
    deadline: Instant,
    slot: &mut Slot,
) -> Result<(), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let (requests, queued) = tokio::sync::mpsc::channel(PLAY_QUEUE);
    let closed = |_| "Play: the stream stopped taking requests".to_owned();
    requests
        .send(pb::PlayRequest {
            kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
                match_id: seated.match_id.clone(),
                after_seq: 0,
                prompt_detail: detail.into(),
            })),
        })
        .await
        .map_err(closed)?;
    let request = seated.as_seat(seat, tokio_stream::wrappers::ReceiverStream::new(queued));
    let mut stream = lean_play(channel, request)
        .await
        .map_err(|status| format!("Play: {}", describe(&status)))?;
    let mut sent_at = None;
    loop {
        let Some(item) = next_before(&mut stream, deadline, "Play").await? else {
            return Ok(());
        };
        if let Some(outcome) = item.acted {
            if let Some(sent) = sent_at.take() {
                slot.submit.record(sent);
            }
            match (outcome.accepted, outcome.refused) {
                (Some(_), _) => slot.accepted += 1,
                // Both seats act in a simultaneous phase: the other one may have moved the version.
                (_, Some(refused)) if refused.reason == "STALE_VERSION" => slot.stale += 1,
                (_, Some(refused)) => {
                    return Err(format!(
                        "Play: action refused: {} {}",
                        refused.reason, refused.message
                    ));
                }
                (None, None) => return Err("Play: an outcome without a result".to_owned()),
            }
            continue;
        }
        let (version, index) =
            match next_move(item.your_turn, item.event, seat, deadline, &mut rng, slot)? {
                Move::Wait => continue,
                Move::Stop => return Ok(()),
                Move::Act { version, index } => (version, index),
            };
        let act = pb::PlayAction {
            expected_version: version,
            client_action_id: format!("{}@{}", seated.seats[seat].0, version),
            choice: Some(pb::play_action::Choice::Index(index)),
        };
        sent_at = Some(Instant::now());
        requests
            .send(pb::PlayRequest {
                kind: Some(pb::play_request::Kind::Act(act)),
            })
            .await
            .map_err(closed)?;
    }
}

/// What a load bot reads of its stream: prompts with their version and action indexes, and
/// whether an event ended the match. Protobuf decoders skip the fields a message does not
/// declare, so the rest (typed actions, notation, the events' contents) is never built: the
/// load generator shares the machine with the server and should cost it as little as it can.
#[derive(Clone, PartialEq, prost::Message)]
struct LeanItem {
    #[prost(message, optional, tag = "1")]
    event: Option<LeanEvent>,
    #[prost(message, optional, tag = "3")]
    your_turn: Option<LeanYourTurn>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct LeanEvent {
    /// `MatchEvent.match_ended`.
    #[prost(message, optional, tag = "16")]
    match_ended: Option<LeanEmpty>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct LeanEmpty {}

/// `YourTurn` as a random bot reads it: the version, and how many actions are listed. An
/// action's `index` is its position in the list, so the count is all a uniform choice needs;
/// the actions themselves are stepped over without being decoded.
#[derive(Clone, Debug, Default, PartialEq)]
struct LeanYourTurn {
    version: u64,
    listed: u32,
}

/// `YourTurn.version` and `YourTurn.actions`.
const VERSION_TAG: u32 = 1;
const ACTIONS_TAG: u32 = 3;

impl Message for LeanYourTurn {
    /// The version and `listed` empty actions: what this type knows of a prompt.
    fn encode_raw(&self, buf: &mut impl prost::bytes::BufMut) {
        if self.version != 0 {
            prost::encoding::uint64::encode(VERSION_TAG, &self.version, buf);
        }
        for _ in 0..self.listed {
            prost::encoding::encode_key(ACTIONS_TAG, WireType::LengthDelimited, buf);
            prost::encoding::encode_varint(0, buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl prost::bytes::Buf,
        ctx: DecodeContext,
    ) -> Result<(), prost::DecodeError> {
        match tag {
            VERSION_TAG => prost::encoding::uint64::merge(wire_type, &mut self.version, buf, ctx),
            ACTIONS_TAG => {
                self.listed += 1;
                prost::encoding::skip_field(wire_type, tag, buf, ctx)
            }
            _ => prost::encoding::skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let version = if self.version == 0 {
            0
        } else {
            prost::encoding::uint64::encoded_len(VERSION_TAG, &self.version)
        };
        // An empty action is its key and a zero length, one byte each.
        version + 2 * self.listed as usize
    }

    fn clear(&mut self) {
        *self = Self::default();
    }
}

/// What a load bot reads of a `Play` stream: [`LeanItem`]'s fields and each action's outcome.
#[derive(Clone, PartialEq, prost::Message)]
struct LeanPlayItem {
    #[prost(message, optional, tag = "1")]
    event: Option<LeanEvent>,
    #[prost(message, optional, tag = "3")]
    your_turn: Option<LeanYourTurn>,
    #[prost(message, optional, tag = "4")]
    acted: Option<LeanOutcome>,
}

/// `ActionOutcome`: accepted, or refused and why.
#[derive(Clone, PartialEq, prost::Message)]
struct LeanOutcome {
    #[prost(message, optional, tag = "2")]
    accepted: Option<LeanEmpty>,
    #[prost(message, optional, tag = "3")]
    refused: Option<LeanRefused>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct LeanRefused {
    #[prost(string, tag = "2")]
    reason: String,
    #[prost(string, tag = "3")]
    message: String,
}

/// What a load bot reads of a `SubmitActionResponse`: whether its events ended the match.
#[derive(Clone, PartialEq, prost::Message)]
struct LeanSubmitted {
    #[prost(message, repeated, tag = "2")]
    events: Vec<LeanEvent>,
}

/// A gRPC client on `channel` for calls decoded with the lean messages above.
async fn ready(channel: Channel) -> Result<tonic::client::Grpc<Channel>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| Status::unavailable(format!("connection not ready: {e}")))?;
    Ok(grpc)
}

/// `SubmitAction`, its answer decoded as [`LeanSubmitted`].
async fn lean_submit(
    channel: Channel,
    request: Request<pb::SubmitActionRequest>,
) -> Result<LeanSubmitted, Status> {
    let mut grpc = ready(channel).await?;
    let path = tonic::codegen::http::uri::PathAndQuery::from_static(
        "/pitchmate.v1.MatchService/SubmitAction",
    );
    let codec =
        pitchmate_proto::codec::PitchmateCodec::<pb::SubmitActionRequest, LeanSubmitted>::default();
    Ok(grpc.unary(request, path, codec).await?.into_inner())
}

/// `StreamMatchEvents`, decoded as [`LeanItem`]s.
async fn lean_prompts(
    channel: Channel,
    request: Request<pb::StreamMatchEventsRequest>,
) -> Result<tonic::Streaming<LeanItem>, Status> {
    let mut grpc = ready(channel).await?;
    let path = tonic::codegen::http::uri::PathAndQuery::from_static(
        "/pitchmate.v1.MatchService/StreamMatchEvents",
    );
    let codec =
        pitchmate_proto::codec::PitchmateCodec::<pb::StreamMatchEventsRequest, LeanItem>::default();
    Ok(grpc
        .server_streaming(request, path, codec)
        .await?
        .into_inner())
}

/// `Play`, its responses decoded as [`LeanPlayItem`]s.
async fn lean_play(
    channel: Channel,
    request: Request<tokio_stream::wrappers::ReceiverStream<pb::PlayRequest>>,
) -> Result<tonic::Streaming<LeanPlayItem>, Status> {
    let mut grpc = ready(channel).await?;
    let path =
        tonic::codegen::http::uri::PathAndQuery::from_static("/pitchmate.v1.MatchService/Play");
    let codec = pitchmate_proto::codec::PitchmateCodec::<pb::PlayRequest, LeanPlayItem>::default();
    Ok(grpc.streaming(request, path, codec).await?.into_inner())
}

/// Submits the action at `index` for `seat` at `version`, recording the round trip.
async fn submit(
    channel: &Channel,
    seated: &SeatedMatch,
    seat: usize,
    version: u64,
    index: u32,
    slot: &mut Slot,
) -> Result<bool, String> {
    let request = seated.as_seat(
        seat,
        pb::SubmitActionRequest {
            match_id: seated.match_id.clone(),
            expected_version: version,
            client_action_id: format!("{}@{}", seated.seats[seat].0, version),
            choice: Some(pb::submit_action_request::Choice::Index(index)),
        },
    );
    let call = Instant::now();
    let submitted = lean_submit(channel.clone(), request).await;
    slot.submit.record(call);
    match submitted {
        Ok(response) => {
            slot.accepted += 1;
            Ok(response.events.iter().any(|e| e.match_ended.is_some()))
        }
        // Both seats act in a simultaneous phase: the other one may have moved the version.
        Err(status) if reason(&status).as_deref() == Some("STALE_VERSION") => {
            slot.stale += 1;
            Ok(false)
        }
        Err(status) => Err(format!("SubmitAction: {}", describe(&status))),
    }
}

/// Plays `seated` until it ends or `deadline` passes. A seat acts only when the server lists
/// legal actions for it; otherwise the turn tells which seat is to act.
async fn play_polling(
    client: &MatchServiceClient<Channel>,
    channel: &Channel,
    seated: &SeatedMatch,
    detail: pb::ActionDetail,
    rng: &mut fastrand::Rng,
    deadline: Instant,
    slot: &mut Slot,
) -> Result<(), String> {
    let mut client = client.clone();
    let mut seat = 0;
    while Instant::now() < deadline {
        let call = Instant::now();
        let legal = client
            .get_legal_actions(seated.as_seat(
                seat,
                pb::GetLegalActionsRequest {
                    match_id: seated.match_id.clone(),
                    detail: detail.into(),
                },
            ))
            .await
            .map_err(|s| format!("GetLegalActions: {}", describe(&s)))?
            .into_inner();
        slot.legal.record(call);
        slot.legal_bytes += legal.encoded_len() as u64;
        if legal.actions.is_empty() {
            let to_act = legal.turn.unwrap_or_default().to_act;
            let Some(next) = seated.seats.iter().position(|(s, _)| to_act.contains(s)) else {
                // Nobody is to act: the match is over.
                slot.finished += 1;
                return Ok(());
            };
            seat = next;
            continue;
        }
        let index = legal.actions[rng.usize(..legal.actions.len())].index;
        if submit(channel, seated, seat, legal.version, index, slot).await? {
            slot.finished += 1;
            return Ok(());
        }
    }
    Ok(())
}

fn reason(status: &Status) -> Option<String> {
    status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
}

fn describe(status: &Status) -> String {
    match (status.code(), reason(status)) {
        (Code::Cancelled | Code::DeadlineExceeded, None) => {
            format!("no answer within {CALL_TIMEOUT:?}: {}", status.message())
        }
        (code, Some(reason)) => format!("{code:?} {reason}: {}", status.message()),
        (code, None) => format!("{code:?}: {}", status.message()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchmate_proto::v1::match_event::Kind;

    /// The lean messages must name the same fields as the real ones, or prompts would decode
    /// as empty and the bench would measure nothing.
    #[test]
    fn lean_items_read_what_the_server_sends() {
        let prompt = pb::StreamMatchEventsResponse {
            item: Some(pb::stream_match_events_response::Item::YourTurn(
                pb::YourTurn {
                    version: 7,
                    turn: Some(pb::TurnInfo::default()),
                    actions: (0..3)
                        .map(|index| pb::LegalAction {
                            index,
                            action: None,
                            notation: format!("move {index}"),
                        })
                        .collect(),
                },
            )),
        };
        let lean = LeanItem::decode(prompt.encode_to_vec().as_slice()).unwrap();
        let turn = lean.your_turn.unwrap();
        assert_eq!(turn.version, 7);
        assert_eq!(turn.listed, 3);
        let reencoded = pb::YourTurn::decode(turn.encode_to_vec().as_slice()).unwrap();
        assert_eq!(reencoded.version, 7);
        assert_eq!(reencoded.actions.len(), 3);

        let end = pb::StreamMatchEventsResponse {
            item: Some(pb::stream_match_events_response::Item::Event(
                pb::MatchEvent {
                    seq: 9,
                    kind: Some(Kind::MatchEnded(pb::MatchEnded::default())),
                    ..Default::default()
                },
            )),
        };
        let lean = LeanItem::decode(end.encode_to_vec().as_slice()).unwrap();
        assert!(lean.event.unwrap().match_ended.is_some());
        assert!(lean.your_turn.is_none());

        let other = pb::StreamMatchEventsResponse {
            item: Some(pb::stream_match_events_response::Item::Event(
                pb::MatchEvent {
                    seq: 3,
                    kind: Some(Kind::MatchStarted(pb::MatchStarted {})),
                    ..Default::default()
                },
            )),
        };
        let lean = LeanItem::decode(other.encode_to_vec().as_slice()).unwrap();
        assert!(lean.event.unwrap().match_ended.is_none());

        let last_action = pb::SubmitActionResponse {
            version: 40,
            events: vec![
                pb::MatchEvent {
                    seq: 90,
                    kind: Some(Kind::MatchStarted(pb::MatchStarted {})),
                    ..Default::default()
                },
                pb::MatchEvent {
                    seq: 91,
                    kind: Some(Kind::MatchEnded(pb::MatchEnded::default())),
                    ..Default::default()
                },
            ],
            duplicate: false,
        };
        let lean = LeanSubmitted::decode(last_action.encode_to_vec().as_slice()).unwrap();
        let ended: Vec<bool> = lean
            .events
            .iter()
            .map(|e| e.match_ended.is_some())
            .collect();
        assert_eq!(ended, [false, true]);
    }

    #[test]
    fn lean_play_items_read_what_the_server_sends() {
        use pb::play_response::Item;
        let item = |item| pb::PlayResponse { item: Some(item) }.encode_to_vec();
        let prompt = item(Item::YourTurn(pb::YourTurn {
            version: 4,
            turn: None,
            actions: vec![pb::LegalAction::default(); 5],
        }));
        let lean = LeanPlayItem::decode(prompt.as_slice()).unwrap();
        assert_eq!(
            lean.your_turn,
            Some(LeanYourTurn {
                version: 4,
                listed: 5
            })
        );
        let accepted = item(Item::Acted(pb::ActionOutcome {
            client_action_id: "a".into(),
            result: Some(pb::action_outcome::Result::Accepted(pb::ActionAccepted {
                version: 5,
                duplicate: false,
            })),
        }));
        let lean = LeanPlayItem::decode(accepted.as_slice())
            .unwrap()
            .acted
            .unwrap();
        assert!(lean.accepted.is_some() && lean.refused.is_none());
        let refused = item(Item::Acted(pb::ActionOutcome {
            client_action_id: "a".into(),
            result: Some(pb::action_outcome::Result::Refused(pb::ActionRefused {
                reason: "STALE_VERSION".into(),
                message: "moved on".into(),
                ..Default::default()
            })),
        }));
        let lean = LeanPlayItem::decode(refused.as_slice())
            .unwrap()
            .acted
            .unwrap();
        let refused = lean.refused.unwrap();
        assert_eq!(refused.reason, "STALE_VERSION");
        assert_eq!(refused.message, "moved on");
        let end = item(Item::Event(pb::MatchEvent {
            seq: 9,
            kind: Some(Kind::MatchEnded(pb::MatchEnded::default())),
            ..Default::default()
        }));
        let lean = LeanPlayItem::decode(end.as_slice()).unwrap();
        assert!(lean.event.unwrap().match_ended.is_some());
    }
}
