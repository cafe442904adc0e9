//! SIGTERM on the real binary has a deadline: clients that will not let go (a silent socket, a
//! client that ignores GOAWAY and keeps a call open, a `Play` stream that never sends `open`)
//! are cut when `connections.shutdown_timeout_secs` runs out, the process exits 0, and after a
//! restart every acknowledged action is stored. Cooperative clients let it exit without
//! waiting for the deadline.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::process::{Options, ServerProcess, free_address, scratch_dir, url};
use common::raw;
use pitchmate_client::{Choice, Client, NewMatch, SeatHandle, pb};
use tokio::net::TcpStream;
use tonic::transport::Endpoint;

/// What the test waits for anything before calling it never.
const PATIENCE: Duration = Duration::from_secs(60);

/// Time for the process to stop after its deadline: closing the store, exiting. Generous, as
/// the tests share the machine with others; without the deadline the process never exits.
const MARGIN: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_cuts_uncooperative_clients_at_the_deadline_and_keeps_every_acknowledged_action() {
    let deadline = Duration::from_secs(2);
    let (address, data_dir) = (free_address(), scratch_dir());
    let log = data_dir.with_extension("log");
    let server = ServerProcess::start_with(
        address,
        &data_dir,
        Options {
            environment: &[(
                "PITCHMATE__CONNECTIONS__SHUTDOWN_TIMEOUT_SECS",
                &deadline.as_secs().to_string(),
            )],
            log: Some(&log),
            ..Options::default()
        },
    )
    .await;
    let client = Client::connect(url(address)).await.expect("connect");
    let (match_id, seats) = seat_two(&client).await;
    let acked = Arc::new(Mutex::new(Vec::new()));
    let bot = tokio::spawn(play_until_refused(
        client.clone(),
        match_id.clone(),
        seats.clone(),
        Arc::clone(&acked),
    ));

    // Connected, silent.
    let mut silent = TcpStream::connect(address).await.expect("connect");
    // Handshaken, a call open whose body never comes, pings answered, GOAWAY ignored.
    let mut ignoring = raw::handshake();
    ignoring.extend(raw::call_headers(
        1,
        "/pitchmate.v1.ServerService/Ping",
        &[],
    ));
    let ignoring = tokio::spawn(raw::answer_until_closed(
        raw::connect_and_send(address, &ignoring).await,
    ));
    // A Play stream that never opens, on a connection of its own.
    let channel = Endpoint::from_shared(url(address))
        .unwrap()
        .connect()
        .await
        .expect("connect");
    let unopened = {
        let mut matches = pb::match_service_client::MatchServiceClient::new(channel.clone());
        let request = seats[0]
            .authorize(tokio_stream::pending::<pb::PlayRequest>())
            .unwrap();
        tokio::spawn(async move { matches.play(request).await.map(|_| ()) })
    };
    // Its HEADERS went out first on the connection, so an answer here means the server has
    // the Play call.
    pb::server_service_client::ServerServiceClient::new(channel)
        .ping(pb::PingRequest {})
        .await
        .expect("ping behind the Play call");
    wait_for_acks(&acked, 10).await;

    let signalled = Instant::now();
    let status = server.terminate().await;
    let took = signalled.elapsed();
    assert!(status.success(), "exit status {status:?}");
    assert!(
        took < deadline + MARGIN,
        "exited {took:?} after SIGTERM with a {deadline:?} deadline"
    );
    let logged = std::fs::read_to_string(&log).expect("the server's log");
    assert!(
        logged.contains("shutdown deadline passed"),
        "the deadline, not the clients, ended the drain:\n{logged}"
    );

    bot.await.expect("bot");
    raw::until_closed(&mut silent, PATIENCE)
        .await
        .expect("the silent socket is closed");
    let frames = tokio::time::timeout(PATIENCE, ignoring)
        .await
        .expect("the ignoring client is cut")
        .expect("reader");
    assert!(
        frames.iter().any(|f| f.kind == raw::GOAWAY),
        "GOAWAY came before the cut: {frames:?}"
    );
    let unopened = tokio::time::timeout(PATIENCE, unopened)
        .await
        .expect("the unopened Play call ends")
        .expect("task");
    assert!(unopened.is_err(), "an unopened Play stream never starts");

    let server = ServerProcess::start(address, &data_dir).await;
    let client = Client::connect(url(address)).await.expect("reconnect");
    let stored = client.replay(&match_id).await.expect("replay").events;
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 10);
    // Every stored action was acknowledged: in-flight calls finished before the cut.
    common::assert_stored_exactly_the_acknowledged(&stored, &acked.iter().collect::<Vec<_>>());
    assert!(server.terminate().await.success());
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
    std::fs::remove_file(&log).expect("remove the log");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_with_cooperative_clients_exits_without_waiting_for_the_deadline() {
    let (address, data_dir) = (free_address(), scratch_dir());
    // An hour: the test's own patience runs out long before, so only a drain that finishes
    // by itself passes.
    let server = ServerProcess::start_with(
        address,
        &data_dir,
        Options {
            environment: &[("PITCHMATE__CONNECTIONS__SHUTDOWN_TIMEOUT_SECS", "3600")],
            ..Options::default()
        },
    )
    .await;
    let client = Client::connect(url(address)).await.expect("connect");
    let (match_id, seats) = seat_two(&client).await;
    // An open event stream, a Play stream and an idle connection, all well behaved.
    let mut watching = client.watch(&match_id, 0, None).await.expect("watch");
    let mut playing = client
        .open_play(&seats[1], 0, pb::ActionDetail::Notation)
        .await
        .expect("play");
    let _idle = Client::connect(url(address)).await.expect("connect");

    assert!(server.terminate().await.success());
    // Both streams were ended by the server rather than cut.
    while watching
        .message()
        .await
        .expect("ended by the server, not cut")
        .is_some()
    {}
    while playing
        .message()
        .await
        .expect("ended by the server, not cut")
        .is_some()
    {}
    std::fs::remove_dir_all(&data_dir).expect("remove the data directory");
}

async fn seat_two(client: &Client) -> (String, Vec<SeatHandle>) {
    let created = client
        .create_match(NewMatch::variant("soccer-chess").seed(3))
        .await
        .expect("create");
    let mut seats = Vec::new();
    for seat in &created.seats {
        seats.push(
            client
                .join(&created.match_id, Some(&seat.seat), &seat.seat)
                .await
                .expect("join"),
        );
    }
    (created.match_id, seats)
}

/// Plays whoever is to act, recording every acknowledged submission, until a call fails for
/// any reason but a race between the seats (the server going away).
async fn play_until_refused(
    client: Client,
    match_id: String,
    seats: Vec<SeatHandle>,
    acked: Arc<Mutex<Vec<pb::SubmitActionResponse>>>,
) {
    for number in 0u32.. {
        let Ok(found) = client.get_match(&match_id, None).await else {
            return;
        };
        let Some(to_act) = found
            .r#match
            .and_then(|m| m.turn)
            .and_then(|t| t.to_act.first().cloned())
        else {
            return;
        };
        let seat = seats.iter().find(|s| s.seat == to_act).expect("a seat");
        let Ok(legal) = client.legal_actions(seat).await else {
            return;
        };
        if legal.actions.is_empty() {
            continue;
        }
        let pick = number.wrapping_mul(7) % legal.actions.len() as u32;
        let id = format!("{}-{number}", seat.seat);
        match client
            .submit(seat, legal.version, &id, Choice::Index(pick))
            .await
        {
            Ok(answer) => acked.lock().unwrap().push(answer),
            Err(error)
                if matches!(
                    error.reason().as_deref(),
                    Some("STALE_VERSION" | "NOT_YOUR_TURN")
                ) => {}
            Err(_) => return,
        }
    }
}

async fn wait_for_acks(acked: &Mutex<Vec<pb::SubmitActionResponse>>, count: usize) {
    let deadline = Instant::now() + PATIENCE;
    while acked.lock().unwrap().len() < count {
        assert!(Instant::now() < deadline, "the bot stalled");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
