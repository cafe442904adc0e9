//! Helpers for the end-to-end tests: start a real server on an ephemeral loopback port (on a
//! fresh data directory or a copy of a stored one), put a proxy that can be cut between it and
//! the clients, the small steps every game's tests share (seating a new match, acting at the
//! current version, reading refusals and events), and the manifest of a stored-match fixture
//! ([`fixture`]).

pub mod fixture;
mod proxy;

pub use proxy::CuttableProxy;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use pitchmate_client::pb::match_event::Kind;
use pitchmate_client::pb::stream_match_events_response::Item;
use pitchmate_client::{
    Choice, Client, ClientError, EventStream, NewMatch, RandomChoice, SeatHandle, pb, play,
};
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
    /// The data directory [`TestServer::start`] made, removed by [`TestServer::stop`].
    scratch_dir: Option<PathBuf>,
}

/// A data directory path no other test server uses.
fn scratch_dir() -> PathBuf {
    static STARTED: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir().join(format!(
        "pitchmate-e2e-{}-{nanos}-{}",
        std::process::id(),
        STARTED.fetch_add(1, Ordering::Relaxed)
    ))
}

impl TestServer {
    /// A server with the built-in default settings (the process environment is not read) and
    /// a fresh data directory of its own, so no test sees another's stored matches.
    pub async fn start() -> Self {
        Self::start_adjusted(|_| {}).await
    }

    /// Like [`TestServer::start`], with the settings changed by `adjust` first.
    pub async fn start_adjusted(adjust: impl FnOnce(&mut Settings)) -> Self {
        Self::start_in(scratch_dir(), adjust).await
    }

    /// Like [`TestServer::start`], on a fresh copy of the data directory `data_dir` (its files,
    /// such as a fixture's `pitchmate.db`): the server changes the copy, never `data_dir`.
    pub async fn start_on_copy_of(data_dir: &Path, adjust: impl FnOnce(&mut Settings)) -> Self {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir).expect("create the test data directory");
        let entries = std::fs::read_dir(data_dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", data_dir.display()));
        for entry in entries {
            let entry = entry.expect("a directory entry");
            if entry.file_type().expect("a file type").is_file() {
                std::fs::copy(entry.path(), dir.join(entry.file_name()))
                    .unwrap_or_else(|e| panic!("copy {}: {e}", entry.path().display()));
            }
        }
        Self::start_in(dir, adjust).await
    }

    /// A server on the data directory `dir`, removed by [`TestServer::stop`].
    async fn start_in(dir: PathBuf, adjust: impl FnOnce(&mut Settings)) -> Self {
        let cli = Cli {
            data_dir: Some(dir.clone()),
            ..Cli::default()
        };
        let mut settings =
            Settings::from_layers(&cli, Default::default()).expect("default settings");
        adjust(&mut settings);
        let mut server = Self::start_with(settings).await;
        server.scratch_dir = Some(dir);
        server
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
            scratch_dir: None,
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
        if let Some(dir) = self.scratch_dir.take() {
            std::fs::remove_dir_all(dir).expect("remove the test data directory");
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

/// Every event a stream delivers until the server closes it (after the match ends).
pub async fn collect_events(mut stream: EventStream) -> Vec<pb::MatchEvent> {
    let mut events = Vec::new();
    while let Some(message) = stream.message().await.expect("stream stays healthy") {
        if let Some(Item::Event(event)) = message.item {
            events.push(event);
        }
    }
    events
}

/// A match two random bots played to its end, as a spectator watched it live.
pub struct FinishedMatch {
    pub match_id: String,
    pub result: pb::MatchResult,
    /// The spectator's events, from the first to `MatchEnded`.
    pub watched: Vec<pb::MatchEvent>,
}

/// Creates `new`, lets two seeded random bots play every seat to the end while a spectator
/// watches, and checks what every finished match must satisfy: both seats saw the same result,
/// the rules ended it, the spectator saw a gap-free sequence from 1 ending in `MatchEnded`,
/// and reading the history afterwards gives the same sequence.
pub async fn play_random_match(server: &TestServer, new: NewMatch) -> FinishedMatch {
    let client = server.client().await;
    let created = client.create_match(new).await.expect("create match");
    let match_id = created.match_id.clone();
    let spectator = tokio::spawn(collect_events(
        client.watch(&match_id, 0, None).await.expect("watch"),
    ));

    let seats = join_seats(&client, &created).await;
    let players = seats.into_iter().enumerate().map(|(i, seat)| {
        let client = client.clone();
        tokio::spawn(
            async move { play(&client, &seat, &mut RandomChoice::seeded(i as u64 + 1)).await },
        )
    });
    let mut results = Vec::new();
    for player in players.collect::<Vec<_>>() {
        results.push(player.await.expect("player task").expect("player finishes"));
    }
    let result = results[0].clone();
    assert!(
        results.iter().all(|r| *r == result),
        "every seat sees the same result: {results:?}"
    );
    assert_eq!(result.reason(), pb::ResultReason::Rules, "{result:?}");

    let watched = spectator.await.expect("spectator task");
    let seqs: Vec<u64> = watched.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=watched.len() as u64).collect::<Vec<_>>(),
        "gap-free numbering from 1"
    );
    assert!(matches!(
        watched.last().and_then(|e| e.kind.as_ref()),
        Some(Kind::MatchEnded(_))
    ));

    let replayed =
        collect_events(client.watch(&match_id, 0, None).await.expect("watch again")).await;
    assert_eq!(
        replayed, watched,
        "the stored history is what the spectator saw live"
    );

    let finished = client
        .get_match(&match_id, None)
        .await
        .expect("get match")
        .r#match
        .expect("match");
    assert_eq!(finished.status(), pb::MatchStatus::Finished);
    assert_eq!(finished.last_seq, watched.len() as u64);
    assert_eq!(finished.result.as_ref(), Some(&result));
    FinishedMatch {
        match_id,
        result,
        watched,
    }
}

/// A square given by its name alone (`"e9"`), as typed actions accept it.
pub fn square(name: &str) -> Option<pb::Square> {
    Some(pb::Square {
        file: 0,
        rank: 0,
        name: name.to_owned(),
    })
}

/// Joins every seat of `created` in seat order, each as player `<seat>-bot`.
async fn join_seats(client: &Client, created: &pb::Match) -> Vec<SeatHandle> {
    let mut seats = Vec::with_capacity(created.seats.len());
    for seat in &created.seats {
        seats.push(
            client
                .join(
                    &created.match_id,
                    Some(&seat.seat),
                    &format!("{}-bot", seat.seat),
                )
                .await
                .unwrap_or_else(|e| panic!("join {}: {e}", seat.seat)),
        );
    }
    seats
}

/// Joins every seat of `created` in seat order, each as player `<seat>-bot`, and returns the
/// seats in that order: `let [white, black] = join_every_seat(..).await`. Panics unless the
/// match has exactly `N` seats.
pub async fn join_every_seat<const N: usize>(
    client: &Client,
    created: &pb::Match,
) -> [SeatHandle; N] {
    let seats = join_seats(client, created).await;
    let count = seats.len();
    seats
        .try_into()
        .unwrap_or_else(|_| panic!("expected {N} seats, the match has {count}"))
}

/// Creates `new` and takes every seat in seat order: `let [home, away] = seated(..).await`.
pub async fn seated<const N: usize>(client: &Client, new: NewMatch) -> [SeatHandle; N] {
    let created = client.create_match(new).await.expect("create match");
    join_every_seat(client, &created).await
}

/// Submits `choice` as `seat` at the match's current version, whatever the outcome.
pub async fn submit_now(
    client: &Client,
    seat: &SeatHandle,
    choice: Choice,
) -> Result<pb::SubmitActionResponse, ClientError> {
    let version = client
        .legal_actions(seat)
        .await
        .expect("legal actions")
        .version;
    client.submit(seat, version, "", choice).await
}

/// Submits `choice` as `seat` at the match's current version; it must be accepted.
pub async fn act(client: &Client, seat: &SeatHandle, choice: Choice) -> pb::SubmitActionResponse {
    submit_now(client, seat, choice.clone())
        .await
        .unwrap_or_else(|e| panic!("{} could not play {choice:?}: {e}", seat.seat))
}

/// The `ErrorInfo` reason (`ILLEGAL_ACTION`, `INVALID_OPTION`, ...) of a request that must have
/// been refused. Panics if it was accepted or the refusal carries no reason.
pub fn refusal_reason<T: std::fmt::Debug>(result: Result<T, ClientError>) -> String {
    let error = result.expect_err("must be refused");
    error
        .reason()
        .unwrap_or_else(|| panic!("no reason in {error}"))
}

/// One game's event type (`pb::chessyball_event::Kind`, ...): how to find it in a
/// [`pb::GameEvent`].
pub trait GameEventKind: Clone {
    /// This game's event in `game`, if `game` is one of this game's events.
    fn of(game: &pb::game_event::Game) -> Option<&Self>;
}

macro_rules! game_event_kind {
    ($($kind:ty => $game:ident),* $(,)?) => {$(
        impl GameEventKind for $kind {
            fn of(game: &pb::game_event::Game) -> Option<&Self> {
                match game {
                    pb::game_event::Game::$game(event) => event.kind.as_ref(),
                    _ => None,
                }
            }
        }
    )*};
}

game_event_kind! {
    pb::soccer_chess_event::Kind => SoccerChess,
    pb::chessyball_event::Kind => Chessyball,
    pb::kings_goal_event::Kind => KingsGoal,
    pb::xfutebol_event::Kind => Xfutebol,
    pb::gridiron_event::Kind => Gridiron,
}

/// `event`'s game event of type `K`, if it is one.
pub fn game_event<K: GameEventKind>(event: &pb::MatchEvent) -> Option<&K> {
    match &event.kind {
        Some(Kind::GameEvent(pb::GameEvent { game: Some(game) })) => K::of(game),
        _ => None,
    }
}

/// The game events of type `K` among `events`, in order:
/// `game_events::<pb::chessyball_event::Kind>(&response.events)`.
pub fn game_events<K: GameEventKind>(events: &[pb::MatchEvent]) -> Vec<K> {
    events.iter().filter_map(game_event::<K>).cloned().collect()
}

/// The match's events so far, from the first, as `seat` receives them (a spectator when
/// `None`): the stream is read up to the match's current `last_seq`, so this returns while
/// the match is still going.
pub async fn history_so_far(
    client: &Client,
    match_id: &str,
    seat: Option<&SeatHandle>,
) -> Vec<pb::MatchEvent> {
    // Each viewer numbers the events it may see: a seat counts its private ones too.
    let last_seq = client
        .get_match(match_id, seat)
        .await
        .expect("get match")
        .r#match
        .expect("match")
        .last_seq;
    let mut stream = client.watch(match_id, 0, seat).await.expect("watch");
    let mut events = Vec::new();
    while (events.len() as u64) < last_seq {
        let message = stream
            .message()
            .await
            .expect("stream")
            .expect("more events");
        if let Some(Item::Event(event)) = message.item {
            events.push(event);
        }
    }
    events
}
