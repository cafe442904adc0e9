//! Shared by the integration tests: a real server on 127.0.0.1:0 and helpers to drive it over
//! TCP with the generated clients. Each test file uses a different subset of the helpers.
#![allow(dead_code)]

pub mod cluster;
pub mod process;
pub mod raw;
pub mod tournaments;

use std::collections::HashMap;
use std::net::SocketAddr;

use pitchmate_proto::v1 as pb;
use pitchmate_server::config::{Cli, Settings};
use pitchmate_server::serve;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::{Channel, Endpoint};
use tonic::{Request, Status};
use tonic_types::StatusExt;

pub use pb::bot_service_client::BotServiceClient;
pub use pb::match_service_client::MatchServiceClient;
pub use pb::variant_service_client::VariantServiceClient;

pub const SOCCER_CHESS: &str = "soccer-chess";

pub struct TestServer {
    pub address: SocketAddr,
    data_dir: std::path::PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), pitchmate_server::ServeError>>,
}

/// A connection to `address` from `local`, a loopback address other than 127.0.0.1 (Linux
/// answers the whole 127.0.0.0/8): to the server's per-client limits, another client.
pub async fn channel_from(address: SocketAddr, local: &str) -> Channel {
    Endpoint::from_shared(format!("http://{address}"))
        .expect("endpoint")
        .local_address(Some(local.parse().expect("an IP address")))
        .connect()
        .await
        .expect("connect")
}

/// Settings for a test server: defaults, with a fresh data directory.
pub fn test_settings() -> Settings {
    let data_dir = std::env::temp_dir().join(format!("pitchmate-test-{}", uuid::Uuid::new_v4()));
    let cli = Cli {
        data_dir: Some(data_dir),
        ..Cli::default()
    };
    Settings::from_layers(&cli, HashMap::new()).expect("default settings")
}

pub async fn start() -> TestServer {
    start_with(test_settings()).await
}

pub async fn start_with(settings: Settings) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let (stop, stopped) = oneshot::channel::<()>();
    let data_dir = settings.data_dir.clone();
    let task = tokio::spawn(async move {
        serve(&settings, listener, async {
            // A dropped sender stops the server too.
            let _ = stopped.await;
        })
        .await
    });
    TestServer {
        address,
        data_dir,
        stop: Some(stop),
        task,
    }
}

impl TestServer {
    pub fn endpoint(&self) -> Endpoint {
        Endpoint::from_shared(format!("http://{}", self.address)).expect("endpoint")
    }

    pub async fn channel(&self) -> Channel {
        self.endpoint().connect().await.expect("connect")
    }

    pub async fn matches(&self) -> MatchServiceClient<Channel> {
        MatchServiceClient::new(self.channel().await)
    }

    /// A client whose connection comes from `local`, a loopback address other than 127.0.0.1
    /// (Linux answers the whole 127.0.0.0/8): to the server's per-client limits, another client.
    pub async fn matches_from(&self, local: &str) -> MatchServiceClient<Channel> {
        MatchServiceClient::new(channel_from(self.address, local).await)
    }

    pub async fn bots(&self) -> BotServiceClient<Channel> {
        BotServiceClient::new(self.channel().await)
    }

    pub async fn variants(&self) -> VariantServiceClient<Channel> {
        VariantServiceClient::new(self.channel().await)
    }

    /// Stops the server gracefully and starts it again on the same data directory and settings
    /// (on a new port).
    pub async fn restart(mut self, settings: Settings) -> TestServer {
        assert_eq!(
            settings.data_dir, self.data_dir,
            "a restart keeps the data directory"
        );
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task)
            .await
            .expect("server task")
            .expect("server result");
        start_with(settings).await
    }

    /// Stops the server gracefully, waits until it has, and removes its data directory.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task)
            .await
            .expect("server task")
            .expect("server result");
        std::fs::remove_dir_all(&self.data_dir).expect("remove the test data directory");
    }
}

/// A server a test drops without stopping it stops as its sender goes, and its data directory
/// goes with it (a stopped or restarted one has handed its directory on already).
impl Drop for TestServer {
    fn drop(&mut self) {
        if self.stop.is_some() {
            let _ = std::fs::remove_dir_all(&self.data_dir);
        }
    }
}

/// A request carrying a seat token.
pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header"),
    );
    request
}

/// The `ErrorInfo.reason` of a failed call. Every INVALID_ARGUMENT answer must also name the
/// field it is about in a `BadRequest` (but for a body that is not protobuf at all).
pub fn reason(status: &Status) -> String {
    let details = status.get_error_details();
    let reason = details
        .error_info()
        .expect("ErrorInfo on every error")
        .reason
        .clone();
    if status.code() == tonic::Code::InvalidArgument && reason != "MALFORMED_MESSAGE" {
        let named = details
            .bad_request()
            .is_some_and(|bad| !bad.field_violations.is_empty());
        assert!(
            named,
            "INVALID_ARGUMENT without a field violation: {status:?}"
        );
    }
    reason
}

/// The field an INVALID_ARGUMENT answer's `BadRequest` names.
pub fn bad_field(status: &Status) -> String {
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    status
        .get_error_details()
        .bad_request()
        .and_then(|bad| bad.field_violations.first().map(|v| v.field.clone()))
        .unwrap_or_else(|| panic!("no BadRequest in {status:?}"))
}

/// Options that keep a Soccer Chess match short: one set per side per game.
pub fn short_options() -> HashMap<String, pb::OptionValue> {
    let int = |v| pb::OptionValue {
        kind: Some(pb::option_value::Kind::IntValue(v)),
    };
    HashMap::from([
        ("sets_per_game".to_owned(), int(1)),
        ("golden_goal_max_sets".to_owned(), int(1)),
    ])
}

pub async fn create(client: &mut MatchServiceClient<Channel>) -> pb::Match {
    client
        .create_match(pb::CreateMatchRequest {
            variant_id: SOCCER_CHESS.to_owned(),
            options: short_options(),
            seed: Some(7),
            start_position: String::new(),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .r#match
        .expect("match")
}

/// A created match with both seats taken.
pub struct Seated {
    pub match_id: String,
    /// Tokens by seat name.
    pub tokens: HashMap<String, String>,
}

impl Seated {
    pub fn token(&self, seat: &str) -> &str {
        &self.tokens[seat]
    }
}

pub async fn seated(client: &mut MatchServiceClient<Channel>) -> Seated {
    let created = create(client).await;
    let mut tokens = HashMap::new();
    for name in ["alice", "bob"] {
        let joined = client
            .join_match(pb::JoinMatchRequest {
                match_id: created.match_id.clone(),
                seat: String::new(),
                player_name: name.to_owned(),
            })
            .await
            .expect("join")
            .into_inner();
        tokens.insert(joined.seat, joined.seat_token);
    }
    Seated {
        match_id: created.match_id,
        tokens,
    }
}

pub async fn get(client: &mut MatchServiceClient<Channel>, match_id: &str) -> pb::Match {
    client
        .get_match(pb::GetMatchRequest {
            match_id: match_id.to_owned(),
        })
        .await
        .expect("get")
        .into_inner()
        .r#match
        .expect("match")
}

/// The seat whose turn it is.
pub async fn to_act(client: &mut MatchServiceClient<Channel>, match_id: &str) -> Option<String> {
    get(client, match_id)
        .await
        .turn
        .and_then(|t| t.to_act.first().cloned())
}

/// Plays the action at `pick(number of legal actions)` for whoever is to act; returns the
/// response, or `None` when nobody is to act.
pub async fn play_one(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    pick: impl FnOnce(usize) -> usize,
) -> Option<pb::SubmitActionResponse> {
    let seat = to_act(client, &seated.match_id).await?;
    let legal = client
        .get_legal_actions(authed(
            pb::GetLegalActionsRequest {
                match_id: seated.match_id.clone(),
                ..Default::default()
            },
            seated.token(&seat),
        ))
        .await
        .expect("legal actions")
        .into_inner();
    let index = pick(legal.actions.len()) as u32;
    let response = client
        .submit_action(authed(
            pb::SubmitActionRequest {
                match_id: seated.match_id.clone(),
                expected_version: legal.version,
                client_action_id: String::new(),
                choice: Some(pb::submit_action_request::Choice::Index(index)),
            },
            seated.token(&seat),
        ))
        .await
        .expect("submit")
        .into_inner();
    Some(response)
}

/// A small deterministic generator, so playouts vary but repeat.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

/// Plays pseudo-random legal actions until the match ends or `limit` actions were played;
/// returns how many were played.
pub async fn play_many(
    client: &mut MatchServiceClient<Channel>,
    seated: &Seated,
    limit: usize,
    seed: u64,
) -> usize {
    let mut rng = Lcg(seed);
    for played in 0..limit {
        if play_one(client, seated, |n| rng.below(n)).await.is_none() {
            return played;
        }
    }
    limit
}

/// Runs `play(client, seated, seat, seed)` for both seats of `seated` at once, each on a
/// connection of its own with seed 0 or 1, and returns what each returned, first seat first.
pub async fn both_seats<T, F, Fut>(
    server: &TestServer,
    seated: &std::sync::Arc<Seated>,
    play: F,
) -> Vec<T>
where
    F: Fn(MatchServiceClient<Channel>, std::sync::Arc<Seated>, &'static str, u64) -> Fut,
    Fut: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let mut players = Vec::new();
    for (seed, seat) in ["first", "second"].into_iter().enumerate() {
        let client = server.matches().await;
        players.push(tokio::spawn(play(
            client,
            std::sync::Arc::clone(seated),
            seat,
            seed as u64,
        )));
    }
    let mut results = Vec::new();
    for player in players {
        results.push(player.await.expect("player"));
    }
    results
}

/// Every event of a match as `token`'s seat (or a spectator) sees it, read from a stream
/// started at 0 and stopped once `count` events arrived.
pub async fn read_events(
    client: &mut MatchServiceClient<Channel>,
    match_id: &str,
    after_seq: u64,
    count: usize,
) -> Vec<pb::MatchEvent> {
    let mut stream = client
        .stream_match_events(pb::StreamMatchEventsRequest {
            match_id: match_id.to_owned(),
            after_seq,
            include_legal_actions: false,
            ..Default::default()
        })
        .await
        .expect("stream")
        .into_inner();
    let mut events = Vec::new();
    while events.len() < count {
        let item = stream
            .message()
            .await
            .expect("stream item")
            .expect("stream open");
        if let Some(pb::stream_match_events_response::Item::Event(event)) = item.item {
            events.push(event);
        }
    }
    events
}

/// A match's whole stored history holds, gap-free from seq 1, every acknowledged answer's
/// events at the seqs the answer named, and no action beyond those acknowledged: nothing
/// acknowledged was lost, nothing was applied twice.
pub fn assert_stored_exactly_the_acknowledged(
    stored: &[pb::MatchEvent],
    answers: &[&pb::SubmitActionResponse],
) {
    let seqs: Vec<u64> = stored.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=stored.len() as u64).collect::<Vec<_>>(),
        "gap-free from 1"
    );
    for answer in answers {
        for event in &answer.events {
            assert_eq!(
                &stored[event.seq as usize - 1],
                event,
                "acknowledged, so stored as answered"
            );
        }
    }
    let actions = stored
        .iter()
        .filter(|e| matches!(e.kind, Some(pb::match_event::Kind::ActionTaken(_))))
        .count();
    assert_eq!(
        actions,
        answers.len(),
        "each acknowledged action applied exactly once, and no other"
    );
}
