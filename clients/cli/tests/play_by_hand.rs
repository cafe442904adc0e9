//! A person plays a seat through a pseudo-terminal: the built `pitchmate-cli play` against a
//! real server in this process, a random bot in the other seat.

use std::process::Command;
use std::time::Duration;

use pitchmate_client::{Client, ClientError, NewMatch, RandomChoice, SeatHandle, pb, play};
use pitchmate_e2e::{CuttableProxy, TestServer};
use rexpect::reader::{Options, ReadUntil, Regex};
use rexpect::session::{PtySession, spawn_with_options};
use tokio::sync::oneshot;

/// The longest wait for the next thing on the screen.
const SCREEN_TIMEOUT_MS: u64 = 20_000;
/// More prompts than a one-move-a-half King's Goal takes, to stop a match that never ends.
const MAX_PROMPTS: usize = 200;

/// What the person saw.
struct Seen {
    /// The notation entered after the numbers.
    notation: String,
    /// The refusal shown for a bad entry.
    refusal: String,
    prompts: usize,
    result: String,
}

/// The person's side, run on a thread of its own (the pty is read blocking): creates the match
/// with `play --create`, hands its id over, and plays.
fn person(url: String, match_id: oneshot::Sender<String>) -> Seen {
    let mut p = spawn_cli(&[
        "--server",
        &url,
        "--no-color",
        "play",
        "--create",
        "kings-goal",
        "--option",
        "moves_per_half=1",
        "--name",
        "person",
    ]);

    let (_, created) = p
        .exp_regex(r"match [0-9a-f-]{36} \(kings-goal\) created")
        .expect("the match is created");
    let id = created.split(' ').nth(1).expect("an id").to_owned();
    // The bot joins only once the person holds the first seat.
    p.exp_string("you play white")
        .expect("the person takes a seat");
    match_id.send(id).expect("the test waits for the id");

    // The board with its coordinates, then the numbered legal actions.
    p.exp_string("a  b  c  d  e  f  g  h")
        .expect("file letters");
    p.exp_string("legal actions:").expect("a list");
    let (_, first) = p.exp_regex(r"1\. \S+").expect("action 1");
    let notation = first.trim_start_matches("1. ").to_owned();
    prompt(&mut p);

    // A bad entry: the server's refusal is shown and the prompt repeats.
    p.send_line("zz9").expect("type");
    let (_, refusal) = p
        .exp_regex(r"refused \([A-Z_]+\): [^\r\n]+")
        .expect("refusal");
    prompt(&mut p);
    // A number out of range is caught before it is sent.
    p.send_line("999").expect("type");
    p.exp_string("there is no action 999")
        .expect("out of range");
    prompt(&mut p);
    // The start of notations lists just those, under their own numbers; Enter lists all again.
    p.send_line("+d").expect("type");
    p.exp_string("legal actions starting with \"+d\" (Enter lists all):")
        .expect("a narrowed list");
    let narrowed = p.exp_string("your action (1-").expect("the prompt");
    assert!(narrowed.contains("6. +default"), "{narrowed}");
    assert!(!narrowed.contains("1. +Q"), "{narrowed}");
    prompt(&mut p);
    p.send_line("").expect("type");
    p.exp_string("legal actions:").expect("the whole list");
    prompt(&mut p);

    // A notation, then numbers until the match ends.
    p.send_line(&notation).expect("type");
    p.exp_string(&format!("you play {notation}"))
        .expect("the notation is played");
    let (prompts, result) = play_out(&mut p);
    Seen {
        notation,
        refusal,
        prompts,
        result,
    }
}

/// Enters 1 at every prompt until the result shows and the command ends; the prompts answered
/// and the result line.
fn play_out(p: &mut PtySession) -> (usize, String) {
    let mut prompts = 0;
    let result_line = Regex::new(r"result: [^\r\n]+").expect("a regex");
    let result = loop {
        let (_, found) = p
            .exp_any(vec![
                ReadUntil::String("your action (1-".into()),
                ReadUntil::Regex(result_line.clone()),
            ])
            .expect("a prompt or the result");
        if found.starts_with("result: ") {
            break found;
        }
        prompts += 1;
        assert!(prompts < MAX_PROMPTS, "the match does not end");
        p.send_line("1").expect("type");
    };
    p.exp_eof().expect("the command ends with the match");
    (prompts, result)
}

fn prompt(p: &mut PtySession) {
    p.exp_string("a notation or its start, resign, draw, q to leave): ")
        .expect("the prompt");
}

fn spawn_cli(args: &[&str]) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitchmate-cli"));
    command.args(args);
    let options = Options::new()
        .timeout_ms(Some(SCREEN_TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    spawn_with_options(command, options).expect("spawn pitchmate-cli in a pty")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_match_to_its_end_by_number_and_notation() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let (id_sender, id) = oneshot::channel();
    let url = server.url();
    let person = tokio::task::spawn_blocking(move || person(url, id_sender));

    let match_id = tokio::time::timeout(Duration::from_secs(30), id)
        .await
        .expect("the person creates a match in time")
        .expect("the id");
    let seat = client
        .join(&match_id, None, "random")
        .await
        .expect("the bot joins");
    assert_eq!(seat.seat, "black");
    let bot = play(&client, &seat, &mut RandomChoice::seeded(3))
        .await
        .expect("the bot plays to the end");
    let seen = person.await.expect("the person's side");

    assert!(seen.notation.starts_with('+'), "{}", seen.notation);
    assert!(seen.refusal.contains("zz9"), "{}", seen.refusal);
    assert!(seen.prompts > 0);
    let summary = client.get_match(&match_id, None).await.expect("the match");
    let summary = summary.r#match.expect("a match");
    assert_eq!(
        summary.status(),
        pitchmate_client::pb::MatchStatus::Finished
    );
    assert_eq!(
        seen.result,
        pitchmate_cli::describe::result(&bot),
        "the person saw the result the bot got"
    );
    server.stop().await;
}

/// The person holds a seat by its token, through a connection the test cuts while the person is
/// to act: the play goes on after it is restored, to the end of the match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_connection_resumes_and_the_match_is_played_to_its_end() {
    let server = TestServer::start().await;
    let mut proxy = CuttableProxy::start(server.addr).await;
    let client = server.client().await;
    let (person_seat, _, bot) = person_against_a_bot(&client).await;

    let (to_cut, cut_now) = oneshot::channel();
    let (restored, cut_done) = oneshot::channel::<()>();
    let url = proxy.url();
    let person = tokio::task::spawn_blocking(move || {
        let mut p = spawn_cli(&[
            "--server",
            &url,
            "play",
            &person_seat.match_id,
            "--token",
            &person_seat.token,
        ]);
        p.exp_string("you play white")
            .expect("the seat of the token");
        prompt(&mut p);
        to_cut.send(()).expect("the test cuts");
        cut_done.blocking_recv().expect("the test restores");
        // Entered while the connection was down: the loop reconnects and asks again.
        p.send_line("1").expect("type");
        play_out(&mut p)
    });

    cut_now.await.expect("the person is at a prompt");
    let open = proxy.cut().await;
    assert!(open > 0, "the person's connection went through the proxy");
    tokio::time::sleep(Duration::from_millis(300)).await;
    proxy.restore().await;
    restored.send(()).expect("the person waits");

    let (_, result) = person.await.expect("the person's side");
    let bot = bot.await.expect("task").expect("the bot plays to the end");
    assert_eq!(result, pitchmate_cli::describe::result(&bot));
    server.stop().await;
}

/// `resign` ends the match at the person's prompt: the other seat wins by resignation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_resigns() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let (person_seat, _, bot) = person_against_a_bot(&client).await;
    let url = server.url();
    let person = tokio::task::spawn_blocking(move || {
        let mut p = spawn_seat_play(&url, &person_seat);
        prompt(&mut p);
        p.send_line("resign").expect("type");
        p.exp_string("you resign")
            .expect("the resignation is shown");
        let (_, result) = p.exp_regex(r"result: [^\r\n]+").expect("the result");
        p.exp_eof().expect("the command ends with the match");
        result
    });
    let result = person.await.expect("the person's side");
    let bot = bot.await.expect("task").expect("the bot's play ends");
    assert_eq!(bot.winner, "black");
    assert_eq!(bot.reason(), pb::ResultReason::Resignation);
    assert_eq!(result, pitchmate_cli::describe::result(&bot));
    server.stop().await;
}

/// `draw` offers a draw and the person is still to move; the opponent accepts meanwhile and the
/// screen shows the drawn result without the person typing anything more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offered_at_the_prompt_and_accepted_ends_the_match() {
    let server = TestServer::start().await;
    let client = server.client().await;
    let (person_seat, bot_seat, bot) = person_against_a_bot(&client).await;
    let match_id = person_seat.match_id.clone();
    let url = server.url();
    let (offered, offer_made) = oneshot::channel();
    let person = tokio::task::spawn_blocking(move || {
        let mut p = spawn_seat_play(&url, &person_seat);
        prompt(&mut p);
        p.send_line("draw").expect("type");
        p.exp_string("you offer a draw")
            .expect("the offer is shown");
        offered.send(()).expect("the test accepts");
        let (_, result) = p.exp_regex(r"result: [^\r\n]+").expect("the result");
        p.exp_eof().expect("the command ends with the match");
        result
    });
    offer_made.await.expect("the person offers");
    let summary = client.get_match(&match_id, None).await.expect("the match");
    assert_eq!(summary.r#match.expect("a match").draw_offered_by, "white");
    client
        .accept_draw(&bot_seat)
        .await
        .expect("the other seat accepts");
    let result = person.await.expect("the person's side");
    let bot = bot.await.expect("task").expect("the bot's play ends");
    assert_eq!(bot.reason(), pb::ResultReason::DrawAgreed);
    assert!(bot.winner.is_empty());
    assert_eq!(result, pitchmate_cli::describe::result(&bot));
    server.stop().await;
}

/// A short King's Goal with the person in white (to move first) and a random bot playing black.
async fn person_against_a_bot(
    client: &Client,
) -> (
    SeatHandle,
    SeatHandle,
    tokio::task::JoinHandle<Result<pb::MatchResult, ClientError>>,
) {
    let created = client
        .create_match(NewMatch::variant("kings-goal").int_option("moves_per_half", 1))
        .await
        .expect("create");
    let person = client
        .join(&created.match_id, Some("white"), "person")
        .await
        .expect("join");
    let bot_seat = client
        .join(&created.match_id, Some("black"), "random")
        .await
        .expect("join");
    let (bot_client, seat) = (client.clone(), bot_seat.clone());
    let bot =
        tokio::spawn(async move { play(&bot_client, &seat, &mut RandomChoice::seeded(5)).await });
    (person, bot_seat, bot)
}

fn spawn_seat_play(url: &str, seat: &SeatHandle) -> PtySession {
    spawn_cli(&[
        "--server",
        url,
        "--no-color",
        "play",
        &seat.match_id,
        "--token",
        &seat.token,
    ])
}
