//! The failover proof: three `pitchmate` processes in cluster mode on one PostgreSQL schema,
//! bots playing many matches and a round robin through different replicas (each seat connected
//! to another replica than its match's owner where it can be), and one replica SIGKILLed every
//! few seconds, in turn, and started again on its port after a pause, as an orchestrator would.
//!
//! At the end, from the replays the database holds:
//!
//! - every match and the tournament finished, and every game of the tournament was played once;
//! - every action a bot's play loop was told was accepted is in its match's log exactly once,
//!   at the version it was answered with, and it is the action the bot chose;
//! - no two owners' writes interleaved: each log's events are numbered without a gap, its
//!   actions step the version one at a time, and re-playing it on the rules engine gives the
//!   events and the result it holds. (Writes the store refused for a stale fencing token are
//!   fencing at work; the replicas' logs count them.)
//!
//! It prints the failover time (from a SIGKILL to the answer to the first action sent after it
//! in each match the killed replica owned) and the cost of forwarding (an action's round trip
//! with both seats on the owner, and with both on another replica, measured before the kills
//! start).
//!
//! Skipped without a PostgreSQL server (outside CI); `PITCHMATE_TEST_POSTGRES_URL` names
//! another one. `PITCHMATE_FAILOVER_MATCHES` and `PITCHMATE_FAILOVER_KILLS` make a longer run.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::process::{Options, ServerProcess, free_address, scratch_dir, url};
use common::tournaments::{TestBot, games, meetings, patient, register_bots, rounds};
use pitchmate_client::{
    Bot, BotMaker, Choice, Client, ClientError, LeagueOptions, LeagueReport, NewMatch, PlayOptions,
    RandomChoice, SeatHandle, pb, play_with, run_league, verify_replay,
};
use pitchmate_store::scratch::ScratchSchema;
use pitchmate_store::{Store, match_lease};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

const REPLICAS: usize = 3;
/// Short, so a dead replica's matches wait little before a survivor may take them.
const LEASE_TTL_SECS: u64 = 2;
/// Matches played besides the tournament's, unless `PITCHMATE_FAILOVER_MATCHES` says.
const DEFAULT_MATCHES: usize = 24;
/// SIGKILLs, unless `PITCHMATE_FAILOVER_KILLS` says: by default each replica once.
const DEFAULT_KILLS: usize = 3;
/// King's Goal halves of the default length (about 250 actions a match) keep the matches
/// going through the kills.
const MOVES_PER_HALF: i64 = 45;
/// The tournament's games are shorter: three rounds of them run one after another.
const TOURNAMENT_MOVES_PER_HALF: i64 = 6;
const TOURNAMENT_BOTS: usize = 4;
/// Between one replica's restart and the next SIGKILL.
const KILL_EVERY: Duration = Duration::from_secs(2);
/// How long a killed replica stays down before it is started again.
const DOWN_FOR: Duration = Duration::from_millis(500);
/// The whole run's patience: far beyond what it needs, so a stuck run fails rather than hangs.
const PATIENCE: Duration = Duration::from_secs(600);

fn from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// An action a play loop was told was accepted.
#[derive(Clone, Debug)]
struct Ack {
    seat: String,
    client_action_id: String,
    /// The version after the action, as the answer gave it.
    version: u64,
    /// The notation of the action chosen; `None` for an answer marked duplicate (the action
    /// applied was sent before a cut and may have been an earlier choice for the same state).
    notation: Option<String>,
    /// When the action was chosen and sent, and when its answer came.
    sent: Instant,
    answered: Instant,
}

/// Every accepted action, by match, in the order each seat heard of them.
#[derive(Clone, Default)]
struct Ledger(Arc<Mutex<BTreeMap<String, Vec<Ack>>>>);

impl Ledger {
    fn record(&self, match_id: &str, ack: Ack) {
        self.0
            .lock()
            .unwrap()
            .entry(match_id.to_owned())
            .or_default()
            .push(ack);
    }

    fn acks(&self, match_id: &str) -> Vec<Ack> {
        self.0
            .lock()
            .unwrap()
            .get(match_id)
            .cloned()
            .unwrap_or_default()
    }

    fn match_ids(&self) -> Vec<String> {
        self.0.lock().unwrap().keys().cloned().collect()
    }
}

/// Plays at random and records in the ledger what it was told was accepted.
struct RecordingBot {
    random: RandomChoice,
    ledger: Ledger,
    match_id: String,
    /// The latest choice's notation and when it was made.
    chosen: Option<(String, Instant)>,
}

impl RecordingBot {
    fn new(seed: u64, ledger: Ledger, match_id: &str) -> Self {
        Self {
            random: RandomChoice::seeded(seed),
            ledger,
            match_id: match_id.to_owned(),
            chosen: None,
        }
    }
}

impl Bot for RecordingBot {
    fn choose(&mut self, view: &pb::MatchView, legal: &[pb::LegalAction]) -> Choice {
        let choice = self.random.choose(view, legal);
        if let Choice::Index(index) = &choice {
            let notation = legal
                .iter()
                .find(|action| action.index == *index)
                .map(|action| action.notation.clone())
                .unwrap_or_default();
            self.chosen = Some((notation, Instant::now()));
        }
        choice
    }

    fn needs_view(&self) -> bool {
        false
    }

    fn action_detail(&self) -> pb::ActionDetail {
        pb::ActionDetail::Notation
    }

    fn acted(&mut self, outcome: &pb::ActionOutcome) {
        let Some(pb::action_outcome::Result::Accepted(accepted)) = &outcome.result else {
            return;
        };
        let answered = Instant::now();
        let (notation, sent) = self
            .chosen
            .take()
            .expect("an answer comes to a choice sent");
        let seat = outcome
            .client_action_id
            .split_once('@')
            .map(|(seat, _)| seat.to_owned())
            .expect("the play loop's ids are seat@version");
        self.ledger.record(
            &self.match_id,
            Ack {
                seat,
                client_action_id: outcome.client_action_id.clone(),
                version: accepted.version,
                notation: (!accepted.duplicate).then_some(notation),
                sent,
                answered,
            },
        );
    }
}

/// The three replicas: their fixed addresses, and the processes running now.
struct Replicas {
    addresses: Vec<SocketAddr>,
    data_dirs: Vec<PathBuf>,
    store_url: String,
    running: Mutex<Vec<Option<ServerProcess>>>,
    /// Numbers each start, for its log file.
    starts: AtomicUsize,
}

impl Replicas {
    fn new(store_url: &str) -> Self {
        Self {
            addresses: (0..REPLICAS).map(|_| free_address()).collect(),
            data_dirs: (0..REPLICAS).map(|_| scratch_dir()).collect(),
            store_url: store_url.to_owned(),
            running: Mutex::new((0..REPLICAS).map(|_| None).collect()),
            starts: AtomicUsize::new(0),
        }
    }

    fn url(&self, replica: usize) -> String {
        url(self.addresses[replica])
    }

    /// Starts replica `replica` on its address and waits until it answers.
    async fn start(&self, replica: usize) {
        let address = self.addresses[replica];
        let environment = [
            ("PITCHMATE__STORE__URL", self.store_url.clone()),
            ("PITCHMATE__CLUSTER__REPLICA_ID", format!("r{replica}")),
            ("PITCHMATE__CLUSTER__ADVERTISE_URL", url(address)),
            (
                "PITCHMATE__CLUSTER__LEASE_TTL_SECS",
                LEASE_TTL_SECS.to_string(),
            ),
            // League bots look whether they are done at each heartbeat of their inbox.
            ("PITCHMATE__STREAM__HEARTBEAT_SECS", "1".to_owned()),
            // Every bot connects from 127.0.0.1: one client, to the per-client limits.
            ("PITCHMATE__LIMITS__CREATES_PER_SECOND", "1000".to_owned()),
            ("PITCHMATE__LIMITS__CREATE_BURST", "1000".to_owned()),
        ];
        let environment: Vec<(&str, &str)> = environment
            .iter()
            .map(|(name, value)| (*name, value.as_str()))
            .collect();
        let start = self.starts.fetch_add(1, Ordering::Relaxed);
        let log = self.data_dirs[replica].join(format!("replica-{start}.log"));
        let options = Options {
            environment: &environment,
            log: Some(&log),
            ..Options::default()
        };
        let process = ServerProcess::start_with(address, &self.data_dirs[replica], options).await;
        self.running.lock().unwrap()[replica] = Some(process);
    }

    /// SIGKILLs replica `replica`; returns when, just before the signal.
    fn kill(&self, replica: usize) -> Instant {
        let process = self.running.lock().unwrap()[replica]
            .take()
            .expect("the replica runs");
        let at = Instant::now();
        process.kill();
        at
    }

    /// Every line of every replica's log (warnings and worse).
    fn log_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for dir in &self.data_dirs {
            for entry in std::fs::read_dir(dir).expect("the data directory") {
                let path = entry.expect("an entry").path();
                if path.extension().is_some_and(|e| e == "log") {
                    let text = std::fs::read_to_string(&path).expect("a log");
                    lines.extend(text.lines().map(str::to_owned));
                }
            }
        }
        lines
    }

    async fn stop(self) {
        let running: Vec<ServerProcess> = self
            .running
            .lock()
            .unwrap()
            .iter_mut()
            .filter_map(Option::take)
            .collect();
        for process in running {
            let status = process.terminate().await;
            assert!(status.success(), "a replica exited with {status}");
        }
        for dir in &self.data_dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A client of `url`, once it answers.
async fn client_of(url: String) -> Client {
    loop {
        if let Ok(client) = Client::connect(url.clone()).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Calls `call` until it succeeds or fails for a reason retrying cannot mend.
async fn retrying<T, F, Fut>(mut call: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, ClientError>>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match call().await {
            Ok(value) => return value,
            Err(error) if error.is_transient() && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(error) => panic!("{error}"),
        }
    }
}

/// An operator key made by the `pitchmate` binary in the shared database.
fn operator_key(store_url: &str, data_dir: &Path) -> String {
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_pitchmate"))
        .arg("--data-dir")
        .arg(data_dir)
        .arg("operator-key")
        .env("PITCHMATE__STORE__URL", store_url)
        .output()
        .expect("run operator-key");
    assert!(made.status.success(), "{made:?}");
    String::from_utf8(made.stdout).unwrap().trim().to_owned()
}

fn kings_goal(moves_per_half: i64) -> NewMatch {
    NewMatch::variant("kings-goal").int_option("moves_per_half", moves_per_half)
}

/// Creates a match on replica `owner` and seats both sides through `seat_replicas`, each seat
/// playing in a task of its own through its replica once `go` turns true; the tasks end with
/// the match, giving when.
async fn start_match(
    replicas: &Replicas,
    owner: usize,
    seat_replicas: [usize; 2],
    seed: u64,
    ledger: &Ledger,
    go: &watch::Receiver<bool>,
) -> (String, Vec<JoinHandle<Instant>>) {
    let creator = client_of(replicas.url(owner)).await;
    let created = retrying(|| creator.create_match(kings_goal(MOVES_PER_HALF).seed(seed))).await;
    let match_id = created.match_id;
    let mut plays = Vec::new();
    for (index, (seat, replica)) in ["white", "black"]
        .into_iter()
        .zip(seat_replicas)
        .enumerate()
    {
        let client = client_of(replicas.url(replica)).await;
        let handle: SeatHandle = retrying(|| client.join(&match_id, Some(seat), seat)).await;
        let mut bot = RecordingBot::new(seed * 2 + index as u64, ledger.clone(), &match_id);
        let options = PlayOptions {
            reconnect: patient(),
            ..PlayOptions::default()
        };
        let mut go = go.clone();
        plays.push(tokio::spawn(async move {
            go.wait_for(|go| *go).await.expect("told to go");
            play_with(&client, &handle, &mut bot, &options)
                .await
                .expect("the seat is played to the match's end");
            Instant::now()
        }));
    }
    (match_id, plays)
}

/// Each league bot's loop through its own replica, until its tournament has ended.
fn play_the_league(
    replicas: &Replicas,
    bots: &[TestBot],
    ledger: &Ledger,
) -> Vec<JoinHandle<LeagueReport>> {
    let seeds = Arc::new(AtomicU64::new(1_000));
    bots.iter()
        .enumerate()
        .map(|(index, bot)| {
            let key = bot.key.clone();
            let (seeds, ledger) = (Arc::clone(&seeds), ledger.clone());
            let make_bot: BotMaker = Arc::new(move |assigned: &pb::InboxMatchAssigned| {
                Box::new(RecordingBot::new(
                    seeds.fetch_add(1, Ordering::Relaxed),
                    ledger.clone(),
                    &assigned.match_id,
                ))
            });
            let url = replicas.url(index % REPLICAS);
            tokio::spawn(async move {
                let client = client_of(url).await;
                let options = LeagueOptions {
                    stop_after_tournaments: Some(1),
                    play: PlayOptions {
                        reconnect: patient(),
                        ..PlayOptions::default()
                    },
                    reconnect: patient(),
                    ..LeagueOptions::default()
                };
                run_league(&client, &key, make_bot, options)
                    .await
                    .expect("the bot's league loop")
            })
        })
        .collect()
}

/// A kill: which replica, when, and the matches it owned then.
struct Kill {
    replica: usize,
    at: Instant,
    owned: Vec<String>,
}

/// The matches whose lease names replica `replica` now.
async fn owned_by(store: &Store, match_ids: &[String], replica: usize) -> Vec<String> {
    let prefix = format!("r{replica}/");
    let mut owned = Vec::new();
    for match_id in match_ids {
        if let Ok(Some(lease)) = store.lease_holder(&match_lease(match_id)).await
            && lease.holder.starts_with(&prefix)
        {
            owned.push(match_id.clone());
        }
    }
    owned
}

/// SIGKILLs the replicas in turn, `kills` times, each started again after a pause.
async fn chaos(
    replicas: Arc<Replicas>,
    store: Store,
    ledger: Ledger,
    created: Arc<Mutex<Vec<String>>>,
    kills: usize,
) -> Vec<Kill> {
    let mut done = Vec::new();
    for number in 0..kills {
        tokio::time::sleep(KILL_EVERY).await;
        let replica = number % REPLICAS;
        let mut known = created.lock().unwrap().clone();
        known.extend(ledger.match_ids());
        known.sort();
        known.dedup();
        let owned = owned_by(&store, &known, replica).await;
        let at = replicas.kill(replica);
        tokio::time::sleep(DOWN_FOR).await;
        replicas.start(replica).await;
        eprintln!(
            "kill {number}: r{replica} owned {} matches; up again after {:?}",
            owned.len(),
            at.elapsed()
        );
        done.push(Kill { replica, at, owned });
    }
    done
}

/// Checks one finished match's log against what its bots were told; returns the number of
/// actions in it.
fn check_match(match_id: &str, replay: &pb::GetReplayResponse, acks: &[Ack]) -> usize {
    use pb::match_event::Kind;
    let header = replay.header.clone().unwrap_or_default();
    assert_eq!(
        header.status,
        pb::MatchStatus::Finished as i32,
        "{match_id} finished"
    );
    assert!(header.result.is_some(), "{match_id} has a result");
    let seqs: Vec<u64> = replay.events.iter().map(|e| e.seq).collect();
    let expected: Vec<u64> = (1..=replay.events.len() as u64).collect();
    assert_eq!(seqs, expected, "{match_id}: events numbered without a gap");
    // Every action in the log: (seat, version after it, notation).
    let taken: Vec<(String, u64, String)> = replay
        .events
        .iter()
        .filter_map(|event| match &event.kind {
            Some(Kind::ActionTaken(taken)) => {
                Some((taken.seat.clone(), event.version, taken.notation.clone()))
            }
            _ => None,
        })
        .collect();
    for pair in taken.windows(2) {
        assert_eq!(
            pair[1].1,
            pair[0].1 + 1,
            "{match_id}: each action steps the version by one ({pair:?})"
        );
    }
    let by_version: HashMap<u64, &(String, u64, String)> =
        taken.iter().map(|entry| (entry.1, entry)).collect();
    let mut last_by_seat: HashMap<&str, u64> = HashMap::new();
    for ack in acks {
        let (seat, _, notation) = by_version.get(&ack.version).unwrap_or_else(|| {
            panic!(
                "{match_id}: {} was accepted at version {}, which the log lacks",
                ack.client_action_id, ack.version
            )
        });
        assert_eq!(
            seat, &ack.seat,
            "{match_id}: version {} is another seat's action",
            ack.version
        );
        if let Some(chosen) = &ack.notation {
            assert_eq!(
                notation, chosen,
                "{match_id}: the action logged at {} is the one chosen",
                ack.version
            );
        }
        let acted_on: u64 = ack
            .client_action_id
            .split_once('@')
            .and_then(|(_, version)| version.parse().ok())
            .expect("seat@version");
        assert_eq!(
            acted_on + 1,
            ack.version,
            "{match_id}: {} applied on the version it was sent for",
            ack.client_action_id
        );
        let last = last_by_seat.entry(ack.seat.as_str()).or_default();
        assert!(
            ack.version > *last,
            "{match_id}: {} heard in order and once",
            ack.client_action_id
        );
        *last = ack.version;
    }
    let verified = verify_replay(replay)
        .unwrap_or_else(|error| panic!("{match_id}: the log re-played: {error}"));
    assert_eq!(
        verified.actions,
        taken.len(),
        "{match_id}: every action re-played"
    );
    taken.len()
}

/// The replay of `match_id` from whichever replica answers.
async fn replay_of(replicas: &Replicas, match_id: &str) -> pb::GetReplayResponse {
    let client = client_of(replicas.url(0)).await;
    retrying(|| client.replay(match_id)).await
}

fn summary(mut values: Vec<Duration>) -> String {
    if values.is_empty() {
        return "none".to_owned();
    }
    values.sort();
    let at = |share: f64| values[((values.len() - 1) as f64 * share).round() as usize];
    format!(
        "n={} min {:.0} ms, median {:.0} ms, p90 {:.0} ms, max {:.0} ms",
        values.len(),
        values[0].as_secs_f64() * 1e3,
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        values[values.len() - 1].as_secs_f64() * 1e3,
    )
}

/// Each action's round trip (chosen and sent, to its answer) in these matches.
fn round_trips(ledger: &Ledger, match_ids: &[String]) -> Vec<Duration> {
    match_ids
        .iter()
        .flat_map(|id| ledger.acks(id))
        .map(|ack| ack.answered - ack.sent)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_replicas_lose_nothing_when_killed() {
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    // In a task of its own, so the schema is dropped whatever happens; a failing run's
    // replicas are killed as their handles drop.
    let outcome = tokio::spawn(prove(schema.url.clone())).await;
    schema.drop_schema().await;
    if let Err(failed) = outcome {
        std::panic::resume_unwind(failed.into_panic());
    }
}

async fn prove(store_url: String) {
    let matches = from_env("PITCHMATE_FAILOVER_MATCHES", DEFAULT_MATCHES);
    let wanted_kills = from_env("PITCHMATE_FAILOVER_KILLS", DEFAULT_KILLS);
    let began = Instant::now();
    let replicas = Arc::new(Replicas::new(&store_url));
    let operator = operator_key(&store_url, &replicas.data_dirs[0]);
    for replica in 0..REPLICAS {
        replicas.start(replica).await;
    }
    let store_dir = scratch_dir();
    let store = Store::open(&store_url, &store_dir)
        .await
        .expect("the test's own view of the database");
    let ledger = Ledger::default();

    // The cost of forwarding, before anything is killed: two matches owned by replica 0, one
    // with both seats on it, one with both on replica 1.
    let (_, at_once) = watch::channel(true);
    let (direct, direct_plays) = start_match(&replicas, 0, [0, 0], 1, &ledger, &at_once).await;
    let (forwarded, forwarded_plays) =
        start_match(&replicas, 0, [1, 1], 2, &ledger, &at_once).await;
    for play in direct_plays.into_iter().chain(forwarded_plays) {
        play.await.expect("a probe's seat");
    }
    let direct_trips = round_trips(&ledger, std::slice::from_ref(&direct));
    let forwarded_trips = round_trips(&ledger, std::slice::from_ref(&forwarded));

    // The league: four bots, each through its own replica, in a round robin.
    let operator_client = client_of(replicas.url(0)).await;
    let bots = register_bots(&operator_client, "failover", TOURNAMENT_BOTS).await;
    let mut terms_options = HashMap::new();
    terms_options.insert(
        "moves_per_half".to_owned(),
        pb::OptionValue {
            kind: Some(pb::option_value::Kind::IntValue(TOURNAMENT_MOVES_PER_HALF)),
        },
    );
    let spec = pb::TournamentSpec {
        name: "failover".to_owned(),
        kind: pb::TournamentKind::RoundRobin as i32,
        terms: Some(pb::MatchTerms {
            variant_id: "kings-goal".to_owned(),
            options: terms_options,
            ..Default::default()
        }),
        seed: Some(20),
        ..Default::default()
    };
    let tournament = common::tournaments::create(&operator_client, &operator, spec).await;
    let tournament_id = tournament.tournament_id;
    common::tournaments::enter_all(&operator_client, &tournament_id, &bots).await;
    let league = play_the_league(&replicas, &bots, &ledger);

    // The matches: each owned by the replica that created it, its seats on the other two. All
    // are created and seated before any is played, so that all are under way when the kills
    // start.
    let created = Arc::new(Mutex::new(vec![direct.clone(), forwarded.clone()]));
    let (go, told_to_go) = watch::channel(false);
    let mut plays = JoinSet::new();
    for index in 0..matches {
        let owner = index % REPLICAS;
        let seats = [(owner + 1) % REPLICAS, (owner + 2) % REPLICAS];
        let (match_id, seat_plays) = start_match(
            &replicas,
            owner,
            seats,
            100 + index as u64,
            &ledger,
            &told_to_go,
        )
        .await;
        created.lock().unwrap().push(match_id);
        for play in seat_plays {
            plays.spawn(async move { play.await.expect("a seat's task") });
        }
    }
    go.send_replace(true);
    common::tournaments::start(&operator_client, &operator, &tournament_id).await;
    let chaos_began = Instant::now();
    let chaos = tokio::spawn(chaos(
        Arc::clone(&replicas),
        store.clone(),
        ledger.clone(),
        Arc::clone(&created),
        wanted_kills,
    ));

    let everything = async {
        // In the order they end, so that a seat that fails fails the run at once rather than
        // leave its opponent waiting.
        let mut matches_over = chaos_began;
        while let Some(ended) = plays.join_next().await {
            matches_over = matches_over.max(ended.expect("a seat's task"));
        }
        let mut reports = Vec::new();
        for run in league {
            reports.push(run.await.expect("a league bot's task"));
        }
        let league_over = Instant::now();
        let kills = chaos.await.expect("the chaos task");
        (reports, kills, matches_over, league_over)
    };
    let (reports, kills, matches_over, league_over) = tokio::time::timeout(PATIENCE, everything)
        .await
        .expect("every match, the tournament and the kills are over in time");
    let played_for = began.elapsed();

    // Every match: finished, and its log is what its bots were told.
    let mut actions = 0;
    let mut checked = BTreeSet::new();
    let created = created.lock().unwrap().clone();
    for match_id in &created {
        let replay = replay_of(&replicas, match_id).await;
        actions += check_match(match_id, &replay, &ledger.acks(match_id));
        checked.insert(match_id.clone());
    }

    // The tournament: over, each pair met once, every game decided and its match checked.
    let over = common::tournaments::tournament(replicas.addresses[0], &tournament_id)
        .await
        .expect("the tournament");
    assert_eq!(over.status, pb::TournamentStatus::Finished as i32);
    let rounds = rounds(&operator_client, &tournament_id).await;
    let games = games(&rounds);
    let pairs = TOURNAMENT_BOTS * (TOURNAMENT_BOTS - 1) / 2;
    assert_eq!(games.len(), pairs, "every game once: {games:?}");
    assert_eq!(meetings(&rounds).len(), pairs, "every pair met");
    let mut tournament_matches = BTreeSet::new();
    for round in &rounds {
        for pairing in &round.pairings {
            let game = pairing.game.clone().expect("a game");
            assert!(
                [
                    pb::GameOutcome::FirstWon as i32,
                    pb::GameOutcome::SecondWon as i32,
                    pb::GameOutcome::Draw as i32,
                ]
                .contains(&game.outcome),
                "a game played to its result: {game:?}"
            );
            assert!(tournament_matches.insert(game.match_id.clone()));
            let replay = replay_of(&replicas, &game.match_id).await;
            actions += check_match(&game.match_id, &replay, &ledger.acks(&game.match_id));
            checked.insert(game.match_id);
        }
    }
    for (bot, report) in bots.iter().zip(&reports) {
        assert!(report.failed.is_empty(), "{}: {:?}", bot.id, report.failed);
        assert_eq!(report.tournaments.len(), 1);
        let assigned: BTreeSet<&str> = report
            .assigned
            .iter()
            .map(|a| a.match_id.as_str())
            .collect();
        assert_eq!(assigned.len(), TOURNAMENT_BOTS - 1, "{}: its games", bot.id);
    }
    // Nothing was played but what was checked.
    let unchecked: Vec<String> = ledger
        .match_ids()
        .into_iter()
        .filter(|id| !checked.contains(id))
        .collect();
    assert!(
        unchecked.is_empty(),
        "matches outside the run: {unchecked:?}"
    );

    // Failover: per kill, per match the killed replica owned, to the answer to that match's
    // first action sent after the kill (an answer already on its way when the replica died
    // says nothing of the failover).
    let mut failovers = Vec::new();
    for (number, kill) in kills.iter().enumerate() {
        let mut these = Vec::new();
        for match_id in &kill.owned {
            if let Some(next) = ledger
                .acks(match_id)
                .iter()
                .filter(|ack| ack.sent > kill.at)
                .map(|ack| ack.answered)
                .min()
            {
                these.push(next - kill.at);
            }
        }
        eprintln!(
            "kill {number} of r{}: {} of its matches went on: {}",
            kill.replica,
            kill.owned.len(),
            summary(these.clone())
        );
        failovers.extend(these);
    }
    assert_eq!(kills.len(), wanted_kills);
    assert!(
        !failovers.is_empty(),
        "some kill fell on a replica with live matches"
    );
    let log = replicas.log_lines();
    let panics: Vec<&String> = log.iter().filter(|l| l.contains("panicked")).collect();
    assert!(panics.is_empty(), "{panics:?}");
    let fenced = log
        .iter()
        .filter(|l| l.contains("a fenced write was refused"))
        .count();

    eprintln!(
        "failover run: {} matches ({} in the tournament), {actions} actions, {} kills, \
         lease ttl {LEASE_TTL_SECS} s, {:.1} s",
        checked.len(),
        tournament_matches.len(),
        kills.len(),
        played_for.as_secs_f64()
    );
    eprintln!(
        "from the start of the kills: the last match over after {:.1} s, the tournament after \
         {:.1} s",
        (matches_over - chaos_began).as_secs_f64(),
        league_over
            .saturating_duration_since(chaos_began)
            .as_secs_f64()
    );
    eprintln!(
        "failover time (SIGKILL to the match's next accepted action): {}",
        summary(failovers)
    );
    eprintln!(
        "action round trip, seats on the owner: {}",
        summary(direct_trips)
    );
    eprintln!(
        "action round trip, seats on another replica (forwarded): {}",
        summary(forwarded_trips)
    );
    eprintln!("fenced writes refused (in the replicas' logs): {fenced}");

    store.close().await.expect("close the test's store");
    let _ = std::fs::remove_dir_all(&store_dir);
    Arc::try_unwrap(replicas)
        .ok()
        .expect("nothing else holds the replicas")
        .stop()
        .await;
}
